"""Perft: specs/perft.json against the engine, and the perft command."""

from __future__ import annotations

import io
import json
from collections import Counter
from contextlib import redirect_stdout
from typing import Any

import jsonschema
import pytest

from pegs_rules import GameState, apply, legal_moves, parse_position
from pegs_rules.spec import SPECS, load_perft, main
from pegs_rules.spec.perft import divide, perft
from pegs_rules.spec.record import enough_cards
from pegs_rules.spec.suite import case_state

POSITIONS = load_perft()


def test_perft_file_matches_its_schema() -> None:
    schema = json.loads((SPECS / "schema" / "perft.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(json.loads((SPECS / "perft.json").read_text(encoding="utf-8")), schema)


def test_perft_positions_cover_the_issue() -> None:
    """At least 12 positions: seeded and hand-made, 4, 6 and 8 players, both presets, house
    rules; depths 1 to 3 everywhere; depth 1 derived by hand where the file says so."""
    assert len(POSITIONS) >= 12
    states = [case_state(p) for p in POSITIONS]
    assert {s.players for s in states} == {4, 6, 8}
    assert {p["preset"] for p in POSITIONS} == {"arizona", "standard"}
    assert any(any(line.startswith("rule ") for line in p["position"]) for p in POSITIONS)
    sources = Counter(p["source"].startswith("Made by hand") for p in POSITIONS)
    assert sources[True] >= 5 and sources[False] >= 5
    assert all(len(p["counts"]) == p["depth"] >= 3 for p in POSITIONS)
    assert sum("by_hand" in p for p in POSITIONS) >= 12
    assert len({p["id"] for p in POSITIONS}) == len(POSITIONS)


def walk(state: GameState, depth: int, counts: list[int]) -> None:
    """Count the sequences of each length up to ``depth`` by walking the whole tree."""
    if depth == 0:
        return
    moves = legal_moves(state)
    counts[len(counts) - depth] += len(moves)
    if depth > 1:
        for move in moves:
            walk(apply(state, move), depth - 1, counts)


@pytest.mark.parametrize("position", POSITIONS, ids=[p["id"] for p in POSITIONS])
def test_engine_matches_the_recorded_counts(position: dict[str, Any]) -> None:
    state = case_state(position)
    # full hands and draw pile, and so many cards that no sequence can reshuffle
    assert enough_cards(state, position["depth"])
    assert all(line.split(":")[0] != "seed" for line in position["position"])
    counts = [0] * position["depth"]
    walk(state, position["depth"], counts)
    assert counts == position["counts"]


def test_perft_and_divide_agree() -> None:
    state = case_state(POSITIONS[0])
    assert perft(state, 0) == 1
    for depth in (1, 2, 3):
        split = divide(state, depth)
        assert list(split) == [str(m) for m in legal_moves(state)]
        assert sum(split.values()) == perft(state, depth)


def test_a_finished_game_has_no_sequences() -> None:
    """game.end: nothing follows the win, so every depth beyond it counts 0."""
    # home entry compulsory: the ace's one move takes the last team-0 peg from 3 into h1
    state = parse_position(
        "rule home_entry_compulsory: true\npegs 0: 3 h2 h3 h4 h5\npegs 2: h1 h2 h3 h4 h5\n"
        "hand 0: A\nhand 1: 5\ndraw: 2 2 2"
    )
    assert [perft(state, d) for d in (1, 2, 3)] == [1, 0, 0]


def run(*argv: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(list(argv)) == 0
    return out.getvalue()


def test_perft_command_by_id_with_divide() -> None:
    position = next(p for p in POSITIONS if p["id"] == "arizona-4p-split-sevens")
    lines = run("perft", position["id"], "--depth", "2", "--divide").splitlines()
    assert lines[-1] == f"nodes: {position['counts'][1]}"
    assert "7 0:10-11 0:30-36: 2" in lines  # seat 1 then comes out with its ace, in two ways
    assert len([x for x in lines if ": " in x and not x.startswith("nodes")]) == 15


def test_perft_command_reads_a_position_file(tmp_path: Any) -> None:
    path = tmp_path / "position.txt"
    path.write_text("pegs 0: 70\nhand 0: 7\n", encoding="utf-8")
    assert run("perft", str(path), "--depth", "1") == "nodes: 2\n"


def test_perft_command_refuses_an_unknown_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "no-such-position", "--depth", "1"]) == 2
    assert "no perft id" in capsys.readouterr().err
