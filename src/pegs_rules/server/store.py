"""Where games live between moves: the :class:`Store` interface and :class:`SqliteStore`.

A game is stored as its :class:`StoredGame` (how it was dealt, who sits
where, the hashes of its tokens) plus its moves, one row per ply. The record
(start plus moves) is the source of truth: a server rebuilds every game by
replaying it (:mod:`pegs_rules.server.games`). :meth:`Store.add_moves` returns
only once the moves are durable, so a move is broadcast only after it is safe;
moves of many games arriving together share one commit.

Tokens are never stored, only their SHA-256 hashes; the seed is stored (the
game cannot be rebuilt without it) and never leaves the server while the game
is on.

Anything read back is checked: a row that does not load raises
:class:`StoreError` naming the game, and the other games are unaffected.

>>> from pegs_rules import ARIZONA
>>> from pegs_rules.records import GameRecord
>>> store = SqliteStore(":memory:")
>>> game = StoredGame("g1", GameRecord(rules=ARIZONA, players=4, seed=5),
...                   ("human", "greedy", "human", "greedy"), ("a" * 64, None, "b" * 64, None), "c" * 64)
>>> store.create(game)
>>> store.add_moves([StoredMove("g1", 0, "discard 7")])
>>> store.load("g1").record.moves
('discard 7',)
>>> [g.id for g in store.active()]
['g1']
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from pegs_rules.errors import PegsError
from pegs_rules.records import GameRecord
from pegs_rules.serialize import from_data, to_data


class StoreError(PegsError):
    """The store failed, or holds a game that does not load (the message names it)."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """What the store keeps of one game.

    Attributes:
        id: the game's id (URL-safe, unguessable).
        record: how it was dealt (rules, players, seed) and the moves made so far.
        seats: per seat, ``"human"`` or a bot name for :func:`~pegs_rules.bots.make_bot`.
        token_hashes: per seat, the SHA-256 hex digest of its join token (``None`` for a bot).
        spectator_hash: the SHA-256 hex digest of the spectator token.
        finished: the game is over (its record may be downloaded).
    """

    id: str
    record: GameRecord
    seats: tuple[str, ...]
    token_hashes: tuple[str | None, ...]
    spectator_hash: str
    finished: bool = False


@dataclass(frozen=True, slots=True)
class StoredMove:
    """One move to store: move number ``ply`` (from 0) of ``game``; ``finished`` if it won."""

    game: str
    ply: int
    move: str
    finished: bool = False


class Store(Protocol):
    """The server's storage; a shared database can replace :class:`SqliteStore`."""

    def create(self, game: StoredGame) -> None:
        """Store a new game (no moves yet)."""
        ...

    def add_moves(self, moves: Sequence[StoredMove]) -> None:
        """Durably append ``moves`` (of any games), all or none.

        Raises :class:`StoreError` if a ply is already stored (two servers
        playing one game) or the store fails.
        """
        ...

    def load(self, game_id: str) -> StoredGame | None:
        """The game with its moves, or ``None`` if there is none."""
        ...

    def active(self) -> list[StoredGame]:
        """Every game not yet finished, oldest first (each raising :class:`StoreError` if damaged)."""
        ...

    def active_ids(self) -> list[str]:
        """The ids of the games not yet finished, oldest first."""
        ...

    def close(self) -> None:
        """Release the store."""
        ...


SYNC_MODES = ("full", "normal")
"""How hard a commit waits for the disk (see :class:`SqliteStore`)."""

_SCHEMA = """
create table if not exists games (
    id text primary key,
    created integer not null,
    start text not null,
    seats text not null,
    tokens text not null,
    spectator text not null,
    finished integer not null default 0
);
create table if not exists moves (
    game text not null references games(id),
    ply integer not null,
    move text not null,
    primary key (game, ply)
);
"""


class SqliteStore:
    """A :class:`Store` in one SQLite file (``":memory:"`` for a throwaway one).

    The file is in WAL mode. With ``sync="full"`` (the default) moves are on
    disk when :meth:`add_moves` returns: nothing committed is lost, even if the
    machine loses power. With ``sync="normal"`` a commit waits for no disk
    flush: committed moves survive the server process being killed, but the
    last ones may be lost if the machine itself goes down. One connection is
    shared under a lock, so any thread may call it.
    """

    def __init__(self, path: str, sync: str = "full") -> None:
        if sync not in SYNC_MODES:
            raise StoreError(f"sync is one of {', '.join(SYNC_MODES)}, not {sync!r}")
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._db.execute("pragma journal_mode=wal")
            self._db.execute(f"pragma synchronous={sync}")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the database {path!r}: {error}") from None

    def create(self, game: StoredGame) -> None:
        start = replace(game.record, moves=())
        row = (
            game.id,
            json.dumps(to_data(start)),
            json.dumps(list(game.seats)),
            json.dumps(list(game.token_hashes)),
            game.spectator_hash,
        )
        sql = (
            "insert into games (id, created, start, seats, tokens, spectator) "
            "values (?, (select coalesce(max(created), 0) + 1 from games), ?, ?, ?, ?)"
        )
        self._write(sql, row, f"cannot store game {game.id}")

    def add_moves(self, moves: Sequence[StoredMove]) -> None:
        with self._lock:
            try:
                self._db.execute("begin immediate")
                self._db.executemany(
                    "insert into moves (game, ply, move) values (?, ?, ?)",
                    [(m.game, m.ply, m.move) for m in moves],
                )
                self._db.executemany(
                    "update games set finished = 1 where id = ?",
                    [(m.game,) for m in moves if m.finished],
                )
                self._db.execute("commit")
            except sqlite3.Error as error:
                if self._db.in_transaction:
                    self._db.execute("rollback")
                named = ", ".join(f"move {m.ply} of game {m.game}" for m in moves[:3])
                raise StoreError(f"cannot store {named}: {error}") from None

    def load(self, game_id: str) -> StoredGame | None:
        rows = self._read("select * from games where id = ?", (game_id,))
        return self._game(rows[0]) if rows else None

    def active(self) -> list[StoredGame]:
        rows = self._read("select * from games where finished = 0 order by created", ())
        return [self._game(row) for row in rows]

    def active_ids(self) -> list[str]:
        rows = self._read("select id from games where finished = 0 order by created", ())
        return [str(row[0]) for row in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _write(self, sql: str, row: tuple[object, ...], what: str) -> None:
        with self._lock:
            try:
                self._db.execute(sql, row)
            except sqlite3.Error as error:
                raise StoreError(f"{what}: {error}") from None

    def _read(self, sql: str, args: tuple[object, ...]) -> list[tuple[object, ...]]:
        with self._lock:
            try:
                return list(self._db.execute(sql, args))
            except sqlite3.Error as error:
                raise StoreError(f"cannot read the database: {error}") from None

    def _game(self, row: tuple[object, ...]) -> StoredGame:
        game_id, _, start, seats, tokens, spectator, finished = row
        moves = self._read("select ply, move from moves where game = ? order by ply", (game_id,))
        try:
            if [ply for ply, _ in moves] != list(range(len(moves))):
                raise ValueError("the stored moves skip a ply")
            record = from_data(json.loads(str(start)), "record")
            record = replace(record, moves=tuple(str(move) for _, move in moves))
            seat_list = json.loads(str(seats))
            hashes = json.loads(str(tokens))
            if not (
                isinstance(seat_list, list)
                and all(isinstance(s, str) for s in seat_list)
                and isinstance(hashes, list)
                and all(h is None or isinstance(h, str) for h in hashes)
                and len(seat_list) == len(hashes) == record.players
                and isinstance(spectator, str)
            ):
                raise ValueError("the seats or tokens do not match the players")
            return StoredGame(
                str(game_id), record, tuple(seat_list), tuple(hashes), spectator, bool(finished)
            )
        except (ValueError, PegsError) as error:  # JSONDecodeError and FormatError are ValueErrors
            raise StoreError(f"game {game_id} is damaged in the store: {error}") from None
