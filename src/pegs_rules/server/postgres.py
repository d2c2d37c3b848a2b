"""A :class:`~pegs_rules.server.store.Store` in PostgreSQL, shared by any number of server processes.

The extra ``pegs-rules[postgres]`` (psycopg 3 and its connection pool).
``pegs serve --db postgresql://USER@HOST:PORT/DB`` creates the tables it
needs on first use. What the servers share, PostgreSQL does:

* the primary key on ``moves (game, ply)`` refuses a second move for a ply,
  so a move is judged once, by whichever server stored it first
  (:class:`~pegs_rules.server.store.PlyTaken` for the others);
* each commit that stores moves or seats a player sends a ``NOTIFY`` on the
  channel ``pegs``, delivered to every server (``LISTEN``) after the commit
  and in commit order;
* each server holds a row in ``leases`` for each game whose bots it runs,
  with an expiry it renews at every beat; an expired lease is claimed by
  the next server that asks (``INSERT ... ON CONFLICT ... DO UPDATE ...
  WHERE`` the lease has expired: decided on the row's latest version under
  its lock, so two servers never both win it);
* each server beats (a row in ``servers`` with an expiry): the seats joined
  on a server that stopped beating no longer count as connected.

The database may restart or go away for a while: a connection is checked
before each use (so one that a restart closed is replaced, not failed on), a
call waits at most :data:`WAIT` seconds for a connection before it fails
with :class:`~pegs_rules.server.store.StoreError`, and the pool tries to
reconnect at least every :data:`RECONNECT` seconds, so the servers carry on
within seconds of the database's return. The listening connection reconnects
by itself and then tells its server that notices may have been missed.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import psycopg
from psycopg import errors
from psycopg.conninfo import make_conninfo
from psycopg_pool import ConnectionPool, PoolTimeout

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
    notice_payload,
    read_notice,
    taken_mask,
)

log = logging.getLogger("pegs_rules.server")

CHANNEL = "pegs"
"""The ``NOTIFY`` channel every server listens on."""
LISTEN_POLL = 0.5
"""Seconds between the listener's checks that it should stop."""
WAIT = 3.0
"""Seconds a call waits for a connection (or to connect) before it fails."""
RECONNECT = 2.0
"""Seconds after which the pool gives a failing connection attempt up and starts afresh (the
next attempt then comes as soon as a call waits: at least every beat of a server)."""
KEEPALIVE = "keepalives=1 keepalives_idle=10 keepalives_interval=5 keepalives_count=3"
"""TCP keepalives: a connection to a database host that vanished is noticed within 25 s."""
EXPIRE_AT_ONCE = 500
"""The most games one call of :meth:`PostgresStore.expire` removes."""

_SCHEMA = (
    """create table if not exists games (
    id text primary key,
    created timestamptz not null default clock_timestamp(),
    start text not null,
    seats text not null,
    tokens text not null,
    spectator text not null,
    bots boolean not null,
    turn integer not null,
    ply integer not null default 0,
    winner integer,
    snapshot_ply integer,
    snapshot_state text,
    snapshot_last text,
    creator text,
    joined boolean not null default false,
    active timestamptz not null default clock_timestamp()
)""",
    # the columns added since the first layout (existing games count as joined, active now)
    "alter table games add column if not exists creator text",
    "alter table games add column if not exists joined boolean not null default true",
    "alter table games add column if not exists active timestamptz not null default now()",
    "alter table games add column if not exists listed boolean not null default false",
    "alter table games add column if not exists taken integer not null default 0",
    "create index if not exists listed_games on games (created) where listed and winner is null",
    "create index if not exists active_games on games (created) where winner is null",
    "create index if not exists games_by_creator on games (creator) where winner is null",
    "create index if not exists games_by_activity on games (active)",
    """create table if not exists moves (
    game text not null references games(id),
    ply integer not null,
    move text not null,
    primary key (game, ply)
)""",
    "create table if not exists servers (id text primary key, expires timestamptz not null)",
    """create table if not exists leases (
    game text primary key references games(id),
    server text not null,
    expires timestamptz not null
)""",
    "create index if not exists leases_held on leases (server)",
    """create table if not exists seated (
    game text not null,
    seat integer not null,
    server text not null,
    joined bigint not null,
    primary key (game, seat)
)""",
    "create sequence if not exists joins",
    """create table if not exists layouts (
    layout integer primary key,
    at timestamptz not null default clock_timestamp()
)""",
    """create table if not exists blocks (
    network text primary key,
    note text not null,
    at timestamptz not null default clock_timestamp()
)""",
    """create table if not exists operator (
    seq bigserial primary key,
    at timestamptz not null default clock_timestamp(),
    action text not null,
    target text not null,
    note text not null
)""",
)
_SCHEMA_LOCK = 0x7065_6773
"""The advisory lock held while the tables are created (servers may start together)."""
UNRECORDED = 3
"""The layout of tables that do not record theirs (layouts 1 to 3; their upgrades are the same
statements)."""
ALIVE = 60.0
"""A server whose beat is this recent counts as running when the layout is to change: one cut
off from the database for longer may find the tables upgraded when it is back."""
_GAME = "id, start, seats, tokens, spectator, turn, ply, winner"
_LATER = "now() + %s * interval '1 second'"
_ADD_MOVES = f"""
    with m as (
        select * from unnest(%s::text[], %s::int[], %s::text[], %s::int[], %s::int[], %s::text[])
            as m(game, ply, move, turn, winner, notice)
    ), stored as (
        insert into moves (game, ply, move) select game, ply, move from m
    ), moved as (
        update games set ply = m.ply + 1, turn = m.turn, winner = m.winner,
            active = clock_timestamp(),
            creator = case when m.winner is null then games.creator end
        from m where games.id = m.game
    ), ended as (
        delete from leases using m where leases.game = m.game and m.winner is not null
    )
    select pg_notify('{CHANNEL}', notice) from m"""
"""A batch of moves stored, each game's header brought up to date, and every move announced."""
_EXPIRE = f"""
    with gone as (
        select id, (winner is null and tokens not like '%%"%%'  -- bots alone: no token hash
            and created < now() - %(bots)s * interval '1 s') as ran_its_time
        from games
        where (winner is null and not joined and active < now() - %(unjoined)s * interval '1 s')
            or (winner is null and active < now() - %(idle)s * interval '1 s')
            or (winner is not null and active < now() - %(finished)s * interval '1 s')
            or (winner is null and tokens not like '%%"%%'
                and created < now() - %(bots)s * interval '1 s')
        limit {EXPIRE_AT_ONCE} for update skip locked
    ), moves_gone as (
        delete from moves using gone where moves.game = gone.id
    ), leases_gone as (
        delete from leases using gone where leases.game = gone.id
    ), seats_gone as (
        delete from seated using gone where seated.game = gone.id
    )
    delete from games using gone where games.id = gone.id returning games.id, gone.ran_its_time"""
"""The games nobody plays removed, with their moves, leases and seats (see :meth:`Store.expire`)."""


def _layout(db: psycopg.Connection[Any]) -> int:
    """The layout of the tables in ``db`` (0: there are none)."""
    recorded, tables = db.execute(
        "select to_regclass('layouts') is not null, to_regclass('games') is not null"
    ).fetchone() or (False, False)
    if recorded:
        row = db.execute("select coalesce(max(layout), 0) from layouts").fetchone()
        return int(row[0]) if row else 0
    return UNRECORDED if tables else 0


def _bring_up_to_date(db: psycopg.Connection[Any]) -> None:
    """Create the tables, or bring older ones up to date (only adding to them); refuse tables of
    a newer layout, and an upgrade while a server of the older layout runs on them: servers of
    two layouts never share a database."""
    found = _layout(db)
    if found > LAYOUT:
        raise newer_layout(found)
    if found == LAYOUT:
        return
    if found and db.execute("select to_regclass('servers') is not null").fetchone() == (True,):
        row = db.execute(
            "select count(*), max(expires) from servers where expires > now() - %s * interval '1 s'",
            (ALIVE,),
        ).fetchone()
        if row and row[0]:
            raise StoreError(
                f"{row[0]} server(s) of an older version (layout {found}) beat on this database"
                f" within the last {ALIVE:.0f} s (the latest lease runs to"
                f" {row[1]:%Y-%m-%d %H:%M:%S %Z}): stop them all, then start this version, which"
                f" brings the tables from layout {found} to {LAYOUT}; servers of two layouts"
                " never share a database"
            )
    for statement in _SCHEMA:
        db.execute(statement)
    db.execute("insert into layouts (layout) values (%s)", (LAYOUT,))


class PostgresStore:
    """A store in the PostgreSQL database at ``url`` (``postgresql://USER@HOST:PORT/DB``)."""

    def __init__(self, url: str, connections: int = 4) -> None:
        self.url = url
        self._connect = make_conninfo(url, connect_timeout=round(WAIT)) + " " + KEEPALIVE
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        try:
            self._pool = ConnectionPool(
                self._connect,
                min_size=1,
                max_size=connections,
                open=True,
                timeout=WAIT,
                reconnect_timeout=RECONNECT,
                check=ConnectionPool.check_connection,
                name="pegs",
            )
            with self._transaction("cannot create the tables") as db:
                if _layout(db) != LAYOUT:
                    db.execute("select pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                    _bring_up_to_date(db)  # decided under the lock: servers may start together
        except (psycopg.Error, PoolTimeout) as error:
            raise StoreError(f"cannot open the database: {error}") from None
        except StoreError:
            self._pool.close()
            raise

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
            " listed, taken) values (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
        )
        shown = (listed is not None, taken_mask(listed or ()))
        with self._transaction(f"cannot store game {game.id}") as db:
            db.execute(sql, (*game_columns(game, creator), *shown))
            if game.bots:
                db.execute(
                    f"insert into leases (game, server, expires) values (%s, %s, {_LATER})",
                    (game.id, server, seconds),
                )

    def add_moves(self, moves: Sequence[StoredMove]) -> None:
        moves = sorted(moves, key=lambda m: m.game)  # rows locked in one order: no deadlock
        named = ", ".join(f"move {m.ply} of game {m.game}" for m in moves[:3])
        columns = [
            [m.game for m in moves],
            [m.ply for m in moves],
            [m.move for m in moves],
            [m.turn for m in moves],
            [m.winner for m in moves],
            [notice_payload(m) for m in moves],
        ]
        with self._transaction(f"cannot store {named}") as db:
            db.execute(_ADD_MOVES, columns)  # one statement for the batch, its notices last
            for move in moves:
                if move.snapshot is not None:
                    self._keep(db, move.game, move.snapshot)

    def load(self, game_id: str) -> StoredGame | None:
        rows = self._read(f"select {_GAME} from games where id = %s", (game_id,))
        return game_from_row(rows[0]) if rows else None

    def moves(self, game_id: str, since: int = 0) -> tuple[str, ...]:
        sql = "select ply, move from moves where game = %s and ply >= %s order by ply"
        return checked_moves(game_id, since, self._read(sql, (game_id, since)))

    def snapshot(self, game_id: str) -> Snapshot | None:
        sql = "select snapshot_ply, snapshot_state, snapshot_last from games where id = %s"
        rows = self._read(sql, (game_id,))
        if not rows or rows[0][0] is None:
            return None
        ply, state, last = rows[0]
        return Snapshot(int(ply), str(state), None if last is None else str(last))

    def save_snapshot(self, game_id: str, snapshot: Snapshot) -> None:
        with self._transaction(f"cannot keep a snapshot of game {game_id}") as db:
            self._keep(db, game_id, snapshot)

    def count_active(self, creator: str | None = None) -> int:
        if creator is None:
            return int(self._read("select count(*) from games where winner is null", ())[0][0])
        sql = "select count(*) from games where winner is null and creator = %s"
        return int(self._read(sql, (creator,))[0][0])

    def expire(self, unjoined: float, idle: float, finished: float, bots: float) -> tuple[str, ...]:
        limits = {"unjoined": unjoined, "idle": idle, "finished": finished, "bots": bots}
        with self._transaction("cannot remove the games nobody plays") as db:
            rows = db.execute(_EXPIRE, limits).fetchall()
            notices = [notice_payload(GameRemoved(str(g), ran_its_time=b)) for g, b in rows]
            if notices:
                db.execute(
                    "select pg_notify(%s, n) from unnest(%s::text[]) as n", (CHANNEL, notices)
                )
        return tuple(str(game) for game, _ in rows)

    def lease(self, server: str, seconds: float, claim: int) -> set[str]:
        later = {"server": server, "seconds": seconds, "claim": claim}
        claim_sql = """
            insert into leases (game, server, expires)
            select g.id, %(server)s, now() + %(seconds)s * interval '1 second' from games g
            where g.winner is null and g.bots and not exists (
                select 1 from leases l where l.game = g.id and l.expires > now())
            order by g.created limit %(claim)s
            on conflict (game) do update set server = excluded.server, expires = excluded.expires
            where leases.expires <= now()"""
        with self._transaction("cannot renew the leases") as db:
            db.execute(
                f"insert into servers (id, expires) values (%(server)s, {_LATER % '%(seconds)s'})"
                " on conflict (id) do update set expires = excluded.expires",
                later,
            )
            db.execute(
                f"update leases set expires = {_LATER % '%(seconds)s'} where server = %(server)s",
                later,
            )
            db.execute(claim_sql, later)
            rows = db.execute("select game from leases where server = %s", (server,))
            return {str(row[0]) for row in rows}

    def release(self, server: str) -> None:
        with self._transaction("cannot release the leases") as db:
            db.execute("delete from leases where server = %s", (server,))
            db.execute("delete from seated where server = %s", (server,))
            db.execute("delete from servers where id = %s", (server,))

    def sweep(self, seconds: float) -> None:
        with self._transaction("cannot sweep the servers") as db:
            db.execute(
                "delete from servers where expires < now() - %s * interval '1 second'", (seconds,)
            )
            db.execute(
                "delete from seated d where not exists (select 1 from servers s where s.id = d.server)"
            )

    def take_seat(self, game_id: str, seat: int, server: str) -> int:
        sql = (
            "insert into seated (game, seat, server, joined) values (%s, %s, %s, nextval('joins'))"
            " on conflict (game, seat) do update"
            " set server = excluded.server, joined = excluded.joined returning joined"
        )
        with self._transaction(f"cannot seat a player of game {game_id}") as db:
            row = db.execute(sql, (game_id, seat, server)).fetchone()
            assert row is not None
            joined = int(row[0])
            db.execute(
                "update games set joined = true, taken = taken | %s where id = %s",
                (1 << seat, game_id),
            )
            notice = notice_payload(SeatTaken(game_id, seat, joined))
            db.execute("select pg_notify(%s, %s)", (CHANNEL, notice))
        return joined

    def listed(self, limit: int = 20) -> list[ListedGame]:
        sql = (
            f"select {_GAME}, taken from games where listed and winner is null"
            " order by created desc limit %s"
        )
        found = (listed_game(row) for row in self._read(sql, (limit * 4,)))
        return [game for game in found if game is not None][:limit]

    def claim_seat(self, game_id: str, seat: int, token_hash: str) -> bool:
        with self._transaction(f"cannot claim a seat of game {game_id}") as db:
            row = db.execute(
                "select tokens from games where id = %s and listed and winner is null"
                " and taken & %s = 0 for update",
                (game_id, 1 << seat),
            ).fetchone()
            if row is None:
                return False
            tokens = json.loads(str(row[0]))
            if not (0 <= seat < len(tokens)) or tokens[seat] is None:
                return False
            tokens[seat] = token_hash
            db.execute(
                "update games set tokens = %s, taken = taken | %s where id = %s",
                (json.dumps(tokens), 1 << seat, game_id),
            )
        return True

    def leave_seat(self, game_id: str, seat: int, joined: int) -> None:
        sql = "delete from seated where game = %s and seat = %s and joined = %s"
        with self._transaction(f"cannot unseat a player of game {game_id}") as db:
            db.execute(sql, (game_id, seat, joined))

    def connected(self, game_id: str) -> list[int]:
        sql = (
            "select d.seat from seated d join servers s on s.id = d.server "
            "where d.game = %s and s.expires > now() order by d.seat"
        )
        return [int(row[0]) for row in self._read(sql, (game_id,))]

    def games(self, limit: int = 100, finished: bool = True) -> list[GameInfo]:
        where = "" if finished else "where g.winner is null"
        sql = f"""
            select g.id, g.seats, g.ply, g.winner, g.joined, g.active, g.creator,
                array(select d.seat from seated d join servers s on s.id = d.server
                      where d.game = g.id and s.expires > now() order by d.seat)
            from games g {where} order by g.active desc limit %s"""
        return [
            game_info(row[:2], row[2:7], tuple(int(seat) for seat in row[7]))
            for row in self._read(sql, (limit,))
        ]

    def remove(self, game_id: str, note: str = "") -> bool:
        with self._transaction(f"cannot remove game {game_id}") as db:
            for table in ("moves", "leases", "seated"):
                db.execute(f"delete from {table} where game = %s", (game_id,))
            found = db.execute("delete from games where id = %s", (game_id,)).rowcount > 0
            if found:
                self._act(db, "remove", game_id, note)
                notice = notice_payload(GameRemoved(game_id, by_operator=True))
                db.execute("select pg_notify(%s, %s)", (CHANNEL, notice))
        return found

    def block(self, network: str, note: str = "") -> str:
        network = network_of(network)
        with self._transaction(f"cannot block {network}") as db:
            db.execute(
                "insert into blocks (network, note) values (%s, %s) on conflict (network)"
                " do update set note = excluded.note, at = excluded.at",
                (network, note),
            )
            self._act(db, "block", network, note)
        return network

    def unblock(self, network: str, note: str = "") -> bool:
        network = network_of(network)
        with self._transaction(f"cannot unblock {network}") as db:
            found = db.execute("delete from blocks where network = %s", (network,)).rowcount > 0
            if found:
                self._act(db, "unblock", network, note)
        return found

    def blocks(self) -> list[Block]:
        rows = self._read("select network, note, at from blocks order by at", ())
        return [Block(str(n), str(w), a.timestamp()) for n, w, a in rows]

    def actions(self, since: int = 0, limit: int = 1000) -> list[Action]:
        sql = (
            "select seq, at, action, target, note from operator where seq > %s"
            " order by seq limit %s"
        )
        return [
            Action(int(q), a.timestamp(), str(k), str(t), str(n))
            for q, a, k, t, n in self._read(sql, (since, limit))
        ]

    def listen(self, listener: Listener) -> None:
        """Listen on a connection of its own, in a thread (reconnecting if it drops); return once listening."""
        listening = threading.Event()
        self._listener = threading.Thread(
            target=self._listen, args=(listener, listening), daemon=True, name="pegs-listen"
        )
        self._listener.start()
        if not listening.wait(10.0):
            raise StoreError("cannot listen to the database")

    def close(self) -> None:
        self._stop.set()
        if self._listener is not None:
            self._listener.join(LISTEN_POLL * 4)
        self._pool.close()

    # -- helpers --------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _transaction(self, what: str) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection in one transaction; errors become :class:`StoreError` saying ``what``."""
        try:
            with self._pool.connection() as db:
                yield db
        except errors.UniqueViolation as error:
            if error.diag.table_name == "moves":
                raise PlyTaken(f"{what}: the ply is stored already") from None
            raise StoreError(f"{what}: {error}") from None
        except (psycopg.Error, PoolTimeout) as error:
            raise StoreError(f"{what}: {error}") from None

    def _act(self, db: Any, action: str, target: str, note: str) -> None:
        """Log an operator's action, in ``db``'s transaction; the table is locked first, so
        that the actions commit in the order of their numbers (servers read them by number)."""
        db.execute("lock table operator in exclusive mode")
        db.execute(
            "insert into operator (action, target, note) values (%s, %s, %s)",
            (action, target, note),
        )

    def _keep(self, db: Any, game_id: str, snapshot: Snapshot) -> None:
        db.execute(
            "update games set snapshot_ply = %s, snapshot_state = %s, snapshot_last = %s "
            "where id = %s and coalesce(snapshot_ply, -1) < %s",
            (snapshot.ply, snapshot.state, snapshot.last, game_id, snapshot.ply),
        )

    def _read(self, sql: str, args: Sequence[object]) -> list[tuple[Any, ...]]:
        with self._transaction("cannot read the database") as db:
            return list(db.execute(sql, args))

    def _listen(self, listener: Listener, listening: threading.Event) -> None:
        """Listen until :meth:`close`; a lost connection is logged once, and once more when back."""
        lost: float | None = None
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._connect, autocommit=True) as db:
                    db.execute(f"listen {CHANNEL}")
                    listening.set()
                    if lost is not None:  # notices may have come while we were away
                        gone = time.monotonic() - lost
                        log.warning("listening to the database again after %.1f s", gone)
                        lost = None
                        listener(None)
                    while not self._stop.is_set():
                        for notice in db.notifies(timeout=LISTEN_POLL):
                            read: Notice | None = read_notice(notice.payload)
                            if read is not None:
                                listener(read)
            except psycopg.Error as error:
                if lost is None:
                    log.warning("listening to the database failed (%s); trying again", error)
                    lost = time.monotonic()
                self._stop.wait(LISTEN_POLL)
