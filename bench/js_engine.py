"""Compare the TypeScript engine (in Node) with this tree's Python engine, pure and compiled.

Usage::

    python bench/js_engine.py [--repeats N] [--only NAME,...] [--no-compiled]

Builds the TypeScript package (``npm ci`` and ``npm run build`` in ``js/``), installs this
tree's Python engine in a temporary virtual environment and its mypyc-compiled wheel in a
second (as ``bench/compare.py`` does), then measures every workload in a fresh process per
side, the sides taking turns (pure, compiled, node, pure, ...) for ``--repeats`` rounds, so
that a noisy machine slows them alike. It prints the median of each side and the ratios of
Node's figure to the two Python ones.

The workloads are ``bench/compare.py``'s seeded random play (``turns-PRESET-N``: whole turns
of ``legal_moves``, a seeded random choice and ``apply``) and ``legal_moves`` alone
(``legal-moves-arizona-N``, on every 10th state of seeded random games). The Node side
(``js/scripts/bench.mjs``) draws its random choices from the same Mersenne Twister the Python
side draws from, so both engines play exactly the same games; the script checks that they
counted the same turns. Figures are CPU time of the measured loop (``time.process_time`` in
Python, ``process.cpuUsage`` in Node).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import copy_working_tree, make_venv, measure, run

ROOT = Path(__file__).resolve().parent.parent
WORKLOADS = (
    *(f"turns-{preset}-{n}" for preset in ("arizona", "standard") for n in (4, 6, 8)),
    "legal-moves-arizona-4",
    "legal-moves-arizona-8",
)


def measure_node(name: str, js: Path) -> dict[str, Any]:
    """The Node side's figure, from the copy of the package at ``js`` (its build and scripts)."""
    out = subprocess.run(
        ["node", str(js / "scripts" / "bench.mjs"), name],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def turns_played(python: Path, name: str) -> int | None:
    """How many turns the Python side's games of a ``turns-`` workload last (``None`` else)."""
    if not name.startswith("turns-"):
        return None
    out = subprocess.run(
        [str(python), str(Path(__file__).resolve()), "--turns", name],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return int(out.strip())


def count_turns(name: str) -> int:
    """The turns of the games of workload ``name``, played by the pegs_rules this imports."""
    import random

    from compare import TURN_GAMES

    from pegs_rules import apply, find_preset, legal_moves, new_game

    _, preset, seats = name.split("-")
    total = 0
    for seed in range(TURN_GAMES[int(seats)]):
        rng = random.Random(seed)
        state = new_game(int(seats), seed=seed, rules=find_preset(preset))
        while not state.is_over:
            state = apply(state, rng.choice(legal_moves(state)))
        total += state.ply
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="interleaved rounds (5)")
    parser.add_argument("--only", help="comma-separated workload names")
    parser.add_argument("--no-compiled", action="store_true", help="leave out the mypyc build")
    parser.add_argument("--turns", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.turns:
        print(count_turns(args.turns))
        return
    names = args.only.split(",") if args.only else list(WORKLOADS)
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        parser.error(f"unknown workload(s) {', '.join(unknown)}; known: {', '.join(WORKLOADS)}")
    run(["npm", "ci", "--prefix", str(ROOT / "js"), "--no-audit", "--no-fund"])
    run(["npm", "run", "--prefix", str(ROOT / "js"), "build"])
    node_version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory(prefix="pegs-js-bench-") as tmp:
        top = Path(tmp)
        tree = copy_working_tree(top / "tree")
        js = (
            top / "js"
        )  # a copy of the build, so that rebuilding js/ meanwhile changes nothing here
        shutil.copytree(ROOT / "js" / "dist", js / "dist")
        shutil.copytree(ROOT / "js" / "scripts", js / "scripts")
        sides: dict[str, Path | None] = {"pure": make_venv(top / "venv-pure", tree, compiled=False)}
        if not args.no_compiled:
            sides["compiled"] = make_venv(top / "venv-compiled", tree, compiled=True)
        sides["node"] = None
        for name in names:  # the same games on both sides
            python = sides["pure"]
            assert python is not None
            expected = turns_played(python, name)
            if expected is not None and measure_node(name, js)["turns"] != expected:
                raise SystemExit(f"{name}: the engines played different games")
        figures: dict[str, dict[str, list[float]]] = {n: {s: [] for s in sides} for n in names}
        units: dict[str, str] = {}
        for round_ in range(args.repeats):
            for name in names:
                for side, python in sides.items():
                    result = (
                        measure_node(name, js) if python is None else measure(python, name, top)
                    )
                    if python is not None and result["compiled"] != (side == "compiled"):
                        raise SystemExit(f"{side} side ran the wrong build: {result}")
                    figures[name][side].append(result["value"])
                    units[name] = result["unit"]
            print(f"round {round_ + 1}/{args.repeats} done", file=sys.stderr)
        shutil.rmtree(tree)
    print(
        f"medians of {args.repeats} interleaved runs; python {sys.version.split()[0]}, "
        f"node {node_version.strip()}"
    )
    head = ["workload", "unit", *sides, *(f"node/{s}" for s in sides if s != "node")]
    rows = [head]
    for name, by_side in figures.items():
        medians = {side: statistics.median(values) for side, values in by_side.items()}
        ratios = [f"{medians['node'] / medians[s]:.2f}" for s in sides if s != "node"]
        rows.append([name, units[name], *(f"{medians[s]:,.0f}" for s in sides), *ratios])
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    for row in rows:
        print(
            "  ".join(
                cell.rjust(w) if i > 1 else cell.ljust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            )
        )


if __name__ == "__main__":
    main()
