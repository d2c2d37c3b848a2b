"""What a move did, step by step: :func:`apply_with_events`.

A frontend can animate a turn from its events without comparing states.
They come in the order things happen:

1. :class:`CardPlayed`, :class:`CardDiscarded` or :class:`Passed`;
2. for a play, each peg's movement: :class:`PegMoved` for a step of the
   move, :class:`PegDisplaced` for a peg knocked away by a landing
   (``move.landing``), each part of a split in turn (a split given in its
   other order, or a swap written from its other peg, is reported as its
   listed form: ``card.seven.split.order``, ``variant.two-swap.order``);
3. :class:`CardsDrawn` for the cards drawn, split in two around a
   :class:`Reshuffled` when the draw pile ran out (``turn.reshuffle``);
4. :class:`GameOver` when the move won the game (``game.end``).

Drawn cards are secret: :func:`redact` hides those another seat drew.

>>> from pegs_rules import parse_position, parse_notation
>>> state = parse_position('''
... pegs 0: 30
... pegs 1: 35
... hand 0: 2 2 5 6 6
... draw: 9 A
... ''')
>>> after, events = apply_with_events(state, parse_notation("5 0:30-35"))
>>> for event in events:
...     print(event)
seat 0 plays 5
seat 0's peg moves from 30 to 35
seat 1's peg is knocked from 35 back to its start
seat 0 draws 9
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pegs_rules.board import START, Location, location_name
from pegs_rules.cards import Rank, format_cards
from pegs_rules.errors import PegsError
from pegs_rules.movegen import hand_plays
from pegs_rules.moves import Discard, Move, Pass, Play, Step
from pegs_rules.reasons import other_writing
from pegs_rules.state import GameState
from pegs_rules.turn import apply
from pegs_rules.validate import reraise


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """``seat`` played ``card``."""

    seat: int
    card: Rank

    def __str__(self) -> str:
        return f"seat {self.seat} plays {self.card}"


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    """``seat`` discarded ``card`` without moving (``turn.discard``)."""

    seat: int
    card: Rank

    def __str__(self) -> str:
        return f"seat {self.seat} discards {self.card}"


@dataclass(frozen=True, slots=True)
class Passed:
    """``seat`` held no cards and passed (``turn.pass``)."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} passes"


@dataclass(frozen=True, slots=True)
class PegMoved:
    """A peg of ``seat``'s colour moved from ``src`` to ``dst``: a step of the move."""

    seat: int
    src: Location
    dst: Location

    def __str__(self) -> str:
        return (
            f"seat {self.seat}'s peg moves from {location_name(self.src)} "
            f"to {location_name(self.dst)}"
        )


@dataclass(frozen=True, slots=True)
class PegDisplaced:
    """A peg of ``seat``'s colour was knocked from ``src`` to ``dst``: its start or its in-spot."""

    seat: int
    src: Location
    dst: Location

    def __str__(self) -> str:
        where = "back to its start" if self.dst == START else f"to its in-spot {self.dst}"
        return f"seat {self.seat}'s peg is knocked from {location_name(self.src)} {where}"


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """``seat`` drew ``count`` cards: ``cards`` (``None`` once hidden by :func:`redact`)."""

    seat: int
    count: int
    cards: tuple[Rank, ...] | None

    def __str__(self) -> str:
        if self.cards is None:
            return f"seat {self.seat} draws {self.count} card{'s' * (self.count != 1)}"
        return f"seat {self.seat} draws {format_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """The discard pile (``cards`` cards) was shuffled into a new draw pile; reshuffle ``number``."""

    cards: int
    number: int

    def __str__(self) -> str:
        cards = f"{self.cards} card{'s' * (self.cards != 1)}"
        return f"the discard pile ({cards}) is shuffled into a new draw pile"


@dataclass(frozen=True, slots=True)
class GameOver:
    """Team ``winner`` has every peg home and wins (``game.end``)."""

    winner: int

    def __str__(self) -> str:
        return f"team {self.winner} wins"


Event = (
    CardPlayed
    | CardDiscarded
    | Passed
    | PegMoved
    | PegDisplaced
    | CardsDrawn
    | Reshuffled
    | GameOver
)
"""Anything :func:`apply_with_events` reports."""


def apply_with_events(state: GameState, move: Move) -> tuple[GameState, tuple[Event, ...]]:
    """:func:`~pegs_rules.apply` ``move``, and say what happened, in order.

    Raises :class:`~pegs_rules.errors.IllegalMoveError` and
    :class:`~pegs_rules.errors.PositionError` exactly as ``apply`` does.
    """
    after = apply(state, move)
    try:
        seat = state.turn
        events: list[Event] = []
        played: Rank | None = None
        if isinstance(move, Play):
            move, effects = _listed(state, move)
            played = move.card
            events.append(CardPlayed(seat, move.card))
            events += _peg_events(move, effects)
        elif isinstance(move, Discard):
            played = move.card
            events.append(CardDiscarded(seat, move.card))
        elif isinstance(move, Pass):
            events.append(Passed(seat))
        events += _draw_events(state, after, played)
        if after.winner is not None:
            events.append(GameOver(after.winner))
    except Exception as error:
        reraise(state, error)
    return after, tuple(events)


def _listed(state: GameState, move: Play) -> tuple[Play, Sequence[Step]]:
    """The listed form of ``move`` (``card.seven.split.order``, ``variant.two-swap.order``) and
    every change it makes."""
    for play, effects in hand_plays(state)[move.card]:
        if play == move:
            return play, effects
    same = other_writing(state, move)
    if same is None:  # pragma: no cover - apply accepted it
        raise PegsError(f"{move} was applied but is not among its card's plays")
    return same


def _peg_events(move: Play, effects: Sequence[Step]) -> list[Event]:
    """Steps of the move are movements; every other change is a peg knocked away."""
    out: list[Event] = []
    steps = list(move.steps)
    for change in effects:
        if steps and change == steps[0]:
            steps.pop(0)
            out.append(PegMoved(*change))
        else:
            out.append(PegDisplaced(*change))
    return out


def _draw_events(before: GameState, after: GameState, played: Rank | None) -> list[Event]:
    """Cards drawn (by whoever drew), and the reshuffle they needed, from the two states."""
    out: list[Event] = []
    for seat, (old, new) in enumerate(zip(before.hands, after.hands, strict=True)):
        kept = Counter(old)
        if seat == before.turn and played is not None:
            kept[played] -= 1
        drawn = Counter(new) - kept
        if not drawn:
            continue
        if after.reshuffles == before.reshuffles:
            out.append(_drawn(seat, _in_pile_order(drawn, before.draw_pile)))
            continue
        first = before.draw_pile  # the old pile ran out: all of it was drawn first
        if first:
            out.append(_drawn(seat, first))
        rest = drawn - Counter(first)
        number = after.reshuffles
        out.append(Reshuffled(len(after.draw_pile) + rest.total(), number))
        if rest:
            out.append(_drawn(seat, tuple(sorted(rest.elements()))))
    if after.reshuffles != before.reshuffles and not any(isinstance(e, Reshuffled) for e in out):
        out.append(Reshuffled(len(after.draw_pile), after.reshuffles))  # pragma: no cover
    return out


def _in_pile_order(drawn: Counter[Rank], pile: tuple[Rank, ...]) -> tuple[Rank, ...]:
    """The drawn cards as they lay on top of the pile (sorted if they did not)."""
    top = pile[: drawn.total()]
    return top if Counter(top) == drawn else tuple(sorted(drawn.elements()))


def _drawn(seat: int, cards: tuple[Rank, ...]) -> CardsDrawn:
    return CardsDrawn(seat, len(cards), cards)


def redact(events: tuple[Event, ...], seat: int) -> tuple[Event, ...]:
    """``events`` as ``seat`` may see them: the cards other seats drew are hidden."""
    return tuple(
        replace(e, cards=None) if isinstance(e, CardsDrawn) and e.seat != seat else e
        for e in events
    )
