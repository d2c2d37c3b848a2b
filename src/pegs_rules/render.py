"""Pictures of a position: an SVG board (:func:`svg`) and a plain-text board (:func:`text`).

Both are pure functions of the state (and an optional move to show): the same
input always gives the same string, byte for byte. Neither needs anything
beyond the standard library.

The board follows ``board.geometry``: the track is a regular polygon with one
side of 18 holes per seat, numbered clockwise from 0; seat ``s``'s side begins
at corner hole ``18s``, its home lane (``h1`` nearest the track) turns off at
its in-spot ``18s + 3`` and its start area sits beside its come-out hole
``18s + 8``.

:func:`text` draws one line per side, for terminals and logs:

>>> from pegs_rules import parse_position, parse_notation
>>> state = parse_position('''
... turn: 2
... pegs 0: 1 h3
... pegs 1: 21 40
... pegs 2: 26 h1 h3
... hand 2: 7
... ''')
>>> print(text(state, parse_notation("7 0:1-h1 2:26-30")))
Pegs and Jokers: 4 players, ply 0, seat 2 to act (team 0: seats 0 2; team 1: seats 1 3)
move: 7 0:1-h1 2:26-30 = (1) seat 0 peg 1 -> h1, then (2) seat 2 peg 26 -> 30
key: . empty hole, digit = a peg of that seat, <x> in-spot (turn into home), [x] come-out (leave start)
           +0 +1 +2 +3 +4 +5 +6 +7 +8 +9 +10+11+12+13+14+15+16+17
seat 0:  0  .  0  . <.> .  .  .  . [.] .  .  .  .  .  .  .  .  .  17  start 3  home h1-h5 [. . 0 . .]
seat 1: 18  .  .  . <1> .  .  .  . [2] .  .  .  .  .  .  .  .  .  35  start 3  home h1-h5 [. . . . .]
seat 2: 36  .  .  . <.> 1  .  .  . [.] .  .  .  .  .  .  .  .  .  53  start 2  home h1-h5 [2 . 2 . .]
seat 3: 54  .  .  . <.> .  .  .  . [.] .  .  .  .  .  .  .  .  .  71  start 5  home h1-h5 [. . . . .]

Seat 0's peg on hole 1 is two holes short of its in-spot (3) and turns into
home; seat 1's peg on hole 21 stands on its own in-spot; seat 2's peg on hole
26 stands on seat 1's come-out hole; seat 1's peg on hole 40 shows on seat 2's
side, 4 holes past its corner.

:func:`svg` draws the board as a standalone SVG document. Its elements carry
classes that tools and tests can count: ``hole track``, ``hole home seat-S``,
``hole start seat-S`` for holes, ``peg seat-S`` for pegs, ``move-arrow`` for
the steps of a move and ``highlight`` for highlighted holes. Holes and pegs
also say where they are, as a step of move notation does, so that a client
can make them clickable: ``data-loc`` is the location's name (``12``,
``h2``, ``s``) and ``data-seat`` the seat whose peg, home lane or start area
it is (track holes belong to no seat and have no ``data-seat``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from pegs_rules.board import (
    COME_OUT_OFFSET,
    HOME_HOLES,
    IN_SPOT_OFFSET,
    PEGS_PER_SEAT,
    SIDE_HOLES,
    START,
    Location,
    home,
    home_index,
    is_home,
    is_track,
    location_name,
    team_of,
)
from pegs_rules.errors import PositionError
from pegs_rules.moves import Discard, Move, Pass, Play, Step
from pegs_rules.state import GameState
from pegs_rules.validate import reraise

__all__ = ["SEAT_COLOURS", "svg", "text"]

SEAT_COLOURS = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#D55E00",  # vermillion
    "#4D4D4D",  # dark grey
    "#F0E442",  # yellow
)
"""Peg colour of each seat: the Okabe-Ito palette, chosen to stay distinct for
colour-blind viewers; pegs also carry their seat number so colour is never the
only cue. Even (team 0) seats get the cool colours, odd (team 1) the warm ones."""

_NAMES = ("blue", "orange", "green", "purple", "sky blue", "vermillion", "grey", "yellow")

# --------------------------------------------------------------------------
# Plain text
# --------------------------------------------------------------------------


def text(state: GameState, move: Move | None = None, *, compact: bool = False) -> str:
    """The position as plain ASCII text: a header, the move (if given) and one line per side.

    Each side line shows the 18 track holes of that seat's side, clockwise,
    between the numbers of its first and last hole, with a peg shown as its
    seat's digit; ``<x>`` marks the seat's in-spot and ``[x]`` its come-out
    hole. The line ends with how many pegs wait in the seat's start area and
    its home lane ``h1``..``h5``. The ruler above the sides counts holes from
    each side's corner.

    ``compact`` packs the same board into 80 columns, for 8 players too: one
    character a hole, the in-spot and come-out marks drawn around it, and a
    shorter header (``pegs play`` uses it).

    >>> from pegs_rules import new_game
    >>> print(text(new_game(8, seed=1), compact=True).splitlines()[3])
    seat 0:   0  . . .<.>. . . .[.]. . . . . . . . .  17  start 5  home . . . . .
    """
    try:
        _check_state(state)
        _check_move(state, move)
        board = state.board
        lines = [_headline(state, compact)]
        if move is not None:
            lines.append(f"move: {move}" if compact else f"move: {_describe(move)}")
        lines.append(
            "key: . empty hole, digit = a peg of that seat, <x> in-spot, [x] come-out"
            if compact
            else "key: . empty hole, digit = a peg of that seat, "
            "<x> in-spot (turn into home), [x] come-out (leave start)"
        )
        occupant = {p: seat for seat, locs in enumerate(state.pegs) for p in locs if is_track(p)}
        seat_width = len(str(board.players - 1))
        hole_width = len(str(board.track_length - 1))
        if compact:
            hole_width = 3

        def prefix(seat: int) -> str:
            return f"seat {seat:<{seat_width}}: {board.corner(seat):>{hole_width}} "

        if compact:
            marks = {0: "+0", IN_SPOT_OFFSET: "+3", COME_OUT_OFFSET: "+8", SIDE_HOLES - 1: "+17"}
            ruler = [" "] * (2 * SIDE_HOLES + 2)
            for k, mark in marks.items():
                ruler[2 * k : 2 * k + len(mark)] = mark
            lines.append(" " * len(prefix(0)) + "".join(ruler).rstrip())
        else:
            ruler_text = "".join(f"+{k:<2}" for k in range(SIDE_HOLES))
            lines.append(" " * len(prefix(0)) + ruler_text.rstrip())
        for seat in board.seats:
            cells = []
            for k in range(SIDE_HOLES):
                hole = board.corner(seat) + k
                mark = str(occupant[hole]) if hole in occupant else "."
                if compact:
                    before = {IN_SPOT_OFFSET: "<", IN_SPOT_OFFSET + 1: ">"}.get(k, " ")
                    before = {COME_OUT_OFFSET: "[", COME_OUT_OFFSET + 1: "]"}.get(k, before)
                    cells.append(before + mark)
                elif k == IN_SPOT_OFFSET:
                    cells.append(f"<{mark}>")
                elif k == COME_OUT_OFFSET:
                    cells.append(f"[{mark}]")
                else:
                    cells.append(f" {mark} ")
            locs = state.pegs[seat]
            lane = " ".join(str(seat) if loc in locs else "." for loc in board.home_holes())
            last = board.corner(seat) + SIDE_HOLES - 1
            home_text = f"home {lane}" if compact else f"home h1-h{HOME_HOLES} [{lane}]"
            lines.append(
                f"{prefix(seat)}{''.join(cells)} {last:>{hole_width}}"
                f"  start {locs.count(START)}  {home_text}"
            )
        return "\n".join(lines)
    except Exception as error:
        reraise(state, error)


def _headline(state: GameState, compact: bool = False) -> str:
    board = state.board
    if state.winner is not None:
        status = f"team {state.winner} has won"
    else:
        status = f"seat {state.turn} to act"
    teams = "; ".join(
        f"team {t}: seats " + " ".join(str(s) for s in board.seats if team_of(s) == t)
        for t in (0, 1)
    )
    if compact:
        seats = ", ".join(
            f"{t} = seats " + " ".join(str(s) for s in board.seats if team_of(s) == t)
            for t in (0, 1)
        )
        return f"{board.players} players, ply {state.ply}, {status}; teams: {seats}"
    return f"Pegs and Jokers: {board.players} players, ply {state.ply}, {status} ({teams})"


def _describe(move: Move) -> str:
    """The move in notation followed by a reading in plain words."""
    if isinstance(move, Play):
        parts = [
            f"seat {step.seat} peg {_place(step.src)} -> {_place(step.dst)}" for step in move.steps
        ]
        if len(parts) == 1:
            return f"{move} = {parts[0]}"
        return f"{move} = " + ", then ".join(f"({i}) {part}" for i, part in enumerate(parts, 1))
    if isinstance(move, Discard):
        return f"{move} (no peg moves)"
    return f"{move} (no cards, no peg moves)"


def _place(location: Location) -> str:
    return "start" if location == START else location_name(location)


# --------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------


def _check_state(state: object) -> None:
    if not isinstance(state, GameState):
        raise PositionError(f"expected a GameState, not {type(state).__name__}")
    board = state.board
    for seat, locs in enumerate(state.pegs):
        if not all(isinstance(p, int) and board.is_valid_location(p) for p in locs):
            raise PositionError(f"cannot draw seat {seat}'s pegs: not all on this board")
    counts_ok = isinstance(state.ply, int) and 0 <= state.ply < 10**9
    if state.turn not in board.seats or state.winner not in (None, 0, 1) or not counts_ok:
        raise PositionError("cannot draw a state whose turn, ply or winner is impossible")


def _check_move(state: GameState, move: object) -> None:
    if move is None or isinstance(move, (Discard, Pass)):
        return
    if not isinstance(move, Play):
        raise PositionError(f"expected a move (Play, Discard or Pass), not {move!r}")
    board = state.board
    for step in move.steps:
        ok = (
            isinstance(step, Step)
            and isinstance(step.seat, int)
            and 0 <= step.seat < board.players
            and all(isinstance(x, int) and board.is_valid_location(x) for x in (step.src, step.dst))
        )
        if not ok:
            raise PositionError(f"cannot draw step {step!r} on a {board.players}-seat board")


# --------------------------------------------------------------------------
# SVG geometry (in hole-spacing units; y grows downwards, so clockwise on
# screen is the direction of increasing angle)
# --------------------------------------------------------------------------

Point = tuple[float, float]

_LANE_GAP = 1.0
"""Distance between home-lane holes (and from the in-spot to h1)."""
_NEST_OUT = 2.35
"""How far outside the track the centre of a start area sits."""
_NEST_SPREAD = 0.72
"""Offset of the four outer start holes from the start area's centre."""
_NEST_RADIUS = 1.45
_BAND = 0.78
"""Half the width of the tinted band under each side's holes."""
_LABEL_ALONG = 13.5
_LABEL_OUT = 1.75
"""Where a seat's name stands: how far along its side, and how far outside."""
_MARGIN = 0.6
_HEADER = 2.9
_LEGEND_ROW = 1.5
_LEGEND_FONT = 0.66
_ARROW = "#111111"
_HIGHLIGHT = "#FFE14D"
_HIGHLIGHT_EDGE = "#7A5A00"
_HOLE_R = 0.2
_PEG_R = 0.42


class _Geometry:
    """Positions of every hole of a ``players``-seat board, in hole-spacing units."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.inradius = SIDE_HOLES / 2 / math.tan(math.pi / players)

    def outward(self, seat: int) -> Point:
        angle = math.pi / 2 + 2 * math.pi * seat / self.players
        return math.cos(angle), math.sin(angle)

    def along(self, seat: int) -> Point:
        ox, oy = self.outward(seat)
        return -oy, ox

    def at(self, seat: int, along: float, out: float) -> Point:
        """The point ``along`` holes from seat's corner and ``out`` units outside its side."""
        ox, oy = self.outward(seat)
        dx, dy = self.along(seat)
        a = along - SIDE_HOLES / 2
        r = self.inradius + out
        return ox * r + dx * a, oy * r + dy * a

    def track(self, hole: int) -> Point:
        seat, k = divmod(hole, SIDE_HOLES)
        return self.at(seat, k, 0.0)

    def home(self, seat: int, k: int) -> Point:
        return self.at(seat, IN_SPOT_OFFSET, -k * _LANE_GAP)

    def nest(self, seat: int) -> Point:
        return self.at(seat, COME_OUT_OFFSET, _NEST_OUT)

    def start(self, seat: int, i: int) -> Point:
        """Start hole ``i`` (0..4): the centre, then the four around it (dice-five pattern)."""
        offsets = ((0, 0), (-1, -1), (1, -1), (1, 1), (-1, 1))
        a, o = offsets[i]
        return self.at(seat, COME_OUT_OFFSET + a * _NEST_SPREAD, _NEST_OUT + o * _NEST_SPREAD)

    def corner_outside(self, seat: int, distance: float) -> Point:
        """A point ``distance`` outside corner ``18 * seat``, on the corner's bisector."""
        x, y = self.at(seat, 0, 0)
        norm = _length(x, y)
        return x + x / norm * distance, y + y / norm * distance

    def location(self, seat: int, location: Location) -> Point:
        if location == START:
            return self.nest(seat)
        if is_home(location):
            return self.home(seat, home_index(location))
        return self.track(location)

    def bounds(self) -> tuple[float, float, float, float]:
        """``(left, top, right, bottom)`` of everything drawn on and around the board."""
        points: list[Point] = []
        for seat in range(self.players):
            points += [
                self.at(seat, COME_OUT_OFFSET + a, _NEST_OUT + o)
                for a in (-1.5, 1.5)
                for o in (-1.5, 1.5)
            ]
            points += [self.at(seat, a, o) for a in (8.5, 18.5) for o in (-0.8, _LABEL_OUT + 1.5)]
            points.append(self.corner_outside(seat, 2.0))
            points.append(self.at(seat, IN_SPOT_OFFSET, 2.0))
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        return min(xs), min(ys), max(xs), max(ys)


# --------------------------------------------------------------------------
# SVG output
# --------------------------------------------------------------------------


def svg(
    state: GameState,
    move: Move | None = None,
    *,
    highlight: Iterable[int] = (),
    labels: bool = True,
    size: int = 520,
) -> str:
    """The position as a standalone SVG document ``size`` pixels wide.

    ``move`` (a move in this state) is drawn as arrows from each step's source
    to its destination, numbered 1 and 2 for the parts of a split;
    ``highlight`` lists track holes to ring; ``labels`` adds hole numbers for
    corners, in-spots and come-out holes (seat names are always shown).
    Raises :class:`~pegs_rules.errors.PositionError` for a highlight that is
    not a track hole or a move that cannot be drawn on this board.
    """
    try:
        _check_state(state)
        _check_move(state, move)
        if isinstance(size, bool) or not isinstance(size, int) or size < 50:
            raise PositionError(f"size must be a whole number of pixels >= 50, not {size!r}")
        board = state.board
        holes = list(highlight)
        for hole in holes:
            if (
                isinstance(hole, bool)
                or not isinstance(hole, int)
                or not 0 <= hole < board.track_length
            ):
                raise PositionError(
                    f"cannot highlight {hole!r}: track holes are 0..{board.track_length - 1}"
                )
        marked = sorted(set(holes))
        return _Drawing(state, move, marked, labels, size).document()
    except Exception as error:
        reraise(state, error)


_INK = "#222222"
_HOLE_STYLE = {"fill": "#FFFFFF", "stroke": "#333333"}
_HOLE_LINES: dict[tuple[int, int], tuple[str, ...]] = {}
"""The lines drawing every hole of a board, by player count and picture size: they depend
on nothing else, and are most of the drawing's work."""


class _Drawing:
    """One SVG document under construction; coordinates are in hole-spacing units."""

    def __init__(
        self, state: GameState, move: Move | None, marked: Sequence[int], labels: bool, size: int
    ) -> None:
        self.state = state
        self.move = move
        self.marked = marked
        self.labels = labels
        self.geo = _Geometry(state.players)
        left, top, right, bottom = self.geo.bounds()
        self.left = left - _MARGIN
        self.width = right - left + 2 * _MARGIN
        self.legend_rows = _rows(self.legend_items(), self.width - 2 * _MARGIN)
        self.board_bottom = bottom
        self.top = top - _HEADER
        self.height = bottom - self.top + _MARGIN + _LEGEND_ROW * len(self.legend_rows)
        self.scale = size / self.width
        self.size = size
        self.out: list[str] = []

    # -- coordinates and primitives ---------------------------------------

    def x(self, x: float) -> str:
        return _num((x - self.left) * self.scale)

    def y(self, y: float) -> str:
        return _num((y - self.top) * self.scale)

    def d(self, length: float) -> str:
        return _num(length * self.scale)

    def xy(self, p: Point) -> str:
        return f"{self.x(p[0])},{self.y(p[1])}"

    def circle(self, p: Point, r: float, **attrs: str) -> None:
        self.out.append(
            f'<circle cx="{self.x(p[0])}" cy="{self.y(p[1])}" r="{self.d(r)}"{_attrs(attrs)}/>'
        )

    def hole(self, p: Point, kind: str, **where: str) -> None:
        self.circle(
            p, _HOLE_R, **{"class": kind, "stroke-width": self.d(0.07)}, **where, **_HOLE_STYLE
        )

    def polygon(self, points: Sequence[Point], **attrs: str) -> None:
        self.out.append(f'<polygon points="{" ".join(map(self.xy, points))}"{_attrs(attrs)}/>')

    def label(
        self, p: Point, words: str, font: float, *, anchor: str = "middle", **attrs: str
    ) -> None:
        self.out.append(
            f'<text x="{self.x(p[0])}" y="{self.y(p[1])}" font-size="{self.d(font)}" '
            f'text-anchor="{anchor}" dominant-baseline="central"{_attrs(attrs)}>'
            f"{_esc(words)}</text>"
        )

    # -- the document ------------------------------------------------------

    def document(self) -> str:
        width, height = self.size, round(self.height * self.scale)
        self.out.append('<?xml version="1.0" encoding="UTF-8"?>')
        self.out.append(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" '
            'font-family="DejaVu Sans, Verdana, Arial, Helvetica, sans-serif">'
        )
        self.out.append(f"<title>{_esc(self.title())}</title>")
        self.out.append(f'<rect width="{width}" height="{height}" fill="#FFFFFF"/>')
        self.header()
        self.direction()
        for seat in range(self.state.players):
            self.side(seat)
        self.holes()
        if self.labels:
            self.hole_numbers()
        self.pegs()
        self.arrows()
        self.legend()
        self.out.append("</svg>")
        return "\n".join(self.out) + "\n"

    def title(self) -> str:
        state = self.state
        words = _headline(state).replace("Pegs and Jokers:", "Pegs and Jokers board:", 1)
        pegs = "; ".join(
            f"seat {seat} ({_NAMES[seat]}): " + " ".join(location_name(p) for p in locs)
            for seat, locs in enumerate(state.pegs)
        )
        words += f". Pegs (s = start, h1-h5 = home lane): {pegs}."
        if self.move is not None:
            words += f" Move: {_describe(self.move)}."
        return words

    def header(self) -> None:
        state = self.state
        middle = self.left + self.width / 2
        if state.winner is not None:
            status = f"team {state.winner} has won"
        else:
            status = f"seat {state.turn} (team {team_of(state.turn)}) to act"
        line = f"{state.players} players \u00b7 ply {state.ply} \u00b7 {status}"
        self.label((middle, self.top + 0.9), line, 0.9, **{"font-weight": "bold", "fill": _INK})
        if self.move is not None:
            self.label((middle, self.top + 2.0), f"move: {self.move}", 0.85, fill=_INK)

    def side(self, seat: int) -> None:
        """The tinted band of ``seat``'s side, its home lane and its start area."""
        geo = self.geo
        colour = SEAT_COLOURS[seat]
        tint = _mix(colour, 0.3)
        # The band runs from half a hole before the corner (on the previous
        # side) to half a hole before the next corner, so that the corner hole,
        # where this side begins, lies inside it.
        prev = (seat - 1) % self.state.players
        mitre = _BAND / math.cos(math.pi / self.state.players)
        band = [
            geo.at(prev, SIDE_HOLES - 0.5, _BAND),
            geo.corner_outside(seat, mitre),
            geo.at(seat, SIDE_HOLES - 0.5, _BAND),
            geo.at(seat, SIDE_HOLES - 0.5, -_BAND),
            geo.corner_outside(seat, -mitre),
            geo.at(prev, SIDE_HOLES - 0.5, -_BAND),
        ]
        self.polygon(band, **{"class": f"side seat-{seat}", "fill": tint})
        # Home lane: a tinted channel from the in-spot inwards.
        a = geo.at(seat, IN_SPOT_OFFSET, 0)
        b = geo.home(seat, HOME_HOLES)
        self.out.append(
            f'<line class="lane seat-{seat}" x1="{self.x(a[0])}" y1="{self.y(a[1])}" '
            f'x2="{self.x(b[0])}" y2="{self.y(b[1])}" stroke="{tint}" '
            f'stroke-width="{self.d(1.1)}" stroke-linecap="round"/>'
        )
        # Start area: a tinted disc outside the come-out hole, joined to it.
        come_out = geo.at(seat, COME_OUT_OFFSET, 0)
        nest = geo.nest(seat)
        self.out.append(
            f'<line x1="{self.x(come_out[0])}" y1="{self.y(come_out[1])}" '
            f'x2="{self.x(nest[0])}" y2="{self.y(nest[1])}" stroke="{colour}" '
            f'stroke-width="{self.d(0.3)}"/>'
        )
        self.circle(
            nest,
            _NEST_RADIUS,
            **{"class": f"start-area seat-{seat}", "fill": _mix(colour, 0.15), "stroke": colour},
            **{"stroke-width": self.d(0.12)},
        )
        self.seat_label(seat)

    def seat_label(self, seat: int) -> None:
        """``seat S \u00b7 team T`` beside the side, along it and upright; "to act" below."""
        geo = self.geo
        ox, oy = geo.outward(seat)
        angle = (math.degrees(math.atan2(oy, ox)) - 90 + 180) % 360 - 180
        if angle > 90:
            angle -= 180
        elif angle <= -90:
            angle += 180
        lines = [f"seat {seat} \u00b7 team {team_of(seat)}"]
        acting = self.state.winner is None and seat == self.state.turn
        if acting:
            lines.append("to act")
        # Lines stack away from the board whichever way the text is turned.
        flip = math.cos(math.radians(angle)) * oy - math.sin(math.radians(angle)) * ox
        for i, words in enumerate(lines):
            row = i if flip > 0 else len(lines) - 1 - i
            p = geo.at(seat, _LABEL_ALONG, _LABEL_OUT + 0.95 * row)
            self.out.append(
                f'<text class="seat-label" x="{self.x(p[0])}" y="{self.y(p[1])}" '
                f'font-size="{self.d(0.78)}" text-anchor="middle" dominant-baseline="central" '
                f'font-weight="{"bold" if acting else "normal"}" fill="{_INK}" '
                f'transform="rotate({_num(angle)} {self.x(p[0])} {self.y(p[1])})">'
                f"{_esc(words)}</text>"
            )

    def direction(self) -> None:
        """A circular arrow in the middle of the board: pegs travel clockwise."""
        r, first, last, count = 2.0, math.radians(200), math.radians(500), 24
        angles = [first + (last - first) * i / count for i in range(count + 1)]
        arc = [(r * math.cos(t), r * math.sin(t)) for t in angles]
        tangent = (-math.sin(last), math.cos(last))
        back = self._head(arc[-1], tangent, 0.6, "#9A9A9A")
        arc[-1] = back
        self.out.append(
            f'<polyline class="direction" points="{" ".join(map(self.xy, arc))}" fill="none" '
            f'stroke="#9A9A9A" stroke-width="{self.d(0.14)}"/>'
        )
        self.label((0, 0), "clockwise", 0.6, fill="#7A7A7A")

    def holes(self) -> None:
        geo = self.geo
        for hole in self.marked:
            self.circle(
                geo.track(hole),
                0.72,
                **{"class": "highlight", "fill": _HIGHLIGHT, "stroke": _HIGHLIGHT_EDGE},
                **{"stroke-width": self.d(0.16)},
            )
        # Every hole and its marks: the same lines for every board of this size, drawn once.
        key = (self.state.players, self.size)
        if key not in _HOLE_LINES:
            first = len(self.out)
            self.every_hole()
            _HOLE_LINES[key] = tuple(self.out[first:])
        else:
            self.out.extend(_HOLE_LINES[key])

    def every_hole(self) -> None:
        geo = self.geo
        board = self.state.board
        for hole in range(board.track_length):
            p = geo.track(hole)
            seat, k = divmod(hole, SIDE_HOLES)
            if k == COME_OUT_OFFSET:
                self._ring(p, SEAT_COLOURS[seat], "come-out-mark")
            elif k == IN_SPOT_OFFSET:
                self._diamond(p, SEAT_COLOURS[seat], "in-spot-mark")
            self.hole(p, "hole track", **{"data-loc": str(hole)})
        for seat in board.seats:
            for k in range(1, HOME_HOLES + 1):
                self.hole(geo.home(seat, k), f"hole home seat-{seat}", **_where(seat, home(k)))
            for i in range(PEGS_PER_SEAT):
                self.hole(geo.start(seat, i), f"hole start seat-{seat}", **_where(seat, START))

    def _ring(self, p: Point, colour: str, kind: str) -> None:
        self.circle(
            p,
            0.5,
            **{"class": kind, "fill": "#FFFFFF", "stroke": colour},
            **{"stroke-width": self.d(0.16)},
        )

    def _diamond(self, p: Point, colour: str, kind: str) -> None:
        r = 0.62
        points = [(p[0], p[1] - r), (p[0] + r, p[1]), (p[0], p[1] + r), (p[0] - r, p[1])]
        self.polygon(
            points,
            **{"class": kind, "fill": "#FFFFFF", "stroke": colour, "stroke-width": self.d(0.14)},
        )

    def hole_numbers(self) -> None:
        geo = self.geo
        style = {"class": "hole-number", "fill": _INK}
        for seat in range(self.state.players):
            base = seat * SIDE_HOLES
            self.label(geo.corner_outside(seat, 1.3), str(base), 0.62, **style)
            self.label(geo.at(seat, IN_SPOT_OFFSET, 1.3), str(base + IN_SPOT_OFFSET), 0.62, **style)
            self.label(
                geo.at(seat, COME_OUT_OFFSET, -1.25), str(base + COME_OUT_OFFSET), 0.62, **style
            )
            self.label(geo.home(seat, HOME_HOLES + 1), "home", 0.52, fill="#555555")

    def pegs(self) -> None:
        geo = self.geo
        for seat, locs in enumerate(self.state.pegs):
            colour = SEAT_COLOURS[seat]
            waiting = 0
            for loc in locs:
                if loc == START:
                    p = geo.start(seat, waiting)
                    waiting += 1
                else:
                    p = geo.location(seat, loc)
                self.circle(
                    p,
                    _PEG_R,
                    **{"class": f"peg seat-{seat}", "fill": colour, "stroke": "#1A1A1A"},
                    **{"stroke-width": self.d(0.07)},
                    **_where(seat, loc),
                )
                self.label(
                    p,
                    str(seat),
                    0.54,
                    **{"class": "peg-label", "fill": _ink(colour), "font-weight": "bold"},
                )

    def arrows(self) -> None:
        move = self.move
        if isinstance(move, Play):
            ends = [(step.src, step.dst) for step in move.steps]
            for number, step in enumerate(move.steps, 1):
                # the way back of a step already drawn (a swap) bows the other way, not over it
                back = (step.dst, step.src) in ends[: number - 1]
                self.arrow(step, number if len(move.steps) > 1 else None, outwards=back)

    def arrow(self, step: Step, number: int | None, *, outwards: bool = False) -> None:
        """A curved arrow from the step's source to its destination, bowed into the board
        (or, ``outwards``, away from its middle)."""
        geo = self.geo
        # A peg leaving start sets off from the middle of its start area.
        a = geo.start(step.seat, 0) if step.src == START else geo.location(step.seat, step.src)
        b = geo.location(step.seat, step.dst)
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = _length(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        if (nx * mx + ny * my > 0) != outwards:  # bow towards the middle of the board
            nx, ny = -nx, -ny
        bulge = min(max(0.35 * length, 1.6), 4.0)
        if step.src == START and length < 4:  # straight out to the come-out hole
            bulge = 0.0
        c = (mx + nx * bulge, my + ny * bulge)
        start = _towards(a, c if bulge else b, _PEG_R + 0.05)
        tip = _towards(b, c if bulge else a, 0.55)
        self.out.append(f'<g class="move-arrow step-{number or 1}">')
        self.circle(
            b,
            0.5,
            **{
                "class": "landing",
                "fill": "none",
                "stroke": _ARROW,
                "stroke-dasharray": self.d(0.2),
            },
            **{"stroke-width": self.d(0.08)},
        )
        # The arrowhead first (it reports where the shaft must stop), shaft and halo under it.
        head_at = len(self.out)
        base = self._head(tip, (tip[0] - c[0], tip[1] - c[1]), 0.8, _ARROW, halo=True)
        path = f"M{self.xy(start)} Q{self.xy(c)} {self.xy(base)}"
        shaft = [
            f'<path d="{path}" fill="none" stroke="#FFFFFF" stroke-width="{self.d(0.5)}" '
            'stroke-linecap="round"/>',
            f'<path d="{path}" fill="none" stroke="{_ARROW}" stroke-width="{self.d(0.24)}" '
            'stroke-linecap="round"/>',
        ]
        self.out[head_at:head_at] = shaft
        if number is not None:
            apex = (
                0.25 * start[0] + 0.5 * c[0] + 0.25 * base[0],
                0.25 * start[1] + 0.5 * c[1] + 0.25 * base[1],
            )
            badge = (apex[0] + nx * 0.75, apex[1] + ny * 0.75)
            self.circle(badge, 0.5, fill=_ARROW, stroke="#FFFFFF", **{"stroke-width": self.d(0.1)})
            self.label(badge, str(number), 0.62, **{"font-weight": "bold", "fill": "#FFFFFF"})
        self.out.append("</g>")

    def _head(
        self, tip: Point, direction: Point, length: float, colour: str, *, halo: bool = False
    ) -> Point:
        """Draw an arrowhead at ``tip`` pointing along ``direction``; return its base."""
        norm = _length(*direction) or 1.0
        ux, uy = direction[0] / norm, direction[1] / norm
        base = (tip[0] - ux * length * 0.8, tip[1] - uy * length * 0.8)
        back = (tip[0] - ux * length, tip[1] - uy * length)
        w = length * 0.5
        points = [
            tip,
            (back[0] - uy * w, back[1] + ux * w),
            base,
            (back[0] + uy * w, back[1] - ux * w),
        ]
        attrs = {"fill": colour}
        if halo:
            attrs |= {"stroke": "#FFFFFF", "stroke-width": self.d(0.1), "stroke-linejoin": "round"}
        self.polygon(points, **attrs)
        return base

    def legend_items(self) -> list[tuple[str, str]]:
        items = [
            ("come-out", "come-out hole (leave start)"),
            ("in-spot", "in-spot (turn into home)"),
            ("peg", "peg of seat S"),
        ]
        if isinstance(self.move, Play):
            words = "move" if len(self.move.steps) == 1 else "move, parts 1 and 2 in order"
            items.append(("arrow", words))
        if self.marked:
            items.append(("highlight", "highlighted hole"))
        return items

    def legend(self) -> None:
        y = self.board_bottom + _MARGIN + _LEGEND_ROW / 2
        middle = self.left + self.width / 2
        for row in self.legend_rows:
            x = middle - _row_width(row) / 2
            for kind, words in row:
                p = (x + 0.7, y)
                if kind == "come-out":
                    self._ring(p, "#555555", "legend")
                    self.hole(p, "legend")
                elif kind == "in-spot":
                    self._diamond(p, "#555555", "legend")
                    self.hole(p, "legend")
                elif kind == "peg":
                    self.circle(
                        p,
                        _PEG_R,
                        fill="#BBBBBB",
                        stroke="#1A1A1A",
                        **{"stroke-width": self.d(0.07)},
                    )
                    self.label(p, "S", 0.54, **{"fill": "#111111", "font-weight": "bold"})
                elif kind == "arrow":
                    a, b = (p[0] - 0.5, p[1] + 0.1), (p[0] + 0.55, p[1] + 0.1)
                    base = self._head(b, (1.0, 0.0), 0.6, _ARROW)
                    self.out.append(
                        f'<line x1="{self.x(a[0])}" y1="{self.y(a[1])}" x2="{self.x(base[0])}" '
                        f'y2="{self.y(base[1])}" stroke="{_ARROW}" stroke-width="{self.d(0.2)}"/>'
                    )
                else:
                    self.circle(
                        p,
                        0.6,
                        fill=_HIGHLIGHT,
                        stroke=_HIGHLIGHT_EDGE,
                        **{"stroke-width": self.d(0.16)},
                    )
                    self.hole(p, "legend")
                self.label((x + 1.55, y), words, _LEGEND_FONT, anchor="start", fill=_INK)
                x += _item_width(words)
            y += _LEGEND_ROW


def _where(seat: int, location: Location) -> dict[str, str]:
    """The ``data-seat`` and ``data-loc`` attributes of a peg or a seat's own hole."""
    return {"data-seat": str(seat), "data-loc": location_name(location)}


def _item_width(words: str) -> float:
    return 2.4 + len(words) * _LEGEND_FONT * 0.55


def _row_width(row: list[tuple[str, str]]) -> float:
    """The width of a legend row, its items added left to right (``sum`` adds floats with
    compensation from Python 3.12 on, and JavaScript's port must get the same bits)."""
    width = 0.0
    for _, words in row:
        width += _item_width(words)
    return width


def _rows(items: list[tuple[str, str]], width: float) -> list[list[tuple[str, str]]]:
    """Legend items in rows no wider than ``width`` (at least one item per row)."""
    rows: list[list[tuple[str, str]]] = [[]]
    used = 0.0
    for item in items:
        w = _item_width(item[1])
        if rows[-1] and used + w > width:
            rows.append([])
            used = 0.0
        rows[-1].append(item)
        used += w
    return rows


def _length(dx: float, dy: float) -> float:
    """The length of ``(dx, dy)`` from operations that IEEE 754 rounds exactly (products, a sum,
    a square root), so that every Python and the TypeScript port (``js/src/render.ts``) get the
    same bits: ``math.hypot`` rounds its own way (it differs from JavaScript's ``Math.hypot`` in
    about a third of the lengths a board takes). The lengths here are far from overflow."""
    return math.sqrt(dx * dx + dy * dy)


def _towards(p: Point, q: Point, distance: float) -> Point:
    dx, dy = q[0] - p[0], q[1] - p[1]
    norm = _length(dx, dy) or 1.0
    return p[0] + dx / norm * distance, p[1] + dy / norm * distance


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attrs(attrs: dict[str, str]) -> str:
    return "".join(f' {key}="{_esc(value)}"' for key, value in sorted(attrs.items()))


def _esc(words: str) -> str:
    return (
        words.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def _mix(colour: str, amount: float) -> str:
    """``colour`` mixed with white: ``amount`` of the colour, the rest white."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - c) * amount):02X}" for c in rgb)


def _ink(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#111111" if luminance > 0.42 else "#FFFFFF"
