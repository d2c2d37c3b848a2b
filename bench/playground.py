"""Measure the browser playground in the system Chromium: first paint, loads, bot moves.

    python bench/playground.py                      # --runs 3 --greedy-moves 60 --mcts-moves 6
    python bench/playground.py --baseline REF       # and the playground of git revision REF
    python bench/playground.py --shots DIR          # pictures of a first visit, into DIR

* **first paint**: when the browser first paints the page (first contentful paint), and
  whether a board is in it;
* **cold load**: a browser with a new profile (empty caches and storage, no service
  worker, kept on disk as a person's is) opens a game whose first turn is a person's; the
  time from navigation to the first playable board (the legal moves listed, by the page's
  clock);
* **warm load**: the same browser and profile open it again (from the service worker's cache;
  a tree without one: the browser's HTTP cache);
* **offline**: the same again with the network off (a tree without a service worker
  cannot load offline, and is not measured);
* **hint**: on the first and the second visit, once the board is playable, the time from a
  click on "What would a strong player do?" to its move shown (by the page's clock);
* **bot moves in the page** (this tree): a greedy and a searching bot of the TypeScript
  engine, in the page, each timed from the request to the move applied, with the bot's own
  thinking time. The same bots then choose the same moves in this CPython process, the
  baseline for the ratio.

With ``--baseline REF`` the playground of that revision is built too (from ``git archive``,
after ``npm ci`` in its root and its ``js/``) and the loads of the two are measured in turns, a
new profile each, in one run: the ratios are the figures to quote.

``--shots DIR`` measures nothing: it films a first visit of this tree instead (a new
profile, the browser's own screencast, each frame stamped with the time it reached the
screen) and saves what was on the screen 150 ms and 600 ms after navigation began, and once
the board was playable, as ``first-visit-150ms.png``, ``first-visit-600ms.png`` and
``first-visit-playable.png`` in DIR (the docs' pictures of a first visit: ``--shots
docs/_static``), printing the time of each frame used.

Needs the dev extra (Playwright), Chromium (``/usr/bin/chromium``) and the TypeScript
package's tools (``npm ci --prefix js``). A measurement, not a test: the machine is shared and noisy, so say how busy it
was (the load average is printed).
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Playwright, sync_playwright

from pegs_rules import apply, new_game
from pegs_rules.bots import decide, make_bot
from pegs_rules.moves import parse_notation
from pegs_rules.web.build import build

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
FIRST_TURN_IS_A_PERSONS = "?players=4&seed=4&seats=greedy,greedy,human,greedy&delay=0"
READY_FOR_ANOTHER_VISIT = """async () => {
    const ready = async () => {
        if (!("serviceWorker" in navigator) || !document.querySelector("link[rel=manifest]")) return true;
        await navigator.serviceWorker.ready;
        if (navigator.serviceWorker.controller === null) return false;
        if (!document.querySelector("script#engine")) return true; // no snapshot to wait for
        const root = await navigator.storage.getDirectory();
        const folder = await root.getDirectoryHandle("pegs-playground engine", { create: true });
        for await (const [name, entry] of folder.entries()) {
            if (name.endsWith(" " + (await entry.getFile()).size)) return true; // kept whole
        }
        return (await (await caches.open("pegs-playground engine")).keys()).length > 0;
    };
    const deadline = performance.now() + 180_000;
    while (!(await ready())) {
        if (performance.now() > deadline) throw new Error("the next visit's files were not kept in 180 s");
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
}"""
"""Wait until a visit has left what the next one uses: the service worker in charge (and, for
builds that started Python with every page, its snapshot kept whole: in the private file
system, or in Cache Storage by older builds), or fail after 180 s. Evaluated, not passed to
``wait_for_function``, which takes an async function's promise for a truthy answer."""
PLAYABLE = """() => document.querySelector("[data-move]") && performance.now()"""
"""The page's clock when it first shows the legal moves, polled at each animation frame."""
FIRST_PAINT = (
    """() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null"""
)
BOT_MOVES = """async ([name, seed, count]) => {
    // Four bots of one name, as the page's worker makes them, here on the page's thread.
    const pegs = await import("./js/pegs-rules.js");
    const bots = [0, 1, 2, 3].map((seat) => pegs.makeBot(name, seed * 100 + seat));
    let state = pegs.newGame(4, { seed });
    const moves = [];
    for (let i = 0; i < count && state.winner === null; i += 1) {
        const started = performance.now();
        const move = pegs.decide(bots[state.turn], state);
        const thought = performance.now() - started;
        state = pegs.apply(state, move);
        moves.push({ ms: performance.now() - started, thought, move: pegs.moveText(move) });
    }
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


def build_revision(ref: str, out: Path) -> None:
    """The playground of git revision ``ref``, built by its own code into ``out``."""
    tree = out.parent / "tree"
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(tree, filter="data")
    for folder in (tree, tree / "js"):
        npm = ["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"]
        subprocess.run(npm, cwd=folder, check=True, stdout=subprocess.DEVNULL)
    env = os.environ | {"PYTHONPATH": str(tree / "src")}
    command = [sys.executable, "-m", "pegs_rules", "web", "build", str(out)]
    subprocess.run(command, cwd=tree, env=env, check=True, stdout=subprocess.DEVNULL)


HINT = """() => new Promise((resolve) => {
    const box = document.querySelector("#hint");
    const clicked = performance.now();
    new MutationObserver((_, watching) => {
        if (!box.dataset.hint) return;
        watching.disconnect();
        resolve(performance.now() - clicked);
    }).observe(box, { attributes: true });
    document.querySelector("#hint-button").click();
})"""
"""Click the hint's button; the milliseconds until its move shows."""


def playable(page: Page, url: str) -> float:
    """Seconds from navigation to the first playable board."""
    page.goto(url + FIRST_TURN_IS_A_PERSONS)
    shown = page.wait_for_function(PLAYABLE, polling="raf", timeout=180_000)
    seconds: float = shown.json_value() / 1000
    return seconds


def visits(driver: Playwright, url: str) -> dict[str, Any]:
    """A first visit with a new profile, then a second, then one offline (where it can)."""
    with tempfile.TemporaryDirectory() as profile:
        context = driver.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=ARGS
        )
        try:
            page = context.new_page()
            cold = playable(page, url)
            cold_hint = page.evaluate(HINT)
            painted = page.evaluate(FIRST_PAINT)
            with urllib.request.urlopen(url) as response:  # what the first paint can show
                board = 'class="first-board"' in response.read().decode("utf-8")
            page.evaluate(READY_FOR_ANOTHER_VISIT)
            warm = playable(page, url)
            warm_hint = page.evaluate(HINT)
            offline = None
            if page.evaluate("navigator.serviceWorker.controller !== null"):
                context.set_offline(True)
                offline = playable(page, url)
        finally:
            context.close()
    return {
        "first_paint_ms": painted,
        "board_in_first_paint": board,
        "cold_s": cold,
        "warm_s": warm,
        "offline_s": offline,
        "cold_hint_ms": cold_hint,
        "warm_hint_ms": warm_hint,
    }


SHOT_TIMES = {"150ms": 150.0, "600ms": 600.0}
"""The moments of a first visit the docs show, in ms after navigation began (and: playable)."""


def first_visit_shots(driver: Playwright, url: str, folder: Path) -> None:
    """Film a first visit of ``url`` with a new profile; save the screen at SHOT_TIMES and
    once the board is playable into ``folder`` (see the module's docstring)."""
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        context = driver.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=ARGS, viewport={"width": 1280, "height": 800}
        )
        try:
            page = context.new_page()
            screen = context.new_cdp_session(page)
            frames: list[tuple[float, str]] = []  # (seconds since the epoch, PNG in base64)

            def keep(frame: dict[str, Any]) -> None:
                frames.append((frame["metadata"]["timestamp"], frame["data"]))
                screen.send("Page.screencastFrameAck", {"sessionId": frame["sessionId"]})

            screen.on("Page.screencastFrame", keep)
            screen.send("Page.startScreencast", {"format": "png"})
            page.goto(url + FIRST_TURN_IS_A_PERSONS, wait_until="commit")
            shown = page.wait_for_function(PLAYABLE, polling="raf", timeout=180_000)
            playable: float = shown.json_value()
            began: float = page.evaluate("performance.timeOrigin")
            page.wait_for_timeout(300)  # the playable board's frame reaches the screen
            screen.send("Page.stopScreencast")
        finally:
            context.close()
    timed = sorted((stamp * 1000 - began, data) for stamp, data in frames)
    moments = {**SHOT_TIMES, "playable": playable}
    for name, at in moments.items():
        # the screen at `at` is the last frame shown by then; once playable, the first after
        before = [frame for frame in timed if frame[0] <= at]
        after = [frame for frame in timed if frame[0] >= at]
        chosen = (after[:1] or before[-1:]) if name == "playable" else (before[-1:] or after[:1])
        when, data = chosen[0]
        (folder / f"first-visit-{name}.png").write_bytes(base64.b64decode(data))
        print(f"first visit at {name}: the frame shown at {when:.0f} ms ({len(timed)} frames)")
    print(f"first visit: playable after {playable:.0f} ms; the pictures are in {folder}")


def in_cpython(seats: list[str], seed: int, moves: list[str]) -> tuple[list[float], int]:
    """Milliseconds each bot takes to choose here in the positions of the page's game, and
    how many of its choices differ from the page's (a search that reached its cap of thinking
    time in the page, typically, as a busy machine makes it)."""
    state = new_game(4, seed=seed)
    bots = [make_bot(name, seed * 100 + seat) for seat, name in enumerate(seats)]
    times = []
    differ = 0
    for text in moves:
        started = time.perf_counter()
        move = decide(bots[state.turn], state)
        times.append((time.perf_counter() - started) * 1000)
        differ += str(move) != text
        state = apply(state, parse_notation(text))
    return times, differ


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"median {statistics.median(values):7.2f}  p90 {p90:7.2f}  max {max(values):7.2f}"


def bots(page: Page, name: str, seed: int, count: int) -> dict[str, Any]:
    seats = [name] * 4
    moves = page.evaluate(BOT_MOVES, [name, seed, count])
    cpython, differ = in_cpython(seats, seed, [m["move"] for m in moves])
    return {
        "page_ms": [m["ms"] for m in moves],
        "thought_ms": [m["thought"] for m in moves],
        "cpython_ms": cpython,
        "differ": differ,
    }


def report_loads(name: str, runs: list[dict[str, Any]]) -> None:
    painted = [r["first_paint_ms"] for r in runs if r["first_paint_ms"] is not None]
    boards = sum(r["board_in_first_paint"] for r in runs)
    print(
        f"{name}: first paint (ms):        {summary(painted)}  (a board in it: {boards} of {len(runs)})"
    )
    for key, words in (
        ("cold_s", "cold load"),
        ("warm_s", "warm load"),
        ("offline_s", "offline load"),
    ):
        values = [r[key] for r in runs if r[key] is not None]
        if values:
            print(f"{name}: {words} to a playable board (s): {summary(values)}")
    for key, words in (("cold_hint_ms", "first visit"), ("warm_hint_ms", "second visit")):
        print(f"{name}: {words}, click to hint shown (ms): {summary([r[key] for r in runs])}")


def report(loads: dict[str, list[dict[str, Any]]], baseline: str | None) -> None:
    print(f"load average after the loads: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name, runs in loads.items():
        report_loads(name, runs)
    if baseline:
        for key, words in (
            ("cold_s", "cold load"),
            ("warm_s", "warm load"),
            ("cold_hint_ms", "first visit's hint"),
            ("warm_hint_ms", "second visit's hint"),
        ):
            ours = statistics.median(r[key] for r in loads["this tree"])
            theirs = statistics.median(r[key] for r in loads[baseline])
            print(f"{words}, this tree / {baseline}: {ours / theirs:.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="visits of each kind (default 3)")
    parser.add_argument("--baseline", metavar="REF", help="also measure the playground of REF")
    parser.add_argument("--greedy-moves", type=int, default=60)
    parser.add_argument("--mcts-moves", type=int, default=6)
    parser.add_argument(
        "--mcts", default="mcts", help="the MCTS bot (default mcts: 300 iterations)"
    )
    parser.add_argument("--json", metavar="FILE", help="also write the raw figures as JSON")
    parser.add_argument(
        "--shots",
        metavar="DIR",
        type=Path,
        help="instead: save pictures of a first visit at 150 ms, 600 ms and once playable in DIR",
    )
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.shots:
        with tempfile.TemporaryDirectory() as scratch:
            build(Path(scratch) / "site")
            server, url = serve(Path(scratch) / "site")
            try:
                with sync_playwright() as driver:
                    first_visit_shots(driver, url, args.shots)
            finally:
                server.terminate()
                server.wait()
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        sites = {"this tree": Path(scratch) / "site"}
        build(sites["this tree"])
        if args.baseline:
            sites[args.baseline] = Path(scratch) / "baseline" / "site"
            build_revision(args.baseline, sites[args.baseline])
        servers = {name: serve(folder) for name, folder in sites.items()}
        try:
            with sync_playwright() as driver:
                loads: dict[str, list[dict[str, Any]]] = {name: [] for name in sites}
                for _ in range(args.runs):  # the playgrounds take turns
                    for name, (_, url) in servers.items():
                        loads[name].append(visits(driver, url))
                report(loads, args.baseline)
                browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_page()
                page.goto(servers["this tree"][1])
                greedy = bots(page, "greedy", 7, args.greedy_moves)
                mcts = bots(page, args.mcts, 7, args.mcts_moves)
                browser.close()
        finally:
            for server, _ in servers.values():
                server.terminate()
                server.wait()
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
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
        print(f"{name}, choices that differ from CPython's: {result['differ']} of {count}")
    if args.json:
        figures = {"loads": loads, "greedy": greedy, args.mcts: mcts}
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
