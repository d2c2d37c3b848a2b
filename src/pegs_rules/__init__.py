"""pegs-rules: the reference rules engine for Pegs and Jokers (Arizona preset).

>>> from pegs_rules import new_game, legal_moves, apply
>>> game = new_game(4, seed=7)
>>> game = apply(game, legal_moves(game)[0])
>>> game.ply
1
"""

from pegs_rules.board import START, Board, Location, home, is_home, is_track, location_name
from pegs_rules.cards import Rank
from pegs_rules.errors import IllegalMoveError, NotationError, PegsError, PositionError
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import Discard, Move, Pass, Play, Step, parse_notation
from pegs_rules.position import parse_position
from pegs_rules.rules import ARIZONA, Rules, find_preset
from pegs_rules.state import GameState, new_game
from pegs_rules.turn import apply

__version__ = "0.1.0"

__all__ = [
    "ARIZONA",
    "START",
    "Board",
    "Discard",
    "GameState",
    "IllegalMoveError",
    "Location",
    "Move",
    "NotationError",
    "Pass",
    "PegsError",
    "Play",
    "PositionError",
    "Rank",
    "Rules",
    "Step",
    "apply",
    "find_preset",
    "home",
    "is_home",
    "is_track",
    "legal_moves",
    "location_name",
    "new_game",
    "parse_notation",
    "parse_position",
]
