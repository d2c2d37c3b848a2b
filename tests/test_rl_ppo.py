"""The masked-PPO baseline's records prove themselves without torch: a sample of each run's test
games replays, move for move, from its exported weights with numpy alone, and the RL page reports
the records as their games give them.

``tools/ppo_baseline.py`` (torch and sb3-contrib) trained the policies and wrote their records
and weights: ``docs/examples/results/ppo-baseline.{json,npz}`` (the first run, the game's result
its only reward), ``ppo-shaped.{json,npz}`` (with shaping, :mod:`pegs_rules.rl.shaping`) and
``ppo-undiscounted.{json,npz}`` (with shaping, the discount 1 instead of 0.995).
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
NAMES = {"terminal": "baseline", "shaped": "shaped", "undiscounted": "undiscounted"}
"""The runs, each by its reward and its files' name: the game's result alone (the first), shaped,
and shaped with the discount 1."""
RUNS: dict[str, dict[str, Any]] = {
    reward: json.loads((RESULTS / f"ppo-{name}.json").read_text(encoding="utf-8"))
    for reward, name in NAMES.items()
}
WEIGHTS = {reward: RESULTS / f"ppo-{name}.npz" for reward, name in NAMES.items()}
GAMMAS = {"terminal": 0.995, "shaped": 0.995, "undiscounted": 1.0}


def won(games: list[dict[str, Any]]) -> int:
    return sum(game["winner"] == game["team"] for game in games)


def mean_interval(values: list[int], digits: int = 2) -> str:
    """The mean of ``values`` with its 95% interval (normal approximation), as the page says it."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:.{digits}f} (95% interval [{mean - half:.{digits}f}, {mean + half:.{digits}f}])"


def column(games: list[dict[str, Any]], key: str) -> list[int]:
    return [game[key] for game in games]


@pytest.mark.parametrize("reward", RUNS)
def test_the_record_names_its_code_versions_and_seeds(reward: str) -> None:
    run = RUNS[reward]
    for code in (run["commit"], run["test_commit"]):
        assert re.fullmatch(r"[0-9a-f]{40}", code)  # a clean tree: no "-dirty"
    assert set(run["versions"]) == {
        "torch",
        "sb3-contrib",
        "stable-baselines3",
        "gymnasium",
        "numpy",
    }
    assert f"--seed {run['seed']}" in run["command"]
    # The first run predates --reward; its default, terminal, is what it trained with.
    assert ("--reward shaped" in run["command"]) == (reward != "terminal")
    assert run.get("reward", "terminal") == ("terminal" if reward == "terminal" else "shaped")
    # The first two predate --gamma; its default, 0.995, is what both trained with.
    assert ("--gamma 1.0" in run["command"]) == (reward == "undiscounted")
    assert run["config"]["gamma"] == GAMMAS[reward]
    assert run["opponents"] == "medium" and run["players"] == 4
    deals = [game["deal"] for game in run["test"]]
    assert deals == list(range(*run["test_deals"])) and len(deals) >= 400
    assert [game["deal"] for game in run["random"]] == deals
    assert all(game["team"] == game["deal"] % 2 for game in run["test"] + run["random"])
    for game in run["test"] + run["random"]:
        assert 0 <= game["home"] <= 10 and (game["home"] == 10) == (game["winner"] == game["team"])
    seen = [range(*run["training_deals"]), range(*run["curve_deals"])]
    assert not any(deal in deals for span in seen for deal in span)
    agreed, decisions = run["agreement"]
    assert decisions >= 500 and agreed >= 0.99 * decisions


def test_the_runs_met_the_same_deals_and_the_same_random_anchor() -> None:
    terminal, shaped, undiscounted = RUNS.values()
    for key in ("seed", "envs", "training_deals", "curve_deals", "test_deals", "steps", "random"):
        assert terminal[key] == shaped[key] == undiscounted[key], key
    assert shaped["curve_random"] == undiscounted["curve_random"]
    assert terminal["config"] == shaped["config"] == {**undiscounted["config"], "gamma": 0.995}
    for run in (shaped, undiscounted):
        assert [game["deal"] for game in run["curve_random"]] == list(range(*run["curve_deals"]))
        assert all(0 <= point["home"] <= 10 * point["deals"] for point in run["curve"])


def replay(policy: Policy, deal: int, team: int) -> tuple[int | None, int, int, str]:
    """The winner, the turns, the pegs the agent's team brought home and the digest of its
    actions, of ``deal`` played again against ``medium``."""
    game = TeamEnv(players=4, team=team, opponents="medium")
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


@pytest.mark.parametrize("reward", RUNS)
def test_a_sample_of_the_test_games_replays_move_for_move(reward: str) -> None:
    policy = MaskedMlp.load(WEIGHTS[reward])
    for game in random.Random(38).sample(RUNS[reward]["test"], 16):
        assert replay(policy, game["deal"], game["team"]) == (
            game["winner"],
            game["turns"],
            game["home"],
            game["actions"],
        ), game["deal"]


def test_the_exported_weights_are_float32() -> None:
    # Torch trains in float32, so float32 keeps every weight exactly.
    for path in WEIGHTS.values():
        with np.load(path) as saved:
            assert all(saved[name].dtype == np.float32 for name in saved.files if name != "keys")


def test_a_sample_of_the_random_anchor_replays() -> None:
    run = RUNS["shaped"]
    for game in random.Random(38).sample(run["random"], 8) + run["curve_random"][:4]:
        rng = random.Random(derive_seed(game["deal"], "ppo baseline", "random"))

        def choose(observation: Observation, rng: random.Random = rng) -> int:
            return int(rng.choice(np.flatnonzero(observation["action_mask"].view(bool))))

        winner, turns, home, _ = replay(choose, game["deal"], game["team"])
        assert (winner, turns, home) == (game["winner"], game["turns"], game["home"]), game


def interval(wins: int, deals: int) -> str:
    low, high = wilson(wins, deals)
    return f"{wins / deals:.1%}, 95% interval [{low:.1%}, {high:.1%}]"


@pytest.mark.parametrize("reward", RUNS)
def test_the_page_reports_the_run(reward: str) -> None:
    run = RUNS[reward]
    page = (DOCS / "rl.rst").read_text(encoding="utf-8")
    prose = " ".join(page.replace("\\\n", " ").split())  # lines wrap anywhere, commands too
    wins, deals = won(run["test"]), len(run["test"])
    assert f"won {wins} of {deals} new deals against medium ({interval(wins, deals)})" in prose
    anchor = won(run["random"])
    assert f"won {anchor} of {deals} ({interval(anchor, deals)})" in prose
    trained = (
        f"{run['steps']:,} steps ({run['games']:,} games) in "
        f"{run['cpu_seconds'] / 60:.1f} minutes of CPU"
    )
    assert trained in prose
    assert f"{run['test_cpu_seconds'] / 60:.1f} CPU minutes" in prose
    assert run["command"] in prose and run["test_command"] in prose
    assert f"commit ``{run['test_commit'][:7]}``" in prose
    assert (
        f"``{run['commit'][:7]}`` (pegs-rules {run['pegs_rules']}, torch {run['versions']['torch']}"
        in prose
    )
    for point in run["curve"]:
        home = f" {point['home'] / point['deals']:5.2f} pegs home" if "home" in point else ""
        line = (
            f"{point['steps']:>9,} steps {point['games']:>6,} games "
            f"{point['cpu_seconds'] / 60:>5.1f} min  won {point['wins']:>3} of {point['deals']}"
            f"{home}\n"
        )
        assert line in page, point
    assert f"{run['agreement'][0]:,} of {run['agreement'][1]:,}" in prose


def test_the_page_tabulates_the_runs_and_the_anchor() -> None:
    page = (DOCS / "rl.rst").read_text(encoding="utf-8")
    prose = " ".join(page.split())
    rows = {
        "terminal reward (the first run)": RUNS["terminal"]["test"],
        "shaped reward": RUNS["shaped"]["test"],
        "undiscounted shaped reward": RUNS["undiscounted"]["test"],
        "a random legal move": RUNS["shaped"]["random"],
    }
    for name, games in rows.items():
        wins, deals = won(games), len(games)
        row = (
            f"* - {name} - {wins} of {deals} ({interval(wins, deals)}) "
            f"- {mean_interval(column(games, 'home'))} "
            f"- {mean_interval(column(games, 'turns'), 0)}"
        )
        assert row in prose, row
    anchor = RUNS["shaped"]["random"]
    labels = {"terminal": "terminal", "shaped": "shaped", "undiscounted": "undiscounted shaped"}
    for reward, run in RUNS.items():
        home, turns = (
            [a - b for a, b in zip(column(run["test"], key), column(anchor, key), strict=True)]
            for key in ("home", "turns")
        )
        said = f"{labels[reward]} reward, pegs home: {mean_interval(home)}; turns: "
        said += mean_interval(turns, 1)
        assert said in prose, said
    curve = RUNS["shaped"]["curve_random"]
    assert (
        f"a random legal move brought home {sum(column(curve, 'home')) / len(curve):.2f}" in prose
    )
