"""A broken engine for testing the fuzzer: the reference engine with bugs planted on purpose.

Run as ``python broken_engine.py BUG [BUG ...]``. It plays arizona at 4 players
with no house rules (its ``hello`` says so) and answers as
``python -m pegs_rules.spec serve`` does, except for the bugs named:

* ``blocking``: it forgets the blocking rule for seat 2's pegs: a single-step play of
  one of them may pass (not land on) a peg of seat 2; it lists such moves and accepts
  them;
* ``wrong-id``: a move the reference rejects as ``card.number`` it rejects as
  ``card.face``;
* ``split-order``: it rejects a 7 split written in the other order than the one listed,
  citing ``card.seven.split``;
* ``joker-draw``: after playing a joker the seat does not draw (the card stays on the
  draw pile);
* ``decline-jokers``: it answers ``unsupported`` when asked to apply a joker;
* ``crash``: it exits, with status 3, when asked to apply a 9.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from dataclasses import replace
from typing import Any

from pegs_rules import GameState, IllegalMoveError, apply, legal_moves, parse_notation
from pegs_rules.board import START, is_track
from pegs_rules.cards import Rank
from pegs_rules.movegen import forward_steps, movable_seats
from pegs_rules.moves import Play, Step
from pegs_rules.position import parse_position
from pegs_rules.spec.protocol import handle, read_test_state

BUGS = ("blocking", "wrong-id", "split-order", "joker-draw", "decline-jokers", "crash")
SUPPORTS = {"presets": ["arizona"], "players": [4], "house_rules": []}


def position_of(request: dict[str, Any]) -> GameState:
    """The request's position, from its text (the harness sends it with every request)."""
    if "position" in request:
        return parse_position(request["position"])
    return read_test_state(request["state"])


def passing_plays(state: GameState) -> dict[str, GameState]:
    """The single-step plays of seat 2's track pegs that pass (never land on) another peg of
    seat 2, which the reference rejects as ``move.blocking``, and where each leads when seat
    2's pegs are not in the way."""
    if state.winner is not None or 2 not in movable_seats(state):
        return {}
    length = 18 * state.players
    own = [p for p in state.pegs[2] if is_track(p)]
    found = {}
    for card in set(state.hands[state.turn]):
        count = forward_steps(card, state.rules) if card not in (Rank.EIGHT, Rank.JOKER) else 0
        for src in own if count else ():
            dst = (src + count) % length
            passed = [p for p in own if 0 < (p - src) % length < count]
            if dst in own or not passed:
                continue
            move = Play(card, (Step(2, src, dst),))
            try:
                apply(state, move)
                continue
            except IllegalMoveError as error:
                if error.rule != "move.blocking":
                    continue
            found[str(move)] = _jumped(state, move, passed)
    return found


def _jumped(state: GameState, move: Play, passed: list[int]) -> GameState:
    """Where ``move`` leads with the ``passed`` pegs of seat 2 lifted off and put back."""
    pegs = list(state.pegs)
    pegs[2] = tuple(sorted(p for p in state.pegs[2] if p not in passed) + [START] * len(passed))
    try:
        after = apply(replace(state, pegs=tuple(pegs)), move)
    except IllegalMoveError:
        return state
    lifted = list(after.pegs[2])
    for _ in passed:
        lifted.remove(START)
    back = list(after.pegs)
    back[2] = tuple(sorted(lifted + passed))
    return replace(after, pegs=tuple(back))


def answer(request: dict[str, Any], bugs: set[str]) -> dict[str, Any] | None:
    kind = request.get("type")
    reply = handle(request)
    if kind == "hello" and reply is not None:
        return {**reply, "engine": "broken", "supports": SUPPORTS}
    if reply is None or "error" in reply or kind not in ("legal", "apply"):
        return reply
    state = position_of(request)
    if kind == "legal":
        if "blocking" in bugs:
            reply["moves"] = reply["moves"] + list(passing_plays(state))
        return reply
    move = request["move"]
    if "crash" in bugs and move.startswith("9 "):
        print("broken engine: crashing on purpose", file=sys.stderr, flush=True)
        os._exit(3)
    if "decline-jokers" in bugs and move.startswith("JK "):
        return {"id": request["id"], "unsupported": "jokers are not played yet"}
    if "illegal" in reply:
        if "blocking" in bugs and move in passing_plays(state):
            return _position(request["id"], passing_plays(state)[move])
        if "wrong-id" in bugs and reply["illegal"] == "card.number":
            return {"id": request["id"], "illegal": "card.face"}
        return reply
    split = move.startswith("7 ") and move.count(":") == 2
    if "split-order" in bugs and split and move not in {str(m) for m in legal_moves(state)}:
        return {"id": request["id"], "illegal": "card.seven.split"}
    if "joker-draw" in bugs and move.startswith("JK "):
        after = parse_position(reply["position"])
        return _position(request["id"], _undrawn(state, after, parse_notation(move)))
    return reply


def _undrawn(before: GameState, after: GameState, move: Any) -> GameState:
    """``after`` with the cards the seat drew put back on top of the draw pile (unless the
    draw reshuffled the discard pile)."""
    seat = before.turn
    kept = Counter(before.hands[seat])
    kept[move.card] -= 1
    drawn = Counter(after.hands[seat]) - kept
    if not drawn or len(after.draw_pile) + sum(drawn.values()) > len(before.draw_pile):
        return after
    top = before.draw_pile[: sum(drawn.values())]
    hands = list(after.hands)
    hands[seat] = tuple(sorted((Counter(after.hands[seat]) - Counter(top)).elements()))
    return replace(after, hands=tuple(hands), draw_pile=top + after.draw_pile)


def _position(ident: object, state: GameState) -> dict[str, Any]:
    return {"id": ident, "position": str(state)}


def main(bugs: list[str]) -> int:
    unknown = set(bugs) - set(BUGS)
    if unknown:
        print(f"unknown bugs: {sorted(unknown)}; known: {', '.join(BUGS)}", file=sys.stderr)
        return 2
    for line in sys.stdin:
        request = json.loads(line)
        reply = answer(request, set(bugs))
        if reply is None:
            break
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
