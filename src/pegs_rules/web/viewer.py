"""A game record replayed for the page: every position, every move's events, and a summary.

The record viewer steps through a game one ply at a time, so :func:`replayed`
keeps each position (``positions[p]`` is the one after ``p`` moves) and each
move's events. Like :func:`~pegs_rules.records.replay` (and ``pegs replay``) it
stops at the first move that cannot be made, and says which ruling forbids it.

>>> from pegs_rules import new_game, legal_moves, apply
>>> from pegs_rules.records import record_of
>>> game = start = new_game(4, seed=1)
>>> moves = []
>>> for _ in range(3):
...     moves.append(legal_moves(game)[0])
...     game = apply(game, moves[-1])
>>> [str(move) for move in moves]
['discard 7', 'A 1:s-26', 'J 0:s-8']
>>> record = record_of(start, [*moves, "K 0:s-8"])
>>> game_replayed = replayed(record)
>>> game_replayed.end, game_replayed.positions[-1] == game
(3, True)
>>> game_replayed.stop
Stop(turn=4, move='K 0:s-8', rule='turn.sequence', reason='seat 1 holds no K')
>>> [(seat["played"], seat["discarded"]) for seat in summary(game_replayed)["seats"]]
[(1, 0), (0, 0), (0, 1), (1, 0)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pegs_rules.board import is_home, team_of
from pegs_rules.errors import IllegalMoveError
from pegs_rules.events import (
    CardDiscarded,
    CardPlayed,
    Event,
    Passed,
    PegDisplaced,
    apply_with_events,
)
from pegs_rules.moves import parse_notation
from pegs_rules.records import GameRecord
from pegs_rules.state import GameState


@dataclass(frozen=True, slots=True)
class Stop:
    """The move ``turn`` (counted from 1) of a record, ``move``, cannot be made: ``rule`` forbids it."""

    turn: int
    move: str
    rule: str
    reason: str


@dataclass(frozen=True, slots=True)
class Replayed:
    """A record replayed: ``positions[p]`` after ``p`` moves, ``events[p - 1]`` of move ``p``."""

    record: GameRecord
    positions: tuple[GameState, ...]
    events: tuple[tuple[Event, ...], ...]
    stop: Stop | None

    @property
    def end(self) -> int:
        """The last ply reached: every move of the record, or those before the one that stopped it."""
        return len(self.positions) - 1


def replayed(record: GameRecord) -> Replayed:
    """Every position of ``record``, up to its first illegal move (see :class:`Stop`)."""
    state = record.start()
    positions = [state]
    events = []
    stop = None
    for turn, text in enumerate(record.moves, 1):
        try:
            state, done = apply_with_events(state, parse_notation(text))
        except IllegalMoveError as error:
            stop = Stop(turn, text, error.rule, error.reason)
            break
        positions.append(state)
        events.append(done)
    return Replayed(record, tuple(positions), tuple(events), stop)


def summary(game: Replayed) -> dict[str, Any]:
    """The page's end-of-game summary: winner, turns, and per seat the cards it played,
    discarded or passed with, its pegs knocked back (``knocked_back``), the pegs it
    knocked (``knocked``) and its pegs home at the end."""
    last = game.positions[-1]
    seats: list[dict[str, Any]] = [
        {
            "seat": seat,
            "team": team_of(seat),
            "played": 0,
            "discarded": 0,
            "passed": 0,
            "knocked_back": 0,
            "knocked": 0,
            "home": sum(1 for loc in locs if is_home(loc)),
        }
        for seat, locs in enumerate(last.pegs)
    ]
    for before, done in zip(game.positions[:-1], game.events, strict=True):
        mover = seats[before.turn]
        for event in done:
            if isinstance(event, CardPlayed):
                mover["played"] += 1
            elif isinstance(event, CardDiscarded):
                mover["discarded"] += 1
            elif isinstance(event, Passed):
                mover["passed"] += 1
            elif isinstance(event, PegDisplaced):
                seats[event.seat]["knocked_back"] += 1
                mover["knocked"] += 1
    return {
        "type": "summary",
        "players": last.players,
        "preset": last.rules.name,
        "turns": last.ply,
        "winner": last.winner,
        "winners": [s for s in range(last.players) if team_of(s) == last.winner],
        "seats": seats,
    }
