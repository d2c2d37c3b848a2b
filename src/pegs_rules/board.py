"""Board geometry: seats, teams, track holes, start areas and home lanes.

Implements ``board.sides``, ``board.geometry`` and ``board.pegs``.

A *location* is a plain ``int`` that is meaningful together with the colour
(seat) of the peg standing on it:

* :data:`START` (``-1``): the peg is in its seat's start area (unordered);
* ``0 .. track_length - 1``: a main-track hole, numbered clockwise, hole
  ``18 * s`` being the corner where seat ``s``'s side begins;
* ``home(k)`` (``1000 + k`` for ``k`` in 1..5): hole ``k`` of the home lane
  of the peg's own seat; home 1 is entered first, home 5 is the back.

Track holes are shared by every colour; home holes belong to one colour, so
the same code names a different hole for each seat.

>>> board = Board(4)
>>> board.track_length, board.in_spot(1), board.come_out(1)
(72, 21, 26)
>>> location_name(home(2)), location_name(START), location_name(40)
('h2', 's', '40')
"""

from __future__ import annotations

from dataclasses import dataclass

from pegs_rules.errors import PositionError, shown

SIDE_HOLES = 18
"""Main-track holes on each side of the board (``board.geometry``)."""
IN_SPOT_OFFSET = 3
"""Offset of a seat's in-spot from the corner that begins its side."""
COME_OUT_OFFSET = 8
"""Offset of a seat's come-out hole from the corner that begins its side."""
PEGS_PER_SEAT = 5
"""Pegs of each colour (``board.pegs``)."""
MAX_PLAYERS = 8
"""The most seats a board may have (``board.sides``): 4, 6 or 8, each drawable."""
HOME_HOLES = 5
"""Holes in each home lane."""

START = -1
"""The location of a peg in its start area."""
_HOME_BASE = 1000

Location = int
"""A peg's location: :data:`START`, a track hole, or ``home(k)``."""


def home(k: int) -> Location:
    """The location code of home hole ``k`` (1..5) of the peg's own seat."""
    if not 1 <= k <= HOME_HOLES:
        raise PositionError(f"home holes are numbered 1..{HOME_HOLES}, not {shown(k)}")
    return _HOME_BASE + k


def is_home(location: Location) -> bool:
    """True if ``location`` is a home hole."""
    return location > _HOME_BASE


def is_track(location: Location) -> bool:
    """True if ``location`` is a main-track hole."""
    return 0 <= location < _HOME_BASE


def home_index(location: Location) -> int:
    """The number ``k`` (1..5) of a home location."""
    return location - _HOME_BASE


def location_name(location: Location) -> str:
    """Short name of a location: ``s`` (start), ``h1``..``h5`` or the hole number."""
    if location == START:
        return "s"
    if is_home(location):
        return f"h{shown(home_index(location))}"
    return shown(location)


def parse_location(text: str) -> Location:
    """Inverse of :func:`location_name`; raises ``ValueError`` on bad text."""
    text = text.strip().lower()
    if text == "s":
        return START
    if text.startswith("h") and text[1:].isdigit():
        return home(int(text[1:]))
    if text.isdigit():
        return int(text)
    raise ValueError(f"not a location: {text!r} (use s, h1..h5 or a hole number)")


def team_of(seat: int) -> int:
    """The team of a seat: teams are seated alternately (``board.sides``)."""
    return seat % 2


@dataclass(frozen=True, slots=True)
class Board:
    """The board for ``players`` seats: one identical side per seat.

    Seats are numbered 0..players-1 clockwise, the direction pegs travel.
    """

    players: int

    def __post_init__(self) -> None:
        players = self.players
        if not isinstance(players, int) or not 4 <= players <= MAX_PLAYERS or players % 2:
            raise PositionError(
                f"a board has 4, 6 or {MAX_PLAYERS} seats (board.sides), not {shown(players)}"
            )

    @property
    def track_length(self) -> int:
        """Holes in the main-track ring: 18 per side."""
        return SIDE_HOLES * self.players

    @property
    def seats(self) -> range:
        """All seats, clockwise from seat 0."""
        return range(self.players)

    def corner(self, seat: int) -> int:
        """The track hole where ``seat``'s side begins."""
        return SIDE_HOLES * seat

    def in_spot(self, seat: int) -> int:
        """The track hole in front of ``seat``'s home lane (``board.geometry``)."""
        return SIDE_HOLES * seat + IN_SPOT_OFFSET

    def come_out(self, seat: int) -> int:
        """The track hole just outside ``seat``'s start area (``board.geometry``)."""
        return SIDE_HOLES * seat + COME_OUT_OFFSET

    def home_holes(self) -> tuple[Location, ...]:
        """The home-lane locations of any seat, home 1 first."""
        return tuple(home(k) for k in range(1, HOME_HOLES + 1))

    def teammates(self, seat: int) -> tuple[int, ...]:
        """Every seat of ``seat``'s team, including ``seat``, in seat order."""
        return tuple(s for s in self.seats if team_of(s) == team_of(seat))

    def is_valid_location(self, location: Location) -> bool:
        """True if ``location`` exists on this board."""
        return (
            location == START
            or 0 <= location < self.track_length
            or _HOME_BASE < location <= _HOME_BASE + HOME_HOLES
        )
