"""Shrinking a divergence to a small position that still diverges the same way.

:func:`smaller_positions` lists the positions one simplification away from a
position, the boldest first: a house rule reset to its preset's value (its
``rule`` line dropped, where the engine plays the rules that leaves), two seats fewer (a pair of neighbours with
nothing on their sides), the seat to act turned to seat 0 (the board
rotated), the draw pile, the discard pile or another seat's hand emptied,
half of a pile, a peg sent back to its start area, one card fewer, the
dealer the seat before the one to act. Each comes with the map that
rewrites a move for it (holes and seats renumbered). :func:`shrink` keeps
the first that still diverges with the same signature, and starts again
from it, until none does or the budget of requests is spent. Every
position it tries is a valid test position in both forms (as the original
is): a position that cannot travel as state JSON is not tried.

>>> from pegs_rules import parse_position
>>> state = parse_position("players: 6\\nturn: 4\\npegs 4: 80 82\\nhand 4: 5\\nhand 1: 7\\ndraw: 2 3")
>>> [name for name, _, _ in smaller_positions(state, set())][:4]
['seats 0 and 1 left out', 'seats 1 and 2 left out', 'seats 2 and 3 left out', 'seat 4 to act as seat 0']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from pegs_rules.board import START, is_home, is_track, location_name, parse_location
from pegs_rules.errors import PegsError
from pegs_rules.moves import Play, Step, parse_notation
from pegs_rules.position import parse_position
from pegs_rules.rules import Rules
from pegs_rules.serialize import to_data
from pegs_rules.spec.probe import Divergence
from pegs_rules.spec.protocol import read_test_state
from pegs_rules.state import GameState

MoveMap = Callable[[str], str | None]
"""Rewrites a move for a smaller position (``None``: the move has no place there)."""


def _same(move: str) -> str | None:
    return move


@dataclass
class Layout:
    """A position as lists that a simplification edits, written back as position text."""

    head: list[str]
    players: int
    turn: int
    dealer: int
    pegs: list[list[str]]
    hands: list[list[str]]
    draw: list[str]
    discard: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, state: GameState) -> Layout:
        lines = str(state).splitlines()
        return cls(
            [x for x in lines if x.startswith(("rules:", "rule "))],
            state.players,
            state.turn,
            state.dealer,
            [[location_name(p) for p in locs if p != START] for locs in state.pegs],
            [[c.symbol for c in hand] for hand in state.hands],
            [c.symbol for c in state.draw_pile],
            [c.symbol for c in state.discard_pile],
        )

    def text(self) -> str:
        lines = [*self.head, f"players: {self.players}", f"turn: {self.turn}"]
        lines.append(f"dealer: {self.dealer}")
        lines += [f"pegs {s}: {' '.join(p)}".rstrip() for s, p in enumerate(self.pegs)]
        lines += [f"hand {s}: {' '.join(h)}".rstrip() for s, h in enumerate(self.hands)]
        lines += [f"draw: {' '.join(self.draw)}".rstrip()]
        lines += [f"discard: {' '.join(self.discard)}".rstrip()]
        return "\n".join(lines)

    def copy(self) -> Layout:
        return replace(
            self,
            pegs=[list(p) for p in self.pegs],
            hands=[list(h) for h in self.hands],
            draw=list(self.draw),
            discard=list(self.discard),
        )


RulesOk = Callable[[Rules], bool]
"""Whether the engine plays these rules (a house rule may be reset only to rules it plays)."""


def smaller_positions(
    state: GameState,
    keep: set[tuple[int, str]],
    rules_ok: RulesOk | None = None,
    needed: frozenset[str] = frozenset(),
) -> Iterator[tuple[str, GameState, MoveMap]]:
    """Each position one simplification away from ``state`` that is a valid test position,
    with its name and its map of moves; the pegs in ``keep`` (seat and location) stay. With
    ``rules_ok``, first each house rule reset to its preset's value (its ``rule`` line
    dropped) where the rules that leaves are ``rules_ok``, but for the ``needed`` ones (by
    name: the resets tried before that lost the divergence)."""
    layout = Layout.of(state)
    readable = _readable(state)
    resets = _resets(layout, needed) if rules_ok is not None else iter(())
    for name, smaller, remap in (*resets, *_simplifications(layout, keep)):
        try:
            made = parse_position(smaller.text())
        except PegsError:
            continue
        if readable and not _readable(made):
            continue
        if made.rules != state.rules and not (rules_ok is not None and rules_ok(made.rules)):
            continue
        yield name, made, remap


def _resets(layout: Layout, needed: frozenset[str]) -> Iterator[tuple[str, Layout, MoveMap]]:
    """Each ``rule FIELD: VALUE`` line dropped: the field back to its preset's value."""
    for line in layout.head:
        name = f"{line} reset to the preset's"
        if line.startswith("rule ") and name not in needed:
            smaller = layout.copy()
            smaller.head = [x for x in layout.head if x != line]
            yield name, smaller, _same


def _simplifications(
    layout: Layout, keep: set[tuple[int, str]]
) -> Iterator[tuple[str, Layout, MoveMap]]:
    yield from _fewer_seats(layout)
    if layout.turn:
        yield _rotated(layout, layout.turn)
    for pile in ("draw", "discard"):
        yield from _emptier(layout, pile)
    for seat in range(layout.players):
        if seat != layout.turn and layout.hands[seat]:
            smaller = layout.copy()
            smaller.hands[seat] = []
            yield f"hand {seat} emptied", smaller, _same
    for seat, pegs in enumerate(layout.pegs):
        for peg in pegs:
            if (seat, peg) not in keep:
                smaller = layout.copy()
                smaller.pegs[seat].remove(peg)
                yield f"peg {seat}:{peg} to start", smaller, _same
    for seat in [s for s in range(layout.players) if s != layout.turn] + [layout.turn]:
        for card in dict.fromkeys(layout.hands[seat]):
            smaller = layout.copy()
            smaller.hands[seat].remove(card)
            yield f"a {card} of hand {seat} left out", smaller, _same
    if layout.dealer != (layout.turn - 1) % layout.players:
        smaller = layout.copy()
        smaller.dealer = (layout.turn - 1) % layout.players
        yield "the dealer before the seat to act", smaller, _same


def _emptier(layout: Layout, pile: str) -> Iterator[tuple[str, Layout, MoveMap]]:
    """The pile emptied, then its halves, quarters... left out, down to single cards."""
    cards: list[str] = getattr(layout, pile)
    size = len(cards)
    while size >= 1:
        for start in range(0, len(cards), size):
            smaller = layout.copy()
            setattr(smaller, pile, cards[:start] + cards[start + size :])
            what = "emptied" if size == len(cards) else f"cards {start + 1}-{start + size} out"
            yield f"{pile} pile {what}", smaller, _same
        size //= 2


def _rotated(layout: Layout, by: int) -> tuple[str, Layout, MoveMap]:
    """The board turned so that seat ``by`` becomes seat 0."""
    n = layout.players
    length = 18 * n

    def hole(name: str) -> str:
        loc = parse_location(name)
        return str((loc - 18 * by) % length) if is_track(loc) else name

    smaller = layout.copy()
    smaller.pegs = [[hole(p) for p in layout.pegs[(s + by) % n]] for s in range(n)]
    smaller.hands = [list(layout.hands[(s + by) % n]) for s in range(n)]
    smaller.turn = (layout.turn - by) % n
    smaller.dealer = (layout.dealer - by) % n
    return f"seat {by} to act as seat 0", smaller, _moves_mapped(lambda s: (s - by) % n, hole)


def _fewer_seats(layout: Layout) -> Iterator[tuple[str, Layout, MoveMap]]:
    """Two neighbouring seats left out: neither acts, their pegs are all in start, and no peg
    stands on their sides of the track."""
    n = layout.players
    if n <= 4:
        return
    on_track = [parse_location(p) for pegs in layout.pegs for p in pegs if p.isdigit()]
    for first in range(n - 1):
        gone = {first, first + 1}
        if layout.turn in gone or any(layout.pegs[s] for s in gone):
            continue
        low, high = 18 * first, 18 * (first + 2)
        if any(low <= hole < high for hole in on_track):
            continue

        def seat_of(s: int, first: int = first) -> int | None:
            if s in (first, first + 1):
                return None
            return s - 2 if s > first + 1 else s

        def hole(name: str, low: int = low, high: int = high) -> str | None:
            loc = parse_location(name)
            if not is_track(loc) or loc < low:
                return name
            return None if loc < high else str(loc - 36)

        smaller = layout.copy()
        kept = [s for s in range(n) if s not in gone]
        smaller.players = n - 2
        smaller.pegs = [[str(hole(p)) for p in layout.pegs[s]] for s in kept]
        smaller.hands = [list(layout.hands[s]) for s in kept]
        smaller.turn = kept.index(layout.turn)
        smaller.dealer = (smaller.turn - 1) % (n - 2)
        name = f"seats {first} and {first + 1} left out"
        yield name, smaller, _moves_mapped(seat_of, hole)


def _moves_mapped(seat: Callable[[int], int | None], hole: Callable[[str], str | None]) -> MoveMap:
    """A map of moves that renumbers their seats and holes; ``None`` for a move with a seat
    or a hole that has none."""

    def remap(move: str) -> str | None:
        parsed = parse_notation(move)
        if not isinstance(parsed, Play):
            return move
        steps = []
        for step in parsed.steps:
            mover = seat(step.seat)
            src, dst = hole(location_name(step.src)), hole(location_name(step.dst))
            if mover is None or src is None or dst is None:
                return None
            steps.append(f"{mover}:{src}-{dst}")
        return " ".join([parsed.card.symbol, *steps])

    return remap


def _readable(state: GameState) -> bool:
    """Whether ``state`` can travel as state JSON too (as a test position)."""
    try:
        read_test_state(to_data(state))
    except PegsError:
        return False
    return True


def kept_pegs(state: GameState, move: str | None) -> set[tuple[int, str]]:
    """The pegs a move needs: those on the holes its steps start from or end on."""
    if move is None:
        return set()
    try:
        parsed = parse_notation(move)
    except PegsError:
        return set()
    if not isinstance(parsed, Play):
        return set()
    holes = {loc for step in parsed.steps for loc in (step.src, step.dst)}
    keep = set()
    for seat, locs in enumerate(state.pegs):
        for loc in locs:
            if loc != START and (
                (is_track(loc) and loc in holes)
                or (is_home(loc) and any(_at(step, seat, loc) for step in parsed.steps))
            ):
                keep.add((seat, location_name(loc)))
    return keep


def _at(step: Step, seat: int, loc: int) -> bool:
    return step.seat == seat and loc in (step.src, step.dst)


@dataclass(frozen=True, slots=True)
class Shrunk:
    """The smallest divergence found, the simplifications kept, and the requests tried."""

    divergence: Divergence
    steps: tuple[str, ...]
    tried: int


def shrink(
    found: Divergence,
    again: Callable[[GameState, str | None], Divergence | None],
    budget: int,
    rules_ok: RulesOk | None = None,
) -> Shrunk:
    """Simplify ``found``'s position while ``again`` (the engine asked about a position and,
    for a divergence about a move, that move) still diverges with the same signature, at
    most ``budget`` times; with ``rules_ok`` its house rules too, each reset to its preset's
    value where the engine plays the rules that leaves (a reset that loses the divergence is
    not tried again)."""
    current, steps, tried = found, [], 0
    needed: set[str] = set()
    progress = True
    while progress and tried < budget:
        progress = False
        keep = kept_pegs(current.state, current.move)
        smaller = smaller_positions(current.state, keep, rules_ok, frozenset(needed))
        for name, state, remap in smaller:
            move = (
                None if current.move is None or current.request == "legal" else remap(current.move)
            )
            if move is None and current.request == "apply":
                continue
            tried += 1
            divergence = again(state, move)
            if divergence is not None and divergence.signature == current.signature:
                current, progress = divergence, True
                steps.append(name)
                break
            if name.startswith("rule "):
                needed.add(name)
            if tried >= budget:
                break
    return Shrunk(current, tuple(steps), tried)
