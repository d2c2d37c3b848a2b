"""How long a game of quick searching bots waits for the bot workers among games of long ones.

Six games of eight ``mcts:5s`` bots and one small game of ``mcts:0.1s`` bots share one bot
worker (a thread, as with ``pegs serve --bot-workers 0``), scheduled by
:class:`pegs_rules.server.thinking.Thinking`; the small game's moves are timed for
``--seconds`` (its first move, which waits for every game's first search, aside), and once
alone (its quiet time). A round is the small game's eight moves.

    python bench/bot_fairness.py --seconds 60

Run it against another checkout's ``src`` (``PYTHONPATH=OTHER/src``) to compare schedulers.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import statistics
import time

from pegs_rules import ARIZONA, legal_moves, new_game, view
from pegs_rules.server.thinking import Thinking

BIG_GAMES = 6
ROUND = 8
"""Bot moves in a round of an eight-player game."""


async def small_game_moves(seconds: float, big_games: int) -> list[float]:
    """The wall-clock seconds of each of the small game's moves while ``big_games`` games of
    ``mcts:5s`` bots want the worker."""
    thinking = Thinking()
    keyed = "game" in inspect.signature(thinking.choose).parameters
    state = new_game(8, rules=ARIZONA, seed=1)
    seen, moves = view(state, state.turn), legal_moves(state)
    stop = time.monotonic() + seconds

    async def play(kind: str, name: str, times: list[float]) -> None:
        seed = 0
        while time.monotonic() < stop:
            started = time.monotonic()
            extra = {"game": name} if keyed else {}
            await thinking.choose(kind, seed, seen, moves, **extra)
            times.append(time.monotonic() - started)
            seed += 1

    small: list[float] = []
    await asyncio.gather(
        play("mcts:0.1s", "small", small),
        *(play("mcts:5s", f"big-{n}", []) for n in range(big_games)),
    )
    thinking.close()
    return small[1:] if big_games else small


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=40.0)
    args = parser.parse_args()
    quiet = asyncio.run(small_game_moves(5.0, 0))
    loaded = asyncio.run(small_game_moves(args.seconds, BIG_GAMES))
    for name, times in (("quiet", quiet), ("loaded", loaded)):
        print(
            f"{name}: {len(times)} moves, median {statistics.median(times):.3f} s,"
            f" longest {max(times):.3f} s, a round of {ROUND} about"
            f" {ROUND * statistics.mean(times):.2f} s ({ROUND * statistics.median(times):.2f} s"
            " at the median)"
        )
    for average in (statistics.mean, statistics.median):
        ratio = average(loaded) / average(quiet)
        print(f"loaded / quiet round time ({average.__name__}): {ratio:.1f}")


if __name__ == "__main__":
    main()
