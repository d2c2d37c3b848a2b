"""Sphinx extension: the bots' ratings, head-to-head results and charts, drawn at build time.

The results are the JSON files that ``pegs simulate --json`` wrote, committed in
``docs/strength/results/`` (``docs/strength/run.sh`` makes them). Two kinds:
``rr-A-B.json``, a match of the round robin between the levels (and random),
bot ``A`` on side 0; and ``expert-mcts-Np-Ts.json``, expert against mcts with
``T`` CPU seconds a move each, ``N`` players.

* ``.. strength-table:: ratings``, ``head-to-head``, ``expert`` or ``ideas`` writes a table
  (``ideas`` from the ``idea-NAME.json`` files of ``docs/strength/ideas.py``);
* ``.. strength-chart:: NAME`` draws a chart as SVG (matplotlib) into
  ``docs/_generated/strength/`` with the directive's content as its caption
  (``ratings``, ``head-to-head``, ``expert``, ``think``);
* ``.. strength-commands::`` lists the commands of ``run.sh`` exactly.

**Ratings** are a Bradley-Terry model fitted to every round-robin game: bot ``i``
beats bot ``j`` with chance ``g_i / (g_i + g_j)``, shown on the Elo scale
(``400 * log10(g)``, medium at 1500). Each pairing's record is given half a
win for each side before fitting, so that a clean sweep (random wins no game)
gives a finite gap: such a gap is a lower bound, not a measurement. The 95%
intervals come from the curvature of the log-likelihood at its maximum (the
normal approximation), medium's rating being fixed.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from docutils import nodes
from pegs_docs import RstDirective
from pegs_study import (
    OKABE_ITO,
    ChartDirective,
    CommandsDirective,
    list_table,
    percent,
    pyplot,
    save,
)
from sphinx.application import Sphinx

from pegs_rules.simulate import wilson

HERE = Path(__file__).resolve().parent
STRENGTH = HERE.parent / "strength"
RESULTS = Path(os.environ.get("PEGS_STRENGTH_RESULTS", STRENGTH / "results"))
"""The results folder; the environment variable ``PEGS_STRENGTH_RESULTS`` may name another."""

LEVELS = ("random", "easy", "medium", "hard", "expert")
"""The bots of the round robin, weakest first."""
ANCHOR = ("medium", 1500.0)
PRIOR = 0.5
"""Wins given to each side of every pairing before fitting (see the module docstring)."""


@dataclass(frozen=True)
class Match:
    """One results file, reduced to what the page shows."""

    name: str
    players: int
    bots: tuple[str, str]  # side 0, side 1
    wins: tuple[int, int]
    games: int  # finished games
    cpu: dict[str, float]  # mean CPU seconds a move, by bot name
    plies: float

    def rate(self, side: int = 0) -> tuple[float, float, float]:
        low, high = wilson(self.wins[side], self.games)
        return self.wins[side] / self.games, low, high


@cache
def load(name: str) -> Match:
    """``RESULTS/NAME.json``."""
    data = json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8"))
    summary = data["summary"]
    sides = summary["sides"]
    return Match(
        name=name,
        players=int(data["config"]["players"]),
        bots=(sides[0]["bots"], sides[1]["bots"]),
        wins=(sides[0]["wins"], sides[1]["wins"]),
        games=summary["games"] - summary["unfinished"],
        cpu={bot: timing["mean_seconds"] for bot, timing in summary["timing"].items()},
        plies=summary["mean_plies"],
    )


def round_robin() -> list[Match]:
    """Every match of the round robin, in the order of :data:`LEVELS`."""
    return [
        load(f"rr-{strong}-{weak}")
        for i, weak in enumerate(LEVELS)
        for strong in LEVELS[i + 1 :]
        if (RESULTS / f"rr-{strong}-{weak}.json").exists()
    ]


def expert_runs() -> list[Match]:
    """The expert-against-mcts matches, by players then thinking time."""
    runs = [load(path.stem) for path in RESULTS.glob("expert-mcts-*.json")]
    return sorted(runs, key=lambda run: (run.players, seconds(run)))


def seconds(run: Match) -> float:
    """The thinking time a move of an expert-against-mcts match, from its bot names."""
    return float(run.bots[0].partition(":")[2].rstrip("s"))


# --- ratings ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rating:
    bot: str
    elo: float
    low: float
    high: float
    games: int


def ratings() -> list[Rating]:
    """Bradley-Terry ratings of the round robin's bots (see the module docstring)."""
    matches = round_robin()
    index = {bot: i for i, bot in enumerate(LEVELS)}
    n = len(LEVELS)
    wins = [[PRIOR] * n for _ in range(n)]  # wins[i][j]: i beat j
    played = [0] * n
    for match in matches:
        a, b = index[match.bots[0]], index[match.bots[1]]
        wins[a][b] += match.wins[0]
        wins[b][a] += match.wins[1]
        played[a] += match.games
        played[b] += match.games
    for i in range(n):
        wins[i][i] = 0.0
    strength = [1.0] * n
    for _ in range(10_000):  # the minorisation-maximisation steps of Hunter (2004)
        new = []
        for i in range(n):
            won = sum(wins[i])
            total = sum(
                (wins[i][j] + wins[j][i]) / (strength[i] + strength[j]) for j in range(n) if j != i
            )
            new.append(won / total)
        anchor = new[index[ANCHOR[0]]]
        new = [g / anchor for g in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < 1e-12:
            break
    theta = [math.log(g) for g in strength]
    free = [i for i in range(n) if i != index[ANCHOR[0]]]
    hessian = [[0.0] * len(free) for _ in free]
    for a, i in enumerate(free):
        for j in range(n):
            if j == i:
                continue
            games = wins[i][j] + wins[j][i]
            p = 1 / (1 + math.exp(theta[j] - theta[i]))
            info = games * p * (1 - p)
            hessian[a][a] += info
            if j in free:
                hessian[a][free.index(j)] -= info
    covariance = _inverse(hessian)
    scale = 400 / math.log(10)
    result = []
    for i, bot in enumerate(LEVELS):
        elo = ANCHOR[1] + scale * theta[i]
        half = 0.0
        if i in free:
            a = free.index(i)
            half = 1.96 * scale * math.sqrt(covariance[a][a])
        result.append(Rating(bot, elo, elo - half, elo + half, played[i]))
    return result


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small positive-definite matrix (Gauss-Jordan)."""
    size = len(matrix)
    rows = [[*row, *(1.0 if i == j else 0.0 for j in range(size))] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [x / head for x in rows[col]]
        for r in range(size):
            if r != col:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[size:] for row in rows]


def cpu_per_move() -> dict[str, float]:
    """Mean CPU seconds a move of each round-robin bot, over all its matches."""
    seconds: dict[str, list[float]] = {}
    for match in round_robin():
        for bot, mean in match.cpu.items():
            seconds.setdefault(bot, []).append(mean)
    return {bot: sum(values) / len(values) for bot, values in seconds.items()}


def milliseconds(value: float) -> str:
    return f"{value * 1000:.1f} ms" if value < 0.1 else f"{value * 1000:.0f} ms"


# --- tables -------------------------------------------------------------------------------------


class StrengthTableDirective(RstDirective):
    """``.. strength-table:: ratings|head-to-head|expert``."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        kind = self.arguments[0]
        for path in RESULTS.glob("*.json"):
            self.env.note_dependency(str(path))
        if kind == "ratings":
            head = ["bot", "rating [95%]", "games", "CPU a move"]
            cpu = cpu_per_move()
            rows = [
                [
                    f"``{r.bot}``",
                    f"{r.elo:.0f} [{r.low:.0f}, {r.high:.0f}]"
                    if r.high > r.low
                    else f"{r.elo:.0f} (fixed)",
                    f"{r.games:,}",
                    milliseconds(cpu[r.bot]),
                ]
                for r in reversed(ratings())
            ]
        elif kind == "head-to-head":
            head = ["match", "games", "first bot wins [95%]", "turns a game"]
            rows = [
                [
                    f"``{m.bots[0]}`` v ``{m.bots[1]}``",
                    f"{m.games:,}",
                    percent(m.rate()),
                    f"{m.plies:.0f}",
                ]
                for m in round_robin()
            ]
        elif kind == "expert":
            head = ["players", "CPU a move", "games", "expert's team wins [95%]", "expert", "mcts"]
            rows = []
            for m in expert_runs():
                cpu = [m.cpu[bot] for bot in m.bots]
                rows.append(
                    [
                        str(m.players),
                        f"{seconds(m):g} s",
                        f"{m.games:,}",
                        percent(m.rate()),
                        milliseconds(cpu[0]),
                        milliseconds(cpu[1]),
                    ]
                )
        elif kind == "ideas":
            head = ["match", "games", "first side wins [95%]", "CPU a move"]
            rows = []
            for path in sorted(RESULTS.glob("idea-*.json")):
                idea = json.loads(path.read_text(encoding="utf-8"))
                games, wins = idea["games"], idea["wins"][0]
                low, high = wilson(wins, games)
                cpu = " / ".join(milliseconds(value) for value in idea["cpu_per_move"])
                rows.append(
                    [
                        f"{idea['sides'][0]} v {idea['sides'][1]}",
                        f"{games:,}",
                        percent((wins / games, low, high)),
                        cpu,
                    ]
                )
        else:
            raise self.error(
                f"strength-table: ratings, head-to-head, expert or ideas, not {kind!r}"
            )
        return self.parse_rst(list_table(head, rows))


class StrengthCommandsDirective(CommandsDirective):
    """``.. strength-commands::``: the commands of ``run.sh``, as run."""

    script = STRENGTH / "run.sh"


# --- charts -------------------------------------------------------------------------------------


def chart_ratings(path: Path) -> None:
    plt = pyplot()
    rated = ratings()
    figure, axes = plt.subplots(figsize=(7.5, 3.4))
    for i, r in enumerate(rated):
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
    axes.set_yticks(range(len(rated)), [r.bot for r in rated])
    axes.set_xlabel("rating (Elo scale, medium = 1500; bars: 95% interval)")
    axes.set_title("How strong are the bots: Bradley-Terry ratings from the round robin")
    axes.set_ylim(-0.6, len(rated) - 0.4)
    save(plt, figure, path)


def chart_head_to_head(path: Path) -> None:
    plt = pyplot()
    matches = {(m.bots[0], m.bots[1]): m for m in round_robin()}
    n = len(LEVELS)
    figure, axes = plt.subplots(figsize=(6.4, 5.0))
    grid = [[math.nan] * n for _ in range(n)]
    for (a, b), m in matches.items():
        i, j = LEVELS.index(a), LEVELS.index(b)
        grid[i][j] = m.rate()[0]
        grid[j][i] = 1 - m.rate()[0]
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
    runs = expert_runs()
    figure, axes = plt.subplots(figsize=(7.5, 3.6))
    markers = {
        4: ("o", OKABE_ITO["blue"]),
        6: ("s", OKABE_ITO["orange"]),
        8: ("^", OKABE_ITO["green"]),
    }
    labels = [f"{m.players} players, {seconds(m):g} s a move ({m.games} games)" for m in runs]
    for i, m in enumerate(runs):
        value, low, high = m.rate()
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
    axes.axvline(60, color=OKABE_ITO["vermillion"], linestyle=":", linewidth=1)
    axes.set_yticks(range(len(runs)), labels)
    axes.invert_yaxis()
    axes.set_xlim(40, 100)
    axes.set_xlabel("games won by the expert's team, % (bars: 95% interval; dotted: 60%)")
    axes.set_title("Expert against mcts, the same CPU time a move")
    save(plt, figure, path)


def chart_think(path: Path) -> None:
    plt = pyplot()
    cpu = cpu_per_move()
    bots = [bot for bot in LEVELS if bot in cpu]
    figure, axes = plt.subplots(figsize=(7.5, 3.0))
    values = [cpu[bot] * 1000 for bot in bots]
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


CHARTS = {
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
    app.add_directive("strength-table", StrengthTableDirective)
    app.add_directive("strength-chart", StrengthChartDirective)
    app.add_directive("strength-commands", StrengthCommandsDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
