"""The checks of ``move.verdict``, run in the order ``specs/verdict.json`` gives.

The order is data: ``specs/verdict.json`` lists every check with the item of
``move.verdict`` it belongs to, the ruling ids it may charge and the house
rule that brings it in. This module holds one function per check
(:data:`CHECKS`, keyed by the check's name) and runs them in the data's
order. The first check a move fails names the verdict (:func:`first_fault`);
:func:`faults` lists every check it fails, which is what the clash matrix
(``python -m pegs_rules.spec clashes``) is built from.

Each check looks only at what it needs and passes when that is missing (a
path check has nothing to say about a hole the board lacks), so checks can
be run in any order and every fault of a move found.

>>> from pegs_rules import parse_position, parse_notation
>>> state = parse_position('''
... rule nine: forward_backward
... pegs 0: 10 30
... hand 0: 9
... ''')
>>> [f.check.name for f in faults(state, parse_notation("9 0:10-14 0:30-36"))]
['split-total', 'nine-split-shape']
>>> first_fault(state, parse_notation("9 0:10-14 0:30-36")).rule
'card.nine'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import NamedTuple

from pegs_rules.board import START, Location, is_home, is_track, location_name
from pegs_rules.cards import COME_OUT_RANKS, Rank
from pegs_rules.errors import PegsError
from pegs_rules.movegen import forward_steps, hand_plays, movable_seats, splits
from pegs_rules.moves import Discard, Pass, Play, Step
from pegs_rules.rules import InSpotOccupied, Nine, Rules
from pegs_rules.specfiles import specs_dir
from pegs_rules.state import GameState
from pegs_rules.workboard import Tables, WorkBoard, tables

_CARD_RULE = {Rank.ACE: "card.ace", Rank.SEVEN: "card.seven", Rank.EIGHT: "card.eight"}
_CARD_RULE |= {Rank.NINE: "card.nine", Rank.JOKER: "card.joker"}
_CARD_RULE |= {r: "card.face" for r in (Rank.JACK, Rank.QUEEN, Rank.KING)}


def card_rule(rank: Rank) -> str:
    """The rule id that gives ``rank`` its meaning."""
    return _CARD_RULE.get(rank, "card.number")


def split_rule(rank: Rank) -> str:
    """The rule id of splitting ``rank``: ``card.seven.split``, or ``card.nine`` for a 9."""
    return "card.seven.split" if rank is Rank.SEVEN else card_rule(rank)


class Reason(NamedTuple):
    """A ruling id and a sentence."""

    rule: str
    reason: str


@dataclass(frozen=True, slots=True)
class Check:
    """One check of ``move.verdict`` as ``specs/verdict.json`` gives it."""

    item: str
    name: str
    scope: str
    charges: tuple[str, ...]
    when: tuple[str, object] | None

    def applies(self, rules: Rules) -> bool:
        """Whether the rules bring this check in (its ``when``)."""
        if self.when is None:
            return True
        field, value = self.when
        have: object = getattr(rules, field)
        return (have.value if isinstance(have, Enum) else have) == value


@dataclass(frozen=True, slots=True)
class Fault:
    """A check a move fails: the check, the step it failed on (``None``: the move), why."""

    check: Check
    step: int | None
    reason: Reason

    @property
    def rule(self) -> str:
        """The ruling id charged."""
        return self.reason.rule


@cache
def verdict_order() -> tuple[Check, ...]:
    """Every check of ``move.verdict``, in order (read from ``specs/verdict.json``)."""
    data = json.loads((specs_dir() / "verdict.json").read_text(encoding="utf-8"))
    order = []
    for row in data["checks"]:
        when = row.get("when")
        order.append(
            Check(
                item=row["item"],
                name=row["check"],
                scope=row["scope"],
                charges=tuple(row["charges"]),
                when=None if when is None else (when["field"], when["value"]),
            )
        )
    unknown = {c.name for c in order} ^ set(CHECKS)
    if unknown:  # pragma: no cover - a broken installation; the tests compare both lists
        raise PegsError(f"specs/verdict.json and the engine's checks differ: {sorted(unknown)}")
    return tuple(order)


class Reading(NamedTuple):
    """How a forward-moving card's step is read: its direction, its count ``n``, its path mask."""

    backward: bool
    n: int
    mask: int


class Judging:
    """What the checks look at: the move, and the step being judged on the working board."""

    __slots__ = (
        "first",
        "index",
        "movable",
        "move",
        "moved",
        "rank",
        "reading",
        "rules",
        "split",
        "state",
        "step",
        "steps",
        "t",
        "total",
        "work",
    )

    def __init__(self, state: GameState, move: Play | Discard | Pass) -> None:
        self.state = state
        self.move = move
        self.rules = state.rules
        self.rank = None if isinstance(move, Pass) else move.card
        self.steps: tuple[Step, ...] = move.steps if isinstance(move, Play) else ()
        self.movable = movable_seats(state)
        self.t: Tables = tables(state.players)
        self.work = WorkBoard(self.t, state.pegs, state.turn % 2, state.rules)
        rank = self.rank
        self.split = (
            rank is not None and len(self.steps) == 2 and splits(rank, self.rules) and not self.swap
        )
        self.total = 0 if rank is None else forward_steps(rank, self.rules)
        self.index = 0
        self.step = Step(0, START, START)
        self.reading: Reading | None = None
        self.first: Reading | None = None
        self.moved: Location = START
        """Where the peg the first step moved stands once that step is carried out."""

    @property
    def swap(self) -> bool:
        """``variant.two-swap``: a 2 with two steps under ``two_swap`` is a swap."""
        return self.rank is Rank.TWO and self.rules.two_swap and len(self.steps) == 2

    def seat_ok(self) -> bool:
        """Whether the step's seat is on the board."""
        return 0 <= self.step.seat < self.state.players

    def holes_ok(self) -> bool:
        """Whether the step's seat and both its ends are on the board."""
        board = self.state.board
        _, src, dst = self.step
        return self.seat_ok() and board.is_valid_location(src) and board.is_valid_location(dst)

    def forward_card(self) -> bool:
        """Whether the card moves a peg forward by a count (not an 8 or a joker)."""
        return self.total > 0

    def peg_there(self) -> bool:
        """Whether a peg of the step's seat stands where the step starts (``board.pegs``)."""
        mover, src, _ = self.step
        if src == START:
            return self.work.start[mover] > 0
        return bool(self.work.mask[mover] & self.t.bit[src])


Detect = Callable[[Judging], Reason | None]


# -- the whole move (items 1 to 5) ------------------------------------------------------------


def _game_over(j: Judging) -> Reason | None:
    """``game.end``: no move once a team has won."""
    winner = j.state.winner
    return (
        None if winner is None else Reason("game.end", f"the game is over: team {winner} has won")
    )


def _pass_holding_cards(j: Judging) -> Reason | None:
    """``turn.discard``: a seat holding a card may not pass."""
    if isinstance(j.move, Pass) and j.state.hands[j.state.turn]:
        seat = j.state.turn
        return Reason(
            "turn.discard", f"seat {seat} holds cards, so it must play or discard, not pass"
        )
    return None


def _card_not_held(j: Judging) -> Reason | None:
    """``turn.sequence``: a seat plays or discards only a card it holds."""
    if j.rank is not None and j.rank not in j.state.hands[j.state.turn]:
        return Reason("turn.sequence", f"seat {j.state.turn} holds no {j.rank.symbol}")
    return None


def _discard_while_a_card_plays(j: Judging) -> Reason | None:
    """``turn.must-play``: no discard while a card other than a joker can be played."""
    if not isinstance(j.move, Discard) or j.state.winner is not None:
        return None  # after the win no card has a legal play
    playable = [r for r, plays in hand_plays(j.state).items() if plays and r is not Rank.JOKER]
    if not playable:
        return None
    cards = ", ".join(r.symbol for r in playable)
    seat = j.state.turn
    return Reason(
        "turn.must-play", f"seat {seat} must play a card that can move ({cards}), not discard"
    )


def _steps_the_card_cannot_make(j: Judging) -> Reason | None:
    """The card's ruling: one peg, or two for a card that splits."""
    if not isinstance(j.move, Play) or j.rank is None or j.swap:
        return None
    rank = j.rank
    can_split = splits(rank, j.rules)
    if 1 <= len(j.steps) <= (2 if can_split else 1):
        return None
    return Reason(
        card_rule(rank),
        f"a {rank.symbol} moves one peg" + (" or splits over two" if can_split else ""),
    )


# -- a swap (item 8) ----------------------------------------------------------------------------


def _swap_no_such_seat(j: Judging) -> Reason | None:
    """``board.sides``: both pegs of a swap are of seats the board has."""
    for seat, _, _ in j.steps:
        if not 0 <= seat < j.state.players:
            return Reason("board.sides", f"there is no seat {seat}")
    return None


def _swap_no_such_hole(j: Judging) -> Reason | None:
    """``board.geometry``: both holes of a swap are on the board."""
    board = j.state.board
    if all(board.is_valid_location(x) for _, src, dst in j.steps for x in (src, dst)):
        return None
    return Reason("board.geometry", f"no such hole on a {j.state.players}-seat board")


def _swap_seats_ok(j: Judging) -> bool:
    return all(0 <= seat < j.state.players for seat, _, _ in j.steps)


def _swap_written_from_the_other_peg(j: Judging) -> Reason | None:
    """``variant.two-swap``: a swap is written from the peg the player moves."""
    first, second = j.steps
    if _swap_seats_ok(j) and first.seat not in j.movable and second.seat in j.movable:
        return Reason("variant.two-swap", "write the step of the peg the player moves first")
    return None


def _swap_of_pegs_not_movable(j: Judging) -> Reason | None:
    """``team.control``: one peg of a swap is one the player may move."""
    first, second = j.steps
    if _swap_seats_ok(j) and first.seat not in j.movable and second.seat not in j.movable:
        return Reason("team.control", f"seat {j.state.turn} may not move seat {first.seat}'s pegs")
    return None


def _swap_misfit(j: Judging) -> Reason | None:
    """``variant.two-swap``: a track peg trades holes with a track peg of another colour."""
    (mover, src, dst), (other, back_src, back_dst) = j.steps
    at = j.work.at
    length = j.t.length
    fits = (
        0 <= src < length
        and 0 <= dst < length
        and at.get(src) == mover
        and at.get(dst) == other != mover
        and (back_src, back_dst) == (dst, src)
    )
    if fits:
        return None
    return Reason(
        "variant.two-swap", "a 2 swaps a movable track peg with a track peg of another colour"
    )


# -- each step (item 6) -------------------------------------------------------------------------


def _no_such_seat(j: Judging) -> Reason | None:
    """``board.sides``: a step moves a peg of a seat the board has."""
    return None if j.seat_ok() else Reason("board.sides", f"there is no seat {j.step.seat}")


def _no_such_hole(j: Judging) -> Reason | None:
    """``board.geometry``: a step starts and ends on a hole the board has."""
    board = j.state.board
    _, src, dst = j.step
    if board.is_valid_location(src) and board.is_valid_location(dst):
        return None
    return Reason("board.geometry", f"no such hole on a {j.state.players}-seat board")


def _seat_not_movable(j: Judging) -> Reason | None:
    """``team.control``: a step moves a peg of a seat the player may move."""
    if not j.seat_ok() or j.step.seat in j.movable:
        return None
    seats = ", ".join(map(str, j.movable))
    return Reason("team.control", f"seat {j.state.turn} may move only the pegs of seat(s) {seats}")


def _no_peg_there(j: Judging) -> Reason | None:
    """``board.pegs``: a peg of the step's seat stands where the step starts."""
    mover, src, _ = j.step
    if not (j.seat_ok() and j.state.board.is_valid_location(src)) or j.peg_there():
        return None
    if src == START:
        return Reason("board.pegs", f"seat {mover} has no peg in its start area")
    return Reason("board.pegs", f"no peg of seat {mover} on {location_name(src)}")


def _split_part_from_start(j: Judging) -> Reason | None:
    """``card.seven.split``: neither part of a split brings a peg out."""
    if j.split and j.rank is not None and j.step.src == START:
        return Reason(split_rule(j.rank), "a split part cannot bring a peg out")
    return None


def _split_moves_one_peg_twice(j: Judging) -> Reason | None:
    """``card.seven.split``: a split moves two different pegs.

    The peg the first part moved is followed to where its landing left it:
    a chain of knocks (``move.landing.in-spot``) may carry it on to its in-spot.
    """
    seat, src, _ = j.step
    if (
        j.split
        and j.rank is not None
        and j.index == 1
        and (j.steps[0].seat, j.moved) == (seat, src)
    ):
        return Reason(split_rule(j.rank), "a split moves two different pegs")
    return None


def _eight_not_on_track(j: Judging) -> Reason | None:
    """``card.eight``: an 8 moves a track peg only."""
    src = j.step.src
    if j.rank is not Rank.EIGHT or not j.state.board.is_valid_location(src) or is_track(src):
        return None
    where = "a start area" if src == START else "home"
    return Reason("card.eight", f"an 8 cannot move a peg in {where}")


def _eight_count(j: Judging) -> Reason | None:
    """``card.eight``: exactly eight holes back."""
    _, src, dst = j.step
    if j.rank is not Rank.EIGHT or not j.holes_ok() or not is_track(src):
        return None
    target = j.t.back[src][8][0]
    if dst == target:
        return None
    return Reason("card.eight", f"an 8 moves a track peg exactly 8 holes back, to {target}")


def _joker_from_home(j: Judging) -> Reason | None:
    """``card.joker.source``: a joker never moves a peg in a home lane."""
    src = j.step.src
    if j.rank is Rank.JOKER and j.state.board.is_valid_location(src) and is_home(src):
        return Reason("card.joker.source", "a joker never moves a peg that is home")
    return None


def _joker_not_from_start(j: Judging) -> Reason | None:
    """``card.joker.source`` (``team_start_first``): out of a start area first.

    The start areas looked at are those the player may come out from
    (``team.control``), all of the team's in arizona, the player's own in standard.
    """
    src = j.step.src
    if j.rank is not Rank.JOKER or not j.state.board.is_valid_location(src) or not is_track(src):
        return None
    if any(j.work.start[s] for s in j.movable):
        return Reason(
            "card.joker.source",
            "while a start area the player may come out from holds a peg, a joker moves a peg"
            " out of one",
        )
    return None


def _joker_target(j: Judging) -> Reason | None:
    """``card.joker``: onto a track hole held by a peg of another colour."""
    mover, _, dst = j.step
    if j.rank is not Rank.JOKER or not j.holes_ok():
        return None
    target = j.work.at.get(dst) if is_track(dst) else None
    if target is None:
        return Reason("card.joker", "a joker lands only on a track hole held by another peg")
    if target == mover:
        return Reason("card.joker", "a joker cannot land on a peg of the moving peg's colour")
    return None


def _come_out_card(j: Judging) -> Reason | None:
    """``card.come-out``: only an A, J, Q, K (or a joker) brings a peg out."""
    if j.step.src != START or j.rank in COME_OUT_RANKS or j.rank is Rank.JOKER:
        return None
    return Reason("card.come-out", "only an A, J, Q, K or a joker brings a peg out of a start area")


def _come_out_hole(j: Judging) -> Reason | None:
    """``card.come-out``: a peg comes out to its own come-out hole."""
    mover, src, dst = j.step
    if src != START or j.rank not in COME_OUT_RANKS or not j.holes_ok():
        return None
    hole = j.t.come_out[mover]
    if dst == hole:
        return None
    return Reason("card.come-out", f"a peg coming out goes to its come-out hole {hole}")


def _counted(j: Judging) -> bool:
    """Whether the step is a forward card's move of a peg on the board, ends on the board."""
    return j.forward_card() and j.holes_ok() and j.step.src != START


def _home_count(j: Judging) -> Reason | None:
    """``move.in-home``: a home peg moves forward in its lane by an exact count."""
    if not _counted(j) or not is_home(j.step.src) or j.reading is not None:
        return None
    if j.split:
        return Reason(
            "move.in-home", "a peg in home moves forward along its lane, never back or out of it"
        )
    return Reason(
        "move.in-home", f"a peg in home moves exactly {j.total} holes forward, never out of home"
    )


def _home_entry_count(j: Judging) -> Reason | None:
    """``move.home-entry``: a peg enters home only when the count ends exactly on a home hole."""
    _, src, dst = j.step
    if j.split or not _counted(j) or not is_track(src) or not is_home(dst) or j.reading is not None:
        return None
    return Reason(
        "move.home-entry", "a peg enters home only if the count ends exactly on a home hole"
    )


def _count(j: Judging) -> Reason | None:
    """The card's ruling: a peg moves by the card's count."""
    _, src, dst = j.step
    if j.split or not _counted(j) or not is_track(src) or is_home(dst) or j.reading is not None:
        return None
    assert j.rank is not None
    return Reason(
        card_rule(j.rank), f"a {j.rank.symbol} moves a peg exactly {j.total} holes forward"
    )


def _split_part_count(j: Judging) -> Reason | None:
    """The split's ruling: each part moves a peg by 1 to the card's count less one."""
    if not j.split or not _counted(j) or not is_track(j.step.src) or j.reading is not None:
        return None
    assert j.rank is not None
    way = "forward or back" if _backward_parts(j) else "forward"
    return Reason(
        split_rule(j.rank),
        f"each part of a split moves its peg {way} 1 to {j.total - 1} holes, the two making {j.total}",
    )


def _backward_parts(j: Judging) -> bool:
    """``variant.nine-split``: a part of a split 9 may go back under ``forward_backward``."""
    return j.split and j.rank is Rank.NINE and j.rules.nine is Nine.FORWARD_BACKWARD


def _split_total(j: Judging) -> Reason | None:
    """The split's ruling: the parts add up to the card's count."""
    if not j.split or j.index != 1 or j.first is None or j.reading is None:
        return None
    if j.first.n + j.reading.n == j.total:
        return None
    assert j.rank is not None
    made = j.first.n + j.reading.n
    return Reason(
        split_rule(j.rank), f"the two parts of a split make {j.total} holes together, not {made}"
    )


def _path_blocked(j: Judging) -> Reason | None:
    """``move.blocking``: no path passes or ends on a peg of the mover's colour.

    Inside a home lane that is ``move.in-home``; otherwise the first such peg
    the path meets names it: ``move.blocking`` on the track, ``move.home-entry``
    in the home lane.
    """
    mover, src, dst = j.step
    if not j.holes_ok() or j.rank is Rank.JOKER:
        return None
    own = j.work.mask[mover]
    if src == START:
        if j.rank is Rank.EIGHT or dst != j.t.come_out[mover] or j.work.at.get(dst) != mover:
            return None
        return Reason("move.blocking", f"a peg of the same colour already stands on {dst}")
    if j.rank is Rank.EIGHT:
        if not is_track(src):
            return None
        target, passed = j.t.back[src][8]
        return _blocking() if dst == target and passed & own else None
    reading = j.reading
    if reading is None or not reading.mask & own:
        return None
    if is_home(src):
        return Reason("move.in-home", "a peg in home may not pass or land on another peg")
    if reading.backward or reading.mask & own & ((1 << j.t.length) - 1):
        return _blocking()
    return Reason("move.home-entry", "a peg enters home only past and onto empty home holes")


def _blocking() -> Reason:
    return Reason("move.blocking", "a peg may not pass or land on a peg of its own colour")


def _along_the_track(j: Judging) -> bool:
    """Whether the step is a forward move of a track peg that stays on the track."""
    reading = j.reading
    _, src, dst = j.step
    return reading is not None and not reading.backward and is_track(src) and is_track(dst)


def _wait_on_in_spot(j: Judging) -> Reason | None:
    """``variant.wait-on-in-spot``: a peg on its own in-spot goes only into home."""
    if _along_the_track(j) and j.step.src == j.t.in_spot[j.step.seat]:
        return Reason("variant.wait-on-in-spot", "a peg on its own in-spot may only go into home")
    return None


def _home_entry_compulsory(j: Judging) -> Reason | None:
    """``variant.home-entry-compulsory``: a peg that can enter home must."""
    if not _along_the_track(j):
        return None
    assert j.reading is not None
    mover, src, _ = j.step
    path = j.t.entry[mover][src][j.reading.n]
    if path is None or path[1] & j.work.mask[mover]:
        return None
    return Reason("variant.home-entry-compulsory", "a peg that can enter home must")


def _nine_split_shape(j: Judging) -> Reason | None:
    """``variant.nine-split`` (``forward_backward``): one part forward, the other backward."""
    first, reading = j.first, j.reading
    if j.rank is not Rank.NINE or not j.split or j.index != 1 or first is None or reading is None:
        return None
    if first.backward != reading.backward:
        return None
    way = "back" if reading.backward else "forward"
    return Reason(
        "variant.nine-split",
        f"one part of a split 9 goes forward and the other backward; both of these go {way}",
    )


def _knock_onto_held_in_spot(j: Judging) -> Reason | None:
    """``move.landing.in-spot``: a team peg knocked off lands on its in-spot as the rules allow."""
    mover, src, dst = j.step
    if not j.holes_ok() or mover not in j.movable or not j.peg_there():
        return None  # a landing is judged for a peg the player moves
    if j.work.resolve(mover, src, dst) is not None:
        return None
    if j.rules.in_spot_occupied is InSpotOccupied.ILLEGAL:
        return Reason(
            "variant.in-spot-occupied",
            "the team peg knocked off would go to its in-spot, which is held",
        )
    return Reason(
        "move.landing.in-spot",
        "the team peg knocked off would go to its in-spot, where a peg of its colour stands",
    )


CHECKS: dict[str, Detect] = {
    "game-over": _game_over,
    "pass-holding-cards": _pass_holding_cards,
    "card-not-held": _card_not_held,
    "discard-while-a-card-plays": _discard_while_a_card_plays,
    "steps-the-card-cannot-make": _steps_the_card_cannot_make,
    "swap-no-such-seat": _swap_no_such_seat,
    "swap-no-such-hole": _swap_no_such_hole,
    "swap-written-from-the-other-peg": _swap_written_from_the_other_peg,
    "swap-of-pegs-not-movable": _swap_of_pegs_not_movable,
    "swap-misfit": _swap_misfit,
    "no-such-seat": _no_such_seat,
    "no-such-hole": _no_such_hole,
    "seat-not-movable": _seat_not_movable,
    "no-peg-there": _no_peg_there,
    "split-part-from-start": _split_part_from_start,
    "split-moves-one-peg-twice": _split_moves_one_peg_twice,
    "eight-not-on-track": _eight_not_on_track,
    "eight-count": _eight_count,
    "joker-from-home": _joker_from_home,
    "joker-not-from-start": _joker_not_from_start,
    "joker-target": _joker_target,
    "come-out-card": _come_out_card,
    "come-out-hole": _come_out_hole,
    "home-count": _home_count,
    "home-entry-count": _home_entry_count,
    "count": _count,
    "split-part-count": _split_part_count,
    "split-total": _split_total,
    "path-blocked": _path_blocked,
    "wait-on-in-spot": _wait_on_in_spot,
    "home-entry-compulsory": _home_entry_compulsory,
    "nine-split-shape": _nine_split_shape,
    "knock-onto-held-in-spot": _knock_onto_held_in_spot,
}
"""Each check of ``specs/verdict.json`` by name: what it finds wrong, or ``None``."""


def _read(j: Judging) -> Reading | None:
    """How the step moves its peg by a forward card's count, if any count it may make does.

    A lone step makes the card's count; a part of a split any count from 1 to
    the card's less one, forward, or under ``nine: forward_backward`` from the
    track back along the track. A path reaches one hole by one count only, so
    the reading is unique.
    """
    mover, src, dst = j.step
    if not _counted(j):
        return None
    t = j.t
    counts = range(1, j.total) if j.split else (j.total,)
    rows = [t.lane[src]] if is_home(src) else [t.track[src], t.entry[mover][src]]
    for n in counts:
        for row in rows:
            path = row[n]
            if path is not None and path[0] == dst:
                return Reading(False, n, path[1])
    if _backward_parts(j) and is_track(src) and is_track(dst):
        for n in counts:
            target, passed = t.back[src][n]
            if target == dst:
                return Reading(True, n, passed)
    return None


def judge(state: GameState, move: Play | Discard | Pass) -> Iterator[Fault]:
    """The checks ``move`` fails, in the order of ``move.verdict``.

    Lazy: the first is the verdict. The steps of a play are judged in turn,
    each on the board the steps before it left; a step that cannot be carried
    out (no peg there, or a landing the rules forbid) ends the judging.
    """
    j = Judging(state, move)
    order = [c for c in verdict_order() if c.applies(state.rules)]
    for check in order:
        if check.scope == "move":
            reason = CHECKS[check.name](j)
            if reason is not None:
                yield Fault(check, None, reason)
    if not isinstance(move, Play):
        return
    scope = "swap" if j.swap else "step"
    if scope == "swap":
        for check in order:
            if check.scope == scope:
                reason = CHECKS[check.name](j)
                if reason is not None:
                    yield Fault(check, 0, reason)
        return
    for index, step in enumerate(j.steps):
        j.index, j.step = index, step
        j.reading = _read(j)
        for check in order:
            if check.scope == scope:
                reason = CHECKS[check.name](j)
                if reason is not None:
                    yield Fault(check, index, reason)
        changes = j.work.move(*step) if j.holes_ok() and j.peg_there() else None
        if changes is None:
            return
        if index == 0:
            j.first = j.reading
            j.moved = step.dst
            for seat, src, dst in changes[1:]:  # knocked on along a chain of in-spots
                if seat == step.seat and src == j.moved:
                    j.moved = dst


def first_fault(state: GameState, move: Play | Discard | Pass) -> Fault | None:
    """The verdict: the first check ``move`` fails, or ``None`` when it fails none."""
    return next(judge(state, move), None)


def faults(state: GameState, move: Play | Discard | Pass) -> list[Fault]:
    """Every check ``move`` fails, in order (see :func:`judge`)."""
    return list(judge(state, move))
