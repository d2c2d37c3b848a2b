"""The strongest bot: :class:`ExpertBot`, a search that compares its moves on the same deals.

It knows what its seat's :class:`~pegs_rules.PlayerView` shows and nothing
more: every peg, its own hand, how many cards each hand and the draw pile
hold, and the face-up discard pile, which is every card played since the last
reshuffle. The cards it cannot see are therefore the deck less its hand and
that pile, and it deals them at random into the other hands and the draw pile
(:class:`~pegs_rules.bots.search.Sampler`): card counting, done exactly.

Like :class:`~pegs_rules.bots.MctsBot` it plays each candidate move on such a
deal, plays the game on for a few turns with the cheap greedy policy of the
playouts and scores where that leaves it with
:func:`~pegs_rules.bots.evaluation.evaluate`. Two things make it stronger at
the same thinking time:

* **The same deals for every candidate** (common random numbers). Each round
  deals one set of hidden cards and draws one seed for the playouts, and every
  candidate still in the running is played on that deal with that seed. The
  luck of the deal, which swamps the difference between two moves in any one
  playout, then falls on every candidate alike: the comparison is paired, and
  far fewer playouts tell the better move.
* **Sequential halving** in place of UCB1. The budget is split into equal
  rounds; after each, the worse half of the candidates is dropped, so the last
  playouts go to the two moves that matter. A search that only has to pick the
  best move (not to estimate every move well) wants exactly this.

The budget is a number of playouts (the same choice every time for a seeded
bot) or seconds of thinking per move, counted in the CPU time of the thread it
thinks in (:data:`~pegs_rules.bots.bot.thinking_time`). The docs' page "How
strong are the bots" measures it against the other bots.
"""

from __future__ import annotations

import math
import random

from pegs_rules import playout
from pegs_rules.board import team_of
from pegs_rules.bots.bot import checked, thinking_time
from pegs_rules.bots.evaluation import WIN, effects_of, evaluate, ranked
from pegs_rules.bots.search import Sampler, root_turn, slot_values
from pegs_rules.moves import Move
from pegs_rules.state import GameState
from pegs_rules.views import PlayerView

__all__ = ["ExpertBot"]


class ExpertBot:
    """Paired playouts and sequential halving over determinized views (module docstring).

    Args:
        seed: seeds the bot's generator (deals, playouts, ties).
        iterations: playouts per move, when ``time_limit`` is not given.
        time_limit: seconds of thinking per move; overrides ``iterations``.
        max_seconds: a cap on an iteration budget's thinking time (see
            :class:`~pegs_rules.bots.MctsBot`).
        depth: turns played out after the candidate move before evaluating.
        width: how many moves, best first by the greedy evaluation, are candidates.
        scale: holes of evaluation per unit of the logistic that turns it into a win chance.
        epsilon: chance that a playout turn picks a random move instead of the greedy one.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int = 1000,
        time_limit: float | None = None,
        max_seconds: float = 3.0,
        depth: int = 8,
        width: int = 8,
        scale: float = 30.0,
        epsilon: float = 0.1,
    ) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.max_seconds = max_seconds
        self.depth = depth
        self.width = width
        self.scale = scale
        self.epsilon = epsilon

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        checked(view, moves)
        if len(moves) == 1:
            return moves[0]
        effects = effects_of(view)
        scored = sorted(ranked(view, moves, effects), key=lambda item: -item[0])
        if scored[0][0] >= WIN:
            return scored[0][1]
        candidates = [move for _, move in scored[: self.width]]
        team = team_of(view.seat)
        sampler = Sampler(view, self.rng)
        totals = [0.0] * len(candidates)
        alive = list(range(len(candidates)))
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        began = thinking_time()
        budget = self.max_seconds if self.time_limit is None else self.time_limit
        played = 0
        for round_ in range(rounds):
            left = rounds - round_
            now = thinking_time()
            deadline = now + (began + budget - now) / left
            deals = max(1, (self.iterations - played) // left // len(alive))
            dealt = 0
            while (self.time_limit is not None or dealt < deals) and not (
                dealt and thinking_time() >= deadline
            ):
                state = sampler.sample(self.rng)
                seed = self.rng.getrandbits(32)
                for i in alive:
                    after = root_turn(state, candidates[i], effects)
                    totals[i] += self._playout(after, team, random.Random(seed))
                played += len(alive)
                dealt += 1
            if left > 1:  # keep the better half
                alive.sort(key=lambda i: -totals[i])
                alive = alive[: (len(alive) + 1) // 2]
        return candidates[max(alive, key=lambda i: totals[i])]

    def _playout(self, state: GameState, team: int, rng: random.Random) -> float:
        """Play ``depth`` turns with the cheap policy; the win chance of ``team`` afterwards."""
        values = slot_values(len(state.pegs))
        state = playout.playout(state, rng, self.epsilon, values, self.depth)
        if state.winner is not None:
            return 1.0 if state.winner == team else 0.0
        score = evaluate(state.pegs, team, state.rules)
        return 1.0 / (1.0 + math.exp(-score / self.scale))
