"""``pegs admin`` against a running server's database: list, remove, block, unblock, and the log.

The servers are real subprocesses, on an SQLite file or (two of them) on one
PostgreSQL database; ``pegs admin`` runs in this process on the same database,
as an operator's shell would beside the servers.
"""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from pgcluster import Cluster
from served import Server, running_server, start_server, stop_server
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from pegs_rules.cli import main
from pegs_rules.server.client import socket_url
from pegs_rules.server.games import BLOCKED, REMOVED_BY_OPERATOR
from pegs_rules.server.operating import OPERATOR_POLL

WITHIN = OPERATOR_POLL * 2 + 3
"""Seconds a server may take to act on what the operator did."""


def get(server: Server, source: str, path: str = "/healthz") -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, 5, (source, 0))
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        conn.close()


def joined(
    stack: ExitStack, server: Server, link: str, source: str = "127.0.0.1"
) -> ClientConnection:
    url, token = socket_url(link)
    sock = socket.create_connection(("127.0.0.1", server.port), 5, (source, 0))
    client = stack.enter_context(connect(url, sock=sock, open_timeout=5))
    client.send(json.dumps({"type": "join", "token": token}))
    client.recv(5)  # welcome
    return client


def told(client: ClientConnection, seconds: float = WITHIN) -> str:
    """The message of the error the server sends before closing ``client``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            message = json.loads(client.recv(deadline - time.monotonic()))
        except ConnectionClosed:
            break
        if message["type"] == "error":
            return str(message["message"])
    raise AssertionError("not told")


def soon(condition: Callable[[], bool], seconds: float = WITHIN) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.1)


def admin(capsys: pytest.CaptureFixture[str], db: Path | str, *command: str) -> tuple[int, str]:
    code = main(["admin", "--db", str(db), *command])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_pegs_admin_lists_removes_blocks_and_unblocks_on_a_live_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with running_server(tmp_path, bot_workers=0) as server, ExitStack() as stack:
        db = Path(server.db)
        kept = server.create(players=4, seats=["human", "greedy", "human", "greedy"])
        doomed = server.create(players=4)
        player = joined(stack, server, doomed["links"]["0"])
        watcher = joined(stack, server, kept["spectator"], source="127.0.0.5")

        code, out = admin(capsys, db, "games")
        assert code == 0 and out.endswith("2 games\n"), out
        line = next(x for x in out.splitlines() if x.startswith(doomed["id"]))
        assert "playing  4 people, 0 bots  ply 0" in line and "from 127.0.0.1" in line, line
        line = next(x for x in out.splitlines() if x.startswith(kept["id"]))
        assert "waiting  2 people, 2 bots" in line, line
        code, out = admin(capsys, db, "games", "--json")
        assert {game["id"] for game in json.loads(out)} == {kept["id"], doomed["id"]}

        code, out = admin(capsys, db, "remove", doomed["id"], "--note", "test removal")
        assert code == 0 and "removed game" in out
        assert told(player) == REMOVED_BY_OPERATOR
        assert server.request("GET", f"/api/games/{doomed['id']}")[0] == 404
        assert admin(capsys, db, "remove", doomed["id"])[0] == 1  # no such game now

        code, out = admin(capsys, db, "block", "127.0.0.5", "--note", "flooding")
        assert code == 0 and "blocked 127.0.0.5/32" in out
        assert told(watcher) == BLOCKED  # its open connection is closed
        soon(lambda: get(server, "127.0.0.5")[0] == 403)
        assert get(server, "127.0.0.5")[1]["error"] == "blocked"
        with pytest.raises(InvalidStatus) as refused:
            joined(stack, server, kept["spectator"], source="127.0.0.5")
        assert refused.value.response.status_code == 403
        assert get(server, "127.0.0.6")[0] == 200  # nobody else
        code, out = admin(capsys, db, "blocks")
        assert out.startswith("127.0.0.5/32  since ") and "flooding; by " in out, out

        assert admin(capsys, db, "unblock", "127.0.0.5")[0] == 0
        soon(lambda: get(server, "127.0.0.5")[0] == 200)
        assert admin(capsys, db, "unblock", "127.0.0.5")[0] == 1  # not blocked now
        assert admin(capsys, db, "block", "not-an-address")[0] == 2
        code, out = admin(capsys, tmp_path / "typo.sqlite3", "games")
        assert code == 2 and "no database at" in out and not (tmp_path / "typo.sqlite3").exists()

        code, out = admin(capsys, db, "log")
        actions = [line.split("  ")[2] for line in out.splitlines()]
        assert actions == [
            f"remove {doomed['id']}",
            "block 127.0.0.5/32",
            "unblock 127.0.0.5/32",
        ], out
        assert "test removal; by " in out
    log = server.log.read_text()
    assert f"operator: removed game {doomed['id']} (test removal; by " in log
    assert "operator: blocked 127.0.0.5/32 (flooding; by " in log
    assert "operator: unblocked 127.0.0.5/32" in log


def test_pegs_admin_acts_on_every_server_of_a_postgresql_database(
    postgres: Cluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = postgres.new_database()
    servers = [start_server(url, bot_workers=0, log=tmp_path / f"server-{n}.log") for n in range(2)]
    try:
        with ExitStack() as stack:
            created = servers[0].create(players=4)
            player = joined(stack, servers[1], created["links"]["2"])  # on the other server
            code, out = admin(capsys, url, "games")
            assert code == 0 and "playing  4 people, 0 bots, joined now: 2  ply 0" in out, out
            assert admin(capsys, url, "block", "127.0.0.5")[0] == 0
            soon(lambda: all(get(server, "127.0.0.5")[0] == 403 for server in servers))
            started = time.monotonic()
            assert admin(capsys, url, "remove", created["id"])[0] == 0
            assert told(player) == REMOVED_BY_OPERATOR
            assert time.monotonic() - started < OPERATOR_POLL  # announced, not polled
    finally:
        for server in servers:
            stop_server(server)
    for server in servers:
        assert "operator: blocked 127.0.0.5/32 (by " in server.log.read_text()
