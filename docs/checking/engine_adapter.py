"""A minimal engine adapter for the pegs-rules conformance suite (engine protocol 1).

It reads one JSON request a line on standard input and writes one answer a line on standard
output. Replace ``legal_moves_of`` and ``play`` with calls into your engine; as written they
ask pegs-rules itself, so the adapter runs as it stands::

    python -m pegs_rules.spec check --engine "python engine_adapter.py"
"""

from __future__ import annotations

import json
import sys
from typing import Any

from pegs_rules import IllegalMoveError, legal_moves, parse_notation, parse_position
from pegs_rules.cards import parse_cards
from pegs_rules.spec.protocol import apply_with_pile

SUPPORTS = {
    "presets": ["arizona"],
    "players": [4],
    "house_rules": [],
    "requests": ["legal", "apply"],
}
"""What this engine plays and serves; the harness skips every other item."""


def legal_moves_of(position: str) -> list[str]:
    """Your engine's legal moves in a position, in the suite's move notation."""
    return [str(move) for move in legal_moves(parse_position(position))]


def play(position: str, move: str, reshuffle: str | None) -> dict[str, str]:
    """Your engine's verdict on a move: the position after the turn (if the turn reshuffles
    the discard pile, the new draw pile is ``reshuffle``), or the ruling that forbids it."""
    state = parse_position(position)
    pile = None if reshuffle is None else parse_cards(reshuffle)
    try:
        return {"position": str(apply_with_pile(state, parse_notation(move), pile))}
    except IllegalMoveError as error:
        return {"illegal": error.rule, "reason": error.reason}


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The answer to one request, without its id."""
    kind = request.get("type")
    if kind == "hello":
        return {"engine": "my-engine", "version": "0.1", "protocol": 1, "supports": SUPPORTS}
    if kind == "legal":
        return {"moves": legal_moves_of(request["position"])}
    if kind == "apply":
        return play(request["position"], request["move"], request.get("reshuffle"))
    return {"unsupported": f"{kind} requests are not served yet"}


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") == "quit":
            break
        try:
            reply = answer(request)
        except Exception as error:  # the engine's own bug: an error answer, not a crash
            reply = {"error": f"{type(error).__name__}: {error}"}
        print(json.dumps({"id": request.get("id"), **reply}), flush=True)


if __name__ == "__main__":
    main()
