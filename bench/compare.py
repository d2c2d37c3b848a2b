"""Compare the engine at a git revision with the working tree, interleaved in one run.

Usage::

    python bench/compare.py REF [--compiled] [--repeats N] [--only NAME,...] [--quick]

REF is any git revision (a commit, a branch, a tag). The script copies REF
out of the repository (``git archive``) into a temporary directory and
installs it in a temporary virtual environment; it installs the working tree
(pure Python) in a second one and, with ``--compiled``, its mypyc-compiled
wheel in a third. Every figure is then measured in a fresh worker process
per side, the sides taking turns (ref, new, compiled, ref, new, ...) for
``--repeats`` rounds, so that a noisy machine slows them alike. It prints
the median of each side and the ratio to REF. Everything temporary is
removed at the end.

The workloads use only the public API that REF already had, and are seeded,
so both sides do exactly the same work:

* ``turns-PRESET-N``: whole turns of seeded random play (``legal_moves``, a
  seeded random choice, ``apply``) per CPU second, N players;
* ``legal-moves-arizona-N``: ``legal_moves`` calls per CPU second on a fixed
  sample of positions (every 10th state of seeded random games), each
  position once per pass, so no call finds its answer remembered;
* ``mcts-arizona-4``: :class:`~pegs_rules.bots.MctsBot` iterations per CPU
  second, choosing moves in fixed positions with a fixed iteration budget;
* ``bytes-arizona-N``: bytes per retained state. Every state of one seeded
  random game is kept in a list; the figure is the memory that
  ``tracemalloc`` sees released when that list is dropped (after a
  ``gc.collect()``), divided by the number of states. An object shared by
  several states counts once; what the engine keeps anyway (tables, caches)
  does not count. Lower is better.

Timings are CPU time (``time.process_time``) of the measured loop only.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TURN_GAMES = {4: 4, 6: 2, 8: 1}
"""Seeded random games per timed turns workload, by seat count (about 4,000 turns each)."""


# --------------------------------------------------------------------------
# Workloads (run in a worker process, against whichever pegs_rules it imports)
# --------------------------------------------------------------------------


def random_states(preset: str, players: int, seed: int, plies: int = 100_000) -> list[Any]:
    """Every state of one seeded random game (or its first ``plies`` turns), the last included."""
    from pegs_rules import apply, find_preset, legal_moves, new_game

    rng = random.Random(seed)
    state = new_game(players, seed=seed, rules=find_preset(preset))
    states = [state]
    while not state.is_over and state.ply < plies:
        state = apply(state, rng.choice(legal_moves(state)))
        states.append(state)
    return states


def turns_per_second(preset: str, players: int) -> float:
    """Whole turns of seeded random play per CPU second."""
    from pegs_rules import apply, find_preset, legal_moves, new_game

    rules = find_preset(preset)
    random_states(preset, players, seed=999, plies=200)  # warm up: tables, caches
    turns = 0
    began = time.process_time()
    for seed in range(TURN_GAMES[players]):
        rng = random.Random(seed)
        state = new_game(players, seed=seed, rules=rules)
        while not state.is_over:
            state = apply(state, rng.choice(legal_moves(state)))
        turns += state.ply
    return turns / (time.process_time() - began)


LEGAL_MOVES_PASSES = 10
"""Passes over the sample: at 4 players a pass takes some 20 ms, too short to time alone."""


def legal_moves_per_second(players: int) -> float:
    """``legal_moves`` calls per CPU second over a fixed sample of positions."""
    from pegs_rules import legal_moves

    sample = []
    for seed in range(3):
        sample += random_states("arizona", players, seed)[::10]
    passes = LEGAL_MOVES_PASSES
    began = time.process_time()
    for _ in range(passes):
        for state in sample:
            legal_moves(state)
    return passes * len(sample) / (time.process_time() - began)


MCTS_ITERATIONS = 100


def mcts_iterations_per_second() -> float:
    """Iterations per CPU second of the search bot in fixed positions."""
    from pegs_rules import legal_moves, view
    from pegs_rules.bots import MctsBot

    states = random_states("arizona", 4, seed=5)
    positions = [s for s in states[40:400:40] if len(legal_moves(s)) > 1]
    began = time.process_time()
    for number, state in enumerate(positions):
        bot = MctsBot(number, iterations=MCTS_ITERATIONS, max_seconds=1e9)
        bot.choose(view(state, state.turn), legal_moves(state))
    return MCTS_ITERATIONS * len(positions) / (time.process_time() - began)


def bytes_per_state(players: int) -> float:
    """Memory released by dropping every state of a seeded random game, per state."""
    random_states("arizona", players, seed=999, plies=200)  # warm up: tables, caches
    gc.collect()
    tracemalloc.start()
    states = random_states("arizona", players, seed=1)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0]
    count = len(states)
    del states
    gc.collect()
    released = held - tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return released / count


WORKLOADS = (
    *(f"turns-{preset}-{n}" for preset in ("arizona", "standard") for n in (4, 6, 8)),
    "legal-moves-arizona-4",
    "legal-moves-arizona-8",
    "mcts-arizona-4",
    "bytes-arizona-4",
    "bytes-arizona-8",
)


def figure(name: str) -> tuple[float, str]:
    """The figure of workload ``name`` and its unit."""
    *words, preset, seats = name.split("-")
    kind, players = "-".join(words), int(seats)
    if kind == "turns":
        return turns_per_second(preset, players), "turns/s"
    if kind == "legal-moves":
        return legal_moves_per_second(players), "calls/s"
    if kind == "mcts":
        return mcts_iterations_per_second(), "iterations/s"
    return bytes_per_state(players), "bytes/state"


QUICK = ("turns-arizona-4", "turns-arizona-8", "legal-moves-arizona-4", "mcts-arizona-4")


def worker(name: str) -> None:
    """Run one workload and print its figure and where the engine came from, as JSON."""
    import pegs_rules

    value, unit = figure(name)
    compiled = any(
        path.suffix in (".so", ".pyd") for path in Path(pegs_rules.__file__).parent.iterdir()
    )
    print(json.dumps({"value": value, "unit": unit, "compiled": compiled}))


# --------------------------------------------------------------------------
# The driver: temporary installs, interleaved runs, the table
# --------------------------------------------------------------------------


def run(command: list[str], **kwargs: Any) -> None:
    print("+", " ".join(command), file=sys.stderr)
    subprocess.run(command, check=True, **kwargs)


def copy_working_tree(where: Path) -> Path:
    """A copy of the working tree's files (tracked or not, less what git ignores).

    Building from a copy leaves the working tree as it was: the compiled
    build writes its extension modules beside the sources it compiles.
    """
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():
            (where / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, where / name)
    return where


def make_venv(where: Path, source: Path, compiled: bool) -> Path:
    """A new virtual environment at ``where`` with the project at ``source`` installed."""
    run([sys.executable, "-m", "venv", str(where)])
    python = where / "bin" / "python"
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if compiled:
        env["HATCH_BUILD_HOOK_ENABLE_MYPYC"] = "1"
    run([str(python), "-m", "pip", "install", "-q", str(source)], env=env)
    return python


def measure(python: Path, name: str, workdir: Path) -> dict[str, Any]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    out = subprocess.run(
        [str(python), str(Path(__file__).resolve()), "--worker", name],
        check=True,
        capture_output=True,
        text=True,
        cwd=workdir,
        env=env,
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def compare(ref: str, compiled: bool, repeats: int, names: list[str]) -> None:
    commit = subprocess.run(
        ["git", "rev-parse", ref], check=True, capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="pegs-compare-") as tmp:
        top = Path(tmp)
        source = top / "ref"
        source.mkdir()
        archive = subprocess.run(
            ["git", "archive", commit], check=True, capture_output=True, cwd=ROOT
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
        sides = {"ref": make_venv(top / "venv-ref", source, compiled=False)}
        tree = copy_working_tree(top / "new")
        sides["new"] = make_venv(top / "venv-new", tree, compiled=False)
        if compiled:
            sides["compiled"] = make_venv(top / "venv-compiled", tree, compiled=True)
        figures: dict[str, dict[str, list[float]]] = {n: {s: [] for s in sides} for n in names}
        units: dict[str, str] = {}
        for round_ in range(repeats):
            for name in names:
                if name.startswith("bytes-") and round_:
                    continue  # exact: measured once
                for side, python in sides.items():
                    result = measure(python, name, top)
                    if result["compiled"] != (side == "compiled"):
                        raise SystemExit(f"{side} side ran the wrong build: {result}")
                    figures[name][side].append(result["value"])
                    units[name] = result["unit"]
            print(f"round {round_ + 1}/{repeats} done", file=sys.stderr)
        shutil.rmtree(source)
    print_table(commit, figures, units, repeats)


def print_table(
    commit: str, figures: dict[str, dict[str, list[float]]], units: dict[str, str], repeats: int
) -> None:
    sides = list(next(iter(figures.values())))
    print(
        f"ref = {commit[:12]}; medians of {repeats} interleaved runs; python {sys.version.split()[0]}"
    )
    head = ["workload", "unit", *sides] + [f"{side}/ref" for side in sides[1:]]
    rows = [head]
    for name, by_side in figures.items():
        medians = {side: statistics.median(values) for side, values in by_side.items()}
        ratios = [f"{medians[side] / medians['ref']:.2f}" for side in sides[1:]]
        rows.append([name, units[name], *(f"{medians[s]:,.0f}" for s in sides), *ratios])
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    for row in rows:
        print(
            "  ".join(
                cell.rjust(w) if i > 1 else cell.ljust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            )
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ref", nargs="?", help="the git revision to compare against")
    parser.add_argument("--compiled", action="store_true", help="also the compiled build")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved rounds (5)")
    parser.add_argument("--only", help="comma-separated workload names")
    parser.add_argument("--quick", action="store_true", help="only: " + ", ".join(QUICK))
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    if not args.ref:
        parser.error("give the git revision to compare against")
    names = list(WORKLOADS)
    if args.quick:
        names = list(QUICK)
    if args.only:
        names = args.only.split(",")
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        parser.error(f"unknown workload(s) {', '.join(unknown)}; known: {', '.join(WORKLOADS)}")
    compare(args.ref, args.compiled, args.repeats, names)


if __name__ == "__main__":
    main()
