"""A working copy of the board in locations, for judging a given move step by step.

:mod:`pegs_rules.reasons` replays a move part by part on a :class:`WorkBoard`
to find the first rule it breaks. (Move generation uses the integer tables
of :mod:`pegs_rules.paths` and :mod:`pegs_rules.plays` instead.)

A position is held as one bit mask per colour over the track holes and that
colour's home lane (home hole ``k`` is bit ``track_length + k - 1``), plus a
map from track hole to colour; paths are precomputed masks, so a blocking
test is one ``&``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from pegs_rules.board import HOME_HOLES, MAX_PLAYERS, START, Board, Location, home, team_of
from pegs_rules.moves import Step
from pegs_rules.rules import InSpotOccupied, Rules
from pegs_rules.state import board_for

MAX_STEPS = 13
"""The longest forward move any card can make (face cards worth up to 13)."""

_Path = tuple[Location, int]
"""A destination and the mask of every hole passed or landed on to reach it."""


@dataclass(frozen=True, slots=True)
class Tables:
    """Precomputed geometry for one board size."""

    length: int
    bit: dict[Location, int]
    in_spot: tuple[int, ...]
    come_out: tuple[int, ...]
    track: tuple[tuple[_Path, ...], ...]  # track[hole][n]: n holes clockwise
    back: tuple[tuple[_Path, ...], ...]  # back[hole][n]: n holes counter-clockwise
    entry: tuple[tuple[tuple[_Path | None, ...], ...], ...]  # entry[seat][hole][n]
    lane: dict[Location, tuple[_Path | None, ...]]  # lane[home(k)][n]: within home


@lru_cache(maxsize=MAX_PLAYERS)
def tables(players: int) -> Tables:
    """The precomputed tables for a board of ``players`` seats."""
    board = board_for(players)
    length = board.track_length
    bit = {t: 1 << t for t in range(length)}
    bit.update({home(k): 1 << (length + k - 1) for k in range(1, HOME_HOLES + 1)})

    def run(holes: list[Location]) -> _Path:
        return holes[-1], _mask_of(bit, holes)

    steps = range(1, MAX_STEPS + 1)
    track = tuple(
        ((t, 0), *tuple(run([(t + i) % length for i in range(1, n + 1)]) for n in steps))
        for t in range(length)
    )
    back = tuple(
        ((t, 0), *tuple(run([(t - i) % length for i in range(1, n + 1)]) for n in steps))
        for t in range(length)
    )
    entry = tuple(_entry_paths(board, seat, bit) for seat in board.seats)
    lane: dict[Location, tuple[_Path | None, ...]] = {}
    for k in range(1, HOME_HOLES + 1):
        lane[home(k)] = (
            None,
            *tuple(
                run([home(j) for j in range(k + 1, k + n + 1)]) if k + n <= HOME_HOLES else None
                for n in steps
            ),
        )
    return Tables(
        length=length,
        bit=bit,
        in_spot=tuple(board.in_spot(s) for s in board.seats),
        come_out=tuple(board.come_out(s) for s in board.seats),
        track=track,
        back=back,
        entry=entry,
        lane=lane,
    )


def _mask_of(bit: dict[Location, int], holes: list[Location]) -> int:
    mask = 0
    for h in holes:
        mask |= bit[h]
    return mask


def _entry_paths(
    board: Board, seat: int, bit: dict[Location, int]
) -> tuple[tuple[_Path | None, ...], ...]:
    """``move.forward``/``move.home-entry``: paths from each track hole into ``seat``'s home."""
    length = board.track_length
    spot = board.in_spot(seat)
    result = []
    for t in range(length):
        to_spot = (spot - t) % length
        row: list[_Path | None] = [None]
        for n in range(1, MAX_STEPS + 1):
            k = n - to_spot
            if 1 <= k <= HOME_HOLES:
                holes = [(t + i) % length for i in range(1, to_spot + 1)]
                holes += [home(j) for j in range(1, k + 1)]
                row.append((holes[-1], _mask_of(bit, holes)))
            else:
                row.append(None)
        result.append(tuple(row))
    return tuple(result)


class WorkBoard:
    """A mutable working copy of the pegs, for trying moves and undoing them."""

    __slots__ = ("at", "compulsory", "mask", "policy", "start", "t", "team", "wait")

    def __init__(
        self, t: Tables, pegs: tuple[tuple[Location, ...], ...], team: int, rules: Rules
    ) -> None:
        self.t = t
        self.team = team
        self.compulsory = rules.home_entry_compulsory
        self.wait = rules.wait_on_in_spot
        self.policy = rules.in_spot_occupied
        bit = t.bit
        self.at: dict[Location, int] = {}
        self.mask: list[int] = []
        self.start: list[int] = []
        for seat, locs in enumerate(pegs):
            m = 0
            n_start = 0
            for p in locs:
                if p == START:
                    n_start += 1
                else:
                    m |= bit[p]
                    if p < 1000:
                        self.at[p] = seat
            self.mask.append(m)
            self.start.append(n_start)

    def resolve(self, seat: int, src: Location, dst: Location) -> list[Step] | None:
        """The changes of moving a peg of ``seat`` from ``src`` to ``dst``, landing settled.

        ``move.landing``: an opponent's peg knocked off goes to its start; a
        team peg goes to its own in-spot. By default (``move.landing.in-spot``)
        that is itself a landing: a peg of its colour there makes the whole
        move illegal (``None``), an opponent there goes to its start, another
        team colour goes on to its own in-spot. ``variant.in-spot-occupied``
        may instead make any occupant illegal, or send the knocked peg to its
        start. The caller has already checked blocking. The board is not
        changed.
        """
        first = Step(seat, src, dst)
        if dst > 1000:
            return [first]
        victim = self.at.get(dst)
        if victim is None:
            return [first]
        changes = [first]
        placed: dict[Location, int | None] = {dst: seat}
        if 0 <= src < 1000:
            placed[src] = None
        hole = dst
        while victim is not None:
            if team_of(victim) != self.team:
                changes.append(Step(victim, hole, START))
                break
            spot = self.t.in_spot[victim]
            after = placed[spot] if spot in placed else self.at.get(spot)
            held = spot == hole or after is not None
            if held and self.policy is not InSpotOccupied.CHAIN:
                if self.policy is InSpotOccupied.ILLEGAL:
                    return None
                changes.append(Step(victim, hole, START))
                break
            if spot == hole or after == victim:
                return None
            changes.append(Step(victim, hole, spot))
            placed[spot] = victim
            victim = after
            hole = spot
        return changes

    def move(self, seat: int, src: Location, dst: Location) -> list[Step] | None:
        """Carry out :meth:`resolve`'s changes on the board; return them (or ``None``)."""
        changes = self.resolve(seat, src, dst)
        if changes is not None:
            self.perform(changes)
        return changes

    def perform(self, changes: Sequence[Step]) -> None:
        """Carry out ``changes`` in order."""
        bit = self.t.bit
        at = self.at
        mask = self.mask
        for seat, src, dst in changes:
            if src == START:
                self.start[seat] -= 1
            else:
                mask[seat] ^= bit[src]
                if src < 1000 and at.get(src) == seat:
                    del at[src]
            if dst == START:
                self.start[seat] += 1
            else:
                mask[seat] |= bit[dst]
                if dst < 1000:
                    at[dst] = seat

    def undo(self, changes: Sequence[Step]) -> None:
        """Reverse :meth:`perform`."""
        bit = self.t.bit
        at = self.at
        mask = self.mask
        for seat, src, dst in reversed(changes):
            if dst == START:
                self.start[seat] -= 1
            else:
                mask[seat] ^= bit[dst]
                if dst < 1000 and at.get(dst) == seat:
                    del at[dst]
            if src == START:
                self.start[seat] += 1
            else:
                mask[seat] |= bit[src]
                if src < 1000:
                    at[src] = seat

    def forward(self, seat: int, src: Location, n: int) -> list[Location]:
        """Destinations of an unblocked ``n``-step forward move (``move.forward``).

        A track peg may stay on the track or, if the count fits exactly,
        turn into its home lane (``move.home-entry``); a home peg moves
        within home (``move.in-home``). Same-colour pegs block
        (``move.blocking``). ``variant.home-entry-compulsory`` drops the track
        when home can be entered; ``variant.wait-on-in-spot`` keeps a peg on
        its own in-spot off the track.
        """
        own = self.mask[seat]
        if src > 1000:
            path = self.t.lane[src][n]
            return [path[0]] if path is not None and not path[1] & own else []
        path = self.t.entry[seat][src][n]
        into_home = path is not None and not path[1] & own
        out = []
        dst, passed = self.t.track[src][n]
        if not passed & own and not (
            (self.compulsory and into_home) or (self.wait and src == self.t.in_spot[seat])
        ):
            out.append(dst)
        if path is not None and into_home:
            out.append(path[0])
        return out

    def backward(self, seat: int, src: Location, n: int) -> list[Location]:
        """Destination of an unblocked ``n``-step backward move of a track peg (``card.eight``)."""
        if not 0 <= src < 1000:
            return []
        dst, passed = self.t.back[src][n]
        return [] if passed & self.mask[seat] else [dst]
