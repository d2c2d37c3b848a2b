"""Load on ``pegs serve``: many concurrent games of bots and scripted WebSocket clients.

Starts a server subprocess on a free loopback port with a fresh database,
creates ``--games`` games (two scripted seats and two greedy bots each, by
default), and lets the scripted clients play random legal moves as fast as
the server answers, for ``--seconds`` seconds. Reports:

* accepted moves per second (every seat's moves, the bots' included);
* for each scripted move, the time from sending it until the state after it
  has reached every seat's connection of that game, p50 and p99. Clients and
  server share the machine, so this includes the clients' own delays;
* the server process's CPU time, and the clients' (this process).

By default the scripted seats move the moment they may (the server is
saturated, and the latency is mostly queueing); ``--think`` paces them like
people.

    python bench/server_load.py                      # 50 games, 20 s, moves at once
    python bench/server_load.py --think 0.5 --board  # paced, with SVG boards
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from pegs_rules.server.client import socket_url


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        created: dict[str, Any] = json.loads(answer.read())
        return created


class Game:
    """One game's connections and what they saw when."""

    def __init__(self, links: list[str], board: bool, think: float, seed: int) -> None:
        self.links = links
        self.board = board
        self.think = think
        self.rng = random.Random(seed)
        self.sent: dict[int, float] = {}  # ply -> when the move made at that ply was sent
        self.seen: dict[int, list[float]] = {}  # ply -> when each connection got that state
        self.last_ply = 0

    async def seat(self, link: str, stop: float) -> None:
        url, token = socket_url(link)
        async with connect(url, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "join", "token": token, "board": self.board}))
            while time.perf_counter() < stop:
                try:
                    frame = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.perf_counter()))
                except asyncio.TimeoutError:
                    break
                received = time.perf_counter()
                message = json.loads(frame)
                if message["type"] != "state":
                    continue
                ply = message["ply"]
                self.seen.setdefault(ply, []).append(received)
                self.last_ply = max(self.last_ply, ply)
                if message["moves"] and received < stop:
                    await self.move(ws, message)

    async def move(self, ws: ClientConnection, state: dict[str, Any]) -> None:
        choice = self.rng.choice(state["moves"]["moves"])["notation"]
        if self.think:
            await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
        self.sent[state["ply"]] = time.perf_counter()
        await ws.send(json.dumps({"type": "move", "move": choice, "ply": state["ply"]}))

    def latencies(self) -> list[float]:
        """Send to last delivery, for each scripted move whose result reached every seat."""
        out = []
        for ply, sent in self.sent.items():
            seen = self.seen.get(ply + 1, [])
            if len(seen) == len(self.links):
                out.append(max(seen) - sent)
        return out


async def load(
    base: str, games: int, seconds: float, board: bool, think: float
) -> tuple[list[Game], float]:
    seats = ["human", "greedy", "human", "greedy"]
    created = [post(f"{base}/api/games", {"players": 4, "seats": seats}) for _ in range(games)]
    tables = [Game(list(c["links"].values()), board, think, i) for i, c in enumerate(created)]
    start = time.perf_counter()
    stop = start + seconds
    await asyncio.gather(*(t.seat(link, stop) for t in tables for link in t.links))
    return tables, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--board", action="store_true", help="clients ask for the SVG board")
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--sync", choices=("full", "normal"), default="full")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="a scripted seat waits 0..2*THINK seconds before each move (default 0: at once)",
    )
    args = parser.parse_args()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as directory:
        db = Path(directory) / "load.sqlite3"
        command = [sys.executable, "-m", "pegs_rules", "serve", "--port", str(port)]
        command += ["--db", str(db), "--bot-workers", str(args.bot_workers), "--sync", args.sync]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    urllib.request.urlopen(f"{base}/healthz", timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
            before, own = cpu_seconds(server.pid), cpu_seconds(os.getpid())
            tables, elapsed = asyncio.run(
                load(base, args.games, args.seconds, args.board, args.think)
            )
            server_cpu = cpu_seconds(server.pid) - before
            client_cpu = cpu_seconds(os.getpid()) - own
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(30)

    moves = sum(t.last_ply for t in tables)
    waits = sorted(w for t in tables for w in t.latencies())
    if len(waits) < 2:
        raise SystemExit("too few moves measured")
    p50 = statistics.median(waits) * 1000
    p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))] * 1000
    print(
        f"{args.games} games (2 scripted seats + 2 greedy bots each), {elapsed:.1f} s, "
        f"boards {'on' if args.board else 'off'}, bot workers {args.bot_workers}, "
        f"think {args.think:g} s, sync {args.sync}"
    )
    print(f"accepted moves: {moves} ({moves / elapsed:.0f}/s)")
    print(
        f"server process CPU: {server_cpu / elapsed:.0%} of a core, {server_cpu / moves * 1000:.2f} ms a move"
    )
    print(f"clients (this process) CPU: {client_cpu / elapsed:.0%} of a core")
    print(f"scripted moves measured: {len(waits)}")
    print(f"send -> every seat has the new state: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
