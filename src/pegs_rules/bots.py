"""Simple bots: :class:`RandomBot` and the one-ply :class:`GreedyBot`.

A bot chooses among the legal moves it is given; all its chance comes from
its own seeded generator.
"""

from __future__ import annotations

import random
from typing import Protocol

from pegs_rules.board import START, Location, home_index, is_home, team_of
from pegs_rules.moves import Move, Play
from pegs_rules.state import GameState
from pegs_rules.turn import apply


class Bot(Protocol):
    """Anything that picks one of the legal moves of ``state``."""

    def choose(self, state: GameState, moves: tuple[Move, ...]) -> Move: ...


class RandomBot:
    """Picks uniformly at random from the legal moves."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState, moves: tuple[Move, ...]) -> Move:
        return self.rng.choice(moves)


def progress(state: GameState, seat: int, location: Location) -> int:
    """How far a peg of ``seat`` at ``location`` has come: 0 in start, more nearer home."""
    if location == START:
        return 0
    length = state.board.track_length
    if is_home(location):
        return length + home_index(location)
    return 1 + (location - state.board.come_out(seat)) % length


class GreedyBot:
    """One-ply greedy: the move that best improves its team's pegs against the other team's.

    Score of a position for team T: total :func:`progress` of T's pegs minus
    that of the other team's. Ties are broken at random.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState, moves: tuple[Move, ...]) -> Move:
        team = team_of(state.turn)
        best: list[Move] = []
        best_score = -(10**9)
        for move in moves:
            after = apply(state, move) if isinstance(move, Play) else state
            score = sum(
                progress(after, s, p) * (1 if team_of(s) == team else -1)
                for s, locs in enumerate(after.pegs)
                for p in locs
            )
            if score > best_score:
                best, best_score = [move], score
            elif score == best_score:
                best.append(move)
        return self.rng.choice(best)
