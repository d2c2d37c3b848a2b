"""``pegs serve`` end to end: games over real WebSockets to a server subprocess."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from served import (
    Server,
    check_frames,
    check_message,
    chooser,
    first_move,
    past,
    run,
    running_server,
)

from pegs_rules import ARIZONA, apply, new_game, parse_move, replay
from pegs_rules.cli import main
from pegs_rules.serialize import from_json
from pegs_rules.server.database import open_store
from pegs_rules.server.registry import Registry

SEATS = ["human", "greedy", "human", "random"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("serve")) as running:
        yield running


def test_two_scripted_seats_and_two_bots_play_to_the_end_and_nothing_leaks(
    server: Server, tmp_path: Path
) -> None:
    created = server.create(players=4, preset="arizona", seats=SEATS)
    assert sorted(created["links"]) == ["0", "2"]

    async def game() -> tuple[list[int], dict[int | None, list[str]]]:
        seats = [server.client(created["links"][s], keep_frames=True) for s in ("0", "2")]
        watcher = server.client(created["spectator"], keep_frames=True, board=True)
        await watcher.start()
        winners = await asyncio.gather(*(c.play(chooser(i)) for i, c in enumerate(seats)))
        await watcher.next("state", lambda m: m["public"]["winner"] is not None)
        for client in [*seats, watcher]:
            await client.stop()
        return winners, {0: seats[0].frames, 2: seats[1].frames, None: watcher.frames}

    winners, frames = run(game(), timeout=300)
    status, summary = server.request("GET", f"/api/games/{created['id']}")
    assert status == 200 and summary["winner"] == winners[0] == winners[1]
    check_message(summary, "game-summary")

    # a finished game can still be opened: it shows the end
    async def rejoin() -> dict[str, Any]:
        client = server.client(created["links"]["2"])
        await client.start()
        await client.stop()
        assert client.state is not None
        return client.state

    end = run(rejoin())
    assert end["view"]["winner"] == winners[0] and end["moves"] is None

    # the record downloads once the game is over, and `pegs replay` accepts it
    record_text = download(server, f"/api/games/{created['id']}/record")
    record = from_json(record_text, "record")
    final = replay(record)
    assert final.winner == winners[0]
    store = open_store(str(server.db))  # the end is kept: a finished game is never replayed
    snapshot = store.snapshot(created["id"])
    store.close()
    assert snapshot is not None and from_json(snapshot.state, "state") == final
    path = tmp_path / "game.json"
    path.write_text(record_text, encoding="utf-8")
    assert main(["replay", str(path)]) == 0

    states = [record.start()]
    for text in record.moves:
        states.append(apply(states[-1], parse_move(states[-1], text)))
    for seat, received in frames.items():
        check_frames(seat, received, states, record.seed)


def download(server: Server, path: str) -> str:
    import urllib.request

    with urllib.request.urlopen(server.url + path, timeout=10) as answer:
        text: str = answer.read().decode()
        return text


def test_an_illegal_move_is_answered_with_its_ruling_and_changes_nothing(server: Server) -> None:
    created = server.create(players=4, seats=["human"] * 4)

    async def session() -> None:
        clients = {s: server.client(link) for s, link in created["links"].items()}
        for client in clients.values():
            await client.start()
        state = clients["0"].state
        assert state is not None
        turn = str(state["view"]["turn"])
        actor, other = clients[turn], clients[str((int(turn) + 1) % 4)]
        assert actor.state is not None and actor.state["moves"]
        hand = actor.state["view"]["hand"]

        await actor.send_move(f"8 {turn}:s-{18 * int(turn)}")  # an 8 never moves a peg out of start
        answer = await actor.next("illegal")
        check_message(answer)
        rule = answer["explanation"]["rule"]
        if "8" in hand:
            assert rule == "card.eight"
        else:
            assert rule == "turn.sequence" and "holds no 8" in answer["explanation"]["reason"]

        for text, code in [("9 99-h9", "notation"), ("", "notation"), ("banana", "notation")]:
            await actor.send_move(text)
            assert (await actor.next("error"))["code"] == code
        await actor.send_move(await first_move(actor.state), ply=actor.state["ply"] + 5)
        assert (await actor.next("error"))["code"] == "stale"
        await other.send_move("pass")
        assert (await other.next("error"))["code"] == "not_your_turn"

        # nothing changed: the legal move still goes through, and everyone hears of it
        await actor.send_move(await first_move(actor.state), ply=0)
        for client in clients.values():
            moved = await client.next("state", lambda m: m["ply"] > 0)
            assert moved["ply"] == 1
        for client in clients.values():
            await client.stop()

    run(session())


def test_a_spectator_sees_the_public_position_and_cannot_move(server: Server) -> None:
    created = server.create(players=6, seats=["human", *["greedy"] * 5])

    async def session() -> None:
        watcher = server.client(created["spectator"], keep_frames=True)
        await watcher.start()
        assert watcher.welcome is not None and watcher.welcome["role"] == "spectator"
        assert watcher.state is not None and "public" in watcher.state
        await watcher.send_move("pass")
        assert (await watcher.next("error"))["code"] == "spectator"
        await watcher.stop()

    run(session())


def test_reconnecting_with_the_same_token_resumes_the_seat(server: Server) -> None:
    created = server.create(players=4, seats=["human", "greedy", "greedy", "greedy"])
    link = created["links"]["0"]

    async def session() -> None:
        first = server.client(link)
        await first.start()
        # the states in the order they came (``first.state`` may already be a later one)
        joined = await first.next("state")
        if joined["moves"]:
            await first.send_move(await first_move(joined))
            await first.next("state", lambda m: m["moves"] is None)
        before = await first.next("state", lambda m: m["moves"] is not None)  # bots answered
        await first.stop()

        again = server.client(link)
        await again.start()
        assert again.welcome is not None and again.welcome["seat"] == 0
        assert again.state is not None
        assert again.state["view"] == before["view"] and again.state["moves"] == before["moves"]

        # a second connection to the same seat replaces the first, which is told so
        third = server.client(link)
        await third.start()
        refused = await again.next("error")
        assert refused["code"] == "replaced"
        for _ in range(50):
            if again.refused is not None:
                break
            await asyncio.sleep(0.1)
        assert again.refused == 4001
        await again.stop()
        await third.stop()

    run(session())


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b"not json", "not JSON"),
        (b"[1, 2]", "JSON object"),
        (b'{"players": 5}', "players"),
        (b'{"players": 4, "seats": ["human"]}', "seats"),
        (b'{"players": 4, "seats": ["human", "wizard", "human", "human"]}', "wizard"),
        (b'{"seats": ["human", "mcts:3600s", "human", "human"]}', "too long"),
        (b'{"preset": "chess"}', "preset"),
        (b'{"house_rules": {"nine": "sideways"}}', "nine"),
        (b'{"house_rules": {"face_values": [11, 12, 14]}}', "face_values"),
        (b'{"colour": "blue"}', "unknown"),
        (b'{"players": 4, "seats": "human"}', "seats"),
        (b'{"players": 4, "seats": ' + b"[" * 10_000 + b"]" * 10_000 + b"}", "body"),
    ],
)
def test_a_bad_new_game_request_is_refused_with_its_problem(
    server: Server, body: bytes, problem: str
) -> None:
    status, answer = server.request("POST", "/api/games", body)
    assert status in (400, 413), answer
    check_message(answer, "http-error")
    assert any(problem in p for p in answer["problems"]), answer


def test_house_rules_and_the_standard_preset_reach_the_game(server: Server) -> None:
    created = server.create(
        players=8, preset="standard", seats=["human"] * 8, house_rules={"two_swap": True}
    )

    async def session() -> dict[str, Any]:
        client = server.client(created["links"]["3"])
        await client.start()
        assert client.state is not None
        await client.stop()
        rules: dict[str, Any] = client.state["view"]["rules"]
        return rules

    rules = run(session())
    assert rules["name"] == "standard" and rules["two_swap"] is True
    assert rules["draw_first"] is True


def test_the_record_of_a_game_in_play_is_not_given_out(server: Server) -> None:
    created = server.create(players=4, seats=["human"] * 4)
    status, answer = server.request("GET", f"/api/games/{created['id']}/record")
    assert status == 409 and answer["error"] == "unavailable"
    assert server.request("GET", "/api/games/nosuchgame/record")[0] == 404
    assert server.request("GET", "/api/games/nosuchgame")[0] == 404


def test_a_seeded_engine_game_and_the_server_agree_on_what_a_view_is() -> None:
    """The fixture behind :func:`served.check_frames`: the public position is a view less seat and hand."""
    state = new_game(4, seed=3)
    from pegs_rules.server.protocol import public_data

    data = public_data(state)
    check_message(data, "public")
    assert "hand" not in data and "seat" not in data and "seed" not in json.dumps(data)


def test_a_thinking_bot_does_not_hold_up_another_game(tmp_path: Path) -> None:
    """Every seat of one game is a bot thinking 1.5 s a move; people play another meanwhile."""
    with running_server(tmp_path, bot_workers=1) as server:
        thinking = server.create(players=4, seats=["mcts:1.5s"] * 4)
        people = server.create(players=4, seats=["human"] * 4)

        async def play() -> list[float]:
            clients = [server.client(link) for link in people["links"].values()]
            for client in clients:
                await client.start()
            waits: list[float] = []
            while (ply := len(waits)) < 20:
                ready = [c for c in clients if c.state and c.state["ply"] == ply]
                actor = next((c for c in ready if c.state and c.state["moves"]), None)
                if actor is None or actor.state is None:
                    await asyncio.sleep(0.01)  # the actor has not heard of the last move yet
                    continue
                started = time.perf_counter()
                await actor.send_move(await first_move(actor.state), ply)
                await actor.next("state", past(ply))
                waits.append(time.perf_counter() - started)
            for client in clients:
                await client.stop()
            deadline = time.monotonic() + 30
            while server.request("GET", f"/api/games/{thinking['id']}")[1]["ply"] < 1:
                assert time.monotonic() < deadline, "the bots never moved"
                await asyncio.sleep(0.2)
            return waits

        waits = run(play())
    # a bot thinking on the event loop would hold a move up for 1.5 s; the margin is for a
    # machine whose two cores are also busy with the bot's worker and the clients
    assert len(waits) == 20 and max(waits) < 1.0, waits


def test_a_finished_game_leaves_the_servers_memory(tmp_path: Path) -> None:
    """Bots play a game to its end, nobody watching: the server keeps nothing of it after."""

    async def play() -> None:
        registry = Registry(open_store(str(tmp_path / "games.sqlite3"), "normal"), None, 10)
        await registry.start()
        try:
            created = await registry.create(ARIZONA, 4, ("random",) * 4)
            deadline = time.monotonic() + 30
            while created.id in registry.games:
                assert time.monotonic() < deadline, "the game did not end, or was kept"
                await asyncio.sleep(0.05)
            summary = await registry.summary(created.id)
            assert summary is not None and summary["winner"] is not None
            assert created.id not in registry.leased
        finally:
            await registry.close()

    run(play())
