"""The bots that look one move ahead or none: :class:`RandomBot`, :class:`EasyBot`, :class:`GreedyBot`.

* :class:`RandomBot` picks any legal move.
* :class:`GreedyBot` plays the move whose resulting position scores best by
  :func:`~pegs_rules.bots.evaluation.evaluate`: progress, knocks and safety.
* :class:`EasyBot` plays like a beginner: it looks at the position a move
  leaves as the greedy bot does (and never misses a move that wins), but makes
  the mistakes a new player makes.
  It does not weigh the danger of being knocked (it scores
  :func:`~pegs_rules.bots.evaluation.progress` only); it overlooks some of its
  moves (each with chance :attr:`~EasyBot.overlook`, a split of a 7 or a 9 with
  the higher chance :attr:`~EasyBot.overlook_split`); and among the moves it
  sees it does not always take the best, but picks with weight
  ``exp(score / temperature)``, so a move a hole or two worse is often taken
  and a blunder of twenty holes almost never.
"""

from __future__ import annotations

import math
import random

from pegs_rules.board import team_of
from pegs_rules.bots.bot import checked
from pegs_rules.bots.evaluation import after, discard_cost, effects_of, progress, ranked, won
from pegs_rules.moves import Move, Play
from pegs_rules.views import PlayerView

__all__ = ["EasyBot", "GreedyBot", "RandomBot"]


class RandomBot:
    """Picks uniformly at random from the legal moves."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        checked(view, moves)
        return self.rng.choice(moves)


class GreedyBot:
    """One ply: the move leaving the best :func:`evaluate` for its team; ties at random."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        checked(view, moves)
        if len(moves) == 1:
            return moves[0]
        scored = ranked(view, moves, effects_of(view))
        best_score = max(score for score, _ in scored)
        best = [move for score, move in scored if score >= best_score - 1e-9]
        return best[0] if len(best) == 1 else self.rng.choice(best)


class EasyBot:
    """A beginner's play: one ply on progress alone, some moves overlooked, some slack in the
    choice (see the module docstring).

    Args:
        seed: seeds the bot's generator.
        overlook: the chance of not seeing a move that moves one peg (or a discard).
        overlook_split: the chance of not seeing a split of a 7 or a 9, or a swap.
        temperature: holes of score per unit of the choice's log-weight.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        overlook: float = 0.25,
        overlook_split: float = 0.6,
        temperature: float = 3.0,
    ) -> None:
        self.rng = random.Random(seed)
        self.overlook = overlook
        self.overlook_split = overlook_split
        self.temperature = temperature

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        checked(view, moves)
        if len(moves) == 1:
            return moves[0]
        effects = effects_of(view)
        team = team_of(view.seat)
        worth = {}
        for move in moves:
            pegs = after(view.pegs, effects, move)
            if won(pegs, team):
                return move  # the winning move is never overlooked
            worth[move] = progress(pegs, team) - discard_cost(move)
        rng = self.rng
        seen = [
            move
            for move in moves
            if rng.random()
            >= (self.overlook_split if isinstance(move, Play) and move.steps[1:] else self.overlook)
        ] or [rng.choice(moves)]
        scores = [worth[move] for move in seen]
        top = max(scores)
        weights = [math.exp((score - top) / self.temperature) for score in scores]
        return rng.choices(seen, weights)[0]
