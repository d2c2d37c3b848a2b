"""A real ``pegs serve`` for tests: a subprocess on a free loopback port, stopped afterwards."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import resource
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from pgcluster import free_port
from referencing import Registry, Resource

from pegs_rules import GameState, legal_moves, replay, view
from pegs_rules.records import GameRecord
from pegs_rules.serialize import from_data, to_data
from pegs_rules.server.client import SeatClient, socket_url
from pegs_rules.server.database import open_store

SCHEMAS = Path(__file__).resolve().parents[1] / "specs" / "schema"


@cache
def server_validator(name: str) -> Draft202012Validator:
    """The validator of ``specs/schema/server/<name>.schema.json``, every schema registered."""
    resources = []
    for path in [*SCHEMAS.glob("*.schema.json"), *SCHEMAS.glob("server/*.schema.json")]:
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    registry: Registry[Any] = Registry().with_resources(resources)
    schema = json.loads((SCHEMAS / "server" / f"{name}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=registry)


def check_message(document: Any, name: str | None = None) -> None:
    """Fail with every schema error if ``document`` is not a valid ``name`` (default: its type)."""
    kind = name or document["type"]
    errors = [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in server_validator(kind).iter_errors(document)
    ]
    assert not errors, (kind, errors)


def check_frames(seat: int | None, frames: list[str], states: list[Any], seed: int) -> None:
    """Every frame is a valid message and shows ``seat`` what it may see, and nothing more."""
    assert frames
    for frame in frames:
        assert str(seed) not in frame, "the seed was sent"
        message = json.loads(frame)
        check_message(message)
        if message["type"] != "state":
            continue
        truth = states[message["ply"]]
        if seat is None:
            assert "view" not in message
            expected = to_data(view(truth, 0))
            del expected["seat"], expected["hand"]
            assert {k: v for k, v in message["public"].items() if k != "type"} == {
                k: v for k, v in expected.items() if k != "type"
            }
        else:
            assert from_data(message["view"], "view") == view(truth, seat)
            listed = message["moves"]
            if truth.turn == seat and truth.winner is None:
                assert from_data(listed, "moves") == legal_moves(truth)
            else:
                assert listed is None
        if message["events"] is not None:
            events = from_data(message["events"], "events")  # checks the redaction
            assert message["events"]["seat"] == ("public" if seat is None else seat)
            drawn = [e for e in message["events"]["events"] if e["event"] == "cards_drawn"]
            assert all(e["cards"] is None for e in drawn if e["seat"] != seat)
            assert events


@dataclass
class Server:
    """A running server process and how to reach it."""

    process: subprocess.Popen[bytes]
    port: int
    db: Path | str
    """The SQLite file, or the PostgreSQL database's URL."""
    log: Path
    metrics_port: int | None = None
    """Where it serves its metrics, if it was asked to."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def request(self, method: str, path: str, body: bytes | None = None) -> tuple[int, Any]:
        """The status and JSON answer of an HTTP request."""
        return self.answer(method, path, body)[:2]

    def answer(
        self, method: str, path: str, body: bytes | None = None
    ) -> tuple[int, Any, dict[str, str]]:
        """The status, JSON answer and headers (their names in lower case) of an HTTP request."""
        request = urllib.request.Request(self.url + path, data=body, method=method)
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                headers = {k.lower(): v for k, v in answer.headers.items()}
                return answer.status, json.loads(answer.read()), headers
        except urllib.error.HTTPError as error:
            headers = {k.lower(): v for k, v in error.headers.items()}
            return error.code, json.loads(error.read()), headers

    def metrics(self) -> dict[str, float]:
        """Its Prometheus metrics, by name and labels as written (``pegs_moves_total{by="bot"}``)."""
        assert self.metrics_port is not None, "started without metrics"
        url = f"http://127.0.0.1:{self.metrics_port}/metrics"
        with urllib.request.urlopen(url, timeout=10) as answer:
            text = answer.read().decode()
        return {
            line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
            for line in text.splitlines()
            if line and not line.startswith("#")
        }

    def create(self, **body: Any) -> dict[str, Any]:
        status, answer = self.request("POST", "/api/games", json.dumps(body).encode())
        assert status == 201, answer
        check_message(answer, "game-created")
        result: dict[str, Any] = answer
        return result

    def client(self, link: str, **options: Any) -> SeatClient:
        return SeatClient(*socket_url(link), **options)

    def stored(self, game_id: str) -> GameRecord:
        """The record as the store holds it (trusted: seed included), read from the store."""
        store = open_store(str(self.db))
        try:
            game = store.load(game_id)
            assert game is not None, game_id
            return replace(game.record, moves=store.moves(game_id))
        finally:
            store.close()

    def position(self, game_id: str) -> GameState:
        return replay(self.stored(game_id))

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)


def start_server(
    db: Path | str,
    bot_workers: int = 1,
    port: int | None = None,
    log: Path | None = None,
    options: Sequence[str] = (),
    metrics: bool = False,
    open_files: int | None = None,
    pass_db: bool = True,
    program: Sequence[str] = ("-m", "pegs_rules"),
) -> Server:
    """``pegs serve`` on ``db`` (a file, or a PostgreSQL URL and then a ``log`` path), started;
    with ``metrics`` served on a port of their own, and allowed ``open_files`` if given.
    Without ``pass_db`` the command has no ``--db`` (``options`` say where ``db`` is).
    ``program``: how Python runs the command line (its arguments follow)."""
    port = port or free_port()
    log = log or Path(db).with_suffix(".log")
    command = [sys.executable, *program, "serve", "--port", str(port)]
    command += ["--db", str(db)] if pass_db else []
    command += ["--bot-workers", str(bot_workers), *options]
    metrics_port = free_port() if metrics else None
    if metrics_port is not None:
        command += ["--metrics", str(metrics_port)]

    def limit_files() -> None:
        if open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    with log.open("ab") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, preexec_fn=limit_files
        )
    server = Server(process, port, db, log, metrics_port)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited: {log.read_text()}")
        try:
            if server.request("GET", "/healthz")[0] == 200:
                return server
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"the server did not start: {log.read_text()}")


def stop_server(server: Server) -> None:
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(15)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(5)


@contextmanager
def running_server(
    directory: Path, bot_workers: int = 1, options: Sequence[str] = (), metrics: bool = False
) -> Iterator[Server]:
    server = start_server(
        directory / "games.sqlite3", bot_workers, options=options, metrics=metrics
    )
    try:
        yield server
    finally:
        stop_server(server)


def run(coroutine: Any, timeout: float = 120) -> Any:
    """Run a coroutine to its end (tests are synchronous)."""
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


def chooser(seed: int, delay: float = 0.0) -> Callable[[dict[str, Any]], Awaitable[str]]:
    """A seat's choice for :meth:`SeatClient.play`: a random legal move, drawn from ``seed``,
    after ``delay`` seconds (to make a game last)."""
    rng = random.Random(seed)

    async def choose(state: dict[str, Any]) -> str:
        await asyncio.sleep(delay)
        notation: str = rng.choice(state["moves"]["moves"])["notation"]
        return notation

    return choose


async def first_move(state: dict[str, Any]) -> str:
    """A client's choice: the first legal move listed."""
    notation: str = state["moves"]["moves"][0]["notation"]
    return notation


def past(ply: int) -> Callable[[dict[str, Any]], bool]:
    """A message filter: a state after ``ply``."""
    return lambda message: bool(message["ply"] > ply)


async def drive(clients: list[SeatClient], rng: random.Random, stop: asyncio.Event) -> None:
    """Play random moves for whichever of ``clients`` is to act, as fast as answers come.

    Stopped by ``stop``, not by cancelling: Python 3.11's ``wait_for`` may swallow a cancel.
    """
    while not stop.is_set():
        for client in clients:
            state = client.state
            if client.connected and state is not None and state["moves"]:
                move = rng.choice(state["moves"]["moves"])["notation"]
                with contextlib.suppress(Exception):
                    await client.send_move(move, state["ply"])
                    await client.next("state", past(state["ply"]), timeout=5)
        await asyncio.sleep(0.01)


async def until(condition: Any, timeout: float = 60.0) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(poll(), timeout)
