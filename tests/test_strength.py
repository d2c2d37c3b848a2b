"""The bots' strength page's committed results hold: the round robin replays where it can, and the
expert's matches say what the page claims."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_study import config_of

from pegs_rules.simulate import play_game, wilson

RESULTS = Path(__file__).resolve().parents[1] / "docs" / "strength" / "results"
LEVELS = ("random", "easy", "medium", "hard", "expert")
QUICK = ("rr-easy-random", "rr-medium-random", "rr-medium-easy")
"""The round-robin runs without a searching bot: cheap enough to replay here."""


def load(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8"))
    return data


def test_the_round_robin_has_every_pairing() -> None:
    names = {path.stem for path in RESULTS.glob("rr-*.json")}
    expected = {f"rr-{a}-{b}" for i, b in enumerate(LEVELS) for a in LEVELS[i + 1 :]}
    assert names == expected


@pytest.mark.parametrize("name", QUICK)
def test_a_round_robin_run_replays(name: str) -> None:
    data = load(name)
    config = config_of(data)
    games = data["games"]
    assert isinstance(games, list) and config.games == len(games)
    for index in (0, 1):  # a deal played both ways round
        game = play_game(config, index)
        recorded = games[index]
        replayed = (game.seed, list(game.seats), game.winner, game.plies, list(game.home))
        assert replayed == (
            recorded["seed"],
            recorded["seats"],
            recorded["winner"],
            recorded["plies"],
            recorded["home"],
        )


def test_the_expert_beats_mcts_at_equal_thinking_time() -> None:
    data = load("expert-mcts-4p-0.05s")
    summary = data["summary"]
    assert isinstance(summary, dict)
    expert, mcts = summary["sides"]
    assert expert["bots"] == "expert:0.05s" and mcts["bots"] == "mcts:0.05s"
    games = summary["games"] - summary["unfinished"]
    assert games >= 400 and data["config"]["swap"]  # type: ignore[index]
    assert expert["wins"] / games >= 0.6 and wilson(expert["wins"], games)[0] > 0.55
    timing = summary["timing"]
    spent = [timing[side["bots"]]["mean_seconds"] for side in (expert, mcts)]
    assert abs(spent[0] - spent[1]) < 0.1 * spent[1]  # the same thinking time, in CPU seconds
