"""What the reference says about one position, and how an engine's answer differs from it.

:func:`reference_verdict` judges a move as the reference engine does (the
ruling that forbids it, or the position after it and the pile a reshuffle
made); :class:`Texts` writes the positions one move after a position without
formatting its long piles again (the fuzzer asks about every move of every
position). :func:`legal_divergences` and :func:`apply_divergence` compare an
engine's ``legal`` and ``apply`` answers with the reference's, each
difference a :class:`Divergence` with the ruling it touches and a
:attr:`~Divergence.signature` that says what kind of difference it is (the
shrinker keeps a smaller position only if the engine still differs in the
same way).

>>> from pegs_rules import parse_position
>>> state = parse_position("pegs 0: 12 14\\nhand 0: 5")
>>> reference_verdict(state, "5 0:12-17", Texts(state)).rule
'move.blocking'
>>> wrong = apply_divergence(state, "5 0:12-17", reference_verdict(state, "5 0:12-17", Texts(state)),
...                          {"position": str(state)})
>>> wrong.kind, wrong.ruling, wrong.signature
('accepted', 'move.blocking', ('accepted', 'move.blocking'))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pegs_rules.board import START, is_home, location_name
from pegs_rules.cards import Rank, format_cards
from pegs_rules.errors import IllegalMoveError, PegsError
from pegs_rules.moves import Discard, Move, Pass, Play, parse_notation
from pegs_rules.position import parse_position
from pegs_rules.rules import Nine
from pegs_rules.serialize import from_data
from pegs_rules.spec.protocol import reshuffle_pile
from pegs_rules.state import GameState
from pegs_rules.turn import apply
from pegs_rules.verdict import card_rule

KINDS = {
    "missing": "the engine leaves out a legal move",
    "extra": "the engine lists a move that the reference rejects",
    "twice": "the engine lists a move twice",
    "order": "the engine lists the legal moves in another order than the reference",
    "rejected": "the engine rejects a legal move",
    "accepted": "the engine accepts an illegal move",
    "ruling": "the engine rejects an illegal move for another ruling",
    "position": "the engine's position after a move differs",
    "error": "the engine answers with an error",
    "declined": "the engine declines a request its hello covers",
}
"""Each kind of divergence, as a sentence."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The reference's verdict on a move: ``rule`` (and ``reason``) if it is illegal, else
    the position ``after`` it, its ``text``, and the ``reshuffle`` pile if the turn
    reshuffled the discard pile."""

    rule: str | None
    reason: str = ""
    after: GameState | None = None
    text: str = ""
    reshuffle: str | None = None


def reference_verdict(state: GameState, move: str, texts: Texts) -> Verdict:
    """How the reference judges ``move`` (canonical notation) in ``state``."""
    parsed = parse_notation(move)
    try:
        after = apply(state, parsed)
    except IllegalMoveError as error:
        return Verdict(error.rule, error.reason)
    pile = None
    if after.reshuffles != state.reshuffles:
        pile = format_cards(reshuffle_pile(state, parsed))
    return Verdict(None, after=after, text=texts.after(after, parsed), reshuffle=pile)


class Texts:
    """The position text of ``state`` and of any state one move after it.

    A state one move on shares most of ``state``: the pegs and hands of the
    seats that neither moved nor drew (the very same tuples), the draw pile
    less the cards drawn from its top, and the discard pile with the card
    played on top, unless the move reshuffled. Those lines are taken from
    ``state``'s own text instead of being written again.
    """

    def __init__(self, state: GameState, text: str | None = None) -> None:
        self.state = state
        self.text = str(state) if text is None else text
        lines = self.text.splitlines()
        self.head = [x for x in lines if x.startswith(("rules:", "rule ", "players:"))]
        self.dealer = f"dealer: {state.dealer}"
        self.pegs = [x for x in lines if x.startswith("pegs ")]
        self.hands = [x for x in lines if x.startswith("hand ")]
        self.draw = format_cards(state.draw_pile)
        self.starts = [0]  # where the draw line's text starts after n cards are drawn
        for rank in state.draw_pile:
            self.starts.append(self.starts[-1] + len(rank.symbol) + 1)
        self.discard = format_cards(state.discard_pile)

    def after(self, after: GameState, move: Move) -> str:
        """``str(after)`` for ``after``, a state one ``move`` after this one."""
        before = self.state
        if after.reshuffles != before.reshuffles or after.rules is not before.rules:
            return str(after)
        drawn = before.draw_pile_size - after.draw_pile_size
        draw = self.draw[self.starts[drawn] :] if drawn < len(self.starts) - 1 else ""
        discard = self.discard
        if isinstance(move, (Play, Discard)):
            discard = f"{discard} {move.card.symbol}" if discard else move.card.symbol
        lines = [*self.head, f"turn: {after.turn}", self.dealer]
        for seat, locs in enumerate(after.pegs):
            if locs is before.pegs[seat]:
                lines.append(self.pegs[seat])
            else:
                lines.append(f"pegs {seat}: " + " ".join(location_name(p) for p in locs))
        for seat, hand in enumerate(after.hands):
            if hand is before.hands[seat]:
                lines.append(self.hands[seat])
            else:
                lines.append(f"hand {seat}: {format_cards(hand)}".rstrip())
        lines += [f"draw: {draw}".rstrip(), f"discard: {discard}".rstrip()]
        if after.winner is not None:
            lines.append(f"winner: {after.winner}")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Divergence:
    """One way an engine's answer about a position differs from the reference's.

    Attributes:
        kind: one of :data:`KINDS`.
        state: the position asked about.
        move: the move it is about (``None`` for a difference in the list as a whole).
        request: the request type, ``legal`` or ``apply``.
        reference: what the reference says, in a line.
        engine: what the engine says, in a line.
        ruling: the ruling it touches (the divergences are grouped by it).
        card: the card of the move (its symbol, ``discard`` or ``pass``).
        keys: for a position that differs, the kinds of lines that differ.
        lines: the lines that differ, or other detail to show.
        reshuffle: the pile sent as ``reshuffle`` with an ``apply`` request, if any.
    """

    kind: str
    state: GameState
    move: str | None
    request: str
    reference: str
    engine: str
    ruling: str
    card: str = ""
    keys: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()
    reshuffle: str | None = None

    @property
    def signature(self) -> tuple[str, ...]:
        """What makes two divergences the same kind of difference: the kind and the rulings
        named (by the reference, by the engine, or touched), or, for a position, the kinds
        of lines that differ. The card may differ: a rule forgotten for every card is one
        bug."""
        if self.kind in ("extra", "accepted"):
            return (self.kind, self.reference_rule)
        if self.kind == "ruling":
            return (self.kind, self.reference_rule, self.engine_rule)
        if self.kind == "rejected":
            return (self.kind, self.ruling, self.engine_rule)
        if self.kind == "position":
            return (self.kind, self.ruling, *self.keys)
        if self.kind in ("error", "declined"):
            return (self.kind, self.request)
        if self.kind == "order":
            return (self.kind,)
        return (self.kind, self.ruling)

    @property
    def reference_rule(self) -> str:
        """The ruling the reference names, if it rejects the move."""
        return (
            self.reference.removeprefix("illegal: ")
            if self.reference.startswith("illegal: ")
            else ""
        )

    @property
    def engine_rule(self) -> str:
        """The ruling the engine names, if it rejects the move."""
        return self.engine.removeprefix("illegal: ") if self.engine.startswith("illegal: ") else ""

    @property
    def sentence(self) -> str:
        return KINDS[self.kind]


def card_of(move: str) -> str:
    """The card of a move text: its symbol, ``discard`` or ``pass``."""
    words = move.split()
    return words[0] if words[0] in ("discard", "pass") else words[0].upper()


def ruling_of_move(state: GameState, move: str) -> str:
    """The ruling a legal move exercises first: the one that lets its card do what it does."""
    try:
        parsed = parse_notation(move)
    except PegsError:
        return "turn.sequence"
    if isinstance(parsed, Discard):
        return "turn.discard"
    if isinstance(parsed, Pass):
        return "turn.pass"
    rank, steps = parsed.card, parsed.steps
    if len(steps) == 2:
        if rank is Rank.SEVEN:
            return "card.seven.split"
        if rank is Rank.NINE:
            return "variant.nine-split" if state.rules.nine is not Nine.PLAIN else "card.nine"
        if rank is Rank.TWO:
            return "variant.two-swap"
    step = steps[0]
    if rank is Rank.JOKER:
        return "card.joker"
    if step.src == START:
        return "card.come-out"
    if is_home(step.src):
        return "move.in-home"
    if is_home(step.dst):
        return "move.home-entry"
    return card_rule(rank)


def legal_divergences(
    state: GameState,
    expected: list[str],
    answer: dict[str, Any],
    judge: Callable[[str], Verdict],
    *,
    same_order: bool = False,
) -> list[Divergence]:
    """How the engine's ``legal`` ``answer`` differs from the reference's ``expected`` moves;
    ``judge`` gives the reference's verdict on a move the engine lists and it does not."""
    odd = _odd_answer(state, None, "legal", answer, ("moves",))
    if odd is not None:
        return [odd]
    got = answer["moves"]
    if not isinstance(got, list) or not all(isinstance(m, str) for m in got):
        return [_error(state, None, "legal", f"moves is not a list of move texts: {got!r:.80}")]
    listed = set(expected)
    found = []
    for move in expected:
        if move not in got:
            found.append(
                Divergence(
                    "missing",
                    state,
                    move,
                    "legal",
                    "legal",
                    "not listed",
                    ruling_of_move(state, move),
                    card_of(move),
                )
            )
    for move in dict.fromkeys(got):
        if move in listed:
            continue
        try:
            verdict = judge(move)
        except PegsError as error:  # not a move at all
            verdict = Verdict("turn.sequence", str(error))
        if verdict.rule is None:  # another writing of a listed move: listed twice, in effect
            found.append(_twice(state, move, "another writing of a listed move"))
        else:
            found.append(
                Divergence(
                    "extra",
                    state,
                    move,
                    "legal",
                    f"illegal: {verdict.rule}",
                    "listed",
                    verdict.rule,
                    card_of(move),
                    lines=(verdict.reason,),
                )
            )
    for move, count in Counter(got).items():
        if count > 1:
            found.append(_twice(state, move, f"listed {count} times"))
    if not found and same_order and got != expected:
        found.append(
            Divergence(
                "order",
                state,
                None,
                "legal",
                ", ".join(expected),
                ", ".join(got),
                "move order",
                lines=("the reference's order:", *expected, "the engine's:", *got),
            )
        )
    return found


def _twice(state: GameState, move: str, how: str) -> Divergence:
    ruling = ruling_of_move(state, move)
    return Divergence("twice", state, move, "legal", "listed once", how, ruling, card_of(move))


def apply_divergence(
    state: GameState, move: str, verdict: Verdict, answer: dict[str, Any]
) -> Divergence | None:
    """How the engine's ``apply`` ``answer`` to ``move`` differs from the reference's
    ``verdict``, if it does."""
    odd = _odd_answer(state, move, "apply", answer, ("illegal", "position", "state"))
    if odd is not None:
        return odd
    card = card_of(move)
    reference = "legal" if verdict.rule is None else f"illegal: {verdict.rule}"
    if "illegal" in answer:
        rule = str(answer["illegal"])
        if verdict.rule == rule:
            return None
        engine = f"illegal: {rule}"
        reason = (f"the engine's reason: {answer['reason']}",) if answer.get("reason") else ()
        if verdict.rule is None:
            ruling = _written_otherwise(state, move) or rule
            return Divergence(
                "rejected", state, move, "apply", reference, engine, ruling, card, (), reason
            )
        kind = "ruling"
        return Divergence(
            kind, state, move, "apply", reference, engine, verdict.rule, card, (), reason
        )
    text = answer.get("position")
    if verdict.rule is None and isinstance(text, str) and text == verdict.text:
        return None  # the usual case: the engine writes the position as the reference does
    try:
        got = parse_position(text) if isinstance(text, str) else from_data(answer["state"], "state")
        mine = str(got)
    except (PegsError, KeyError) as error:
        return _error(state, move, "apply", f"its position cannot be read: {error}", verdict)
    if verdict.rule is not None:
        return Divergence(
            "accepted",
            state,
            move,
            "apply",
            reference,
            "legal",
            verdict.rule,
            card,
            lines=(verdict.reason, "the engine's position after it:", *mine.splitlines()),
            reshuffle=verdict.reshuffle,
        )
    if mine == verdict.text:
        return None
    theirs, ours = mine.splitlines(), verdict.text.splitlines()
    differ = [x for x in ours if x not in theirs] + [x for x in theirs if x not in ours]
    keys = tuple(sorted({x.partition(":")[0].split()[0] for x in differ}))
    return Divergence(
        "position",
        state,
        move,
        "apply",
        "legal",
        "legal, another position",
        ruling_of_lines(state, move, keys, verdict.reshuffle is not None),
        card,
        keys,
        tuple(f"- {x}" for x in ours if x not in theirs)
        + tuple(f"+ {x}" for x in theirs if x not in ours),
        verdict.reshuffle,
    )


def _written_otherwise(state: GameState, move: str) -> str | None:
    """The order ruling that makes ``move`` legal though it is not listed as written."""
    card = card_of(move)
    if move.count(":") != 2:
        return None
    return {"7": "card.seven.split.order", "9": "card.seven.split.order"}.get(
        card, "variant.two-swap.order" if card == "2" else None
    )


def ruling_of_lines(state: GameState, move: str, keys: tuple[str, ...], reshuffled: bool) -> str:
    """The ruling a difference in these kinds of lines (``pegs``, ``hand``, ``turn``...) after
    ``move`` touches (``reshuffled``: whether the move reshuffled the discard pile)."""
    if "pegs" in keys:
        return ruling_of_move(state, move)
    if "winner" in keys:
        return "game.end"
    if {"hand", "draw", "discard"} & set(keys):
        return "turn.reshuffle" if reshuffled else "turn.sequence"
    return "turn.order"


def _odd_answer(
    state: GameState,
    move: str | None,
    request: str,
    answer: dict[str, Any],
    wanted: tuple[str, ...],
) -> Divergence | None:
    """A divergence for an answer that holds an error, a decline or none of ``wanted``."""
    if any(key in answer for key in wanted):
        return None
    if "unsupported" in answer:
        ruling = "turn.sequence" if move is None else ruling_of_move(state, move)
        said = f"unsupported: {answer['unsupported']}"
        return Divergence("declined", state, move, request, "an answer", said, ruling)
    if "error" in answer:
        return _error(state, move, request, f"error: {answer['error']}")
    return _error(state, move, request, f"none of {', '.join(wanted)}: {sorted(answer)}")


def _error(
    state: GameState, move: str | None, request: str, said: str, verdict: Verdict | None = None
) -> Divergence:
    ruling = "turn.sequence" if move is None else ruling_of_move(state, move)
    reference = "an answer"
    if verdict is not None:
        reference = "legal" if verdict.rule is None else f"illegal: {verdict.rule}"
    return Divergence("error", state, move, request, reference, said, ruling)
