"""Where and when bots think: :class:`Thinking` shares the bot workers fairly between games.

Two kinds of bot, two lanes:

* **Quick bots** (``random``, ``easy``, ``greedy``, ``medium``: no search,
  about a millisecond a move) think in a process of their own (a thread of
  the server process with ``--bot-workers 0``), one move at a time; they
  never wait behind a searching bot.
* **Searching bots** (``mcts``, ``hard``, ``expert``, with any budget) think
  on the bot workers (processes; a thread with ``--bot-workers 0``), at most
  one move a worker at once. A game has one bot to act at a time. A free
  worker goes to the waiting game that has had the least of the workers'
  time lately (the budgets it was given, fading by half every
  :data:`HALF_LIFE` seconds), so with ``n`` games wanting bot time each gets
  at least a ``1/n`` share of it, however short or long its bots' searches:
  a game of quick searches among games of long ones moves as soon as a
  worker is free, rather than once a round. A search that has seen
  :data:`FAIR_ROUND` seconds a worker given to others since it asked goes
  before any that has not (the oldest first), so no game waits for ever
  behind games of shorter searches. And a
  search is cut to its share when others wait: each time a game's bot joins
  the queue, the budget of every search waiting is cut to ``FAIR_ROUND *
  workers / n`` seconds (``n`` the searches waiting or running, the new one
  included) if it was larger. What a worker thinks before a search has its
  turn is then at most the searches it finds running (up to
  :data:`~pegs_rules.server.games.MAX_BOT_SECONDS`), those it lets go first
  while it is not yet late (:data:`FAIR_ROUND` a worker, and the one that
  makes it late, at most as much again) and those older than it (cut to
  :data:`FAIR_ROUND` a worker in all): **a searching bot starts thinking
  within** ``3 * FAIR_ROUND + MAX_BOT_SECONDS`` **(20) seconds of its
  turn**, whatever the other games' bots are and however many wait (the
  time to hand a position to a worker aside). A search alone thinks its full
  budget; under load, searches get shorter, not later.

Budgets are seconds of the worker's processor time
(:data:`~pegs_rules.bots.thinking_time`), as the bots count them.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field

from pegs_rules.bots import ExpertBot, MctsBot, make_bot
from pegs_rules.moves import Move
from pegs_rules.seeding import derive_seed
from pegs_rules.server import metrics
from pegs_rules.server.games import MAX_BOT_SECONDS
from pegs_rules.views import PlayerView

FAIR_ROUND = 5.0
"""Seconds a worker of searches cut to share, and of searches let go first (then it goes first)."""
HALF_LIFE = 5.0
"""Seconds over which a game's use of the workers fades by half (who goes next: the least)."""


@functools.lru_cache(maxsize=64)
def searches(kind: str) -> bool:
    """Whether the bot ``kind`` searches (its moves take a budget), rather than moving at once."""
    return isinstance(make_bot(kind), (MctsBot, ExpertBot))


@functools.lru_cache(maxsize=64)
def budget(kind: str) -> float:
    """The most seconds the searching bot ``kind`` thinks a move: its own limit, at most
    :data:`~pegs_rules.server.games.MAX_BOT_SECONDS`."""
    bot = make_bot(kind)
    if not isinstance(bot, (MctsBot, ExpertBot)):
        return MAX_BOT_SECONDS
    return min(MAX_BOT_SECONDS, bot.time_limit or bot.max_seconds)


def bot_seed(game_seed: int, seat: int, ply: int) -> int:
    """The seed of the bot at ``seat`` choosing the move of ``ply`` in the game dealt from
    ``game_seed`` (the store's secret): HMAC-SHA-256 keyed with the game's seed
    (:func:`~pegs_rules.seeding.derive_seed`), so a bot learns nothing of the deal from it, and
    a bot on a playout budget that finished within the time allowed chooses the same move
    again from the stored game."""
    return derive_seed(game_seed, "server", "bot", f"seat {seat}", f"ply {ply}")


def bot_move(
    kind: str, seed: int, seen: PlayerView, moves: tuple[Move, ...], seconds: float
) -> Move:
    """The move the bot ``kind`` seeded with ``seed`` chooses, thinking at most ``seconds``
    (run on a bot worker or the quick lane)."""
    bot = make_bot(kind, seed)
    if isinstance(bot, (MctsBot, ExpertBot)):
        if bot.time_limit is not None:
            bot.time_limit = min(bot.time_limit, seconds)
        bot.max_seconds = min(bot.max_seconds, seconds)
    return bot.choose(seen, moves)


@dataclass(eq=False)
class Search:
    """A searching bot's move for ``game``, waiting for a worker since the workers had
    been given ``since`` seconds in all, with the budget it will have."""

    seconds: float
    game: str
    since: float
    turn: asyncio.Future[None] = field(default_factory=asyncio.Future)


@dataclass
class Use:
    """A game's use of the workers: seconds given, fading by half every :data:`HALF_LIFE`."""

    seconds: float = 0.0
    at: float = 0.0

    def now(self, at: float) -> float:
        """The faded use at time ``at``."""
        return float(self.seconds * 0.5 ** ((at - self.at) / HALF_LIFE))

    def add(self, seconds: float, at: float) -> None:
        self.seconds, self.at = self.now(at) + seconds, at


class Thinking:
    """The bots of every game on one server: a quick lane, and fair turns on the workers.

    Args:
        workers: the executor searching bots think on (``None``: a thread of this process).
        slots: how many moves it thinks at once (its workers).
        quick: the executor quick bots think on, one at a time (``None``: a thread of this
            process).
    """

    def __init__(
        self, workers: Executor | None = None, slots: int = 1, quick: Executor | None = None
    ) -> None:
        self.quick = quick or ThreadPoolExecutor(1, thread_name_prefix="pegs-quick-bots")
        self.workers = workers or ThreadPoolExecutor(1, thread_name_prefix="pegs-bots")
        self.slots = max(1, slots)
        self.waiting: list[Search] = []
        self.running = 0
        self.used: dict[str, Use] = collections.defaultdict(Use)
        self.given = 0.0
        """Seconds of searching given to the workers so far."""
        metrics.BOT_QUEUE.set_function(lambda: len(self.waiting))
        for lane in (self.quick, self.workers):  # a pool starts its processes when first used:
            lane.submit(searches, "greedy")  # now, not when the first bot is to move

    async def choose(
        self, kind: str, seed: int, seen: PlayerView, moves: tuple[Move, ...], game: str = ""
    ) -> Move:
        """The bot's move for ``game``, once it has had its turn to think."""
        loop = asyncio.get_running_loop()
        if not searches(kind):
            return await loop.run_in_executor(
                self.quick, bot_move, kind, seed, seen, moves, MAX_BOT_SECONDS
            )
        queued_at = loop.time()
        search = Search(budget(kind), game, self.given)
        self.waiting.append(search)
        share = FAIR_ROUND * self.slots / (len(self.waiting) + self.running)
        for queued in self.waiting:
            queued.seconds = min(queued.seconds, share)
        self._next()
        try:
            await search.turn
        except asyncio.CancelledError:
            if search.turn.done() and not search.turn.cancelled():
                self._done()  # it was given a worker it will not use
            else:
                self.waiting.remove(search)
            raise
        metrics.BOT_WAIT.observe(loop.time() - queued_at)
        job = self.workers.submit(bot_move, kind, seed, seen, moves, search.seconds)
        job.add_done_callback(lambda _: self._done_soon(loop))
        return await asyncio.wrap_future(job)

    def _next(self) -> None:
        """Give free workers to the searches whose games used them least lately (those
        late first, the oldest first)."""
        if not self.waiting:
            return
        now = asyncio.get_running_loop().time()
        while self.waiting and self.running < self.slots:
            first = min(self.waiting, key=lambda s: self._priority(s, now))
            self.waiting.remove(first)
            self.used[first.game].add(first.seconds, now)
            self.given += first.seconds
            self.running += 1
            first.turn.set_result(None)
        for game in [g for g, use in self.used.items() if use.now(now) < 1e-3]:
            del self.used[game]  # long idle: forgotten

    def _priority(self, search: Search, now: float) -> tuple[bool, float]:
        """Who goes first: a search that let others go long enough (the oldest), else the game
        that used least."""
        late = self.given - search.since >= FAIR_ROUND * self.slots
        use = self.used[search.game].now(now) if search.game in self.used else 0.0
        return (not late, search.since if late else use)

    def _done(self) -> None:
        self.running -= 1
        self._next()

    def _done_soon(self, loop: asyncio.AbstractEventLoop) -> None:
        """:meth:`_done`, from a worker's thread (unless the loop has closed: nothing to run)."""
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._done)

    def close(self) -> None:
        """Stop the lanes' threads (process pools are their owner's to shut down)."""
        for lane in (self.quick, self.workers):
            if isinstance(lane, ThreadPoolExecutor):
                lane.shutdown(wait=False, cancel_futures=True)
