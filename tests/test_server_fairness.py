"""Who gets the bot workers next (:class:`~pegs_rules.server.thinking.Thinking`): the game
that has had the least of them lately, so a game of quick searches among games of long ones
moves whenever a worker frees, rather than once a round; and no search waits for ever.

The workers are an executor that holds every job until the test finishes it, so the order in
which searches are given a worker is seen exactly, with no bot thinking at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

import pytest
from served import run

from pegs_rules import apply_with_events, legal_moves, new_game, view
from pegs_rules.bots import GreedyBot, make_bot
from pegs_rules.server import thinking
from pegs_rules.server.thinking import FAIR_ROUND, Thinking, bot_move

BIG = 6
"""Games of long searches (``mcts:5s``), as in ``bench/bot_fairness.py``."""


class Held(Executor):
    """An executor that runs nothing: each job waits, named by its bot's budget, to be finished.

    A finished search has thought its whole budget, on a clock of the workers' time that
    :meth:`finish` moves on (the searches given at once think side by side, one a worker):
    ``ran`` notes each search's game (its seed), start and end.
    """

    def __init__(self) -> None:
        self.jobs: list[tuple[float, float, Future[Any]]] = []
        self.clock = 0.0
        self.ran: list[tuple[int, float, float]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        job: Future[Any] = Future()
        if len(args) == 5:  # bot_move(kind, seed, seen, moves, seconds): the first legal move
            self.jobs.append((self.clock + args[4], self.clock, job))
            job.moves, job.seed = args[3], args[1]  # type: ignore[attr-defined]
        else:
            job.set_result(None)  # the lane's warm-up call
        return job

    def finish(self) -> float:
        """Finish the job that ends first (the first given, of those ending together); its
        budget."""
        first = min(self.jobs, key=lambda job: job[0])
        self.jobs.remove(first)
        end, start, job = first
        self.ran.append((job.seed, start, end))  # type: ignore[attr-defined]
        self.clock = end
        job.set_result((job.moves[0], end - start))  # type: ignore[attr-defined]
        return end - start


def shares(ran: list[tuple[int, float, float]], games: int, window: float) -> list[list[float]]:
    """Each game's seconds of the worker in each whole ``window`` of its time."""
    used = [[0.0] * games for _ in range(int(ran[-1][2] // window))]
    for game, start, end in ran:
        for w, row in enumerate(used):
            row[game] += max(0.0, min(end, (w + 1) * window) - max(start, w * window))
    return used


@pytest.mark.parametrize("slots", [1, 3])
def test_each_game_wanting_bot_time_gets_its_share_of_every_few_seconds(
    slots: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six games of ``mcts:5s`` bots and one of ``mcts:0.05s``, each asking again as soon as
    its move is made, on one worker or three: in every 10 seconds of the workers' time (the
    first aside: the first searches think 5 s, alone when they asked), each game gets its
    seventh less one search cut to share (``FAIR_ROUND * workers / 7`` seconds; with one
    worker, 0.71 s, and the six are cut to 0.62 s, as eight searches wait or think when the
    last joins), and over the whole run at least 95 % of its seventh. The small game goes
    again while it has had less than the others: the old scheduler (the game that used least
    of those waiting when the worker frees, never the small game, whose next bot has not asked
    yet) gave it one search of 0.05 s to each of the others' 0.71 s: 0.55 to 0.62 s in 10,
    where 0.71 s is owed."""
    monkeypatch.setattr(thinking, "HOLD", 60.0)  # on a busy machine too, the next bot comes
    workers = Held()
    state = new_game(4, seed=1)
    seen, moves = view(state, state.turn), legal_moves(state)
    games, window = BIG + 1, 10.0

    async def scenario() -> None:
        fair = Thinking(workers, slots, quick=Held())

        async def game(number: int, kind: str) -> None:
            while workers.clock < 90:
                await fair.choose(kind, number, seen, moves, str(number))
            fair.idle(str(number))  # as the server says when a game has no bot to act

        tasks = [asyncio.create_task(game(n, "mcts:5s")) for n in range(1, games)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(game(0, "mcts:0.05s")))
        while not all(task.done() for task in tasks):
            for _ in range(10):  # every bot that is to ask asks
                await asyncio.sleep(0)
            if workers.jobs:
                workers.finish()

    run(scenario(), timeout=60)
    table = shares(workers.ran, games, window)[1:]
    assert len(table) == 8
    for row in table:
        assert min(row) >= slots * (window - FAIR_ROUND) / games - 1e-9, table
    totals = [sum(row[game] for row in table) for game in range(games)]
    assert min(totals) >= 0.95 * slots * window * len(table) / games, totals
    print("the small game's seconds in each 10 s:", [round(row[0], 2) for row in table])


def test_a_bot_of_a_playout_budget_is_never_cut() -> None:
    """A search of a time budget is cut to its share when others wait; one of a playout budget
    thinks its playouts (at most its own cap), to choose the same move whatever the load."""
    workers = Held()
    state = new_game(4, seed=1)
    seen, moves = view(state, state.turn), legal_moves(state)
    kinds = ["mcts:5s"] * 6 + ["mcts:100", "expert:50"]

    async def scenario() -> None:
        fair = Thinking(workers, 1, quick=Held())
        tasks = [
            asyncio.create_task(fair.choose(kind, n, seen, moves, str(n)))
            for n, kind in enumerate(kinds)
        ]
        while not all(task.done() for task in tasks):
            await asyncio.sleep(0.001)
            if workers.jobs:
                workers.finish()

    run(scenario(), timeout=20)
    budgets = dict((game, end - start) for game, start, end in workers.ran)
    # the first alone; the others cut to 5 s / 8 as the last joined (eight waiting or thinking)
    assert budgets == {0: 5.0, **{n: 5.0 / 8 for n in range(1, 6)}, 6: 1.0, 7: 3.0}
    # on a worker, however short the time given: the move it chooses alone (300 playouts take
    # about 0.05 s here; cut to 1 ms, as before, it chose 7 2:36-h4)
    state, greedy = new_game(4, seed=1), GreedyBot(1)
    for _ in range(20):
        state, _ = apply_with_events(
            state, greedy.choose(view(state, state.turn), legal_moves(state))
        )
    seen, moves = view(state, state.turn), legal_moves(state)
    alone = make_bot("mcts:300", 3).choose(seen, moves)
    assert str(alone) == "6 2:36-h3" and bot_move("mcts:300", 3, seen, moves, 0.001)[0] == alone


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
