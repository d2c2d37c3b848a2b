"""Recording the suite's regression vectors: game vectors and deeper perft counts.

Game vectors are complete games between greedy bots, written with a digest
after every turn; ``python -m pegs_rules.spec record`` writes them all.
Perft counts are filled in once: ``python -m pegs_rules.spec record-perft``
adds the counts a position of ``specs/perft.json`` lacks, up to its
``depth``, and never changes a count already there.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pegs_rules.bots import Bot, GreedyBot, decide
from pegs_rules.cards import format_cards
from pegs_rules.errors import PegsError
from pegs_rules.rules import Rules
from pegs_rules.spec.perft import perft
from pegs_rules.spec.protocol import reshuffle_pile
from pegs_rules.spec.suite import SPECS, case_state, digest, rules_of
from pegs_rules.state import GameState, new_game
from pegs_rules.turn import apply

HOUSE_RULES: dict[str, tuple[str, list[str]]] = {
    "house1": (
        "arizona",
        [
            "face_values: 11 12 13",
            "nine: forward_backward",
            "two_swap: true",
            "in_spot_occupied: to_start",
        ],
    ),
    "house2": (
        "standard",
        [
            "nine: forward_forward",
            "home_entry_compulsory: true",
            "wait_on_in_spot: true",
            "decks: 4,2,4 6,2,4 8,3,6",
        ],
    ),
}
"""The two house-rule mixes of the game vectors: a preset and its switches."""


def record_game(
    game_id: str,
    players: int,
    seed: int,
    bots: Sequence[Bot],
    preset: str = "arizona",
    house_rules: Sequence[str] = (),
) -> dict[str, Any]:
    """Play a game between ``bots`` (one per seat); return its vector."""
    rules: Rules = rules_of(preset, list(house_rules))
    state = new_game(players, seed=seed, rules=rules)
    record: dict[str, Any] = {"id": game_id, "preset": preset}
    if house_rules:
        record["rules"] = list(house_rules)
    record |= {
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
            record["reshuffles"].append(format_cards(reshuffle_pile(state, move)))
        record["turns"].append([str(move), digest(after)])
        state = after
    record["winner"] = state.winner
    return record


def greedy_games() -> list[dict[str, Any]]:
    """The stored game vectors: greedy bots at 4, 6 and 8 players.

    Arizona with seeds 1 and 2; standard and each house-rule mix with seed 1.
    """
    mixes: list[tuple[str, str, list[str]]] = [("", "arizona", [])]
    mixes += [("standard-", "standard", [])]
    mixes += [(f"{name}-", preset, lines) for name, (preset, lines) in HOUSE_RULES.items()]
    records = []
    for prefix, preset, lines in mixes:
        for players in (4, 6, 8):
            for seed in (1, 2) if not prefix else (1,):
                bots = [GreedyBot(seed * 10 + s) for s in range(players)]
                game_id = f"greedy-{prefix}{players}p-seed-{seed}"
                records.append(record_game(game_id, players, seed, bots, preset, lines))
    return records


def write_games(root: Path = SPECS) -> list[str]:
    """Record every game vector into ``root/games``; a line about each."""
    said = []
    for record in greedy_games():
        path = root / "games" / f"{record['id']}.json"
        path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        said.append(f"wrote {path} ({len(record['turns'])} turns)")
    return said


def fill_perft(root: Path = SPECS) -> list[str]:
    """Add the missing counts of ``root/perft.json``, up to each position's ``depth``.

    A count already in the file is kept as it is (the tests check it). A
    position whose draw pile is too short to rule out a reshuffle (a shuffle
    of this engine's own) is refused: see :func:`enough_cards`.
    """
    path = root / "perft.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    said = []
    for position in document["positions"]:
        state = case_state(position)
        if not enough_cards(state, position["depth"]):
            raise PegsError(f"{position['id']}: the draw pile may run out within the depth")
        counts = position.setdefault("counts", [])
        for depth in range(len(counts) + 1, position["depth"] + 1):
            counts.append(perft(state, depth))
            said.append(f"{position['id']}: depth {depth}: {counts[-1]}")
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return said


def enough_cards(state: GameState, depth: int) -> bool:
    """Whether no sequence of ``depth`` moves from ``state`` can reshuffle.

    A turn draws at most the hand size (plus one when drawing first), and
    the discard pile is reshuffled only when a draw finds the pile empty.
    """
    rules = state.rules
    return len(state.draw_pile) >= depth * (rules.hand_size + rules.draw_first)
