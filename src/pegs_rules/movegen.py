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
from functools import cache, lru_cache

from pegs_rules.board import HOME_HOLES, START, Board, Location, home, team_of
from pegs_rules.cards import COME_OUT_RANKS, FACE_RANKS, Rank
from pegs_rules.errors import PegsError
from pegs_rules.moves import Discard, Move, Pass, Play, Step
from pegs_rules.rules import Control, InSpotOccupied, JokerSource, Nine, Rules
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
    reach: tuple[dict[Location, tuple[int, ...]], ...]  # reach[seat][loc][n]: every hole read
    ahead: dict[Location, int]  # ahead[home(k)]: the home holes beyond k


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
    reach = tuple(_reach(bit, track, entry[seat], lane) for seat in board.seats)
    return Tables(
        length=length,
        bit=bit,
        in_spot=tuple(board.in_spot(s) for s in board.seats),
        come_out=tuple(board.come_out(s) for s in board.seats),
        track=track,
        back=back,
        entry=entry,
        lane=lane,
        reach=reach,
        ahead={
            home(k): _mask_of(bit, [home(j) for j in range(k + 1, HOME_HOLES + 1)])
            for k in range(1, HOME_HOLES + 1)
        },
    )


def _reach(
    bit: dict[Location, int],
    track: tuple[tuple[_Path, ...], ...],
    entry: tuple[tuple[_Path | None, ...], ...],
    lane: dict[Location, tuple[_Path | None, ...]],
) -> dict[Location, tuple[int, ...]]:
    """For one colour: the peg's hole and every hole an n-step forward move passes or lands on."""
    reach: dict[Location, tuple[int, ...]] = {}
    for loc in list(range(len(track))) + list(lane):
        rows = (lane[loc],) if loc in lane else (track[loc], entry[loc])
        masks = []
        for n in range(MAX_STEPS + 1):
            mask = bit[loc]
            for row in rows:
                path = row[n]
                if path is not None:
                    mask |= path[1]
            masks.append(mask)
        reach[loc] = tuple(masks)
    return reach


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

    def perform(self, changes: list[Step]) -> None:
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

    def undo(self, changes: list[Step]) -> None:
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


def forward_steps(rank: Rank, rules: Rules) -> int:
    """How far ``rank`` moves a peg forward (0 for the 8 and the joker)."""
    if rank in FACE_RANKS:
        return rules.face_values[rank - Rank.JACK]  # card.face, variant.face-values
    if rank is Rank.EIGHT or rank is Rank.JOKER:
        return 0
    return int(rank)


def splits(rank: Rank, rules: Rules) -> bool:
    """Whether ``rank`` may be split over two pegs (``card.seven.split``, ``card.nine``)."""
    return rank is Rank.SEVEN or (rank is Rank.NINE and rules.nine is not Nine.PLAIN)


def movable_seats(state: GameState) -> tuple[int, ...]:
    """The seats whose pegs the seat to act may move (``team.control``).

    Arizona: every seat of its team. Standard: its own seat until all five of
    its pegs are home, then the first teammate clockwise with a peg out.
    """
    seat = state.turn
    players = len(state.pegs)
    if state.rules.control is Control.TEAM:
        return _team_seats(players, team_of(seat))
    for step in range(0, players, 2):
        mate = (seat + step) % players
        if not all(p > 1000 for p in state.pegs[mate]):
            return (mate,)
    return (seat,)


@cache
def _team_seats(players: int, team: int) -> tuple[int, ...]:
    return tuple(s for s in range(players) if team_of(s) == team)


Resolutions = dict[Play, list[Step]]
"""Legal plays of one card with the changes each makes, landings included."""
Plays = list[tuple[Play, list[Step]]]
""":data:`Resolutions` in the documented order."""


def hand_plays(state: GameState) -> dict[Rank, Plays]:
    """Every legal play of each rank the seat to act holds, ignoring must-play.

    The result is memoised and shared between calls: treat it as read-only.
    """
    ranks = tuple(sorted(set(state.hands[state.turn])))
    return _hand_plays(state.pegs, team_of(state.turn), movable_seats(state), ranks, state.rules)


def clear_memo() -> None:
    """Forget the memoised moves of :func:`hand_plays` (for benchmarks and memory)."""
    _hand_plays.cache_clear()


def single_peg_plays(state: GameState) -> dict[Rank, Plays]:
    """Like :func:`hand_plays` without the plays that move two pegs (splits and swaps).

    Cheaper, and not memoised: for bots' playouts.
    """
    pegs = state.pegs
    work = WorkBoard(tables(len(pegs)), pegs, team_of(state.turn), state.rules)
    seats = movable_seats(state)
    return {
        rank: _card_plays(work, pegs, seats, rank, state.rules, pairs=False)
        for rank in sorted(set(state.hands[state.turn]))
    }


@lru_cache(maxsize=16)  # bridges legal_moves and apply; a big memo costs more in GC than it saves
def _hand_plays(
    pegs: tuple[tuple[Location, ...], ...],
    team: int,
    seats: tuple[int, ...],
    ranks: tuple[Rank, ...],
    rules: Rules,
) -> dict[Rank, Plays]:
    work = WorkBoard(tables(len(pegs)), pegs, team, rules)
    return {rank: _card_plays(work, pegs, seats, rank, rules) for rank in ranks}


def _card_plays(
    work: WorkBoard,
    pegs: tuple[tuple[Location, ...], ...],
    seats: tuple[int, ...],
    rank: Rank,
    rules: Rules,
    pairs: bool = True,
) -> Plays:
    """Every legal play of ``rank`` moving ``seats``' pegs on ``work``'s board.

    Without ``pairs``, the plays that move two pegs (splits and swaps) are left out.
    """
    t = work.t
    out: Resolutions = {}

    at = work.at

    def tryout(seat: int, src: Location, dst: Location) -> None:
        if dst > 1000 or dst not in at:  # nothing to knock off
            step = Step(seat, src, dst)
            out[Play(rank, (step,))] = [step]
            return
        changes = work.resolve(seat, src, dst)
        if changes is not None:
            out[Play(rank, (changes[0],))] = changes

    if rank in COME_OUT_RANKS:  # card.come-out
        for seat in seats:
            if work.start[seat] and work.at.get(t.come_out[seat]) != seat:
                tryout(seat, START, t.come_out[seat])
    n = forward_steps(rank, rules)
    if n:  # card.ace, card.number, card.face, card.seven, card.nine
        for seat in seats:
            for src in pegs[seat]:
                if src != START:
                    for dst in work.forward(seat, src, n):
                        tryout(seat, src, dst)
        if pairs and splits(rank, rules):
            backward = rank is Rank.NINE and rules.nine is Nine.FORWARD_BACKWARD
            _splits(work, pegs, seats, rank, n, out, backward)
        if pairs and rank is Rank.TWO and rules.two_swap:  # variant.two-swap
            for seat in seats:
                for src in pegs[seat]:
                    for dst, colour in sorted(at.items()):
                        if 0 <= src < 1000 and colour != seat:
                            swap = [Step(seat, src, dst), Step(colour, dst, src)]
                            if colour in seats:  # both movable: one move, steps in order
                                swap.sort()
                            out[Play(rank, tuple(swap))] = swap
    elif rank is Rank.EIGHT:  # card.eight
        for seat in seats:
            for src in pegs[seat]:
                for dst in work.backward(seat, src, 8):
                    tryout(seat, src, dst)
    elif rank is Rank.JOKER:  # card.joker, card.joker.source
        targets = sorted(at.items())
        in_start = [(s, START) for s in seats if work.start[s]]
        on_track = [(s, p) for s in seats for p in pegs[s] if 0 <= p < 1000]
        if rules.joker_source is JokerSource.ANY:
            sources = in_start + on_track
        else:
            sources = in_start or on_track
        for seat, src in sources:
            for dst, colour in targets:
                if colour != seat:
                    tryout(seat, src, dst)
    return sorted(out.items(), key=lambda item: item[0].steps)


_Part = tuple[Step, list[Step], int]
"""A legal split part on the unchanged board: its step, its changes, the holes they touch."""


def _splits(
    work: WorkBoard,
    pegs: tuple[tuple[Location, ...], ...],
    seats: tuple[int, ...],
    rank: Rank,
    total: int,
    out: Resolutions,
    backward: bool,
) -> None:
    """``card.seven.split`` (and the 9): two distinct pegs, parts a + b = total, in order.

    Both parts go forward, or (``variant.nine-split``, ``backward``) one
    forward and the other backward like an 8. Each part is judged on the
    board the previous part left. Most pairs of parts do not interact:
    neither part touches a hole the other one reads (its own hole, its
    paths, the team's in-spots). Such a pair gives the same result in both
    orders; it is built from the single-part results on the unchanged board
    and listed once, in the order that sorts first. Interacting pairs are
    carried out in full, and an order that leaves the same position as the
    other is dropped.
    """
    t = work.t
    bit = t.bit
    movers = []
    for s in seats:
        own = work.mask[s]
        for p in pegs[s]:
            if p == START or (p > 1000 and own & t.ahead[p] == t.ahead[p]):
                continue  # in start, or packed at the back of home: no part can move it
            movers.append((s, p))
    spots = 0
    for s, spot in enumerate(t.in_spot):
        if team_of(s) == work.team:
            spots |= bit[spot]

    def table(forward: bool) -> tuple[list[list[int]], list[list[list[_Part]]]]:
        """For each peg and count: the holes its part reads, and its legal parts."""
        reads: list[list[int]] = []
        parts: list[list[list[_Part]]] = []
        for s, p in movers:
            if forward:
                reads.append([r | spots for r in t.reach[s][p][:total]])
            elif p < 1000:
                reads.append(
                    [spots | bit[p]] + [spots | bit[p] | path[1] for path in t.back[p][1:total]]
                )
            else:
                reads.append([0] * total)
            by_count: list[list[_Part]] = [[]]
            for n in range(1, total):
                legal = []
                for dst in work.forward(s, p, n) if forward else work.backward(s, p, n):
                    changes = work.resolve(s, p, dst)
                    if changes is not None:
                        legal.append((changes[0], changes, _touched(bit, changes)))
                by_count.append(legal)
            parts.append(by_count)
        return reads, parts

    reads_f, parts_f = table(True)
    reads_b, parts_b = table(False) if backward else (reads_f, parts_f)
    seen: dict[tuple[int, ...], Play] = {}

    def keep(key: tuple[int, ...], first_is_i: bool, play: Play, changes: list[Step]) -> None:
        """Keep ``play`` unless the other order of the same parts leaves the same position.

        The same parts: each peg moves the same count, into home or along the
        track; ``key`` names the pegs and counts, and gets the routes and the
        position after the move added.
        """
        home_first, home_second = (step.dst > 1000 for step in play.steps)
        routes = (home_first, home_second) if first_is_i else (home_second, home_first)
        key = (*key, *routes, *work.mask, *work.start)
        other = seen.get(key)
        if other is None or play.steps < other.steps:
            if other is not None:
                del out[other]
            seen[key] = play
            out[play] = changes

    def both(
        key: tuple[int, ...], first_is_i: bool, changes1: list[Step], changes2: list[Step]
    ) -> None:
        """Two parts whose second is unaffected by the first: carry both out and keep."""
        work.perform(changes1)
        work.perform(changes2)
        play = Play(rank, (changes1[0], changes2[0]))
        keep(key, first_is_i, play, changes1 + changes2)
        work.undo(changes2)
        work.undo(changes1)

    def after(
        key: tuple[int, ...], first_is_i: bool, changes1: list[Step], k: int, n: int, forward: bool
    ) -> None:
        """Carry out the first part, then try every ``n``-step part of peg ``k`` from where it is."""
        work.perform(changes1)
        seat, src = movers[k]
        for moved in changes1[1:]:  # knocked away by the first part?
            if moved.seat == seat and moved.src == src:
                src = moved.dst
        if src == START:  # knocked to its start (variant.in-spot-occupied): no part moves it
            work.undo(changes1)
            return
        for dst in work.forward(seat, src, n) if forward else work.backward(seat, src, n):
            more = work.move(seat, src, dst)
            if more is not None:
                play = Play(rank, (changes1[0], more[0]))
                keep(key, first_is_i, play, changes1 + more)
                work.undo(more)
        work.undo(changes1)

    count = len(movers)
    for a in range(1, total):
        b = total - a
        for i in range(count):
            parts_a = parts_f[i][a]
            reads_a = reads_f[i][a]
            for j in range(count) if backward else range(i + 1, count):
                parts_b_ = parts_b[j][b]
                if j == i or not (parts_a or parts_b_):
                    continue  # the same peg, or neither part can go first
                reads_b_ = reads_b[j][b]
                key = (i, j, a)
                for x, changes_x, touched_x in parts_a:  # peg i first
                    if touched_x & reads_b_:
                        after(key, True, changes_x, j, b, not backward)
                        continue
                    for y, changes_y, touched_y in parts_b_:
                        if touched_y & reads_a:
                            both(key, True, changes_x, changes_y)
                        elif x < y:  # independent parts: one move, in the order that sorts first
                            out[Play(rank, (x, y))] = changes_x + changes_y
                        else:
                            out[Play(rank, (y, x))] = changes_y + changes_x
                for _, changes_y, touched_y in parts_b_:  # peg j first
                    if touched_y & reads_a:
                        after(key, False, changes_y, i, a, True)
                        continue
                    for _, changes_x, touched_x in parts_a:
                        if touched_x & reads_b_:
                            both(key, False, changes_y, changes_x)


def _touched(bit: dict[Location, int], changes: list[Step]) -> int:
    """The mask of every hole ``changes`` empties or fills."""
    mask = 0
    for _, src, dst in changes:
        if src != START:
            mask |= bit[src]
        if dst != START:
            mask |= bit[dst]
    return mask


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every legal move of the seat to act, in the documented order.

    ``turn.must-play``: if any card but a joker is playable, only plays are
    legal (any playable card, jokers included). ``turn.discard``: otherwise
    the seat may play a joker or discard any one card. An empty hand passes.
    A finished game has no moves.
    """
    if not isinstance(state, GameState):
        raise PegsError(f"not a game state: {type(state).__name__}")
    if state.winner is not None:
        return ()
    if not state.hands[state.turn]:
        return (Pass(),)
    moves: list[Move] = []
    must_play = False
    by_rank = hand_plays(state)
    for rank, plays in by_rank.items():
        moves.extend(play for play, _ in plays)
        must_play = must_play or (bool(plays) and rank is not Rank.JOKER)
    if not must_play:
        moves.extend(Discard(r) for r in by_rank)
    return tuple(moves)


def has_playable_card(state: GameState) -> bool:
    """True if the seat to act holds a card other than a joker with a legal play."""
    return any(plays for rank, plays in hand_plays(state).items() if rank is not Rank.JOKER)
