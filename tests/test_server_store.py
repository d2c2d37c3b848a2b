"""The store, bad data read back from it, and bots thinking off the event loop."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest
from served import first_move, past, run, running_server

from pegs_rules import ARIZONA, legal_moves
from pegs_rules.records import GameRecord
from pegs_rules.server.games import Registry, token_hash
from pegs_rules.server.protocol import MoveRequest, ProtocolError
from pegs_rules.server.store import SqliteStore, StoredGame, StoredMove, StoreError


def stored(game_id: str, seed: int = 5) -> StoredGame:
    return StoredGame(
        game_id,
        GameRecord(rules=ARIZONA, players=4, seed=seed),
        ("human",) * 4,
        tuple(token_hash(f"{game_id}-{s}") for s in range(4)),
        token_hash(f"{game_id}-watch"),
    )


class Listener:
    """A connection that keeps what it is sent."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.board = False
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)

    def close(self, code: str) -> None:
        self.sent.append(code)


def test_a_ply_is_stored_once_and_finished_games_leave_the_active_list(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "g.sqlite3"))
    store.create(stored("a"))
    store.create(stored("b"))
    store.add_moves([StoredMove("a", 0, "discard 7")])
    with pytest.raises(StoreError, match="move 0 of game a"):
        store.add_moves([StoredMove("a", 1, "pass"), StoredMove("a", 0, "pass")])
    kept = store.load("a")
    assert kept is not None and kept.record.moves == ("discard 7",)  # all or none
    store.add_moves([StoredMove("b", 0, "discard 7", finished=True)])
    assert store.active_ids() == ["a"]
    loaded = store.load("b")
    assert loaded is not None and loaded.finished and loaded.record.moves == ("discard 7",)
    assert store.load("nope") is None
    store.close()


@pytest.mark.parametrize(
    ("table", "column", "value", "problem"),
    [
        ("games", "start", "{not json", "damaged"),
        ("games", "start", '{"format": 1, "type": "record", "players": 5}', "damaged"),
        ("games", "seats", '["human"]', "seats or tokens"),
        ("moves", "move", "K 0:s-99 9:1-2 3:4-5", "damaged"),
        ("moves", "ply", "7", "skip a ply"),
    ],
)
def test_a_damaged_game_is_refused_and_the_others_play_on(
    tmp_path: Path, table: str, column: str, value: str, problem: str
) -> None:
    path = tmp_path / "g.sqlite3"
    store = SqliteStore(str(path))
    store.create(stored("bad"))
    store.create(stored("good", seed=6))
    store.add_moves([StoredMove("bad", 0, "discard 7")])
    store.close()
    with sqlite3.connect(path) as db:
        key = "id" if table == "games" else "game"
        db.execute(f"update {table} set {column} = ? where {key} = 'bad'", (value,))

    async def resume() -> None:
        registry = Registry(SqliteStore(str(path)), None, 10)
        await registry.start()
        assert problem in registry.broken["bad"]
        with pytest.raises(ProtocolError) as refused:
            await registry.join("bad", "bad-0", Listener())
        assert refused.value.code == "unavailable"
        listener = Listener()
        game = await registry.join("good", "good-0", listener)
        seat = game.state.turn
        actor = Listener()
        await registry.join("good", f"good-{seat}", actor)
        await registry.play(game, seat, MoveRequest(str(legal_moves(game.state)[0])))
        assert game.state.ply == 1 and len(listener.sent) == 3  # welcome, state, state
        await registry.close()

    run(resume())


def test_a_thinking_bot_does_not_hold_up_another_game(tmp_path: Path) -> None:
    """Every seat of one game is a bot thinking 1.5 s a move; people play another meanwhile."""
    with running_server(tmp_path, bot_workers=1) as server:
        thinking = server.create(players=4, seats=["mcts:1.5s"] * 4)
        people = server.create(players=4, seats=["human"] * 4)

        async def play() -> list[float]:
            clients = [server.client(link) for link in people["links"].values()]
            for client in clients:
                await client.start()
            waits = []
            for _ in range(20):
                actor = next(c for c in clients if c.state and c.state["moves"])
                assert actor.state is not None
                ply = actor.state["ply"]
                started = time.perf_counter()
                await actor.send_move(await first_move(actor.state), ply)
                await actor.next("state", past(ply))
                waits.append(time.perf_counter() - started)
                await asyncio.sleep(0.1)  # let the other seats read the news
            for client in clients:
                await client.stop()
            return waits

        waits = run(play())
        status, bots = server.request("GET", f"/api/games/{thinking['id']}")
    assert status == 200 and bots["ply"] >= 1  # the bots played (and thought) meanwhile
    # a bot thinking on the event loop would hold a move up for 1.5 s; the margin is for a
    # machine whose two cores are also busy with the bot's worker and the clients
    assert max(waits) < 1.0, waits
