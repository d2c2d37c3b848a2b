"""Nothing lost: SIGKILL the server in the middle of several games, start it again, play on."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from served import Server, drive, run, start_server, stop_server, until

from pegs_rules import GameState, replay
from pegs_rules.serialize import from_data
from pegs_rules.server.client import SeatClient


def hand_of(client: SeatClient) -> list[str]:
    assert client.state is not None
    hand: list[str] = client.state["view"]["hand"]
    return hand


def test_sigkill_mid_game_loses_nothing_and_clients_reconnect_by_themselves(
    tmp_path: Path,
) -> None:
    servers = [start_server(tmp_path / "games.sqlite3")]
    try:
        games = {
            "people": servers[0].create(players=4, seats=["human"] * 4),
            "mixed": servers[0].create(players=6, seats=["human", "greedy"] * 3),
            "bots": servers[0].create(players=8, seats=["greedy", "random"] * 4),
        }
        run(scenario(servers, games), timeout=240)
    finally:
        for server in servers:
            stop_server(server)


async def scenario(servers: list[Server], games: dict[str, dict[str, Any]]) -> None:
    server = servers[0]
    clients = {
        name: [server.client(link) for _, link in sorted(created["links"].items())]
        for name, created in games.items()
    }
    everyone = [c for group in clients.values() for c in group]
    for client in everyone:
        await client.start()
    stop = asyncio.Event()
    drivers = [
        asyncio.create_task(drive(group, random.Random(i), stop))
        for i, group in enumerate(clients.values())
        if group
    ]
    await until(lambda: all(c.state is not None and c.state["ply"] >= 15 for c in everyone))

    server.kill()  # mid-game: moves in flight, bots thinking
    stop.set()
    await asyncio.gather(*drivers)
    at_kill: dict[str, GameState] = {n: server.position(g["id"]) for n, g in games.items()}
    for name, group in clients.items():
        for client in group:  # every position a client was shown had been stored first
            assert client.state is not None and client.state["ply"] <= at_kill[name].ply
    await until(lambda: not any(c.connected for c in everyone))

    server = start_server(server.db, port=server.port)
    servers.append(server)
    await until(lambda: all(c.connected and c.connections == 2 for c in everyone))

    # the people's game: no bot can move, so it waits exactly where it was
    people = clients["people"]
    truth = at_kill["people"]
    for seat, client in enumerate(people):
        assert client.state is not None and client.state["ply"] == truth.ply
        assert from_data(client.state["view"], "view").hand == truth.hands[seat]
    actor = people[truth.turn]
    assert actor.state is not None and actor.state["moves"]
    move = actor.state["moves"]["moves"][0]["notation"]
    await actor.send_move(move, truth.ply)
    after = await actor.next("state", lambda m: m["ply"] == truth.ply + 1)
    drawn = [
        e["cards"]
        for e in after["events"]["events"]
        if e["event"] == "cards_drawn" and e["seat"] == truth.turn
    ]
    assert drawn and drawn[0] == [c.symbol for c in truth.draw_pile[: len(drawn[0])]]

    # the games with bots go on from where the store had them
    stop.clear()
    driver = asyncio.create_task(drive(clients["mixed"], random.Random(9), stop))
    for name in ("mixed", "bots"):
        game_id = games[name]["id"]
        await until(lambda g=game_id, p=at_kill[name].ply: server.position(g).ply > p)
        record = server.stored(game_id)
        assert replay(replace(record, moves=record.moves[: at_kill[name].ply])) == at_kill[name]
    stop.set()
    await driver
    for client in everyone:
        await client.stop()
