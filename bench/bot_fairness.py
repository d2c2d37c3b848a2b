"""How long a game of quick searching bots waits for the bot workers among games of long ones.

Six games of eight ``mcts:5s`` bots and one small game of ``mcts:0.1s`` bots share one bot
worker (a thread, as with ``pegs serve --bot-workers 0``), scheduled by
:class:`pegs_rules.server.thinking.Thinking`; the small game's moves are timed for
``--seconds`` (its first move, which waits for every game's first search, aside), and once
alone (its quiet time), in wall-clock time and in the worker's processor time (the bots'
clock: a busy machine slows it less). A round is the small game's eight moves. Each search's time on the
worker (its thread's processor time) is counted to its game, and each game's share of the
worker is printed for every ``--window`` seconds of the worker's time (the first window,
where the first searches are not yet cut to share, aside).

    python bench/bot_fairness.py --seconds 60

Run it against another checkout's ``src`` (``PYTHONPATH=OTHER/src``) to compare schedulers.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import statistics
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from pegs_rules import ARIZONA, legal_moves, new_game, view
from pegs_rules.server.thinking import Thinking

BIG_GAMES = 6
ROUND = 8
"""Bot moves in a round of an eight-player game."""
GAME_SEEDS = 1_000_000
"""A game's bots are seeded from ``GAME_SEEDS * its number``: the worker tells games apart by it."""


class Timed(ThreadPoolExecutor):
    """One worker thread that notes each bot's search: (game number, start, end) in the
    thread's processor time (:meth:`clock`)."""

    def __init__(self) -> None:
        super().__init__(1)
        self.searches: list[tuple[int, float, float]] = []
        self.thread = self.submit(threading.get_ident).result()

    def clock(self) -> float:
        """The worker thread's processor time (the bots' clock), read from any thread."""
        return time.clock_gettime(time.pthread_getcpuclockid(self.thread))

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if len(args) != 5:  # the warm-up call
            return super().submit(fn, *args, **kwargs)

        def timed() -> Any:
            start = time.thread_time()
            try:
                return fn(*args)
            finally:
                self.searches.append((args[1] // GAME_SEEDS, start, time.thread_time()))

        return super().submit(timed)


async def small_game_moves(
    seconds: float, big_games: int
) -> tuple[list[tuple[float, float]], list[tuple[int, float, float]]]:
    """The seconds of each of the small game's moves, wall-clock and of the worker's
    processor time, while ``big_games`` games of ``mcts:5s`` bots want the worker, and the
    searches the worker ran."""
    workers = Timed()
    thinking = Thinking(workers)
    keyed = "game" in inspect.signature(thinking.choose).parameters
    state = new_game(8, rules=ARIZONA, seed=1)
    seen, moves = view(state, state.turn), legal_moves(state)
    stop = time.monotonic() + seconds

    async def play(kind: str, number: int, times: list[tuple[float, float]]) -> None:
        seed = number * GAME_SEEDS
        while time.monotonic() < stop:
            started, worked = time.monotonic(), workers.clock()
            extra = {"game": str(number)} if keyed else {}
            await thinking.choose(kind, seed, seen, moves, **extra)
            times.append((time.monotonic() - started, workers.clock() - worked))
            seed += 1

    small: list[tuple[float, float]] = []
    await asyncio.gather(
        play("mcts:0.1s", 0, small),
        *(play("mcts:5s", n + 1, []) for n in range(big_games)),
    )
    thinking.close()
    workers.shutdown()
    return (small[1:] if big_games else small), workers.searches


def shares(
    searches: list[tuple[int, float, float]], games: int, window: float
) -> list[list[float]]:
    """Each game's share of the worker's time in each whole ``window`` of it (the time a
    search spans in two windows split between them)."""
    if not searches:
        return []
    begin, end = searches[0][1], searches[-1][2]
    count = int((end - begin) // window)
    used = [[0.0] * games for _ in range(count)]
    for game, start, stop in searches:
        for w in range(count):
            low, high = begin + w * window, begin + (w + 1) * window
            used[w][game] += max(0.0, min(stop, high) - max(start, low))
    return [[u / sum(row) for u in row] for row in used if sum(row)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--window", type=float, default=5.0)
    args = parser.parse_args()
    quiet, _ = asyncio.run(small_game_moves(5.0, 0))
    loaded, searches = asyncio.run(small_game_moves(args.seconds, BIG_GAMES))
    games = BIG_GAMES + 1
    for clock, at in (("wall-clock", 0), ("the worker's processor", 1)):
        print(f"the small game's moves in {clock} time:")
        for name, moves in (("quiet", quiet), ("loaded", loaded)):
            times = [move[at] for move in moves]
            print(
                f"  {name}: {len(times)} moves, median {statistics.median(times):.3f} s,"
                f" longest {max(times):.3f} s, a round of {ROUND} about"
                f" {ROUND * statistics.mean(times):.2f} s"
                f" ({ROUND * statistics.median(times):.2f} s at the median)"
            )
        for average in (statistics.mean, statistics.median):
            ratio = average(m[at] for m in loaded) / average(m[at] for m in quiet)
            print(
                f"  loaded / quiet round time ({average.__name__}): {ratio:.2f}"
                f" (N = {games} games: {ratio / games:.2f} N)"
            )
    table = shares(searches, games, args.window)[1:]
    print(f"share of the worker per {args.window:g} s of its time (owed 1/N = {1 / games:.3f}):")
    print("window  small " + " ".join(f"big-{n}" for n in range(1, games)))
    for w, row in enumerate(table, 1):
        print(f"{w:6d}  " + "  ".join(f"{share:.3f}" for share in row))
    for name, game in (("small", 0), ("the least big", None)):
        column = [row[game] if game is not None else min(row[1:]) for row in table]
        print(
            f"{name} game's share: least {min(column):.3f}, median"
            f" {statistics.median(column):.3f} ({len(column)} windows)"
        )


if __name__ == "__main__":
    main()
