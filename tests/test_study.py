"""The fairness study's committed results still hold: the first games of every run replay the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pegs_rules.simulate import SimulationConfig, config_from_document, play_game

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
