"""Many games between bots, on any executor: :func:`simulate`.

A :class:`SimulationConfig` names the games to play: how many, the seat
count, the bots (assigned to seats cyclically: with ``("mcts", "greedy")`` in
a 4-player game seats 0 and 2, team 0, get ``mcts`` and seats 1 and 3 get
``greedy``), the seed every game's deal and every bot's generator are drawn
from, and the rules. With ``swap`` (the default) the games come in pairs
dealt from the same seed, the second with every bot moved one seat on, so
that each line-up plays each deal from both teams' seats and seat order
cannot favour either.

Each game is played by :func:`play_game`, a plain module-level function of
the (picklable) config and the game's number, so the games can run wherever
an executor sends them. :func:`simulate` accepts any
:class:`concurrent.futures.Executor`:

* nothing (``executor=None``): the games run one after another in this process;
* ``concurrent.futures.ProcessPoolExecutor(4)``: on four local processes
  (what ``pegs simulate --workers 4`` does);
* ``ThreadPoolExecutor``: in threads (no faster for this pure-Python code,
  but handy in tests);
* a cluster executor, for example Dask's: with
  ``client = distributed.Client(address)``, ``simulate(config,
  executor=client.get_executor())`` sends each game to the cluster's workers
  (which need ``pegs-rules`` installed). Any executor whose ``submit``
  returns :class:`concurrent.futures.Future` objects will do.

The results come back in game order whatever the executor, and depend only
on the config: the same config gives the same games and winners on one
process or many (time limits aside: a bot given seconds rather than
iterations plays as far as the machine lets it).

>>> config = SimulationConfig(games=4, bots=("greedy", "random"), seed=1)
>>> result = simulate(config)
>>> [game.seats for game in result.games[:2]]
[('greedy', 'random', 'greedy', 'random'), ('random', 'greedy', 'random', 'greedy')]
>>> result.summary.side_wins
(4, 0)
>>> [round(bound, 3) for bound in wilson(8, 10)]  # a 95% interval for 8 wins in 10
[0.49, 0.943]
"""

from __future__ import annotations

import csv
import functools
import hashlib
import json
import math
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

from pegs_rules.board import PEGS_PER_SEAT
from pegs_rules.bots import decide, make_bot, observers, take_turn, tell_start, thinking_time
from pegs_rules.rules import ARIZONA, PRESETS, Rules, find_preset, rule_text, with_rule
from pegs_rules.seeding import SEEDINGS, derive_seed
from pegs_rules.state import new_game

__all__ = [
    "DEALS_PER_SEED",
    "GameResult",
    "ProgressBar",
    "RecordFile",
    "Simulation",
    "SimulationConfig",
    "Summary",
    "check_game",
    "config_document",
    "config_from_document",
    "game_from_row",
    "not_replayable",
    "play_game",
    "played_by",
    "provenance",
    "read_json",
    "replay_differences",
    "report",
    "rule_changes",
    "simulate",
    "wilson",
    "write_csv",
    "write_json",
]

DEALS_PER_SEED = 1_000_000
"""The most deals a run plays; run ``seed`` deals from seeds ``seed * DEALS_PER_SEED`` on."""
Progress = Callable[[int, int], None]
"""Called with (games done, games in all) as games finish."""


@dataclass(frozen=True)
class SimulationConfig:
    """The games :func:`simulate` plays.

    Attributes:
        games: how many games.
        players: seats per game.
        bots: bot names (see :func:`~pegs_rules.bots.make_bot`), given to the
            seats in turn: seat ``s`` gets ``bots[s % len(bots)]``.
        seed: all chance derives from it; game ``i`` is dealt from
            ``seed * 1_000_000 + deal`` where ``deal`` is ``i`` (or ``i // 2``
            with ``swap``), and each game's bots get seeds of their own
            (:meth:`bot_seeds`), which tell them nothing of the deal. A run
            whose bots are not to be trusted (a competition) takes a secret
            seed (``secrets.randbits(128)``), published after the games: a small
            one lets anyone find the deals by trying seeds one by one. No
            two games of a run share a deal (the second of a swapped pair
            aside), nor do two runs with different seeds: a run holds at most
            :data:`DEALS_PER_SEED` deals.
        swap: play each deal twice, the second time with every bot one seat on
            (the two teams' line-ups trade places).
        rules: the rules in force.
        max_turns: a game still going after this many turns counts as unfinished.
        seeding: how each game's bots get their seeds (:meth:`bot_seeds`): ``keyed``
            (the default) or ``arithmetic``, which only replays runs recorded before
            ``keyed`` came (see :data:`~pegs_rules.seeding.SEEDINGS`).
    """

    games: int = 100
    players: int = 4
    bots: tuple[str, ...] = ("greedy", "random")
    seed: int = 0
    swap: bool = True
    rules: Rules = ARIZONA
    max_turns: int = 20_000
    seeding: str = "keyed"

    def __post_init__(self) -> None:
        if isinstance(self.bots, (list, str)):
            object.__setattr__(
                self,
                "bots",
                tuple(self.bots.split(",")) if isinstance(self.bots, str) else tuple(self.bots),
            )
        if not isinstance(self.games, int) or self.games < 0:
            raise ValueError(f"games: a whole number of at least 0, not {self.games!r}")
        if self.players not in self.rules.player_counts:
            raise ValueError(
                f"players: the rules allow {self.rules.player_counts}, not {self.players!r}"
            )
        if not self.bots:
            raise ValueError("bots: name at least one bot")
        for name in self.bots:
            make_bot(name)  # raises ValueError for an unknown name
        if self.max_turns < 1:
            raise ValueError(f"max_turns: at least 1, not {self.max_turns!r}")
        if self.seeding not in SEEDINGS:
            raise ValueError(f"seeding: one of {', '.join(SEEDINGS)}, not {self.seeding!r}")
        if self.games > DEALS_PER_SEED * (2 if self.swap else 1):
            raise ValueError(
                f"games: at most {DEALS_PER_SEED:,} deals a seed (twice as many games with "
                "swap), so that no two seeds deal the same game; run more seeds"
            )

    def game_seed(self, index: int) -> int:
        """The seed game ``index`` is dealt from."""
        return self.seed * DEALS_PER_SEED + (index // 2 if self.swap else index)

    def bot_seeds(self, index: int) -> tuple[int, ...]:
        """The seed of each seat's bot in game ``index``.

        ``keyed``: :func:`~pegs_rules.seeding.derive_seed` keyed with the game's deal
        seed, over ``simulate/bot``, whether the game is the swapped one of its pair and
        the seat, so that no seed tells its bot anything of the deal. ``arithmetic``:
        ``(deal seed * 2 + swapped) * 16 + seat``, from which a bot can work out the deal:
        kept to replay the runs recorded with it, never for agents that are not trusted.
        """
        seed, swapped = self.game_seed(index), int(self.swapped(index))
        if self.seeding == "arithmetic":
            return tuple((seed * 2 + swapped) * 16 + seat for seat in range(self.players))
        return tuple(
            derive_seed(seed, "simulate", "bot", f"swapped {swapped}", f"seat {seat}")
            for seat in range(self.players)
        )

    def swapped(self, index: int) -> bool:
        """Whether game ``index`` has the bots one seat on."""
        return self.swap and index % 2 == 1

    def seats(self, index: int) -> tuple[str, ...]:
        """The bot at each seat of game ``index``."""
        shift = 1 if self.swapped(index) else 0
        return tuple(
            self.bots[(s + shift) % self.players % len(self.bots)] for s in range(self.players)
        )

    def side(self, side: int) -> str:
        """The line-up of side 0 (the even seats when not swapped) or 1, as text."""
        names = [self.bots[s % len(self.bots)] for s in range(side, self.players, 2)]
        return names[0] if len(set(names)) == 1 else "+".join(names)


@dataclass(frozen=True)
class GameResult:
    """One finished (or abandoned) game.

    Attributes:
        index: the game's number, from 0.
        seed: the seed it was dealt from.
        seats: the bot at each seat.
        swapped: whether the bots sat one seat on (side 0 held the odd seats).
        first_seat: the seat that acted first.
        winner: the winning team, or ``None`` if the game reached ``max_turns``.
        plies: turns taken.
        seconds: wall time of the whole game.
        think_seconds: per seat, the time its bot spent choosing: CPU time of the thread
            it thought in (:data:`~pegs_rules.bots.thinking_time`), which other work on the
            machine does not inflate.
        think_max: per seat, its bot's longest choice, in seconds of the same clock.
        moves: per seat, how many moves its bot chose.
        home: per team, how many of its pegs were home at the end (the
            loser's count says how close the game was).
        think_wall: per seat, the wall-clock time its bot spent choosing (what a person
            waiting for the bot sees; on a busy machine, more than ``think_seconds``);
            ``None`` in records written before simulations kept it.
        bot_seeds: per seat, the seed its bot was made with
            (:meth:`SimulationConfig.bot_seeds`); ``None`` in records written before
            simulations kept them.
        moves_sha256: the SHA-256 of the game's moves in notation, one a line (each
            ending in a newline), so that a replay finds any move that changed; ``None``
            in records written before simulations kept it.
        played_by: the code that played the game (:func:`played_by`); ``None`` in
            records written before simulations kept it.
    """

    index: int
    seed: int
    seats: tuple[str, ...]
    swapped: bool
    first_seat: int
    winner: int | None
    plies: int
    seconds: float
    think_seconds: tuple[float, ...]
    think_max: tuple[float, ...]
    moves: tuple[int, ...]
    home: tuple[int, int]
    think_wall: tuple[float, ...] | None = None
    bot_seeds: tuple[int, ...] | None = None
    moves_sha256: str | None = None
    played_by: str | None = None

    @property
    def first_team(self) -> int:
        """The team of the seat that acted first."""
        return self.first_seat % 2

    def team_of_side(self, side: int) -> int:
        """The team that side ``side`` played as."""
        return side ^ self.swapped

    @property
    def winner_side(self) -> int | None:
        """The side that won (0 or 1), or ``None``."""
        return None if self.winner is None else self.winner ^ self.swapped


def play_game(config: SimulationConfig, index: int) -> GameResult:
    """Play game ``index`` of ``config`` to the end (or ``max_turns``)."""
    seed = config.game_seed(index)
    seats = config.seats(index)
    state = new_game(config.players, seed=seed, rules=config.rules)
    bot_seeds = config.bot_seeds(index)
    bots = [make_bot(name, bot_seeds[seat]) for seat, name in enumerate(seats)]
    digest = hashlib.sha256()
    watching = observers(bots)
    tell_start(watching, state)
    first = state.turn
    think = [0.0] * config.players
    longest = [0.0] * config.players
    wall = [0.0] * config.players
    moves = [0] * config.players
    began = time.perf_counter()
    while state.winner is None and state.ply < config.max_turns:
        seat = state.turn
        start, start_wall = thinking_time(), time.perf_counter()
        move = decide(bots[seat], state)
        spent = thinking_time() - start
        wall[seat] += time.perf_counter() - start_wall
        think[seat] += spent
        longest[seat] = max(longest[seat], spent)
        moves[seat] += 1
        digest.update(f"{move}\n".encode())
        state = take_turn(watching, state, move)
    return GameResult(
        index=index,
        seed=seed,
        seats=seats,
        swapped=config.swapped(index),
        first_seat=first,
        winner=state.winner,
        plies=state.ply,
        seconds=time.perf_counter() - began,
        think_seconds=tuple(think),
        think_max=tuple(longest),
        think_wall=tuple(wall),
        moves=tuple(moves),
        home=(state.team_pegs_home(0), state.team_pegs_home(1)),
        bot_seeds=bot_seeds,
        moves_sha256=digest.hexdigest(),
        played_by=played_by(),
    )


@functools.lru_cache(maxsize=1)
def played_by() -> str:
    """The code running here, as a game's record names it: ``pegs-rules VERSION``, and the
    git commit when the package is imported from a checkout (``+changes`` if its ``src``
    differs from the commit), e.g. ``pegs-rules 0.2.0 commit 285be55…``."""
    from pegs_rules import __version__

    name = f"pegs-rules {__version__}"
    root = Path(__file__).resolve().parents[2]
    if not (root / "pyproject.toml").exists() or not (root / ".git").exists():
        return name
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
        changes = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--", "src"],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return name
    return f"{name} commit {commit}{'+changes' if changes else ''}"


def not_replayable(config: SimulationConfig) -> str | None:
    """Why the games of ``config`` cannot be replayed move for move, or ``None`` if they can:
    a bot given seconds rather than playouts plays as far as the processor lets it."""
    timed = [name for name in config.bots if name.partition(":")[2].endswith("s")]
    if not timed:
        return None
    return (
        f"{', '.join(timed)} think for a time, not a number of playouts: how far a search "
        "gets depends on the machine and its load, so a replay plays other moves"
    )


def provenance(simulation: Simulation) -> dict[str, Any]:
    """What :func:`write_json` records of where a run's games come from: the code that
    played them (every distinct :func:`played_by` of its games), the code that wrote the
    file, the Python and platform it ran on, how the bots were seeded, and whether the
    games replay move for move (and if not, why)."""
    why = not_replayable(simulation.config)
    return {
        "written_by": played_by(),
        "played_by": sorted({g.played_by for g in simulation.games if g.played_by}),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "seeding": simulation.config.seeding,
        "replayable": why is None,
        "not_replayable_because": why,
    }


def replay_differences(config: SimulationConfig, game: GameResult) -> list[str]:
    """Play game ``game.index`` of ``config`` again and list what differs from ``game``'s
    record: its deal, seats, bot seeds, first seat, winner, length, pegs home, moves per
    seat and, where the record keeps it, the digest of every move. Empty if the replay
    agrees (only meaningful when :func:`not_replayable` is ``None``)."""
    again = play_game(config, game.index)
    fields = ["seed", "seats", "swapped", "first_seat", "winner", "plies", "home", "moves"]
    fields += [name for name in ("bot_seeds", "moves_sha256") if getattr(game, name) is not None]
    return [
        f"game {game.index}: {name} recorded {getattr(game, name)!r}, replayed "
        f"{getattr(again, name)!r}"
        for name in fields
        if getattr(game, name) != getattr(again, name)
    ]


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% with the default ``z``)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    factor = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / factor
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / factor
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class BotTiming:
    """How long one bot took to choose: ``moves`` choices, ``seconds`` of CPU time in all,
    the ``longest`` choice (CPU), and ``wall`` seconds on the clock in all (``None`` if a
    game's record did not keep it)."""

    moves: int
    seconds: float
    longest: float
    wall: float | None = 0.0

    @property
    def mean(self) -> float:
        """CPU seconds a move."""
        return self.seconds / self.moves if self.moves else 0.0

    @property
    def mean_wall(self) -> float | None:
        """Wall-clock seconds a move, if known."""
        if self.wall is None:
            return None
        return self.wall / self.moves if self.moves else 0.0


@dataclass(frozen=True)
class Summary:
    """What a set of games shows.

    Attributes:
        games: games played.
        unfinished: games that reached ``max_turns`` without a winner.
        team_wins: wins of team 0 (even seats) and team 1 (odd seats).
        side_wins: wins of side 0 and side 1 (see :meth:`SimulationConfig.side`).
        sides: the two sides' line-ups, as text.
        first_seat_wins: games won by the team of the seat that acted first
            (with ``swap``, both games of a pair have the same first seat, so
            when one side wins every game this is exactly half: the measure
            means most between bots of equal strength).
        mean_plies: the average game length in turns (finished games).
        timing: per bot name, how long it took to choose.
    """

    games: int
    unfinished: int
    team_wins: tuple[int, int]
    side_wins: tuple[int, int]
    sides: tuple[str, str]
    first_seat_wins: int
    mean_plies: float
    min_plies: int
    max_plies: int
    timing: dict[str, BotTiming] = field(default_factory=dict)

    @property
    def finished(self) -> int:
        return self.games - self.unfinished


def summarize(config: SimulationConfig, games: Sequence[GameResult]) -> Summary:
    """The :class:`Summary` of ``games``, played under ``config``."""
    done = [g for g in games if g.winner is not None]
    timing: dict[str, BotTiming] = {}
    for game in games:
        for seat, name in enumerate(game.seats):
            old = timing.get(name, BotTiming(0, 0.0, 0.0))
            timing[name] = BotTiming(
                old.moves + game.moves[seat],
                old.seconds + game.think_seconds[seat],
                max(old.longest, game.think_max[seat]),
                None
                if old.wall is None or game.think_wall is None
                else old.wall + game.think_wall[seat],
            )
    plies = [g.plies for g in done]
    return Summary(
        games=len(games),
        unfinished=len(games) - len(done),
        team_wins=(sum(g.winner == 0 for g in done), sum(g.winner == 1 for g in done)),
        side_wins=(sum(g.winner_side == 0 for g in done), sum(g.winner_side == 1 for g in done)),
        sides=(config.side(0), config.side(1)),
        first_seat_wins=sum(g.winner == g.first_team for g in done),
        mean_plies=sum(plies) / len(plies) if plies else 0.0,
        min_plies=min(plies, default=0),
        max_plies=max(plies, default=0),
        timing=timing,
    )


@dataclass(frozen=True)
class Simulation:
    """The outcome of :func:`simulate`: the config, every game in order, the summary, the time."""

    config: SimulationConfig
    games: tuple[GameResult, ...]
    summary: Summary
    seconds: float


def simulate(
    config: SimulationConfig,
    *,
    executor: Executor | None = None,
    progress: Progress | None = None,
    played: Sequence[GameResult] = (),
    on_result: Callable[[GameResult], None] | None = None,
) -> Simulation:
    """Play every game of ``config``, on ``executor`` if given (see the module docstring).

    ``played`` holds games of ``config`` already played (by an earlier run that
    was stopped: see :class:`RecordFile`); they are kept, not played again.
    ``on_result`` is called with each game this call plays as soon as it finishes.
    """
    began = time.perf_counter()
    total = config.games
    results = [game for game in played if game.index < total]
    todo = sorted(set(range(total)) - {game.index for game in results})

    def finished(game: GameResult) -> None:
        results.append(game)
        if on_result is not None:
            on_result(game)
        if progress is not None:
            progress(len(results), total)

    if progress is not None:
        progress(len(results), total)
    if executor is None:
        for index in todo:
            finished(play_game(config, index))
    else:
        futures = [executor.submit(play_game, config, index) for index in todo]
        try:
            for future in as_completed(futures):
                finished(future.result())
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    results.sort(key=lambda game: game.index)
    return Simulation(
        config, tuple(results), summarize(config, results), time.perf_counter() - began
    )


class ProgressBar:
    """A plain-text progress bar for :func:`simulate`'s ``progress``, drawn on ``stream``.

    On a terminal the bar is redrawn in place; otherwise a line is written at
    every tenth of the way, and at least once a minute.
    """

    def __init__(self, stream: IO[str] | None = None, width: int = 30) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.width = width
        self.began = time.perf_counter()
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.shown = -1
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.perf_counter() - self.began
        fraction = done / total if total else 1.0
        if not self.tty:
            tenth = int(fraction * 10)
            if tenth == self.shown and elapsed - self.last < 60:
                return
            self.shown = tenth
            self.last = elapsed
        filled = round(fraction * self.width)
        bar = "#" * filled + "-" * (self.width - filled)
        eta = f", {elapsed / done * (total - done):.0f} s left" if 0 < done < total else ""
        line = f"[{bar}] {done}/{total} games, {elapsed:.0f} s{eta}"
        if self.tty:
            self.stream.write("\r" + line + ("\n" if done >= total else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def _percent(wins: int, n: int) -> str:
    low, high = wilson(wins, n)
    rate = wins / n if n else 0.0
    return f"{wins:5d}  {rate:6.1%}  [{low:6.1%}, {high:6.1%}]"


def report(simulation: Simulation) -> str:
    """The summary as text: wins per side and per team with 95% Wilson intervals, and more."""
    config, s = simulation.config, simulation.summary
    n = s.finished
    swap = "swapped every other game" if config.swap else "not swapped"
    changes = "".join(f" {field}={value}" for field, value in rule_changes(config.rules).items())
    lines = [
        f"{s.games} games, {config.players} players, rules {config.rules.name}{changes}, "
        f"bots {','.join(config.bots)} ({swap}), seed {config.seed}, "
        f"{simulation.seconds:.1f} s",
        "",
        f"{'':34}{'wins':>5}  {'rate':>6}  95% interval (Wilson)",
    ]
    for side in (0, 1):
        label = f"side {side}: {s.sides[side]}"
        lines.append(f"{label:<34}{_percent(s.side_wins[side], n)}")
    for team in (0, 1):
        label = f"team {team} ({'even' if team == 0 else 'odd'} seats)"
        lines.append(f"{label:<34}{_percent(s.team_wins[team], n)}")
    lines.append(f"{'team of the first seat to act':<34}{_percent(s.first_seat_wins, n)}")
    if s.unfinished:
        lines.append(f"unfinished (over {config.max_turns} turns): {s.unfinished}")
    lines.append("")
    lines.append(
        f"game length: {s.mean_plies:.1f} turns on average "
        f"({s.mean_plies / config.players:.1f} rounds; shortest {s.min_plies}, longest {s.max_plies})"
    )
    for name, t in sorted(s.timing.items()):
        wall = "" if t.mean_wall is None else f" ({t.mean_wall * 1000:.1f} ms on the clock)"
        lines.append(
            f"bot {name}: {t.mean * 1000:.1f} ms (CPU) a move on average{wall}, "
            f"longest {t.longest:.3f} s ({t.moves} moves)"
        )
    return "\n".join(lines)


def _row(game: GameResult) -> dict[str, Any]:
    data = asdict(game)
    data["seconds"] = round(game.seconds, 6)
    data["think_seconds"] = [round(t, 6) for t in game.think_seconds]
    data["think_max"] = [round(t, 6) for t in game.think_max]
    if game.think_wall is not None:
        data["think_wall"] = [round(t, 6) for t in game.think_wall]
    data["seats"] = list(game.seats)
    for name in ("bot_seeds", "moves_sha256", "played_by"):
        if data[name] is None:  # a record written before simulations kept it
            del data[name]
    if game.bot_seeds is not None:
        data["bot_seeds"] = list(game.bot_seeds)
    data["first_team"] = game.first_team
    data["winner_side"] = game.winner_side
    return data


def _rounded(interval: tuple[float, float]) -> list[float]:
    return [round(bound, 6) for bound in interval]


def rule_changes(rules: Rules) -> dict[str, str]:
    """The fields of ``rules`` that differ from its preset, as text (see :func:`~pegs_rules.rules.rule_text`).

    >>> from dataclasses import replace
    >>> rule_changes(replace(ARIZONA, two_swap=True))
    {'two_swap': 'true'}
    """
    base = PRESETS.get(rules.name, ARIZONA)
    return {
        name: rule_text(rules, name)
        for name in rules.__dataclass_fields__
        if getattr(rules, name) != getattr(base, name)
    }


def config_document(config: SimulationConfig) -> dict[str, Any]:
    """``config`` as :func:`write_json` writes it (and :func:`config_from_document` reads it)."""
    return {
        "games": config.games,
        "players": config.players,
        "bots": list(config.bots),
        "seed": config.seed,
        "swap": config.swap,
        "rules": config.rules.name,
        "rule_changes": rule_changes(config.rules),
        "max_turns": config.max_turns,
        "seeding": config.seeding,
    }


def config_from_document(document: Mapping[str, Any]) -> SimulationConfig:
    """The :class:`SimulationConfig` that :func:`config_document` wrote as ``document``.

    A document without ``seeding`` was written before runs named it: its bots were
    seeded ``arithmetic``.

    Raises :class:`ValueError` for a document that names no valid config.
    """
    try:
        rules = find_preset(document["rules"])
        for name, value in document["rule_changes"].items():
            rules = with_rule(rules, name, value)
        return SimulationConfig(
            games=document["games"],
            players=document["players"],
            bots=tuple(document["bots"]),
            seed=document["seed"],
            swap=document["swap"],
            rules=rules,
            max_turns=document["max_turns"],
            seeding=document.get("seeding", "arithmetic"),
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"not a simulation's config: {error!r}") from None


def read_json(path: str | Path) -> Simulation:
    """The simulation that :func:`write_json` wrote to ``path``, its summary made again from
    the games (not read from the file's ``summary``, which is there for people to read).

    Raises :class:`ValueError` for a file that is not one (a game its config does not
    deal included: :func:`check_game`), :class:`OSError` if it cannot be read.
    """
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
        config = config_from_document(document["config"])
        games = tuple(game_from_row(row) for row in document["games"])
        for game in games:
            check_game(config, game)
        seconds = float(document["summary"]["seconds"])
    except (json.JSONDecodeError, KeyError, TypeError) as error:
        raise ValueError(f"{path}: not a simulation's results ({error!r})") from None
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None
    return Simulation(config, games, summarize(config, games), seconds)


def write_json(simulation: Simulation, path: str | Path) -> None:
    """Write the config, the summary and every game's result as one JSON document.

    Each game is one line of the ``games`` list, its times rounded to microseconds.

    The config names the preset and, under ``rule_changes``, every house rule
    that differs from it, in the form ``pegs simulate --rule`` reads.
    """
    s = simulation.summary
    n = s.finished
    document = {
        "config": config_document(simulation.config),
        "provenance": provenance(simulation),
        "summary": {
            "games": s.games,
            "unfinished": s.unfinished,
            "sides": [
                {
                    "bots": s.sides[side],
                    "wins": s.side_wins[side],
                    "ci95": _rounded(wilson(s.side_wins[side], n)),
                }
                for side in (0, 1)
            ],
            "teams": [
                {
                    "team": team,
                    "wins": s.team_wins[team],
                    "ci95": _rounded(wilson(s.team_wins[team], n)),
                }
                for team in (0, 1)
            ],
            "first_seat_wins": s.first_seat_wins,
            "first_seat_ci95": _rounded(wilson(s.first_seat_wins, n)),
            "mean_plies": s.mean_plies,
            "seconds": simulation.seconds,
            "timing": {
                name: {
                    "moves": t.moves,
                    "mean_seconds": t.mean,
                    "mean_wall_seconds": t.mean_wall,
                    "longest_seconds": t.longest,
                }
                for name, t in sorted(s.timing.items())
            },
        },
    }
    games = ",\n".join(json.dumps(_row(game), separators=(",", ":")) for game in simulation.games)
    head = json.dumps(document, indent=1)[:-2]  # without the closing brace: the games follow
    text = f'{head},\n "games": [\n{games}\n ]\n}}\n' if games else f'{head},\n "games": []\n}}\n'
    Path(path).write_text(text, encoding="utf-8")


CSV_FIELDS = (
    "index",
    "seed",
    "seats",
    "swapped",
    "first_seat",
    "first_team",
    "winner",
    "winner_side",
    "plies",
    "seconds",
)
"""The columns :func:`write_csv` writes, one row per game."""


def write_csv(simulation: Simulation, path: str | Path) -> None:
    """Write one row per game: the columns of :data:`CSV_FIELDS` (seats space-separated)."""
    with Path(path).open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, extrasaction="ignore")
        writer.writeheader()
        for game in simulation.games:
            row = _row(game)
            row["seats"] = " ".join(game.seats)
            row["winner"] = "" if game.winner is None else game.winner
            row["winner_side"] = "" if game.winner_side is None else game.winner_side
            row["seconds"] = f"{game.seconds:.3f}"
            writer.writerow(row)


def game_from_row(row: Mapping[str, Any]) -> GameResult:
    """The :class:`GameResult` that :func:`write_json` (or a :class:`RecordFile`) wrote as ``row``.

    Raises :class:`ValueError` for a row that is not one, or that no game could leave: the
    moves each seat made must be the turns it had, taken in order from the first seat, and the
    winning team alone must have every peg home (none, if the game was unfinished).
    """
    if not isinstance(row, Mapping):
        raise ValueError(f"not a game's record: {type(row).__name__}, not an object")
    wall = row.get("think_wall")
    seeds = row.get("bot_seeds")
    try:
        game = GameResult(
            index=int(row["index"]),
            seed=int(row["seed"]),
            seats=tuple(str(name) for name in row["seats"]),
            swapped=bool(row["swapped"]),
            first_seat=int(row["first_seat"]),
            winner=None if row["winner"] is None else int(row["winner"]),
            plies=int(row["plies"]),
            seconds=float(row["seconds"]),
            think_seconds=tuple(float(t) for t in row["think_seconds"]),
            think_max=tuple(float(t) for t in row["think_max"]),
            moves=tuple(int(n) for n in row["moves"]),
            home=(int(row["home"][0]), int(row["home"][1])),
            think_wall=None if wall is None else tuple(float(t) for t in wall),
            bot_seeds=None if seeds is None else tuple(int(seed) for seed in seeds),
            moves_sha256=None if row.get("moves_sha256") is None else str(row["moves_sha256"]),
            played_by=None if row.get("played_by") is None else str(row["played_by"]),
        )
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise ValueError(f"not a game's record: {error!r}") from None
    players = len(game.seats)
    per_seat = [game.think_seconds, game.think_max, game.moves]
    if game.think_wall is not None:
        per_seat.append(game.think_wall)
    if game.bot_seeds is not None:
        per_seat.append(game.bot_seeds)
    if (
        game.winner not in (None, 0, 1)
        or not 0 <= game.first_seat < players
        or any(len(values) != players for values in per_seat)
    ):
        raise ValueError("not a game's record: its winner, first seat or per-seat lists are off")
    turns = [
        len(range((seat - game.first_seat) % players, game.plies, players))
        for seat in range(players)
    ]
    if list(game.moves) != turns:
        raise ValueError(
            f"not a game's record: {game.plies} turns from seat {game.first_seat} are "
            f"{turns} moves a seat, not {list(game.moves)}"
        )
    team_pegs = PEGS_PER_SEAT * players // 2
    finished = [home == team_pegs for home in game.home]
    if not all(0 <= home <= team_pegs for home in game.home) or finished != [
        team == game.winner for team in (0, 1)
    ]:
        raise ValueError(
            f"not a game's record: pegs home {list(game.home)} (of {team_pegs} a team) do not "
            f"make team {game.winner} the winner"
        )
    return game


def check_game(config: SimulationConfig, game: GameResult) -> None:
    """Raise :class:`ValueError` unless ``game`` is one of the games ``config`` deals: its
    number in range, and its deal, seats and swap those of that number."""
    index = game.index
    if not 0 <= index < config.games:
        raise ValueError(f"game {index} is not one of the run's {config.games}")
    if (game.seed, game.seats, game.swapped) != (
        config.game_seed(index),
        config.seats(index),
        config.swapped(index),
    ):
        raise ValueError(f"game {index} was not dealt or seated as this run deals it")
    if game.bot_seeds is not None and game.bot_seeds != config.bot_seeds(index):
        raise ValueError(f"game {index}'s bots were not seeded as this run seeds them")


class RecordFile:
    """Every game of a run written to a file the moment it finishes, so that a run stopped
    half-way (a crash, Ctrl-C, a machine needed for other work) can be resumed.

    The file is JSON Lines: the first line is ``{"config": ...}`` (as
    :func:`write_json` writes it), each further line one game (a row of
    :func:`write_json`'s ``games``), in the order the games finished. Opening
    an existing file reads the games it holds into :attr:`games` (a last line
    cut short by the stop is dropped); its config must be the same as
    ``config`` but for the number of games, so a run can also be made longer.
    Pass :attr:`games` as :func:`simulate`'s ``played`` and the record file as
    its ``on_result``::

        records = RecordFile("games.jsonl", config)
        simulate(config, played=records.games, on_result=records)

    ``pegs simulate --records FILE`` does this.

    Raises :class:`ValueError` if the file holds another run's games, or a game
    that ``config`` does not deal (:func:`check_game`: one past its number of
    games, say, so a run cannot be made shorter), or is not a records file.
    """

    def __init__(self, path: str | Path, config: SimulationConfig) -> None:
        self.path = Path(path)
        self.games: list[GameResult] = []
        """The games the file held when opened."""
        head = config_document(config)
        if self.path.exists():
            try:
                lines = self.path.read_text(encoding="utf-8").splitlines()
            except UnicodeDecodeError:
                raise ValueError(f"{self.path}: not a records file (not UTF-8 text)") from None
            try:
                found = json.loads(lines[0])["config"] if lines else None
            except (json.JSONDecodeError, TypeError, KeyError):
                found = None
            if (
                not isinstance(found, dict)
                or {
                    "seeding": "arithmetic",  # records written before runs named it
                    **found,
                    "games": config.games,
                }
                != head
            ):
                raise ValueError(f"{self.path} holds the games of another run, or no run's")
            seen = set()
            for number, line in enumerate(lines[1:], start=2):
                try:
                    game = game_from_row(json.loads(line))
                except ValueError:  # JSONDecodeError too
                    if number == len(lines):  # the line being written when the run stopped
                        break
                    raise ValueError(f"{self.path}, line {number}: not a game's record") from None
                try:
                    check_game(config, game)
                except ValueError as error:
                    raise ValueError(f"{self.path}, line {number}: {error}") from None
                if game.index not in seen:
                    seen.add(game.index)
                    self.games.append(game)
        rows = [json.dumps({"config": head}, separators=(",", ":"))]
        rows += [json.dumps(_row(game), separators=(",", ":")) for game in self.games]
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text("\n".join(rows) + "\n", encoding="utf-8")
        os.replace(partial, self.path)

    def __call__(self, game: GameResult) -> None:
        """Append ``game`` to the file, flushed to the disk."""
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(_row(game), separators=(",", ":")) + "\n")
            out.flush()
            os.fsync(out.fileno())
