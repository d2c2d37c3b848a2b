"""The conformance suite's data in ``specs/``: cases, game vectors and perft positions.

Loaders return the JSON as it stands (each case gains the name of its
``file``); the helpers turn a case's position into a state and say whether a
position line (``pegs 2: 39 h1``, ``turn: 1``) describes a state. The file
formats are described in ``specs/README.md``.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from pegs_rules.board import PEGS_PER_SEAT, START, parse_location
from pegs_rules.cards import parse_cards
from pegs_rules.errors import PegsError
from pegs_rules.position import parse_position
from pegs_rules.rules import Rules, find_preset, with_rule
from pegs_rules.specfiles import specs_dir
from pegs_rules.state import GameState

SPECS = specs_dir()
"""The suite: the package's copy, or a source checkout's ``specs/``."""


def load_cases(root: Path = SPECS) -> list[dict[str, Any]]:
    """Every case of every file in ``root/cases``, in file then case order."""
    cases = []
    for path in sorted((root / "cases").glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            cases.append({**case, "file": path.name})
    return cases


def load_games(root: Path = SPECS) -> list[dict[str, Any]]:
    """Every full-game vector in ``root/games``."""
    return [
        json.loads(path.read_text(encoding="utf-8"))
        for path in sorted((root / "games").glob("*.json"))
    ]


def load_perft(root: Path = SPECS) -> list[dict[str, Any]]:
    """Every perft position of ``root/perft.json``."""
    path = root / "perft.json"
    if not path.exists():
        return []
    positions: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["positions"]
    return positions


def rules_of(preset: str, house_rules: list[str] | tuple[str, ...] = ()) -> Rules:
    """A preset with house-rule switches written ``FIELD: VALUE``."""
    rules = find_preset(preset)
    for line in house_rules:
        field, _, value = line.partition(":")
        rules = with_rule(rules, field.strip(), value)
    return rules


def case_state(case: dict[str, Any]) -> GameState:
    """The position of a case (or of a perft position): its lines under its preset."""
    return parse_position("\n".join([f"rules: {case['preset']}", *case["position"]]))


def holds(state: GameState, line: str) -> bool:
    """Whether one position line (``pegs 2: 39 h1``, ``turn: 1``...) describes ``state``.

    A ``pegs N`` line lists the pegs that are out of start; the rest are in start.
    """
    key, _, value = line.partition(":")
    words = key.split()
    value = value.strip()
    if words[0] == "pegs":
        locs = [parse_location(x) for x in value.split()]
        locs += [START] * (PEGS_PER_SEAT - len(locs))
        return state.pegs[int(words[1])] == tuple(sorted(locs))
    if words[0] == "hand":
        return state.hands[int(words[1])] == tuple(sorted(parse_cards(value)))
    if key == "draw":
        return state.draw_pile == parse_cards(value)
    if key == "discard":
        return state.discard_pile == parse_cards(value)
    if key == "turn":
        return state.turn == int(value)
    if key == "winner":
        return str(state.winner).lower() == value.lower()
    raise PegsError(f"unknown item in an expected position: {line!r}")


def line_of(state: GameState, line: str) -> str:
    """The line of ``state``'s text with the same key as ``line`` (what it holds instead)."""
    key = line.partition(":")[0].strip()
    found = (x for x in str(state).splitlines() if x.partition(":")[0].strip() == key)
    return next(found, f"{key}: none")


def dealt_facts(state: GameState) -> dict[str, Any]:
    """What a deal case checks of a dealt position: what holds for every shuffle."""
    return {
        "hand_sizes": [len(hand) for hand in state.hands],
        "draw_pile": len(state.draw_pile),
        "first_turn": state.turn,
        "cards": dict(Counter(c.symbol for c in state.draw_pile + sum(state.hands, ()))),
    }


def digest(state: GameState) -> str:
    """16 hex digits of the SHA-256 of the position text (``str(state)``)."""
    return digest_of(str(state))


def digest_of(text: str) -> str:
    """16 hex digits of the SHA-256 of a position text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
