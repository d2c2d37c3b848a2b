"""Move values: what a player may do on a turn.

A move is one of :class:`Play` (a card and the steps it makes),
:class:`Discard` (``turn.discard``) or :class:`Pass` (an empty hand,
``turn.pass``). All are frozen, hashable and equal by value.

Notation (``str(move)``):

* a play is the card symbol followed by its steps, each ``seat:from-to``
  with locations written as in :func:`pegs_rules.board.location_name`:
  ``K 1:s-26`` (come out), ``5 0:12-17``, ``8 0:8-0``, ``7 0:70-h2 2:33-37``
  (a split, parts in the order they are carried out), ``JK 0:s-40``;
* a discard is ``discard`` and the card: ``discard 7``;
* a pass is ``pass``.

Pegs knocked away by a landing are consequences, not steps, and are not
written. :func:`parse_notation` reads this notation back.

>>> from pegs_rules.board import START, home
>>> str(Play(Rank.SEVEN, (Step(0, 70, home(2)), Step(2, 33, 37))))
'7 0:70-h2 2:33-37'
>>> str(Play(Rank.KING, (Step(1, START, 26),)))
'K 1:s-26'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from pegs_rules.board import Location, location_name, parse_location
from pegs_rules.cards import Rank
from pegs_rules.errors import NotationError


class Step(NamedTuple):
    """One peg of colour ``seat`` moving from ``src`` to ``dst``."""

    seat: int
    src: Location
    dst: Location

    def __str__(self) -> str:
        return f"{self.seat}:{location_name(self.src)}-{location_name(self.dst)}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` and carry out ``steps`` in order (one, or two for a split)."""

    card: Rank
    steps: tuple[Step, ...]

    def __str__(self) -> str:
        return " ".join([self.card.symbol, *map(str, self.steps)])


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard ``card`` without moving (``turn.discard``)."""

    card: Rank

    def __str__(self) -> str:
        return f"discard {self.card.symbol}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass: only for a player with no cards (``turn.pass``)."""

    def __str__(self) -> str:
        return "pass"


Move = Play | Discard | Pass
"""Any move."""


def parse_notation(text: str) -> Move:
    """The move written as ``text`` in the notation above.

    >>> parse_notation("7 0:70-h2 2:33-37") == Play(Rank.SEVEN, (Step(0, 70, 1002), Step(2, 33, 37)))
    True
    >>> parse_notation("7 0:70")
    Traceback (most recent call last):
    ...
    pegs_rules.errors.NotationError: bad step '0:70' in '7 0:70': write steps as seat:from-to
    """
    if not isinstance(text, str):
        raise NotationError(f"a move is written as text, not {type(text).__name__}")
    words = text.split()
    if words == ["pass"]:
        return Pass()
    try:
        if len(words) == 2 and words[0] == "discard":
            return Discard(Rank.parse(words[1]))
        if not words:
            raise ValueError
        rank = Rank.parse(words[0])
    except ValueError:
        raise NotationError(
            f"not a move: {text!r} (write a card and its steps, 'discard CARD' or 'pass')"
        ) from None
    if not 1 <= len(words) - 1 <= 2:
        raise NotationError(f"a play has one or two steps, not {len(words) - 1}: {text!r}")
    return Play(rank, tuple(_parse_step(word, text) for word in words[1:]))


def _parse_step(word: str, text: str) -> Step:
    seat, colon, rest = word.partition(":")
    src, dash, dst = rest.partition("-")
    try:
        if not (colon and dash and seat.isdigit()):
            raise ValueError
        return Step(int(seat), parse_location(src), parse_location(dst))
    except ValueError:
        raise NotationError(f"bad step {word!r} in {text!r}: write steps as seat:from-to") from None
