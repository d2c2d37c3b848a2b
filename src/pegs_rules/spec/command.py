"""``python -m pegs_rules.spec``: serve, check, perft, dump and record.

* ``serve``: this library as an engine speaking the protocol on stdin/stdout;
* ``check [--engine COMMAND] [--timeout S] [--junit FILE] [--perft-depth N] [--only PREFIX]``:
  run every case, game vector and perft position against an engine (this
  library, in process, without ``--engine``), print the per-ruling table and
  each failure with a diff; exit 1 on any failure, 2 if the engine is unusable;
* ``perft POSITION --depth N [--divide]``: count move sequences from a
  position (an id of ``specs/perft.json``, or a file holding position text
  or state JSON, ``-`` for standard input);
* ``dump``: the cases and game vectors as one JSON document;
* ``record``, ``record-perft``: write the game vectors; fill in missing
  perft counts.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from pegs_rules.errors import PegsError
from pegs_rules.position import parse_position
from pegs_rules.serialize import from_json
from pegs_rules.spec.engine import Engine, EngineProcess, ReferenceEngine
from pegs_rules.spec.harness import junit_xml, report, run_suite
from pegs_rules.spec.perft import divide, perft
from pegs_rules.spec.protocol import serve
from pegs_rules.spec.record import fill_perft, write_games
from pegs_rules.spec.suite import SPECS, case_state, load_cases, load_games, load_perft
from pegs_rules.state import GameState


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the exit status."""
    args = _parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except PegsError as error:
        print(f"python -m pegs_rules.spec {args.command}: {error}", file=sys.stderr)
        return 2
    return status


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m pegs_rules.spec",
        description="The conformance suite in specs/ and the engine protocol.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    serve_ = commands.add_parser("serve", help="be an engine: answer protocol requests on stdin")
    serve_.set_defaults(run=_serve)
    check = commands.add_parser("check", help="check an engine against the whole suite")
    check.add_argument(
        "--engine",
        metavar="COMMAND",
        help="the engine to check, a command line (default: this library, in process)",
    )
    check.add_argument(
        "--timeout",
        type=_positive,
        default=10.0,
        help="seconds to wait for each answer (default: %(default)s)",
    )
    check.add_argument("--junit", metavar="FILE", type=Path, help="also write JUnit XML to FILE")
    check.add_argument(
        "--perft-depth",
        type=int,
        default=99,
        metavar="N",
        help="check perft counts up to depth N only (0: none; default: every recorded depth)",
    )
    check.add_argument(
        "--only",
        action="append",
        metavar="PREFIX",
        help="check only the items whose id starts with PREFIX (a ruling id, game/, perft/); "
        "may be given several times",
    )
    check.set_defaults(run=_check)
    perft_ = commands.add_parser("perft", help="count move sequences from a position")
    perft_.add_argument("position", help="an id of specs/perft.json, a file, or - for stdin")
    perft_.add_argument("--depth", type=int, required=True, metavar="N", help="sequence length")
    perft_.add_argument("--divide", action="store_true", help="also count per first move")
    perft_.set_defaults(run=_perft)
    dump = commands.add_parser("dump", help="print the cases and game vectors as one JSON document")
    dump.set_defaults(run=_dump)
    record = commands.add_parser("record", help="write the game vectors in specs/games")
    record.set_defaults(run=lambda args: _print_lines(write_games()))
    fill = commands.add_parser("record-perft", help="fill in missing counts of specs/perft.json")
    fill.set_defaults(run=lambda args: _print_lines(fill_perft()))
    return parser


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def _print_lines(lines: list[str]) -> int:
    for line in lines:
        print(line)
    return 0


def _serve(args: argparse.Namespace) -> int:
    """Serve on stdin/stdout as UTF-8, whatever the locale; bytes that are not UTF-8 make errors."""
    source = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    sink = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", line_buffering=True)
    return serve(source, sink)


def _check(args: argparse.Namespace) -> int:
    engine: Engine = (
        ReferenceEngine() if args.engine is None else EngineProcess(args.engine, args.timeout)
    )
    cases, games, positions = load_cases(), load_games(), load_perft()
    if not cases or not games:
        print(f"no conformance cases or games found in {SPECS}", file=sys.stderr)
        return 2
    if args.only:
        prefixes = tuple(args.only)
        cases = [c for c in cases if c["id"].startswith(prefixes)]
        games = [g for g in games if f"game/{g['id']}".startswith(prefixes)]
        positions = [p for p in positions if f"perft/{p['id']}".startswith(prefixes)]
    started = time.perf_counter()
    try:
        outcomes = run_suite(engine, cases, games, positions, args.perft_depth)
    finally:
        engine.close()
    print(f"engine: {engine.name}")
    print(report(outcomes))
    failed = sum(not o.passed for o in outcomes)
    print(
        f"\n{len(outcomes) - failed} passed, {failed} failed in {time.perf_counter() - started:.1f} s"
    )
    if args.junit is not None:
        args.junit.write_text(junit_xml(outcomes), encoding="utf-8")
    if any(o.problem and o.problem.startswith("not run: the engine is unusable") for o in outcomes):
        return 2
    return 1 if failed else 0


def _perft(args: argparse.Namespace) -> int:
    state = _read_position(args.position)
    if args.depth < 0:
        raise PegsError(f"--depth must be 0 or more, not {args.depth}")
    if args.divide and args.depth > 0:
        counts = divide(state, args.depth)
        for move, nodes in counts.items():
            print(f"{move}: {nodes}")
        print()
        total = sum(counts.values())
    else:
        total = perft(state, args.depth)
    print(f"nodes: {total}")
    return 0


def _read_position(name: str) -> GameState:
    """A perft position by id, or a position (text or state JSON) from a file or stdin."""
    known = {p["id"]: p for p in load_perft()}
    if name in known:
        return case_state(known[name])
    if name == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise PegsError(
                f"{name!r} is no perft id of specs/perft.json, nor a readable file: {error}"
            ) from None
    if text.lstrip().startswith("{"):
        return from_json(text, "state")
    return parse_position(text)


def _dump(args: argparse.Namespace) -> int:
    json.dump(
        {"cases": load_cases(), "games": load_games(), "perft": load_perft()}, sys.stdout, indent=1
    )
    print()
    return 0
