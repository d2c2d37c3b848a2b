"""The move generator's engine room: every legal play of a card, as integers.

:func:`pegs_rules.movegen.legal_moves` turns what this module finds into
:class:`~pegs_rules.Play` objects; bots' playouts use it directly. Nothing
here builds a public object.

A position is a :class:`Board` in slots (see :mod:`pegs_rules.paths`). A
*change* is one peg of colour ``seat`` going from slot ``src`` to slot
``dst``, coded ``(seat * S + src) * S + dst`` for ``S`` slots, so that codes
sort as the ``(seat, from, to)`` steps they stand for. A play is found with
its changes in order, landings included (the first change of each part is the
step the player writes), and keyed by its steps: ``c * K`` for one step ``c``,
``c * K + d + 1`` for the steps ``c`` then ``d`` (``K`` one more than any
change code), so that keys sort as the plays do in ``legal_moves``.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from typing import Final

from pegs_rules.errors import PositionError
from pegs_rules.paths import HOME_BASE, HOME_HOLES, START, Paths

CHAIN: Final = 0
"""``variant.in-spot-occupied``: the relocation of a knocked team peg is a landing."""
ILLEGAL: Final = 1
"""``variant.in-spot-occupied``: any peg on that in-spot makes the move illegal."""
TO_START: Final = 2
"""``variant.in-spot-occupied``: the knocked team peg goes to its start instead."""

PLAIN: Final = 0
"""``card.nine``: a 9 moves one peg forward."""
FORWARD_FORWARD: Final = 1
"""``card.nine``: a 9 may split like a 7."""
FORWARD_BACKWARD: Final = 2
"""``variant.nine-split``: a split 9 moves one part forward and the other backward."""

ACE: Final = 1
TWO: Final = 2
SEVEN: Final = 7
EIGHT: Final = 8
NINE: Final = 9
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13
JOKER: Final = 14


class Switches:
    """The rules as the generator reads them, as plain values (see :class:`~pegs_rules.Rules`)."""

    def __init__(
        self,
        face_values: tuple[int, int, int],
        nine: int,
        two_swap: bool,
        joker_any: bool,
        compulsory: bool,
        wait: bool,
        in_spot: int,
    ) -> None:
        self.face_values = face_values
        self.nine = nine
        self.two_swap = two_swap
        self.joker_any = joker_any
        self.compulsory = compulsory
        self.wait = wait
        self.in_spot = in_spot
        self.steps = [self._steps(rank) for rank in range(JOKER + 1)]
        """How far each rank moves a peg forward (0 for the 8 and the joker), by rank."""
        self.pairing = frozenset(
            rank
            for rank in range(JOKER + 1)
            if self.splits(rank) or (rank == TWO and two_swap)  # variant.two-swap
        )
        """The ranks that may move two pegs: split, or swap."""

    def _steps(self, rank: int) -> int:
        if JACK <= rank <= KING:
            return self.face_values[rank - JACK]  # card.face, variant.face-values
        return 0 if rank in (EIGHT, JOKER) else rank

    def splits(self, rank: int) -> bool:
        """Whether ``rank`` may be split over two pegs (``card.seven.split``, ``card.nine``)."""
        return rank == SEVEN or (rank == NINE and self.nine != PLAIN)


class Board:
    """A mutable working copy of the pegs, for trying plays and undoing them.

    ``pegs[seat]`` lists the slots of a colour's pegs in order (slot 0 for a
    peg in its start area), ``mask[seat]`` the holes they hold, ``at[slot]``
    the colour on each track hole (-1: empty) and ``start[seat]`` how many
    are in the start area. ``pegs`` is kept up to date by :meth:`move`, not
    by :meth:`perform`.
    """

    def __init__(
        self,
        paths: Paths,
        pegs: Sequence[Sequence[object]],
        team: int,
        switches: Switches,
    ) -> None:
        self.paths = paths
        self.team = team
        self.switches = switches
        self.compulsory = switches.compulsory
        self.wait = switches.wait
        self.policy = switches.in_spot
        self.size = paths.slots
        self.key = paths.players * paths.slots * paths.slots + 1
        self.at = [-1] * paths.slots
        self.pegs: list[list[int]] = []
        self.mask: list[int] = []
        self.start: list[int] = []
        length = paths.length
        bit = paths.bit
        at = self.at
        for seat, locations in enumerate(pegs):
            slots = []
            mask = 0
            for location in locations:  # its slot: see pegs_rules.paths
                if type(location) is int and START <= location < length:
                    slot = location + 1
                    if slot:
                        at[slot] = seat
                elif type(location) is int and HOME_BASE < location <= HOME_BASE + HOME_HOLES:
                    slot = location - HOME_BASE + length
                else:
                    raise PositionError(f"pegs {seat}: no location {location!r} on this board")
                slots.append(slot)
                mask |= bit[slot]
            self.pegs.append(slots)
            self.mask.append(mask)
            self.start.append(slots.count(0))

    def code(self, seat: int, src: int, dst: int) -> int:
        """The change code of a peg of ``seat`` going from ``src`` to ``dst``."""
        return (seat * self.size + src) * self.size + dst

    def resolve(self, seat: int, src: int, dst: int) -> list[int] | None:
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
        size = self.size
        first = (seat * size + src) * size + dst
        victim = self.at[dst] if dst <= self.paths.length else -1
        if victim < 0:
            return [first]
        changes = [first]
        hole = dst
        # the holes this move has emptied or filled so far, and with which colour (-1: emptied)
        placed = {dst: seat, src: -1}
        while victim >= 0:
            if victim & 1 != self.team:
                changes.append((victim * size + hole) * size)
                break
            spot = self.paths.in_spot[victim]
            after = placed[spot] if spot in placed else self.at[spot]
            held = spot == hole or after >= 0
            if held and self.policy != CHAIN:
                if self.policy == ILLEGAL:
                    return None
                changes.append((victim * size + hole) * size)
                break
            if spot == hole or after == victim:
                return None
            changes.append((victim * size + hole) * size + spot)
            placed[spot] = victim
            victim = after
            hole = spot
        return changes

    def perform(self, changes: list[int]) -> None:
        """Carry out ``changes`` in order."""
        size = self.size
        length = self.paths.length
        bit = self.paths.bit
        at = self.at
        mask = self.mask
        for change in changes:
            seat = change // (size * size)
            src = change // size % size
            dst = change % size
            if src:
                mask[seat] ^= bit[src]
                if src <= length and at[src] == seat:
                    at[src] = -1
            else:
                self.start[seat] -= 1
            if dst:
                mask[seat] |= bit[dst]
                if dst <= length:
                    at[dst] = seat
            else:
                self.start[seat] += 1

    def move(self, changes: list[int]) -> None:
        """Carry out ``changes`` for good: :meth:`perform`, and ``pegs`` kept up to date."""
        self.perform(changes)
        size = self.size
        for change in changes:
            seat = change // (size * size)
            src = change // size % size
            dst = change % size
            slots = self.pegs[seat]
            slots.remove(src)
            insort(slots, dst)

    def undo(self, changes: list[int]) -> None:
        """Reverse :meth:`perform`."""
        size = self.size
        length = self.paths.length
        bit = self.paths.bit
        at = self.at
        mask = self.mask
        for change in reversed(changes):
            seat = change // (size * size)
            src = change // size % size
            dst = change % size
            if dst:
                mask[seat] ^= bit[dst]
                if dst <= length and at[dst] == seat:
                    at[dst] = -1
            else:
                self.start[seat] -= 1
            if src:
                mask[seat] |= bit[src]
                if src <= length:
                    at[src] = seat
            else:
                self.start[seat] += 1

    def forward(self, seat: int, src: int, n: int) -> list[int]:
        """Destinations of an unblocked ``n``-step forward move (``move.forward``).

        A track peg may stay on the track or, if the count fits exactly,
        turn into its home lane (``move.home-entry``); a home peg moves
        within home (``move.in-home``). Same-colour pegs block
        (``move.blocking``). ``variant.home-entry-compulsory`` drops the track
        when home can be entered; ``variant.wait-on-in-spot`` keeps a peg on
        its own in-spot off the track.
        """
        own = self.mask[seat]
        track, track_mask, home, home_mask = self.paths.forward[seat][src][n]
        into_home = home != 0 and not home_mask & own
        out = []
        if (
            track
            and not track_mask & own
            and not (self.compulsory and into_home)
            and not (self.wait and src == self.paths.in_spot[seat])
        ):
            out.append(track)
        if into_home:
            out.append(home)
        return out

    def backward(self, seat: int, src: int, n: int) -> list[int]:
        """Destination of an unblocked ``n``-step backward move of a track peg (``card.eight``)."""
        dst, passed = self.paths.back[src][n]
        return [dst] if dst and not passed & self.mask[seat] else []

    def occupied(self) -> list[tuple[int, int]]:
        """Every track hole held, in order, with the colour holding it."""
        return [(slot, colour) for slot, colour in enumerate(self.at) if colour >= 0]

    def add(self, seat: int, src: int, dst: int, out: dict[int, list[int]]) -> None:
        """Add the one-step play of a peg of ``seat`` from ``src`` to ``dst`` to ``out``, if legal."""
        if self.at[dst] < 0:  # nothing to knock off (home holes are never marked)
            code = (seat * self.size + src) * self.size + dst
            out[code * self.key] = [code]
            return
        changes = self.resolve(seat, src, dst)
        if changes is not None:
            out[changes[0] * self.key] = changes


def card_plays(
    board: Board, seats: tuple[int, ...], rank: int, pairs: bool = True
) -> dict[int, list[int]]:
    """Every legal play of a card of ``rank`` moving ``seats``' pegs, by key (module docstring).

    Without ``pairs`` the plays that move two pegs (splits and swaps) are left out.
    """
    switches = board.switches
    steps = switches.steps[rank]
    paths = board.paths
    out: dict[int, list[int]] = {}
    if rank in (ACE, JACK, QUEEN, KING):  # card.come-out
        for seat in seats:
            spot = paths.come_out[seat]
            if board.start[seat] and board.at[spot] != seat:
                board.add(seat, 0, spot, out)
    if steps:  # card.ace, card.number, card.face, card.seven, card.nine
        at = board.at
        size = board.size
        key = board.key
        for seat in seats:
            own = board.mask[seat]
            rows = paths.forward[seat]
            for src in board.pegs[seat]:
                if not src:
                    continue
                track, track_mask, home, home_mask = rows[src][steps]
                into_home = home != 0 and not home_mask & own
                if (
                    track
                    and not track_mask & own
                    and not (board.compulsory and into_home)
                    and not (board.wait and src == paths.in_spot[seat])
                ):
                    if at[track] < 0:  # nothing to knock off: board.add's quick case, inlined
                        code = (seat * size + src) * size + track
                        out[code * key] = [code]
                    else:
                        board.add(seat, src, track, out)
                if into_home:  # nothing to knock off in home
                    code = (seat * size + src) * size + home
                    out[code * key] = [code]
        if pairs and switches.splits(rank):
            backward = rank == NINE and switches.nine == FORWARD_BACKWARD
            _Splits(board, seats, steps, backward, out).run()
        if pairs and rank == TWO and switches.two_swap:  # variant.two-swap
            _swaps(board, seats, out)
    elif rank == EIGHT:  # card.eight
        for seat in seats:
            own = board.mask[seat]
            for src in board.pegs[seat]:
                dst, passed = paths.back[src][8]
                if dst and not passed & own:
                    board.add(seat, src, dst, out)
    elif rank == JOKER:  # card.joker, card.joker.source
        in_start = [(seat, 0) for seat in seats if board.start[seat]]
        on_track = [
            (seat, src) for seat in seats for src in board.pegs[seat] if 0 < src <= paths.length
        ]
        sources = in_start + on_track if switches.joker_any else in_start or on_track
        targets = board.occupied()
        for seat, src in sources:
            for dst, colour in targets:
                if colour != seat:
                    board.add(seat, src, dst, out)
    return out


def _swaps(board: Board, seats: tuple[int, ...], out: dict[int, list[int]]) -> None:
    """``variant.two-swap``: a movable track peg trades places with a track peg of another colour.

    A swap of two movable pegs is one move, its steps in sorted order (``variant.two-swap.order``).
    """
    length = board.paths.length
    targets = board.occupied()
    for seat in seats:
        for src in board.pegs[seat]:
            if not 0 < src <= length:
                continue
            for dst, colour in targets:
                if colour == seat:
                    continue
                swap = [board.code(seat, src, dst), board.code(colour, dst, src)]
                if colour in seats:
                    swap.sort()
                out[swap[0] * board.key + swap[1] + 1] = swap


_Part = tuple[list[int], int]
"""A legal split part on the unchanged board: its changes, and the holes they empty or fill
as a mask over (colour, hole) pairs (see :class:`_Splits`)."""


class _Splits:
    """``card.seven.split`` (and the 9): two distinct pegs, parts a + b = total, in order.

    Both parts go forward, or (``variant.nine-split``, ``backward``) one
    forward and the other backward like an 8. Each part is judged on the
    board the previous part left. Most pairs of parts do not interact:
    neither part touches what the other one reads. Such a pair gives the same
    result in both orders; it is built from the single-part results on the
    unchanged board and listed once, in the order that sorts first.
    Interacting pairs are carried out in full, and an order that leaves the
    same position as the other is dropped.

    What a part touches and what one reads are masks over (colour, hole)
    pairs: bit ``colour * W + slot - 1``, ``W`` bits a colour. A part touches
    the holes its changes empty or fill, each with the colour of the peg. The
    parts of a peg by one count read the holes of its paths, and its own hole
    when in home, in its own colour only (only its colour blocks it); and its
    own track hole, where it lands on the track and, when it lands on a team
    peg, the team's in-spots, in every colour (any peg there changes the
    landing).
    """

    def __init__(
        self,
        board: Board,
        seats: tuple[int, ...],
        total: int,
        backward: bool,
        out: dict[int, list[int]],
    ) -> None:
        self.board = board
        self.total = total
        self.backward = backward
        self.out = out
        self.seen: dict[tuple[int, ...], int] = {}
        paths = board.paths
        self.movers: list[tuple[int, int]] = []
        for seat in seats:
            own = board.mask[seat]
            for src in board.pegs[seat]:
                ahead = paths.ahead[src]
                if src and (src <= paths.length or own & ahead != ahead):
                    self.movers.append((seat, src))  # not in start, nor packed at home's back
        self.reads_f, self.parts_f = self.table(True)
        if backward:
            self.reads_b, self.parts_b = self.table(False)
        else:
            self.reads_b, self.parts_b = self.reads_f, self.parts_f

    def table(self, forward: bool) -> tuple[list[list[int]], list[list[list[_Part]]]]:
        """For each peg and count: what its part reads, and its legal parts."""
        board = self.board
        paths = board.paths
        at = board.at
        size = board.size
        team_spots = paths.team_spots[board.team]
        split_reads = paths.split_reads(forward)
        reads: list[list[int]] = []
        parts: list[list[list[_Part]]] = []
        for seat, src in self.movers:
            by_count_reads = [0]
            by_count: list[list[_Part]] = [[]]
            touch = paths.touch[seat]
            here = touch[src]
            rows = paths.forward[seat][src]
            row_reads = split_reads[seat][src]
            for n in range(1, self.total):
                if forward:
                    track = rows[n][0]
                    dsts = board.forward(seat, src, n)
                else:
                    track = paths.back[src][n][0]
                    dsts = board.backward(seat, src, n)
                reads_n = row_reads[n]
                if track:
                    victim = at[track]
                    if victim >= 0 and victim & 1 == board.team:
                        reads_n |= team_spots
                by_count_reads.append(reads_n)
                legal = []
                for dst in dsts:
                    if at[dst] < 0:  # the peg alone moves
                        change = (seat * size + src) * size + dst
                        legal.append(([change], here | touch[dst]))
                        continue
                    changes = board.resolve(seat, src, dst)
                    if changes is not None:
                        legal.append((changes, _touched(board, changes)))
                by_count.append(legal)
            reads.append(by_count_reads)
            parts.append(by_count)
        return reads, parts

    def run(self) -> None:
        count = len(self.movers)
        key = self.board.key
        out = self.out
        backward = self.backward
        parts_f, reads_f = self.parts_f, self.reads_f
        parts_bk, reads_bk = self.parts_b, self.reads_b
        for a in range(1, self.total):
            b = self.total - a
            for i in range(count):
                parts_a = parts_f[i][a]
                reads_a = reads_f[i][a]
                for j in range(0 if backward else i + 1, count):
                    parts_b = parts_bk[j][b]
                    if j == i or not (parts_a or parts_b):
                        continue  # the same peg, or neither part can go first
                    reads_b = reads_bk[j][b]
                    clash = not parts_a  # a part touching what the other peg's part reads
                    for x, touched_x in parts_a:  # peg i first
                        if touched_x & reads_b:
                            clash = True
                            self.after(i, j, a, True, x, j, b, not backward)
                            continue
                        for y, touched_y in parts_b:
                            if touched_y & reads_a:
                                clash = True
                                self.both(i, j, a, True, x, y)
                            elif (
                                x[0] < y[0]
                            ):  # independent: one move, in the order that sorts first
                                out[x[0] * key + y[0] + 1] = x + y
                            else:
                                out[y[0] * key + x[0] + 1] = y + x
                    if not clash:
                        continue  # every pair independent: peg j first adds nothing
                    for y, touched_y in parts_b:  # peg j first
                        if touched_y & reads_a:
                            self.after(i, j, a, False, y, i, a, True)
                            continue
                        for x, touched_x in parts_a:
                            if touched_x & reads_b:
                                self.both(i, j, a, False, y, x)

    def keep(
        self, i: int, j: int, a: int, first_is_i: bool, changes: list[int], second: int
    ) -> None:
        """Keep the play whose changes are ``changes`` (its second step at ``second``) unless the
        other order of the same parts leaves the same position and sorts first.

        The same parts: each peg moves the same count, into home or along the
        track; the key names the pegs and counts, the routes and the position
        after the move (the board holds it now).
        """
        board = self.board
        length = board.paths.length
        first_home = changes[0] % board.size > length
        second_home = changes[second] % board.size > length
        routes = (first_home, second_home) if first_is_i else (second_home, first_home)
        play = changes[0] * board.key + changes[second] + 1
        seen = (i, j, a, *routes, *board.mask, *board.start)
        other = self.seen.get(seen)
        if other is None or play < other:
            if other is not None:
                del self.out[other]
            self.seen[seen] = play
            self.out[play] = changes

    def both(
        self, i: int, j: int, a: int, first_is_i: bool, first: list[int], second: list[int]
    ) -> None:
        """Two parts whose second is unaffected by the first: carry both out and keep."""
        board = self.board
        board.perform(first)
        board.perform(second)
        self.keep(i, j, a, first_is_i, first + second, len(first))
        board.undo(second)
        board.undo(first)

    def after(
        self,
        i: int,
        j: int,
        a: int,
        first_is_i: bool,
        first: list[int],
        k: int,
        n: int,
        forward: bool,
    ) -> None:
        """Carry out the first part, then try every ``n``-step part of peg ``k`` from where it is."""
        board = self.board
        board.perform(first)
        seat, src = self.movers[k]
        size = board.size
        for change in first[1:]:  # knocked away by the first part?
            if change // (size * size) == seat and change // size % size == src:
                src = change % size
        if src:  # a peg knocked to its start (variant.in-spot-occupied) makes no part
            for dst in board.forward(seat, src, n) if forward else board.backward(seat, src, n):
                more = board.resolve(seat, src, dst)
                if more is not None:
                    board.perform(more)
                    self.keep(i, j, a, first_is_i, first + more, len(first))
                    board.undo(more)
        board.undo(first)


def _touched(board: Board, changes: list[int]) -> int:
    """The (colour, hole) pairs ``changes`` empty or fill (see :class:`_Splits`)."""
    size = board.size
    touch = board.paths.touch
    mask = 0
    for change in changes:
        seat = change // (size * size)
        src = change // size % size
        dst = change % size
        mask |= touch[seat][src] | touch[seat][dst]
    return mask
