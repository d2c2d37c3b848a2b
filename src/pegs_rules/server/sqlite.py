"""The default :class:`~pegs_rules.server.store.Store`: one SQLite file, for one server process.

>>> from pegs_rules import ARIZONA
>>> from pegs_rules.records import GameRecord
>>> from pegs_rules.server.store import StoredGame, StoredMove
>>> store = SqliteStore(":memory:")
>>> game = StoredGame("g1", GameRecord(rules=ARIZONA, players=4, seed=5),
...                   ("human", "greedy", "human", "greedy"), ("a" * 64, None, "b" * 64, None),
...                   "c" * 64, turn=1)
>>> store.create(game, "server-1", seconds=5.0)
>>> store.add_moves([StoredMove("g1", 0, "discard 7", turn=2)])
>>> store.moves("g1"), store.load("g1").turn
(('discard 7',), 2)
>>> store.lease("server-1", 5.0, claim=10)
{'g1'}

Only one server process may use a file: its notices (:meth:`SqliteStore.listen`)
reach that process alone, so a server's store (``serving=True``) holds a lock
on the file itself (released by the system when the process ends, however it
ends; :func:`hold`) and a second server on the same file, by any name (a
symbolic or hard link), is refused at start.
Several processes need :class:`~pegs_rules.server.postgres.PostgresStore`. Who
is connected where (the servers' beats, the seats taken) is kept in memory, not
in the file: it would not outlive the process anyway, and a join costs no disk
flush (but the first one of a game, which marks it joined).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace

from pegs_rules.errors import PegsError
from pegs_rules.records import replay
from pegs_rules.server.store import (
    LAYOUT,
    Action,
    Block,
    GameInfo,
    GameRemoved,
    ListedGame,
    Listener,
    Notice,
    PlyTaken,
    SeatTaken,
    Snapshot,
    StoredGame,
    StoredMove,
    StoreError,
    checked_moves,
    game_columns,
    game_from_row,
    game_info,
    listed_game,
    network_of,
    newer_layout,
    taken_mask,
)

SYNC_MODES = ("full", "normal")
"""How hard a commit waits for the disk (see :class:`SqliteStore`)."""
VERSION = LAYOUT
"""The layout of the file (``pragma user_version``); older files (0.2's are 0) are upgraded on
opening (layout 4 changed nothing in a file), newer ones refused."""
EXPIRE_AT_ONCE = 500
"""The most games one call of :meth:`SqliteStore.expire` removes."""

_SCHEMA = (
    """create table if not exists games (
    id text primary key,
    created integer not null,
    start text not null,
    seats text not null,
    tokens text not null,
    spectator text not null,
    bots integer not null,
    turn integer not null,
    ply integer not null default 0,
    winner integer,
    snapshot_ply integer,
    snapshot_state text,
    snapshot_last text,
    creator text,
    joined integer not null default 0,
    active real not null default 0,
    listed integer not null default 0,
    taken integer not null default 0
)""",
    "create index if not exists active_games on games (created) where winner is null",
    "create index if not exists games_by_creator on games (creator) where winner is null",
    "create index if not exists games_by_activity on games (active)",
    "create index if not exists listed_games on games (created) where listed and winner is null",
    """create table if not exists moves (
    game text not null references games(id),
    ply integer not null,
    move text not null,
    primary key (game, ply)
)""",
    "create table live.servers (id text primary key, expires real not null)",
    "create table live.started (game text primary key, at real not null)",
    """create table if not exists leases (
    game text primary key,
    server text not null,
    expires real not null
)""",
    """create table if not exists blocks (
    network text primary key,
    note text not null,
    at real not null
)""",
    """create table if not exists operator (
    seq integer primary key autoincrement,
    at real not null,
    action text not null,
    target text not null,
    note text not null
)""",
    """create table live.seated (
    game text not null,
    seat integer not null,
    server text not null,
    joined integer not null,
    primary key (game, seat)
)""",
)
_GAME = "id, start, seats, tokens, spectator, turn, ply, winner"
_OF_A_GAME = ("moves", "leases", "live.seated", "live.started")
"""The tables whose rows go with their game."""
_ADDED = (  # the columns version 2 added, for a file of version 1
    "alter table games add column creator text",
    "alter table games add column joined integer not null default 1",
    "alter table games add column active real not null default 0",
)
_ADDED_3 = (  # the columns version 3 added (open games), for a file of version 1 or 2
    "alter table games add column listed integer not null default 0",
    "alter table games add column taken integer not null default 0",
)
_RAN_ITS_TIME = "(winner is null and id in (select game from live.started where at < :bots))"
"""A game of bots alone past its time."""
_EXPIRED = (
    f"select id, {_RAN_ITS_TIME} from games where (winner is null and not joined and active <"
    " :unjoined) or (winner is null and active < :idle) or (winner is not null and active <"
    f" :finished) or {_RAN_ITS_TIME} limit :limit"
)
_BOTS_ALONE = "tokens not like '%\"%'"
"""A game of bots alone: no seat's token hash (a string) in ``tokens``, every seat's ``null``."""


class SqliteStore:
    """A store in one SQLite file (``":memory:"`` for a throwaway one).

    The file is in WAL mode. With ``sync="full"`` (the default) moves are on
    disk when :meth:`add_moves` returns: nothing committed is lost, even if the
    machine loses power. With ``sync="normal"`` a commit waits for no disk
    flush: committed moves survive the server process being killed, but the
    last ones may be lost if the machine itself goes down. One connection is
    shared under a lock, so any thread may call it.

    With ``serving=True`` the file is locked for this process (see the module
    docstring): :class:`StoreError` if another server holds it.
    """

    def __init__(self, path: str, sync: str = "full", *, serving: bool = False) -> None:
        if sync not in SYNC_MODES:
            raise StoreError(f"sync is one of {', '.join(SYNC_MODES)}, not {sync!r}")
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []
        self._held: list[int] = []
        if serving and path != ":memory:":
            self._held = hold(path)
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._db.execute("pragma journal_mode=wal")
            self._db.execute("attach database ':memory:' as live")  # who is connected: not kept
            self._db.execute(f"pragma synchronous={sync}")
            version = self._db.execute("pragma user_version").fetchone()[0]
            old = self._db.execute("select 1 from sqlite_master where name = 'games'").fetchone()
            if version > VERSION:
                raise newer_layout(version)
            if old and version == 0:
                self._upgrade()
            elif old and version < 3:
                self._add_columns(version)
            for statement in _SCHEMA:
                self._db.execute(statement)
            self._db.execute(  # the games of bots alone found: running from now on
                "insert into live.started select id, ? from games"
                f" where winner is null and {_BOTS_ALONE}",
                (time.time(),),
            )
            self._db.execute(f"pragma user_version={VERSION}")
        except (sqlite3.Error, StoreError) as error:
            with contextlib.suppress(AttributeError):
                self._db.close()
            for descriptor in self._held:
                os.close(descriptor)
            if isinstance(error, StoreError):
                raise
            raise StoreError(f"cannot open the database {path!r}: {error}") from None

    def create(
        self,
        game: StoredGame,
        server: str,
        seconds: float,
        creator: str | None = None,
        listed: tuple[int, ...] | None = None,
    ) -> None:
        sql = (
            "insert into games (id, start, seats, tokens, spectator, bots, turn, creator, joined,"
            " active, listed, taken, created) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            " (select coalesce(max(created), 0) + 1 from games))"
        )
        shown = (listed is not None, taken_mask(listed or ()))
        with self._transaction(f"cannot store game {game.id}"):
            self._db.execute(sql, (*game_columns(game, creator), time.time(), *shown))
            if not any(game.token_hashes):
                self._db.execute(
                    "insert into live.started (game, at) values (?, ?)", (game.id, time.time())
                )
            if game.bots:
                lease = (game.id, server, time.time() + seconds)
                self._db.execute(
                    "insert into leases (game, server, expires) values (?, ?, ?)", lease
                )

    def add_moves(self, moves: Sequence[StoredMove]) -> None:
        named = ", ".join(f"move {m.ply} of game {m.game}" for m in moves[:3])
        with self._transaction(f"cannot store {named}"):
            self._db.executemany(
                "insert into moves (game, ply, move) values (?, ?, ?)",
                [(m.game, m.ply, m.move) for m in moves],
            )
            self._db.executemany(
                "update games set ply = ?, turn = ?, winner = ?, active = ?,"
                " creator = case when ? is null then creator end where id = ?",
                [(m.ply + 1, m.turn, m.winner, time.time(), m.winner, m.game) for m in moves],
            )
            for move in moves:
                if move.snapshot is not None:
                    self._keep(move.game, move.snapshot)
                if move.winner is not None:
                    self._db.execute("delete from leases where game = ?", (move.game,))
        self._tell(moves)

    def load(self, game_id: str) -> StoredGame | None:
        rows = self._read(f"select {_GAME} from games where id = ?", (game_id,))
        return game_from_row(rows[0]) if rows else None

    def moves(self, game_id: str, since: int = 0) -> tuple[str, ...]:
        sql = "select ply, move from moves where game = ? and ply >= ? order by ply"
        return checked_moves(game_id, since, self._read(sql, (game_id, since)))

    def snapshot(self, game_id: str) -> Snapshot | None:
        sql = "select snapshot_ply, snapshot_state, snapshot_last from games where id = ?"
        rows = self._read(sql, (game_id,))
        if not rows or rows[0][0] is None:
            return None
        ply, state, last = rows[0]
        return Snapshot(int(str(ply)), str(state), None if last is None else str(last))

    def save_snapshot(self, game_id: str, snapshot: Snapshot) -> None:
        with self._transaction(f"cannot keep a snapshot of game {game_id}"):
            self._keep(game_id, snapshot)

    def count_active(self, creator: str | None = None) -> int:
        if creator is None:
            rows = self._read("select count(*) from games where winner is null", ())
        else:
            sql = "select count(*) from games where winner is null and creator = ?"
            rows = self._read(sql, (creator,))
        return int(str(rows[0][0]))

    def expire(self, unjoined: float, idle: float, finished: float, bots: float) -> tuple[str, ...]:
        now = time.time()
        limits = {"unjoined": now - unjoined, "idle": now - idle, "finished": now - finished}
        limits |= {"bots": now - bots, "limit": EXPIRE_AT_ONCE}
        with self._transaction("cannot remove the games nobody plays"):
            rows = self._db.execute(_EXPIRED, limits).fetchall()
            gone = [(str(row[0]),) for row in rows]
            for table in _OF_A_GAME:
                self._db.executemany(f"delete from {table} where game = ?", gone)
            self._db.executemany("delete from games where id = ?", gone)
        self._tell([GameRemoved(str(game), ran_its_time=bool(late)) for game, late in rows])
        return tuple(game for (game,) in gone)

    def lease(self, server: str, seconds: float, claim: int) -> set[str]:
        now = time.time()
        free = (
            "select g.id from games g where g.winner is null and g.bots and not exists ("
            " select 1 from leases l where l.game = g.id and l.expires > ?)"
            " order by g.created limit ?"
        )
        with self._transaction("cannot renew the leases"):
            self._db.execute(
                "insert or replace into live.servers (id, expires) values (?, ?)",
                (server, now + seconds),
            )
            self._db.execute(
                "update leases set expires = ? where server = ?", (now + seconds, server)
            )
            games = [row[0] for row in self._db.execute(free, (now, claim))]
            self._db.executemany(
                "insert or replace into leases (game, server, expires) values (?, ?, ?)",
                [(game, server, now + seconds) for game in games],
            )
            rows = self._db.execute("select game from leases where server = ?", (server,))
            return {str(row[0]) for row in rows}

    def release(self, server: str) -> None:
        with self._transaction("cannot release the leases"):
            for table in ("leases", "live.seated"):
                self._db.execute(f"delete from {table} where server = ?", (server,))
            self._db.execute("delete from live.servers where id = ?", (server,))

    def sweep(self, seconds: float) -> None:
        with self._transaction("cannot sweep the servers"):
            self._db.execute("delete from live.servers where expires < ?", (time.time() - seconds,))
            self._db.execute(
                "delete from live.seated where server not in (select id from live.servers)", ()
            )

    def take_seat(self, game_id: str, seat: int, server: str) -> int:
        with self._transaction(f"cannot seat a player of game {game_id}"):
            last = self._db.execute("select coalesce(max(joined), 0) from live.seated").fetchone()[
                0
            ]
            joined = int(last) + 1
            self._db.execute(
                "insert or replace into live.seated (game, seat, server, joined) values (?, ?, ?, ?)",
                (game_id, seat, server, joined),
            )
            self._db.execute(
                "update games set joined = 1, taken = taken | ? where id = ?", (1 << seat, game_id)
            )
        self._tell([SeatTaken(game_id, seat, joined)])
        return joined

    def listed(self, limit: int = 20) -> list[ListedGame]:
        sql = (
            f"select {_GAME}, taken from games where listed and winner is null"
            " order by created desc limit ?"
        )
        found = (listed_game(row) for row in self._read(sql, (limit * 4,)))
        return [game for game in found if game is not None][:limit]

    def claim_seat(self, game_id: str, seat: int, token_hash: str) -> bool:
        with self._transaction(f"cannot claim a seat of game {game_id}"):
            rows = self._db.execute(
                "select tokens from games where id = ? and listed and winner is null"
                " and not taken & ?",
                (game_id, 1 << seat),
            ).fetchall()
            if not rows:
                return False
            tokens = json.loads(str(rows[0][0]))
            if not (0 <= seat < len(tokens)) or tokens[seat] is None:
                return False
            tokens[seat] = token_hash
            self._db.execute(
                "update games set tokens = ?, taken = taken | ? where id = ?",
                (json.dumps(tokens), 1 << seat, game_id),
            )
        return True

    def leave_seat(self, game_id: str, seat: int, joined: int) -> None:
        sql = "delete from live.seated where game = ? and seat = ? and joined = ?"
        with self._transaction(f"cannot unseat a player of game {game_id}"):
            self._db.execute(sql, (game_id, seat, joined))

    def connected(self, game_id: str) -> list[int]:
        sql = (
            "select d.seat from live.seated d join live.servers s on s.id = d.server "
            "where d.game = ? and s.expires > ? order by d.seat"
        )
        return [int(str(row[0])) for row in self._read(sql, (game_id, time.time()))]

    def games(self, limit: int = 100, finished: bool = True) -> list[GameInfo]:
        where = "" if finished else "where winner is null"
        sql = (
            f"select id, seats, ply, winner, joined, active, creator from games {where}"
            " order by active desc limit ?"
        )
        return [game_info(row[:2], row[2:], None) for row in self._read(sql, (limit,))]

    def remove(self, game_id: str, note: str = "") -> bool:
        with self._transaction(f"cannot remove game {game_id}"):
            for table in _OF_A_GAME:
                self._db.execute(f"delete from {table} where game = ?", (game_id,))
            found = self._db.execute("delete from games where id = ?", (game_id,)).rowcount > 0
            if found:
                self._act("remove", game_id, note)
        if found:
            self._tell([GameRemoved(game_id, by_operator=True)])
        return found

    def block(self, network: str, note: str = "") -> str:
        network = network_of(network)
        with self._transaction(f"cannot block {network}"):
            self._db.execute(
                "insert or replace into blocks (network, note, at) values (?, ?, ?)",
                (network, note, time.time()),
            )
            self._act("block", network, note)
        return network

    def unblock(self, network: str, note: str = "") -> bool:
        network = network_of(network)
        with self._transaction(f"cannot unblock {network}"):
            sql = "delete from blocks where network = ?"
            found = self._db.execute(sql, (network,)).rowcount > 0
            if found:
                self._act("unblock", network, note)
        return found

    def blocks(self) -> list[Block]:
        rows = self._read("select network, note, at from blocks order by at", ())
        return [Block(str(n), str(w), float(str(a))) for n, w, a in rows]

    def actions(self, since: int = 0, limit: int = 1000) -> list[Action]:
        sql = (
            "select seq, at, action, target, note from operator where seq > ? order by seq limit ?"
        )
        return [
            Action(int(str(q)), float(str(a)), str(k), str(t), str(n))
            for q, a, k, t, n in self._read(sql, (since, limit))
        ]

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def close(self) -> None:
        with self._lock:
            self._listeners.clear()
            self._db.close()
            for descriptor in self._held:  # after the database: the locks go with them
                os.close(descriptor)
            self._held = []

    # -- helpers ------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _transaction(self, what: str) -> Iterator[None]:
        """One write transaction under the lock; errors become :class:`StoreError` saying ``what``."""
        with self._lock:
            try:
                self._db.execute("begin immediate")
                try:
                    yield
                except BaseException:
                    if self._db.in_transaction:
                        self._db.execute("rollback")
                    raise
                self._db.execute("commit")
            except sqlite3.IntegrityError as error:
                if "moves.game, moves.ply" in str(error):
                    raise PlyTaken(f"{what}: the ply is stored already") from None
                raise StoreError(f"{what}: {error}") from None
            except sqlite3.Error as error:
                raise StoreError(f"{what}: {error}") from None

    def _act(self, action: str, target: str, note: str) -> None:
        """Log an operator's action (inside a transaction)."""
        self._db.execute(
            "insert into operator (at, action, target, note) values (?, ?, ?, ?)",
            (time.time(), action, target, note),
        )

    def _keep(self, game_id: str, snapshot: Snapshot) -> None:
        self._db.execute(
            "update games set snapshot_ply = ?, snapshot_state = ?, snapshot_last = ? "
            "where id = ? and coalesce(snapshot_ply, -1) < ?",
            (snapshot.ply, snapshot.state, snapshot.last, game_id, snapshot.ply),
        )

    def _tell(self, notices: Sequence[Notice]) -> None:
        for listener in list(self._listeners):
            for notice in notices:
                listener(notice)

    def _read(self, sql: str, args: tuple[object, ...]) -> list[tuple[object, ...]]:
        with self._lock:
            try:
                return list(self._db.execute(sql, args))
            except sqlite3.Error as error:
                raise StoreError(f"cannot read the database: {error}") from None

    def _add_columns(self, version: int) -> None:
        """Bring a file of version 1 or 2 up to date: the games of version 1 count as joined,
        active from now; none is open to anyone."""
        self._db.execute("begin immediate")
        for statement in (_ADDED if version < 2 else ()) + _ADDED_3:
            self._db.execute(statement)
        if version < 2:
            self._db.execute("update games set active = ?", (time.time(),))
        self._db.execute("commit")

    def _upgrade(self) -> None:
        """Bring a 0.2 file up to date: each game gains its turn, ply and winner, replayed once."""
        db = self._db
        db.execute("begin immediate")
        db.execute("alter table games rename to old_games")
        db.execute(_SCHEMA[0])
        old = db.execute("select id, created, start, seats, tokens, spectator from old_games")
        now = time.time()
        for game_id, created, start, seats, tokens, spectator in old.fetchall():
            turn, ply, winner = 0, 0, None
            try:
                game = game_from_row((game_id, start, seats, tokens, spectator, 0, 0, None))
                rows = db.execute(
                    "select ply, move from moves where game = ? order by ply", (game_id,)
                )
                moves = checked_moves(game_id, 0, rows.fetchall())
                position = replay(replace(game.record, moves=moves))
                turn, ply, winner = position.turn, position.ply, position.winner
                bots = game.bots
            except PegsError:  # a damaged game stays damaged: it is refused when asked for
                bots = False
            db.execute(
                "insert into games (id, created, start, seats, tokens, spectator, bots, turn, ply,"
                " winner, joined, active) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)",
                (game_id, created, start, seats, tokens, spectator, bots, turn, ply, winner, now),
            )
        db.execute("drop table old_games")
        db.execute("commit")


def hold(path: str) -> list[int]:
    """Lock the database file for this process: descriptors to keep open (until the database
    is closed: closing one would drop SQLite's own locks); :class:`StoreError` if taken.

    The lock is on the file itself (``flock``), so it follows the file, not its
    name: a symbolic or hard link to a file a server holds is refused too. The
    file ``PATH.lock`` is locked as well and holds the process id (servers before
    0.4 locked only that). Where the system has no ``flock`` (Windows) nothing is
    locked (no descriptors).
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not a POSIX system
        return []
    held: list[int] = []
    try:
        for name in (path, f"{path}.lock"):
            try:
                descriptor = os.open(name, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as error:
                raise StoreError(f"cannot open the database {path!r}: {error}") from None
            held.append(descriptor)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                named = " (the same file, under another name)" if renamed(held, path) else ""
                raise StoreError(
                    f"another server (process {holder(held, path)}) is using {path}{named}:"
                    " an SQLite file serves one server process; to run several, give them one"
                    " PostgreSQL database (--db postgresql://USER@HOST:PORT/DB)"
                ) from None
    except StoreError:
        for descriptor in held:
            os.close(descriptor)
        raise
    os.ftruncate(held[1], 0)
    os.write(held[1], f"{os.getpid()}\n".encode())
    return held


def renamed(held: list[int], path: str) -> bool:
    """Whether the server holding the file of ``held`` holds it under another name than ``path``
    (it does not hold ``PATH.lock``)."""
    if len(held) != 1:
        return False
    import fcntl

    try:
        lock = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return False
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(lock)


def holder(held: list[int], path: str) -> str:
    """Which process holds the lock on the file of ``held[-1]``: from ``/proc/locks`` (Linux,
    by the file's device and inode), else from the lock file, else ``unknown``."""
    info = os.fstat(held[-1])
    inode = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    with contextlib.suppress(OSError), open("/proc/locks", encoding="ascii") as locks:
        for line in locks:
            fields = line.split()  # 1: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE 0 EOF
            if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == inode:
                return fields[4]
    with contextlib.suppress(OSError), open(f"{os.path.realpath(path)}.lock", "rb") as lock:
        return lock.read(20).decode("ascii", "replace").strip() or "unknown"
    return "unknown"
