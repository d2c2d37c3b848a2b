"""Learn to beat the medium bot: TD(lambda) on the positions moves leave, with numpy alone.

The learner plays both seats of one team of a 4-player game against two
``medium`` bots (:class:`pegs_rules.bots.GreedyBot`), seeing only its seats'
views. It scores each of its legal moves by a learnt value of the position
the move leaves (its *afterstate*), ``V(x) = sigmoid(w @ x)``, the chance its
team goes on to win, for features ``x`` of that position (:func:`features`),
and plays the best (in training, a random move now and then instead). After
each of its moves it learns by TD(lambda): the value of the position it now
chose is the target for the one it chose before, and the game's end is the
target for the last (1 for a win; for a loss a little for each peg the team
brought home, so that the first games, all lost, already teach something).

It also follows the game between its turns, as a
:class:`~pegs_rules.bots.Observer`: told of every seat's turn, it remembers
which opponents last discarded rather than moved (their hands held no card
that could move a peg), and the features use that memory.

Training deals are seeds ``1_000_000 * (seed + 1) + i``; the test deals are
seeds ``0 .. test_deals - 1``, none of which training saw. In the test the
learner plays its best move always and learns nothing, from one team's seats
in even deals and the other's in odd ones.

Usage: python docs/examples/td_learner.py [--minutes M] [--test-deals N] [--seed S] [--json FILE]
(M: CPU minutes of training, 10 by default; N: 400 by default)
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pegs_rules import (
    ARIZONA,
    CardDiscarded,
    CardPlayed,
    Event,
    GameOver,
    Move,
    Passed,
    PlayerView,
    Rank,
    new_game,
)
from pegs_rules.board import START, is_home
from pegs_rules.bots import Bot, GreedyBot, play
from pegs_rules.bots.evaluation import after, effects_of, won
from pegs_rules.cards import build_deck
from pegs_rules.moves import Discard, Play
from pegs_rules.simulate import wilson

PLAYERS = 4
LENGTH = 18 * PLAYERS
"""Holes on the track."""
TEAM_FEATURES = 44
"""Features of one team's pegs (see :func:`features`)."""
SIZE = 2 * TEAM_FEATURES + 8 + 4
"""Features in all."""
DECK = Counter(build_deck(*ARIZONA.deck_for(PLAYERS)))
Vector = npt.NDArray[np.float64]


def features(
    pegs: tuple[tuple[int, ...], ...],
    hand: list[Rank],
    seen: PlayerView,
    discarded: list[bool],
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
    team = seen.seat % 2
    out = [0.0] * SIZE
    held = [0, 0]  # the track holes each team holds, as bits, twice round
    for seat, locations in enumerate(pegs):
        for location in locations:
            if location != START and not is_home(location):
                held[seat % 2] |= 1 << location
    twice = [bits | bits << LENGTH for bits in held]
    waiting = {18 * seat + 8: seat % 2 for seat, locs in enumerate(pegs) if START in locs}
    # the chance that a team holds a joker: from the jokers not seen (in our hand or the pile)
    unseen = DECK.total() - len(seen.hand) - len(seen.discard_pile)
    jokers = DECK[Rank.JOKER] - seen.discard_pile.count(Rank.JOKER) - seen.hand.count(Rank.JOKER)
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
                done = 1 - (spot - location) % LENGTH / LENGTH
                out[base + 3] += done / 5
                out[base + 4 + min(7, int(done * 8))] += 0.2
                behind = rivals >> (location + LENGTH - 13) & 0x1FFF  # bit 13 - d: d behind
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
    stuck = sum(discarded[seat] for seat in range(PLAYERS) if seat % 2 != team) / 2
    out[heard] = stuck
    out[heard + 1] = stuck * out[3] * 5  # times how far round our pegs are
    out[heard + 2] = stuck * out[43] * 5  # times our pegs exposed to a joker
    out[heard + 3] = sum(discarded[seat] for seat in range(PLAYERS) if seat % 2 == team) / 2
    return out


@dataclass
class Value:
    """The learnt value of a position, ``sigmoid(weights @ x)``, and how it learns."""

    weights: Vector = field(default_factory=lambda: np.zeros(SIZE))
    rate: float = 0.1
    """The step size."""
    trace_decay: float = 0.7
    """TD's lambda: how much of the credit for an outcome goes back to earlier moves."""
    explore: float = 0.05
    """In training, the chance of a random move instead of the best."""
    learning: bool = True

    def __call__(self, x: Vector) -> Vector:
        result: Vector = 1 / (1 + np.exp(-(x @ self.weights)))
        return result


class Learner:
    """One seat of the learner's team: a bot (it chooses moves) and an observer (it hears every
    turn). Both seats share one :class:`Value`."""

    def __init__(self, value: Value, seed: int) -> None:
        self.value = value
        self.rng = random.Random(seed)

    def start(self, seen: PlayerView) -> None:
        self.seat = seen.seat
        self.trace = np.zeros(SIZE)
        self.last: float | None = None  # the value of the position its last move left
        self.discarded = [False] * PLAYERS
        self.won = False

    def observe(self, events: tuple[Event, ...]) -> None:
        for event in events:
            if isinstance(event, (CardDiscarded, Passed)):
                self.discarded[event.seat] = True
            elif isinstance(event, CardPlayed):
                self.discarded[event.seat] = False
            elif isinstance(event, GameOver):
                self.won = event.winner == self.seat % 2

    def choose(self, seen: PlayerView, moves: tuple[Move, ...]) -> Move:
        if len(moves) == 1:
            return moves[0]
        effects = effects_of(seen)
        rows = []
        for move in moves:
            pegs = after(seen.pegs, effects, move)
            if won(pegs, seen.seat % 2):
                return move
            hand = list(seen.hand)
            if isinstance(move, (Play, Discard)):
                hand.remove(move.card)
            rows.append(features(pegs, hand, seen, self.discarded))
        value = self.value
        xs = np.array(rows)
        values = value(xs)
        if value.learning and self.rng.random() < value.explore:
            pick = self.rng.randrange(len(moves))
        else:
            best = np.flatnonzero(values >= values.max() - 1e-12)
            pick = int(best[self.rng.randrange(len(best))])
        if value.learning:
            chosen = float(values[pick])
            self.learn(chosen)
            self.trace = value.trace_decay * self.trace + chosen * (1 - chosen) * xs[pick]
            self.last = chosen
        return moves[pick]

    def learn(self, target: float) -> None:
        """Move the value of the positions chosen so far towards ``target`` (TD's error)."""
        if self.last is not None:
            self.value.weights += self.value.rate * (target - self.last) * self.trace

    def end(self, pegs: tuple[tuple[int, ...], ...]) -> None:
        """Learn from the game's end: 1 for a win, a little for each peg home in a loss."""
        if self.value.learning:
            home = sum(is_home(p) for locs in pegs[self.seat % 2 :: 2] for p in locs)
            self.learn(1.0 if self.won else 0.4 * home / 9)


def game(value: Value, deal: int, side: int, seed: int) -> bool:
    """Play the game of seed ``deal``, the learner holding the seats of team ``side``; whether
    it won."""
    seats: list[Bot] = [
        Learner(value, seed * 16 + s) if s % 2 == side else GreedyBot(seed * 16 + s)
        for s in range(PLAYERS)
    ]
    end = play(seats, new_game(PLAYERS, seed=deal))
    for seat in seats:
        if isinstance(seat, Learner):
            seat.end(end.pegs)
    return end.winner == side


@dataclass
class Training:
    """How training went: every 100 games, the games and CPU seconds so far and the share of
    the last 200 won."""

    curve: list[tuple[int, float, float]] = field(default_factory=list)
    games: int = 0
    seconds: float = 0.0


def train(value: Value, *, seconds: float, seed: int = 0, max_games: int | None = None) -> Training:
    """Train ``value`` for ``seconds`` of CPU time (or ``max_games`` games) against medium."""
    began = time.process_time()
    done = Training()
    recent: list[bool] = []
    first_deal = 1_000_000 * (seed + 1)
    while time.process_time() - began < seconds and (max_games is None or done.games < max_games):
        recent = [*recent[-199:], game(value, first_deal + done.games, done.games % 2, done.games)]
        done.games += 1
        if done.games % 100 == 0:
            spent = time.process_time() - began
            done.curve.append((done.games, spent, sum(recent) / len(recent)))
    done.seconds = time.process_time() - began
    return done


def test(value: Value, deals: int) -> list[bool]:
    """Whether the learner won each of the games of seeds ``0 .. deals - 1``, playing its best
    move and learning nothing."""
    learning, value.learning = value.learning, False
    try:
        return [game(value, deal, deal % 2, 10_000_000 + deal) for deal in range(deals)]
    finally:
        value.learning = learning


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="training (CPU minutes)")
    parser.add_argument("--test-deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="write the curve and each test game here")
    args = parser.parse_args()
    value = Value()
    wall = time.perf_counter()
    done = train(value, seconds=args.minutes * 60, seed=args.seed)
    print(
        f"trained on {done.games} games in {done.seconds / 60:.1f} minutes of CPU "
        f"({(time.perf_counter() - wall) / 60:.1f} minutes on the clock)"
    )
    for games, spent, rate in done.curve[4::5]:
        print(f"  after {games:5d} games ({spent / 60:4.1f} min): won {rate:.0%} of the last 200")
    results = test(value, args.test_deals)
    wins, low, high = sum(results), *wilson(sum(results), len(results))
    print(
        f"test: won {wins} of {len(results)} new deals against medium "
        f"({wins / len(results):.1%}, 95% interval [{low:.1%}, {high:.1%}])"
    )
    if args.json:
        record = {
            "minutes": args.minutes,
            "seed": args.seed,
            "games": done.games,
            "cpu_seconds": round(done.seconds, 1),
            "curve": [[games, round(spent, 2), rate] for games, spent, rate in done.curve],
            "test": [int(result) for result in results],
            "weights": [round(float(w), 6) for w in value.weights],
        }
        args.json.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
