"""Nobody gets in where they don't belong; bad frames get an error and hurt nothing."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from served import Server, check_message, running_server, start_server, stop_server
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from pegs_rules.server.client import socket_url
from pegs_rules.server.database import ENVIRONMENT, database_url, safe_url
from pegs_rules.server.protocol import BURST, MAX_FRAME, MAX_REFUSED
from pegs_rules.server.store import StoreError


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("secure"), bot_workers=0) as running:
        yield running


@pytest.fixture(scope="module")
def game(server: Server) -> dict[str, Any]:
    return server.create(players=4, seats=["human"] * 4)


def receive(socket: ClientConnection, timeout: float = 10) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(socket.recv(timeout))
    check_message(message)
    return message


def join(stack: ExitStack, link: str) -> tuple[ClientConnection, dict[str, Any], dict[str, Any]]:
    """A joined connection (closed with ``stack``), its welcome and its first state."""
    url, token = socket_url(link)
    socket = stack.enter_context(connect(url))
    socket.send(json.dumps({"type": "join", "token": token, "board": False}))
    welcome = receive(socket)
    assert welcome["type"] == "welcome", welcome
    return socket, welcome, receive(socket)


def refused(url: str, join: object) -> tuple[dict[str, Any], int | None]:
    """The error a join gets, and the close code that follows it."""
    with connect(url) as socket:
        socket.send(join if isinstance(join, str) else json.dumps(join))
        error = receive(socket)
        try:
            socket.recv(10)
        except ConnectionClosed as closed:
            return error, closed.rcvd.code if closed.rcvd else None
    raise AssertionError("the connection stayed open")


def waiting_seat(stack: ExitStack, game: dict[str, Any]) -> ClientConnection:
    """A connection of a seat that is not to act (so no fuzzed frame can change the game)."""
    socket, _, state = join(stack, game["links"]["0"])
    if state["view"]["turn"] != 0:
        return socket
    return join(stack, game["links"]["1"])[0]


@pytest.fixture
def stack() -> Iterator[ExitStack]:
    with ExitStack() as sockets:
        yield sockets


def test_no_token_a_wrong_token_and_another_games_token_are_refused(
    server: Server, game: dict[str, Any]
) -> None:
    other = server.create(players=4, seats=["human", "greedy", "greedy", "greedy"])
    url, _ = socket_url(game["links"]["0"])
    _, other_token = socket_url(other["links"]["0"])
    cases: list[tuple[object, str]] = [
        ({"type": "join", "token": "x" * 32}, "bad_token"),
        ({"type": "join", "token": other_token}, "bad_token"),
        ({"type": "join", "token": ""}, "bad_token"),
    ]
    for message, code in cases:
        error, close = refused(url, message)
        assert (error["code"], close) == (code, 1008)
    # a right token for another game id is still wrong
    _, token = socket_url(game["links"]["0"])
    error, close = refused(url.replace(game["id"], other["id"]), {"type": "join", "token": token})
    assert (error["code"], close) == ("bad_token", 1008)
    error, close = refused(url.replace(game["id"], "nosuchgame"), {"type": "join", "token": token})
    assert (error["code"], close) == ("bad_token", 1008)
    # without a join nothing else is read
    with connect(url) as socket:
        socket.send(json.dumps({"type": "join"}))
        assert receive(socket)["code"] == "bad_message"
        socket.send(json.dumps({"type": "move", "move": "pass"}))
        assert receive(socket)["code"] == "not_joined"


def test_a_seat_cannot_act_out_of_turn_or_for_the_other_team(
    stack: ExitStack, game: dict[str, Any]
) -> None:
    sockets = {int(s): join(stack, link) for s, link in game["links"].items()}
    turn = sockets[0][2]["view"]["turn"]
    waiting = sockets[(turn + 1) % 4][0]
    waiting.send(json.dumps({"type": "move", "move": "pass"}))
    assert receive(waiting)["code"] == "not_your_turn"
    actor = sockets[turn][0]
    opponent = (turn + 1) % 4
    actor.send(json.dumps({"type": "move", "move": f"K {opponent}:s-{18 * opponent + 8}"}))
    answer = receive(actor)
    assert answer["type"] == "illegal"
    assert answer["explanation"]["rule"] in ("team.control", "turn.sequence")


def test_frames_over_the_size_limit_are_refused(stack: ExitStack, game: dict[str, Any]) -> None:
    socket = waiting_seat(stack, game)
    socket.send(json.dumps({"type": "move", "move": "x" * MAX_FRAME}))
    assert receive(socket)["code"] == "too_large"
    socket.send(json.dumps({"type": "ping"}))
    assert receive(socket)["type"] == "pong"  # still open
    socket.send("x" * (8 * MAX_FRAME))  # past what the WebSocket layer reads at all
    with pytest.raises(ConnectionClosed) as closed:
        socket.recv(10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_a_flood_is_rate_limited_and_then_closed(stack: ExitStack, game: dict[str, Any]) -> None:
    socket = waiting_seat(stack, game)
    for _ in range(BURST + MAX_REFUSED + 10):
        try:
            socket.send(json.dumps({"type": "ping"}))
        except ConnectionClosed:
            break
    codes = []
    try:
        while True:
            message = json.loads(socket.recv(10))
            codes.append(message.get("code", message["type"]))
    except ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code == 1008
    assert "rate_limited" in codes and codes.count("pong") >= BURST - 2  # the joins count too


FRAMES = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=300),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(st.text(max_size=10), children, max_size=4)
        ),
        max_leaves=12,
    ).map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["move", "join", "ping", "MOVE", ""])},
        optional={
            "move": st.text(max_size=40) | st.integers() | st.none(),
            "ply": st.integers() | st.text(max_size=5) | st.booleans(),
            "token": st.text(max_size=40) | st.integers(),
            "board": st.integers() | st.booleans(),
        },
    ).map(json.dumps),
)


@pytest.fixture(scope="module")
def fuzzed(game: dict[str, Any]) -> Iterator[ClientConnection]:
    with ExitStack() as sockets:
        yield waiting_seat(sockets, game)


@given(frame=FRAMES)
def test_fuzzed_frames_get_one_error_each_and_the_server_stays_healthy(
    server: Server, fuzzed: ClientConnection, frame: str | bytes
) -> None:
    time.sleep(1 / 40)  # within the rate limit
    fuzzed.send(frame)
    answer = receive(fuzzed)
    assert answer["type"] in ("error", "pong"), answer
    if answer["type"] == "error":
        assert answer["code"] in (
            "bad_json",
            "bad_message",
            "unknown_type",
            "already_joined",
            "not_your_turn",
            "notation",  # move text that is not printable ASCII, refused as it is read
            "too_large",
        ), answer


def test_after_all_that_the_server_and_other_games_are_healthy(
    stack: ExitStack, server: Server
) -> None:
    assert server.request("GET", "/healthz")[0] == 200
    created = server.create(players=4, seats=["human", "greedy", "greedy", "greedy"])
    socket, _, state = join(stack, created["links"]["0"])
    while state["moves"] is None:
        state = receive(socket)
    move = state["moves"]["moves"][0]["notation"]
    socket.send(json.dumps({"type": "move", "move": move}))
    moved = receive(socket)
    assert moved["type"] == "state" and moved["ply"] == state["ply"] + 1
    assert server.process.poll() is None


# --- the database's password stays off the command line and out of the log --------------------


def test_the_database_url_comes_from_an_option_a_file_or_the_environment(tmp_path: Path) -> None:
    secret = tmp_path / "database-url"
    secret.write_text("postgresql://pegs:s3cret@db.example.org/pegs?sslmode=verify-full\n")
    environ = {ENVIRONMENT: "from-the-environment.sqlite3"}
    assert database_url("given.sqlite3", None, environ) == "given.sqlite3"
    assert database_url(None, str(secret), environ).endswith("sslmode=verify-full")
    assert database_url(None, None, environ) == "from-the-environment.sqlite3"
    assert database_url(None, None, {}) == "pegs-games.sqlite3"
    with pytest.raises(StoreError, match="not both"):
        database_url("given.sqlite3", str(secret))
    with pytest.raises(StoreError, match="cannot read"):
        database_url(None, str(tmp_path / "missing"))
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(StoreError, match="no database URL"):
        database_url(None, str(tmp_path / "empty"))
    assert safe_url(database_url(None, str(secret))) == "postgresql://pegs@db.example.org/pegs"


def test_a_server_reads_its_database_from_a_file(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    (tmp_path / "database-url").write_text(f"{db}\n")
    options = ["--db-file", str(tmp_path / "database-url")]
    server = start_server(db, bot_workers=0, options=options, pass_db=False)
    try:
        server.create(players=4)
    finally:
        stop_server(server)
    assert db.exists() and f"games in {db};" in server.log.read_text()


def test_a_password_on_the_command_line_is_warned_of_and_never_logged(tmp_path: Path) -> None:
    """Nothing listens on port 1: the server says it cannot reach the database, and exits."""
    url = "postgresql://pegs:s3cret@127.0.0.1:1/pegs"
    command = [sys.executable, "-m", "pegs_rules", "serve", "--db", url, "--port", "0"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "holds a password" in done.stderr and "--db-file" in done.stderr
    assert "s3cret" not in done.stdout + done.stderr
