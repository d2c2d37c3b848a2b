"""Board geometry as integer tables, for the move generator in :mod:`pegs_rules.plays`.

Implements the paths of ``move.forward``, ``move.home-entry``, ``move.in-home``
and ``card.eight`` once per board size.

Inside the generator a location is a *slot*, a small integer in the same
order as locations: slot 0 is a start area, slot ``t + 1`` is track hole
``t`` and slot ``L + k`` is home hole ``k`` of the peg's own colour (``L``
being the track length). A set of holes is a bit mask with bit ``slot - 1``
for each hole: the same bits for every colour on the track, each colour's own
on its home lane.

>>> paths = paths_for(4)
>>> [paths.location_of(slot) for slot in (0, 1, 72, 74)]
[-1, 0, 71, 1002]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

SIDE_HOLES: Final = 18
IN_SPOT_OFFSET: Final = 3
COME_OUT_OFFSET: Final = 8
HOME_HOLES: Final = 5
MAX_STEPS: Final = 13
"""The longest forward move any card can make (face cards worth up to 13)."""
START: Final = -1
"""The location of a start area."""
HOME_BASE: Final = 1000
"""Home hole ``k`` is location ``HOME_BASE + k``."""


class Paths:
    """Every path on a board of ``players`` seats, by slot and count.

    ``forward[seat][slot][n]`` is the pair of ``n``-step forward paths of a
    peg of ``seat`` on ``slot`` as ``(track, track_mask, home, home_mask)``:
    the destination along the track (0 for none: a peg in home has none) and
    the mask of every hole passed or landed on to reach it, then the same for
    the way into (or within) its home lane (0 when the count does not end
    there). ``back[slot][n]`` is ``(destination, mask)`` of an ``n``-step
    backward move of a track peg (``(0, 0)`` elsewhere). ``ahead[slot]`` is
    the mask of the home holes beyond a home slot. ``band`` is the number of
    bits a mask uses, and ``every_colour`` has bit ``seat * band`` set for
    every seat: ``mask * every_colour`` repeats a mask once for each colour.

    For the 7/9 splits, ``split_reads(forward)[seat][slot][n]`` is what an
    ``n``-step part (forward, or backward like an 8) of a peg of ``seat`` on
    ``slot`` reads, as a mask over (colour, hole) pairs (see
    :class:`~pegs_rules.plays._Splits`), but for the team's in-spots, read
    when it lands on a team peg: ``team_spots[team]``, in every colour.
    ``touch[seat][slot]`` is the one (colour, hole) bit of a peg of ``seat`` on ``slot``.
    """

    def __init__(self, players: int) -> None:
        self.players = players
        self.length = length = SIDE_HOLES * players
        self.slots = length + HOME_HOLES + 1
        self.bit = [0] + [1 << (slot - 1) for slot in range(1, self.slots)]
        self.in_spot = [SIDE_HOLES * s + IN_SPOT_OFFSET + 1 for s in range(players)]
        self.come_out = [SIDE_HOLES * s + COME_OUT_OFFSET + 1 for s in range(players)]
        self.band = length + HOME_HOLES
        self.every_colour = sum(1 << (seat * self.band) for seat in range(players))
        self.ahead = [0] * self.slots
        for k in range(1, HOME_HOLES + 1):
            for beyond in range(k + 1, HOME_HOLES + 1):
                self.ahead[length + k] |= self.bit[length + beyond]
        self.forward = [self._forward(seat) for seat in range(players)]
        self.back = [self._back(slot) for slot in range(self.slots)]
        self.touch = [
            [self.bit[slot] << (seat * self.band) for slot in range(self.slots)]
            for seat in range(players)
        ]
        self.team_spots = [
            sum(self.bit[self.in_spot[seat]] for seat in range(team, players, 2))
            * self.every_colour
            for team in range(2)
        ]
        self._split_reads: list[list[list[list[int]]]] = [[], []]  # backward, forward

    def location_of(self, slot: int) -> int:
        """The location of a slot."""
        if slot > self.length:
            return slot - self.length + HOME_BASE
        return slot - 1

    def _run(self, slots: list[int]) -> tuple[int, int]:
        mask = 0
        for slot in slots:
            mask |= self.bit[slot]
        return slots[-1], mask

    def _forward(self, seat: int) -> list[list[tuple[int, int, int, int]]]:
        length = self.length
        spot = self.in_spot[seat] - 1
        rows: list[list[tuple[int, int, int, int]]] = [[]]  # slot 0: a start area
        for hole in range(length):
            row = [(0, 0, 0, 0)]
            to_spot = (spot - hole) % length
            for n in range(1, MAX_STEPS + 1):
                track = [(hole + i) % length + 1 for i in range(1, n + 1)]
                dst, mask = self._run(track)
                home_dst = home_mask = 0
                if 1 <= n - to_spot <= HOME_HOLES:
                    lane = [length + k for k in range(1, n - to_spot + 1)]
                    home_dst, home_mask = self._run(track[:to_spot] + lane)
                row.append((dst, mask, home_dst, home_mask))
            rows.append(row)
        for k in range(1, HOME_HOLES + 1):
            row = [(0, 0, 0, 0)]
            for n in range(1, MAX_STEPS + 1):
                if k + n <= HOME_HOLES:
                    home_dst, home_mask = self._run([length + j for j in range(k + 1, k + n + 1)])
                    row.append((0, 0, home_dst, home_mask))
                else:
                    row.append((0, 0, 0, 0))
            rows.append(row)
        return rows

    def split_reads(self, forward: bool) -> list[list[list[int]]]:
        """What each split part reads, by seat, slot and count (see the class docstring);
        made the first time it is asked for."""
        tables = self._split_reads[forward]
        if not tables:
            tables = self._split_reads[forward] = [
                self._reads(seat, forward) for seat in range(self.players)
            ]
        return tables

    def _reads(self, seat: int, forward: bool) -> list[list[int]]:
        """What each part of a peg of ``seat`` reads, by slot and count (its own colour's
        holes along its paths and its own hole; in every colour, its own track hole and
        where it lands on the track)."""
        rows: list[list[int]] = []
        for slot in range(self.slots):
            here = self.bit[slot]
            anywhere = here * self.every_colour if slot <= self.length else 0
            row = [0]
            for n in range(1, MAX_STEPS + 1):
                if forward:
                    track, track_mask, _, home_mask = (
                        self.forward[seat][slot][n] if slot else (0, 0, 0, 0)
                    )
                    own = track_mask | home_mask
                else:
                    track, own = self.back[slot][n]
                reads = (own | here) << (seat * self.band) | anywhere
                if track:
                    reads |= self.bit[track] * self.every_colour
                row.append(reads)
            rows.append(row)
        return rows

    def _back(self, slot: int) -> list[tuple[int, int]]:
        if not 1 <= slot <= self.length:
            return [(0, 0)] * (MAX_STEPS + 1)
        hole = slot - 1
        row = [(0, 0)]
        for n in range(1, MAX_STEPS + 1):
            row.append(self._run([(hole - i) % self.length + 1 for i in range(1, n + 1)]))
        return row


@lru_cache(maxsize=8)
def paths_for(players: int) -> Paths:
    """The (shared) tables for a board of ``players`` seats."""
    return Paths(players)
