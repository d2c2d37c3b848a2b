"""Where games live between moves: the :class:`Store` interface and what it holds.

A game is stored as its :class:`StoredGame` (how it was dealt, who sits
where, the hashes of its tokens, and how far it has got) plus its moves, one
row per ply under a unique key on (game, ply): the store itself refuses a
second move for a ply (:class:`PlyTaken`), so however many servers share it,
every move is judged once and the moves stay in ply order. The record (deal
plus moves) is the source of truth; a :class:`Snapshot` now and then, and at
the end, spares a server replaying a long game from its deal.

Every server on a store is told of every move stored, every seat joined and
every game removed (:meth:`Store.listen`), and holds a lease on the games
whose bots it runs (:meth:`Store.lease`): a lease lasts while its server
keeps renewing it, so when one dies another claims its games.

Games nobody plays do not stay for ever (:meth:`Store.expire`): a game no
person joined, a game without a move for long, and a finished game past its
keeping time are removed.

Two stores implement it: :class:`~pegs_rules.server.sqlite.SqliteStore` (one
file, one server process; the default) and
:class:`~pegs_rules.server.postgres.PostgresStore` (any number of server
processes on any machines; the extra ``pegs-rules[postgres]``);
:func:`~pegs_rules.server.database.open_store` chooses one. This module imports
neither: they import it.

Tokens are never stored, only their SHA-256 hashes; the seed is stored (the
game cannot be rebuilt without it) and never leaves the server while the game
is on. Anything read back is checked: a row that does not load raises
:class:`Damaged` naming the game, and the other games are unaffected. Any
other :class:`StoreError` is the store failing (unreachable, say): the game is
not damaged, and the same call may work a moment later.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from pegs_rules import __version__
from pegs_rules.errors import PegsError
from pegs_rules.records import GameRecord
from pegs_rules.serialize import from_data, to_data

LAYOUT = 4
"""The layout of the tables this code keeps games in: 4 records it in a PostgreSQL database
(``layouts``; an SQLite file always did, as ``pragma user_version``), 3 added open games
(``listed``, ``taken``), 2 the columns for expiry. A store of an older layout is brought up to
date on opening (only adding tables, columns and indexes), one of a newer layout is refused
(:func:`newer_layout`); servers report it at ``/healthz``."""


class StoreError(PegsError):
    """The store failed (it may answer again a moment later), or refused what it was given."""


def newer_layout(found: int) -> StoreError:
    """The refusal of a database whose tables are of layout ``found``, newer than :data:`LAYOUT`:
    a newer version made them, and only a version that knows them may write to them."""
    return StoreError(
        f"the database's tables are of layout {found}, newer than the layout {LAYOUT} of this"
        f" version (pegs-rules {__version__}): a newer version of pegs-rules made them, and"
        " only that version may serve them"
    )


class Damaged(StoreError):
    """The store holds a game that does not load: its record is damaged (the message names it)."""


class PlyTaken(StoreError):
    """A move for a ply that is already stored: another writer was first."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """What the store keeps of one game, its moves aside.

    Attributes:
        id: the game's id (URL-safe, unguessable).
        record: how it was dealt (rules, players, seed); no moves.
        seats: per seat, ``"human"`` or a bot name for :func:`~pegs_rules.bots.make_bot`.
        token_hashes: per seat, the SHA-256 hex digest of its join token (``None`` for a bot).
        spectator_hash: the SHA-256 hex digest of the spectator token.
        turn: the seat to act now.
        ply: the moves made so far.
        winner: the winning team once the game is over.
    """

    id: str
    record: GameRecord
    seats: tuple[str, ...]
    token_hashes: tuple[str | None, ...]
    spectator_hash: str
    turn: int
    ply: int = 0
    winner: int | None = None

    @property
    def finished(self) -> bool:
        """Whether the game is over (its record may be given out)."""
        return self.winner is not None

    @property
    def bots(self) -> bool:
        """Whether any seat is a bot (a server must hold the game's lease to run them)."""
        return any(kind != "human" for kind in self.seats)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A position kept so that a game need not be replayed from its deal.

    ``state`` is the position after ``ply`` moves as a format-1 JSON state
    document (seed and hands included: the store is trusted); ``last`` is the
    move that led there and its events, as JSON, or ``None`` at the deal.
    """

    ply: int
    state: str
    last: str | None


@dataclass(frozen=True, slots=True)
class StoredMove:
    """Move number ``ply`` (from 0) of ``game``, and the game after it.

    ``turn`` and ``winner`` are the seat to act and the winning team after
    the move; ``snapshot``, if given, is stored with it.
    """

    game: str
    ply: int
    move: str
    turn: int
    winner: int | None = None
    snapshot: Snapshot | None = None


@dataclass(frozen=True, slots=True)
class SeatTaken:
    """A seat of ``game`` was joined; ``joined`` orders the joins (the highest is the newest)."""

    game: str
    seat: int
    joined: int


@dataclass(frozen=True, slots=True)
class GameRemoved:
    """``game`` was removed from the store (:meth:`Store.expire`, or :meth:`Store.remove` by the
    operator: ``by_operator``); ``ran_its_time``: a game of bots alone, past its time."""

    game: str
    by_operator: bool = False
    ran_its_time: bool = False


@dataclass(frozen=True, slots=True)
class GameInfo:
    """One game as its operator sees it (``pegs admin games``).

    Attributes:
        id: the game's id.
        seats: per seat, ``"human"`` or a bot.
        ply: the moves made.
        winner: the winning team, once over.
        joined: whether a person has joined it (or it has no seat for one).
        active: when it last moved (or was made), in seconds since the epoch.
        creator: the address that asked for it (kept while it is unfinished).
        connected: the seats joined at this moment on a live server; ``None`` where
            the store cannot tell another process (SQLite keeps that in the server).
    """

    id: str
    seats: tuple[str, ...]
    ply: int
    winner: int | None
    joined: bool
    active: float
    creator: str | None
    connected: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class ListedGame:
    """An unfinished game open to anyone, with a seat for a person nobody has taken yet.

    Attributes:
        id: the game's id.
        rules: its rules' name.
        seats: per seat, ``"human"`` or a bot.
        free: the seats for a person nobody has joined or claimed.
        ply: the moves made.
    """

    id: str
    rules: str
    seats: tuple[str, ...]
    free: tuple[int, ...]
    ply: int


@dataclass(frozen=True, slots=True)
class Block:
    """An address or network (``network``, as :mod:`ipaddress` writes it) the servers refuse."""

    network: str
    note: str
    at: float


@dataclass(frozen=True, slots=True)
class Action:
    """Something the operator did (``pegs admin``), number ``seq`` in the store's log of them.

    ``action`` is ``"remove"`` (``target`` a game), ``"block"`` or ``"unblock"``
    (``target`` a network); ``note`` is what the operator wrote, and who and where.
    """

    seq: int
    at: float
    action: str
    target: str
    note: str


def network_of(text: str) -> str:
    """``text`` (an address or a network) as a network :mod:`ipaddress` writes; StoreError if
    it is neither.

    >>> network_of("203.0.113.7"), network_of("2001:db8::1/64"), network_of(" 10.1.2.3/8 ")
    ('203.0.113.7/32', '2001:db8::/64', '10.0.0.0/8')
    """
    try:
        return str(ipaddress.ip_network(text.strip(), strict=False))
    except ValueError:
        raise StoreError(f"not an address or a network: {text[:60]!r}") from None


Notice = StoredMove | SeatTaken | GameRemoved
"""What a store tells every server listening to it."""
Listener = Callable[[Notice | None], None]
"""Called with every notice; with ``None`` when some may have been missed (read the store again)."""


class Store(Protocol):
    """The server's storage, shared by every server process that uses it.

    Every method blocks (the server calls them on worker threads) and raises
    :class:`StoreError` if the store fails.
    """

    def create(
        self,
        game: StoredGame,
        server: str,
        seconds: float,
        creator: str | None = None,
        listed: tuple[int, ...] | None = None,
    ) -> None:
        """Store a new game (no moves yet); if it has bots, ``server`` leases it for ``seconds``.

        ``creator`` is who asked for it (a client's address), kept until it ends.
        ``listed``, if given, opens the game to anyone (:meth:`listed`), its
        seats ``listed`` counting as taken already (the creator's own).
        """
        ...

    def add_moves(self, moves: Sequence[StoredMove]) -> None:
        """Durably append ``moves`` (of any games, at most one each), all or none, and announce them.

        Raises :class:`PlyTaken` if a ply is already stored.
        """
        ...

    def load(self, game_id: str) -> StoredGame | None:
        """The game (without its moves), or ``None`` if there is none."""
        ...

    def moves(self, game_id: str, since: int = 0) -> tuple[str, ...]:
        """The game's moves from ply ``since`` on, in order."""
        ...

    def snapshot(self, game_id: str) -> Snapshot | None:
        """The game's latest snapshot, if it has one."""
        ...

    def save_snapshot(self, game_id: str, snapshot: Snapshot) -> None:
        """Keep ``snapshot`` unless the game has a later one."""
        ...

    def count_active(self, creator: str | None = None) -> int:
        """How many games are not yet over (of those ``creator`` asked for, if given)."""
        ...

    def expire(self, unjoined: float, idle: float, finished: float, bots: float) -> tuple[str, ...]:
        """Remove, and announce, the games nobody plays; return their ids.

        Those are: games with a seat for a person that no person joined, with no
        move for ``unjoined`` seconds; unfinished games with no move for ``idle``
        seconds; finished games whose last move is ``finished`` seconds old; and
        unfinished games of bots alone (no seat for a person) created ``bots``
        seconds ago (with SQLite, counted from the server's start for the games it
        found there: the file keeps no time of creation).
        """
        ...

    def lease(self, server: str, seconds: float, claim: int) -> set[str]:
        """One beat of ``server``: the games whose bots it runs.

        ``server`` is alive, and its leases run, for ``seconds`` more; it
        claims up to ``claim`` unfinished games with bots whose lease is free
        or has run out (oldest first), each won by one server only. Returns
        every game whose lease it holds.
        """
        ...

    def release(self, server: str) -> None:
        """``server`` is stopping: its leases and seats are free at once."""
        ...

    def sweep(self, seconds: float) -> None:
        """Forget servers that stopped beating more than ``seconds`` ago, and their seats."""
        ...

    def take_seat(self, game_id: str, seat: int, server: str) -> int:
        """A connection on ``server`` joined ``seat``; returns its join number and announces it.

        The game counts as joined from then on (see :meth:`expire`).
        """
        ...

    def leave_seat(self, game_id: str, seat: int, joined: int) -> None:
        """The connection with join number ``joined`` left ``seat`` (if it still held it)."""
        ...

    def connected(self, game_id: str) -> list[int]:
        """The seats of the game joined on a server that is alive, in order."""
        ...

    def listed(self, limit: int = 20) -> list[ListedGame]:
        """Up to ``limit`` unfinished games open to anyone with a free seat, the newest first.

        A seat is free until a person joins it (:meth:`take_seat`) or it is claimed
        (:meth:`claim_seat`).
        """
        ...

    def claim_seat(self, game_id: str, seat: int, token_hash: str) -> bool:
        """Give the free ``seat`` of the open game a new token (its hash), now taken; whether
        it was free (the seat's earlier link stops working)."""
        ...

    def games(self, limit: int = 100, finished: bool = True) -> list[GameInfo]:
        """Up to ``limit`` games, the most recently active first (``finished`` ones too, if so)."""
        ...

    def remove(self, game_id: str, note: str = "") -> bool:
        """Remove the game, its moves, leases and seats, and announce it; whether it was there.

        Logged as an :class:`Action` (``remove``) when it was.
        """
        ...

    def block(self, network: str, note: str = "") -> str:
        """Refuse ``network`` (an address or a network) on every server; returns it as written
        by :func:`network_of`. Logged as an :class:`Action` (``block``)."""
        ...

    def unblock(self, network: str, note: str = "") -> bool:
        """Refuse ``network`` no more; whether it was blocked. Logged (``unblock``) if it was."""
        ...

    def blocks(self) -> list[Block]:
        """The addresses and networks refused, in the order they were blocked."""
        ...

    def actions(self, since: int = 0, limit: int = 1000) -> list[Action]:
        """The operator's actions after number ``since``, oldest first, at most ``limit``."""
        ...

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` with every notice from now on, from any thread, until :meth:`close`."""
        ...

    def close(self) -> None:
        """Stop listening and release the store."""
        ...


# --- reading rows and notices back, the same for every store ----------------------------------


def game_from_row(row: Sequence[object]) -> StoredGame:
    """A game from its stored columns (id, start, seats, tokens, spectator, turn, ply, winner).

    Raises :class:`Damaged` naming the game if they do not load.
    """
    game_id, start, seats, tokens, spectator, turn, ply, winner = row
    try:
        record = from_data(json.loads(str(start)), "record")
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
        if not (isinstance(turn, int) and isinstance(ply, int) and 0 <= turn < record.players):
            raise ValueError("the turn or ply is not a seat or a count")
        if winner is not None and winner not in (0, 1):
            raise ValueError("the winner is not a team")
        return StoredGame(
            str(game_id), record, tuple(seat_list), tuple(hashes), spectator, turn, ply, winner
        )
    except (ValueError, PegsError) as error:  # JSONDecodeError and FormatError are ValueErrors
        raise Damaged(f"game {game_id} is damaged in the store: {error}") from None


def game_columns(
    game: StoredGame, creator: str | None
) -> tuple[str, str, str, str, str, bool, int, str | None, bool]:
    """The stored columns of a new game: id, start, seats, tokens, spectator, bots, turn,
    creator, joined (a game with no seat for a person counts as joined from the start)."""
    return (
        game.id,
        json.dumps(to_data(replace(game.record, moves=()))),
        json.dumps(list(game.seats)),
        json.dumps(list(game.token_hashes)),
        game.spectator_hash,
        game.bots,
        game.turn,
        creator,
        all(kind != "human" for kind in game.seats),
    )


def game_info(
    columns: Sequence[object], progress: Sequence[object], connected: tuple[int, ...] | None
) -> GameInfo:
    """A game's :class:`GameInfo` from its columns (id, seats) and (ply, winner, joined, active,
    creator), ``active`` a time or seconds since the epoch."""
    game_id, seats = columns
    ply, winner, joined, active, creator = progress
    try:
        kinds = json.loads(str(seats))
        seat_kinds = tuple(str(kind) for kind in kinds) if isinstance(kinds, list) else ()
    except ValueError:
        seat_kinds = ()
    when = active.timestamp() if hasattr(active, "timestamp") else float(str(active))
    return GameInfo(
        str(game_id),
        seat_kinds,
        int(str(ply)),
        None if winner is None else int(str(winner)),
        bool(joined),
        when,
        None if creator is None else str(creator),
        connected,
    )


def taken_mask(seats: tuple[int, ...]) -> int:
    """The stored bits of the seats taken (bit ``s`` for seat ``s``).

    >>> taken_mask((0, 3))
    9
    """
    return sum(1 << seat for seat in set(seats))


def listed_game(row: Sequence[object]) -> ListedGame | None:
    """An open game from its columns (id, start, seats, tokens, spectator, turn, ply, winner,
    taken), ``None`` if no seat is free or it does not load."""
    try:
        game = game_from_row(row[:8])
    except Damaged:
        return None
    taken = int(str(row[8]))
    free = tuple(
        seat
        for seat, known in enumerate(game.token_hashes)
        if known is not None and not taken & (1 << seat)
    )
    if not free or game.finished:
        return None
    return ListedGame(game.id, game.record.rules.name, game.seats, free, game.ply)


def checked_moves(game_id: str, since: int, rows: Sequence[Sequence[object]]) -> tuple[str, ...]:
    """The move texts of rows (ply, move) read from ply ``since`` on; :class:`Damaged` on a gap."""
    if [row[0] for row in rows] != list(range(since, since + len(rows))):
        raise Damaged(f"game {game_id} is damaged in the store: the stored moves skip a ply")
    return tuple(str(row[1]) for row in rows)


def notice_payload(notice: Notice) -> str:
    """A notice as the text a store passes between servers."""
    if isinstance(notice, SeatTaken):
        return json.dumps(["seat", notice.game, notice.seat, notice.joined])
    if isinstance(notice, GameRemoved):
        why = ["operator"] if notice.by_operator else ["bots"] if notice.ran_its_time else []
        return json.dumps(["gone", notice.game, *why])
    return json.dumps(["move", notice.game, notice.ply, notice.move, notice.turn, notice.winner])


def read_notice(payload: str) -> Notice | None:
    """The notice ``payload`` holds, or ``None`` if it is not one (a notice of a newer server)."""
    try:
        data = json.loads(payload)
        if data[0] == "seat":
            _, game, seat, joined = data
            return SeatTaken(str(game), int(seat), int(joined))
        if data[0] == "gone":
            return GameRemoved(str(data[1]), data[2:] == ["operator"], data[2:] == ["bots"])
        if data[0] == "move":
            _, game, ply, move, turn, winner = data
            return StoredMove(str(game), int(ply), str(move), int(turn), winner)
    except (ValueError, TypeError, IndexError, KeyError):
        pass
    return None
