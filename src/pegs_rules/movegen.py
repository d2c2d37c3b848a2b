"""Legal-move generation.

:func:`legal_moves` lists every legal move of the seat to act, in this order
(deterministic, no duplicates):

1. plays, by card rank (A, 2, ..., K, JK), then by their steps compared as
   ``(seat, from, to)`` tuples (a start area sorts before track holes, track
   holes before home holes);
2. discards, by rank (only when no card but a joker is playable,
   ``turn.discard``);
3. ``pass``, alone, for a seat with no cards.

A rank held twice gives its moves once. A split whose two orders leave the
same position is listed once, in the order that sorts first.

Internally a position is held as one bit mask per colour over the track holes
and that colour's home lane (home hole ``k`` is bit ``track_length + k - 1``),
plus a map from track hole to colour; paths are precomputed masks, so a
blocking test is one ``&``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from pegs_rules.board import HOME_HOLES, START, Board, Location, home, team_of
from pegs_rules.cards import COME_OUT_RANKS, FACE_RANKS, Rank
from pegs_rules.moves import Discard, Move, Pass, Play, Step
from pegs_rules.state import GameState, board_for

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


@cache
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

    __slots__ = ("at", "mask", "start", "t", "team")

    def __init__(self, t: Tables, pegs: tuple[tuple[Location, ...], ...], team: int) -> None:
        self.t = t
        self.team = team
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

    def move(self, seat: int, src: Location, dst: Location) -> list[Step] | None:
        """Move a peg of ``seat`` from ``src`` to ``dst`` and settle the landing.

        ``move.landing``: an opponent's peg knocked off goes to its start; a
        team peg goes to its own in-spot, which is itself a landing
        (``move.landing.in-spot``), possibly knocking on another peg.
        Returns the changes made, or ``None`` (and changes nothing) if the
        landing is illegal. The caller has already checked blocking.
        """
        bit = self.t.bit
        at = self.at
        mask = self.mask
        changes = [Step(seat, src, dst)]
        if src == START:
            self.start[seat] -= 1
        else:
            mask[seat] ^= bit[src]
            if src < 1000:
                del at[src]
        mask[seat] |= bit[dst]
        if dst > 1000:
            return changes
        victim = at.get(dst)
        at[dst] = seat
        hole = dst
        while victim is not None:
            if team_of(victim) != self.team:
                mask[victim] ^= bit[hole]
                self.start[victim] += 1
                changes.append(Step(victim, hole, START))
                break
            spot = self.t.in_spot[victim]
            after = at.get(spot)
            if spot == hole or after == victim:
                at[hole] = victim  # put the victim back before unwinding
                self.undo(changes)
                return None
            mask[victim] ^= bit[hole] | bit[spot]
            at[spot] = victim
            changes.append(Step(victim, hole, spot))
            victim = after
            hole = spot
        return changes

    def undo(self, changes: list[Step]) -> None:
        """Reverse :meth:`move`."""
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
        (``move.blocking``).
        """
        own = self.mask[seat]
        out = []
        if src > 1000:
            path = self.t.lane[src][n]
            if path is not None and not path[1] & own:
                out.append(path[0])
            return out
        dst, passed = self.t.track[src][n]
        if not passed & own:
            out.append(dst)
        path = self.t.entry[seat][src][n]
        if path is not None and not path[1] & own:
            out.append(path[0])
        return out


def forward_steps(rank: Rank, face_value: int) -> int:
    """How far ``rank`` moves a peg forward (0 for the 8 and the joker)."""
    if rank in FACE_RANKS:
        return face_value
    if rank is Rank.EIGHT or rank is Rank.JOKER:
        return 0
    return int(rank)


Resolutions = dict[Play, list[Step]]
"""Each legal play of one card with the changes it makes, landings included."""


def plays_for_card(state: GameState, rank: Rank) -> Resolutions:
    """Every legal play of ``rank`` by the seat to act, ignoring must-play."""
    t = tables(state.players)
    team = team_of(state.turn)
    work = WorkBoard(t, state.pegs, team)
    seats = [s for s in range(state.players) if team_of(s) == team]
    out: Resolutions = {}

    def tryout(seat: int, src: Location, dst: Location) -> None:
        changes = work.move(seat, src, dst)
        if changes is not None:
            out[Play(rank, (Step(seat, src, dst),))] = changes
            work.undo(changes)

    if rank in COME_OUT_RANKS:  # card.come-out
        for seat in seats:
            if work.start[seat] and work.at.get(t.come_out[seat]) != seat:
                tryout(seat, START, t.come_out[seat])
    n = forward_steps(rank, state.rules.face_value)
    if n:  # card.ace, card.number, card.face, card.seven, card.nine
        for seat in seats:
            for src in state.pegs[seat]:
                if src != START:
                    for dst in work.forward(seat, src, n):
                        tryout(seat, src, dst)
        if rank in state.rules.split_ranks:
            _splits(work, state, rank, n, seats, out)
    elif rank is Rank.EIGHT:  # card.eight
        for seat in seats:
            for src in state.pegs[seat]:
                if 0 <= src < 1000:
                    dst, passed = t.back[src][8]
                    if not passed & work.mask[seat]:
                        tryout(seat, src, dst)
    elif rank is Rank.JOKER:  # card.joker, card.joker.source
        targets = sorted(work.at.items())
        if any(work.start[s] for s in seats):
            sources = [(s, START) for s in seats if work.start[s]]
        else:
            sources = [(s, p) for s in seats for p in state.pegs[s] if 0 <= p < 1000]
        for seat, src in sources:
            for dst, colour in targets:
                if colour != seat:
                    tryout(seat, src, dst)
    return dict(sorted(out.items(), key=lambda item: item[0].steps))


def _splits(
    work: WorkBoard, state: GameState, rank: Rank, total: int, seats: list[int], out: Resolutions
) -> None:
    """``card.seven.split`` (and the 9): two distinct pegs, parts a + b = total, in order."""
    pegs = [(s, p) for s in seats for p in state.pegs[s] if p != START]
    seen: dict[tuple[object, ...], Play] = {}
    for i, (s1, p1) in enumerate(pegs):
        for a in range(1, total):
            b = total - a
            for d1 in work.forward(s1, p1, a):
                first = work.move(s1, p1, d1)
                if first is None:
                    continue
                for j, (s2, p2) in enumerate(pegs):
                    if j == i:
                        continue
                    for moved in first[1:]:  # knocked to its in-spot by the first part?
                        if moved.seat == s2 and moved.src == p2:
                            p2 = moved.dst
                    for d2 in work.forward(s2, p2, b):
                        second = work.move(s2, p2, d2)
                        if second is None:
                            continue
                        play = Play(rank, (Step(s1, p1, d1), Step(s2, p2, d2)))
                        key = (min((i, a), (j, b)), max((i, a), (j, b)), *work.mask, *work.start)
                        other = seen.get(key)
                        if other is None or play.steps < other.steps:
                            if other is not None:
                                del out[other]
                            seen[key] = play
                            out[play] = first + second
                        work.undo(second)
                work.undo(first)


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every legal move of the seat to act, in the documented order.

    ``turn.must-play``: if any card but a joker is playable, only plays are
    legal (any playable card, jokers included). ``turn.discard``: otherwise
    the seat may play a joker or discard any one card. An empty hand passes.
    A finished game has no moves.
    """
    if state.winner is not None:
        return ()
    hand = state.hands[state.turn]
    if not hand:
        return (Pass(),)
    moves: list[Move] = []
    must_play = False
    for rank in sorted(set(hand)):
        plays = plays_for_card(state, rank)
        if plays and rank is not Rank.JOKER:
            must_play = True
        moves.extend(plays)
    if not must_play:
        moves.extend(Discard(r) for r in sorted(set(hand)))
    return tuple(moves)


def has_playable_card(state: GameState) -> bool:
    """True if the seat to act holds a card other than a joker with a legal play."""
    return any(
        plays_for_card(state, r) for r in set(state.hands[state.turn]) if r is not Rank.JOKER
    )
