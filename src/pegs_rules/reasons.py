"""Why a move is illegal: the rule id that forbids it and a sentence.

:func:`explain` gives the verdict on any move; :func:`why_illegal` names the
first rule it breaks, judged by the checks of ``move.verdict`` in their order
(:mod:`pegs_rules.verdict`). The legal-move list stays the one authority on legality; the
reasons are the ones :class:`~pegs_rules.errors.IllegalMoveError` carries.

>>> from pegs_rules import parse_position, parse_notation
>>> state = parse_position('''
... pegs 0: 70
... hand 0: 7
... ''')
>>> print(explain(state, parse_notation("7 0:70-6")))
[card.seven] a 7 moves a peg exactly 7 holes forward
>>> explain(state, parse_notation("7 0:70-h2")).legal
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pegs_rules.board import team_of
from pegs_rules.cards import Rank
from pegs_rules.errors import PegsError
from pegs_rules.movegen import hand_plays, legal_moves, movable_seats, splits
from pegs_rules.moves import Discard, Pass, Play, Step
from pegs_rules.state import GameState
from pegs_rules.validate import reraise
from pegs_rules.verdict import Reason, first_fault
from pegs_rules.workboard import WorkBoard, tables


def why_illegal(state: GameState, move: object) -> Reason:
    """The first rule ``move`` breaks in ``state``, as ``(rule id, sentence)``.

    Anything that is not a move at all (another object, a card that is no
    card, steps that are not ``(seat, from, to)`` integers) is
    ``turn.sequence``; a move is judged by the checks of ``move.verdict`` in
    their order (:mod:`pegs_rules.verdict`).
    """
    if not isinstance(move, (Play, Discard, Pass)):
        return Reason("turn.sequence", f"not a move: {move!r}")
    if not isinstance(move, Pass) and not isinstance(move.card, Rank):
        return Reason("turn.sequence", f"not a card: {move.card!r}")
    if isinstance(move, Play):
        steps = move.steps
        if not isinstance(steps, tuple) or not all(_is_step(s) for s in steps):
            return Reason(
                "turn.sequence",
                f"steps must be a tuple of (seat, from, to) integers, not {steps!r}",
            )
        move = Play(move.card, tuple(Step(*s) for s in steps))
    fault = first_fault(state, move)
    if fault is None:  # pragma: no cover - a play that fails no check is listed, or the other order
        return Reason("turn.sequence", "not a legal move")
    return fault.reason


def _is_step(step: object) -> bool:
    return (
        isinstance(step, tuple)
        and len(step) == 3
        and all(isinstance(x, int) and not isinstance(x, bool) for x in step)
    )


def other_writing(state: GameState, move: object) -> tuple[Play, Sequence[Step]] | None:
    """The listed move that ``move`` writes the other way round, with its changes.

    ``card.seven.split.order``: a split whose two orders leave the same
    position is one move, listed once; the other order is accepted as that
    move. ``variant.two-swap.order``: a swap of two pegs the player may both
    move is one move, listed once with the step of the lower seat's peg
    first; written from the other peg it is accepted as that move. Returns
    the listed play and its changes, or ``None`` when ``move`` is no such
    other writing. Not on the hot path: callers ask only about a move they
    did not find listed.

    >>> from pegs_rules import parse_position, parse_notation
    >>> state = parse_position('''
    ... pegs 0: 10 30
    ... hand 0: 7
    ... ''')
    >>> listed, changes = other_writing(state, parse_notation("7 0:30-34 0:10-13"))
    >>> str(listed)
    '7 0:10-13 0:30-34'
    >>> state = parse_position('''
    ... rule two_swap: true
    ... pegs 0: 10
    ... pegs 2: 30
    ... hand 0: 2
    ... ''')
    >>> listed, changes = other_writing(state, parse_notation("2 2:30-10 0:10-30"))
    >>> str(listed)
    '2 0:10-30 2:30-10'
    """
    if not (isinstance(move, Play) and isinstance(move.steps, tuple) and len(move.steps) == 2):
        return None
    rank = move.card
    if state.winner is not None or not isinstance(rank, Rank):
        return None
    swap = rank is Rank.TWO and state.rules.two_swap
    if not (swap or splits(rank, state.rules)):
        return None
    if rank not in state.hands[state.turn] or not all(_is_step(s) for s in move.steps):
        return None
    first, second = (Step(*s) for s in move.steps)
    listed = Play(rank, (second, first))
    changes = next((c for p, c in hand_plays(state)[rank] if p == listed), None)
    if changes is None:
        return None
    if swap:  # the same two pegs trade holes: what matters is who may write the first step
        return (listed, changes) if first.seat in movable_seats(state) else None
    if first_fault(state, Play(rank, (first, second))) is not None:
        return None
    team = team_of(state.turn)
    work = WorkBoard(tables(state.players), state.pegs, team, state.rules)
    for step in (first, second):
        work.move(*step)
    listed_result = WorkBoard(work.t, state.pegs, team, state.rules)
    listed_result.perform(changes)
    if (listed_result.mask, listed_result.start) != (work.mask, work.start):
        return None  # pragma: no cover - an order with a result of its own is listed itself
    return listed, changes


@dataclass(frozen=True, slots=True)
class Explanation:
    """The verdict on one move.

    Attributes:
        legal: whether the move is among :func:`~pegs_rules.legal_moves`.
        rule: the id of the ruling that forbids it, ``None`` when legal.
        reason: one sentence.
    """

    legal: bool
    rule: str | None
    reason: str

    def __str__(self) -> str:
        return self.reason if self.rule is None else f"[{self.rule}] {self.reason}"


def explain(state: GameState, move: object) -> Explanation:
    """Whether the seat to act may make ``move`` in ``state``, and if not, why.

    ``move`` may be any object; anything that is not a legal move gets the
    rule that :func:`~pegs_rules.apply` would reject it with. A listed move
    written the other way round is legal: it is that move (a split in its
    other order with the same result, ``card.seven.split.order``; a swap of
    two movable pegs written from the other peg, ``variant.two-swap.order``).
    A state the engine cannot work on raises
    :class:`~pegs_rules.errors.PositionError` (see :func:`~pegs_rules.validate`).
    """
    if not isinstance(state, GameState):
        raise PegsError(f"not a game state: {type(state).__name__}")
    moves = legal_moves(state)
    try:
        legal = move in moves
    except TypeError:  # an object whose comparison fails is no move
        legal = False
    if legal:
        return Explanation(True, None, f"{move} is a legal move for seat {state.turn}")
    try:
        same = other_writing(state, move)
        if same is not None:
            listed = same[0]
            if listed.card is Rank.TWO:
                how = "written from the other peg (variant.two-swap.order)"
            else:
                how = "in the other order, with the same result (card.seven.split.order)"
            return Explanation(True, None, f"{move} is the legal move {listed} {how}")
        rule, reason = why_illegal(state, move)
    except Exception as error:
        reraise(state, error)
    return Explanation(False, rule, reason)
