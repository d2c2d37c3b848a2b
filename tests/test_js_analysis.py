"""The TypeScript package's post-game analysis (``js/src/analysis.ts``) gives the numbers and
the chart of this library's (:mod:`pegs_rules.analysis`), exactly, on a recorded game of each
player count, at a small budget: the same states, playouts, seeds and expert moves."""

from __future__ import annotations

import json
import subprocess

from jsengine import JS, node_command
from played import bots_game

from pegs_rules import to_json
from pegs_rules.analysis import analyze, chart_svg
from pegs_rules.records import GameRecord

PLAYOUTS = 2
EXPERT = 20


def records() -> list[GameRecord]:
    """A whole 4-player game, and the first 30 and 20 moves of a 6- and an 8-player one
    (longer games: their playouts are long)."""
    six, eight = bots_game(6, seed=4), bots_game(8, seed=3)
    return [
        bots_game(4, seed=7),
        GameRecord(players=6, seed=six.seed, moves=six.moves[:30]),
        GameRecord(players=8, seed=eight.seed, moves=eight.moves[:20]),
    ]


def test_the_typescript_analysis_is_this_librarys_to_the_bit() -> None:
    command = node_command(JS / "scripts" / "analyze.mjs")
    games = records()
    requests = [
        {"record": json.loads(to_json(r)), "playouts": PLAYOUTS, "seed": 9, "expert": EXPERT}
        for r in games
    ]
    done = subprocess.run(
        command,
        input="".join(json.dumps(r) + "\n" for r in requests),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(games)
    for record, answer in zip(games, answers, strict=True):
        ours = analyze(record, playouts=PLAYOUTS, seed=9, expert=EXPERT)
        assert "error" not in answer, answer
        assert answer["analysis"] == ours.to_json()
        assert answer["svg"] == chart_svg(ours)
        assert ours.costly, "a game with no costly ply checks no expert move"


def test_the_typescript_analysis_refuses_a_record_that_cannot_be_replayed() -> None:
    command = node_command(JS / "scripts" / "analyze.mjs")
    broken = json.loads(to_json(GameRecord(players=4, seed=1, moves=("pass",))))
    done = subprocess.run(
        command,
        input=json.dumps({"record": broken, "playouts": 1}) + "\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert "turn 1" in json.loads(done.stdout)["error"]
