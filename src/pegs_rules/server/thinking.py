"""Where and when bots think: :class:`Thinking` shares the bot workers fairly between games.

Two kinds of bot, two lanes:

* **Quick bots** (``random``, ``easy``, ``greedy``, ``medium``: no search,
  about a millisecond a move) think in a process of their own (a thread of
  the server process with ``--bot-workers 0``), one move at a time; they
  never wait behind a searching bot.
* **Searching bots** (``mcts``, ``hard``, ``expert``, with any budget) think
  on the bot workers (processes; a thread with ``--bot-workers 0``), at most
  one move a worker at once. A game has one bot to act at a time. The games
  wanting the workers take turns in a fair order (start-time fair queuing):
  each game's time is the seconds its bots thought, and a free worker goes
  to the waiting game that has had the least; a game that asks after
  wanting none starts level with the others (the time it did not want is
  not owed to it) and no more than one share ahead (time nobody else wanted
  is not owed by it). A game's bots ask one move at a time, so a game of
  quick searches is not yet waiting when its own search ends: while it has
  had less than every game waiting (and none of them is late, below), the
  worker waits up to :data:`HOLD` seconds for its next bot (the time to
  store the move; no longer than that if it has no bot to act, see
  :meth:`Thinking.idle`), and a wait its bot does not come for counts as its
  time. So with ``n`` games wanting bot time each gets a ``1/n`` share of
  it, however short or long its bots' searches: in any window of the
  workers' time, at least ``1/n`` of it less one search cut to share (below;
  ``tests/test_server_fairness.py`` checks every 10 seconds). A search that
  has seen :data:`FAIR_ROUND` seconds a worker given to others since it
  asked goes before any that has not (the oldest first), so no game waits
  for ever. And a search is cut to its share when others wait: each time a
  game's bot joins the queue, the budget of every search of a time budget
  waiting is cut to ``FAIR_ROUND * workers / n`` seconds (``n`` the searches
  waiting or running, the new one included) if it was larger. What a worker
  thinks before a search has its turn is then at most the searches it finds
  running (up to :data:`~pegs_rules.server.games.MAX_BOT_SECONDS`), those it
  lets go first while it is not yet late (:data:`FAIR_ROUND` a worker, and
  the one that makes it late, at most as much again) and those older than it
  (cut to :data:`FAIR_ROUND` a worker in all): **a searching bot starts
  thinking within** ``3 * FAIR_ROUND + MAX_BOT_SECONDS`` **(20) seconds of
  its turn**, whatever the other games' bots are and however many wait (the
  time to hand a position to a worker, and the holds, aside). A search alone
  thinks its full budget; under load, searches get shorter, not later. A bot
  of a playout budget (``mcts:300``, ``expert``) is never cut, so that it
  chooses the same move whatever the load: it thinks its playouts (within its
  own cap of a second or three), and behind many such bots a search waits
  a round of them.

Budgets are seconds of the worker's processor time
(:data:`~pegs_rules.bots.thinking_time`), as the bots count them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from pegs_rules.bots import ExpertBot, MctsBot, make_bot, thinking_time
from pegs_rules.moves import Move
from pegs_rules.seeding import derive_seed
from pegs_rules.server import metrics
from pegs_rules.server.games import MAX_BOT_SECONDS
from pegs_rules.views import PlayerView

FAIR_ROUND = 5.0
"""Seconds a worker of searches cut to share, and of searches let go first (then it goes first)."""
HOLD = 0.25
"""Seconds a worker freed by a game owed its share waits for that game's next bot."""


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


@functools.lru_cache(maxsize=64)
def timed(kind: str) -> bool:
    """Whether the searching bot ``kind`` has a time budget (cut to its share under load),
    rather than a playout budget (never cut: the same move whatever the load)."""
    bot = make_bot(kind)
    return isinstance(bot, (MctsBot, ExpertBot)) and bot.time_limit is not None


def bot_seed(game_seed: int, seat: int, ply: int) -> int:
    """The seed of the bot at ``seat`` choosing the move of ``ply`` in the game dealt from
    ``game_seed`` (the store's secret): HMAC-SHA-256 keyed with the game's seed
    (:func:`~pegs_rules.seeding.derive_seed`), so a bot learns nothing of the deal from it, and
    a bot on a playout budget that finished within its own time cap chooses the same move
    again from the stored game."""
    return derive_seed(game_seed, "server", "bot", f"seat {seat}", f"ply {ply}")


def bot_move(
    kind: str, seed: int, seen: PlayerView, moves: tuple[Move, ...], seconds: float
) -> tuple[Move, float]:
    """The move the bot ``kind`` seeded with ``seed`` chooses, a time budget cut to at most
    ``seconds``, and the seconds it thought (run on a bot worker or the quick lane)."""
    began = thinking_time()
    bot = make_bot(kind, seed)
    if isinstance(bot, (MctsBot, ExpertBot)) and bot.time_limit is not None:
        bot.time_limit = min(bot.time_limit, seconds)
    return bot.choose(seen, moves), thinking_time() - began


@dataclass(eq=False)
class Search:
    """A searching bot's move for ``game``, waiting for a worker since the workers had
    been given ``since`` seconds in all, with the budget it will have (cut to share if
    ``timed``) and its place in the fair order (``start``: its game's time so far)."""

    seconds: float
    game: str
    since: float
    timed: bool
    start: float
    turn: asyncio.Future[None] = field(default_factory=asyncio.Future)


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
        """Workers thinking, or held for a game (:data:`HOLD`)."""
        self.held: dict[str, asyncio.TimerHandle] = {}
        """The games a worker waits for, each with the call that gives it up."""
        self.used: dict[str, float] = {}
        """Each game's time in the fair order: the seconds its bots thought added to where its
        last search started (where its next one starts, see :meth:`_place`)."""
        self.now = 0.0
        """The fair order's time: where the last search given a worker in its turn started."""
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
            move, _ = await loop.run_in_executor(
                self.quick, bot_move, kind, seed, seen, moves, MAX_BOT_SECONDS
            )
            return move
        queued_at = loop.time()
        share = FAIR_ROUND * self.slots / (len(self.waiting) + 1 + self.running)
        search = Search(budget(kind), game, self.given, timed(kind), self._place(game, share))
        self.waiting.append(search)
        for queued in self.waiting:
            if queued.timed:
                queued.seconds = min(queued.seconds, share)
        self._next()
        try:
            await search.turn
        except asyncio.CancelledError:
            if search.turn.done() and not search.turn.cancelled():
                self._free()  # it was given a worker it will not use
            else:
                self.waiting.remove(search)
            raise
        metrics.BOT_WAIT.observe(loop.time() - queued_at)
        job = self.workers.submit(bot_move, kind, seed, seen, moves, search.seconds)
        job.add_done_callback(lambda done: self._done_soon(loop, search, done))
        move, _ = await asyncio.wrap_future(job)
        return move

    def idle(self, game: str) -> None:
        """``game`` has no bot to act for now: a worker waiting for it goes to the next."""
        self.used.pop(game, None)  # its next bot asks as a new game's would
        handle = self.held.pop(game, None)
        if handle is not None:
            handle.cancel()
            self._free()

    def _next(self) -> None:
        """Give each game a worker waits for its search, then free workers to the searches
        whose games had the least time (those late first, the oldest first)."""
        for search in [s for s in self.waiting if s.game in self.held]:
            self.held.pop(search.game).cancel()
            self._start(search)
        while self.waiting and self.running < self.slots:
            self.running += 1
            self._start(min(self.waiting, key=self._priority))

    def _place(self, game: str, share: float) -> float:
        """Where a search of ``game`` starts in the fair order: at the game's time, but no
        earlier than the order's (time it wanted none of the workers is not owed to it; less a
        ``share`` for each other worker, whose searches started side by side with its own) and
        no later than a ``share`` after it (time nobody else wanted is not owed by it)."""
        earliest = self.now - share * (self.slots - 1)
        return min(max(self.used.get(game, 0.0), earliest), self.now + share)

    def _start(self, search: Search) -> None:
        if not self._late(search):  # one let go ahead of its turn moves the order's time not
            self.now = max(self.now, search.start)
        self.waiting.remove(search)
        self.used[search.game] = search.start + search.seconds
        self.given += search.seconds
        search.turn.set_result(None)

    def _late(self, search: Search) -> bool:
        """Whether ``search`` has let :data:`FAIR_ROUND` seconds a worker go to others."""
        return self.given - search.since >= FAIR_ROUND * self.slots

    def _priority(self, search: Search) -> tuple[bool, float]:
        """Who goes first: a search that let others go long enough (the oldest), else the one
        whose game had the least time."""
        late = self._late(search)
        return (not late, search.since if late else search.start)

    def _done(self, search: Search, thought: float | None) -> None:
        """``search`` ended, having thought ``thought`` seconds (``None``: it failed): its game
        is charged that rather than its budget, and its worker waits for the game's next bot
        while the game is owed (it had less time than every game waiting, and none is late)."""
        if thought is not None:
            self.used[search.game] = self.used.get(search.game, 0.0) + thought - search.seconds
        had = self.used.get(search.game, 0.0)
        owed = bool(self.waiting) and not any(self._late(s) for s in self.waiting)
        if owed and all(had < s.start for s in self.waiting):
            later = asyncio.get_running_loop().call_later(HOLD, self._unheld, search.game)
            self.held[search.game] = later
        else:
            self._free()

    def _unheld(self, game: str) -> None:
        """``game``'s next bot did not come within :data:`HOLD`: charged for the wait."""
        del self.held[game]
        self.used[game] = self.used.get(game, 0.0) + HOLD
        self._free()

    def _free(self) -> None:
        self.running -= 1
        self._next()

    def _done_soon(
        self, loop: asyncio.AbstractEventLoop, search: Search, job: Future[tuple[Move, float]]
    ) -> None:
        """:meth:`_done`, from a worker's thread (unless the loop has closed: nothing to run)."""
        failed = job.cancelled() or job.exception() is not None
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._done, search, None if failed else job.result()[1])

    def close(self) -> None:
        """Stop the lanes' threads (process pools are their owner's to shut down)."""
        for lane in (self.quick, self.workers):
            if isinstance(lane, ThreadPoolExecutor):
                lane.shutdown(wait=False, cancel_futures=True)
