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

from collections import OrderedDict
from contextlib import suppress
from dataclasses import dataclass
from functools import cache

from pegs_rules import plays
from pegs_rules.board import HOME_HOLES, START, Board, Location, home, team_of
from pegs_rules.cards import FACE_RANKS, Rank
from pegs_rules.errors import PegsError, PositionError
from pegs_rules.moves import Discard, Move, Pass, Play, Step
from pegs_rules.paths import Paths, paths_for
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


Plays = list[tuple[Play, tuple[Step, ...]]]
"""Legal plays of one card in the documented order, each with the changes it makes, landings
included, in the order they happen (the play's own steps when it knocks no peg away)."""


def hand_plays(state: GameState) -> dict[Rank, Plays]:
    """Every legal play of each rank the seat to act holds, ignoring must-play.

    The result is remembered for the last few positions (so that
    :func:`~pegs_rules.apply` finds the plays :func:`legal_moves` found) and
    shared between calls: treat it as read-only. Raises
    :class:`~pegs_rules.errors.PositionError` for pegs off the board or a card
    that is no card.
    """
    ranks = tuple(sorted(set(state.hands[state.turn])))
    seats = movable_seats(state)
    rules = state.rules
    key = (state.pegs, seats, ranks, id(rules))
    found = _memo.get(key)
    if found is None:
        if not all(type(rank) is Rank for rank in ranks):
            raise PositionError(f"hand {state.turn}: not a hand of cards: {ranks!r}")
        found = rules, _hand_plays(state.pegs, seats, ranks, rules)
        _memo.put(key, found)
    return found[1]


class _Memo:
    """The plays of the last few positions, by pegs, movable seats, ranks held and rules.

    The rules are keyed by identity and kept alive by the entry, so an id
    never stands for two rules objects. A position whose pegs are not all
    plain ints on the board is never remembered: :class:`~pegs_rules.plays.Board`
    refuses it. Small: the garbage collector pays for every entry kept.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[object, tuple[Rules, dict[Rank, Plays]]] = OrderedDict()

    def get(self, key: object) -> tuple[Rules, dict[Rank, Plays]] | None:
        return self.entries.get(key)

    def put(self, key: object, found: tuple[Rules, dict[Rank, Plays]]) -> None:
        self.entries[key] = found
        if len(self.entries) > self.size:
            with suppress(KeyError):  # another thread got there first
                self.entries.popitem(last=False)


_memo = _Memo(16)


def clear_memo() -> None:
    """Forget the remembered plays of :func:`hand_plays` (for benchmarks and memory)."""
    _memo.entries.clear()


_IN_SPOT = {
    InSpotOccupied.CHAIN: plays.CHAIN,
    InSpotOccupied.ILLEGAL: plays.ILLEGAL,
    InSpotOccupied.TO_START: plays.TO_START,
}
_NINE = {
    Nine.PLAIN: plays.PLAIN,
    Nine.FORWARD_FORWARD: plays.FORWARD_FORWARD,
    Nine.FORWARD_BACKWARD: plays.FORWARD_BACKWARD,
}


def work_board(pegs: tuple[tuple[Location, ...], ...], team: int, rules: Rules) -> plays.Board:
    """A :class:`~pegs_rules.plays.Board` of ``pegs`` for ``team`` to move under ``rules``."""
    return plays.Board(paths_for(len(pegs)), pegs, team, _switches(rules))


def _switches(rules: Rules) -> plays.Switches:
    """The generator's view of ``rules``, made once for each rules object in use."""
    found = _SWITCHES.get(id(rules))
    if found is not None:  # the entry keeps its rules alive, so no other object has its id
        return found[1]
    switches = plays.Switches(
        rules.face_values,
        _NINE[rules.nine],
        rules.two_swap,
        rules.joker_source is JokerSource.ANY,
        rules.home_entry_compulsory,
        rules.wait_on_in_spot,
        _IN_SPOT[rules.in_spot_occupied],
    )
    if len(_SWITCHES) >= 32:
        _SWITCHES.clear()
    _SWITCHES[id(rules)] = rules, switches
    return switches


_SWITCHES: dict[int, tuple[Rules, plays.Switches]] = {}


def _hand_plays(
    pegs: tuple[tuple[Location, ...], ...],
    seats: tuple[int, ...],
    ranks: tuple[Rank, ...],
    rules: Rules,
) -> dict[Rank, Plays]:
    board = work_board(pegs, team_of(seats[0]), rules)
    made = _made(board.paths)
    step = made.steps
    key = board.key
    result: dict[Rank, Plays] = {}
    for rank in ranks:
        singles = made.singles[rank]
        found = []
        for play_key, changes in sorted(plays.card_plays(board, seats, rank).items()):
            first, second = divmod(play_key, key)
            if second:
                play = Play(rank, (step[first], step[second - 1]))
            else:
                play = singles.get(first) or singles.setdefault(first, Play(rank, (step[first],)))
            steps = play.steps
            effects = steps if len(changes) == len(steps) else tuple(step[c] for c in changes)
            found.append((play, effects))
        result[rank] = found
    return result


class _Steps(dict[int, Step]):
    """The public :class:`~pegs_rules.moves.Step` of each change code of one board size."""

    def __init__(self, paths: Paths) -> None:
        super().__init__()
        self.paths = paths

    def __missing__(self, code: int) -> Step:
        slots = self.paths.slots
        seat, rest = divmod(code, slots * slots)
        src, dst = divmod(rest, slots)
        step = self[code] = Step(seat, self.paths.location_of(src), self.paths.location_of(dst))
        return step


class _Made:
    """Public objects made once for one board size and shared: the :class:`~pegs_rules.Step`
    of each change code, and the one-step :class:`~pegs_rules.Play` of each card and change
    (as many as the board's geometry allows; two-step plays are too many to keep)."""

    def __init__(self, paths: Paths) -> None:
        self.steps = _Steps(paths)
        self.singles: dict[Rank, dict[int, Play]] = {rank: {} for rank in Rank}


@cache
def _made(paths: Paths) -> _Made:
    return _Made(paths)


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
    for rank, plays_ in by_rank.items():
        moves.extend(play for play, _ in plays_)
        must_play = must_play or (bool(plays_) and rank is not Rank.JOKER)
    if not must_play:
        moves.extend(Discard(r) for r in by_rank)
    return tuple(moves)


def has_playable_card(state: GameState) -> bool:
    """True if the seat to act holds a card other than a joker with a legal play."""
    return any(plays_ for rank, plays_ in hand_plays(state).items() if rank is not Rank.JOKER)
