"""The masked-PPO baseline's record proves itself without torch: a sample of its test games
replays, move for move, from the exported weights with numpy alone, and the RL page reports the
record as its games give it.

``tools/ppo_baseline.py`` (torch and sb3-contrib) trained the policy and wrote
``docs/examples/results/ppo-baseline.json`` and the weights, ``ppo-baseline.npz``.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from pegs_rules import __version__
from pegs_rules.simulate import wilson

np = pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed")

from pegs_rules.rl import TeamEnv  # noqa: E402 - after the extra's check
from pegs_rules.rl.mlp import MaskedMlp  # noqa: E402

DOCS = Path(__file__).resolve().parents[1] / "docs"
RESULTS = DOCS / "examples" / "results"
RUN: dict[str, Any] = json.loads((RESULTS / "ppo-baseline.json").read_text(encoding="utf-8"))


def won(games: list[dict[str, Any]]) -> int:
    return sum(game["winner"] == game["team"] for game in games)


def test_the_record_names_its_code_versions_and_seeds() -> None:
    assert re.fullmatch(r"[0-9a-f]{40}", RUN["commit"])  # a clean tree: no "-dirty"
    assert RUN["pegs_rules"] == __version__
    assert set(RUN["versions"]) == {
        "torch",
        "sb3-contrib",
        "stable-baselines3",
        "gymnasium",
        "numpy",
    }
    assert f"--seed {RUN['seed']}" in RUN["command"]
    assert RUN["opponents"] == "medium" and RUN["players"] == 4
    deals = [game["deal"] for game in RUN["test"]]
    assert deals == list(range(*RUN["test_deals"])) and len(deals) >= 400
    assert [game["deal"] for game in RUN["random"]] == deals
    assert all(game["team"] == game["deal"] % 2 for game in RUN["test"] + RUN["random"])
    seen = [range(*RUN["training_deals"]), range(*RUN["curve_deals"])]
    assert not any(deal in deals for span in seen for deal in span)
    agreed, decisions = RUN["agreement"]
    assert decisions >= 500 and agreed >= 0.99 * decisions


def replay(policy: MaskedMlp, deal: int, team: int) -> tuple[int | None, int, str]:
    """The winner, the turns and the digest of the agent's actions of ``deal`` played again."""
    game = TeamEnv(players=4, team=team, opponents=RUN["opponents"])
    observation, _ = game.reset(seed=deal)
    actions = []
    done = False
    while not done:
        actions.append(policy(observation))
        observation, _, terminated, truncated, _ = game.step(actions[-1])
        done = terminated or truncated
    digest = hashlib.sha256(" ".join(map(str, actions)).encode()).hexdigest()[:16]
    return game.game.game.winner, game.game.game.ply, digest


def test_a_sample_of_the_test_games_replays_move_for_move() -> None:
    policy = MaskedMlp.load(RESULTS / "ppo-baseline.npz")
    for game in random.Random(38).sample(RUN["test"], 24):
        assert replay(policy, game["deal"], game["team"]) == (
            game["winner"],
            game["turns"],
            game["actions"],
        ), game["deal"]


def test_the_page_reports_the_record() -> None:
    page = (DOCS / "rl.rst").read_text(encoding="utf-8")
    wins, deals = won(RUN["test"]), len(RUN["test"])
    low, high = wilson(wins, deals)
    said = (
        f"won {wins} of {deals} new deals against medium "
        f"({wins / deals:.1%}, 95% interval [{low:.1%}, {high:.1%}])"
    )
    assert said in page
    anchor = won(RUN["random"])
    low, high = wilson(anchor, deals)
    assert (
        f"won {anchor} of {deals} ({anchor / deals:.1%}, 95% interval [{low:.1%}, {high:.1%}])"
        in page
    )
    trained = (
        f"{RUN['steps']:,} steps ({RUN['games']:,} games) in "
        f"{RUN['cpu_seconds'] / 60:.1f} minutes of CPU"
    )
    assert trained in page
    assert f"{RUN['test_cpu_seconds'] / 60:.1f} CPU minutes" in page
    assert RUN["command"] in page
    for point in RUN["curve"]:
        assert re.search(
            rf"{point['steps']:>9,} steps {point['games']:>6,} games "
            rf"{point['cpu_seconds'] / 60:>5.1f} min +won {point['wins']:>3} of {point['deals']}",
            page,
        ), point
    assert f"{RUN['agreement'][0]:,} of {RUN['agreement'][1]:,}" in page
