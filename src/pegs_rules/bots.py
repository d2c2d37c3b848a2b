"""Bots: :class:`RandomBot`, the one-ply :class:`GreedyBot` and the searching :class:`MctsBot`.

Every bot implements :class:`Bot`: it is shown a :class:`~pegs_rules.PlayerView`
(what its seat may know: every peg, its own hand, card counts, the discard
pile) and the legal moves, and picks one. It never sees a
:class:`~pegs_rules.GameState`, so it cannot peek at other hands or the draw
pile; :func:`decide` makes the view for the seat to act. All of a bot's chance
comes from its own seeded generator, so a seeded bot shown the same view makes
the same choice.

>>> from pegs_rules import new_game, apply
>>> game = new_game(4, seed=1)
>>> bots = [GreedyBot(seed) for seed in range(4)]
>>> while not game.is_over:
...     game = apply(game, decide(bots[game.turn], game))
>>> game.winner in (0, 1)
True

**Position values.** The greedy bot and the search's cut-off share one
evaluation of the public position, :func:`evaluate`, in "holes" from one
team's point of view: the sum of its pegs' values less the sum of the other
team's.

* A peg in its start area is worth 0. A peg out on the track is worth
  :data:`OUT_VALUE` plus how far it has come: :data:`OUT_VALUE` on its
  come-out hole, ``OUT_VALUE + length - 5`` on its in-spot (a peg that has
  passed its in-spot has a whole lap to go, and is worth a little less than
  one on its come-out hole).
* A peg home is worth a peg on its in-spot plus :data:`HOME_VALUE` plus its
  home hole number (the deeper, the more room it leaves).
* Safety: a track peg that an opponent could land on next round loses the
  chance of that times its value, times :data:`OWN_RISK` for the evaluating
  team's pegs (the opponents move next) and :data:`OPPONENT_RISK` for the
  opponents' pegs. The chance comes from the opponents' pegs behind it
  (1..13 holes, by the ranks that move exactly that far, 7 and 9 splits
  included), 8 holes ahead of it (an 8 moves back) and, on an opponent's
  come-out hole, that opponent's pegs waiting in start; each rank is taken
  to be in a five-card hand with probability ``1 - (1 - 1/13.5) ** 5``.
* Displacing an opponent sends its peg to start (its value to 0); landing on
  a team-mate's peg sends it to its in-spot, which the values reward; moving
  a team-mate's peg counts as much as moving one's own (helping the team).

:class:`GreedyBot` plays the move whose resulting position (computed from the
public position and its own hand alone: the pegs a move leaves, knock-ons
included) has the best evaluation.

**Search.** :class:`MctsBot` is an information-set Monte Carlo tree search
over determinized views. Each iteration deals the cards the seat cannot see
at random (:func:`~pegs_rules.determinize`), picks a root move by UCB1 among
the moves legal in the view (the same in every determinization, as they
depend only on the pegs and the seat's own hand), plays the game on for
``depth`` turns with a cheap greedy policy (the move gaining most peg value,
knocks included, and now and then a random one), and scores the position
reached with :func:`evaluate` squashed to a win chance by a logistic (a
finished game scores 1 or 0). The root moves are first ranked by the greedy
evaluation and only the best ``width`` are searched; the most visited is
played. The budget is a number of iterations (the same choice every time
for a seeded bot; ``mcts`` alone is 300, about a tenth of a second a move
on a 2020s laptop core) or a time limit per move.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Protocol

from pegs_rules import playout
from pegs_rules.board import START, Location, is_home, team_of
from pegs_rules.cards import COME_OUT_RANKS, Rank
from pegs_rules.errors import PegsError
from pegs_rules.movegen import forward_steps, hand_plays, legal_moves, splits
from pegs_rules.moves import Discard, Move, Play, Step
from pegs_rules.paths import paths_for
from pegs_rules.rules import Nine, Rules
from pegs_rules.sequence import carry_out, moved
from pegs_rules.state import GameState, board_for
from pegs_rules.turn import apply
from pegs_rules.validate import reraise
from pegs_rules.views import PlayerView, determinize, view

__all__ = [
    "BOTS",
    "HOME_VALUE",
    "OPPONENT_RISK",
    "OUT_VALUE",
    "OWN_RISK",
    "Bot",
    "GreedyBot",
    "MctsBot",
    "RandomBot",
    "decide",
    "evaluate",
    "make_bot",
    "peg_value",
]

OUT_VALUE = 10.0
"""What getting a peg out of its start area is worth, in holes travelled."""
HOME_VALUE = 12.0
"""What bringing a peg from its in-spot into home is worth, besides its home hole number."""
OWN_RISK = 0.6
"""Weight of the chance that one of the evaluating team's track pegs is knocked next round."""
OPPONENT_RISK = 0.3
"""Weight of the same chance for the opponents' pegs (our team moves first)."""
_HAND = 5
_RANK_SHARE = 1 / 13.5
"""Share of the deck that each rank is (jokers are half a rank)."""
_Pegs = tuple[tuple[Location, ...], ...]


class Bot(Protocol):
    """Anything that picks one of the legal moves, seeing only its seat's view."""

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        """One of ``moves``, the legal moves of the seat whose ``view`` this is."""
        ...


def decide(bot: Bot, state: GameState) -> Move:
    """The move ``bot`` makes for the seat to act in ``state``, shown only that seat's view."""
    seen, moves = view(state, state.turn), legal_moves(state)
    try:
        return bot.choose(seen, moves)
    except Exception as error:  # what a malformed state makes a bot fail with is a PositionError
        reraise(state, error)


def _check(seen: object, moves: tuple[Move, ...]) -> PlayerView:
    if not isinstance(seen, PlayerView):
        raise PegsError(
            f"a bot sees a PlayerView (pegs_rules.view(state, seat)), not {type(seen).__name__}"
        )
    if not moves:
        raise PegsError("a bot needs at least one legal move to choose from")
    return seen


class RandomBot:
    """Picks uniformly at random from the legal moves."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        _check(view, moves)
        return self.rng.choice(moves)


# --------------------------------------------------------------------------
# Evaluation of a public position
# --------------------------------------------------------------------------


def peg_value(players: int, seat: int, location: Location) -> float:
    """The value of a peg of ``seat`` at ``location`` (see the module docstring)."""
    return _values(players)[seat][location]


@lru_cache(maxsize=8)
def _values(players: int) -> tuple[dict[Location, float], ...]:
    board = board_for(players)
    length = board.track_length
    home_base = OUT_VALUE + length - 5 + HOME_VALUE
    tables = []
    for seat in board.seats:
        spot = board.in_spot(seat)
        values: dict[Location, float] = {START: 0.0}
        for hole in range(length):
            values[hole] = OUT_VALUE + length - 5 - (spot - hole) % length
        for location in board.home_holes():
            values[location] = home_base + (location - 1000)
        tables.append(values)
    return tuple(tables)


def _chance(ranks: float) -> float:
    """The chance that a five-card hand holds one of ``ranks`` ranks."""
    return 1.0 - (1.0 - min(ranks * _RANK_SHARE, 1.0)) ** _HAND


@lru_cache(maxsize=32)
def _threats(rules: Rules) -> tuple[tuple[float, ...], float, float, dict[int, float]]:
    """Chances of a hit from ``d`` holes behind (index d), from 8 ahead, and on a come-out hole;
    and a table to fill, by pattern of the 13 holes behind a peg (bit ``13 - d``: an opponent
    ``d`` holes behind), of the chance that none of them hits it (see :func:`_safe_behind`)."""
    behind = [0.0]
    for d in range(1, 14):
        ranks = 0
        for rank in Rank:
            steps = forward_steps(rank, rules)
            if steps == d or (splits(rank, rules) and d < steps):
                ranks += 1
        behind.append(_chance(ranks))
    back = 1 + (rules.nine is Nine.FORWARD_BACKWARD)
    return tuple(behind), _chance(back), _chance(len(COME_OUT_RANKS)), {}


def _safe_behind(near: int, behind: tuple[float, ...], known: dict[int, float]) -> float:
    """The chance that none of the opponents behind a peg hits it, ``near`` being their
    pattern (see :func:`_threats`), remembered in ``known``."""
    safe = known.get(near)
    if safe is None:
        safe = 1.0
        for d in range(1, 14):
            if near >> (13 - d) & 1:
                safe *= 1.0 - behind[d]
        known[near] = safe
    return safe


def evaluate(pegs: _Pegs, team: int, rules: Rules) -> float:
    """The value of a position of ``pegs`` for ``team``, in holes (see the module docstring)."""
    players = len(pegs)
    values = _values(players)
    length = 18 * players
    behind, back, come_out, safe_behind = _threats(rules)
    # the track holes each team holds, as a mask, twice round (so that a stretch may wrap);
    # and the come-out holes threatened from start
    held = [0, 0]
    for seat, locs in enumerate(pegs):
        for p in locs:
            if 0 <= p < 1000:
                held[seat & 1] |= 1 << p
    twice = [mask | mask << length for mask in held]
    out_threat: dict[int, int] = {}
    for seat, locs in enumerate(pegs):
        if locs[0] == START:
            out_threat[18 * seat + 8] = seat
    total = 0.0
    for seat, locs in enumerate(pegs):
        mine = team_of(seat) == team
        sign = 1.0 if mine else -1.0
        weight = OWN_RISK if mine else OPPONENT_RISK
        seat_team = seat & 1
        table = values[seat]
        for p in locs:
            value = table[p]
            if 0 <= p < 1000:
                rivals = twice[1 - seat_team]
                near = rivals >> (p + length - 13) & 0x1FFF  # bit 13 - d: hole p - d
                safe = _safe_behind(near, behind, safe_behind) if near else 1.0
                if rivals >> (p + 8) & 1:
                    safe *= 1.0 - back
                other = out_threat.get(p)
                if other is not None and other & 1 != seat_team:
                    safe *= 1.0 - come_out
                value -= weight * (1.0 - safe) * value
            total += sign * value
    return total


def _public_state(seen: PlayerView) -> GameState:
    """A state holding only what ``seen`` shows: its pegs and the seat's own hand.

    Enough for :func:`~pegs_rules.movegen.hand_plays`, which reads nothing
    else; the other hands and the draw pile are left empty.
    """
    return GameState(
        rules=seen.rules,
        pegs=seen.pegs,
        hands=tuple(seen.hand if s == seen.seat else () for s in range(seen.players)),
        draw_pile=(),
        discard_pile=seen.discard_pile,
        turn=seen.seat,
        dealer=seen.dealer,
        seed=0,
        ply=seen.ply,
    )


def _effects(state: GameState) -> dict[Move, Sequence[Step]]:
    """Each play of the seat to act with the peg changes it makes, knock-ons included."""
    return {play: changes for plays in hand_plays(state).values() for play, changes in plays}


def _after(pegs: _Pegs, effects: Mapping[Move, Sequence[Step]], move: Move) -> _Pegs:
    changes = effects.get(move)
    return moved(pegs, changes) if changes else pegs


def _discard_cost(move: Move) -> float:
    """A small tie-break between discards: keep jokers and cards that come out."""
    if not isinstance(move, Discard):
        return 0.0
    if move.card is Rank.JOKER:
        return 0.5
    return 0.25 if move.card in COME_OUT_RANKS else 0.0


def _ranked(
    seen: PlayerView, moves: tuple[Move, ...], effects: Mapping[Move, Sequence[Step]]
) -> list[tuple[float, Move]]:
    """Each move with the evaluation of the position it leaves, for the seat's team
    (``effects``: those of :func:`_effects` in the view's position)."""
    team = team_of(seen.seat)
    scored = []
    for move in moves:
        after = _after(seen.pegs, effects, move)
        won = all(is_home(p) for s, locs in enumerate(after) if team_of(s) == team for p in locs)
        score = 1e6 if won else evaluate(after, team, seen.rules) - _discard_cost(move)
        scored.append((score, move))
    return scored


class GreedyBot:
    """One ply: the move leaving the best :func:`evaluate` for its team; ties at random."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        _check(view, moves)
        if len(moves) == 1:
            return moves[0]
        scored = _ranked(view, moves, _effects(_public_state(view)))
        best_score = max(score for score, _ in scored)
        best = [move for score, move in scored if score >= best_score - 1e-9]
        return best[0] if len(best) == 1 else self.rng.choice(best)


# --------------------------------------------------------------------------
# Search
# --------------------------------------------------------------------------


class MctsBot:
    """Information-set Monte Carlo search over determinized views (see the module docstring).

    Args:
        seed: seeds the bot's generator (determinizations, playouts, ties).
        iterations: iterations per move, when ``time_limit`` is not given.
        time_limit: seconds per move; overrides ``iterations``.
        max_seconds: a cap on an iteration budget's time: a move never takes
            much longer than this, even on a slow or busy machine (where a
            seeded bot's choice may then depend on timing).
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
        _check(view, moves)
        if len(moves) == 1:
            return moves[0]
        effects = _effects(_public_state(view))
        ranked = sorted(_ranked(view, moves, effects), key=lambda item: -item[0])
        if ranked[0][0] >= 1e6:
            return ranked[0][1]  # a winning move
        candidates = [move for _, move in ranked[: self.width]]
        team = team_of(view.seat)
        visits = [0] * len(candidates)
        totals = [0.0] * len(candidates)
        sampler = _Sampler(view, self.rng)
        budget = self.max_seconds if self.time_limit is None else self.time_limit
        deadline = time.perf_counter() + budget
        done = 0
        while True:
            if self.time_limit is None and done >= self.iterations:
                break
            if done and time.perf_counter() >= deadline:
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
            value = self._playout(_root_turn(state, candidates[i], effects), team)
            visits[i] += 1
            totals[i] += value
        best = max(range(len(candidates)), key=lambda k: (visits[k], totals[k] / max(visits[k], 1)))
        return candidates[best]

    def _playout(self, state: GameState, team: int) -> float:
        """Play ``depth`` turns with the cheap policy; the win chance of ``team`` afterwards."""
        values = _slot_values(len(state.pegs))
        state = playout.playout(state, self.rng, self.epsilon, values, self.depth)
        if state.winner is not None:
            return 1.0 if state.winner == team else 0.0
        score = evaluate(state.pegs, team, state.rules)
        return 1.0 / (1.0 + math.exp(-score / self.scale))


def _root_turn(state: GameState, move: Move, effects: Mapping[Move, Sequence[Step]]) -> GameState:
    """``apply(state, move)`` for a move of the search's root: a play's changes are the same
    in every sample (they depend on the pegs and the seat's own hand alone), so they are
    taken from ``effects``, found once in the view."""
    changes = effects.get(move)
    if changes is None or not isinstance(move, Play):  # a discard
        return apply(state, move)
    return carry_out(state, move.card, changes)


class _Sampler:
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


# --------------------------------------------------------------------------
# Playouts: a fast turn for the cheap policy
# --------------------------------------------------------------------------


def playout_turn(state: GameState, rng: random.Random, epsilon: float = 0.1) -> GameState:
    """One turn of a playout: the move gaining most peg value (:func:`peg_value`), knocks
    included, or with chance ``epsilon`` a random one, carried out as :func:`~pegs_rules.apply`
    would. Splits are tried only when nothing else can be played; no move is listed.
    """
    return playout.playout_turn(state, rng, epsilon, _slot_values(len(state.pegs)))


@lru_cache(maxsize=8)
def _slot_values(players: int) -> playout.Values:
    """:func:`peg_value` by seat and generator slot (see :mod:`pegs_rules.paths`)."""
    paths = paths_for(players)
    return playout.Values(
        [
            [table[paths.location_of(slot)] for slot in range(paths.slots)]
            for table in _values(players)
        ]
    )


# --------------------------------------------------------------------------
# Bots by name
# --------------------------------------------------------------------------

BOTS = ("random", "greedy", "mcts")
"""The bot names :func:`make_bot` knows."""


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its name, with an optional budget for ``mcts``.

    ``random``, ``greedy``, ``mcts`` (300 iterations a move), ``mcts:500`` (500
    iterations a move) or ``mcts:0.2s`` (0.2 seconds a move). Raises
    :class:`ValueError` for anything else.

    >>> make_bot("mcts:0.5s", seed=3).time_limit
    0.5
    """
    name, _, budget = spec.strip().partition(":")
    if name == "random" and not budget:
        return RandomBot(seed)
    if name == "greedy" and not budget:
        return GreedyBot(seed)
    if name == "mcts":
        if not budget:
            return MctsBot(seed)
        try:
            if budget.endswith("s"):
                seconds = float(budget[:-1])
                if seconds > 0 and math.isfinite(seconds):
                    return MctsBot(seed, time_limit=seconds)
            elif int(budget) > 0:
                return MctsBot(seed, iterations=int(budget))
        except ValueError:
            pass
        raise ValueError(
            f"bad budget {budget!r} for mcts: write iterations (mcts:300) or seconds (mcts:0.2s)"
        )
    raise ValueError(
        f"unknown bot {spec!r}: choose from random, greedy, mcts, mcts:ITERATIONS, mcts:SECONDSs"
    )
