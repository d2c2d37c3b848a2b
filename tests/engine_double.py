"""A broken engine for testing the harness: the reference engine with faults on purpose.

Run as ``python engine_double.py FAULTS.json``. It answers every request as
``python -m pegs_rules.spec serve`` does, except the requests named in the
faults file: a list of ``{"type": ..., "position": DIGEST, "move": ..., "fault": ...}``,
where ``DIGEST`` is :func:`pegs_rules.spec.suite.digest_of` of the request's
position text and ``move`` (for ``apply``) its move. The file may instead hold an
object: ``{"faults": [...], "supports": {...}, "other_ids": true, "perft_drop": [...],
"decline_rejections": true, "apply_drop": [...], "plays": {...},
"reshuffle_without_played": true}``, whose ``supports`` goes into the
``hello`` answer, whose ``other_ids`` makes every rejection name another ruling than the
reference's, whose ``perft_drop`` lists the digests of positions where its perft leaves
out the first legal move (a move generator wrong deep in the tree), whose
``decline_rejections`` declines every ``apply`` the reference rejects (a dishonest engine
hiding what it gets wrong), and whose ``apply_drop`` lists the digests of positions where
its ``apply`` of any move leaves a card out of the next seat's hand, and whose ``plays``
(a rules object as ``supports.rules`` has it) are the rules it plays whatever a request
says (an engine with fixed rules that never reads a position's rule lines, nor its state JSON,
and answers with position text only), and whose ``reshuffle_without_played`` makes its reshuffle
leave out the card just played (which stays as the discard pile) unless the request gives the
pile. The faults:

* ``drop``: leave the first move out of a ``legal`` answer;
* ``add``: add a move that is no move to a ``legal`` answer;
* ``stay``: answer an ``apply`` with the position before the move;
* ``wrong-rule``: reject an ``apply`` citing ``card.joker``;
* ``miscount``: add one to a ``perft`` count;
* ``miscount-no-divide``: add one to a ``perft`` count, and decline the ``divide`` asked next;
* ``hang``: never answer;
* ``crash``: exit with status 3;
* ``garbage``: answer with a line that is not JSON;
* ``unsupported``: answer that the request is not supported;
* ``empty``: answer a ``legal`` request with no moves;
* ``reject``: reject an ``apply`` citing ``move.blocking``, with a reason;
* ``unreadable``: answer an ``apply`` with a position text that cannot be read;
* ``nothing``: answer with none of the fields the request wants;
* ``state-order``: answer an ``apply`` with the right position text, but a state JSON whose
  ``dealer`` comes before its ``turn``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from pegs_rules import GameState, Move, apply, legal_moves, parse_notation, parse_position
from pegs_rules.errors import PegsError
from pegs_rules.moves import Discard, Play
from pegs_rules.rules import Rules
from pegs_rules.spec.derive import position_under
from pegs_rules.spec.protocol import handle, reshuffle_pile
from pegs_rules.spec.suite import digest_of
from pegs_rules.spec.supports import fixed_rules, rule_lines
from pegs_rules.state import reshuffled


def faulty_answer(request: dict[str, Any], fault: str) -> dict[str, Any] | str | None:
    """The wrong answer ``fault`` gives to ``request`` (text for a line that is not JSON)."""
    answer = handle(request)
    assert answer is not None
    if fault == "drop":
        answer["moves"] = answer["moves"][1:]
    elif fault == "add":
        answer["moves"] = [*answer["moves"], "2 0:h5-h5"]
    elif fault == "stay":
        answer = {"id": request["id"], "position": request["position"]}
    elif fault == "wrong-rule":
        answer = {"id": request["id"], "illegal": "card.joker"}
    elif fault == "miscount":
        answer["nodes"] += 1
    elif fault == "miscount-no-divide":
        answer["nodes"] += 1
        if request.get("divide"):
            answer = {"id": request["id"], "unsupported": "no divide, on purpose"}
    elif fault == "hang":
        time.sleep(600)
    elif fault == "crash":
        print("engine double: crashing on purpose", file=sys.stderr, flush=True)
        os._exit(3)
    elif fault == "garbage":
        return "this is not JSON"
    elif fault == "empty":
        answer["moves"] = []
    elif fault == "reject":
        answer = {"id": request["id"], "illegal": "move.blocking", "reason": "made up"}
    elif fault == "unsupported":
        answer = {"id": request["id"], "unsupported": "not this one, on purpose"}
    elif fault == "unreadable":
        answer = {"id": request["id"], "position": "pegs 0: 999\nhand 0: 7"}
    elif fault == "nothing":
        answer = {"id": request["id"], "note": "nothing to say"}
    elif fault == "state-order":
        state = answer["state"]
        answer["state"] = {k: v for k, v in state.items() if k != "turn"} | {"turn": state["turn"]}
    return answer


def play(state: GameState, move: Move, apply_drop: set[str]) -> GameState:
    """The double's own apply: the reference's, except that from the positions whose digests
    are in ``apply_drop`` the seat to act next loses the first card of its hand."""
    after = apply(state, move)
    if digest_of(str(state)) not in apply_drop or not after.hands[after.turn]:
        return after
    hands = list(after.hands)
    hands[after.turn] = hands[after.turn][1:]
    return replace(after, hands=tuple(hands))


def played_under(request: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """``request`` as an engine that always plays ``rules`` reads it: its position (text only)
    or its deal under those rules."""
    if request.get("type") == "deal":
        dealt = {k: v for k, v in request.items() if k != "rules"}
        return dealt | {"preset": rules.name, "house_rules": rule_lines(rules)}
    if "position" not in request:
        return request
    try:
        state = position_under(parse_position(request["position"]), rules)
    except PegsError:
        return request
    return {k: v for k, v in request.items() if k != "state"} | {"position": str(state)}


def other_id(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer with any rejection naming another ruling (and no reason)."""
    if "illegal" not in answer:
        return answer
    other = "turn.sequence" if answer["illegal"] == "card.joker" else "card.joker"
    return {"id": answer["id"], "illegal": other}


def perft_leaving_out(state: GameState, depth: int, drop: set[str], apply_drop: set[str]) -> int:
    """Perft, leaving out the first legal move of the positions whose digests are in ``drop``,
    and moving with :func:`play`."""
    if depth == 0:
        return 1
    moves = legal_moves(state)
    if digest_of(str(state)) in drop:
        moves = moves[1:]
    if depth == 1:
        return len(moves)
    return sum(
        perft_leaving_out(play(state, m, apply_drop), depth - 1, drop, apply_drop) for m in moves
    )


def perft_answer(request: dict[str, Any], drop: set[str], apply_drop: set[str]) -> dict[str, Any]:
    """A ``perft`` answer from :func:`perft_leaving_out`."""
    state = parse_position(request["position"])
    depth = request["depth"]
    moves = legal_moves(state)
    if digest_of(str(state)) in drop:
        moves = moves[1:]
    if not request.get("divide") or depth == 0:
        return {"id": request["id"], "nodes": perft_leaving_out(state, depth, drop, apply_drop)}
    counts = {
        str(m): perft_leaving_out(play(state, m, apply_drop), depth - 1, drop, apply_drop)
        for m in moves
    }
    return {"id": request["id"], "nodes": sum(counts.values()), "divide": counts}


def reshuffle_without_played(request: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
    """The answer of an engine that reshuffles the discard pile without the card just played
    (``turn.reshuffle`` has it join the pile): that card stays as the discard pile. Only an
    ``apply`` whose move reshuffles, and whose request gives no pile, is answered otherwise."""
    if request["type"] != "apply" or "reshuffle" in request or "position" not in answer:
        return answer
    state = parse_position(request["position"])
    move = parse_notation(request["move"])
    after = apply(state, move)
    if after.reshuffles == state.reshuffles or not isinstance(move, (Play, Discard)):
        return answer
    ours = reshuffle_pile(state, move)
    taken = len(ours) - len(after.draw_pile)
    pile = reshuffled(state.seed, state.reshuffles, state.discard_pile)
    drawer = (state.turn + 1) % state.players if state.rules.draw_first else state.turn
    hand = Counter(after.hands[drawer])
    hand.subtract(ours[:taken])
    hand.update(pile[:taken])
    hands = list(after.hands)
    hands[drawer] = tuple(sorted(hand.elements()))
    other = replace(after, hands=tuple(hands), draw_pile=pile[taken:], discard_pile=(move.card,))
    return {"id": answer["id"], "position": str(other)}


def main(faults_file: str) -> int:
    config = json.loads(Path(faults_file).read_text(encoding="utf-8"))
    if isinstance(config, list):
        config = {"faults": config}
    faults = {
        (f["type"], f["position"], f.get("move")): f["fault"] for f in config.get("faults", [])
    }
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") == "quit":
            break
        if "plays" in config:
            request = played_under(request, fixed_rules(config["plays"]))
        key = (request["type"], digest_of(request.get("position", "")), request.get("move"))
        fault = faults.get(key)
        answer = handle(request) if fault is None else faulty_answer(request, fault)
        if "plays" in config and isinstance(answer, dict):
            # read from the text alone, the position after a move has no ply, seed or
            # reshuffles worth a state JSON: the answer gives its text only
            answer.pop("state", None)
        apply_drop = set(config.get("apply_drop", ()))
        if request["type"] == "perft" and (config.get("perft_drop") or apply_drop):
            answer = perft_answer(request, set(config.get("perft_drop", ())), apply_drop)
        if isinstance(answer, dict) and request["type"] == "hello" and "supports" in config:
            answer["supports"] = config["supports"]
        if isinstance(answer, dict) and config.get("other_ids"):
            answer = other_id(answer)
        if isinstance(answer, dict) and config.get("decline_rejections") and "illegal" in answer:
            answer = {"id": answer["id"], "unsupported": "I would rather not say"}
        if isinstance(answer, dict) and key[1] in apply_drop and "position" in answer:
            state = parse_position(request["position"])
            after = play(state, parse_notation(request["move"]), apply_drop)
            answer = {"id": answer["id"], "position": str(after)}
        if config.get("reshuffle_without_played") and isinstance(answer, dict):
            answer = reshuffle_without_played(request, answer)
        text = answer if isinstance(answer, str) else json.dumps(answer)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
