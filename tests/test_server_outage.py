"""The database may restart: PostgreSQL restarted and stopped under two servers in play.

A PostgreSQL server of the test's own (``pgcluster``) is restarted three times (``fast``,
``immediate``, ``fast``) and then stopped for a few seconds, while two ``pegs serve`` processes
run a game of people and bots (seats on both servers), a game of bots only, and a game nobody
has joined yet. No game may be damaged: requests during the outage are answered "try again"
(``503`` with ``Retry-After``, WebSocket ``1013``), and play, joins and bots resume by
themselves within seconds of the database's return, with nothing accepted lost.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pgcluster import Cluster, cluster
from served import Server, chooser, run, start_server, stop_server, until

from pegs_rules.server.client import SeatClient, socket_url, socket_urls

RESUMED = 10.0
"""Seconds within which every game moves on after the database is back (the claim: a few)."""
OUTAGE = 6.0
"""Seconds the database is down for."""


@pytest.fixture
def database() -> Iterator[Cluster]:
    """A PostgreSQL server of this test's own: the test restarts and stops it."""
    with cluster() as running:
        yield running


def client(link: str, servers: list[Server], first: int, **options: Any) -> SeatClient:
    """A client of ``link``'s game that tries ``servers`` in turn, starting with ``servers[first]``."""
    urls = socket_urls(link, [s.url for s in servers])
    return SeatClient(urls[first:] + urls[:first], socket_url(link)[1], **options)


def test_restarts_and_an_outage_of_the_database_damage_no_game(
    database: Cluster, tmp_path: Path
) -> None:
    url = database.new_database()
    servers = [
        start_server(url, bot_workers=0, log=tmp_path / f"server-{n}.log", metrics=True)
        for n in range(2)
    ]
    try:
        times = run(scenario(database, servers), timeout=150)
    finally:
        for server in servers:
            stop_server(server)
    print("every game moved on again after:", ", ".join(f"{t:.1f} s" for t in times))
    for server in servers:
        log = server.log.read_text()
        assert "damaged" not in log and "Traceback" not in log, log[-3000:]


async def scenario(database: Cluster, servers: list[Server]) -> list[float]:
    a, b = servers
    games = {
        "mixed": a.create(players=8, seats=["human", "mcts:0.02s"] * 4),
        "bots": b.create(players=8, seats=["mcts:0.02s"] * 8),
    }
    waiting = a.create(players=4, seats=["human"] * 4)  # nobody joins it before the outage
    seats = [
        client(link, servers, n % 2, keep_frames=True)
        for n, link in enumerate(games["mixed"]["links"].values())
    ]
    watchers = [
        client(games[name]["spectator"], servers, n, keep_frames=True)
        for n, name in enumerate(["mixed", "bots", "mixed", "bots"])
    ]
    for watcher in watchers:
        await watcher.start()
    playing = [asyncio.create_task(seat.play(chooser(n, 0.05))) for n, seat in enumerate(seats)]
    await until(lambda: all(w.state is not None and w.state["ply"] >= 5 for w in watchers))

    times = []
    for mode in ("fast", "immediate", "fast"):
        await asyncio.to_thread(database.restart, mode)
        times.append(await moved_on(watchers, time.monotonic()))

    await asyncio.to_thread(database.stop, "fast")
    down = time.monotonic()
    creating = asyncio.to_thread(
        a.request, "POST", "/api/games", json.dumps({"players": 4}).encode()
    )
    checks = await asyncio.gather(*(try_again(s, games["mixed"]["id"]) for s in servers), creating)
    assert checks[-1][0] == 503, checks[-1]
    joiner = client(waiting["links"]["0"], servers, 1, keep_frames=True)
    joining = asyncio.create_task(joiner.start())  # refused with 1013 until the database is back
    await asyncio.sleep(max(0.0, OUTAGE - (time.monotonic() - down)))
    assert not joiner.connected
    await asyncio.to_thread(database.start)
    times.append(await moved_on(watchers, time.monotonic()))
    await asyncio.wait_for(joining, RESUMED)
    for server in servers:
        assert server.request("GET", "/readyz")[0] == 200

    for task in playing:
        task.cancel()
    await asyncio.gather(*playing, return_exceptions=True)
    everyone = [*seats, *watchers, joiner]
    for seat in everyone:
        await seat.stop()
    assert all(seat.refused is None for seat in everyone)
    closes = [json.loads(f) for s in everyone for f in s.frames if '"error"' in f]
    assert not [
        m for m in closes if m.get("code") in ("unavailable",) and "damaged" in m["message"]
    ]

    # nothing accepted was lost: every move any client was shown is in the store, at its ply
    for name, created in games.items():
        stored = a.stored(created["id"]).moves
        a.position(created["id"])  # and the record replays
        shown = [w for w in watchers if w.url.endswith(f"/{created['id']}/ws")]
        for seen in [*shown, *(seats if name == "mixed" else [])]:
            for message in map(json.loads, seen.frames):
                if message["type"] == "state" and message["move"] is not None:
                    assert stored[message["ply"] - 1] == message["move"], (name, message["ply"])
    counted = a.metrics()
    assert counted['pegs_moves_total{by="seat"}'] > 0 and counted['pegs_moves_total{by="bot"}'] > 0
    assert counted['pegs_refused_total{reason="unavailable"}'] >= 1
    assert counted['pegs_store_seconds_count{call="add_moves"}'] > 0
    return times


async def try_again(server: Server, game_id: str) -> tuple[int, Any]:
    """Check that ``server``, its database down, says so and answers "try again"."""

    async def ready() -> int:
        return (await asyncio.to_thread(server.request, "GET", "/readyz"))[0]

    deadline = time.monotonic() + 10
    while await ready() != 503:
        assert time.monotonic() < deadline, "the server still says it is ready"
        await asyncio.sleep(0.1)
    status, answer, headers = await asyncio.to_thread(server.answer, "GET", f"/api/games/{game_id}")
    assert status == 503 and answer["error"] == "unavailable", answer
    assert int(headers["retry-after"]) >= 1
    assert (await asyncio.to_thread(server.request, "GET", "/healthz"))[0] == 200
    assert server.metrics()["pegs_database_up"] == 0
    return status, answer


async def moved_on(watchers: list[SeatClient], since: float) -> float:
    """Seconds from ``since`` until every watched game has moved 3 plies further."""
    start = {id(w): w.state["ply"] if w.state else 0 for w in watchers}
    await until(
        lambda: all(
            w.connected and w.state is not None and w.state["ply"] >= start[id(w)] + 3
            for w in watchers
        ),
        timeout=RESUMED + 5,
    )
    took = time.monotonic() - since
    assert took < RESUMED, took
    return took
