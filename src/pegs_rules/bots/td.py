"""The ``td`` bot: a value of the positions moves leave, learnt by TD(lambda) against ``medium``.

:class:`TdBot` scores each legal move by ``V(x) = sigmoid(w @ x)``, the learnt
chance that its team goes on to win from the position the move leaves (its
*afterstate*), described by the hundred numbers ``x`` of :func:`features`, and
plays the best. It follows the game as an :class:`~pegs_rules.bots.Observer`,
remembering which seats discarded on their last turn. The weights ``w`` ship
with the package (``td-weights.json``, :func:`shipped_weights`), learnt by
``docs/examples/td_learner.py`` over 4-player games against two ``medium``
bots; the file says how (command, seed, games, code). The bot plays 6 and 8
players with the same weights, which never saw such games.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from pegs_rules.board import START, is_home
from pegs_rules.bots.bot import checked
from pegs_rules.bots.evaluation import after, effects_of, won
from pegs_rules.cards import Rank, build_deck
from pegs_rules.events import CardDiscarded, CardPlayed, Event, Passed
from pegs_rules.moves import Discard, Move, Play
from pegs_rules.rules import Rules
from pegs_rules.views import PlayerView

__all__ = [
    "SIZE",
    "TEAM_FEATURES",
    "TdBot",
    "TdSeat",
    "TdWeights",
    "features",
    "shipped_weights",
    "win_chance",
]

TEAM_FEATURES = 44
"""Features of one team's pegs (see :func:`features`)."""
SIZE = 2 * TEAM_FEATURES + 8 + 4
"""Features in all."""


@cache
def _deck(rules: Rules, players: int) -> Counter[Rank]:
    return Counter(build_deck(*rules.deck_for(players)))


def features(
    pegs: tuple[tuple[int, ...], ...],
    hand: list[Rank],
    seen: PlayerView,
    discarded: Sequence[bool],
) -> list[float]:
    """The features of the position ``pegs`` that a move of ``seen.seat`` leaves, ``hand``
    being its hand after the move, for that seat's team.

    For each team, ours first (``TEAM_FEATURES`` each), summed over its pegs:
    pegs in start, pegs home and how deep; for pegs on the track, how far round
    they are, in all and in eight bands; for each distance ``d`` from 1 to 13,
    the pegs with a rival peg ``d`` holes behind (a card moving ``d`` sends them
    back to start), counted and weighted by how far round they are; pegs with a rival 8
    holes ahead (an 8 moves back), or on a rival's come-out hole while it has
    pegs to bring out; and how far round they are times the chance that the
    other team holds a joker, which can land on any peg. Then for the position
    as a whole: a constant; our hand (jokers, cards that come out, 7s, 8s); the
    joker chances; and from what the seat has heard (``discarded``, by seat):
    how many opponents discarded on their last turn, alone and times our
    pegs' exposure, and how many of our team did.
    """
    players = len(pegs)
    length = 18 * players  # holes on the track
    team = seen.seat % 2
    out = [0.0] * SIZE
    held = [0, 0]  # the track holes each team holds, as bits, twice round
    for seat, locations in enumerate(pegs):
        for location in locations:
            if location != START and not is_home(location):
                held[seat % 2] |= 1 << location
    twice = [bits | bits << length for bits in held]
    waiting = {18 * seat + 8: seat % 2 for seat, locs in enumerate(pegs) if START in locs}
    # the chance that a team holds a joker: from the jokers not seen (in our hand or the pile)
    deck = _deck(seen.rules, players)
    unseen = deck.total() - len(seen.hand) - len(seen.discard_pile)
    jokers = deck[Rank.JOKER] - seen.discard_pile.count(Rank.JOKER) - seen.hand.count(Rank.JOKER)
    share = max(jokers, 0) / max(unseen, 1)
    theirs = sum(n for seat, n in enumerate(seen.hand_sizes) if seat % 2 != team)
    mate = sum(
        n for seat, n in enumerate(seen.hand_sizes) if seat % 2 == team and seat != seen.seat
    )
    their_joker = 1 - (1 - share) ** theirs
    our_joker = 1.0 if Rank.JOKER in hand else 1 - (1 - share) ** mate
    for seat, locations in enumerate(pegs):
        ours = seat % 2 == team
        base = 0 if ours else TEAM_FEATURES
        spot = 18 * seat + 3  # its in-spot, where its home lane starts
        rivals = twice[1 - seat % 2]
        joker = their_joker if ours else our_joker
        for location in locations:
            if location == START:
                out[base] += 0.2
            elif is_home(location):
                out[base + 1] += 0.2
                out[base + 2] += (location - 1000) / 25
            else:
                done = 1 - (spot - location) % length / length
                out[base + 3] += done / 5
                out[base + 4 + min(7, int(done * 8))] += 0.2
                behind = rivals >> (location + length - 13) & 0x1FFF  # bit 13 - d: d behind
                while behind:
                    lowest = behind & -behind
                    d = 14 - lowest.bit_length()
                    out[base + 11 + d] += 0.2
                    out[base + 24 + d] += done / 5
                    behind ^= lowest
                if rivals >> (location + 8) & 1:
                    out[base + 38] += 0.2
                    out[base + 39] += done / 5
                if waiting.get(location, seat % 2) != seat % 2:
                    out[base + 40] += 0.2
                    out[base + 41] += done / 5
                out[base + 42] += joker * done / 5
                out[base + 43] += joker * 0.2
    whole = 2 * TEAM_FEATURES
    out[whole] = 1.0
    out[whole + 1] = hand.count(Rank.JOKER) / 2
    out[whole + 2] = sum(card in (Rank.ACE, Rank.KING, Rank.JOKER) for card in hand) / 5
    out[whole + 3] = hand.count(Rank.SEVEN) / 3
    out[whole + 4] = hand.count(Rank.EIGHT) / 3
    out[whole + 5] = their_joker
    out[whole + 6] = our_joker
    out[whole + 7] = share
    heard = whole + 8
    side = players // 2  # seats a team
    stuck = sum(discarded[seat] for seat in range(players) if seat % 2 != team) / side
    out[heard] = stuck
    out[heard + 1] = stuck * out[3] * 5  # times how far round our pegs are
    out[heard + 2] = stuck * out[43] * 5  # times our pegs exposed to a joker
    out[heard + 3] = sum(discarded[seat] for seat in range(players) if seat % 2 == team) / side
    return out


class TdSeat:
    """What a seat valuing afterstates keeps between its turns, as an
    :class:`~pegs_rules.bots.Observer`: which seats discarded (or passed) rather than played on
    their last turn. :class:`TdBot` plays with it; the example's learner learns with it."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.discarded: list[bool] = []

    def start(self, seen: PlayerView) -> None:
        self.discarded = [False] * seen.players

    def observe(self, events: tuple[Event, ...]) -> None:
        for event in events:
            if isinstance(event, (CardDiscarded, Passed)):
                self.discarded[event.seat] = True
            elif isinstance(event, CardPlayed):
                self.discarded[event.seat] = False

    def afterstates(
        self, seen: PlayerView, moves: tuple[Move, ...]
    ) -> tuple[Move | None, list[list[float]]]:
        """A move of ``moves`` that wins outright if there is one; else the :func:`features` of
        the position each move leaves, in order."""
        if len(self.discarded) != seen.players:  # not told of the game's start
            self.discarded = [False] * seen.players
        effects = effects_of(seen)
        rows = []
        for move in moves:
            pegs = after(seen.pegs, effects, move)
            if won(pegs, seen.seat % 2):
                return move, []
            hand = list(seen.hand)
            if isinstance(move, (Play, Discard)):
                hand.remove(move.card)
            rows.append(features(pegs, hand, seen, self.discarded))
        return None, rows


@dataclass(frozen=True)
class TdWeights:
    """Learnt weights, one a feature, and how they were learnt (``training``: the command, its
    seed, the games and the code, as the file records them)."""

    weights: tuple[float, ...]
    training: Mapping[str, Any]


@cache
def shipped_weights() -> TdWeights:
    """The weights that ship with the package, from ``pegs_rules/bots/td-weights.json``."""
    text = resources.files("pegs_rules.bots").joinpath("td-weights.json").read_text("utf-8")
    data = json.loads(text)
    weights = tuple(float(w) for w in data["weights"])
    if len(weights) != SIZE:
        raise ValueError(f"td-weights.json: {len(weights)} weights, not {SIZE}")
    return TdWeights(weights, MappingProxyType(data["training"]))


def win_chance(weights: Sequence[float], x: Sequence[float]) -> float:
    """``sigmoid(weights @ x)``: the learnt chance of winning from a position of features
    ``x``."""
    total = sum(w * f for w, f in zip(weights, x, strict=True))
    if total < 0:  # exp of a large positive number would overflow
        low = math.exp(total)
        return low / (1 + low)
    return 1 / (1 + math.exp(-total))


class TdBot(TdSeat):
    """Plays the move whose afterstate has the highest learnt value (ties at random), with the
    shipped weights unless given others (``SIZE`` of them)."""

    def __init__(self, seed: int = 0, weights: Sequence[float] | None = None) -> None:
        super().__init__(seed)
        self.weights = shipped_weights().weights if weights is None else tuple(weights)
        if len(self.weights) != SIZE:
            raise ValueError(f"a TdBot takes {SIZE} weights, not {len(self.weights)}")

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        checked(view, moves)
        if len(moves) == 1:
            return moves[0]
        winning, rows = self.afterstates(view, moves)
        if winning is not None:
            return winning
        values = [win_chance(self.weights, x) for x in rows]
        top = max(values)
        best = [i for i, v in enumerate(values) if v >= top - 1e-12]
        return moves[best[self.rng.randrange(len(best))]]
