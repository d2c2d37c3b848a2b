"""Sphinx extension: the learning curve of the reinforcement-learning page, drawn at build time.

``docs/examples/td_learner.py --json FILE`` writes its training curve and the
result of each test game; the run the page reports is committed as
``docs/examples/results/td-learner.json``. ``.. learning-chart:: curve`` draws
it as SVG (matplotlib) into ``docs/_generated/learning/``, with the directive's
content as its caption: the share of the last 200 training games won, against
the CPU minutes spent, and the test's share of new deals won with its 95%
Wilson interval. ``.. learning-chart:: ppo`` draws the masked-PPO baseline's
three runs (``tools/ppo_baseline.py``, :data:`PPO_RUNS`): the share of the
held-out deals won at each checkpoint and of the test deals (diamonds), with
their 95% Wilson intervals, and the pegs brought home a game at each checkpoint
and in the test (with its 95% interval), beside a random legal move's.
"""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path
from typing import Any

from pegs_study import OKABE_ITO, ChartDirective, pyplot, save
from sphinx.application import Sphinx

from pegs_rules.simulate import wilson

RESULTS = Path(__file__).resolve().parent.parent / "examples" / "results"


def chart_curve(path: Path) -> None:
    run = json.loads((RESULTS / "td-learner.json").read_text(encoding="utf-8"))
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(7.5, 3.8))
    minutes = [spent / 60 for _, spent, _ in run["curve"]]
    shares = [share * 100 for _, _, share in run["curve"]]
    axes.plot(minutes, shares, color=OKABE_ITO["blue"], label="training: share of the last 200 won")
    wins, games = sum(run["test"]), len(run["test"])
    low, high = wilson(wins, games)
    end = run["cpu_seconds"] / 60
    axes.errorbar(
        [end],
        [wins / games * 100],
        yerr=[[(wins / games - low) * 100], [(high - wins / games) * 100]],
        fmt="D",
        color=OKABE_ITO["vermillion"],
        capsize=4,
        label=f"test: {games} new deals, playing its best move (95% interval)",
    )
    axes.axhline(50, color=OKABE_ITO["black"], linestyle="--", linewidth=1)
    axes.axhline(55, color=OKABE_ITO["black"], linestyle=":", linewidth=1)
    axes.set_ylim(0, 100)
    axes.set_xlim(0, end * 1.05)
    axes.set_xlabel("CPU minutes of training")
    axes.set_ylabel("games won against medium, %")
    axes.set_title("Learning to beat the medium bot (dashed: even; dotted: 55%)")
    axes.legend(loc="lower right", frameon=False)
    save(plt, figure, path)


def share(wins: int, games: int) -> tuple[float, list[float], list[float]]:
    """``wins`` of ``games`` in percent, with the distances down and up to its Wilson interval."""
    low, high = wilson(wins, games)
    mid = wins / games
    return mid * 100, [(mid - low) * 100], [(high - mid) * 100]


def mean_home(games: list[dict[str, Any]]) -> tuple[float, list[float]]:
    """The mean pegs brought home in ``games``, and the half-width of its 95% interval."""
    homes = [game["home"] for game in games]
    return statistics.fmean(homes), [1.96 * statistics.stdev(homes) / math.sqrt(len(homes))]


PPO_RUNS = (
    ("terminal reward", "baseline"),
    ("shaped reward", "shaped"),
    ("undiscounted shaped reward", "undiscounted"),
)
"""The masked-PPO runs, each as its label and its files' name: ``ppo-baseline.json``
(the game's result its only reward), ``ppo-shaped.json`` (shaped) and
``ppo-undiscounted.json`` (shaped, the discount 1)."""


def chart_ppo(path: Path) -> None:
    runs = {
        label: json.loads((RESULTS / f"ppo-{name}.json").read_text(encoding="utf-8"))
        for label, name in PPO_RUNS
    }
    colours = dict(zip(runs, (OKABE_ITO[c] for c in ("orange", "blue", "green")), strict=True))
    plt = pyplot()
    figure, (won_axes, home_axes) = plt.subplots(1, 2, figsize=(9, 3.9))
    ends = []
    for label, run in runs.items():
        colour, end = colours[label], run["cpu_seconds"] / 60
        ends.append(end)
        minutes = [point["cpu_seconds"] / 60 for point in run["curve"]]
        shares = [share(point["wins"], point["deals"]) for point in run["curve"]]
        won_axes.errorbar(
            minutes,
            [mid for mid, _, _ in shares],
            yerr=[[low for _, (low,), _ in shares], [high for _, _, (high,) in shares]],
            fmt="o-",
            color=colour,
            capsize=3,
            label=label,
        )
        wins = sum(game["winner"] == game["team"] for game in run["test"])
        mid, low, high = share(wins, len(run["test"]))
        won_axes.errorbar([end], [mid], yerr=[low, high], fmt="D", color=colour, capsize=4)
        if all("home" in point for point in run["curve"]):
            home_axes.plot(
                minutes,
                [point["home"] / point["deals"] for point in run["curve"]],
                "o-",
                color=colour,
                label=label,
            )
        mean, half = mean_home(run["test"])
        home_axes.errorbar([end], [mean], yerr=half, fmt="D", color=colour, capsize=4)
    anchor, _ = mean_home(runs["shaped reward"]["curve_random"])
    home_axes.axhline(anchor, color=OKABE_ITO["black"], linestyle=":", linewidth=1)
    home_axes.text(0, anchor + 0.1, "random legal move", fontsize=8)
    deals = runs["shaped reward"]["curve"][0]["deals"]
    won_axes.set_title(f"Games won against medium ({deals} held-out deals)", fontsize=10)
    won_axes.set_ylabel("games won, %")
    won_axes.set_ylim(0, 100)
    home_axes.set_title("Pegs the agent's team brought home, of 10", fontsize=10)
    home_axes.set_ylabel("pegs home, mean a game")
    home_axes.set_ylim(0, 10)
    for axes in (won_axes, home_axes):
        axes.set_xlim(-max(ends) * 0.02, max(ends) * 1.05)
        axes.set_xlabel("CPU minutes of training")
    won_axes.legend(loc="upper left", frameon=False)
    save(plt, figure, path)


CHARTS = {"curve": chart_curve, "ppo": chart_ppo}


class LearningChartDirective(ChartDirective):
    """``.. learning-chart:: curve``."""

    charts = CHARTS
    results = RESULTS
    folder = "learning"


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("learning-chart", LearningChartDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
