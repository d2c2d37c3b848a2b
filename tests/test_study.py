"""The fairness study's committed results still hold: the first games of every run replay the
same; each run names its code and seeding; its reports are what its games give."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pegs_rules.simulate import (
    SimulationConfig,
    config_from_document,
    play_game,
    read_json,
    report,
)

RESULTS = Path(__file__).resolve().parents[1] / "docs" / "study" / "results"
RUNS = sorted(RESULTS.glob("*.json"))


def config_of(data: dict[str, object]) -> SimulationConfig:
    """The :class:`SimulationConfig` that a results file's ``config`` describes."""
    config = data["config"]
    assert isinstance(config, dict)
    return config_from_document(config)


def test_the_study_has_every_run() -> None:
    names = {path.stem for path in RUNS}
    fair = {f"fair-{p}-{n}" for p in ("arizona", "standard") for n in (4, 6, 8)}
    assert fair <= names and "house-baseline" in names and len(names) == 15


@pytest.mark.parametrize("path", RUNS, ids=[path.stem for path in RUNS])
def test_a_run_replays(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    config = config_of(data)
    games = data["games"]
    assert config.games == len(games) >= 2000
    assert data["summary"]["unfinished"] == 0
    for index in (0, 1, 2):  # a deal played both ways round, and the next deal
        game = play_game(config, index)
        recorded = games[index]
        assert recorded["index"] == index
        replayed = (game.seed, list(game.seats), game.first_seat, game.winner, game.plies)
        assert replayed == (
            recorded["seed"],
            recorded["seats"],
            recorded["first_seat"],
            recorded["winner"],
            recorded["plies"],
        )
        assert list(game.home) == recorded["home"]


@pytest.mark.parametrize("path", RUNS, ids=[path.stem for path in RUNS])
def test_a_run_names_its_code_and_its_reports_are_what_its_games_give(path: Path) -> None:
    """The provenance docs/strength/provenance.py gave it (the code that played it, how its bots
    were seeded); its ``.txt`` report and its JSON summary made again from its games."""
    data = json.loads(path.read_text(encoding="utf-8"))
    made = data["provenance"]
    assert made["played_by"] and made["replayable"] is True
    assert made["seeding"] == data["config"]["seeding"] == "arithmetic"
    simulation = read_json(path)
    text = path.with_suffix(".txt").read_text(encoding="utf-8").rstrip("\n").split("\n")
    assert text[-1].startswith("per-game results written to ")
    expected = report(simulation)
    if "(CPU)" not in text[-2]:  # written before the report named the clock
        expected = expected.replace(" (CPU)", "")
    assert "\n".join(text[:-1]) == expected
    summary = simulation.summary
    assert [side["wins"] for side in data["summary"]["sides"]] == list(summary.side_wins)
    assert [team["wins"] for team in data["summary"]["teams"]] == list(summary.team_wins)
    assert data["summary"]["first_seat_wins"] == summary.first_seat_wins
    assert data["summary"]["mean_plies"] == pytest.approx(summary.mean_plies)
