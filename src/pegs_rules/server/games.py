"""The games a server is running: :class:`Registry` creates them, checks tokens, routes moves.

Each game is a :class:`LiveGame`: its stored record, the position reached by
replaying it, and the connections watching it. Moves are judged by the
library (:func:`~pegs_rules.notation.parse_move`,
:func:`~pegs_rules.apply_with_events`); one move at a time per game, each
committed to the :class:`~pegs_rules.server.store.Store` before anyone hears
of it. Bots choose on an executor (a process pool by default), never on the
event loop, so a thinking bot delays no other game.

Seeds and tokens come from :mod:`secrets`. The seed stays in the store: no
message carries it, nor any hand but the reader's own, nor the draw pile.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Protocol

from pegs_rules.board import team_of
from pegs_rules.bots import GreedyBot, make_bot
from pegs_rules.errors import AmbiguousMoveError, IllegalMoveError, NotationError, PegsError
from pegs_rules.events import Event, apply_with_events
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import Move
from pegs_rules.notation import parse_move
from pegs_rules.records import GameRecord
from pegs_rules.render import svg
from pegs_rules.rules import Rules
from pegs_rules.server import protocol
from pegs_rules.server.protocol import ProtocolError
from pegs_rules.server.store import Store, StoredGame, StoredMove
from pegs_rules.state import GameState
from pegs_rules.turn import apply
from pegs_rules.views import PlayerView, view

log = logging.getLogger("pegs_rules.server")

HUMAN = "human"
"""The seat kind of a person, who joins with a token."""
MAX_BOT_SECONDS = 5.0
"""The longest an ``mcts:SECONDSs`` bot may think."""
MAX_BOT_ITERATIONS = 20_000
"""The most iterations an ``mcts:N`` bot may take."""


class Connection(Protocol):
    """Someone a game sends messages to: a seat's or a spectator's WebSocket."""

    seat: int | None
    board: bool

    def send(self, text: str) -> None:
        """Queue ``text`` for sending; never blocks."""
        ...

    def close(self, code: str) -> None:
        """Send an ``error`` with ``code`` and close."""
        ...


def token_hash(token: str) -> str:
    """The SHA-256 hex digest a store keeps in place of ``token``."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def check_seat_kind(kind: object) -> str:
    """``kind`` if it is ``"human"`` or a bot the server will run; :class:`ValueError` if not."""
    if not isinstance(kind, str):
        raise ValueError(f"a seat is 'human' or a bot name, not {kind!r}")
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


def bot_move(kind: str, seed: int, seen: PlayerView, moves: tuple[Move, ...]) -> Move:
    """The move the bot ``kind`` seeded with ``seed`` chooses (run on the bot executor)."""
    return make_bot(kind, seed).choose(seen, moves)


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


@dataclass(eq=False)
class LiveGame:
    """A game in play on this server."""

    stored: StoredGame
    state: GameState
    last: tuple[str, tuple[Event, ...]] | None
    """The move that led to ``state``, in notation, and its events."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: list[Connection] = field(default_factory=list)
    bots: asyncio.Task[None] | None = None
    _board: tuple[int, str] | None = None

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

    def message_for(self, connection: Connection, legal: tuple[Move, ...]) -> str:
        board = self.board() if connection.board else None
        return protocol.state_message(self.state, connection.seat, self.last, legal, board)

    def seat_of(self, token: str) -> int | None:
        """The seat ``token`` belongs to, ``None`` for the spectator token; KeyError otherwise."""
        digest = token_hash(token)
        if hmac.compare_digest(self.stored.spectator_hash, digest):
            return None
        for seat, known in enumerate(self.stored.token_hashes):
            if known is not None and hmac.compare_digest(known, digest):
                return seat
        raise KeyError(token)


@dataclass(frozen=True, slots=True)
class Created:
    """A new game: its id, the token of each human seat and the spectator token."""

    id: str
    tokens: dict[int, str]
    spectator: str


class Registry:
    """Every game of one server process (games are pinned to the process that runs them).

    Args:
        store: where games are kept.
        bot_executor: where bots think (``None``: a thread of the default executor).
        max_games: how many unfinished games may be in play at once.
    """

    def __init__(self, store: Store, bot_executor: Executor | None, max_games: int) -> None:
        self.store = store
        self.bot_executor = bot_executor
        self.max_games = max_games
        self.games: dict[str, LiveGame] = {}
        self.broken: dict[str, str] = {}
        self._io = ThreadPoolExecutor(1, thread_name_prefix="pegs-store")
        self._pending: list[tuple[StoredMove, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def _store(self, call: Callable[..., object], *args: object) -> None:
        await asyncio.get_running_loop().run_in_executor(self._io, call, *args)

    async def _durable(self, move: StoredMove) -> None:
        """Return once ``move`` is committed; moves arriving meanwhile share a commit."""
        done = asyncio.get_running_loop().create_future()
        self._pending.append((move, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write())
        await done

    async def _write(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            moves = [move for move, _ in batch]
            try:
                await self._store(self.store.add_moves, moves)
                outcomes: list[BaseException | None] = [None] * len(batch)
            except PegsError as error:  # one bad move must not sink the others: one at a time
                if len(batch) == 1:
                    outcomes = [error]
                else:
                    outcomes = []
                    for move in moves:
                        try:
                            await self._store(self.store.add_moves, [move])
                            outcomes.append(None)
                        except PegsError as single:
                            outcomes.append(single)
            for (_, done), outcome in zip(batch, outcomes, strict=True):
                if outcome is None:
                    done.set_result(None)
                else:
                    done.set_exception(outcome)

    # -- loading and creating -----------------------------------------------------------

    async def start(self) -> None:
        """Load every unfinished game from the store and set its bots going."""
        loop = asyncio.get_running_loop()
        ids = await loop.run_in_executor(self._io, self.store.active_ids)
        for game_id in ids:
            try:
                stored = await loop.run_in_executor(self._io, self.store.load, game_id)
                if stored is None:
                    continue
                self.games[game_id] = self._rebuild(stored)
            except PegsError as error:
                self.broken[game_id] = str(error)
                log.error("game %s cannot be resumed: %s", game_id, error)
        for game in self.games.values():
            self._wake_bots(game)
        log.info("resumed %d games (%d damaged)", len(self.games), len(self.broken))

    def _rebuild(self, stored: StoredGame) -> LiveGame:
        """Replay a stored record: the position, and the events of its last move."""
        record = stored.record
        state = record.start()
        last: tuple[str, tuple[Event, ...]] | None = None
        for ply, text in enumerate(record.moves):
            try:
                move = parse_move(state, text)
                if ply == len(record.moves) - 1:
                    state, events = apply_with_events(state, move)
                    last = (text, events)
                else:
                    state = apply(state, move)
            except PegsError as error:
                raise PegsError(
                    f"game {stored.id}: move {ply + 1} {text!r} does not replay: {error}"
                ) from None
        return LiveGame(stored, state, last)

    async def create(self, rules: Rules, players: int, seats: tuple[str, ...]) -> Created:
        """Deal a new game from a secret seed and store it."""
        if sum(not g.state.is_over for g in self.games.values()) >= self.max_games:
            raise ProtocolError("unavailable", "the server is running as many games as it may")
        game_id = secrets.token_urlsafe(9)
        tokens = {s: secrets.token_urlsafe(24) for s, kind in enumerate(seats) if kind == HUMAN}
        spectator = secrets.token_urlsafe(24)
        record = GameRecord(rules=rules, players=players, seed=secrets.randbits(64))
        stored = StoredGame(
            game_id,
            record,
            seats,
            tuple(token_hash(tokens[s]) if s in tokens else None for s in range(players)),
            token_hash(spectator),
        )
        await self._store(self.store.create, stored)
        game = LiveGame(stored, record.start(), None)
        self.games[game_id] = game
        self._wake_bots(game)
        return Created(game_id, tokens, spectator)

    async def find(self, game_id: str) -> LiveGame | None:
        """The game in play, or a finished one rebuilt from the store; ``None`` if unknown."""
        if game_id in self.games:
            return self.games[game_id]
        loop = asyncio.get_running_loop()
        stored = await loop.run_in_executor(self._io, self.store.load, game_id)
        return None if stored is None else self._rebuild(stored)

    async def record(self, game_id: str) -> GameRecord | None:
        """The record of a finished game, ``None`` if there is no such game.

        Raises :class:`ProtocolError` (``unavailable``) while the game is in play.
        """
        loop = asyncio.get_running_loop()
        stored = await loop.run_in_executor(self._io, self.store.load, game_id)
        if stored is None:
            return None
        if not stored.finished:
            raise ProtocolError("unavailable", "the game is still in play")
        return stored.record

    # -- connections --------------------------------------------------------------------

    async def join(self, game_id: str, token: str, connection: Connection) -> LiveGame:
        """Attach ``connection`` to a game by token; it is told its seat and the position."""
        if game_id in self.broken:
            raise ProtocolError(
                "unavailable", f"the game cannot be resumed: {self.broken[game_id]}"
            )
        try:
            game = await self.find(game_id)  # a finished game comes back from the store
        except PegsError:
            raise ProtocolError("unavailable", "the game's record is damaged") from None
        if game is None:
            raise ProtocolError("bad_token")
        try:
            seat = game.seat_of(token)
        except KeyError:
            raise ProtocolError("bad_token") from None
        connection.seat = seat
        if seat is not None:
            for old in [c for c in game.connections if c.seat == seat]:
                game.connections.remove(old)
                old.close("replaced")
        elif sum(c.seat is None for c in game.connections) >= 64:
            raise ProtocolError("unavailable", "this game has as many spectators as it may")
        game.connections.append(connection)
        self.games.setdefault(game_id, game)
        rules = game.state.rules.name
        connection.send(protocol.welcome(game.id, seat, game.seats, rules))
        legal = legal_moves(game.state) if not game.state.is_over else ()
        connection.send(game.message_for(connection, legal))
        return game

    def leave(self, game: LiveGame, connection: Connection) -> None:
        if connection in game.connections:
            game.connections.remove(connection)
        if game.state.is_over and not game.connections:
            self.games.pop(game.id, None)

    # -- moves ----------------------------------------------------------------------------

    async def play(self, game: LiveGame, seat: int | None, request: protocol.MoveRequest) -> None:
        """Judge and, if legal, make a seat's move; :class:`ProtocolError` if refused.

        An illegal move raises :class:`IllegalMoveError` (the rule and its reason).
        """
        if seat is None:
            raise ProtocolError("spectator")
        async with game.lock:
            state = game.state
            if state.is_over:
                raise ProtocolError("game_over", f"the game is over: team {state.winner} won")
            if seat != state.turn:
                raise ProtocolError("not_your_turn", f"it is seat {state.turn}'s turn")
            if request.ply is not None and request.ply != state.ply:
                raise ProtocolError("stale", f"the game is at ply {state.ply}, not {request.ply}")
            try:
                move = parse_move(state, request.move)
            except AmbiguousMoveError as error:
                candidates = [str(move) for move in error.candidates]
                raise ProtocolError("ambiguous", str(error), candidates) from None
            except IllegalMoveError:
                raise
            except NotationError as error:
                raise ProtocolError("notation", str(error)) from None
            await self._commit(game, move)
        self._wake_bots(game)

    async def _commit(self, game: LiveGame, move: Move) -> None:
        """Store ``move`` durably, then make it and tell everyone (the game's lock held)."""
        after, events = apply_with_events(game.state, move)
        try:
            await self._durable(StoredMove(game.id, game.state.ply, str(move), after.is_over))
        except PegsError as error:
            log.error("game %s: %s", game.id, error)
            raise ProtocolError("server_error") from None
        game.state, game.last = after, (str(move), events)
        legal = legal_moves(after) if not after.is_over else ()
        for connection in list(game.connections):
            connection.send(game.message_for(connection, legal))

    # -- bots -------------------------------------------------------------------------------

    def _wake_bots(self, game: LiveGame) -> None:
        state = game.state
        waiting = not state.is_over and game.seats[state.turn] != HUMAN
        if waiting and (game.bots is None or game.bots.done()):
            game.bots = asyncio.get_running_loop().create_task(self._run_bots(game))

    async def _run_bots(self, game: LiveGame) -> None:
        """Play the bots' turns until a person is to act or the game ends."""
        loop = asyncio.get_running_loop()
        while not game.state.is_over and game.seats[game.state.turn] != HUMAN:
            state = game.state
            kind = game.seats[state.turn]
            seen, legal = view(state, state.turn), legal_moves(state)
            seed = secrets.randbits(32)
            try:
                move = await loop.run_in_executor(
                    self.bot_executor, bot_move, kind, seed, seen, legal
                )
            except Exception as error:  # a broken worker: the seat still gets a legal move
                log.error("game %s: bot %s failed (%r); playing greedy", game.id, kind, error)
                move = GreedyBot(seed).choose(seen, legal)
            async with game.lock:
                if game.state is not state or move not in legal:
                    continue
                try:
                    await self._commit(game, move)
                except ProtocolError:
                    await asyncio.sleep(1.0)  # the store failed: try again shortly

    async def close(self) -> None:
        """Stop the bots and release the store."""
        tasks = [g.bots for g in self.games.values() if g.bots is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._io.shutdown(wait=True)
        self.store.close()


def summary(game: LiveGame) -> dict[str, object]:
    """What anyone with the game's id may know: seats, ply, turn, winner, who is connected."""
    state = game.state
    present = {c.seat for c in game.connections if c.seat is not None}
    return {
        "id": game.id,
        "players": state.players,
        "rules": state.rules.name,
        "seats": list(game.seats),
        "connected": sorted(present),
        "ply": state.ply,
        "turn": state.turn,
        "winner": state.winner,
        "teams": [[s for s in range(state.players) if team_of(s) == t] for t in (0, 1)],
    }
