"""The conformance suite in ``specs/``: load it, run it, dump it.

``python -m pegs_rules.spec dump`` writes every case and game vector as one
JSON document for runners in other languages; ``check`` runs them all
through this library; ``record`` rewrites the game vectors. The format is
described in ``specs/README.md``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pegs_rules.board import PEGS_PER_SEAT, START, parse_location
from pegs_rules.bots import Bot, GreedyBot, decide
from pegs_rules.cards import Rank, format_cards, parse_cards
from pegs_rules.errors import IllegalMoveError, PegsError
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import Discard, Move, Play, parse_notation
from pegs_rules.position import parse_position
from pegs_rules.rules import Rules, find_preset, with_rule
from pegs_rules.state import GameState, new_game, reshuffled
from pegs_rules.turn import apply

SPECS = Path(__file__).resolve().parents[2] / "specs"
"""The suite in a source checkout."""


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


def check_case(case: dict[str, Any]) -> str | None:
    """Run one case; ``None`` if the library agrees, else what went wrong."""
    expect = case["expect"]
    if "deal" in case:
        rules = find_preset(case["preset"])
        for line in case["deal"].get("rules", []):
            field, _, value = line.partition(":")
            rules = with_rule(rules, field.strip(), value)
        return _check_deal(case["deal"], expect["dealt"], rules)
    state = parse_position("\n".join([f"rules: {case['preset']}", *case["position"]]))
    if "legal" in expect:
        got = [str(m) for m in legal_moves(state)]
        if sorted(got) != sorted(expect["legal"]) or len(set(got)) != len(got):
            missing = sorted(set(expect["legal"]) - set(got))
            extra = sorted(set(got) - set(expect["legal"]))
            return f"legal moves differ: missing {missing}, unexpected {extra}"
        return None
    move = parse_notation(case["move"])
    try:
        after = apply(state, move)
    except IllegalMoveError as error:
        if expect.get("illegal") == error.rule:
            return None
        return f"rejected with {error.rule} ({error.reason}), expected {expect}"
    if "illegal" in expect:
        return f"accepted, expected rejection with {expect['illegal']}"
    wrong = [line for line in expect["after"] if not _holds(after, line)]
    return f"after the move, these do not hold: {wrong}\n{after}" if wrong else None


def _check_deal(deal: dict[str, Any], dealt: dict[str, Any], rules: Rules) -> str | None:
    """A fresh deal for ``deal["players"]`` (dealer ``deal["dealer"]``), for several seeds."""
    for seed in range(5):
        state = new_game(deal["players"], seed=seed, rules=rules, dealer=deal["dealer"])
        cards = Counter(c.symbol for c in state.draw_pile + sum(state.hands, ()))
        facts = {
            "hand_sizes": [len(h) for h in state.hands],
            "draw_pile": len(state.draw_pile),
            "first_turn": state.turn,
            "cards": dict(cards),
        }
        wrong = {k: v for k, v in facts.items() if k in dealt and dealt[k] != v}
        if wrong:
            return f"seed {seed}: the deal gives {wrong}"
    return None


def _holds(state: GameState, line: str) -> bool:
    """Whether one position line (``pegs 2: 39 h1``, ``turn: 1``...) describes ``state``."""
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


def digest(state: GameState) -> str:
    """16 hex digits of the SHA-256 of the position text (``str(state)``)."""
    return hashlib.sha256(str(state).encode("utf-8")).hexdigest()[:16]


def record_game(
    game_id: str,
    players: int,
    seed: int,
    bots: Sequence[Bot],
) -> dict[str, Any]:
    """Play a game between ``bots`` (one per seat); return its vector."""
    state = new_game(players, seed=seed)
    record: dict[str, Any] = {
        "id": game_id,
        "preset": state.rules.name,
        "players": players,
        "seed": seed,
        "start": str(state).splitlines(),
        "reshuffles": [],
        "turns": [],
    }
    while not state.is_over:
        move = decide(bots[state.turn], state)
        after = apply(state, move)
        if after.reshuffles != state.reshuffles:
            record["reshuffles"].append(format_cards(_reshuffle_pile(state, move)))
        record["turns"].append([str(move), digest(after)])
        state = after
    record["winner"] = state.winner
    return record


def _reshuffle_pile(state: GameState, move: Move) -> tuple[Rank, ...]:
    """The draw pile that ``move`` made by reshuffling the discard pile (``turn.reshuffle``)."""
    played = (move.card,) if isinstance(move, (Play, Discard)) else ()
    return reshuffled(state.seed, state.reshuffles, state.discard_pile + played)


def greedy_games() -> list[dict[str, Any]]:
    """The stored game vectors: greedy bots, seeds 1 and 2, for 4, 6 and 8 players."""
    records = []
    for players in (4, 6, 8):
        for seed in (1, 2):
            bots = [GreedyBot(seed * 10 + s) for s in range(players)]
            records.append(record_game(f"greedy-{players}p-seed-{seed}", players, seed, bots))
    return records


def check_game(record: dict[str, Any]) -> str | None:
    """Replay a game vector from its seed; ``None`` if every digest matches."""
    state = new_game(record["players"], seed=record["seed"])
    if str(state).splitlines() != record["start"]:
        return "the deal differs from the recorded start position"
    piles = iter(record["reshuffles"])
    for number, (text, expected) in enumerate(record["turns"], 1):
        try:
            move = parse_notation(text)
            after = apply(state, move)
        except PegsError as error:
            return f"turn {number}: {text} rejected: {error}"
        reshuffled_now = after.reshuffles != state.reshuffles
        if reshuffled_now and format_cards(_reshuffle_pile(state, move)) != next(piles, None):
            return f"turn {number}: the reshuffle made a different draw pile"
        if digest(after) != expected:
            return f"turn {number}: {text} leads to a different position"
        state = after
    if state.winner != record["winner"]:
        return f"the game ends with winner {state.winner}, not {record['winner']}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """``dump``: print the suite as one JSON document; ``check``: run it."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["dump"]:
        json.dump({"cases": load_cases(), "games": load_games()}, sys.stdout, indent=1)
        print()
        return 0
    if args == ["check"]:
        failures = 0
        for case in load_cases():
            problem = check_case(case)
            if problem:
                failures += 1
                print(f"FAIL {case['id']}: {problem}")
        for record in load_games():
            problem = check_game(record)
            if problem:
                failures += 1
                print(f"FAIL game {record['id']}: {problem}")
        print(f"{len(load_cases()) + len(load_games()) - failures} passed, {failures} failed")
        return 1 if failures else 0
    if args == ["record"]:
        for record in greedy_games():
            path = SPECS / "games" / f"{record['id']}.json"
            path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
            print(f"wrote {path} ({len(record['turns'])} turns)")
        return 0
    print("usage: python -m pegs_rules.spec dump|check|record", file=sys.stderr)
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
