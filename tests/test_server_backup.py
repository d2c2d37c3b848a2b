"""Running a site: a PostgreSQL database's games backed up with ``pg_dump``, restored into a
fresh PostgreSQL server with ``pg_restore``, and served and played from there, as the guide's
backup section says (``docs/serve.rst``); and what a server reports of itself.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import urllib.request
from pathlib import Path

from pgcluster import Cluster, cluster, programs
from served import Server, first_move, past, run, start_server, stop_server

from pegs_rules.server.store import LAYOUT


def test_a_dump_restored_into_a_fresh_cluster_is_served_and_playable(
    postgres: Cluster, tmp_path: Path
) -> None:
    url = postgres.new_database()
    server = start_server(url, bot_workers=0, log=tmp_path / "before.log")
    try:
        created = server.create(players=4, seats=["human", "greedy", "human", "greedy"])
        game = created["id"]
        run(play_moves(server, created, 6))
    finally:
        stop_server(server)
    before = server.stored(game)  # what the database holds at the dump (the bots are stopped)
    assert len(before.moves) >= 6
    dump = tmp_path / "pegs.dump"
    tools = programs()
    subprocess.run(
        [str(tools / "pg_dump"), "--format=custom", f"--file={dump}", url],
        check=True,
        capture_output=True,
    )
    with cluster() as fresh:
        import psycopg

        with psycopg.connect(fresh.url(), autocommit=True) as db:
            db.execute("create database pegs")
        restored_url = fresh.url("pegs")
        subprocess.run(
            [str(tools / "pg_restore"), "--no-owner", f"--dbname={restored_url}", str(dump)],
            check=True,
            capture_output=True,
        )
        restored = start_server(restored_url, bot_workers=0, log=tmp_path / "after.log")
        try:
            assert restored.stored(game) == before  # deal, seed and every move
            summary = restored.request("GET", f"/api/games/{game}")[1]
            assert summary["ply"] == len(before.moves) and summary["winner"] is None
            health = restored.request("GET", "/healthz")[1]
            assert health["database"] is True and health["layout"] == LAYOUT
            moved = {**created, "links": relinked(created["links"], restored)}
            run(play_moves(restored, moved, 1))
            assert restored.request("GET", f"/api/games/{game}")[1]["ply"] > len(before.moves)
        finally:
            stop_server(restored)


def relinked(links: dict[str, str], server: Server) -> dict[str, str]:
    """The join links on ``server``."""
    return {seat: server.url + link[link.index("/play/") :] for seat, link in links.items()}


async def play_moves(server: Server, created: dict[str, object], count: int) -> None:
    """The people at seats 0 and 2 play their first legal move until they made ``count``."""
    links = created["links"]
    assert isinstance(links, dict)
    seats = [server.client(links[s]) for s in ("0", "2")]
    for seat in seats:
        await seat.start()
    made = 0
    while made < count:
        await asyncio.sleep(0.02)
        for seat in seats:
            state = seat.state
            if state is not None and state["moves"]:
                await seat.send_move(await first_move(state), state["ply"])
                await seat.next("state", past(state["ply"]), timeout=10)
                made += 1
    for seat in seats:
        await seat.stop()


def test_the_suggested_alerts_name_only_metrics_the_server_exports(tmp_path: Path) -> None:
    rules = (Path(__file__).resolve().parents[1] / "docs" / "serve" / "alerts.yml").read_text()
    named = set(re.findall(r"\b(pegs_[a-z_]+)", rules))
    server = start_server(tmp_path / "games.sqlite3", bot_workers=0, metrics=True)
    try:
        assert server.metrics_port is not None
        url = f"http://127.0.0.1:{server.metrics_port}/metrics"
        with urllib.request.urlopen(url, timeout=10) as answer:
            text = answer.read().decode()
    finally:
        stop_server(server)
    families = set(re.findall(r"^# TYPE (pegs_[a-z_]+) ", text, re.MULTILINE))
    suffixes = ("", "_bucket", "_count", "_sum", "_total")
    exported = {family + suffix for family in families for suffix in suffixes}
    assert len(named) >= 4 and named <= exported, named - exported
