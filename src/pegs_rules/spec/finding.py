"""A divergence the fuzzer found, as a suite case and a perft position.

:func:`suite_case` writes the shrunk position as a case of ``specs/cases``
(schema ``case.schema.json``) whose expectation is the reference engine's
answer there (the legal moves, the ruling that forbids the move, or the
position after it), and :func:`perft_position` as an entry of
``specs/perft.json`` counted to depth 3, its draw pile filled up from the
cards out of play so that no counted sequence can reach a reshuffle. Both are printed in the
layout of those files (:func:`case_text`, :func:`perft_text`), ready to
paste; a case's ``why`` says that its expectation still has to be checked
against the rulings, as every case of the suite is.
"""

from __future__ import annotations

import json
import shlex
from collections import Counter
from typing import Any

from pegs_rules.board import START, location_name
from pegs_rules.cards import build_deck, format_cards
from pegs_rules.errors import IllegalMoveError, PegsError
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import parse_notation
from pegs_rules.position import parse_position
from pegs_rules.rules import PRESETS
from pegs_rules.rulings import RULINGS
from pegs_rules.spec.derive import after_lines
from pegs_rules.spec.harness import position_fields
from pegs_rules.spec.perft import perft
from pegs_rules.spec.probe import Divergence
from pegs_rules.spec.record import enough_cards
from pegs_rules.spec.suite import digest_of
from pegs_rules.state import GameState
from pegs_rules.turn import apply


def preset_of(state: GameState) -> str:
    return state.rules.name if state.rules.name in PRESETS else "arizona"


def case_lines(state: GameState) -> list[str]:
    """A position's lines as a hand-written case has them: what differs from the defaults
    (four players, seat 0 to act, the dealer before it, pegs in start, no cards)."""
    lines = [x for x in str(state).splitlines() if x.startswith("rule ")]
    if state.players != 4:
        lines.append(f"players: {state.players}")
    if state.turn:
        lines.append(f"turn: {state.turn}")
    if state.dealer != (state.turn - 1) % state.players:
        lines.append(f"dealer: {state.dealer}")
    for seat, locs in enumerate(state.pegs):
        out = [location_name(p) for p in locs if p != START]
        if out:
            lines.append(f"pegs {seat}: {' '.join(out)}")
    for seat, hand in enumerate(state.hands):
        if hand:
            lines.append(f"hand {seat}: {format_cards(hand)}")
    if state.draw_pile:
        lines.append(f"draw: {format_cards(state.draw_pile)}")
    if state.discard_pile:
        lines.append(f"discard: {format_cards(state.discard_pile)}")
    return lines


def _ident(found: Divergence) -> str:
    return digest_of(str(found.state) + (found.move or ""))[:8]


def suite_case(found: Divergence, source: str) -> dict[str, Any] | None:
    """The case that checks what ``found`` is about, with the reference's expectation;
    ``None`` for a difference in the order of the legal moves (a case compares them as a
    set)."""
    if found.kind == "order":
        return None
    state = found.state
    ruling = found.ruling if found.ruling in RULINGS else "move.verdict"
    case: dict[str, Any] = {
        "id": f"{ruling}/fuzz-{_ident(found)}",
        "rules": [ruling],
        "preset": preset_of(state),
        "position": case_lines(state),
    }
    why = (
        f"Found by the fuzzer ({source}) and shrunk; the expectation is the reference "
        "engine's: check it against specs/rulings.md and say here why it holds."
    )
    if found.request == "legal" or found.move is None:
        return case | {"why": why, "expect": {"legal": [str(m) for m in legal_moves(state)]}}
    try:
        after = apply(state, parse_notation(found.move))
    except IllegalMoveError as error:
        return case | {"move": found.move, "why": why, "expect": {"illegal": error.rule}}
    lines = [_compact(line) for line in after_lines(state, after)]
    return case | {"move": found.move, "why": why, "expect": {"after": lines}}


def request_of(found: Divergence) -> dict[str, Any]:
    """The request about ``found``'s position that the engine answered otherwise than the
    reference, as it was sent: ``legal``, or ``apply`` with its move and the pile a reshuffle
    makes."""
    request: dict[str, Any] = {"id": 2, "type": found.request}
    request |= position_fields(found.state, made=True)
    if found.request != "legal" and found.move is not None:
        request["move"] = found.move
        if found.reshuffle is not None:
            request["reshuffle"] = found.reshuffle
    return request


HELLO = {"id": 1, "type": "hello", "protocol": 1}
"""The first request on every start of an engine."""


def repro_command(found: Divergence, engine: str | None) -> str:
    """A shell command that sends the diverging request (after a ``hello``) to ``engine``
    (a command line; ``ENGINE`` where it is not known) and prints its answers."""
    lines = [json.dumps(HELLO), json.dumps(request_of(found), ensure_ascii=False)]
    target = engine if engine is not None else "ENGINE"
    return f"printf '%s\\n' {' '.join(shlex.quote(x) for x in lines)} | {target}"


def _compact(line: str) -> str:
    """A ``pegs`` line as a case writes it: the pegs out of start only."""
    if not line.startswith("pegs "):
        return line
    key, _, value = line.partition(":")
    out = [x for x in value.split() if x != "s"]
    return f"{key}: {' '.join(out)}".rstrip()


PERFT_DEPTH = 3
"""The depth of a perft entry: the least that ``specs/perft.json`` records (a difference in
the moves shows at depth 1, one in the position after a move at depth 2)."""


def perft_position(found: Divergence, source: str) -> dict[str, Any]:
    """A perft entry for ``found``'s position, to :data:`PERFT_DEPTH`, the draw pile filled
    up from the cards out of play as the depth needs (to a smaller depth if the deck runs
    short)."""
    depth = PERFT_DEPTH
    state = filled_up(found.state, depth)
    while depth > 1 and not enough_cards(state, depth):
        depth -= 1
    return {
        "id": f"fuzz-{_ident(found)}",
        "preset": preset_of(state),
        "source": f"Found by the fuzzer ({source}) and shrunk; its draw pile filled up from "
        "the cards out of play.",
        "position": [x for x in str(state).splitlines() if not x.startswith("rules:")],
        "depth": depth,
        "counts": [perft(state, d) for d in range(1, depth + 1)],
    }


def filled_up(state: GameState, depth: int) -> GameState:
    """``state`` with cards out of play (in deck order) put under its draw pile until no
    sequence of ``depth`` moves can reach a reshuffle, as far as the deck allows."""
    rules = state.rules
    want = depth * (rules.hand_size + rules.draw_first) - len(state.draw_pile)
    if want <= 0:
        return state
    held = Counter(state.draw_pile + state.discard_pile + sum(state.hands, ()))
    left = Counter(build_deck(*rules.deck_for(state.players))) - held
    extra = sorted(left.elements())[:want]
    lines = [x for x in str(state).splitlines() if not x.startswith("draw:")]
    lines.append(f"draw: {format_cards(state.draw_pile + tuple(extra))}")
    try:
        return parse_position("\n".join(lines))
    except PegsError:  # pragma: no cover - more cards of the deck never make a position invalid
        return state


def case_text(case: dict[str, Any]) -> str:
    """A case in the layout of the case files: one key a line, values on one line, indented
    to paste into a file's ``cases`` list."""
    items = [f"   {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in case.items()]
    return "\n".join(["  {", ",\n".join(items), "  }"])


def perft_text(position: dict[str, Any]) -> str:
    """A perft entry in the layout of ``specs/perft.json``, indented to paste into its
    ``positions`` list."""
    text = json.dumps(position, indent=1, ensure_ascii=False)
    return "\n".join(f"  {line}" for line in text.splitlines())
