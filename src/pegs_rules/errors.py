"""The library's exceptions. Every error it raises on bad input is one of these.

All of them are :class:`PegsError` (a ``ValueError``), whatever the input: bad JSON, wrong
types, impossible positions. Which one:

* :class:`IllegalMoveError`: a move the rules forbid, naming the ruling (:class:`ReplayError`
  for a move of a game record);
* :class:`NotationError`: text that is not a move or position (:class:`AmbiguousMoveError` for
  a move that the text does not single out);
* :class:`FormatError`: a JSON document that is not valid, listing every problem;
* :class:`RulesError`: a rules object that cannot be played;
* :class:`PositionError`: a position that cannot occur, including a state built by hand that
  the engine cannot work on.

A :class:`~pegs_rules.GameState` built by hand (with its constructor or
:func:`dataclasses.replace`) is not checked when it is made: states are made at every turn, and
checking each would slow the engine down. Any function that takes a state and cannot work on
it (a field of the wrong type, a seat's pegs missing, a turn that is no seat, ...) raises
:class:`PositionError` with a message that starts ``malformed game state:`` and lists every
problem :func:`~pegs_rules.validate` finds; the error it ran into is its ``__cause__``. A state
that is wrong only where a function does not look may still get an answer, so check a state
from outside with :func:`~pegs_rules.validate` before use (:func:`~pegs_rules.from_json` does).

>>> from dataclasses import replace
>>> from pegs_rules import new_game, legal_moves, validate
>>> broken = replace(new_game(4, seed=1), hands=None)
>>> try:
...     legal_moves(broken)
... except PositionError as error:
...     print(error)
malformed game state: hands: expected a tuple of tuples of cards, one per seat
>>> validate(broken)
['hands: expected a tuple of tuples of cards, one per seat']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pegs_rules.state import GameState


class PegsError(ValueError):
    """Base class of every error the library raises on bad input."""


def shown(value: object) -> str:
    """``repr(value)`` for an error message, even where Python cannot print it.

    A whole number with more digits than Python converts to text (4,300 by
    default) is described by its size instead, so that a message about a bad
    value never fails itself.

    >>> shown(7), shown("7"), shown(-(10**5000))
    ('7', "'7'", '<a negative whole number of 16610 bits>')
    """
    try:
        return repr(value)
    except ValueError:
        if isinstance(value, int):
            sign = "negative " if value < 0 else ""
            return f"<a {sign}whole number of {value.bit_length()} bits>"
        return f"<a {type(value).__name__} holding a number too long to print>"


class IllegalMoveError(PegsError):
    """A move that the rules forbid in the given state.

    ``rule`` is the id of the ruling that forbids it (for example
    ``move.blocking``); the message starts with it.
    """

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"[{rule}] {reason}")
        self.rule = rule
        self.reason = reason


class PositionError(PegsError):
    """A position that cannot occur: bad text, impossible peg placement, bad values, or a
    hand-built state that a function cannot work on (``malformed game state: ...``)."""


class NotationError(PegsError):
    """Text that is not a move or position in the documented notation."""


class RulesError(PegsError):
    """A rules object whose values or combination of switches cannot be played."""


class FormatError(PegsError):
    """Data that is not a valid document of the library's JSON format (``pegs_rules.serialize``).

    Raised for text that is not JSON, a document of the wrong shape or
    version, and a document describing something impossible (a state whose
    pegs or cards cannot occur, unplayable rules, a record that cannot
    start). ``problems`` lists every problem found, each prefixed with where
    it was found (``$.pegs[2]``...); the message joins them.
    """

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems) or "invalid data")


class AmbiguousMoveError(NotationError):
    """Move text that matches several legal moves; ``candidates`` lists them."""

    def __init__(self, text: str, candidates: Sequence[object]) -> None:
        self.candidates = tuple(candidates)
        listed = ", ".join(map(str, self.candidates))
        super().__init__(f"{text!r} is ambiguous: it could be {listed}")


class ReplayError(IllegalMoveError):
    """A game record whose move ``turn`` (counted from 1) cannot be made.

    ``rule`` and ``reason`` say why, as for any :class:`IllegalMoveError`;
    ``move`` is the move's text and ``state`` the position it was tried in.
    """

    def __init__(self, turn: int, move: str, rule: str, reason: str, state: GameState) -> None:
        super().__init__(rule, reason)
        self.turn = turn
        self.move = move
        self.state = state
        self.args = (f"[{rule}] turn {turn}, {move!r}: {reason}",)
