"""The reference's JSON documents over seeded games, for the TypeScript package's tests.

    python tools/js_golden.py                 # rewrites js/test/golden.jsonl
    python tools/js_golden.py --show GAME:PLY # prints the reference's documents at one position

The TypeScript engine promises every JSON document byte for byte as this library writes it.
This plays a few games (each seat count, both presets, two sets of house rules, seeds beyond
64 bits and below zero, greedy bots and random moves) and, at every position, writes a SHA-256
of the documents the reference writes there (and one of each kind of document over the whole
game): the state, a view (of a seat that turns with the ply), the legal moves, the move played,
its events (whole, for the viewing seat and for spectators), the explanations of the move played
and of an illegal move made from it, and at every 25th ply and the last the game's record so
far. Greedy games are played to their end, random ones for 150 plies. The package's test
``js/test/golden.test.ts`` replays the games and compares its own documents' digests;
``tests/test_js_golden.py`` checks that this file is what this library writes now.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from pegs_rules import (
    ARIZONA,
    Discard,
    GameState,
    Move,
    Pass,
    Play,
    Rank,
    Rules,
    Step,
    apply_with_events,
    events_to_data,
    explain,
    is_home,
    legal_moves,
    moves_to_data,
    new_game,
    record_of,
    to_json,
    view,
)
from pegs_rules.board import home, home_index
from pegs_rules.bots import GreedyBot, decide
from pegs_rules.rules import STANDARD, Control, InSpotOccupied, JokerSource, Nine

GOLDEN = Path(__file__).resolve().parent.parent / "js" / "test" / "golden.jsonl"

MAX_PLIES = 600
"""Where a game of greedy bots would be cut (they end well before)."""

RANDOM_PLIES = 150
"""Where a game of random moves is cut (it would last many hundred plies)."""

RECORD_EVERY = 25
"""The record is written at every this many plies, and after the last move."""

HOUSE = replace(
    ARIZONA,
    name="house",
    nine=Nine.FORWARD_BACKWARD,
    face_values=(11, 12, 13),
    two_swap=True,
    in_spot_occupied=InSpotOccupied.TO_START,
)
OTHER_HOUSE = replace(
    STANDARD,
    name="other-house",
    hand_size=4,
    control=Control.OWN_THEN_TEAMMATE,
    joker_source=JokerSource.ANY,
    home_entry_compulsory=True,
    wait_on_in_spot=True,
    in_spot_occupied=InSpotOccupied.ILLEGAL,
)

GAMES: tuple[tuple[str, Rules, int, int, str], ...] = (
    ("arizona-4", ARIZONA, 4, 1, "greedy"),
    ("arizona-6", ARIZONA, 6, 2, "greedy"),
    ("arizona-8", ARIZONA, 8, 3, "random"),
    ("standard-4", STANDARD, 4, 4, "random"),
    ("standard-6", STANDARD, 6, 2**70 + 5, "greedy"),
    ("standard-8", STANDARD, 8, -6, "random"),
    ("house-4", HOUSE, 4, 7, "greedy"),
    ("house-8", HOUSE, 8, 8, "random"),
    ("other-house-6", OTHER_HOUSE, 6, 9, "greedy"),
    ("other-house-4", OTHER_HOUSE, 4, -(2**64) - 10, "random"),
)
"""Each game: its name, rules, seat count, seed (which also seeds the moves) and who moves."""


KINDS = (
    "state",
    "view",
    "moves",
    "move",
    "events",
    "events_seat",
    "events_public",
    "explanation",
    "explanation_illegal",
    "record",
)
"""The documents written at a position, in this order (the record only at some)."""


def altered(state: GameState, move: Move) -> Move:
    """An illegal move made from ``move``: its first step one hole further, a pass for a
    discard, a discard for a pass."""
    if isinstance(move, Play):
        first, *rest = move.steps
        if is_home(first.dst):
            dst = home(home_index(first.dst) % 5 + 1)
        else:
            dst = (first.dst + 1) % (18 * state.players)
        return Play(move.card, (Step(first.seat, first.src, dst), *rest))
    if isinstance(move, Discard):
        return Pass()
    return Discard(Rank.JOKER)


def documents(state: GameState, move: Move, seat: int) -> dict[str, str]:
    """The documents the reference writes at one position, by name (the record aside)."""
    _, events = apply_with_events(state, move)
    return {
        "state": to_json(state),
        "view": to_json(view(state, seat)),
        "moves": json.dumps(moves_to_data(legal_moves(state))),
        "move": to_json(move),
        "events": json.dumps(events_to_data(events, None)),
        "events_seat": json.dumps(events_to_data(events, seat)),
        "events_public": json.dumps(events_to_data(events, "public")),
        "explanation": to_json(explain(state, move)),
        "explanation_illegal": to_json(explain(state, altered(state, move))),
    }


def play(number: int) -> dict[str, Any]:
    """Game ``number`` of :data:`GAMES` as a line of the golden file.

    The line names the game, gives for each kind of document a SHA-256 of all of the game's
    documents of that kind (each followed by a line end), and holds ``plies``: at each position
    the move played, the illegal move made from it (both as move text), the seat whose view is
    written, and the first 16 hex digits of a SHA-256 of the documents written there (in the
    order of :data:`KINDS`, each followed by a line end). The game is dealt by
    ``newGame(players, {seed, rules})``.
    """
    name, rules, players, seed, mover = GAMES[number]
    start = state = new_game(players, seed=seed, rules=rules)
    rng = random.Random(seed)
    bots = [GreedyBot(seed + s) for s in range(players)]
    kinds = {kind: hashlib.sha256() for kind in KINDS}
    played: list[Move] = []
    plies = []
    while state.winner is None and state.ply < (MAX_PLIES if mover == "greedy" else RANDOM_PLIES):
        move = (
            decide(bots[state.turn], state) if mover == "greedy" else rng.choice(legal_moves(state))
        )
        seat = (state.ply + number) % players
        docs = documents(state, move, seat)
        played.append(move)
        after, _ = apply_with_events(state, move)
        if state.ply % RECORD_EVERY == 0 or after.winner is not None:
            docs["record"] = to_json(record_of(start, played))
        here = hashlib.sha256()
        for kind, text in docs.items():
            here.update(f"{text}\n".encode())
            kinds[kind].update(f"{text}\n".encode())
        plies.append([str(move), str(altered(state, move)), seat, here.hexdigest()[:16]])
        state = after
    return {
        "game": name,
        "players": players,
        "seed": str(seed),
        "rules": json.loads(to_json(rules)),
        "winner": state.winner,
        "kinds": {kind: hashed.hexdigest() for kind, hashed in kinds.items()},
        "plies": plies,
    }


def golden() -> str:
    """The golden file's text: a line per game."""
    return "".join(json.dumps(play(n), separators=(",", ":")) + "\n" for n in range(len(GAMES)))


def show(where: str) -> None:
    """Print the documents at ``GAME:PLY``, one per line, each after its name."""
    name, ply = where.rsplit(":", 1)
    line = next(json.loads(x) for x in golden().splitlines() if json.loads(x)["game"] == name)
    number = [g[0] for g in GAMES].index(name)
    _, rules, players, seed, _ = GAMES[number]
    start = state = new_game(players, seed=seed, rules=rules)
    played: list[Move] = []
    for text, *_ in line["plies"][: int(ply)]:
        move = next(m for m in legal_moves(state) if str(m) == text)
        played.append(move)
        state, _ = apply_with_events(state, move)
    text, _, seat, _ = line["plies"][int(ply)]
    move = next(m for m in legal_moves(state) if str(m) == text)
    docs = documents(state, move, seat)
    if state.ply % RECORD_EVERY == 0 or apply_with_events(state, move)[0].winner is not None:
        docs["record"] = to_json(record_of(start, [*played, move]))
    for kind, text in docs.items():
        print(f"{kind}: {text}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", metavar="GAME:PLY", help="print the documents at one position")
    args = parser.parse_args(argv)
    if args.show:
        show(args.show)
        return 0
    GOLDEN.write_text(golden(), encoding="utf-8")
    print(f"wrote {GOLDEN}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
