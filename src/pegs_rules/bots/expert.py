"""The strongest bot: :class:`ExpertBot`, a search that compares its moves on the same deals.

What it knows is what its seat's :class:`~pegs_rules.PlayerView` shows and
nothing more: every peg, its own hand, how many cards each hand and the draw
pile hold, and the face-up discard pile, which is every card played since the
last reshuffle. The cards it cannot see are therefore the deck less its hand
and that pile (card counting, done exactly), and it deals them at random into
the other hands and the draw pile (:class:`~pegs_rules.bots.search.Sampler`).

Like :class:`~pegs_rules.bots.MctsBot` it tries its candidate moves on such
deals: each is played, the game goes on for :attr:`~ExpertBot.depth` turns by
the playouts' cheap greedy policy, and where that leaves the game is scored by
:func:`~pegs_rules.bots.evaluation.evaluate` and turned into a win chance.
Three things make it stronger at the same thinking time (the docs' page "How
strong are the bots" measures each):

* **It fears the joker.** Its evaluation counts, for every peg on the track,
  the chance that the opponents hold a joker, which can land on any peg
  (``evaluate(..., joker=True)``). Pegs on the track are worth that much less
  than pegs safe in home, and a lone peg far from home is no longer worth
  nearly as much as the hand-tuned values say. This one change makes a greedy
  player much stronger, and it ranks the candidates and scores every playout.
* **The same deals for every candidate** (common random numbers). Each round
  deals one set of hidden cards and draws one seed for the playouts, and every
  candidate still in the running is played on that deal with that seed. The
  luck of the deal, which in any one playout swamps the difference between
  two moves, falls on every candidate alike, so fewer playouts tell the better
  move.
* **Sequential halving** instead of UCB1. The budget is split into equal
  rounds, and after each the worse half of the candidates is dropped, so the
  last playouts go to the two moves that matter: a search that must pick the
  best move, not estimate every move, wants exactly this.

Its budget is a number of playouts (the same choice every time for a seeded
bot: everything it draws comes from its own generator) or seconds of thinking
per move, counted in the CPU time of the thread it thinks in
(:data:`~pegs_rules.bots.bot.thinking_time`).

What it does not do: it does not remember earlier turns (after a reshuffle it
forgets which cards the old pile held), it does not read the opponents' hands
from their choices (a discard says the hand could not move), and it keeps no
search tree from one turn to the next (its search has no tree: only the root
moves are compared).
"""

from __future__ import annotations

import math
import random

from pegs_rules import playout
from pegs_rules.board import team_of
from pegs_rules.bots.bot import checked, thinking_time
from pegs_rules.bots.evaluation import evaluate
from pegs_rules.bots.search import Sampler, root_turn, shortlist, slot_values
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
        width: how many moves, best first by the evaluation, are candidates
            (with 1, the bot plays the best of them at once, as the greedy bot does).
        scale: holes of evaluation per unit of the logistic that turns it into a win chance.
        epsilon: chance that a playout turn picks a random move instead of the greedy one.
        joker: count the joker's threat in the evaluation.
        paired: play every candidate on the same deal with the same playout seed.
        halving: drop the worse half of the candidates after each round (else one round).
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
        joker: bool = True,
        paired: bool = True,
        halving: bool = True,
    ) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.max_seconds = max_seconds
        self.depth = depth
        self.width = width
        self.scale = scale
        self.epsilon = epsilon
        self.joker = joker
        self.paired = paired
        self.halving = halving

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        checked(view, moves)
        effects, candidates = shortlist(view, moves, self.width, joker=self.joker)
        if len(candidates) == 1:
            return candidates[0]
        team = team_of(view.seat)
        sampler = Sampler(view, self.rng)
        totals = [0.0] * len(candidates)
        alive = list(range(len(candidates)))
        rounds = max(1, math.ceil(math.log2(len(candidates)))) if self.halving else 1
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
                    if not self.paired and i != alive[0]:
                        state, seed = sampler.sample(self.rng), self.rng.getrandbits(32)
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
        score = evaluate(state.pegs, team, state.rules, joker=self.joker)
        return 1.0 / (1.0 + math.exp(-score / self.scale))
