"""Who gets the bot workers next (:class:`~pegs_rules.server.thinking.Thinking`): the game
that has had the least of them lately, so a game of quick searches among games of long ones
moves whenever a worker frees, rather than once a round; and no search waits for ever.

The workers are an executor that holds every job until the test finishes it, so the order in
which searches are given a worker is seen exactly, with no bot thinking at all.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

from served import run

from pegs_rules import legal_moves, new_game, view
from pegs_rules.server.thinking import FAIR_ROUND, Thinking

BIG = 6
"""Games of long searches (``mcts:5s``), as in ``bench/bot_fairness.py``."""


class Held(Executor):
    """An executor that runs nothing: each job waits, named by its bot's budget, to be finished."""

    def __init__(self) -> None:
        self.jobs: list[tuple[float, Future[Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        job: Future[Any] = Future()
        if len(args) == 5:  # bot_move(kind, seed, seen, moves, seconds): the first legal move
            self.jobs.append((args[4], job))
            job.moves = args[3]  # type: ignore[attr-defined]
        else:
            job.set_result(None)  # the lane's warm-up call
        return job

    def finish(self) -> float:
        """Finish the job that holds the worker; its budget."""
        seconds, job = self.jobs.pop(0)
        job.set_result(job.moves[0])  # type: ignore[attr-defined]
        return seconds


def test_a_game_of_quick_searches_goes_first_whenever_a_worker_frees() -> None:
    workers = Held()
    state = new_game(4, seed=1)
    seen, moves = view(state, state.turn), legal_moves(state)

    async def scenario() -> list[str]:
        thinking = Thinking(workers, 1, quick=Held())
        served: list[str] = []

        async def game(name: str, kind: str, count: int) -> None:
            for _ in range(count):
                await thinking.choose(kind, 0, seen, moves, name)
                served.append(name)

        tasks = [asyncio.create_task(game(f"big-{n}", "mcts:5s", 3)) for n in range(BIG)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(game("small", "mcts:0.1s", 10)))
        while not all(task.done() for task in tasks):
            await asyncio.sleep(0.01)
            if workers.jobs:
                workers.finish()
        return served

    served = run(scenario(), timeout=20)
    # the first round in the order of asking; from then on the small game, having had the
    # least, moves nearly every time a worker frees (first come, first served would make it
    # wait behind the six big games every time: a gap of 7)
    bigs = [f"big-{n}" for n in range(BIG)]
    assert served[: BIG + 1] == [*bigs, "small"]
    later = served[BIG + 1 :]
    smalls = [i for i, name in enumerate(later) if name == "small"]
    assert len(smalls) == 9 and max(b - a for a, b in itertools.pairwise(smalls)) <= 3, served
    assert sorted(later) == sorted(bigs * 2 + ["small"] * 9)


def test_a_search_that_waited_a_round_goes_first() -> None:
    """However little the others had, a search that let ``FAIR_ROUND`` seconds go to others
    since it asked is next."""
    workers = Held()
    state = new_game(4, seed=1)
    seen, moves = view(state, state.turn), legal_moves(state)

    async def scenario() -> list[str]:
        thinking = Thinking(workers, 1, quick=Held())
        served: list[str] = []

        async def ask(name: str, kind: str) -> None:
            await thinking.choose(kind, 0, seen, moves, name)
            served.append(name)

        first = asyncio.create_task(ask("big", "mcts:5s"))
        await asyncio.sleep(0)
        heavy = asyncio.create_task(ask("big", "mcts:5s"))  # used the most: it waits
        light = [asyncio.create_task(ask(f"light-{n}", "mcts:0.1s")) for n in range(2)]
        await asyncio.sleep(0)
        for search in thinking.waiting:  # as if it had let others go a round already
            if search.game == "big":
                search.since -= FAIR_ROUND
        while not all(t.done() for t in (first, heavy, *light)):
            await asyncio.sleep(0.01)
            if workers.jobs:
                workers.finish()
        return served

    assert run(scenario(), timeout=20) == ["big", "big", "light-0", "light-1"]
