"""Perft: the number of distinct move sequences of a given length from a position.

As chess's perft counts move-generator leaves, :func:`perft` counts every
sequence of ``depth`` legal moves (plays, discards and passes, each followed
by the draws it makes from the known draw pile), and :func:`divide` splits
the count by first move. A sequence that ends the game early is not counted
at the depths beyond its end. Engines compare these numbers to find
move-generation bugs; ``specs/perft.json`` holds reference counts.

>>> from pegs_rules import parse_position
>>> state = parse_position('''
... pegs 0: 70
... hand 0: 7
... hand 1: 2
... draw: 5 5 5 5 5 5 5 5
... ''')
>>> perft(state, 1), perft(state, 2)
(2, 2)
>>> divide(state, 2)
{'7 0:70-5': 1, '7 0:70-h2': 1}
"""

from __future__ import annotations

from pegs_rules.movegen import legal_moves
from pegs_rules.state import GameState
from pegs_rules.turn import apply


def perft(state: GameState, depth: int) -> int:
    """How many sequences of ``depth`` legal moves start from ``state``."""
    if depth == 0:
        return 1
    moves = legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(apply(state, move), depth - 1) for move in moves)


def divide(state: GameState, depth: int) -> dict[str, int]:
    """:func:`perft` at ``depth`` (at least 1) for each first move, in legal-move order."""
    return {str(move): perft(apply(state, move), depth - 1) for move in legal_moves(state)}
