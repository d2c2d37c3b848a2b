"""The masked-PPO baseline's record proves itself without torch: a sample of its test games
replays, move for move, from the exported weights with numpy alone, and the RL page reports the
record as its games give it.

``tools/ppo_baseline.py`` (torch and sb3-contrib) trained the policy and wrote
``docs/examples/results/ppo-baseline.json`` and the weights, ``ppo-baseline.npz``.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import statistics
from pathlib import Path
from typing import Any

import pytest

from pegs_rules.board import is_home
from pegs_rules.seeding import derive_seed
from pegs_rules.simulate import wilson

np = pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed")

from pegs_rules.rl import TeamEnv  # noqa: E402 - after the extra's check
from pegs_rules.rl.env import Observation  # noqa: E402
from pegs_rules.rl.mlp import MaskedMlp  # noqa: E402
from pegs_rules.rl.team import Policy  # noqa: E402

DOCS = Path(__file__).resolve().parents[1] / "docs"
RESULTS = DOCS / "examples" / "results"
RUN: dict[str, Any] = json.loads((RESULTS / "ppo-baseline.json").read_text(encoding="utf-8"))


def won(games: list[dict[str, Any]]) -> int:
    return sum(game["winner"] == game["team"] for game in games)


def pegs_home(games: list[dict[str, Any]]) -> list[int]:
    return [game["home"] for game in games]


def mean_interval(values: list[int] | list[float]) -> str:
    """The mean of ``values`` with its 95% interval (normal approximation), as the page says it."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:.2f} (95% interval [{mean - half:.2f}, {mean + half:.2f}])"


def test_the_record_names_its_code_versions_and_seeds() -> None:
    for code in (RUN["commit"], RUN["test_commit"]):
        assert re.fullmatch(r"[0-9a-f]{40}", code)  # a clean tree: no "-dirty"
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
    for game in RUN["test"] + RUN["random"]:
        assert 0 <= game["home"] <= 10 and (game["home"] == 10) == (game["winner"] == game["team"])
    seen = [range(*RUN["training_deals"]), range(*RUN["curve_deals"])]
    assert not any(deal in deals for span in seen for deal in span)
    agreed, decisions = RUN["agreement"]
    assert decisions >= 500 and agreed >= 0.99 * decisions


def replay(policy: Policy, deal: int, team: int) -> tuple[int | None, int, int, str]:
    """The winner, the turns, the pegs the agent's team brought home and the digest of its
    actions, of ``deal`` played again."""
    game = TeamEnv(players=4, team=team, opponents=RUN["opponents"])
    observation, _ = game.reset(seed=deal)
    actions = []
    done = False
    while not done:
        actions.append(policy(observation))
        observation, _, terminated, truncated, _ = game.step(actions[-1])
        done = terminated or truncated
    digest = hashlib.sha256(" ".join(map(str, actions)).encode()).hexdigest()[:16]
    state = game.game.game
    home = sum(is_home(peg) for seat in (team, team + 2) for peg in state.pegs[seat])
    return state.winner, state.ply, home, digest


def test_a_sample_of_the_test_games_replays_move_for_move() -> None:
    policy = MaskedMlp.load(RESULTS / "ppo-baseline.npz")
    for game in random.Random(38).sample(RUN["test"], 24):
        assert replay(policy, game["deal"], game["team"]) == (
            game["winner"],
            game["turns"],
            game["home"],
            game["actions"],
        ), game["deal"]


def test_a_sample_of_the_random_anchor_replays() -> None:
    for game in random.Random(38).sample(RUN["random"], 8):
        rng = random.Random(derive_seed(game["deal"], "ppo baseline", "random"))

        def choose(observation: Observation, rng: random.Random = rng) -> int:
            return int(rng.choice(np.flatnonzero(observation["action_mask"].view(bool))))

        winner, _, home, _ = replay(choose, game["deal"], game["team"])
        assert (winner, home) == (game["winner"], game["home"]), game["deal"]


def test_the_page_reports_the_record() -> None:
    page = (DOCS / "rl.rst").read_text(encoding="utf-8")
    prose = " ".join(page.replace("\\\n", " ").split())  # lines wrap anywhere, commands too
    wins, deals = won(RUN["test"]), len(RUN["test"])
    low, high = wilson(wins, deals)
    said = (
        f"won {wins} of {deals} new deals against medium "
        f"({wins / deals:.1%}, 95% interval [{low:.1%}, {high:.1%}])"
    )
    assert said in prose
    anchor = won(RUN["random"])
    low, high = wilson(anchor, deals)
    assert (
        f"won {anchor} of {deals} ({anchor / deals:.1%}, 95% interval [{low:.1%}, {high:.1%}])"
        in prose
    )
    trained = (
        f"{RUN['steps']:,} steps ({RUN['games']:,} games) in "
        f"{RUN['cpu_seconds'] / 60:.1f} minutes of CPU"
    )
    assert trained in prose
    assert f"{RUN['test_cpu_seconds'] / 60:.1f} CPU minutes" in prose
    assert RUN["command"] in prose and RUN["test_command"] in prose
    assert f"commit ``{RUN['test_commit'][:7]}``" in prose
    assert (
        f"``{RUN['commit'][:7]}`` (pegs-rules {RUN['pegs_rules']}, torch {RUN['versions']['torch']}"
        in prose
    )
    for point in RUN["curve"]:
        assert re.search(
            rf"{point['steps']:>9,} steps {point['games']:>6,} games "
            rf"{point['cpu_seconds'] / 60:>5.1f} min +won {point['wins']:>3} of {point['deals']}",
            page,
        ), point
    assert f"{RUN['agreement'][0]:,} of {RUN['agreement'][1]:,}" in prose
    decisions = round(RUN["steps"] / RUN["games"], -1)
    assert f"a game is about {decisions:.0f} of the agent's decisions" in prose
    turns = statistics.fmean(game["turns"] for game in RUN["test"])
    assert f"game lasted {turns:.0f} turns on average" in prose
    ppo, anchor_home = pegs_home(RUN["test"]), pegs_home(RUN["random"])
    difference = [a - b for a, b in zip(ppo, anchor_home, strict=True)]
    for said in (mean_interval(ppo), mean_interval(anchor_home), mean_interval(difference)):
        assert said in prose
