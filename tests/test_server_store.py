"""One store test suite, run against both stores: SQLite (a file) and PostgreSQL (a real server).

The PostgreSQL cases start a throwaway server (``pgcluster``) and skip, saying why, where
PostgreSQL is not installed; CI sets ``PEGS_REQUIRE_POSTGRES=1``, which makes that a failure.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from pgcluster import Cluster

from pegs_rules import ARIZONA, apply_with_events, legal_moves
from pegs_rules.records import GameRecord
from pegs_rules.serialize import to_data
from pegs_rules.server.database import open_store
from pegs_rules.server.games import token_hash
from pegs_rules.server.sqlite import SqliteStore
from pegs_rules.server.store import (
    GameRemoved,
    Notice,
    PlyTaken,
    SeatTaken,
    Snapshot,
    Store,
    StoredGame,
    StoredMove,
    StoreError,
)


def stored(game_id: str, seed: int = 5, seats: tuple[str, ...] = ("human",) * 4) -> StoredGame:
    """A new game of four whose token for seat ``s`` is ``"ID-s"`` (``"ID-watch"`` to watch)."""
    record = GameRecord(rules=ARIZONA, players=4, seed=seed)
    return StoredGame(
        game_id,
        record,
        seats,
        tuple(token_hash(f"{game_id}-{s}") if k == "human" else None for s, k in enumerate(seats)),
        token_hash(f"{game_id}-watch"),
        turn=record.start().turn,
    )


def played(game: StoredGame, count: int) -> list[StoredMove]:
    """The first ``count`` moves of ``game`` (each seat playing its first legal move), to store."""
    state = game.record.start()
    moves = []
    for _ in range(count):
        move = legal_moves(state)[0]
        state, _ = apply_with_events(state, move)
        moves.append(StoredMove(game.id, state.ply - 1, str(move), state.turn, state.winner))
    return moves


@dataclass
class Backend:
    """How to open stores on one fresh database, and to damage its rows behind their back."""

    url: str
    execute: Callable[[str, tuple[object, ...]], None]
    opened: list[Store]

    def open(self) -> Store:
        store = open_store(self.url)
        self.opened.append(store)
        return store


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "sqlite":
        path = tmp_path / "games.sqlite3"

        def execute(sql: str, args: tuple[object, ...]) -> None:
            with sqlite3.connect(path) as db:
                db.execute(sql.replace("%s", "?"), args)

        url = str(path)
    else:
        import psycopg

        cluster: Cluster = request.getfixturevalue("postgres")
        url = cluster.new_database()

        def execute(sql: str, args: tuple[object, ...]) -> None:
            with psycopg.connect(url, autocommit=True) as db:
                db.execute(sql.encode(), args)

    chosen = Backend(url, execute, [])
    yield chosen
    for store in chosen.opened:
        store.close()


@pytest.fixture
def store(backend: Backend) -> Store:
    return backend.open()


def test_a_game_and_its_moves_come_back_as_stored(store: Store) -> None:
    game = stored("a")
    store.create(game, "s1", 5.0)
    assert store.load("a") == game
    moves = played(game, 5)
    for move in moves:
        store.add_moves([move])
    assert store.moves("a") == tuple(m.move for m in moves)
    assert store.moves("a", since=3) == tuple(m.move for m in moves[3:])
    loaded = store.load("a")
    assert loaded is not None
    assert (loaded.ply, loaded.turn, loaded.winner) == (5, moves[-1].turn, None)
    assert store.load("nope") is None and store.moves("nope") == ()
    assert store.count_active() == 1


def test_a_ply_is_stored_once_and_a_batch_is_all_or_none(store: Store) -> None:
    a, b = stored("a"), stored("b", seed=6)
    store.create(a, "s1", 5.0)
    store.create(b, "s1", 5.0)
    first, second = played(a, 2)
    store.add_moves([first])
    with pytest.raises(PlyTaken, match="move 0 of game a"):
        store.add_moves([StoredMove("a", 0, "pass", 0)])
    with pytest.raises(PlyTaken):  # b's move is not stored either
        store.add_moves([played(b, 1)[0], StoredMove("a", 0, "pass", 0)])
    assert store.moves("a") == (first.move,) and store.moves("b") == ()
    loaded = store.load("a")
    assert loaded is not None and (loaded.ply, loaded.turn) == (1, first.turn)
    store.add_moves([second, played(b, 1)[0]])  # two games, one commit
    assert store.moves("a") == (first.move, second.move) and len(store.moves("b")) == 1


def test_a_finished_game_leaves_the_active_count_and_its_lease(store: Store) -> None:
    bots = stored("bots", seats=("greedy",) * 4)
    store.create(bots, "s1", 5.0)
    store.create(stored("people"), "s1", 5.0)
    assert store.lease("s1", 5.0, claim=10) == {"bots"}  # a game without bots has no lease
    assert store.count_active() == 2
    store.add_moves([StoredMove("bots", 0, "discard 7", 1, winner=1)])
    assert store.count_active() == 1
    loaded = store.load("bots")
    assert loaded is not None and loaded.finished and loaded.winner == 1
    assert store.lease("s1", 5.0, claim=10) == set()


def test_games_nobody_plays_are_removed_and_announced(store: Store) -> None:
    """Each rule of :meth:`Store.expire` on its own: never joined, idle, finished long ago."""
    heard: list[Notice | None] = []
    store.listen(heard.append)
    store.create(stored("unjoined"), "s1", 5.0, creator="198.51.100.7")
    store.create(stored("joined"), "s1", 5.0, creator="198.51.100.7")
    store.take_seat("joined", 2, "s1")
    store.create(stored("bots", seats=("greedy",) * 4), "s1", 5.0)  # nobody to join
    store.create(stored("over"), "s1", 5.0, creator="198.51.100.7")
    store.add_moves([StoredMove("over", 0, "discard 7", 1, winner=0)])
    assert store.count_active("198.51.100.7") == 2 and store.count_active() == 3
    time.sleep(0.05)
    assert store.expire(unjoined=3600, idle=3600, finished=3600, bots=3600) == ()
    assert store.expire(unjoined=0.01, idle=3600, finished=3600, bots=3600) == ("unjoined",)
    assert store.load("unjoined") is None and store.moves("unjoined") == ()
    assert store.count_active("198.51.100.7") == 1
    assert sorted(store.expire(unjoined=0.01, idle=0.01, finished=3600, bots=3600)) == [
        "bots",
        "joined",
    ]
    assert store.lease("s1", 5.0, claim=10) == set()  # the bots' lease went with them
    assert store.expire(unjoined=0.01, idle=0.01, finished=0.01, bots=3600) == ("over",)
    assert store.count_active() == 0
    deadline = time.monotonic() + 10
    while len([n for n in heard if isinstance(n, GameRemoved)]) < 4:
        assert time.monotonic() < deadline, heard
        time.sleep(0.05)
    assert not any(n.ran_its_time for n in heard if isinstance(n, GameRemoved))


def test_a_game_of_bots_alone_is_removed_a_while_after_its_creation(backend: Backend) -> None:
    """However busy its bots, a game with no seat for a person is removed unfinished once
    ``bots`` seconds old; one with a seat for a person, or finished, is not; and a store
    opened again counts from its opening (SQLite) or from the game's creation (PostgreSQL)."""
    store = backend.open()
    heard: list[Notice | None] = []
    store.listen(heard.append)
    robots = stored("robots", seats=("greedy",) * 4)
    store.create(robots, "s1", 5.0, creator="198.51.100.7")
    store.create(stored("mixed", seats=("human", "greedy", "greedy", "greedy")), "s1", 5.0)
    store.take_seat("mixed", 0, "s1")
    store.create(stored("over", seats=("greedy",) * 4), "s1", 5.0)
    store.add_moves([StoredMove("over", 0, "discard 7", 1, winner=0)])
    time.sleep(0.3)
    store.add_moves(played(robots, 3))  # its bots are playing: not idle
    store.add_moves(played(stored("mixed"), 3))
    assert store.expire(unjoined=3600, idle=3600, finished=3600, bots=3600) == ()
    assert store.expire(unjoined=3600, idle=3600, finished=3600, bots=0.2) == ("robots",)
    assert store.load("robots") is None and store.moves("robots") == ()
    assert store.count_active("198.51.100.7") == 0 and store.lease("s1", 5.0, claim=10) == {"mixed"}
    deadline = time.monotonic() + 10  # told why: it ran its time (the others, nobody played)
    while GameRemoved("robots", ran_its_time=True) not in heard:
        assert time.monotonic() < deadline, heard
        time.sleep(0.05)
    store.create(stored("later", seats=("greedy",) * 4), "s1", 5.0)
    time.sleep(0.3)
    reopened = backend.open()
    gone = reopened.expire(unjoined=3600, idle=3600, finished=3600, bots=0.2)
    if backend.url.endswith(".sqlite3"):  # found on opening: counted from then
        assert gone == ()
        time.sleep(0.3)
        gone = reopened.expire(unjoined=3600, idle=3600, finished=3600, bots=0.2)
    assert gone == ("later",)


def test_a_layout_without_the_columns_for_expiry_is_brought_up_to_date(backend: Backend) -> None:
    """The previous layout had no creator, joined or active: its games count as joined and
    active from the upgrade on."""
    store = backend.open()
    store.create(stored("old"), "s1", 5.0)
    store.close()
    backend.opened.remove(store)
    for index in ("games_by_creator", "games_by_activity", "listed_games"):
        backend.execute(f"drop index {index}", ())
    for column in ("creator", "joined", "active", "listed", "taken"):
        backend.execute(f"alter table games drop column {column}", ())
    if backend.url.startswith("postgresql"):
        backend.execute("drop table layouts", ())  # the layouts before 4 did not record theirs
    else:
        backend.execute("pragma user_version = 1", ())
    upgraded = backend.open()
    time.sleep(0.3)
    assert (
        upgraded.expire(unjoined=0.01, idle=3600, finished=3600, bots=3600) == ()
    )  # counts as joined
    assert upgraded.count_active() == 1
    upgraded.create(stored("new"), "s1", 5.0)
    assert upgraded.expire(unjoined=3600, idle=0.2, finished=3600, bots=3600) == ("old",)


def test_a_layout_without_open_games_is_brought_up_to_date(backend: Backend) -> None:
    """The layout before open games (SQLite's version 2) gains them; its games are not open."""
    store = backend.open()
    store.create(stored("old", seats=("human",) * 4), "s1", 5.0)
    store.close()
    backend.opened.remove(store)
    backend.execute("drop index listed_games", ())
    for column in ("listed", "taken"):
        backend.execute(f"alter table games drop column {column}", ())
    if backend.url.startswith("postgresql"):
        backend.execute("drop table layouts", ())  # the layouts before 4 did not record theirs
    else:
        backend.execute("pragma user_version = 2", ())
    upgraded = backend.open()
    assert upgraded.listed() == [] and not upgraded.claim_seat("old", 1, "0" * 64)
    upgraded.create(stored("new", seats=("human",) * 4), "s1", 5.0, listed=(0,))
    assert [(game.id, game.free) for game in upgraded.listed()] == [("new", (1, 2, 3))]
    assert upgraded.claim_seat("new", 1, "0" * 64) and not upgraded.claim_seat("new", 1, "1" * 64)
    upgraded.take_seat("new", 2, "s1")
    assert [(game.id, game.free) for game in upgraded.listed()] == [("new", (3,))]
    claimed = upgraded.load("new")
    assert claimed is not None and claimed.token_hashes[1] == "0" * 64


def test_the_latest_snapshot_is_kept(store: Store) -> None:
    store.create(stored("a"), "s1", 5.0)
    assert store.snapshot("a") is None
    later = Snapshot(40, '{"later": 1}', '{"move": "pass"}')
    store.add_moves([StoredMove("a", 0, "discard 7", 1, snapshot=later)])  # a snapshot rides along
    store.save_snapshot("a", Snapshot(20, '{"earlier": 1}', None))  # older: ignored
    assert store.snapshot("a") == later
    store.save_snapshot("a", Snapshot(60, "{}", None))
    assert store.snapshot("a") == Snapshot(60, "{}", None)


def test_a_lease_is_held_while_its_server_beats_and_then_claimed(backend: Backend) -> None:
    one, two = backend.open(), backend.open()
    for n in range(3):
        one.create(stored(f"g{n}", seed=n, seats=("human", "greedy") * 2), "s1", 5.0)
    assert one.lease("s1", 0.6, claim=10) == {"g0", "g1", "g2"}  # created with its lease
    assert two.lease("s2", 5.0, claim=10) == set()
    time.sleep(0.3)
    assert one.lease("s1", 0.6, claim=10) == {"g0", "g1", "g2"}  # renewed
    assert two.lease("s2", 5.0, claim=10) == set()
    time.sleep(0.8)  # s1 stopped beating
    assert two.lease("s2", 5.0, claim=2) == {"g0", "g1"}  # oldest first, at most `claim`
    assert two.lease("s2", 5.0, claim=2) == {"g0", "g1", "g2"}
    assert one.lease("s1", 5.0, claim=10) == set()  # back, but its leases are gone
    two.release("s2")
    assert one.lease("s1", 5.0, claim=10) == {"g0", "g1", "g2"}  # released: free at once


def test_claims_race_and_each_game_goes_to_one_server(backend: Backend) -> None:
    """Four servers claim at the same moment, three rounds (each round's leases run out)."""
    stores = [backend.open() for _ in range(4)]
    for n in range(12):
        stores[0].create(stored(f"g{n}", seed=n, seats=("greedy",) * 4), "gone", 0.0)

    def claim(n: int, together: threading.Barrier, held: dict[int, set[str]]) -> None:
        together.wait()
        held[n] = stores[n].lease(f"s{n}", 0.3, claim=12)

    for _ in range(3):
        held: dict[int, set[str]] = {}
        together = threading.Barrier(len(stores))
        threads = [
            threading.Thread(target=claim, args=(n, together, held)) for n in range(len(stores))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        everything = [game for games in held.values() for game in games]
        assert sorted(everything) == sorted(f"g{n}" for n in range(12))  # each exactly once
        time.sleep(0.4)


def test_seats_are_connected_while_their_server_lives(backend: Backend) -> None:
    store = backend.open()
    store.create(stored("a"), "s1", 5.0)
    store.lease("s1", 0.5, claim=0)
    store.lease("s2", 30.0, claim=0)
    first = store.take_seat("a", 0, "s1")
    second = store.take_seat("a", 2, "s2")
    assert second > first and store.connected("a") == [0, 2]
    again = store.take_seat("a", 0, "s2")  # seat 0 opened again, on another server
    assert again > second
    store.leave_seat("a", 0, first)  # the replaced connection leaves: the seat stays taken
    assert store.connected("a") == [0, 2]
    store.leave_seat("a", 0, again)
    assert store.connected("a") == [2]
    store.take_seat("a", 1, "s1")
    assert store.connected("a") == [1, 2]
    time.sleep(0.7)  # s1 stopped beating: its seats are not connected
    assert store.connected("a") == [2]
    store.sweep(0.0)
    store.lease("s1", 30.0, claim=0)  # back, but its old seats were swept
    assert store.connected("a") == [2]
    store.release("s2")
    assert store.connected("a") == []


def test_every_server_hears_every_move_and_seat_in_order(backend: Backend) -> None:
    store = backend.open()
    heard: list[Notice | None] = []
    done = threading.Event()

    def listener(notice: Notice | None) -> None:
        heard.append(notice)
        if len(heard) == 5:
            done.set()

    store.listen(listener)
    game = stored("a")
    store.create(game, "s1", 5.0)
    moves = played(game, 4)
    store.add_moves(moves[:1])
    joined = store.take_seat("a", 3, "s1")
    store.add_moves(moves[1:2])
    with pytest.raises(PlyTaken):
        store.add_moves(moves[:1])  # refused: not announced
    store.add_moves(moves[2:3])
    store.add_moves(moves[3:])
    assert done.wait(10), heard
    time.sleep(0.2)
    expected: list[Notice] = [moves[0], SeatTaken("a", 3, joined), *moves[1:]]
    assert heard == expected


def test_servers_on_one_postgresql_database_hear_each_other(postgres: Cluster) -> None:
    url = postgres.new_database()
    writer, reader = open_store(url), open_store(url)
    heard: list[Notice | None] = []
    reader.listen(heard.append)
    game = stored("a")
    writer.create(game, "s1", 5.0)
    moves = played(game, 30)
    for move in moves:
        writer.add_moves([move])
    deadline = time.monotonic() + 10
    while len(heard) < len(moves) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert heard == moves
    writer.close()
    reader.close()


@pytest.mark.parametrize(
    ("table", "column", "value", "problem"),
    [
        ("games", "start", "{not json", "damaged"),
        ("games", "start", '{"format": 1, "type": "record", "players": 5}', "damaged"),
        ("games", "seats", '["human"]', "seats or tokens"),
        ("games", "turn", 9, "turn or ply"),
        ("moves", "ply", 7, "skip a ply"),
    ],
)
def test_a_damaged_row_is_refused_naming_its_game(
    backend: Backend, table: str, column: str, value: object, problem: str
) -> None:
    store = backend.open()
    store.create(stored("bad"), "s1", 5.0)
    store.create(stored("good", seed=6), "s1", 5.0)
    store.add_moves([StoredMove("bad", 0, "discard 7", 1), StoredMove("good", 0, "discard 7", 1)])
    key = "id" if table == "games" else "game"
    backend.execute(f"update {table} set {column} = %s where {key} = 'bad'", (value,))
    with pytest.raises(StoreError, match=f"game bad .*{problem}"):
        store.load("bad") and store.moves("bad")
    good = store.load("good")
    assert good is not None and store.moves("good") == ("discard 7",)


def test_a_file_of_the_previous_version_is_brought_up_to_date(tmp_path: Path) -> None:
    """0.2 stored no turn, ply or winner: they are found by replaying each game once."""
    path = tmp_path / "old.sqlite3"
    game = stored("old")
    moves = played(game, 7)
    with sqlite3.connect(path) as db:
        db.executescript(
            """
            create table games (id text primary key, created integer not null, start text not null,
                seats text not null, tokens text not null, spectator text not null,
                finished integer not null default 0);
            create table moves (game text not null references games(id), ply integer not null,
                move text not null, primary key (game, ply));
            """
        )
        start = json.dumps(to_data(game.record))
        db.execute(
            "insert into games values (?, 1, ?, ?, ?, ?, 0)",
            ("old", start, json.dumps(game.seats), json.dumps(game.token_hashes), "s" * 64),
        )
        db.executemany("insert into moves values ('old', ?, ?)", [(m.ply, m.move) for m in moves])
    store = open_store(str(path))
    loaded = store.load("old")
    assert loaded is not None
    assert (loaded.ply, loaded.turn, loaded.winner) == (7, moves[-1].turn, None)
    assert store.moves("old") == tuple(m.move for m in moves)
    store.close()


def test_opening_a_database_that_is_not_there_says_so(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot open"):
        open_store(str(tmp_path / "no" / "such" / "folder" / "games.sqlite3"))


@pytest.mark.parametrize("link", ["symbolic", "hard"])
def test_an_sqlite_file_serves_one_server_by_any_name(tmp_path: Path, link: str) -> None:
    """The lock is on the file, not its name: a link to a file a server holds is refused too
    (two servers on one file, each with its own -wal by name, would each lose the other's moves)."""
    path = tmp_path / "games.sqlite3"
    other = tmp_path / "elsewhere" / "other-name.sqlite3"
    other.parent.mkdir()
    first = SqliteStore(str(path), serving=True)
    try:
        (other.symlink_to if link == "symbolic" else other.hardlink_to)(path)
        with pytest.raises(StoreError) as refused:
            SqliteStore(str(other), serving=True)
        message = str(refused.value)
        assert f"another server (process {os.getpid()}) is using {other}" in message, message
        assert "the same file, under another name" in message
        with pytest.raises(StoreError, match="another server"):
            SqliteStore(str(path), serving=True)
    finally:
        first.close()
    second = SqliteStore(str(other), serving=True)  # free again
    second.close()


def test_the_operator_lists_removes_and_blocks_and_every_action_is_kept(backend: Backend) -> None:
    """What ``pegs admin`` does, on both stores: a removal is announced to the servers, and
    every change is an action in order, which the servers read (:mod:`~pegs_rules.server.operating`)."""
    server, operator = backend.open(), backend.open()
    heard: list[Notice | None] = []
    server.listen(heard.append)
    server.create(stored("a"), "s1", 5.0, creator="203.0.113.7")
    server.create(stored("b", seats=("human", "greedy", "human", "greedy")), "s1", 5.0)
    server.add_moves(played(stored("a"), 2))
    server.take_seat("a", 0, "s1")
    server.lease("s1", 5.0, claim=10)
    games = {game.id: game for game in operator.games()}
    assert games["a"].ply == 2 and games["a"].creator == "203.0.113.7" and games["a"].joined
    assert games["b"].seats == ("human", "greedy", "human", "greedy") and not games["b"].joined
    if backend.url.startswith("postgresql"):  # who is joined now: the servers' shared rows
        assert games["a"].connected == (0,)
    else:  # held in the server process: not to be known from another
        assert games["a"].connected is None
    assert [game.id for game in operator.games(limit=1)] == ["a"]  # the most recently active

    assert operator.remove("a", "spam") and not operator.remove("a")
    assert server.load("a") is None and server.moves("a") == ()
    assert operator.block("203.0.113.7", "flood") == "203.0.113.7/32"
    operator.block("2001:db8::1/48")
    with pytest.raises(StoreError, match="not an address"):
        operator.block("example.org")
    assert [b.network for b in server.blocks()] == ["203.0.113.7/32", "2001:db8::/48"]
    assert operator.unblock("203.0.113.7") and not operator.unblock("203.0.113.7")
    actions = server.actions()
    assert [(a.action, a.target, a.note) for a in actions] == [
        ("remove", "a", "spam"),
        ("block", "203.0.113.7/32", "flood"),
        ("block", "2001:db8::/48", ""),
        ("unblock", "203.0.113.7/32", ""),
    ]
    assert server.actions(since=actions[1].seq) == actions[2:]
    if backend.url.startswith("postgresql"):
        deadline = time.monotonic() + 5
        while GameRemoved("a", by_operator=True) not in heard and time.monotonic() < deadline:
            time.sleep(0.05)
        assert GameRemoved("a", by_operator=True) in heard
