"""pegs-rules: the reference rules engine for Pegs and Jokers (Arizona preset).

>>> from pegs_rules import new_game, legal_moves, apply
>>> game = new_game(4, seed=7)
>>> game = apply(game, legal_moves(game)[0])
>>> game.ply
1
"""

from pegs_rules.board import START, Board, Location, home, is_home, is_track, location_name
from pegs_rules.cards import Rank
from pegs_rules.errors import (
    AmbiguousMoveError,
    FormatError,
    IllegalMoveError,
    NotationError,
    PegsError,
    PositionError,
    ReplayError,
)
from pegs_rules.events import (
    CardDiscarded,
    CardPlayed,
    CardsDrawn,
    Event,
    GameOver,
    Passed,
    PegDisplaced,
    PegMoved,
    Reshuffled,
    apply_with_events,
    redact,
)
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import Discard, Move, Pass, Play, Step, parse_notation
from pegs_rules.notation import format_move, parse_move
from pegs_rules.position import parse_position
from pegs_rules.reasons import Explanation, explain
from pegs_rules.records import GameRecord, record_of, replay
from pegs_rules.rules import ARIZONA, Rules, find_preset
from pegs_rules.serialize import (
    FORMAT,
    events_to_data,
    from_data,
    from_json,
    moves_to_data,
    to_data,
    to_json,
)
from pegs_rules.state import GameState, new_game
from pegs_rules.turn import apply
from pegs_rules.validate import validate
from pegs_rules.views import PlayerView, determinize, view

__version__ = "0.2.0"

__all__ = [
    "ARIZONA",
    "FORMAT",
    "START",
    "AmbiguousMoveError",
    "Board",
    "CardDiscarded",
    "CardPlayed",
    "CardsDrawn",
    "Discard",
    "Event",
    "Explanation",
    "FormatError",
    "GameOver",
    "GameRecord",
    "GameState",
    "IllegalMoveError",
    "Location",
    "Move",
    "NotationError",
    "Pass",
    "Passed",
    "PegDisplaced",
    "PegMoved",
    "PegsError",
    "Play",
    "PlayerView",
    "PositionError",
    "Rank",
    "ReplayError",
    "Reshuffled",
    "Rules",
    "Step",
    "apply",
    "apply_with_events",
    "determinize",
    "events_to_data",
    "explain",
    "find_preset",
    "format_move",
    "from_data",
    "from_json",
    "home",
    "is_home",
    "is_track",
    "legal_moves",
    "location_name",
    "moves_to_data",
    "new_game",
    "parse_move",
    "parse_notation",
    "parse_position",
    "record_of",
    "redact",
    "replay",
    "to_data",
    "to_json",
    "validate",
    "view",
]
