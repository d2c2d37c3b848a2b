"""Reading and writing moves against a position: :func:`parse_move`, :func:`format_move`.

The canonical notation is that of :mod:`pegs_rules.moves` (``str(move)``,
:func:`~pegs_rules.parse_notation`): ``7 0:70-h2 2:33-37``, ``discard 7``,
``pass``. :func:`parse_move` also reads shorthands and resolves them against
the legal moves of the position:

* the seat may be left out of a step: ``7 70-h2 33-37``, ``K s-26``;
* the destination may be left out (``8 40``, ``K s``: come out) or written
  ``h`` for "into home, wherever that is" (``5 3-h``);
* a card alone means its only legal play: ``JK``;
* a split whose two orders leave the same position may be written in
  either order; it reads as the listed move (``card.seven.split.order``);
  so may a swap of two pegs the player may both move
  (``variant.two-swap.order``);
* words are case-insensitive and may be separated by commas.

A shorthand that fits several legal moves raises
:class:`~pegs_rules.errors.AmbiguousMoveError` listing them; text that is
no move raises :class:`~pegs_rules.errors.NotationError` saying what is
wrong; a move the rules forbid raises
:class:`~pegs_rules.errors.IllegalMoveError` with its rule id.

>>> from pegs_rules import parse_position, legal_moves
>>> state = parse_position('''
... pegs 0: 70 h1
... pegs 2: 40 h1
... hand 0: 3 K
... ''')
>>> str(parse_move(state, "3 70-1")), str(parse_move(state, "k 40"))
('3 0:70-1', 'K 2:40-50')
>>> parse_move(state, "3 h1-h4")
Traceback (most recent call last):
...
pegs_rules.errors.AmbiguousMoveError: '3 h1-h4' is ambiguous: it could be 3 0:h1-h4, 3 2:h1-h4
>>> parse_move(state, "3 41-44")
Traceback (most recent call last):
...
pegs_rules.errors.IllegalMoveError: [board.pegs] no peg of seat 0 on 41
>>> [format_move(state, move, short=True) for move in legal_moves(state)]
['3 70', '3 0:h1', '3 40', '3 2:h1', 'K s-8', 'K 70', 'K 2:s', 'K 40']
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from pegs_rules.board import Location, is_home, is_track, location_name, parse_location
from pegs_rules.cards import Rank
from pegs_rules.errors import AmbiguousMoveError, IllegalMoveError, NotationError, PegsError
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import Discard, Move, Pass, Play, Step, parse_notation
from pegs_rules.reasons import other_writing, why_illegal
from pegs_rules.state import GameState
from pegs_rules.validate import reraise
from pegs_rules.verdict import card_rule

_ANY_HOME = "h"
"""A location pattern: any hole of the peg's home lane."""
_MAX_LISTED = 12


@dataclass(frozen=True, slots=True)
class _StepPattern:
    """One step as written: the seat and destination may be missing, ``h`` is any home hole."""

    seat: int | None
    src: Location | str
    dst: Location | str | None

    def matches(self, step: Step) -> bool:
        return (
            (self.seat is None or self.seat == step.seat)
            and _fits(self.src, step.src)
            and (self.dst is None or _fits(self.dst, step.dst))
        )

    def concrete(self, state: GameState) -> Step | None:
        """The one step this names on ``state``'s board, if the text says enough."""
        if not isinstance(self.src, int) or not isinstance(self.dst, int):
            return None
        seat = self.seat
        if seat is None:
            seat = _owner(state, self.src)
        return Step(seat, self.src, self.dst)


def _fits(pattern: Location | str, location: Location) -> bool:
    return is_home(location) if pattern == _ANY_HOME else pattern == location


def _owner(state: GameState, src: Location) -> int:
    """The seat whose peg a seatless step most likely means: the one standing on ``src``."""
    if is_track(src):
        for seat, locs in enumerate(state.pegs):
            if src in locs:
                return seat
        return state.turn
    mates = [state.turn] + [
        s for s in range(state.players) if s != state.turn and s % 2 == state.turn % 2
    ]
    return next((s for s in mates if src in state.pegs[s]), state.turn)


def parse_move(state: GameState, text: str) -> Move:
    """The legal move of ``state`` that ``text`` names (see the module docstring)."""
    if not isinstance(state, GameState):
        raise PegsError(f"not a game state: {type(state).__name__}")
    if not isinstance(text, str):
        raise NotationError(f"a move is written as text, not {type(text).__name__}")
    try:
        legal = legal_moves(state)
        move: Move | tuple[Rank, list[_StepPattern]]
        try:
            move = parse_notation(text)
        except NotationError:
            move = _read(text)
        if not isinstance(move, tuple):
            if move in legal:
                return move
            same = other_writing(state, move)
            if same is not None:
                return same[0]
            raise IllegalMoveError(*why_illegal(state, move))
        card, steps = move
        found: list[Move] = list(_named(legal, card, steps))
        if not found and len(steps) == 2:  # card.seven.split.order, variant.two-swap.order
            found = list(_other_orders(state, legal, card, steps))
        if len(found) == 1:
            return found[0]
        if found:
            raise AmbiguousMoveError(text, found)
        raise _no_match(state, legal, text, card, steps)
    except Exception as error:
        reraise(state, error)


def _named(legal: tuple[Move, ...], card: Rank, steps: list[_StepPattern]) -> Iterator[Play]:
    """The legal plays, in the engine's order, that a shorthand's card and steps fit."""
    return (
        m
        for m in legal
        if isinstance(m, Play)
        and m.card is card
        and (not steps or len(m.steps) == len(steps))
        and all(p.matches(s) for p, s in zip(steps, m.steps, strict=False))
    )


def _names_several(plays: tuple[Move, ...], text: str) -> bool:
    """Whether :func:`parse_move` finds ``text`` ambiguous: a shorthand (not a move's full
    notation) that two or more of ``plays`` (the legal plays of its card) fit. Stops at the
    second."""
    try:
        parse_notation(text)
        return False
    except NotationError:
        pass
    try:
        read = _read(text)
    except NotationError:
        return False
    if not isinstance(read, tuple):
        return False
    return len(list(itertools.islice(_named(plays, *read), 2))) == 2


def _other_orders(
    state: GameState, legal: tuple[Move, ...], card: Rank, steps: list[_StepPattern]
) -> list[Play]:
    """The listed splits and swaps that ``steps`` name the other way round (see
    :func:`~pegs_rules.reasons.other_writing`)."""
    return [
        m
        for m in legal
        if isinstance(m, Play)
        and m.card is card
        and len(m.steps) == 2
        and steps[0].matches(m.steps[1])
        and steps[1].matches(m.steps[0])
        and other_writing(state, Play(card, m.steps[::-1])) is not None
    ]


def _no_match(
    state: GameState, legal: tuple[Move, ...], text: str, card: Rank, steps: list[_StepPattern]
) -> IllegalMoveError:
    """Why no legal move fits: the rule the named move breaks, or the card's rule."""
    if state.winner is not None or card not in state.hands[state.turn]:
        return IllegalMoveError(*why_illegal(state, Play(card, ())))
    concrete = [p.concrete(state) for p in steps]
    if steps and all(concrete):
        return IllegalMoveError(*why_illegal(state, Play(card, tuple(filter(None, concrete)))))
    plays = [str(m) for m in legal if isinstance(m, Play) and m.card is card]
    if not plays:
        return IllegalMoveError(card_rule(card), f"seat {state.turn}'s {card} has no legal play")
    listed = ", ".join(plays[:_MAX_LISTED]) + (", ..." if len(plays) > _MAX_LISTED else "")
    return IllegalMoveError(
        card_rule(card), f"no legal play matches {text!r}; the {card} can play {listed}"
    )


def _read(text: str) -> Move | tuple[Rank, list[_StepPattern]]:
    """``text`` as a move (discard, pass) or a card and step patterns; NotationError if neither."""
    words = text.replace(",", " ").split()
    if not words:
        raise NotationError("no move given: write a card and its steps, 'discard CARD' or 'pass'")
    head = words[0].lower()
    if head == "pass":
        if len(words) > 1:
            raise NotationError(f"'pass' takes nothing after it: {text!r}")
        return Pass()
    if head == "discard":
        if len(words) != 2:
            raise NotationError(f"write a discard as 'discard CARD', not {text!r}")
        return Discard(_card(words[1], text))
    card = _card(words[0], text)
    if len(words) > 3:
        raise NotationError(f"a play has one or two steps, not {len(words) - 1}: {text!r}")
    return card, [_step(word, text) for word in words[1:]]


def _card(word: str, text: str) -> Rank:
    try:
        return Rank.parse(word)
    except ValueError:
        raise NotationError(
            f"{word!r} is not a card (A 2..10 J Q K JK) in {text!r}; "
            "write a card and its steps, 'discard CARD' or 'pass'"
        ) from None


def _step(word: str, text: str) -> _StepPattern:
    """``[seat:]from[-to]``."""
    seat: int | None = None
    rest = word
    if ":" in word:
        head, _, rest = word.partition(":")
        if not (head.isdigit() and len(head) <= 3):
            raise NotationError(f"bad seat {head!r} in step {word!r} of {text!r}")
        seat = int(head)
    src, dash, dst = rest.partition("-")
    return _StepPattern(
        seat,
        _location(src, word, text),
        _location(dst, word, text) if dash else None,
    )


def _location(word: str, step: str, text: str) -> Location | str:
    word = word.lower()
    if word == _ANY_HOME:
        return _ANY_HOME
    try:
        if not word or (word.isdigit() and len(word) > 6):
            raise ValueError
        return parse_location(word)
    except ValueError:
        raise NotationError(
            f"bad location {word!r} in step {step!r} of {text!r}: write a hole number, "
            "s (start), h1..h5 (home) or h (any home hole); a step is [seat:]from-to, "
            "for example 0:12-17 or 12-17"
        ) from None


def format_move(state: GameState, move: Move, *, short: bool = False) -> str:
    """``move``, a legal move of ``state``, as text that :func:`parse_move` reads back.

    The canonical notation (``str(move)``); with ``short``, the shortest
    shorthand that names it unambiguously in ``state``. An illegal move
    raises :class:`~pegs_rules.errors.IllegalMoveError`.
    """
    if not isinstance(state, GameState):
        raise PegsError(f"not a game state: {type(state).__name__}")
    try:
        legal = legal_moves(state)
        if move not in legal:
            raise IllegalMoveError(*why_illegal(state, move))
        text = str(move)
        if not short or not isinstance(move, Play):
            return text
        plays = tuple(m for m in legal if isinstance(m, Play) and m.card is move.card)
        for candidate in _shorthands(move):
            if _names_several(plays, candidate):
                continue  # parse_move would refuse it; seen here without a full search
            try:
                if parse_move(state, candidate) == move:
                    return candidate
            except PegsError:
                continue
        return text  # pragma: no cover - the canonical text always resolves
    except Exception as error:
        reraise(state, error)


def _shorthands(play: Play) -> list[str]:
    """Ways of writing ``play``, shortest first (the canonical text last)."""
    options = []
    for seat, src, dst in play.steps:
        a, b = location_name(src), location_name(dst)
        options.append([a, f"{a}-{b}", f"{seat}:{a}", f"{seat}:{a}-{b}"])
    texts = [play.card.symbol] + [
        " ".join([play.card.symbol, *words]) for words in itertools.product(*options)
    ]
    return sorted(texts, key=len)
