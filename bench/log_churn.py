"""How much one client can make ``pegs serve`` write to its log: join/leave churn from one address.

Starts a server on a fresh SQLite file (its log to a file), creates a game of
four people, and for ``--seconds`` seconds ``--tasks`` concurrent loops, all
from 127.0.0.1, open the game's WebSocket, join a seat, wait for the position,
and close, as fast as the server lets them (most are refused ``429`` by the
rate limit: that is the point). Reports the joins made, the handshakes tried,
and the server's log: lines, bytes, the lines a minute, and its five most
frequent kinds of line.

    python bench/log_churn.py                                  # 30 s, the defaults
    python bench/log_churn.py --seconds 10 -- --access-log off  # options after -- go to pegs serve
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

from pegs_rules.server.client import socket_url


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start(db: Path, log: Path, options: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [sys.executable, "-m", "pegs_rules", "serve", "--port", str(port), "--db", str(db)]
    with log.open("ab") as out:
        process = subprocess.Popen(
            [*command, "--bot-workers", "0", *options], stdout=out, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2):
                return process, url
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"the server did not start: {log.read_text()}")


def create(url: str) -> list[str]:
    body = json.dumps({"players": 4, "seats": ["human"] * 4}).encode()
    request = urllib.request.Request(url + "/api/games", data=body, method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        links: dict[str, str] = json.loads(answer.read())["links"]
    return list(links.values())


async def churn(links: list[str], seconds: float, tasks: int) -> tuple[int, int]:
    """Join and leave until ``seconds`` are up; (joins made, handshakes tried)."""
    joins = tries = 0
    deadline = time.monotonic() + seconds

    async def loop(link: str) -> None:
        nonlocal joins, tries
        address, token = socket_url(link)
        while time.monotonic() < deadline:
            tries += 1
            try:
                async with connect(address, open_timeout=5, close_timeout=1) as socket_:
                    await socket_.send(json.dumps({"type": "join", "token": token}))
                    await asyncio.wait_for(socket_.recv(), 5)
                    joins += 1
            except Exception:
                await asyncio.sleep(0)

    await asyncio.gather(*(loop(links[i % len(links)]) for i in range(tasks)))
    return joins, tries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--tasks", type=int, default=8, help="concurrent join/leave loops")
    parser.add_argument("serve", nargs="*", help="options for pegs serve (after --)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        log = Path(directory) / "serve.log"
        process, url = start(Path(directory) / "games.sqlite3", log, args.serve)
        try:
            links = create(url)
            before = len(log.read_bytes().splitlines())
            joins, tries = asyncio.run(churn(links, args.seconds, args.tasks))
            time.sleep(1)
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(15)
        lines = log.read_bytes().splitlines()[before:]
        size = sum(len(line) + 1 for line in lines)
        kinds = collections.Counter(  # the line without its time, numbers as N
            re.sub(r"\d+", "N", line.decode(errors="replace").split(" ", 1)[-1])[:70]
            for line in lines
        )
        print(f"{joins} joins, {tries} handshakes tried in {args.seconds:g} s from one address")
        print(
            f"log: {len(lines)} lines, {size / 1e6:.3f} MB"
            f" ({len(lines) * 60 / args.seconds:.0f} lines a minute)"
        )
        for kind, count in kinds.most_common(5):
            print(f"  {count:7d}  {kind}")


if __name__ == "__main__":
    main()
