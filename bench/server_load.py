"""Load on ``pegs serve``: many concurrent games of bots and scripted WebSocket clients.

Starts ``--processes`` server subprocesses on free loopback ports, all on one
database (a fresh SQLite file by default, or the PostgreSQL database given
with ``--db``), or uses the servers already running at ``--servers`` (started with
``--games-per-client`` at least ``--games``: every game is created from here). It
creates ``--games`` games (two scripted seats and two greedy bots each), in
turn on each server, and seats each game's scripted clients on different
servers when there are several (so every move also travels between servers,
through the database; ``--together`` seats them on the server that created
the game, as sticky routing would). The scripted clients play random legal moves for
``--seconds`` seconds, each from an address of its own (on loopback, 127.0.x.y:
each is one client to the servers' rate limits, as people are). Reports:

* accepted moves per second (every seat's moves, the bots' included);
* for each scripted move, the time from sending it until the state after it
  has reached every seat's connection of that game, p50 and p99. Clients and
  servers share the machine, so this includes the clients' own delays;
* the server processes' CPU time (when it started them), the clients' (this
  process), and the machine's load average before and after.

By default the scripted seats move the moment they may (the servers are
saturated, and the latency is mostly queueing); ``--think`` paces them like
people.

    python bench/server_load.py                      # 50 games, 20 s, moves at once, SQLite
    python bench/server_load.py --think 0.5 --board  # paced, with SVG boards
    python bench/server_load.py --db postgresql://pegs@127.0.0.1:5432/pegs --processes 2
    python bench/server_load.py --servers http://10.0.0.2:8000,http://10.0.0.3:8000
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
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect

from pegs_rules.server.client import socket_url, socket_urls


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
    """POST ``body``; a ``429`` (the server's rate limit) is waited out and tried again."""
    request = urllib.request.Request(url, json.dumps(body).encode(), method="POST")
    while True:
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                created: dict[str, Any] = json.loads(answer.read())
                return created
        except urllib.error.HTTPError as error:
            if error.code != 429:
                raise
            time.sleep(float(error.headers.get("Retry-After", "1")))


class Game:
    """One game's connections and what they saw when."""

    def __init__(self, links: list[tuple[str, str]], board: bool, think: float, seed: int) -> None:
        self.links = links
        self.board = board
        self.think = think
        self.rng = random.Random(seed)
        self.sent: dict[int, float] = {}  # ply -> when the move made at that ply was sent
        self.seen: dict[int, list[float]] = {}  # ply -> when each connection got that state
        self.last_ply = 0

    async def seat(self, link: tuple[str, str], stop: float, source: str | None) -> None:
        """Play one scripted seat from the address ``source`` (each seat a client of its own)."""
        url, token = link
        options: dict[str, Any] = {"local_addr": (source, 0)} if source else {}
        async with connect(url, max_size=2**22, **options) as ws:
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
    servers: list[str], games: int, seconds: float, board: bool, think: float, together: bool
) -> tuple[list[Game], float]:
    """Create the games (in turn on each server) and play them; with several servers, a game's
    scripted seats sit on different servers (or, ``together``, on the one that created it)."""
    kinds = ["human", "greedy", "human", "greedy"]
    tables = []
    for n in range(games):
        created = post(f"{servers[n % len(servers)]}/api/games", {"players": 4, "seats": kinds})
        links = sorted(created["links"].items())
        token = [socket_url(link)[1] for _, link in links]
        urls = [
            socket_urls(link, servers)[(n + (0 if together else i)) % len(servers)]
            for i, (_, link) in enumerate(links)
        ]
        tables.append(Game(list(zip(urls, token, strict=True)), board, think, n))
    start = time.perf_counter()
    stop = start + seconds
    seats = [(t, link) for t in tables for link in t.links]
    loopback = all(urlsplit(base).hostname in ("127.0.0.1", "localhost") for base in servers)
    sources = [
        f"127.0.{1 + n // 250}.{1 + n % 250}" if loopback else None for n in range(len(seats))
    ]
    await asyncio.gather(
        *(t.seat(link, stop, src) for (t, link), src in zip(seats, sources, strict=True))
    )
    return tables, time.perf_counter() - start


def start_servers(
    args: argparse.Namespace, folder: str
) -> list[tuple[str, subprocess.Popen[bytes]]]:
    """``--processes`` servers on ``--db`` (default: a new SQLite file in ``folder``), started."""
    db = args.db or str(Path(folder) / "load.sqlite3")
    started = []
    for _ in range(args.processes):
        port = free_port()
        command = [sys.executable, "-m", "pegs_rules", "serve", "--port", str(port), "--db", db]
        command += ["--bot-workers", str(args.bot_workers), "--sync", args.sync]
        command += ["--games-per-client", str(max(args.games, 1))]  # all created from here
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started.append((f"http://127.0.0.1:{port}", process))
    deadline = time.monotonic() + 30
    for base, process in started:
        while True:
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise SystemExit("a server did not start") from None
                time.sleep(0.1)
    return started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--board", action="store_true", help="clients ask for the SVG board")
    parser.add_argument("--servers", help="comma-separated base URLs of running servers to use")
    parser.add_argument("--processes", type=int, default=1, help="servers to start (default 1)")
    parser.add_argument("--db", help="the started servers' database (default: a new SQLite file)")
    parser.add_argument(
        "--together",
        action="store_true",
        help="a game's scripted seats on one server (default: on different servers)",
    )
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--sync", choices=("full", "normal"), default="full")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="a scripted seat waits 0..2*THINK seconds before each move (default 0: at once)",
    )
    args = parser.parse_args()

    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        started = [] if args.servers else start_servers(args, folder)
        servers = args.servers.split(",") if args.servers else [base for base, _ in started]
        try:
            before = [cpu_seconds(p.pid) for _, p in started]
            own = cpu_seconds(os.getpid())
            tables, elapsed = asyncio.run(
                load(servers, args.games, args.seconds, args.board, args.think, args.together)
            )
            server_cpu = sum(cpu_seconds(p.pid) for _, p in started) - sum(before)
            client_cpu = cpu_seconds(os.getpid()) - own
        finally:
            for _, process in started:
                process.send_signal(signal.SIGTERM)
            for _, process in started:
                process.wait(30)
    load_after = os.getloadavg()

    moves = sum(t.last_ply for t in tables)
    waits = sorted(w for t in tables for w in t.latencies())
    if len(waits) < 2:
        raise SystemExit("too few moves measured")
    p50 = statistics.median(waits) * 1000
    p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))] * 1000
    store = "PostgreSQL" if (args.db or "").startswith("postgres") else f"SQLite (sync {args.sync})"
    where = (
        f"{len(servers)} servers at {args.servers}"
        if args.servers
        else f"{len(started)} server processes on {store}"
    )
    print(
        f"{args.games} games (2 scripted seats + 2 greedy bots each), {elapsed:.1f} s, {where}, "
        f"boards {'on' if args.board else 'off'}, bot workers {args.bot_workers} a server, "
        f"think {args.think:g} s"
    )
    print(f"accepted moves: {moves} ({moves / elapsed:.0f}/s)")
    if started:
        print(
            f"server processes' CPU: {server_cpu / elapsed:.0%} of a core, "
            f"{server_cpu / moves * 1000:.2f} ms a move"
        )
    print(f"clients (this process) CPU: {client_cpu / elapsed:.0%} of a core")
    print(f"scripted moves measured: {len(waits)}")
    print(f"send -> every seat has the new state: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    print(
        "load average before: {:.2f} {:.2f} {:.2f}; after: {:.2f} {:.2f} {:.2f}".format(
            *load_before, *load_after
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
