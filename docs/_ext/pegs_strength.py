"""Sphinx extension: the charts of the bots' strength page, drawn at build time.

The figures of ``docs/strength.rst`` (its tables and the numbers in its text)
are in ``docs/strength/figures.inc``, written by ``docs/strength/figures.py``
from the per-game records in ``docs/strength/results/`` and checked against
them by ``tests/test_strength.py``. This extension draws the page's charts
from the same records, with the same code (:class:`figures.Results`):

* ``.. strength-chart:: NAME`` draws a chart as SVG (matplotlib) into
  ``docs/_generated/strength/`` with the directive's content as its caption
  (``ratings``, ``head-to-head``, ``expert``, ``think``, ``td``);
* ``.. strength-commands::`` lists the commands of ``run.sh`` exactly.
"""

from __future__ import annotations

import math
import os
import sys
from functools import cache
from pathlib import Path
from typing import Any

from pegs_study import OKABE_ITO, ChartDirective, CommandsDirective, pyplot, save
from sphinx.application import Sphinx

from pegs_rules.simulate import wilson

HERE = Path(__file__).resolve().parent
STRENGTH = HERE.parent / "strength"
sys.path.insert(0, str(STRENGTH))

from figures import LEVELS, Results, milliseconds, seconds  # noqa: E402

RESULTS = Path(os.environ.get("PEGS_STRENGTH_RESULTS", STRENGTH / "results"))
"""The results folder; the environment variable ``PEGS_STRENGTH_RESULTS`` may name another."""


@cache
def results() -> Results:
    return Results.load(RESULTS)


class StrengthCommandsDirective(CommandsDirective):
    """``.. strength-commands::``: the commands of ``run.sh``, as run."""

    script = STRENGTH / "run.sh"


# --- charts -------------------------------------------------------------------------------------


def chart_ratings(path: Path) -> None:
    plt = pyplot()
    ratings = results().ratings()
    rated = [(bot, ratings[bot]) for bot in LEVELS if bot in ratings]
    figure, axes = plt.subplots(figsize=(7.5, 3.4))
    for i, (_, r) in enumerate(rated):
        fixed = r.high <= r.low
        axes.errorbar(
            [r.elo],
            [i],
            xerr=[[r.elo - r.low], [r.high - r.elo]],
            fmt="D" if fixed else "o",
            color=OKABE_ITO["black"] if fixed else OKABE_ITO["blue"],
            capsize=4,
        )
        axes.annotate(
            f"{r.elo:.0f}", (r.elo, i), xytext=(0, 8), textcoords="offset points", ha="center"
        )
    axes.set_yticks(range(len(rated)), [bot for bot, _ in rated])
    axes.set_xlabel("rating (Elo scale, medium = 1500; bars: 95% interval)")
    axes.set_title("How strong are the bots: Bradley-Terry ratings from the round robin")
    axes.set_ylim(-0.6, len(rated) - 0.4)
    save(plt, figure, path)


def chart_head_to_head(path: Path) -> None:
    plt = pyplot()
    n = len(LEVELS)
    figure, axes = plt.subplots(figsize=(6.4, 5.0))
    grid = [[math.nan] * n for _ in range(n)]
    for (a, b), match in results().round_robin.items():
        i, j = LEVELS.index(a), LEVELS.index(b)
        grid[i][j] = match.wins(0) / match.games
        grid[j][i] = match.wins(1) / match.games
    image = axes.imshow(grid, cmap="cividis", vmin=0, vmax=1)
    for i in range(n):
        for j in range(n):
            if not math.isnan(grid[i][j]):
                value = grid[i][j]
                colour = "white" if value < 0.55 else "black"
                axes.text(j, i, f"{value:.0%}", ha="center", va="center", color=colour)
    axes.set_xticks(range(n), LEVELS)
    axes.set_yticks(range(n), LEVELS)
    axes.set_xlabel("against")
    axes.set_ylabel("games won by")
    axes.set_title("Head to head: how often the row's team beats the column's")
    figure.colorbar(image, ax=axes, label="share of games won")
    save(plt, figure, path)


def chart_expert(path: Path) -> None:
    plt = pyplot()
    runs = results().expert
    figure, axes = plt.subplots(figsize=(7.5, 3.6))
    markers = {
        4: ("o", OKABE_ITO["blue"]),
        6: ("s", OKABE_ITO["orange"]),
        8: ("^", OKABE_ITO["green"]),
    }
    labels = [f"{m.players} players, {seconds(m):g} s a move ({m.games} games)" for m in runs]
    for i, m in enumerate(runs):
        value = m.wins() / m.games
        low, high = wilson(m.wins(), m.games)
        marker, colour = markers[m.players]
        axes.errorbar(
            [value * 100],
            [i],
            xerr=[[(value - low) * 100], [(high - value) * 100]],
            fmt=marker,
            color=colour,
            capsize=4,
        )
    axes.axvline(50, color=OKABE_ITO["black"], linestyle="--", linewidth=1)
    axes.set_yticks(range(len(runs)), labels)
    axes.invert_yaxis()
    axes.set_xlim(30, 100)
    axes.set_xlabel("games won by the expert's team, % (95% intervals; dashed: even)")
    axes.set_title("Expert against mcts, the same CPU time a move")
    save(plt, figure, path)


def chart_think(path: Path) -> None:
    plt = pyplot()
    thinking = results().thinking()
    bots = [bot for bot in LEVELS if bot in thinking]
    figure, axes = plt.subplots(figsize=(7.5, 3.0))
    values = [thinking[bot][0] * 1000 for bot in bots]
    axes.barh(range(len(bots)), values, color=OKABE_ITO["sky"], edgecolor=OKABE_ITO["black"])
    for i, value in enumerate(values):
        axes.annotate(
            milliseconds(value / 1000),
            (value, i),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
        )
    axes.set_xscale("log")
    axes.set_yticks(range(len(bots)), bots)
    axes.set_xlabel("CPU milliseconds a move, mean over the round robin (log scale)")
    axes.set_title("How long each bot thinks")
    save(plt, figure, path)


def chart_td(path: Path) -> None:
    plt = pyplot()
    runs = results().td
    figure, axes = plt.subplots(figsize=(7.5, 2.8))
    for i, m in enumerate(runs):
        value = m.wins() / m.games
        low, high = wilson(m.wins(), m.games)
        axes.errorbar(
            [value * 100],
            [i],
            xerr=[[(value - low) * 100], [(high - value) * 100]],
            fmt="o",
            color=OKABE_ITO["blue"],
            capsize=4,
        )
    axes.axvline(50, color=OKABE_ITO["black"], linestyle="--", linewidth=1)
    axes.set_yticks(range(len(runs)), [f"against {m.sides[1]} ({m.games} games)" for m in runs])
    axes.invert_yaxis()
    axes.set_xlim(0, 100)
    axes.set_xlabel("games won by the td bot's team, % (95% intervals; dashed: even)")
    axes.set_title("The learnt td bot against the levels")
    save(plt, figure, path)


CHARTS = {
    "td": chart_td,
    "ratings": chart_ratings,
    "head-to-head": chart_head_to_head,
    "expert": chart_expert,
    "think": chart_think,
}


class StrengthChartDirective(ChartDirective):
    """``.. strength-chart:: NAME``."""

    charts = CHARTS
    results = RESULTS
    folder = "strength"


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("strength-chart", StrengthChartDirective)
    app.add_directive("strength-commands", StrengthCommandsDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
