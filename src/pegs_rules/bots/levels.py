"""Bots by name: :func:`make_bot`, the names it knows (:data:`BOTS`) and the four levels (:data:`LEVELS`).

A bot is named by its kind (``random``, ``greedy``, ``mcts``, ``expert``) or
by the level a person chooses (``easy``, ``medium``, ``hard``, ``expert``);
``td`` is the bot that learnt by playing (:mod:`~pegs_rules.bots.td`).
The searching bots take a budget after a colon: ``mcts:500`` or
``expert:2000`` for that many playouts a move, ``mcts:0.2s`` or
``expert:0.5s`` for that many seconds of thinking (CPU time) a move.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from pegs_rules.bots.bot import Bot
from pegs_rules.bots.expert import ExpertBot
from pegs_rules.bots.search import MctsBot
from pegs_rules.bots.simple import EasyBot, GreedyBot, RandomBot
from pegs_rules.bots.td import TdBot

__all__ = ["BOTS", "LEVELS", "Level", "make_bot"]


@dataclass(frozen=True)
class Level:
    """A level of play offered to people: its name, a label, the bot behind it, and how long
    it takes to move (on one core of a 2020s laptop, or in a browser tab: about half as fast)."""

    name: str
    label: str
    bot: str
    think: str


LEVELS = (
    Level("easy", "Easy", "easy", "under a millisecond"),
    Level("medium", "Medium", "greedy", "about a millisecond"),
    Level("hard", "Hard", "mcts", "about 0.1 s"),
    Level("expert", "Expert", "expert", "about 0.3 s"),
)
"""The levels, weakest first; the docs' page "How strong are the bots" rates each."""

_SEARCHING: dict[str, Callable[..., Bot]] = {
    "mcts": MctsBot,
    "hard": MctsBot,
    "expert": ExpertBot,
}
_PLAIN: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "greedy": GreedyBot,
    "medium": GreedyBot,
    "td": TdBot,
}

BOTS = ("random", "easy", "medium", "hard", "expert", "greedy", "mcts", "td")
"""The bot names :func:`make_bot` knows: the levels, then the kinds they are made of, then the
learnt bot."""


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its name, with an optional budget for a searching one.

    ``random``, ``easy``, ``medium`` (the same as ``greedy``), ``hard`` (the
    same as ``mcts``, 300 playouts a move), ``expert`` (1,000 playouts a
    move); ``mcts:500`` or ``expert:500`` for 500 playouts a move,
    ``hard:0.2s`` or ``expert:0.2s`` for 0.2 seconds of thinking a move;
    ``td``, the value learnt by TD(lambda) (:class:`~pegs_rules.bots.td.TdBot`).
    Raises :class:`ValueError` for anything else.

    >>> make_bot("expert:0.5s", seed=3).time_limit
    0.5
    >>> type(make_bot("medium")).__name__
    'GreedyBot'
    """
    name, _, budget = spec.strip().partition(":")
    plain = _PLAIN.get(name)
    if plain is not None and not budget:
        return plain(seed)
    searching = _SEARCHING.get(name)
    if searching is None:
        raise ValueError(
            f"unknown bot {spec!r}: choose from {', '.join(BOTS)} "
            "(mcts, hard and expert take a budget: NAME:ITERATIONS or NAME:SECONDSs)"
        )
    if not budget:
        return searching(seed)
    try:
        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if seconds > 0 and math.isfinite(seconds):
                return searching(seed, time_limit=seconds)
        elif int(budget) > 0:
            return searching(seed, iterations=int(budget))
    except ValueError:
        pass
    raise ValueError(
        f"bad budget {budget!r} for {name}: write iterations ({name}:300) or seconds ({name}:0.2s)"
    )
