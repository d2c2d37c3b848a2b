"""Sphinx extension: the learning curve of the reinforcement-learning page, drawn at build time.

``docs/examples/td_learner.py --json FILE`` writes its training curve and the
result of each test game; the run the page reports is committed as
``docs/examples/results/td-learner.json``. ``.. learning-chart:: curve`` draws
it as SVG (matplotlib) into ``docs/_generated/learning/``, with the directive's
content as its caption: the share of the last 200 training games won, against
the CPU minutes spent, and the test's share of new deals won with its 95%
Wilson interval. ``.. learning-chart:: ppo`` draws the masked-PPO baseline's
curve from ``ppo-baseline.json`` (``tools/ppo_baseline.py``): the share of the
held-out deals won at each checkpoint and of the test deals, with their 95%
Wilson intervals.
"""

from __future__ import annotations

import json
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


def chart_ppo(path: Path) -> None:
    run = json.loads((RESULTS / "ppo-baseline.json").read_text(encoding="utf-8"))
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(7.5, 3.8))
    minutes, shares, below, above = [], [], [], []
    for point in run["curve"]:
        share = point["wins"] / point["deals"]
        low, high = wilson(point["wins"], point["deals"])
        minutes.append(point["cpu_seconds"] / 60)
        shares.append(share * 100)
        below.append((share - low) * 100)
        above.append((high - share) * 100)
    axes.errorbar(
        minutes,
        shares,
        yerr=[below, above],
        fmt="o-",
        color=OKABE_ITO["blue"],
        capsize=3,
        label=f"checkpoints: {run['curve'][0]['deals']} held-out deals each (95% interval)",
    )
    wins = sum(game["winner"] == game["team"] for game in run["test"])
    games = len(run["test"])
    low, high = wilson(wins, games)
    end = run["cpu_seconds"] / 60
    axes.errorbar(
        [end],
        [wins / games * 100],
        yerr=[[(wins / games - low) * 100], [(high - wins / games) * 100]],
        fmt="D",
        color=OKABE_ITO["vermillion"],
        capsize=4,
        label=f"test: {games} new deals (95% interval)",
    )
    axes.axhline(50, color=OKABE_ITO["black"], linestyle="--", linewidth=1)
    axes.set_ylim(0, 100)
    axes.set_xlim(-end * 0.02, end * 1.05)
    axes.set_xlabel("CPU minutes of training")
    axes.set_ylabel("games won against medium, %")
    axes.set_title("Masked PPO against the medium bot (dashed: even)")
    axes.legend(loc="upper left", frameon=False)
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
