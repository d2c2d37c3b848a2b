"""Clients that keep going: connections cut at random moments of a whole game, moves in flight.

A proxy (``faults.DroppingProxy``) stands between the clients and a real ``pegs serve`` and
cuts each connection after a random lifetime, or just after or just before a move passes
through it. Two :class:`~pegs_rules.server.client.SeatClient` seats play a whole game through
it with two bots, by :meth:`~pegs_rules.server.client.SeatClient.play` alone.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

from faults import DroppingProxy
from served import chooser, running_server

from pegs_rules import apply, parse_move
from pegs_rules.server.client import SeatClient, socket_url


def test_seats_play_a_whole_game_through_connections_cut_at_random_moments(
    tmp_path: Path,
) -> None:
    with running_server(tmp_path, bot_workers=0) as server:
        created = server.create(players=4, seats=["human", "greedy", "human", "greedy"])

        async def game() -> tuple[list[int], list[SeatClient], DroppingProxy]:
            proxy = DroppingProxy(server.port, random.Random(5), lifetime=(0.05, 0.4))
            listening = await proxy.start()
            seats = []
            for seat in ("0", "2"):
                url, token = socket_url(created["links"][seat])
                through = url.replace(f":{server.port}/", f":{proxy.port}/")
                seats.append(SeatClient(through, token, keep_frames=True))
            winners = await asyncio.gather(*(c.play(chooser(i)) for i, c in enumerate(seats)))
            for client in seats:
                await client.stop()
            listening.close()
            return list(winners), seats, proxy

        winners, seats, proxy = asyncio.run(asyncio.wait_for(game(), 120))
        record = server.stored(created["id"])
    states = [record.start()]
    for text in record.moves:
        states.append(apply(states[-1], parse_move(states[-1], text)))
    assert states[-1].winner is not None and winners == [states[-1].winner] * 2
    print(f"{len(record.moves)} moves; connections cut: {proxy.cuts}")
    assert proxy.cuts["after"] >= 5 and proxy.cuts["before"] >= 5 and proxy.cuts["time"] >= 5
    for client in seats:
        assert client.connections >= 10
        messages = [json.loads(frame) for frame in client.frames]
        # nothing was sent twice: no move of a position the seat had already moved from
        refused = [m for m in messages if m["type"] == "error"]
        assert not refused, refused
        for message in messages:  # and every position shown is the stored game's
            if message["type"] == "state":
                assert message["ply"] < len(states) and message["view"]["hand"] == [
                    card.symbol for card in states[message["ply"]].hands[message["view"]["seat"]]
                ]
