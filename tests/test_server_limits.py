"""Bounded everywhere, fair to every game: each limit of ``pegs serve`` against a real server.

1. request lines and heads are cut off (``414``, ``431``) at no more cost than a request;
2. games per client address are bounded, and games nobody plays are removed;
3. a game's bots wait a bounded time behind other games' bots, whatever those think;
4. connections are bounded below the open-file limit, with a clear refusal and one log line;
5. two servers on one SQLite file, by any name: the second is refused at start;
6. a bad request lists every problem; a flood of mistakes writes a bounded log, and a flood of
   requests a bounded access log, every line one event in one format.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import http.client
import itertools
import json
import logging
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from served import Server, run, running_server, start_server, stop_server, until
from websockets.sync.client import connect

from pegs_rules.server.client import SeatClient, socket_url
from pegs_rules.server.connections import MAX_CLIENT_CONNECTIONS, MAX_HEAD, MAX_REQUEST_LINE
from pegs_rules.server.games import MAX_BOT_SECONDS, REMOVED, REMOVED_BOTS
from pegs_rules.server.limits import FAILURES_PER_CLIENT, MISTAKES_PER_CLIENT, Mistakes
from pegs_rules.server.logs import ACCESS_PER_CLIENT, AccessLog, OneLine
from pegs_rules.server.registry import MAX_GAMES_PER_CLIENT
from pegs_rules.server.thinking import FAIR_ROUND


def cpu_seconds(pid: int) -> float:
    """The processor time process ``pid`` has used (Linux), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime and stime, in clock ticks of 1/100 s


def raw(server: Server, head: bytes, chunk: int = 4096, source: str = "127.0.0.1") -> bytes:
    """What the server answers to a request head sent in pieces of ``chunk`` bytes (the rest
    of it is not sent once the server has answered)."""
    with socket.create_connection(("127.0.0.1", server.port), source_address=(source, 0)) as conn:
        conn.settimeout(10)
        try:
            for start in range(0, len(head), chunk):
                conn.sendall(head[start : start + chunk])
        except OSError:
            pass  # answered and closed before the head was all sent
        answer = b""
        try:
            while data := conn.recv(65536):
                answer += data
        except OSError:
            pass
        return answer


# --- 1. request lines and heads -------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("limits"), bot_workers=0) as running:
        yield running


def test_long_request_lines_and_heads_are_cut_off_at_the_cost_of_a_request(
    server: Server,
) -> None:
    line = b"GET /" + b"a" * (MAX_REQUEST_LINE + 1) + b" HTTP/1.1\r\nHost: pegs\r\n\r\n"
    assert raw(server, line).startswith(b"HTTP/1.1 414 ")
    normal = b"GET /healthz HTTP/1.1\r\nHost: pegs\r\nConnection: close\r\n\r\n"
    huge = b"GET /healthz HTTP/1.1\r\nHost: pegs\r\nX-Big: " + b"b" * (1 << 25) + b"\r\n\r\n"
    many = b"GET /healthz HTTP/1.1\r\n" + b"X-Many: cccccccc\r\n" * 100_000 + b"\r\n"
    for head in (huge, many):
        answer = raw(server, head, chunk=1024)
        assert answer.startswith(b"HTTP/1.1 431 "), answer[:100]
        assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"] == "too_large"
    assert raw(
        server, b"GET /healthz HTTP/1.1\r\nX-Fine: " + b"d" * (MAX_HEAD - 100) + b"\r\n\r\n"
    ).startswith(b"HTTP/1.1 200 ")

    def spent(head: bytes, count: int) -> float:
        before = cpu_seconds(server.process.pid)
        for _ in range(count):
            raw(server, head, chunk=1024)
        return cpu_seconds(server.process.pid) - before

    ordinary = spent(normal, 20)
    refused = spent(b"GET /healthz HTTP/1.1\r\nX-Big: " + b"e" * (1 << 20) + b"\r\n\r\n", 20)
    print(f"server CPU for 20 requests: {ordinary:.2f} s; for 20 heads of 1 MiB: {refused:.2f} s")
    # a 1 MiB header sent in 1 KiB pieces, cut off at 32 KiB: no dearer than a request
    assert refused < 2 * ordinary + 0.1, (refused, ordinary)


# --- 2. games per client, and games nobody plays ------------------------------------------------


def create(server: Server, source: str, **body: Any) -> tuple[int, Any, str | None]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, source_address=(source, 0))
    connection.request("POST", "/api/games", json.dumps(body), {"Content-Type": "application/json"})
    answer = connection.getresponse()
    status, text, retry = answer.status, answer.read(), answer.headers["Retry-After"]
    connection.close()
    return status, json.loads(text), retry


def test_games_per_client_are_bounded_and_games_nobody_plays_are_removed(tmp_path: Path) -> None:
    options = ["--unjoined-expiry", "2s", "--idle-expiry", "5s"]
    server = start_server(tmp_path / "games.sqlite3", bot_workers=0, options=options, metrics=True)
    try:
        greedy = "127.0.0.2"  # asks for as many games as it may, and joins none
        for _ in range(MAX_GAMES_PER_CLIENT):
            assert create(server, greedy, players=4)[0] == 201
        status, answer, retry = create(server, greedy, players=4)
        assert status == 429 and answer["error"] == "too_many_games" and retry, answer
        assert create(server, "127.0.0.3", players=4)[0] == 201  # anyone else still may
        bots = server.create(players=4, seats=["mcts:0.05s"] * 4)  # plays by itself
        joined = server.create(players=4)  # a person joins, and then nobody moves
        left = server.create(players=4)  # ... and nobody joins

        async def watch() -> SeatClient:
            seat = SeatClient(*socket_url(joined["links"]["1"]))
            await seat.start()
            await asyncio.sleep(3.5)  # past the time to join: the unjoined games are gone
            assert server.request("GET", f"/api/games/{left['id']}")[0] == 404
            assert server.request("GET", f"/api/games/{joined['id']}")[0] == 200
            assert create(server, greedy, players=4)[0] == 201  # its games expired: it may again
            await until(lambda: seat.refused is not None, timeout=10)  # then idle for too long
            return seat

        seat = run(watch())
        assert seat.refused == 1008
        assert any(m.get("message") == REMOVED for m in drain(seat))
        assert server.request("GET", f"/api/games/{joined['id']}")[0] == 404
        assert server.request("GET", f"/api/games/{bots['id']}")[0] == 200  # it plays
        assert server.metrics()["pegs_games_expired_total"] >= MAX_GAMES_PER_CLIENT + 2
    finally:
        stop_server(server)


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_game_of_bots_alone_is_removed_after_its_time_watched_or_not(
    database: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """``--bots-expiry 3s``: a game of bots alone, playing and watched, is removed 3 s after
    its creation (its spectator told, and closed with 1008); a game with a seat for a person
    (nobody joined it yet: its bots wait at the person's turn) is not."""
    options = ["--bots-expiry", "3s"]
    if database == "sqlite":
        db: Path | str = tmp_path / "games.sqlite3"
    else:
        db = request.getfixturevalue("postgres").new_database()
    log = tmp_path / "server.log"
    server = start_server(db, bot_workers=0, log=log, options=options, metrics=True)
    try:
        asked = time.monotonic()
        bots = server.create(players=4, seats=["mcts:0.05s"] * 4)
        mixed = server.create(players=4, seats=["mcts:0.05s"] * 3 + ["human"])

        async def watch() -> SeatClient:
            spectator = SeatClient(*socket_url(bots["spectator"]))
            await spectator.start()
            await until(lambda: spectator.refused is not None, timeout=30)
            return spectator

        spectator = run(watch())
        lasted = time.monotonic() - asked
        messages = drain(spectator)
        assert spectator.refused == 1008
        assert any(m.get("message") == REMOVED_BOTS for m in messages), messages
        assert sum(m.get("type") == "state" for m in messages) >= 2  # it was playing
        assert 3.0 <= lasted < 3.0 + 5.0, lasted  # looked for every beat, past its time
        assert server.request("GET", f"/api/games/{bots['id']}")[0] == 404
        assert server.request("GET", f"/api/games/{mixed['id']}")[0] == 200
        assert server.metrics()["pegs_games_expired_total"] == 1
    finally:
        stop_server(server)


def drain(client: SeatClient) -> list[dict[str, Any]]:
    messages = []
    while not client.messages.empty():
        messages.append(client.messages.get_nowait())
    return messages


# --- 3. bots: a bounded wait behind other games' bots ---------------------------------------------


def workers(pid: int) -> set[int]:
    """The bot workers of server ``pid``: its child processes started by ``multiprocessing``."""
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in map(int, (task / "children").read_text().split()):
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.add(child)
    return found


def test_a_games_bots_wait_a_bounded_time_behind_other_games_bots(tmp_path: Path) -> None:
    """Two games of eight bots thinking 5 s a move on the one bot worker; meanwhile a game of
    greedy bots plays on at full speed, and a game of searching bots moves within the bound.

    The searching game's first move is its longest wait (behind a search of the full 5 s and a
    search cut to its share); it is measured in the bot worker's processor time (the bound is
    in it: the bots' budgets are), and the wall-clock time is printed beside it.
    """
    bound = FAIR_ROUND + MAX_BOT_SECONDS
    with running_server(tmp_path, bot_workers=1) as server:
        for n in range(2):
            status = create(server, f"127.0.0.{10 + n}", players=8, seats=["mcts:5s"] * 8)[0]
            assert status == 201
        deadline = time.monotonic() + 30
        while not (searcher := workers(server.process.pid)):  # the searching bots' worker
            assert time.monotonic() < deadline, "no bot worker started"
            time.sleep(0.1)
        quick = server.create(players=8, seats=["greedy"] * 8)  # their own worker, started now
        searching = server.create(players=8, seats=["mcts:0.1s"] * 8)

        def worker_cpu() -> float:
            return sum(cpu_seconds(pid) for pid in searcher)

        async def watch() -> dict[str, list[tuple[float, float]]]:
            seen: dict[str, list[tuple[float, float]]] = {"quick": [], "searching": []}
            watchers = {
                name: SeatClient(*socket_url(created["spectator"]))
                for name, created in (("quick", quick), ("searching", searching))
            }
            for watcher in watchers.values():
                await watcher.start()
            deadline = time.monotonic() + 60  # the worker's time may run slow on a busy machine
            while len(seen["searching"]) < 2 and time.monotonic() < deadline:
                for name, watcher in watchers.items():
                    while not watcher.messages.empty():
                        if watcher.messages.get_nowait().get("type") == "state":
                            seen[name].append((time.monotonic(), worker_cpu()))
                await asyncio.sleep(0.01)
            for watcher in watchers.values():
                await watcher.stop()
            return seen

        seen = run(watch())
    # from its first move on (before it, its worker may still be starting, on a busy machine)
    quick_waits = [b[0] - a[0] for a, b in itertools.pairwise(seen["quick"][1:])]
    waits = [(b[0] - a[0], b[1] - a[1]) for a, b in itertools.pairwise(seen["searching"])]
    print(f"greedy game: {len(quick_waits)} moves, the longest {max(quick_waits):.3f} s apart")
    print("searching game: moves apart by (wall s, worker CPU s):", waits)
    assert len(quick_waits) >= 50 and max(quick_waits) < 1.0, quick_waits
    assert waits and max(cpu for _, cpu in waits) < bound + 1.0, waits


# --- 4. connections ---------------------------------------------------------------------------


def test_connections_are_bounded_below_the_open_file_limit(tmp_path: Path) -> None:
    """Allowed 300 open files, the server holds 200 connections; the rest are refused at once."""
    server = start_server(
        tmp_path / "games.sqlite3",
        bot_workers=0,
        options=["--header-timeout", "60"],
        metrics=True,
        open_files=300,
    )
    silent: list[socket.socket] = []
    try:
        for n in range(200):  # silent connections from two addresses, 100 each: all held
            source = f"127.0.2.{n % 2 + 1}"
            silent.append(
                socket.create_connection(("127.0.0.1", server.port), source_address=(source, 0))
            )
        time.sleep(0.5)
        started = time.monotonic()
        answer = raw(server, b"GET /healthz HTTP/1.1\r\nHost: pegs\r\n\r\n", source="127.0.2.9")
        assert answer.startswith(b"HTTP/1.1 503 ") and b"retry-after: 5" in answer, answer[:200]
        assert time.monotonic() - started < 2.0  # refused at once, not left waiting
        for conn in silent[:10]:
            conn.close()
        time.sleep(0.5)
        assert server.request("GET", "/healthz")[0] == 200  # room again
        # one address may hold at most MAX_CLIENT_CONNECTIONS: the next is refused
        one = [
            socket.create_connection(("127.0.0.1", server.port), source_address=("127.0.2.1", 0))
            for _ in range(5)
        ]
        silent.extend(one)
        answer = raw(server, b"GET /healthz HTTP/1.1\r\nHost: pegs\r\n\r\n", source="127.0.2.1")
        assert answer.startswith(b"HTTP/1.1 503 "), answer[:200]
        counted = server.metrics()
    finally:
        for conn in silent:
            conn.close()
        stop_server(server)
    log = server.log.read_text()
    assert "at most 200 connections (open files: 300)" in log
    assert log.count("the most this server takes") == 1  # one line when it filled up
    assert log.count("accepting again") == 1  # and one when it had room again
    assert counted['pegs_refused_total{reason="too_many_connections"}'] >= 1
    assert counted['pegs_refused_total{reason="connections_per_client"}'] >= 1
    assert MAX_CLIENT_CONNECTIONS == 100


# --- 5. one SQLite file, one server -----------------------------------------------------------


def test_a_second_server_on_one_sqlite_file_is_refused_at_start(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    first = start_server(path, bot_workers=0)
    try:
        try:
            second = start_server(path, bot_workers=0, log=tmp_path / "second.log")
        except RuntimeError as refused:
            message = str(refused)
        else:
            stop_server(second)
            raise AssertionError("a second server started on the same file")
        assert f"another server (process {first.process.pid}) is using {path}" in message
        assert "PostgreSQL" in message and "Traceback" not in message
        assert "another name" not in message
        link = tmp_path / "link.sqlite3"
        link.symlink_to(path)  # the same file by another name: refused too (no split brain)
        with pytest.raises(RuntimeError, match=f"process {first.process.pid}"):
            start_server(link, bot_workers=0, log=tmp_path / "link.log")
        first.kill()  # however the first one ends, the file is free again
        again = start_server(path, bot_workers=0, log=tmp_path / "again.log")
        stop_server(again)
    finally:
        stop_server(first)


# --- 6. every problem, and a bounded log -------------------------------------------------------


def test_a_bad_request_lists_every_problem_and_a_flood_of_mistakes_writes_a_bounded_log(
    tmp_path: Path,
) -> None:
    with running_server(tmp_path, bot_workers=0) as server:
        body = {"players": 5, "preset": "chess", "seats": "x", "house_rules": {"name": ""}, "x": 1}
        status, answer = server.request("POST", "/api/games", json.dumps(body).encode())
        assert status == 400
        fields = [problem.split(":")[0] for problem in answer["problems"]]
        assert fields == ["unknown fields", "preset", "house_rules", "players", "seats"], answer
        created = server.create(players=4)
        url, _ = socket_url(created["spectator"])
        with connect(url) as hostile:  # a hundred frames of nonsense, each answered
            for _ in range(100):
                hostile.send("nonsense")
            answers = [json.loads(hostile.recv(5)) for _ in range(100)]
        assert all(a["code"] in ("bad_json", "rate_limited") for a in answers), answers
    lines = [line for line in server.log.read_text().splitlines() if " WARNING " in line]
    assert len(lines) == MISTAKES_PER_CLIENT + 1, lines  # not 101: the rest summed up, at the
    assert "more client mistakes" in lines[-1], lines[-1]  # end of the minute or of the server


def test_mistakes_past_the_allowance_are_summed_up_in_one_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    mistakes = Mistakes()
    with caplog.at_level(logging.WARNING, logger="pegs_rules.server"):
        for n in range(50):
            mistakes.warn("198.51.100.7", "client %s: mistake %d", "198.51.100.7", n)
        for n in range(3):
            mistakes.warn("203.0.113.9", "client %s: mistake %d", "203.0.113.9", n)
        mistakes.sum_up()  # the window closes (the server does so a minute after it opened)
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == MISTAKES_PER_CLIENT + 3 + 1, lines
    assert lines[-1].startswith(f"{50 - MISTAKES_PER_CLIENT} more client mistakes"), lines[-1]
    assert "(clients: 1; the most, 40, from 198.51.100.7)" in lines[-1]


LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (INFO|WARNING|ERROR|CRITICAL) \S+ \S")
"""Every line of the server's log: UTC time, level, source, message."""


def test_one_client_writes_a_bounded_log_in_one_format_while_others_are_still_logged(
    tmp_path: Path,
) -> None:
    """A flood of requests and WebSocket handshakes from one address (most refused ``429``)
    writes at most ACCESS_PER_CLIENT access lines and MISTAKES_PER_CLIENT mistakes about it,
    the rest summed up at shutdown; another address is still logged; every line is one event."""

    def get(port: int, source: str, path: str = "/healthz") -> int:
        conn = http.client.HTTPConnection("127.0.0.1", port, 5, (source, 0))
        try:
            conn.request("GET", path)
            return conn.getresponse().status
        finally:
            conn.close()

    with running_server(tmp_path, bot_workers=0) as server:
        created = server.create(players=4)
        url, token = socket_url(created["links"]["0"])
        statuses = collections.Counter(get(server.port, "127.0.0.9") for _ in range(250))
        handshakes = 0
        for _ in range(30):
            with contextlib.suppress(Exception), connect(url, open_timeout=5) as socket_:
                socket_.send(json.dumps({"type": "join", "token": token}))
                socket_.recv(5)
                handshakes += 1
        assert get(server.port, "127.0.0.2", "/api/games/nosuch") == 404
    assert statuses[429] > 100, statuses
    lines = server.log.read_text().splitlines()
    assert all(LINE.match(line) for line in lines), [x for x in lines if not LINE.match(x)][:3]
    flood = [x for x in lines if " access 127.0.0.9:" in x]
    assert len(flood) == ACCESS_PER_CLIENT, len(flood)
    assert any(" access 127.0.0.2:" in x and "404" in x for x in lines)
    summed = [x for x in lines if "more access log lines" in x]
    assert len(summed) == 1 and "from 127.0.0.9)" in summed[0], summed
    about = [x for x in lines if "127.0.0.9" in x]
    assert len(about) <= ACCESS_PER_CLIENT + MISTAKES_PER_CLIENT + FAILURES_PER_CLIENT + 3
    assert not any("connection open" in x or "connection closed" in x for x in lines)


def test_the_access_log_can_be_sampled_or_turned_off() -> None:
    def record(n: int) -> logging.LogRecord:
        return logging.makeLogRecord(
            {
                "name": "uvicorn.access",
                "msg": '%s - "%s %s HTTP/%s" %d',
                "args": (f"198.51.100.{n % 7}:4000", "GET", "/healthz", "1.1", 200),
                "levelno": logging.INFO,
            }
        )

    tenth, off, every = AccessLog(0.1), AccessLog(0.0), AccessLog(1.0, per_client=1000)
    assert sum(tenth.filter(record(n)) for n in range(1000)) == 100  # one in ten, counted
    assert not any(off.filter(record(n)) for n in range(100))
    assert all(every.filter(record(n)) for n in range(100))
    bounded = AccessLog(1.0)
    kept = [bounded.filter(record(0)) for _ in range(100)]
    assert kept.count(True) == ACCESS_PER_CLIENT


def test_a_message_of_several_lines_is_folded_onto_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(OneLine())
    logger = logging.getLogger("pegs_rules.server.test-fold")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        try:
            raise ValueError("connection failed\nDETAIL:  the server\r\nwent away\x1b[2J")
        except ValueError:
            logger.exception("the store fails:\n%s", "line two")
    finally:
        logger.removeHandler(handler)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and LINE.match(lines[0]), lines
    assert "the store fails:\\nline two\\nTraceback" in lines[0]
    assert "\\x1b[2J" in lines[0] and "\x1b" not in lines[0]


def test_an_exception_nobody_caught_is_one_line_of_the_log_too() -> None:
    code = (
        "import threading; from pegs_rules.server import logs; logs.configure(1.0); "
        "thread = threading.Thread(target=lambda: 1 / 0, name='worker'); "
        "thread.start(); thread.join(); raise ValueError('boom\\nsecond line')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    lines = done.stderr.splitlines()
    assert done.returncode == 1 and len(lines) == 2, lines
    assert all(LINE.match(line) for line in lines), lines
    assert " ERROR server uncaught ZeroDivisionError in worker\\nTraceback" in lines[0]
    assert (
        " CRITICAL server uncaught ValueError\\n" in lines[1] and "boom\\nsecond line" in lines[1]
    )


def test_pegs_serve_access_log_option(capsys: pytest.CaptureFixture[str]) -> None:
    from pegs_rules.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["serve", "--access-log", "off"]).access_log == 0.0
    assert parser.parse_args(["serve", "--access-log", "0.25"]).access_log == 0.25
    with pytest.raises(SystemExit):
        parser.parse_args(["serve", "--access-log", "2"])
    assert "all, off or a share" in capsys.readouterr().err
