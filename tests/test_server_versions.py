"""Servers of two versions and one database (docs/serve.rst, "Upgrades"): a server refuses
tables of a newer layout, and a newer server does not upgrade the tables while a server of the
older layout runs on them; once the older ones have stopped it upgrades, and serves their games
on. Servers of two layouts never share a database.

The newer version is this code with its :data:`~pegs_rules.server.store.LAYOUT` one higher,
run as a process of its own: a new layout changes what the tables hold, and the layout is all
that the servers compare. Its tables are this version's, so its games are played by the same
rules.
"""

from __future__ import annotations

import contextlib
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
from pgcluster import Cluster, free_port
from served import Server, start_server, stop_server

from pegs_rules.server.store import LAYOUT

NEXT = LAYOUT + 1
NEXT_VERSION = (
    "-c",
    "import sys; import pegs_rules.server.store as store; store.LAYOUT += 1; "
    "from pegs_rules.cli import main; sys.exit(main())",
)
"""How Python runs the newer version's command line."""
BOTS = ["hard:40"] * 4
"""Bots slow enough that the game is still going when the servers change."""


@contextlib.contextmanager
def servers() -> Iterator[Callable[[Server], Server]]:
    """Note each server started (``started(server)``); stop them all at the end, however it ends."""
    started: list[Server] = []

    def note(server: Server) -> Server:
        started.append(server)
        return server

    try:
        yield note
    finally:
        for server in started:
            stop_server(server)


def refused(db: str | Path, newer: bool = False) -> str:
    """What ``pegs serve`` (the newer version's if ``newer``) says when it refuses ``db``."""
    program = NEXT_VERSION if newer else ("-m", "pegs_rules")
    command = [sys.executable, *program, "serve", "--db", str(db), "--port", str(free_port())]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    return done.stderr


def ply(server: Server, game: str) -> int:
    status, summary = server.request("GET", f"/api/games/{game}")
    assert status == 200, summary
    return int(summary["ply"])


def wait_for_ply(server: Server, game: str, beyond: int) -> int:
    """The game's ply, once its bots have played past ``beyond`` on ``server``."""
    deadline = time.monotonic() + 30
    while (now := ply(server, game)) <= beyond:
        assert time.monotonic() < deadline, f"no bot moved past ply {beyond}"
        time.sleep(0.1)
    return now


def test_postgresql_upgrade_waits_for_the_older_servers_and_then_refuses_them(
    postgres: Cluster, tmp_path: Path
) -> None:
    url = postgres.new_database()

    def layouts() -> list[int]:
        with psycopg.connect(url) as db:
            return [row[0] for row in db.execute("select layout from layouts order by layout")]

    with servers() as started:
        older = started(start_server(url, log=tmp_path / "older.log"))
        game = older.create(players=4, seats=BOTS)["id"]
        played = wait_for_ply(older, game, 2)

        said = refused(url, newer=True)  # while the older server runs
        assert f"1 server(s) of an older version (layout {LAYOUT}) beat on this database" in said
        assert "stop them all" in said
        assert layouts() == [LAYOUT]
        played = wait_for_ply(older, game, played)  # it plays on, its tables untouched

        older.kill()  # stopped without a word: its beat is recent
        assert "1 server(s) of an older version" in refused(url, newer=True)
        with psycopg.connect(url) as db:  # as a minute later
            db.execute("update servers set expires = now() - interval '61 s'")

        newer = started(start_server(url, log=tmp_path / "newer.log", program=NEXT_VERSION))
        assert newer.request("GET", "/healthz")[1]["layout"] == NEXT
        assert layouts() == [LAYOUT, NEXT]
        wait_for_ply(newer, game, played)  # the older server's game, played on

        said = refused(url)  # the older version, once the tables are newer
        assert f"tables are of layout {NEXT}, newer than the layout {LAYOUT}" in said
        assert layouts() == [LAYOUT, NEXT]
        second = started(start_server(url, log=tmp_path / "second.log", program=NEXT_VERSION))
        assert second.request("GET", "/healthz")[1]["layout"] == NEXT  # one layout: shared


def test_an_sqlite_file_of_a_newer_layout_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with servers() as started:
        older = started(start_server(path))
        game = older.create(players=4, seats=BOTS)["id"]
        played = wait_for_ply(older, game, 2)
        stop_server(older)

        newer = started(start_server(path, program=NEXT_VERSION))
        assert newer.request("GET", "/healthz")[1]["layout"] == NEXT
        played = wait_for_ply(newer, game, played)
        stop_server(newer)

    said = refused(path)
    assert f"tables are of layout {NEXT}, newer than the layout {LAYOUT}" in said
    with sqlite3.connect(path) as db:
        assert db.execute("pragma user_version").fetchone() == (NEXT,)
        assert db.execute("select ply from games where id = ?", (game,)).fetchone() == (played,)
