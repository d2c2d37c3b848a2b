"""Sphinx extension: the fairness study's tables and charts, drawn at build time from its results.

The results are the JSON files that ``pegs simulate --json`` wrote, committed
in ``docs/study/results/`` (``docs/study/run.sh`` makes them). Two kinds:
``fair-PRESET-PLAYERS.json`` (greedy at every seat) and ``house-SWITCH.json``
(arizona, 4 players, greedy against random, one house rule switched).

* ``.. study-table:: fairness`` or ``house`` writes a table of the figures;
* ``.. study-chart:: NAME`` draws one chart as SVG (matplotlib) into
  ``docs/_generated/study/`` and shows it with the directive's content as its
  caption (``fairness``, ``lengths``, ``house-lengths``, ``house-margin``);
* ``.. study-commands::`` lists the commands of ``run.sh`` exactly.

Colours are the Okabe-Ito palette (safe for the common colour-vision
deficiencies), and every series also has its own marker or line style, so
no chart needs its colours to be told apart; each chart carries its own
title, axis labels and legend.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from pegs_docs import GENERATED, RstDirective
from sphinx.application import Sphinx

from pegs_rules.simulate import wilson

HERE = Path(__file__).resolve().parent
STUDY = HERE.parent / "study"
RESULTS = Path(os.environ.get("PEGS_STUDY_RESULTS", STUDY / "results"))
"""The results folder; the environment variable ``PEGS_STUDY_RESULTS`` may name another."""

OKABE_ITO = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "vermillion": "#D55E00",
    "sky": "#56B4E9",
    "purple": "#CC79A7",
    "black": "#000000",
}

SWITCHES = {
    "baseline": "arizona as it is",
    "face-values": "face cards 11/12/13",
    "nine-plain": "9 never splits",
    "nine-forward-backward": "9 splits forward + back",
    "home-entry-compulsory": "home entry compulsory",
    "wait-on-in-spot": "wait on the in-spot",
    "in-spot-illegal": "occupied in-spot: illegal",
    "in-spot-to-start": "occupied in-spot: to start",
    "two-swap": "2 may swap",
}
"""Each house-rule run's file name (after ``house-``) and its label."""


@dataclass(frozen=True)
class Run:
    """One results file, reduced to what the page shows."""

    name: str
    config: dict[str, Any]
    winners: tuple[int, ...]  # the winning team of each finished game
    first_teams: tuple[int, ...]  # the first seat's team, same games
    side0_wins: int  # wins of side 0 (greedy in the house runs)
    plies: tuple[int, ...]
    margins: tuple[int, ...]  # side 0's pegs home minus side 1's, at the end
    unfinished: int

    @property
    def games(self) -> int:
        return len(self.plies)

    @property
    def players(self) -> int:
        return int(self.config["players"])

    def rate(self, wins: int) -> tuple[float, float, float]:
        """A win rate over the finished games and its 95% Wilson interval."""
        low, high = wilson(wins, self.games)
        return wins / self.games, low, high

    @property
    def team0(self) -> tuple[float, float, float]:
        return self.rate(sum(w == 0 for w in self.winners))

    @property
    def first_seat(self) -> tuple[float, float, float]:
        return self.rate(sum(w == f for w, f in zip(self.winners, self.first_teams, strict=True)))

    @property
    def mean_plies(self) -> tuple[float, float]:
        """The mean game length in turns and the half-width of its 95% interval."""
        return statistics.fmean(self.plies), 1.96 * statistics.stdev(self.plies) / math.sqrt(
            self.games
        )

    def quantile(self, q: float) -> float:
        return statistics.quantiles(self.plies, n=100, method="inclusive")[round(q * 100) - 1]


@cache
def load(name: str) -> Run:
    """The results file ``docs/study/results/NAME.json``."""
    data = json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8"))
    done = [g for g in data["games"] if g["winner"] is not None]
    return Run(
        name=name,
        config=data["config"],
        winners=tuple(g["winner"] for g in done),
        first_teams=tuple(g["first_team"] for g in done),
        side0_wins=sum(g["winner_side"] == 0 for g in done),
        plies=tuple(g["plies"] for g in done),
        margins=tuple(
            g["home"][g["swapped"]] - g["home"][1 - g["swapped"]] for g in done
        ),  # side 0 played team 1 when swapped
        unfinished=len(data["games"]) - len(done),
    )


def fairness_runs() -> list[Run]:
    return [load(f"fair-{preset}-{n}") for preset in ("arizona", "standard") for n in (4, 6, 8)]


def house_runs() -> list[Run]:
    return [load(f"house-{name}") for name in SWITCHES]


def percent(rate: tuple[float, float, float]) -> str:
    value, low, high = rate
    return f"{value:.1%} [{low:.1%}, {high:.1%}]"


# --- tables -------------------------------------------------------------------------------------


class StudyTableDirective(RstDirective):
    """``.. study-table:: fairness|house``."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        kind = self.arguments[0]
        for path in RESULTS.glob("*.json"):
            self.env.note_dependency(str(path))
        if kind == "fairness":
            head = [
                "preset",
                "players",
                "games",
                "team 0 (even seats) wins",
                "first seat's team wins",
                "turns: mean [95%]",
                "turns: median (5%-95%)",
            ]
            rows = []
            for run in fairness_runs():
                mean, half = run.mean_plies
                rows.append(
                    [
                        run.config["rules"],
                        str(run.players),
                        f"{run.games:,}",
                        percent(run.team0),
                        percent(run.first_seat),
                        f"{mean:.1f} [{mean - half:.1f}, {mean + half:.1f}]",
                        f"{run.quantile(0.5):.0f} ({run.quantile(0.05):.0f}-{run.quantile(0.95):.0f})",
                    ]
                )
        elif kind == "house":
            base = load("house-baseline").mean_plies[0]
            head = [
                "house rule",
                "games",
                "greedy wins",
                "turns: mean [95%]",
                "turns vs baseline",
                "margin (pegs home)",
            ]
            rows = []
            for run in house_runs():
                mean, half = run.mean_plies
                rows.append(
                    [
                        SWITCHES[run.name.removeprefix("house-")],
                        f"{run.games:,}",
                        percent(run.rate(run.side0_wins)),
                        f"{mean:.1f} [{mean - half:.1f}, {mean + half:.1f}]",
                        f"{(mean - base) / base:+.1%}",
                        f"{statistics.fmean(run.margins):.2f}",
                    ]
                )
        else:
            raise self.error(f"study-table: fairness or house, not {kind!r}")
        return self.parse_rst(list_table(head, rows))


def list_table(head: list[str], rows: list[list[str]]) -> list[str]:
    """The reST of a table with a header row."""
    lines = [".. list-table::", "   :header-rows: 1", ""]
    for row in [head, *rows]:
        lines.append(f"   * - {row[0]}")
        lines += [f"     - {cell}" for cell in row[1:]]
    return lines


class CommandsDirective(RstDirective):
    """A directive that shows a script's commands, as run (:attr:`script`)."""

    script: ClassVar[Path]

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(str(self.script))
        text = self.script.read_text(encoding="utf-8")
        return self.parse_rst(
            [".. code-block:: bash", "", *("   " + line for line in text.splitlines())]
        )


class StudyCommandsDirective(CommandsDirective):
    """``.. study-commands::``: the commands of ``run.sh``, as run."""

    script = STUDY / "run.sh"


# --- charts -------------------------------------------------------------------------------------


def pyplot() -> Any:
    import matplotlib

    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(
        {
            "svg.hashsalt": "pegs-rules-study",  # the same SVG from the same data
            "svg.fonttype": "none",
            "font.size": 10,
            "axes.spines.top": False,
            "axes.spines.right": False,
        }
    )
    return plt


def save(plt: Any, figure: Any, path: Path) -> None:
    figure.tight_layout()
    figure.savefig(path, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(figure)


def chart_fairness(path: Path) -> None:
    plt = pyplot()
    runs = fairness_runs()
    figure, axes = plt.subplots(figsize=(7.5, 4.6))
    labels = [f"{r.config['rules']}, {r.players} players" for r in runs]
    series = [
        (
            "team of the first seat to act",
            lambda r: r.first_seat,
            "o",
            OKABE_ITO["vermillion"],
            -0.15,
        ),
        ("team 0 (even seats)", lambda r: r.team0, "s", OKABE_ITO["blue"], 0.15),
    ]
    for label, measure, marker, colour, shift in series:
        values = [measure(r) for r in runs]
        y = [i + shift for i in range(len(runs))]
        x = [v[0] * 100 for v in values]
        err = [[(v[0] - v[1]) * 100 for v in values], [(v[2] - v[0]) * 100 for v in values]]
        axes.errorbar(x, y, xerr=err, fmt=marker, color=colour, capsize=3, label=label)
    axes.axvline(50, color=OKABE_ITO["black"], linestyle="--", linewidth=1)
    axes.set_yticks(range(len(runs)), labels)
    axes.invert_yaxis()
    axes.set_xlabel("games won, % (bars: 95% interval)")
    axes.set_title("Greedy bot at every seat: how often each team wins")
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, frameon=False)
    save(plt, figure, path)


def chart_lengths(path: Path) -> None:
    plt = pyplot()
    runs = fairness_runs()
    figure, axes = plt.subplots(figsize=(7.5, 4.2))
    labels = [f"{r.config['rules']}, {r.players} players" for r in runs]
    boxes = axes.boxplot(
        [r.plies for r in runs],
        orientation="horizontal",
        whis=(5, 95),
        showfliers=False,
        patch_artist=True,
        medianprops={"color": OKABE_ITO["black"], "linewidth": 2},
    )
    for box, run in zip(boxes["boxes"], runs, strict=True):
        arizona = run.config["rules"] == "arizona"
        box.set_facecolor(OKABE_ITO["sky"] if arizona else OKABE_ITO["orange"])
        box.set_hatch("" if arizona else "//")
    axes.set_yticks(range(1, len(runs) + 1), labels)
    axes.invert_yaxis()
    axes.set_xlabel("turns in the game (box: middle half; line: median; whiskers: 5% to 95%)")
    axes.set_title("Game length, greedy bot at every seat")
    save(plt, figure, path)


def chart_house_lengths(path: Path) -> None:
    plt = pyplot()
    runs = house_runs()
    figure, axes = plt.subplots(figsize=(7.5, 4.2))
    base = runs[0].mean_plies[0]
    for i, run in enumerate(runs):
        mean, half = run.mean_plies
        colour = OKABE_ITO["black"] if i == 0 else OKABE_ITO["green"]
        marker = "D" if i == 0 else "o"
        axes.errorbar([mean], [i], xerr=[half], fmt=marker, color=colour, capsize=3)
    axes.axvline(base, color=OKABE_ITO["black"], linestyle="--", linewidth=1)
    axes.set_yticks(range(len(runs)), [SWITCHES[r.name.removeprefix("house-")] for r in runs])
    axes.invert_yaxis()
    axes.set_xlabel("mean turns per game (bars: 95% interval; dashed: arizona as it is)")
    axes.set_title("Game length under each house rule (arizona, 4 players)")
    save(plt, figure, path)


def chart_house_margin(path: Path) -> None:
    plt = pyplot()
    runs = house_runs()
    figure, (left, right) = plt.subplots(1, 2, figsize=(8.5, 4.2), sharey=True)
    for i, run in enumerate(runs):
        value, low, high = run.rate(run.side0_wins)
        marker = "D" if i == 0 else "o"
        colour = OKABE_ITO["black"] if i == 0 else OKABE_ITO["purple"]
        left.errorbar(
            [value * 100],
            [i],
            xerr=[[(value - low) * 100], [(high - value) * 100]],
            fmt=marker,
            color=colour,
            capsize=3,
        )
        mean = statistics.fmean(run.margins)
        half = 1.96 * statistics.stdev(run.margins) / math.sqrt(run.games)
        right.errorbar([mean], [i], xerr=[half], fmt=marker, color=colour, capsize=3)
    left.set_yticks(range(len(runs)), [SWITCHES[r.name.removeprefix("house-")] for r in runs])
    left.invert_yaxis()
    left.set_xlabel("greedy's games won, % (95% interval)")
    right.set_xlabel("pegs home at the end: greedy minus random")
    right.axvline(
        statistics.fmean(runs[0].margins), color=OKABE_ITO["black"], linestyle="--", linewidth=1
    )
    figure.suptitle("Greedy against random under each house rule (arizona, 4 players)")
    save(plt, figure, path)


CHARTS = {
    "fairness": chart_fairness,
    "lengths": chart_lengths,
    "house-lengths": chart_house_lengths,
    "house-margin": chart_house_margin,
}


class ChartDirective(RstDirective):
    """A chart drawn from the results in :attr:`results` by one of :attr:`charts`, into
    ``_generated/FOLDER/``; its content is the caption (and the image's alt text)."""

    required_arguments = 1
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {}
    charts: ClassVar[dict[str, Callable[[Path], None]]]
    results: ClassVar[Path]
    folder: ClassVar[str]

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        if name not in self.charts:
            raise self.error(f"{self.name}: one of {', '.join(self.charts)}, not {name!r}")
        for path in self.results.glob("*.json"):
            self.env.note_dependency(str(path))
        self.env.note_dependency(sys.modules[type(self).__module__].__file__ or "")
        folder = Path(self.env.srcdir) / GENERATED / self.folder
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.svg"
        self.charts[name](path)
        caption = " ".join(line.strip() for line in self.content)
        return self.parse_rst(
            [
                f".. figure:: /{GENERATED}/{self.folder}/{path.name}",
                f"   :alt: {caption.replace('``', '')}",
                "   :width: 100%",
                "",
                f"   {caption}",
            ]
        )


class StudyChartDirective(ChartDirective):
    """``.. study-chart:: NAME``."""

    charts = CHARTS
    results = RESULTS
    folder = "study"


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("study-table", StudyTableDirective)
    app.add_directive("study-chart", StudyChartDirective)
    app.add_directive("study-commands", StudyCommandsDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
