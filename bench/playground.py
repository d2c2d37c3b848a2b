"""Measure the browser playground in the system Chromium: cold load and bot moves in the page.

    python bench/playground.py            # --runs 3 --greedy-moves 60 --mcts-moves 6

* **cold load**: a fresh browser context (empty cache) opens a game whose first turn is a
  person's; the time from navigation to the first playable board (the legal moves listed);
* **bot moves in the page**: the playground's own Web Worker (Pyodide and the wheel) plays
  bots' moves one request at a time; each is timed in the page from the request to the
  answer (the bot's choice, the move, the seat's view and the SVG board), and the bridge
  reports the bot's own thinking time. The same bots then choose the same moves in this
  CPython process, the baseline for the ratio.

Needs the dev extra (Playwright), Chromium (``/usr/bin/chromium``) and the Pyodide runtime
(``npm ci``). A measurement, not a test: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

from pegs_rules import apply, new_game
from pegs_rules.bots import decide, make_bot
from pegs_rules.moves import parse_notation
from pegs_rules.web.build import build

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
FIRST_TURN_IS_A_PERSONS = "?players=4&seed=4&seats=greedy,greedy,human,greedy&delay=0"
BOT_MOVES = """async ([seats, seed, count]) => {
    const config = await (await fetch("config.json")).json();
    const url = new URL("js/worker.js", location.href);
    url.searchParams.set("wheel", new URL(config.wheel, location.href).href);
    url.searchParams.set("pyodide", new URL(config.pyodide, location.href).href);
    const worker = new Worker(url, { type: "module" });
    const waiting = new Map();
    let id = 0;
    worker.onmessage = ({ data }) => {
        if (data.id !== undefined) waiting.get(data.id)(data.answer);
    };
    const ask = (request) => new Promise((resolve) => {
        id += 1;
        waiting.set(id, resolve);
        worker.postMessage({ id, request });
    });
    worker.postMessage({ pace: 1e9 });  // no bot moves but those asked for here
    await ask({ op: "new_game", players: 4, seed, seats });
    const moves = [];
    for (let i = 0; i < count; i += 1) {
        const started = performance.now();
        const answer = await ask({ op: "advance" });
        moves.push({ ms: performance.now() - started, thought: answer.thought_ms, move: answer.last_move });
        if (answer.next !== "bot") break;
    }
    worker.terminate();
    return moves;
}"""


def serve(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``python -m http.server`` on a free loopback port, and its address."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"]
    server = subprocess.Popen(
        [*command, "--directory", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "config.json", timeout=1).close()
            return server, url
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise SystemExit(f"no static server on port {port}")


def cold_load(page: Page, url: str) -> float:
    """Seconds from navigation to the first playable board."""
    page.goto(url + FIRST_TURN_IS_A_PERSONS)
    page.wait_for_selector("[data-move]", timeout=120_000)
    seconds: float = page.evaluate("performance.now()") / 1000
    return seconds


def in_cpython(seats: list[str], seed: int, moves: list[str]) -> list[float]:
    """Milliseconds each bot takes to choose the same moves here."""
    state = new_game(4, seed=seed)
    bots = [make_bot(name, seed * 100 + seat) for seat, name in enumerate(seats)]
    times = []
    for text in moves:
        started = time.perf_counter()
        move = decide(bots[state.turn], state)
        times.append((time.perf_counter() - started) * 1000)
        if str(move) != text:
            raise SystemExit(f"CPython chose {move}, the page {text}: the bots differ")
        state = apply(state, parse_notation(text))
    return times


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"median {statistics.median(values):7.1f}  p90 {p90:7.1f}  max {max(values):7.1f}"


def bots(page: Page, name: str, seed: int, count: int) -> dict[str, Any]:
    seats = [name] * 4
    moves = page.evaluate(BOT_MOVES, [seats, seed, count])
    return {
        "page_ms": [m["ms"] for m in moves],
        "thought_ms": [m["thought"] for m in moves],
        "cpython_ms": in_cpython(seats, seed, [m["move"] for m in moves]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="cold loads (default 3)")
    parser.add_argument("--greedy-moves", type=int, default=60)
    parser.add_argument("--mcts-moves", type=int, default=6)
    parser.add_argument(
        "--mcts", default="mcts", help="the MCTS bot (default mcts: 300 iterations)"
    )
    parser.add_argument("--json", metavar="FILE", help="also write the raw figures as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        site = Path(scratch) / "site"
        build(site)
        server, url = serve(site)
        try:
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
                loads = []
                for _ in range(args.runs):
                    context = browser.new_context()  # an empty cache: a cold load
                    loads.append(cold_load(context.new_page(), url))
                    context.close()
                page = browser.new_page()
                page.goto(url)
                greedy = bots(page, "greedy", 7, args.greedy_moves)
                mcts = bots(page, args.mcts, 7, args.mcts_moves)
                browser.close()
        finally:
            server.terminate()
            server.wait()
    print(f"cold load to the first playable board, {args.runs} runs (s): " + summary(loads))
    for name, result in (("greedy", greedy), (args.mcts, mcts)):
        count = len(result["page_ms"])
        ratio = statistics.median(result["thought_ms"]) / statistics.median(result["cpython_ms"])
        print(
            f"{name}, {count} moves in the page, request to answer (ms): {summary(result['page_ms'])}"
        )
        print(
            f"{name}, the bot's choice in the page (ms):          {summary(result['thought_ms'])}"
        )
        print(
            f"{name}, the same choices in CPython {sys.version.split()[0]} (ms):  {summary(result['cpython_ms'])}"
        )
        print(f"{name}, page / CPython (medians of the choice): {ratio:.2f}")
    if args.json:
        figures = {"cold_load_s": loads, "greedy": greedy, args.mcts: mcts}
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
