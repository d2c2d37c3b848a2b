"""A game in a server's memory (:class:`LiveGame`), and how it is made from what the store holds.

A live game is its stored header, the position reached and the move that led
there, and the connections watching it on this server. It is rebuilt from the
store (:func:`rebuild`): from its latest :class:`~pegs_rules.server.store.Snapshot`
if it has one, else from the deal, then the moves stored since. Moves are
judged by the library (:func:`~pegs_rules.notation.parse_move`,
:func:`~pegs_rules.apply_with_events`); :mod:`pegs_rules.server.registry`
decides when.

Seeds and tokens come from :mod:`secrets`. The seed stays in the store: no
message carries it, nor any hand but the reader's own, nor the draw pile.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import re
from dataclasses import dataclass, field
from typing import Protocol

from pegs_rules.board import team_of
from pegs_rules.bots import make_bot
from pegs_rules.errors import PegsError
from pegs_rules.events import Event, apply_with_events
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import Move
from pegs_rules.notation import parse_move
from pegs_rules.render import svg
from pegs_rules.serialize import events_to_data, from_data, from_json, to_json
from pegs_rules.server import protocol
from pegs_rules.server.store import Damaged, Snapshot, StoredGame
from pegs_rules.state import GameState
from pegs_rules.turn import apply

HUMAN = "human"
"""The seat kind of a person, who joins with a token."""
MAX_BOT_SECONDS = 5.0
"""The longest an ``mcts:SECONDSs`` bot may think."""
MAX_BOT_ITERATIONS = 20_000
"""The most iterations an ``mcts:N`` bot may take."""
CHECKPOINT = 50
"""A snapshot is stored with every move whose ply is a multiple of this, and with the last."""
DAMAGED = "this game's record is damaged"
"""What anyone asking for a game that no longer loads is told (the details go to the log)."""
UNREACHABLE = "the server cannot reach its database just now: try again in a few seconds"
"""What a request the store failed is told (nothing is damaged: it may work a moment later)."""
REMOVED = "this game was removed: nobody played it for too long"
"""What the connections of a game that expired are told (see :meth:`~pegs_rules.server.store.Store.expire`)."""
REMOVED_BOTS = "this game of bots was removed: it ran longer than the server lets bots play alone"
"""What the connections of a game of bots alone removed at its time are told (``--bots-expiry``)."""
REMOVED_BY_OPERATOR = "this game was removed by the server's operator"
"""What the connections of a game its operator removed are told (``pegs admin remove``)."""
BLOCKED = "this address is blocked by the server's operator"
"""What a client from an address its operator blocked is told (``pegs admin block``)."""

_SEAT_KIND = re.compile(r"[a-z]+(:[0-9]+(\.[0-9]+)?s?)?\Z")


class Connection(Protocol):
    """Someone a game sends messages to: a seat's or a spectator's WebSocket."""

    seat: int | None
    board: bool
    joined: int
    """The seat's join number (:meth:`~pegs_rules.server.store.Store.take_seat`); 0 for a spectator."""

    def send(self, text: str) -> None:
        """Queue ``text`` for sending; never blocks."""
        ...

    def close(self, code: str, message: str | None = None) -> None:
        """Send an ``error`` with ``code`` and close."""
        ...


def token_hash(token: str) -> str:
    """The SHA-256 hex digest a store keeps in place of ``token``."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def seat_of(stored: StoredGame, token: str) -> int | None:
    """The seat ``token`` belongs to, ``None`` for the spectator token; KeyError otherwise."""
    digest = token_hash(token)
    if hmac.compare_digest(stored.spectator_hash, digest):
        return None
    for seat, known in enumerate(stored.token_hashes):
        if known is not None and hmac.compare_digest(known, digest):
            return seat
    raise KeyError(token)


def check_seat_kind(kind: object) -> str:
    """``kind`` if it is ``"human"`` or a bot the server will run, written exactly; ValueError if not."""
    if not isinstance(kind, str) or not _SEAT_KIND.match(kind):
        shown = repr(kind)[:40] if isinstance(kind, str) else type(kind).__name__
        raise ValueError(f"a seat is 'human' or a bot name such as 'mcts:0.5s', not {shown}")
    if kind == HUMAN:
        return kind
    bot = make_bot(kind)  # ValueError for an unknown name or budget
    seconds = getattr(bot, "time_limit", None) or 0.0
    iterations = getattr(bot, "iterations", 0) if seconds == 0.0 else 0
    if seconds > MAX_BOT_SECONDS or iterations > MAX_BOT_ITERATIONS:
        raise ValueError(
            f"bot {kind!r} thinks too long: at most mcts:{MAX_BOT_SECONDS:g}s "
            f"or mcts:{MAX_BOT_ITERATIONS}"
        )
    return kind


def public_state(state: GameState) -> GameState:
    """``state`` with every card removed: all that a public board drawing may use."""
    return GameState(
        rules=state.rules,
        pegs=state.pegs,
        hands=((),) * state.players,
        draw_pile=(),
        discard_pile=(),
        turn=state.turn,
        dealer=state.dealer,
        seed=0,
        ply=state.ply,
        winner=state.winner,
    )


Last = tuple[str, tuple[Event, ...]]
"""The move that led to a position, in notation, and its events."""


@dataclass(eq=False)
class LiveGame:
    """A game in this server's memory."""

    stored: StoredGame
    state: GameState
    last: Last | None
    snapshot_ply: int = 0
    """The ply of the latest snapshot stored."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: list[Connection] = field(default_factory=list)
    bots: asyncio.Task[None] | None = None
    heard: dict[int, str] = field(default_factory=dict)
    """Moves other servers stored, by ply, not yet made here."""
    stale: bool = False
    """The store may hold moves this server has not heard of."""
    following: asyncio.Task[None] | None = None
    _board: tuple[int, str] | None = None
    _legal: tuple[int, tuple[Move, ...]] | None = None
    _public: dict[bool, tuple[int, str]] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def seats(self) -> tuple[str, ...]:
        return self.stored.seats

    def board(self) -> str:
        """The public SVG board of the current position (drawn once per ply)."""
        if self._board is None or self._board[0] != self.state.ply:
            self._board = (self.state.ply, svg(public_state(self.state)))
        return self._board[1]

    def legal(self) -> tuple[Move, ...]:
        """The legal moves of the current position (found once a ply, and only if asked for)."""
        if self._legal is None or self._legal[0] != self.state.ply:
            moves = legal_moves(self.state) if not self.state.is_over else ()
            self._legal = (self.state.ply, moves)
        return self._legal[1]

    def message_for(self, connection: Connection) -> str:
        """The ``state`` message for ``connection`` (every spectator shares one text a ply)."""
        if connection.seat is not None:
            board = self.board() if connection.board else None
            legal = self.legal() if connection.seat == self.state.turn else ()
            return protocol.state_message(self.state, connection.seat, self.last, legal, board)
        cached = self._public.get(connection.board)
        if cached is None or cached[0] != self.state.ply:
            board = self.board() if connection.board else None
            text = protocol.state_message(self.state, None, self.last, (), board)
            cached = self._public[connection.board] = (self.state.ply, text)
        return cached[1]

    def snapshot(self) -> Snapshot:
        """The current position as a snapshot to store."""
        return snapshot_of(self.state, self.last)


def snapshot_of(state: GameState, last: Last | None) -> Snapshot:
    """``state``, reached by ``last``, as a snapshot to store."""
    text = None
    if last is not None:
        move, events = last
        text = json.dumps({"move": move, "events": events_to_data(events, None)})
    return Snapshot(state.ply, to_json(state), text)


def rebuild(stored: StoredGame, snapshot: Snapshot | None, moves: tuple[str, ...]) -> LiveGame:
    """The game from its header, latest snapshot (or ``None``) and the moves stored after it.

    Raises :class:`~pegs_rules.server.store.Damaged` with the details if it
    does not load (the snapshot, or a move that no longer replays).
    """
    try:
        if snapshot is None:
            state, last = stored.record.start(), None
        else:
            state = from_json(snapshot.state, "state")
            last = None if snapshot.last is None else _last(snapshot.last)
            if state.ply != snapshot.ply:
                raise PegsError(f"the snapshot is at ply {state.ply}, not {snapshot.ply}")
    except (PegsError, ValueError, KeyError, TypeError) as error:
        raise Damaged(f"game {stored.id}: its snapshot does not load: {error}") from None
    final = state.ply + len(moves) - 1
    for ply, text in enumerate(moves, start=state.ply):
        try:
            move = parse_move(state, text)
            if ply == final:
                state, events = apply_with_events(state, move)
                last = (text, events)
            else:
                state = apply(state, move)
        except PegsError as error:
            raise Damaged(
                f"game {stored.id}: move {ply + 1} {text!r} does not replay: {error}"
            ) from None
    snapshot_ply = 0 if snapshot is None else snapshot.ply
    return LiveGame(stored, state, last, snapshot_ply)


def _last(text: str) -> Last:
    data = json.loads(text)
    return str(data["move"]), from_data(data["events"], "events")


def advance(game: LiveGame, text: str) -> tuple[GameState, Last]:
    """The position after the stored move ``text``; :class:`~pegs_rules.server.store.Damaged`
    if it does not replay."""
    try:
        after, events = apply_with_events(game.state, parse_move(game.state, text))
    except PegsError as error:
        raise Damaged(
            f"game {game.id}: move {game.state.ply + 1} {text!r} does not replay: {error}"
        ) from None
    return after, (text, events)


def next_id(game_id: str) -> str:
    """The id of the game played after ``game_id`` by the same seats ("Play again"): as
    unguessable as ``game_id``, and the same on every server.

    >>> next_id("Zq0p1W8sG7Yx")
    'IGMp21UlNE1Z'
    """
    digest = hashlib.sha256(f"pegs-rules next game: {game_id}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:9]).decode()


def summary(
    stored: StoredGame, connected: list[int], following: str | None = None
) -> dict[str, object]:
    """What anyone with the game's id may know: seats, ply, turn, winner, who is connected, and
    the game that follows it (``next``), once a seat asked for one."""
    players = stored.record.players
    return {
        "id": stored.id,
        "players": players,
        "rules": stored.record.rules.name,
        "seats": list(stored.seats),
        "connected": connected,
        "ply": stored.ply,
        "turn": stored.turn,
        "winner": stored.winner,
        "teams": [[s for s in range(players) if team_of(s) == t] for t in (0, 1)],
        "next": following,
    }
