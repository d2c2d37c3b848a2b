"""The games of one server process: :class:`Registry` creates them, checks tokens, routes moves.

Any number of server processes may share one store (PostgreSQL); each holds
in memory the games its connections watch and the games whose bots it runs.

* **A move is judged once.** A seat's move is judged against the position
  this server holds, under the game's lock, and stored; the store refuses a
  second move for a ply (:class:`~pegs_rules.server.store.PlyTaken`), in
  which case this server reads the moves it missed and judges the request
  again against the new position.
* **Everyone hears of it.** The server that stored a move tells its own
  connections at once; every other server hears of it from the store
  (:meth:`~pegs_rules.server.store.Store.listen`) and makes it too, in ply
  order, reading the store for any it missed.
* **Bots run where the lease is.** Each server beats every
  :data:`BEAT_SECONDS`: it renews the leases of the games whose bots it runs,
  and claims games whose lease ran out (not renewed for
  :data:`LEASE_SECONDS`: their server is gone).
* **The store may fail for a while** (a database restart, an outage): what
  it could not do is answered "try again" (:data:`~pegs_rules.server.games.UNREACHABLE`),
  never taken for damage; the game is read again from the store once it
  answers (a move whose commit failed may have been stored after all), and
  the bots try again. Only a record that does not replay
  (:class:`~pegs_rules.server.store.Damaged`) marks a game damaged. The
  server logs one line when the store stops answering and one when it is back.
* **Abandoned games go** (:class:`Expiry`): the servers remove them from the
  store now and then, and close their connections.

Bots choose on :class:`~pegs_rules.server.thinking.Thinking`, never on the
event loop, so a thinking bot delays no other game, and the bot workers are
shared fairly between games. Store calls run on threads.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from pegs_rules.bots import GreedyBot
from pegs_rules.errors import AmbiguousMoveError, IllegalMoveError, NotationError, PegsError
from pegs_rules.events import apply_with_events
from pegs_rules.moves import Move
from pegs_rules.notation import parse_move
from pegs_rules.records import GameRecord
from pegs_rules.rules import Rules
from pegs_rules.server import metrics, protocol
from pegs_rules.server.games import (
    CHECKPOINT,
    DAMAGED,
    HUMAN,
    REMOVED,
    REMOVED_BOTS,
    REMOVED_BY_OPERATOR,
    UNREACHABLE,
    Connection,
    Last,
    LiveGame,
    advance,
    next_id,
    rebuild,
    seat_of,
    snapshot_of,
    summary,
    token_hash,
)
from pegs_rules.server.protocol import ProtocolError
from pegs_rules.server.store import (
    Damaged,
    GameRemoved,
    ListedGame,
    Notice,
    PlyTaken,
    SeatTaken,
    Store,
    StoredGame,
    StoredMove,
    StoreError,
)
from pegs_rules.server.thinking import Thinking, bot_seed
from pegs_rules.state import GameState
from pegs_rules.views import view

log = logging.getLogger("pegs_rules.server")

T = TypeVar("T")

BEAT_SECONDS = 1.0
"""How often a server renews its leases and claims games left without a server."""
LEASE_SECONDS = 4.0
"""A lease not renewed for this long runs out: its game goes to another server."""
CLAIM_AT_ONCE = 20
"""The most games a server claims in one beat (survivors share a dead server's games)."""
SWEEP_SECONDS = 3600.0
"""Servers dead this long are forgotten, with their seats."""
MAX_SPECTATORS = 64
"""Spectator connections a game may have on one server."""
MAX_GAMES_PER_CLIENT = 20
"""Unfinished games one client address may have asked for at once (counted in the store)."""
UNJOINED_SECONDS = 3600.0
"""Seconds a game with a seat for a person waits, with no move, for a person to join."""
IDLE_SECONDS = 86_400.0
"""Seconds an unfinished game may go without a move."""
FINISHED_SECONDS = 30 * 86_400.0
"""Seconds a finished game's record is kept."""
BOTS_SECONDS = 3600.0
"""Seconds a game of bots alone (no seat for a person) may run: unfinished then, it is removed."""
LISTED = 20
"""The most open games listed at once."""
RETRY_SECONDS = 1.0
"""How long a bot waits before trying again to store a move the store failed."""
READY_SECONDS = 5.0
"""The store counts as reachable while a call succeeded this recently (the beat makes one a second)."""


@dataclass(frozen=True, slots=True)
class Expiry:
    """When a game nobody plays is removed (see :meth:`~pegs_rules.server.store.Store.expire`).

    Attributes:
        unjoined: seconds a game with a seat for a person may wait, with no
            move, for a person to join it (an hour).
        idle: seconds an unfinished game may go without a move (a day).
        finished: seconds a finished game's record is kept after its last
            move (30 days).
        bots: seconds a game of bots alone may run, from its creation (an hour).
    """

    unjoined: float = UNJOINED_SECONDS
    idle: float = IDLE_SECONDS
    finished: float = FINISHED_SECONDS
    bots: float = BOTS_SECONDS

    @property
    def every(self) -> int:
        """Beats between two looks for games to remove: a tenth of the shortest time, at most
        a minute."""
        shortest = min(self.unjoined, self.idle, self.bots)
        return max(1, min(60, round(shortest / 10 / BEAT_SECONDS)))


class TooManyGames(Exception):
    """A client asked for a game while it has as many unfinished ones as it may."""


class Full(ProtocolError):
    """The store holds as many unfinished games as the server allows (``unavailable``)."""


@dataclass(frozen=True, slots=True)
class Created:
    """A new game: its id, the token of each human seat and the spectator token."""

    id: str
    tokens: dict[int, str]
    spectator: str


class Registry:
    """Every game this server process holds.

    Args:
        store: where games are kept (shared with any other server on it).
        thinking: where bots think (``None``: threads of this process).
        max_games: how many unfinished games the store may hold at once.
        server: this server's name in the store (default: a new random one).
        games_per_client: how many unfinished games one client may have asked for.
        expiry: when games nobody plays are removed.
    """

    def __init__(
        self,
        store: Store,
        thinking: Thinking | None,
        max_games: int,
        server: str | None = None,
        *,
        games_per_client: int = MAX_GAMES_PER_CLIENT,
        expiry: Expiry = Expiry(),
    ) -> None:
        self.store = store
        self.thinking = thinking or Thinking()
        self.max_games = max_games
        self.games_per_client = games_per_client
        self.expiry = expiry
        self.server = server or secrets.token_hex(8)
        self.games: dict[str, LiveGame] = {}
        self.leased: set[str] = set()
        self.damaged: set[str] = set()
        self._opening: dict[str, asyncio.Task[LiveGame]] = {}
        self._joining: collections.Counter[str] = collections.Counter()
        self._io = ThreadPoolExecutor(2, thread_name_prefix="pegs-store")
        self._pending: list[tuple[StoredMove, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._beating: asyncio.Task[None] | None = None
        self._chores: set[asyncio.Task[Any]] = set()
        self.answered = time.monotonic()
        """When the store last answered a call."""
        self.down: tuple[float, int] | None = None
        """While the store fails: since when, and how many calls failed."""
        metrics.GAMES.set_function(lambda: len(self.games))
        metrics.BOT_GAMES.set_function(lambda: len(self.leased))
        metrics.DATABASE_UP.set_function(lambda: self.ready)

    # -- the store, off the event loop ------------------------------------------------------

    @property
    def ready(self) -> bool:
        """Whether the store answers: its last call succeeded, and recently."""
        return self.down is None and time.monotonic() - self.answered < READY_SECONDS

    async def _call(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` on a store thread; a failure of the store is logged when it starts
        and when it ends, in one line each."""
        started = time.monotonic()
        try:
            result = await asyncio.get_running_loop().run_in_executor(self._io, call, *args)
        except (Damaged, PlyTaken):
            self._answered()  # the store answered: what it holds is another matter
            raise
        except StoreError as error:
            if self.down is None:
                log.error("server %s: the store fails: %s", self.server, error)
                self.down = (time.monotonic(), 0)
            self.down = (self.down[0], self.down[1] + 1)
            raise
        finally:
            name = getattr(call, "__name__", "call")
            metrics.STORE_SECONDS.labels(name).observe(time.monotonic() - started)
        self._answered()
        return result

    def _answered(self) -> None:
        self.answered = time.monotonic()
        if self.down is not None:
            since, failed = self.down
            self.down = None
            log.warning(
                "server %s: the store answers again after %.1f s (%d calls failed meanwhile)",
                self.server,
                self.answered - since,
                failed,
            )

    def _later(self, call: Callable[..., object], *args: Any) -> None:
        """Run a store call that nobody waits for (its failure counts in :attr:`down`)."""

        async def chore() -> None:
            with contextlib.suppress(StoreError):
                await self._call(call, *args)

        task = asyncio.create_task(chore())
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

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
                await self._call(self.store.add_moves, moves)
                outcomes: list[BaseException | None] = [None] * len(batch)
            except StoreError as error:  # one refused move must not sink the others
                if len(batch) == 1 or not isinstance(error, PlyTaken):
                    outcomes = [error] * len(batch)
                else:
                    outcomes = []
                    for move in moves:
                        try:
                            await self._call(self.store.add_moves, [move])
                            outcomes.append(None)
                        except StoreError as single:
                            outcomes.append(single)
            for (_, done), outcome in zip(batch, outcomes, strict=True):
                if done.done():  # its waiter was cancelled (its bots stopped, say)
                    continue
                if outcome is None:
                    done.set_result(None)
                else:
                    done.set_exception(outcome)

    # -- starting, beating, stopping ------------------------------------------------------------

    async def start(self) -> None:
        """Listen to the store, take a place among its servers and set the bots of its games going."""
        loop = asyncio.get_running_loop()

        def deliver(notice: Notice | None) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody to tell
                loop.call_soon_threadsafe(self._heard, notice)

        await self._call(self.store.listen, deliver)
        await self._beat()
        self._beating = asyncio.create_task(self._beat_forever())
        log.info("server %s: running the bots of %d games", self.server, len(self.leased))

    async def _beat_forever(self) -> None:
        beats = 0
        while True:
            await asyncio.sleep(BEAT_SECONDS)
            beats += 1
            with contextlib.suppress(StoreError):  # counted in self.down, logged there
                await self._beat()
                if beats % self.expiry.every == 0:
                    await self._expire()
                if beats % 600 == 0:
                    await self._call(self.store.sweep, SWEEP_SECONDS)

    async def _beat(self) -> None:
        """Renew this server's leases, claim free ones, and act on the difference; catch up
        the games the store could not be read for."""
        before = set(self.leased)
        held = await self._call(self.store.lease, self.server, LEASE_SECONDS, CLAIM_AT_ONCE)
        lost = before - held
        self.leased = (self.leased - lost) | held  # games created meanwhile stay leased
        for game_id in lost:
            game = self.games.get(game_id)
            if game is not None:
                log.warning("server %s: lost the lease of game %s", self.server, game_id)
                self._stop_bots(game)
                self._forget_if_idle(game)
        for game_id in held - self.damaged:
            game = self.games.get(game_id)
            if game is None:  # newly claimed, or not loaded when the store failed
                try:
                    stored = await self._call(self.store.load, game_id)
                    if stored is None or stored.finished:
                        continue
                    game = await self._open(stored)
                except Damaged as error:
                    self._damage(game_id, error)
                    continue
            self._wake_bots(game)
        for game in list(self.games.values()):
            if game.stale:
                self._follow(game)

    async def _expire(self) -> None:
        """Remove the games nobody plays (every server asks; each game goes once)."""
        expiry = self.expiry
        gone = await self._call(
            self.store.expire, expiry.unjoined, expiry.idle, expiry.finished, expiry.bots
        )
        if gone:
            metrics.EXPIRED.inc(len(gone))
            log.info("server %s: removed %d games nobody played", self.server, len(gone))

    async def close(self) -> None:
        """Stop the bots, give up this server's leases and seats, and release the store."""
        if self._beating is not None:
            self._beating.cancel()
        tasks = [g.bots for g in self.games.values() if g.bots is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, *self._chores, return_exceptions=True)
        with contextlib.suppress(StoreError):  # its leases then run out by themselves
            await self._call(self.store.release, self.server)
        self._io.shutdown(wait=True)
        self.thinking.close()
        self.store.close()

    # -- loading and creating -------------------------------------------------------------------

    async def _open(self, stored: StoredGame) -> LiveGame:
        """The game in memory, rebuilt from the store if it is not (once, however many ask)."""
        game = self.games.get(stored.id)
        if game is not None:
            return game
        task = self._opening.get(stored.id)
        if task is None:
            task = asyncio.create_task(self._load(stored))
            self._opening[stored.id] = task
            task.add_done_callback(lambda _: self._opening.pop(stored.id, None))
        return await asyncio.shield(task)

    async def _load(self, stored: StoredGame) -> LiveGame:
        snapshot = await self._call(self.store.snapshot, stored.id)
        moves = await self._call(self.store.moves, stored.id, snapshot.ply if snapshot else 0)
        try:
            game = rebuild(stored, snapshot, moves)
        except Damaged as error:
            if snapshot is None:
                raise
            log.warning("%s; replaying it from the deal", error)
            game = rebuild(stored, None, await self._call(self.store.moves, stored.id, 0))
        self.games[stored.id] = game
        self._follow(game, from_store=True)  # moves stored while it loaded
        return game

    async def create(
        self,
        rules: Rules,
        players: int,
        seats: tuple[str, ...],
        creator: str | None = None,
        listed: bool = False,
    ) -> Created:
        """Deal a new game from a secret seed and store it; this server runs its bots.

        ``creator`` is the client asking (a :func:`~pegs_rules.server.limits.client_key`):
        :class:`TooManyGames` if it has :attr:`games_per_client` unfinished games already.
        A ``listed`` game is open to anyone (:meth:`listed`), all its seats for a person
        but the first (the creator's) free to claim.
        """
        await self._check_room(creator)
        game_id = secrets.token_urlsafe(9)
        tokens = {s: secrets.token_urlsafe(24) for s, kind in enumerate(seats) if kind == HUMAN}
        spectator = secrets.token_urlsafe(24)
        hashes = tuple(token_hash(tokens[s]) if s in tokens else None for s in range(players))
        own = tuple(sorted(tokens)[:1]) if listed else None
        await self._store_new(game_id, rules, seats, hashes, token_hash(spectator), creator, own)
        return Created(game_id, tokens, spectator)

    async def listed(self) -> list[ListedGame]:
        """The games open to anyone with a free seat, the newest first."""
        return await self._call(self.store.listed, LISTED)

    async def claim(self, game_id: str) -> tuple[int, str] | None:
        """A free seat of the open game ``game_id`` and its new token; ``None`` if it has none."""
        stored = await self._call(self.store.load, game_id)
        for seat, known in enumerate(stored.token_hashes if stored else ()):
            token = secrets.token_urlsafe(24)
            if known is not None and await self._call(
                self.store.claim_seat, game_id, seat, token_hash(token)
            ):
                return seat, token
        return None

    async def again(self, game_id: str, token: str, creator: str | None = None) -> str | None:
        """The game that follows the finished game ``game_id``, dealt afresh for the same seats
        and tokens if nobody asked for it yet (any seat may); ``None`` if there is no such game.

        Its id is :func:`~pegs_rules.server.games.next_id` of this one's, so however many
        seats ask, on however many servers, there is one next game. Raises
        :class:`ProtocolError`: ``bad_token`` for a token not of the game, ``unavailable``
        while it is in play, or for a spectator's token before a seat asked; and
        :class:`TooManyGames` as :meth:`create` does.
        """
        stored = await self._call(self.store.load, game_id)
        if stored is None:
            return None
        try:
            seat = seat_of(stored, token)
        except KeyError:
            raise ProtocolError("bad_token") from None
        if not stored.finished:
            raise ProtocolError("unavailable", "the game is still in play")
        following = next_id(game_id)
        if await self._call(self.store.load, following) is not None:
            return following
        if seat is None:
            raise ProtocolError("unavailable", "a seat starts the next game, not a spectator")
        await self._check_room(creator)
        try:
            await self._store_new(
                following,
                stored.record.rules,
                stored.seats,
                stored.token_hashes,
                stored.spectator_hash,
                creator,
            )
        except StoreError:  # another seat, maybe on another server, was first
            if await self._call(self.store.load, following) is None:
                raise
        return following

    async def _check_room(self, creator: str | None) -> None:
        """Raise if the store holds as many games as it may, or ``creator`` as many as it may ask for."""
        if await self._call(self.store.count_active) >= self.max_games:
            raise Full("unavailable", "the server is running as many games as it may")
        mine = 0 if creator is None else await self._call(self.store.count_active, creator)
        if mine >= self.games_per_client:
            raise TooManyGames(
                f"this address has {self.games_per_client} unfinished games, the most it may"
                f" have: finish some, or wait until those nobody joined are removed (after"
                f" {self.expiry.unjoined / 60:g} minutes without a move)"
            )

    async def _store_new(
        self,
        game_id: str,
        rules: Rules,
        seats: tuple[str, ...],
        hashes: tuple[str | None, ...],
        spectator_hash: str,
        creator: str | None,
        listed: tuple[int, ...] | None = None,
    ) -> None:
        """Deal game ``game_id`` from a secret seed and store it; this server runs its bots."""
        record = GameRecord(rules=rules, players=len(seats), seed=secrets.randbits(64))
        start = record.start()
        stored = StoredGame(game_id, record, seats, hashes, spectator_hash, turn=start.turn)
        await self._call(self.store.create, stored, self.server, LEASE_SECONDS, creator, listed)
        if stored.bots:  # its bots run here; a game of people is loaded when someone joins
            game = self.games[game_id] = LiveGame(stored, start, None)
            self.leased.add(game_id)
            self._wake_bots(game)

    async def summary(self, game_id: str) -> dict[str, object] | None:
        """What anyone may know of a game, read from the store (nothing replayed); ``None`` if unknown."""
        stored = await self._call(self.store.load, game_id)
        if stored is None:
            return None
        following = None
        if stored.finished and await self._call(self.store.load, next_id(game_id)) is not None:
            following = next_id(game_id)
        return summary(stored, await self._call(self.store.connected, game_id), following)

    async def record(self, game_id: str) -> GameRecord | None:
        """The record of a finished game, ``None`` if there is no such game.

        Raises :class:`ProtocolError` (``unavailable``) while the game is in play,
        :class:`~pegs_rules.server.store.Damaged` if it does not load, and
        :class:`~pegs_rules.server.store.StoreError` if the store failed.
        """
        stored = await self._call(self.store.load, game_id)
        if stored is None:
            return None
        if not stored.finished:
            raise ProtocolError("unavailable", "the game is still in play")
        moves = await self._call(self.store.moves, game_id)
        try:
            return replace(stored.record, moves=moves)
        except PegsError as error:
            raise Damaged(f"game {game_id}: its record does not load: {error}") from None

    # -- connections ----------------------------------------------------------------------------

    async def join(self, game_id: str, token: str, connection: Connection) -> LiveGame:
        """Attach ``connection`` to a game by token; it is told its seat and the position.

        The token is checked against the stored header before anything is
        replayed; a game that no longer loads is refused with :data:`DAMAGED`,
        a join the store failed with :data:`UNREACHABLE` (to try again).
        """
        self._joining[game_id] += 1
        try:
            return await self._join(game_id, token, connection)
        except Damaged as error:
            self._damage(game_id, error)
            raise ProtocolError("unavailable", DAMAGED) from None
        except StoreError:
            raise ProtocolError("unavailable", UNREACHABLE) from None
        finally:
            self._joining[game_id] -= 1
            if not self._joining[game_id]:
                del self._joining[game_id]
            if (loaded := self.games.get(game_id)) is not None:
                self._forget_if_idle(loaded)  # loaded for a join that failed

    async def _join(self, game_id: str, token: str, connection: Connection) -> LiveGame:
        game = self.games.get(game_id)
        try:  # tokens are checked against the store: a seat claimed on any server has a new one
            stored = await self._call(self.store.load, game_id)
        except StoreError:
            if game is None:
                raise
            stored = game.stored  # the store is away: the tokens this server knew
        if stored is None:
            raise ProtocolError("bad_token")
        if game is not None and stored.token_hashes != game.stored.token_hashes:
            game.stored = replace(game.stored, token_hashes=stored.token_hashes)
        try:
            seat = seat_of(stored, token)
        except KeyError:
            raise ProtocolError("bad_token") from None
        if game_id in self.damaged:
            raise ProtocolError("unavailable", DAMAGED)
        if game is None:
            game = await self._open(stored)
        if seat is None and sum(c.seat is None for c in game.connections) >= MAX_SPECTATORS:
            raise ProtocolError("unavailable", "this game has as many spectators as it may")
        async with game.lock:  # a move being stored is shown first: the position sent is current
            if seat is not None:
                joined = await self._call(self.store.take_seat, game_id, seat, self.server)
                connection.joined = joined
                self._replace(game, seat, joined)
            connection.seat = seat
            game.connections.append(connection)
            connection.send(protocol.welcome(game.id, seat, game.seats, game.state.rules.name))
            connection.send(game.message_for(connection))
        return game

    def leave(self, game: LiveGame, connection: Connection) -> None:
        if connection in game.connections:
            game.connections.remove(connection)
            if connection.seat is not None:
                self._later(self.store.leave_seat, game.id, connection.seat, connection.joined)
        self._forget_if_idle(game)

    def _replace(self, game: LiveGame, seat: int, joined: int) -> None:
        """Close this server's connections of ``seat`` older than join number ``joined``."""
        for old in [c for c in game.connections if c.seat == seat and c.joined < joined]:
            game.connections.remove(old)
            old.close("replaced")

    def _forget_if_idle(self, game: LiveGame) -> None:
        """Drop a game nobody here watches and whose bots run elsewhere (or are done)."""
        over = game.state.is_over
        busy = game.connections or self._joining[game.id] or (game.id in self.leased and not over)
        if busy or self.games.get(game.id) is not game:
            return
        del self.games[game.id]
        if not over:
            self._stop_bots(game)
            if game.state.ply > game.snapshot_ply:
                self._later(self.store.save_snapshot, game.id, game.snapshot())

    def _damage(self, game_id: str, error: Damaged) -> None:
        """A game that no longer loads: log why, and refuse it from now on."""
        if game_id not in self.damaged:
            log.error("%s", error)
        self.damaged.add(game_id)
        self._drop(game_id, DAMAGED)

    def removed(self, game_id: str, why: str) -> None:
        """``game_id`` is gone from the store: forget it, closing its connections with ``why``."""
        self.leased.discard(game_id)
        self._drop(game_id, why)

    def _drop(self, game_id: str, why: str) -> None:
        """Forget a game at once, closing its connections with ``why``."""
        game = self.games.pop(game_id, None)
        if game is not None:
            self._stop_bots(game)
            for connection in game.connections:
                connection.close("unavailable", why)
            game.connections.clear()

    # -- moves ----------------------------------------------------------------------------------

    async def play(self, game: LiveGame, seat: int | None, request: protocol.MoveRequest) -> None:
        """Judge and, if legal, make a seat's move; :class:`ProtocolError` if refused.

        An illegal move raises :class:`IllegalMoveError` (the rule and its reason).
        """
        if seat is None:
            raise ProtocolError("spectator")
        async with game.lock:
            while True:
                move = self._judge(game.state, seat, request)
                try:
                    await self._commit(game, move, "seat")
                    break
                except PlyTaken:  # another server stored this ply first: judge again after it
                    game.stale = True
                    await self._catch_up(game)
        self._wake_bots(game)

    @staticmethod
    def _judge(state: GameState, seat: int, request: protocol.MoveRequest) -> Move:
        """The move ``request`` names in ``state``, or why it is refused."""
        if state.is_over:
            raise ProtocolError("game_over", f"the game is over: team {state.winner} won")
        if seat != state.turn:
            raise ProtocolError("not_your_turn", f"it is seat {state.turn}'s turn")
        if request.ply is not None and request.ply != state.ply:
            raise ProtocolError("stale", f"the game is at ply {state.ply}, not {request.ply}")
        try:
            return parse_move(state, request.move)
        except AmbiguousMoveError as error:
            candidates = [str(move) for move in error.candidates]
            raise ProtocolError("ambiguous", str(error), candidates) from None
        except IllegalMoveError:
            raise
        except NotationError as error:
            raise ProtocolError("notation", str(error)) from None

    async def _commit(self, game: LiveGame, move: Move, by: str) -> None:
        """Store ``move`` (made by a ``"seat"`` or a ``"bot"``) durably, then make it and tell
        everyone here (the game's lock held).

        Raises :class:`PlyTaken` if another server stored this ply first, and
        :class:`ProtocolError` (``unavailable``, :data:`UNREACHABLE`) if the store
        failed: the move may have been stored all the same, so the game is read
        from the store again once it answers.
        """
        after, events = apply_with_events(game.state, move)
        text = str(move)
        last = (text, events)
        snapshot = None
        if after.is_over or after.ply % CHECKPOINT == 0:
            snapshot = snapshot_of(after, last)
        stored = StoredMove(game.id, game.state.ply, text, after.turn, after.winner, snapshot)
        try:
            await self._durable(stored)
        except PlyTaken:
            raise
        except StoreError:
            game.stale = True
            raise ProtocolError("unavailable", UNREACHABLE) from None
        metrics.MOVES.labels(by).inc()
        if snapshot is not None:
            game.snapshot_ply = after.ply
        self._show(game, after, last)

    def _show(self, game: LiveGame, state: GameState, last: Last) -> None:
        """Make ``state`` the game's position and send it to every connection here."""
        game.state, game.last = state, last
        for connection in list(game.connections):
            connection.send(game.message_for(connection))
        if state.is_over:
            self.leased.discard(game.id)
            self._forget_if_idle(game)

    # -- following the store ----------------------------------------------------------------

    def _heard(self, notice: Notice | None) -> None:
        """A notice from the store (on the event loop)."""
        if notice is None:  # some may have been missed: read every game's moves again
            for held in list(self.games.values()):
                self._follow(held, from_store=True)
            return
        game = self.games.get(notice.game)
        if game is None:
            return
        if isinstance(notice, GameRemoved):
            why = REMOVED_BOTS if notice.ran_its_time else REMOVED
            self.removed(game.id, REMOVED_BY_OPERATOR if notice.by_operator else why)
        elif isinstance(notice, SeatTaken):
            self._replace(game, notice.seat, notice.joined)
        elif notice.ply >= game.state.ply:  # not one this server made itself
            game.heard[notice.ply] = notice.move
            self._follow(game)

    def _follow(self, game: LiveGame, from_store: bool = False) -> None:
        """Make the moves heard (and, ``from_store``, any stored) in a task of their own."""
        game.stale = game.stale or from_store
        if game.following is None or game.following.done():
            game.following = asyncio.create_task(self._follow_moves(game))

    async def _follow_moves(self, game: LiveGame) -> None:
        async with game.lock:
            await self._catch_up(game)
        self._wake_bots(game)

    async def _catch_up(self, game: LiveGame) -> None:
        """Make the moves other servers stored, in ply order (the game's lock held)."""
        try:
            while True:
                ply = game.state.ply
                text = game.heard.pop(ply, None)
                if text is not None:
                    self._show(game, *advance(game, text))
                elif game.stale or any(p > ply for p in game.heard):
                    game.stale = False
                    stored = await self._call(self.store.moves, game.id, ply)
                    for text in stored:
                        self._show(game, *advance(game, text))
                    if not stored:
                        game.heard.clear()
                else:
                    break
        except Damaged as error:
            self._damage(game.id, error)
        except StoreError:
            game.stale = True  # read again at the next beat
        for ply in [p for p in game.heard if p < game.state.ply]:
            del game.heard[ply]

    # -- bots -------------------------------------------------------------------------------

    def _wake_bots(self, game: LiveGame) -> None:
        state = game.state
        waiting = not state.is_over and game.seats[state.turn] != HUMAN
        if waiting and game.id in self.leased and (game.bots is None or game.bots.done()):
            game.bots = asyncio.get_running_loop().create_task(self._run_bots(game))

    @staticmethod
    def _stop_bots(game: LiveGame) -> None:
        if game.bots is not None:
            game.bots.cancel()
            game.bots = None

    def _bot_to_act(self, game: LiveGame) -> bool:
        """Whether this server is to play a bot's move in ``game`` now."""
        state = game.state
        return game.id in self.leased and not state.is_over and game.seats[state.turn] != HUMAN

    async def _run_bots(self, game: LiveGame) -> None:
        """Play the bots' turns while this server holds the lease and a bot is to act.

        A move the store failed to take is offered again every :data:`RETRY_SECONDS`,
        once the game is caught up with what the store holds (it may have been taken).
        Then the bot workers wait no more for its bots (:meth:`Thinking.idle`).
        """
        try:
            await self._play_bots(game)
        finally:
            self.thinking.idle(game.id)

    async def _play_bots(self, game: LiveGame) -> None:
        while self._bot_to_act(game):
            state = game.state
            kind = game.seats[state.turn]
            seen, legal = view(state, state.turn), game.legal()
            seed = bot_seed(game.stored.record.seed, state.turn, state.ply)
            try:
                move = await self.thinking.choose(kind, seed, seen, legal, game.id)
            except Exception as error:  # a broken worker: the seat still gets a legal move
                log.error("game %s: bot %s failed (%r); playing greedy", game.id, kind, error)
                move = GreedyBot(seed).choose(seen, legal)
            while True:
                async with game.lock:
                    if game.stale:
                        await self._catch_up(game)
                    if game.state is not state or not self._bot_to_act(game) or move not in legal:
                        break
                    try:
                        await self._commit(game, move, "bot")
                        break
                    except PlyTaken:  # another server played it: carry on from there
                        game.stale = True
                        await self._catch_up(game)
                        break
                    except ProtocolError:  # the store failed
                        pass
                await asyncio.sleep(RETRY_SECONDS)
