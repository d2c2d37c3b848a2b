"""Every figure of docs/strength.rst ("How strong are the bots"), computed from the per-game records.

Usage: python docs/strength/figures.py [--results DIR] [--check]

Reads the results in ``docs/strength/results/`` game by game (never the
summaries the files also hold) and writes ``docs/strength/figures.inc``: the
substitutions the page's text uses (``|rr-medium-easy|``: "137 of 200 games,
68.5% [61.8%, 74.5%]") and its tables, each between a comment naming it and
one ending it, for the page to include. ``tests/test_strength.py`` computes the
file again from the records and fails if it differs from the one committed, so
a result changed in the data (one game's winner) and not on the page fails the
tests. With ``--check``, prints what differs and exits 1 instead of writing.

The results: ``rr-A-B.json``, a match of the round robin between the levels
(and random), ``A`` on side 0; ``expert-mcts-Np-Ts.json``, expert against mcts
with ``T`` CPU seconds a move each and ``N`` players; ``td-B.json``, the
learnt ``td`` bot (side 0) against ``B``; ``idea-NAME.json``, a match of
``docs/strength/ideas.py``. A run that was stopped before it played
all the games it was started for is committed as its ``--records`` file,
``NAME.jsonl``, instead of ``NAME.json``: the page counts the games it holds
and says how many were planned. Its games must be the run's first ones (games
0 to N - 1, as a run on one process plays them), so that where it stopped
chose none of them.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pegs_rules.bots.td import shipped_weights
from pegs_rules.ratings import Rating, bradley_terry
from pegs_rules.simulate import (
    GameResult,
    SimulationConfig,
    check_game,
    config_from_document,
    game_from_row,
    read_json,
    wilson,
)

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
FIGURES = HERE / "figures.inc"
LEVELS = ("random", "easy", "medium", "hard", "expert")
"""The bots of the round robin, weakest first."""
ANCHOR = ("medium", 1500.0)
"""The bot whose rating is fixed, and its rating."""


@dataclass(frozen=True)
class Match:
    """One results file, game by game: what the page shows of it."""

    name: str
    players: int
    sides: tuple[str, str]
    winners: tuple[int | None, ...]
    """The side that won each game (``None``: unfinished)."""
    plies: tuple[int, ...]
    thinking: dict[str, tuple[float, int, float | None]]
    """Per bot: CPU seconds thinking, moves, and wall-clock seconds thinking (if recorded)."""
    planned: int
    """The games the run was started for."""
    provenance: tuple[str, str, str, str] = ("not recorded",) * 4
    """The bots as configured, the run's seed and how it seeded the bots, the code that played
    the games, and whether they replay."""

    @property
    def games(self) -> int:
        """Finished games."""
        return sum(winner is not None for winner in self.winners)

    def wins(self, side: int = 0) -> int:
        return sum(winner == side for winner in self.winners)

    def played(self) -> str:
        """The games, and for a run stopped early how many it was started for."""
        if len(self.winners) < self.planned:
            return f"{self.games:,} (of {self.planned:,} planned)"
        return f"{self.games:,}"

    def record(self, side: int = 0) -> str:
        """Side ``side``'s wins, as the page gives them: "W of N games, P% [L%, H%]"."""
        text = f"{self.wins(side):,} of {self.games:,} games, {rate(self.wins(side), self.games)}"
        if len(self.winners) < self.planned:
            text += f" (the first {len(self.winners):,} of {self.planned:,} planned)"
        return text


def rate(wins: int, games: int) -> str:
    """A share of games and its 95% Wilson interval: "72.0% [67.4%, 76.2%]"."""
    low, high = wilson(wins, games)
    return f"{wins / games:.1%} [{low:.1%}, {high:.1%}]"


def stopped_run(path: Path) -> tuple[SimulationConfig, tuple[GameResult, ...]]:
    """The config and the games of a ``pegs simulate --records`` file, by index; ``ValueError``
    unless they are the run's first games."""
    lines = path.read_text(encoding="utf-8").splitlines()
    config = config_from_document(json.loads(lines[0])["config"])
    games = sorted((game_from_row(json.loads(line)) for line in lines[1:]), key=_index)
    if [game.index for game in games] != list(range(len(games))):
        raise ValueError(f"{path}: not the first games of its run")
    for game in games:
        check_game(config, game)
    return config, tuple(games)


def _index(game: GameResult) -> int:
    return game.index


def simulation(path: Path) -> Match:
    """A file of ``pegs simulate --json`` (or ``--records``: see the module docstring), game by
    game."""
    made: dict[str, object] = {}
    if path.suffix == ".jsonl":
        config, games = stopped_run(path)
    else:
        run = read_json(path)
        config, games = run.config, run.games
        made = json.loads(path.read_text(encoding="utf-8")).get("provenance", {})
    cpu: dict[str, float] = {}
    moves: dict[str, int] = {}
    wall: dict[str, float | None] = {}
    for game in games:
        for seat, bot in enumerate(game.seats):
            cpu[bot] = cpu.get(bot, 0.0) + game.think_seconds[seat]
            moves[bot] = moves.get(bot, 0) + game.moves[seat]
            clock = wall.get(bot, 0.0)
            timed = game.think_wall
            wall[bot] = None if clock is None or timed is None else clock + timed[seat]
    return Match(
        name=path.stem,
        players=config.players,
        sides=(config.side(0), config.side(1)),
        winners=tuple(game.winner_side for game in games),
        plies=tuple(game.plies for game in games if game.winner is not None),
        thinking={bot: (cpu[bot], moves[bot], wall[bot]) for bot in cpu},
        planned=config.games,
        provenance=(
            ",".join(config.bots),
            f"{config.seed}, {config.seeding}",
            played_by(made),
            replays(made),
        ),
    )


def played_by(made: dict[str, object]) -> str:
    """The code that played a run, as its provenance says, commits shortened to 7 digits."""
    names = made.get("played_by")
    if not isinstance(names, list) or not names:
        return "not recorded"
    shown = [
        re.sub(r"\b([0-9a-f]{7})[0-9a-f]{33}\b", r"\1", str(name)).split(";")[0] for name in names
    ]
    return "; ".join(shown)


def replays(made: dict[str, object]) -> str:
    """Whether a run's games replay, as its provenance says."""
    if "replayable" not in made:
        return "not recorded"
    return "yes" if made["replayable"] else "no: a time budget"


def idea(path: Path) -> Match:
    """A file of ``docs/strength/ideas.py``, game by game."""
    data = json.loads(path.read_text(encoding="utf-8"))
    games = data["games"]
    sides = (data["sides"][0], data["sides"][1])
    return Match(
        name=path.stem,
        players=data["players"],
        sides=sides,
        winners=tuple(game["winner_side"] for game in games),
        plies=tuple(game["plies"] for game in games),
        thinking={
            side: (
                sum(game["think_seconds"][s] for game in games),
                sum(game["moves"][s] for game in games),
                None,
            )
            for s, side in enumerate(sides)
        },
        planned=len(games),
    )


@dataclass(frozen=True)
class Results:
    """Every match the page draws on."""

    round_robin: dict[tuple[str, str], Match]
    """By (side 0's bot, side 1's), stronger level first."""
    expert: list[Match]
    """Expert against mcts, by players then thinking time."""
    ideas: list[Match]
    td: list[Match]
    """The td bot against the levels, weakest first."""

    @classmethod
    def load(cls, folder: Path = RESULTS) -> Results:
        runs = {path.stem: path for path in folder.glob("*.json")}
        for path in folder.glob("*.jsonl"):
            if path.stem in runs:
                raise ValueError(f"{folder}: both {path.name} and {path.stem}.json")
            runs[path.stem] = path
        round_robin = {}
        for i, weak in enumerate(LEVELS):
            for strong in LEVELS[i + 1 :]:
                if f"rr-{strong}-{weak}" in runs:
                    round_robin[strong, weak] = simulation(runs[f"rr-{strong}-{weak}"])
        expert = [simulation(path) for name, path in runs.items() if name.startswith("expert-")]
        expert.sort(key=lambda match: (match.players, seconds(match)))
        ideas = [idea(path) for path in sorted(folder.glob("idea-*.json"))]
        td = [simulation(runs[f"td-{level}"]) for level in LEVELS if f"td-{level}" in runs]
        return cls(round_robin, expert, ideas, td)

    def ratings(self) -> dict[str, Rating]:
        """Bradley-Terry ratings of the round robin's bots (see :mod:`pegs_rules.ratings`)."""
        records = {pair: (match.wins(0), match.wins(1)) for pair, match in self.round_robin.items()}
        return bradley_terry(records, ANCHOR)

    def td_rating(self) -> Rating:
        """The td bot's rating on the same scale: fitted to the round robin's games and its
        own together (:meth:`ratings` leaves its games out)."""
        records = {pair: (match.wins(0), match.wins(1)) for pair, match in self.round_robin.items()}
        for match in self.td:
            records["td", match.sides[1]] = (match.wins(0), match.wins(1))
        return bradley_terry(records, ANCHOR)["td"]

    def thinking(self) -> dict[str, tuple[float, float | None]]:
        """Per round-robin bot, its mean CPU seconds a move over all its games, and its mean
        wall-clock seconds a move over the runs that recorded them in every game."""
        totals: dict[str, list[float]] = {}
        clock: dict[str, list[float]] = {}
        for match in self.round_robin.values():
            for bot, (cpu, moves, wall) in match.thinking.items():
                total = totals.setdefault(bot, [0.0, 0.0])
                total[0] += cpu
                total[1] += moves
                if wall is not None:
                    timed = clock.setdefault(bot, [0.0, 0.0])
                    timed[0] += wall
                    timed[1] += moves
        return {
            bot: (cpu / moves, clock[bot][0] / clock[bot][1] if bot in clock else None)
            for bot, (cpu, moves) in totals.items()
        }


def seconds(match: Match) -> float:
    """The thinking time a move of an expert-against-mcts match, from its bot names."""
    return float(match.sides[0].partition(":")[2].rstrip("s"))


def milliseconds(value: float) -> str:
    return f"{value * 1000:.1f} ms" if value < 0.1 else f"{value * 1000:,.0f} ms"


def mean_cpu(match: Match, bot: str) -> float:
    cpu, moves, _ = match.thinking[bot]
    return cpu / moves


def list_table(name: str, head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A reST table with a header row, between the comments that name it for the page."""
    if not rows:
        return [f".. table {name}", "", "No games yet.", "", f".. end of table {name}", ""]
    lines = [f".. table {name}", "", ".. list-table::", "   :header-rows: 1", ""]
    for row in [head, *rows]:
        lines.append(f"   * - {row[0]}")
        lines += [f"     - {cell}" for cell in row[1:]]
    return [*lines, "", f".. end of table {name}", ""]


def figures(results: Results) -> str:
    """The text of ``figures.inc`` (see the module docstring)."""
    ratings = results.ratings()
    thinking = results.thinking()
    rr = results.round_robin
    lines = [
        ".. The figures of docs/strength.rst, written by docs/strength/figures.py from the",
        "   per-game records in docs/strength/results/. Do not edit: run the script.",
        "",
        ".. substitutions",
        "",
    ]
    subs = {name: match.record() for name, match in _named(results).items()}
    for bot, rating in ratings.items():
        subs[f"rating-{bot}"] = _rating(rating)
    for bot, (cpu, _) in thinking.items():
        subs[f"cpu-{bot}"] = milliseconds(cpu)
    for match in [*results.expert, *results.td]:
        subs[f"{match.name}-cpu"] = " and ".join(
            milliseconds(mean_cpu(match, bot)) for bot in match.sides
        )
    subs |= td_training()
    if results.td:
        subs["rating-td"] = _rating(results.td_rating())
    subs["levels-in-order"] = in_order(rr)
    lines += [f".. |{name}| replace:: {text}" for name, text in sorted(subs.items())]
    lines += ["", ".. end of substitutions", ""]

    lines += list_table(
        "levels",
        ["stronger", "weaker", "games", "the stronger's team won [95%]", "lower bound above 50%"],
        [
            [
                f"``{strong}``",
                f"``{weak}``",
                rr[strong, weak].played(),
                f"{rr[strong, weak].wins():,}: {rate(rr[strong, weak].wins(), rr[strong, weak].games)}",
                "yes" if proven(rr[strong, weak]) else "no",
            ]
            for strong, weak in NEIGHBOURS
            if (strong, weak) in rr
        ],
    )
    lines += list_table(
        "ratings",
        ["bot", "rating [95%]", "games", "CPU a move", "on the clock"],
        [
            [
                f"``{bot}``",
                _rating(ratings[bot]),
                f"{ratings[bot].games:,}",
                milliseconds(thinking[bot][0]),
                _clock(thinking[bot][1]),
            ]
            for bot in reversed(LEVELS)
            if bot in ratings
        ],
    )
    lines += list_table(
        "head-to-head",
        ["match", "games", "the first bot's team won [95%]", "turns a game"],
        [
            [
                f"``{strong}`` v ``{weak}``",
                match.played(),
                f"{match.wins():,}: {rate(match.wins(), match.games)}",
                f"{sum(match.plies) / len(match.plies):.0f}",
            ]
            for (strong, weak), match in rr.items()
        ],
    )
    lines += list_table(
        "expert",
        ["players", "CPU a move", "games", "the expert's team won [95%]", "expert", "mcts"],
        [
            [
                str(match.players),
                f"{seconds(match):g} s",
                match.played(),
                f"{match.wins():,}: {rate(match.wins(), match.games)}",
                milliseconds(mean_cpu(match, match.sides[0])),
                milliseconds(mean_cpu(match, match.sides[1])),
            ]
            for match in results.expert
        ],
    )
    lines += list_table(
        "td",
        ["against", "games", "td's team won [95%]", "CPU a move (td, the other)", "turns a game"],
        [
            [
                f"``{match.sides[1]}``",
                match.played(),
                f"{match.wins():,}: {rate(match.wins(), match.games)}",
                " and ".join(milliseconds(mean_cpu(match, side)) for side in match.sides),
                f"{sum(match.plies) / len(match.plies):.0f}",
            ]
            for match in results.td
        ],
    )
    lines += list_table(
        "records",
        ["run", "bots", "games", "seed, bots seeded", "played by", "replays"],
        [
            [
                f"``{match.name}``",
                f"``{match.provenance[0]}``",
                match.played(),
                *match.provenance[1:],
            ]
            for match in [*rr.values(), *results.expert, *results.td]
        ],
    )
    lines += list_table(
        "ideas",
        ["match", "games", "the first side won [95%]", "CPU a move"],
        [
            [
                f"{match.sides[0]} v {match.sides[1]}",
                f"{match.games:,}",
                f"{match.wins():,}: {rate(match.wins(), match.games)}",
                " / ".join(milliseconds(mean_cpu(match, side)) for side in match.sides),
            ]
            for match in results.ideas
        ],
    )
    return "\n".join(lines)


def td_training() -> dict[str, str]:
    """What the shipped weights of the td bot record of their training, for the page."""
    training = shipped_weights().training
    first, last = training["deals"]
    won, deals = training["test"]["won"], training["test"]["deals"]
    return {
        "td-training": (
            f"{training['games']:,} games against two ``medium`` bots, {training['players']} "
            f"players, on the deals of seeds {first:,} to {last:,} "
            f"(``{training['command']}``, run by "
            f"{played_by({'played_by': [training['trained_by']]})})"
        ),
        "td-test": f"{won:,} of {deals:,} games, {rate(won, deals)}",
    }


NEIGHBOURS = tuple((LEVELS[i + 1], LEVELS[i]) for i in range(1, len(LEVELS) - 1))
"""The pairs of neighbouring levels, stronger first: (medium, easy), (hard, medium), ..."""


def proven(match: Match) -> bool:
    """Whether the 95% interval of side 0's share of ``match`` lies above one half."""
    return wilson(match.wins(), match.games)[0] > 0.5


def in_order(rr: dict[tuple[str, str], Match]) -> str:
    """What the round robin shows of the levels' order, in a sentence for the page."""
    shown = [pair for pair in NEIGHBOURS if pair in rr and proven(rr[pair])]
    if len(shown) == len(NEIGHBOURS):
        return "Each level beats the one below it"
    named = [f"``{strong}`` over ``{weak}``" for strong, weak in NEIGHBOURS]
    done = [name for name, pair in zip(named, NEIGHBOURS, strict=True) if pair in shown]
    left = [name for name, pair in zip(named, NEIGHBOURS, strict=True) if pair not in shown]
    return (
        f"The games show {' and '.join(done) or 'no pair of levels in order'}; "
        f"{' and '.join(left)} not yet"
    )


def _named(results: Results) -> dict[str, Match]:
    """Every match by its file's name."""
    matches = [*results.round_robin.values(), *results.expert, *results.ideas, *results.td]
    return {match.name: match for match in matches}


def _rating(rating: Rating) -> str:
    if rating.high <= rating.low:
        return f"{rating.elo:.0f} (fixed)"
    return f"{rating.elo:.0f} [{rating.low:.0f}, {rating.high:.0f}]"


def _clock(value: float | None) -> str:
    return "not recorded" if value is None else milliseconds(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--check", action="store_true", help="compare with figures.inc instead")
    args = parser.parse_args()
    text = figures(Results.load(args.results))
    if not args.check:
        FIGURES.write_text(text, encoding="utf-8")
        return
    old = FIGURES.read_text(encoding="utf-8")
    diff = list(
        difflib.unified_diff(
            old.splitlines(), text.splitlines(), "figures.inc", "the records", lineterm=""
        )
    )
    print("\n".join(diff) or "figures.inc is what the records give")
    sys.exit(1 if diff else 0)


if __name__ == "__main__":
    main()
