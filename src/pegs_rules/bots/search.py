"""The searching bot, :class:`MctsBot`, and what searches share: samples of a view, playouts.

:class:`MctsBot` is an information-set Monte Carlo tree search over
determinized views. Each iteration deals the cards the seat cannot see at
random (:class:`Sampler`), picks a root move by UCB1 among the moves legal in
the view (the same in every determinization, as they depend only on the pegs
and the seat's own hand), plays the game on for ``depth`` turns with a cheap
greedy policy (:func:`playout_turn`: the move gaining most peg value, knocks
included, and now and then a random one), and scores the position reached
with :func:`~pegs_rules.bots.evaluation.evaluate` squashed to a win chance by
a logistic (a finished game scores 1 or 0). The root moves are first ranked
by the greedy evaluation and only the best ``width`` are searched; the most
visited is played. The budget is a number of iterations (the same choice
every time for a seeded bot; ``mcts`` alone is 300, about a tenth of a second
a move on a 2020s laptop core) or a time limit per move, counted in the CPU
time of the thread it thinks in (:data:`~pegs_rules.bots.bot.thinking_time`).
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from pegs_rules import playout
from pegs_rules.board import team_of
from pegs_rules.bots.bot import checked, thinking_time
from pegs_rules.bots.evaluation import WIN, Effects, effects_of, evaluate, ranked, values_for
from pegs_rules.moves import Move, Play
from pegs_rules.paths import paths_for
from pegs_rules.sequence import carry_out
from pegs_rules.state import GameState
from pegs_rules.turn import apply
from pegs_rules.views import PlayerView, determinize

__all__ = ["MctsBot", "Sampler", "playout_turn", "root_turn", "shortlist", "slot_values"]


class MctsBot:
    """Information-set Monte Carlo search over determinized views (see the module docstring).

    Args:
        seed: seeds the bot's generator (determinizations, playouts, ties).
        iterations: iterations per move, when ``time_limit`` is not given.
        time_limit: seconds of thinking per move; overrides ``iterations``.
        max_seconds: a cap on an iteration budget's thinking time: a move
            never takes much longer than this, even on a slow processor (where
            a seeded bot's choice may then depend on timing).
        depth: turns played out after the root move before evaluating.
        width: how many root moves, best first by the greedy evaluation, are searched.
        exploration: the UCB1 constant, on values in 0..1.
        scale: holes of evaluation per unit of the logistic that turns it into a win chance.
        epsilon: chance that a playout turn picks a random move instead of the greedy one.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int = 300,
        time_limit: float | None = None,
        max_seconds: float = 1.0,
        depth: int = 8,
        width: int = 8,
        exploration: float = 0.4,
        scale: float = 30.0,
        epsilon: float = 0.1,
    ) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.max_seconds = max_seconds
        self.depth = depth
        self.width = width
        self.exploration = exploration
        self.scale = scale
        self.epsilon = epsilon

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        checked(view, moves)
        effects, candidates = shortlist(view, moves, self.width)
        if len(candidates) == 1:
            return candidates[0]
        team = team_of(view.seat)
        visits = [0] * len(candidates)
        totals = [0.0] * len(candidates)
        sampler = Sampler(view, self.rng)
        budget = self.max_seconds if self.time_limit is None else self.time_limit
        deadline = thinking_time() + budget
        done = 0
        while True:
            if self.time_limit is None and done >= self.iterations:
                break
            if done and thinking_time() >= deadline:
                break
            done += 1
            if done <= len(candidates):
                i = done - 1
            else:
                log_n = math.log(done)
                i = max(
                    range(len(candidates)),
                    key=lambda k: (
                        totals[k] / visits[k] + self.exploration * math.sqrt(log_n / visits[k])
                    ),
                )
            state = sampler.sample(self.rng)
            value = self._playout(root_turn(state, candidates[i], effects), team)
            visits[i] += 1
            totals[i] += value
        best = max(range(len(candidates)), key=lambda k: (visits[k], totals[k] / max(visits[k], 1)))
        return candidates[best]

    def _playout(self, state: GameState, team: int) -> float:
        """Play ``depth`` turns with the cheap policy; the win chance of ``team`` afterwards."""
        values = slot_values(len(state.pegs))
        state = playout.playout(state, self.rng, self.epsilon, values, self.depth)
        if state.winner is not None:
            return 1.0 if state.winner == team else 0.0
        score = evaluate(state.pegs, team, state.rules)
        return 1.0 / (1.0 + math.exp(-score / self.scale))


def shortlist(
    view: PlayerView, moves: tuple[Move, ...], width: int, *, joker: bool = False
) -> tuple[Effects, list[Move]]:
    """The plays' effects in ``view`` (see :func:`~pegs_rules.bots.evaluation.effects_of`) and the
    ``width`` moves whose positions :func:`~pegs_rules.bots.evaluation.evaluate` (``joker`` as
    there) likes best, best first; only the winning move, if one wins; the move, if it is alone."""
    if len(moves) == 1:
        return {}, list(moves)
    effects = effects_of(view)
    scored = sorted(ranked(view, moves, effects, joker=joker), key=lambda item: -item[0])
    if scored[0][0] >= WIN:
        return effects, [scored[0][1]]
    return effects, [move for _, move in scored[: max(1, width)]]


def root_turn(state: GameState, move: Move, effects: Effects) -> GameState:
    """``apply(state, move)`` for a move of the search's root: a play's changes are the same
    in every sample (they depend on the pegs and the seat's own hand alone), so they are
    taken from ``effects``, found once in the view."""
    changes = effects.get(move)
    if changes is None or not isinstance(move, Play):  # a discard
        return apply(state, move)
    return carry_out(state, move.card, changes)


class Sampler:
    """Determinizations of one view: :func:`~pegs_rules.determinize` once, then the hidden
    cards of that sample dealt again at random for each further sample (the same
    distribution, without checking the view again)."""

    def __init__(self, seen: PlayerView, rng: random.Random) -> None:
        self.first: GameState | None = determinize(seen, rng)
        self.base = self.first
        seat = seen.seat
        self.hidden = [c for s, hand in enumerate(self.base.hands) if s != seat for c in hand]
        self.hidden += self.base.draw_pile
        self.sizes = [len(hand) if s != seat else -1 for s, hand in enumerate(self.base.hands)]
        self.discard_pile = self.base.discard_pile

    def sample(self, rng: random.Random) -> GameState:
        """A determinization of the view, dealt by ``rng``."""
        if self.first is not None:
            first, self.first = self.first, None
            return first
        cards = self.hidden[:]
        rng.shuffle(cards)
        hands = []
        dealt = 0
        for hand, size in zip(self.base.hands, self.sizes, strict=True):
            if size < 0:
                hands.append(hand)
            else:
                hands.append(tuple(sorted(cards[dealt : dealt + size])))
                dealt += size
        base = self.base
        return GameState(
            base.rules,
            base.pegs,
            tuple(hands),
            tuple(cards[dealt:]),
            self.discard_pile,
            base.turn,
            base.dealer,
            rng.getrandbits(32),
            base.reshuffles,
            base.ply,
            base.winner,
        )


def playout_turn(state: GameState, rng: random.Random, epsilon: float = 0.1) -> GameState:
    """One turn of a playout: the move gaining most peg value
    (:func:`~pegs_rules.bots.evaluation.peg_value`), knocks included, or with chance
    ``epsilon`` a random one, carried out as :func:`~pegs_rules.apply` would. Splits are tried
    only when nothing else can be played; no move is listed.
    """
    return playout.playout_turn(state, rng, epsilon, slot_values(len(state.pegs)))


@lru_cache(maxsize=8)
def slot_values(players: int) -> playout.Values:
    """:func:`~pegs_rules.bots.evaluation.peg_value` by seat and generator slot (see
    :mod:`pegs_rules.paths`)."""
    paths = paths_for(players)
    return playout.Values(
        [
            [table[paths.location_of(slot)] for slot in range(paths.slots)]
            for table in values_for(players)
        ]
    )
