"""Learn to beat the medium bot: TD(lambda) on the positions moves leave, with numpy alone.

The learner plays both seats of one team of a 4-player game against two
``medium`` bots (:class:`pegs_rules.bots.GreedyBot`), seeing only its seats'
views. It scores each of its legal moves by a learnt value of the position
the move leaves (its *afterstate*), ``V(x) = sigmoid(w @ x)``, the chance its
team goes on to win, for features ``x`` of that position
(:func:`pegs_rules.bots.td.features`), and plays the best (in training, a random move now and then instead). After
each of its moves it learns by TD(lambda): the value of the position it now
chose is the target for the one it chose before, and the game's end is the
target for the last (1 for a win; for a loss a little for each peg the team
brought home, so that the first games, all lost, already teach something).

It also follows the game between its turns, as a
:class:`~pegs_rules.bots.Observer` (:class:`pegs_rules.bots.td.TdSeat`): told
of every seat's turn, it remembers which opponents last discarded rather than
moved (their hands held no card that could move a peg), and the features use
that memory. The ``td`` bot (:class:`pegs_rules.bots.td.TdBot`) plays with the
weights it learns: ``--weights FILE`` writes them, with how they were learnt.

Training deals are seeds ``1_000_000 * (seed + 1) + i``; the test deals are
seeds ``0 .. test_deals - 1``, none of which training saw. In the test the
learner plays its best move always and learns nothing, from one team's seats
in even deals and the other's in odd ones.

Usage: python docs/examples/td_learner.py [--minutes M | --games G] [--test-deals N] [--seed S]
[--json FILE] [--weights FILE]
(M: CPU minutes of training, 10 by default; G: train for G games instead, which replays exactly;
N: 400 by default)

The shipped weights of the ``td`` bot were made by::

    python docs/examples/td_learner.py --games 4516 --seed 0 --weights src/pegs_rules/bots/td-weights.json
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pegs_rules import Event, GameOver, Move, PlayerView, new_game
from pegs_rules.board import is_home
from pegs_rules.bots import Bot, GreedyBot, play
from pegs_rules.bots.td import SIZE, TdSeat
from pegs_rules.simulate import played_by, wilson

PLAYERS = 4
Vector = npt.NDArray[np.float64]


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


class Learner(TdSeat):
    """One seat of the learner's team: a bot (it chooses moves) and an observer (it hears every
    turn, as :class:`~pegs_rules.bots.td.TdSeat`). Both seats share one :class:`Value`."""

    def __init__(self, value: Value, seed: int) -> None:
        super().__init__(seed)
        self.value = value

    def start(self, seen: PlayerView) -> None:
        super().start(seen)
        self.seat = seen.seat
        self.trace = np.zeros(SIZE)
        self.last: float | None = None  # the value of the position its last move left
        self.won = False

    def observe(self, events: tuple[Event, ...]) -> None:
        super().observe(events)
        for event in events:
            if isinstance(event, GameOver):
                self.won = event.winner == self.seat % 2

    def choose(self, seen: PlayerView, moves: tuple[Move, ...]) -> Move:
        if len(moves) == 1:
            return moves[0]
        winning, rows = self.afterstates(seen, moves)
        if winning is not None:
            return winning
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


EARLY = 50
"""Training keeps the weights after this many games, for a test to learn again (quickly)."""


@dataclass
class Training:
    """How training went: every 100 games, the games and CPU seconds so far and the share of
    the last 200 won; and the weights after the first :data:`EARLY` games."""

    curve: list[tuple[int, float, float]] = field(default_factory=list)
    games: int = 0
    seconds: float = 0.0
    early: list[float] = field(default_factory=list)


def train(value: Value, *, seconds: float, seed: int = 0, max_games: int | None = None) -> Training:
    """Train ``value`` for ``seconds`` of CPU time (or ``max_games`` games) against medium."""
    began = time.process_time()
    done = Training()
    recent: list[bool] = []
    first_deal = 1_000_000 * (seed + 1)
    while time.process_time() - began < seconds and (max_games is None or done.games < max_games):
        recent = [*recent[-199:], game(value, first_deal + done.games, done.games % 2, done.games)]
        done.games += 1
        if done.games == EARLY:
            done.early = [float(w) for w in value.weights]
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
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=float, default=10.0, help="training (CPU minutes)")
    budget.add_argument("--games", type=int, help="training (games): replays exactly")
    parser.add_argument("--test-deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="write the curve and each test game here")
    parser.add_argument("--weights", type=Path, help="write the td bot's weights file here")
    args = parser.parse_args()
    value = Value()
    wall = time.perf_counter()
    if args.games is None:
        done = train(value, seconds=args.minutes * 60, seed=args.seed)
    else:
        done = train(value, seconds=math.inf, seed=args.seed, max_games=args.games)
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
    if args.weights:
        write_weights(args.weights, value, done, args, results)


def write_weights(
    path: Path, value: Value, done: Training, args: argparse.Namespace, results: list[bool]
) -> None:
    """The ``td`` bot's weights file: the weights, exactly, and how they were learnt."""
    first = 1_000_000 * (args.seed + 1)
    training = {
        "command": shlex.join(["python", "docs/examples/td_learner.py", *sys.argv[1:]]),
        "seed": args.seed,
        "games": done.games,
        "players": PLAYERS,
        "opponent": "medium",
        "deals": [first, first + done.games - 1],
        "cpu_seconds": round(done.seconds, 1),
        "trained_by": played_by(),
        "test": {"deals": len(results), "won": sum(results)},
        "early": {"games": EARLY, "weights": done.early},
    }
    record = {"training": training, "weights": [float(w) for w in value.weights]}
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
