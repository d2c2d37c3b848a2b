"""``python -m pegs_rules.spec``: serve, check, perft, dump and record.

* ``serve``: this library as an engine speaking the protocol on stdin/stdout;
* ``check [--engine COMMAND] [--timeout S] [--junit FILE] [--report FILE] [--perft-depth N]
  [--only ID] [--only-ruling ID] [--preset NAME] [--players N] [--ids strict|lenient]
  [--allow-declines]``: run the cases, game vectors and perft positions that fit the engine's
  ``supports`` against it (this library, in process, without ``--engine``), under the rules
  it plays, print the per-ruling table and each failure in full with the command that reruns
  it; exit 1 on any failure or decline (unless allowed), 2 if the engine is unusable or a
  selection matches nothing;
* ``perft POSITION --depth N [--divide] [--engine COMMAND [--against-reference]]``: count
  move sequences from a position (an id of ``specs/perft.json``, or a file holding position
  text or state JSON, ``-`` for standard input), with this library or an engine; against the
  reference, follow the counts that differ down to the position where the moves differ;
* ``fuzz --engine COMMAND [--positions N] [--seed S] [--players N] [--rules RULES]
  [--keep-going]``: play random games and compare the engine with this library at every
  position; shrink each divergence to a small position and print it as a suite case
  (:mod:`pegs_rules.spec.fuzz`);
* ``clashes``: which pairs of items of ``move.verdict`` one move can break together, and the
  cases that cover each (:mod:`pegs_rules.spec.clashes`); exit 1 if a pair that can meet is
  not covered;
* ``dump``: the cases and game vectors as one JSON document;
* ``record``, ``record-perft``: write the game vectors; fill in missing
  perft counts.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import json
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pegs_rules import __version__
from pegs_rules.errors import PegsError
from pegs_rules.position import parse_position
from pegs_rules.rules import PRESETS, Rules
from pegs_rules.rulings import RULINGS
from pegs_rules.serialize import from_json, to_data
from pegs_rules.spec.clashes import clash_matrix, format_matrix
from pegs_rules.spec.derive import CannotDerive, position_under
from pegs_rules.spec.divergence import engine_perft, find_divergence
from pegs_rules.spec.engine import Engine, EngineProcess, ReferenceEngine
from pegs_rules.spec.fuzz import Fuzzer, Options
from pegs_rules.spec.harness import Scoring, run_suite
from pegs_rules.spec.perft import divide, perft
from pegs_rules.spec.protocol import serve
from pegs_rules.spec.record import fill_perft, write_games
from pegs_rules.spec.report import counts, fails_run, junit_xml, markdown, report
from pegs_rules.spec.suite import SPECS, case_state, load_cases, load_games, load_perft
from pegs_rules.spec.supports import (
    Needs,
    Supports,
    SupportsError,
    describe,
    fixed_rules,
    needs_of_case,
    needs_of_game,
    needs_of_perft,
    needs_of_position,
)
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
        help=f"seconds to wait for each answer (default: {CHECK_TIMEOUT:g})",
    )
    check.add_argument("--junit", metavar="FILE", type=Path, help="also write JUnit XML to FILE")
    check.add_argument(
        "--perft-depth",
        type=int,
        default=DEFAULT_PERFT_DEPTH,
        metavar="N",
        help="check perft counts up to depth N only (0: none; default: every recorded depth)",
    )
    check.add_argument(
        "--only",
        action="append",
        metavar="ID",
        help="check only the item with this id (a case id, game/ID, perft/ID); an ID ending "
        "in / or * selects every id that starts with it (card.seven/, game/); may be given "
        "several times",
    )
    check.add_argument(
        "--only-ruling",
        action="append",
        metavar="ID",
        help="check only the cases that exercise ruling ID (no game vector or perft); "
        "may be given several times",
    )
    check.add_argument(
        "--preset",
        action="append",
        choices=list(PRESETS),
        help="check only the items of this preset; may be given several times",
    )
    check.add_argument(
        "--players",
        action="append",
        type=int,
        choices=[4, 6, 8],
        help="check only the items with this many players; may be given several times",
    )
    check.add_argument(
        "--ids",
        choices=["strict", "lenient"],
        default="strict",
        help="whether a rejection naming another ruling than the suite's fails the run "
        "(strict, the default) or counts as passed (lenient); it is counted apart either way",
    )
    check.add_argument(
        "--allow-declines",
        action="store_true",
        help="let items the engine declines while running (an unsupported answer to an item "
        "its hello covers) pass as skipped; by default each fails the run",
    )
    check.add_argument(
        "--report", metavar="FILE", type=Path, help="also write a Markdown report to FILE"
    )
    check.set_defaults(run=_check)
    fuzz_ = commands.add_parser(
        "fuzz",
        help="compare an engine with this library over random games, and shrink what differs",
    )
    fuzz_.add_argument(
        "--engine",
        metavar="COMMAND",
        help="the engine to fuzz, a command line (default: this library, in process)",
    )
    fuzz_.add_argument(
        "--positions",
        type=_count,
        default=FUZZ.positions,
        metavar="N",
        help="positions to check (default: %(default)s)",
    )
    fuzz_.add_argument(
        "--seed",
        type=int,
        default=FUZZ.seed,
        help="the seed of the games (default: %(default)s)",
    )
    fuzz_.add_argument(
        "--players",
        action="append",
        type=int,
        choices=[4, 6, 8],
        help="play with this many players (default: every count the engine plays); may be "
        "given several times",
    )
    fuzz_.add_argument(
        "--rules",
        action="append",
        metavar="RULES",
        type=_rules,
        help="play these rules only: a preset name, or a rules object in JSON naming a preset "
        'and fixing fields (\'{"name": "arizona", "nine": "plain"}\'); may be given '
        "several times (default: the engine's presets or fixed rules, the house rules it varies "
        "drawn at random for each game)",
    )
    fuzz_.add_argument(
        "--altered",
        type=_count,
        default=FUZZ.altered,
        metavar="K",
        help="altered moves to send at each position (default: %(default)s)",
    )
    fuzz_.add_argument(
        "--keep-going",
        action="store_true",
        help="go on after a divergence, shrinking the first of each kind, and group them by "
        "the ruling they touch",
    )
    fuzz_.add_argument(
        "--same-order",
        action="store_true",
        help="also require the legal moves in this library's order",
    )
    fuzz_.add_argument(
        "--allow-declines",
        action="store_true",
        help="count unsupported answers instead of reporting them as divergences",
    )
    fuzz_.add_argument(
        "--timeout",
        type=_positive,
        help=f"seconds to wait for each answer (default: {CHECK_TIMEOUT:g})",
    )
    fuzz_.set_defaults(run=_fuzz)
    perft_ = commands.add_parser("perft", help="count move sequences from a position")
    perft_.add_argument("position", help="an id of specs/perft.json, a file, or - for stdin")
    perft_.add_argument("--depth", type=int, required=True, metavar="N", help="sequence length")
    perft_.add_argument("--divide", action="store_true", help="also count per first move")
    perft_.add_argument(
        "--engine",
        metavar="COMMAND",
        help="count with this engine, over the protocol (default: this library)",
    )
    perft_.add_argument(
        "--against-reference",
        action="store_true",
        help="with --engine: compare with this library and, if the counts differ, find the "
        "position where the two lists of moves differ",
    )
    perft_.add_argument(
        "--timeout",
        type=_positive,
        default=600.0,
        help="seconds to wait for each of the engine's answers (default: %(default)s)",
    )
    perft_.set_defaults(run=_perft)
    clashes = commands.add_parser(
        "clashes", help="which items of move.verdict can meet, and the cases covering each pair"
    )
    clashes.set_defaults(run=_clashes)
    dump = commands.add_parser("dump", help="print the cases and game vectors as one JSON document")
    dump.set_defaults(run=_dump)
    record = commands.add_parser("record", help="write the game vectors in specs/games")
    record.set_defaults(run=lambda args: _print_lines(write_games()))
    fill = commands.add_parser("record-perft", help="fill in missing counts of specs/perft.json")
    fill.set_defaults(run=lambda args: _print_lines(fill_perft()))
    return parser


CHECK_TIMEOUT = 10.0
"""Seconds ``check`` waits for each answer unless ``--timeout`` says otherwise."""
FUZZ = Options()
"""The fuzzer's defaults."""
DEFAULT_PERFT_DEPTH = 99
"""``check --perft-depth`` by default: every recorded depth."""


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def _rules(text: str) -> Rules:
    """``--rules``: a preset name, or a rules object in JSON as ``supports.rules`` has it."""
    try:
        if text.lstrip().startswith("{"):
            return fixed_rules(json.loads(text))
        return fixed_rules({"name": text})
    except (ValueError, PegsError) as error:
        message = str(error).removeprefix("hello: supports.rules: ").removeprefix("hello: ")
        raise argparse.ArgumentTypeError(message.replace("supports.rules", "rules")) from None


def _print_lines(lines: list[str]) -> int:
    for line in lines:
        print(line)
    return 0


def _clashes(args: argparse.Namespace) -> int:
    matrix = clash_matrix()
    print(format_matrix(matrix))
    return 1 if matrix.uncovered() or matrix.covered_though_never() else 0


def _serve(args: argparse.Namespace) -> int:
    """Serve on stdin/stdout as UTF-8, whatever the locale; bytes that are not UTF-8 make errors."""
    sink = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", line_buffering=True)
    return serve(sys.stdin.buffer, sink)


def _check(args: argparse.Namespace) -> int:
    cases, games, positions = load_cases(), load_games(), load_perft()
    if not cases or not games:
        print(f"no conformance cases or games found in {SPECS}", file=sys.stderr)
        return 2
    cases, games, positions = _selected(args, cases, games, positions)
    engine: Engine = (
        ReferenceEngine()
        if args.engine is None
        else EngineProcess(args.engine, args.timeout or CHECK_TIMEOUT)
    )
    scoring = Scoring(args.ids, args.allow_declines)
    started = time.perf_counter()
    try:
        outcomes = run_suite(engine, cases, games, positions, args.perft_depth)
    finally:
        engine.close()
    print(f"engine: {engine.name}")
    hello = _hello_of(engine)
    if "supports" in hello:
        with contextlib.suppress(SupportsError):  # the outcomes say what is wrong with it
            print(f"supports: {Supports.from_hello(hello)}")
    print(report(outcomes, scoring, lambda rerun: _rerun(args, rerun)))
    total = counts(outcomes, scoring)
    print(f"\n{total} in {time.perf_counter() - started:.1f} s")
    if args.junit is not None:
        args.junit.write_text(junit_xml(outcomes, scoring), encoding="utf-8")
    if args.report is not None:
        suite = f"the pegs-rules {__version__} suite"
        text = markdown(
            outcomes,
            engine=engine.name,
            hello=hello,
            suite=suite,
            scoring=scoring,
            rerun=lambda rerun: _rerun(args, rerun),
        )
        args.report.write_text(text, encoding="utf-8")
    if total.not_run:
        return 2
    if fails_run(outcomes, scoring):
        return 1
    if not any(o.judged for o in outcomes):
        print("nothing was checked: every item was skipped or declined")
        return 1
    return 0


def matches(item_id: str, pattern: str) -> bool:
    """Whether ``--only PATTERN`` selects ``item_id``: the same id, or, for a pattern ending
    in ``/`` or ``*``, an id that starts with it (without the ``*``).

    >>> matches("card.seven/exactly-seven", "card.seven/"), matches("card.seven.split/x", "card.seven*")
    (True, True)
    >>> matches("card.seven.split/x", "card.seven/"), matches("card.seven/x", "card.seven/x")
    (False, True)
    """
    if pattern.endswith(("/", "*")):
        return item_id.startswith(pattern.removesuffix("*"))
    return item_id == pattern


def _selected(
    args: argparse.Namespace,
    cases: list[dict[str, Any]],
    games: list[dict[str, Any]],
    positions: list[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The items that ``--only``, ``--only-ruling``, ``--preset`` and ``--players`` keep;
    :class:`PegsError` for a selection that matches nothing."""
    if args.only:
        ids = [c["id"] for c in cases] + [f"game/{g['id']}" for g in games]
        ids += [f"perft/{p['id']}" for p in positions]
        for pattern in args.only:
            if not any(matches(item, pattern) for item in ids):
                close = difflib.get_close_matches(pattern, ids, n=3)
                hint = f"; did you mean {' or '.join(close)}?" if close else ""
                raise PegsError(
                    f"--only {pattern}: no item has this id (ids are exact; end one with / or * "
                    f"to select the ids that start with it){hint}"
                )

        def chosen(item: str) -> bool:
            return any(matches(item, pattern) for pattern in args.only)

        cases = [c for c in cases if chosen(c["id"])]
        games = [g for g in games if chosen(f"game/{g['id']}")]
        positions = [p for p in positions if chosen(f"perft/{p['id']}")]
    if args.only_ruling:
        unknown = sorted(set(args.only_ruling) - set(RULINGS))
        if unknown:
            raise PegsError(f"--only-ruling: no ruling {', '.join(unknown)} (see pegs explain)")
        for ruling in args.only_ruling:
            if not any(ruling in c["rules"] for c in cases):
                raise PegsError(f"--only-ruling {ruling}: no selected case exercises it")
        cases = [c for c in cases if set(args.only_ruling) & set(c["rules"])]
        games, positions = [], []
    if args.preset or args.players:
        presets = set(args.preset or PRESETS)
        players = set(args.players or [4, 6, 8])

        def keep(needs: Needs) -> bool:
            return needs.preset in presets and needs.players in players

        cases = [c for c in cases if keep(needs_of_case(c))]
        games = [g for g in games if keep(needs_of_game(g))]
        positions = [p for p in positions if keep(needs_of_perft(p))]
    if not (cases or games or positions):
        raise PegsError("no item of the suite is selected by these options")
    return cases, games, positions


def _hello_of(engine: Engine) -> dict[str, Any]:
    """The ``hello`` the engine gave (this library's own when it runs in process)."""
    hello = getattr(engine, "hello", None)
    if not (isinstance(hello, dict) and hello):
        hello = ReferenceEngine().handshake() if isinstance(engine, ReferenceEngine) else {}
    return {key: value for key, value in hello.items() if key != "id"}


def _rerun(args: argparse.Namespace, rerun: tuple[str, ...]) -> str:
    """The command line that runs ``python -m pegs_rules.spec`` with ``rerun`` on the engine
    of ``args``, with every option of ``args`` that changes a ``check`` item's verdict."""
    command, *rest = rerun
    with_engine = [] if args.engine is None else ["--engine", args.engine]
    if args.engine is None:  # this library: nothing to compare it with
        rest = [arg for arg in rest if arg != "--against-reference"]
    if command == "check":
        if args.ids != "strict":
            rest += ["--ids", args.ids]
        if args.allow_declines:
            rest.append("--allow-declines")
        if args.timeout is not None and args.engine is not None:
            rest += ["--timeout", f"{args.timeout:g}"]
        if args.perft_depth != DEFAULT_PERFT_DEPTH and rest[1].startswith("perft/"):
            rest += ["--perft-depth", str(args.perft_depth)]
    return shlex.join(["python", "-m", "pegs_rules.spec", command, *with_engine, *rest])


def _perft(args: argparse.Namespace) -> int:
    state = _read_position(args.position)
    if args.depth < 0:
        raise PegsError(f"--depth must be 0 or more, not {args.depth}")
    if args.engine is None:
        if args.against_reference:
            raise PegsError("--against-reference compares an --engine with this library")
        return _print_perft(*_reference_perft(state, args.depth, args.divide))
    with EngineProcess(args.engine, args.timeout) as engine:
        state = _under_engine_rules(engine, state)
        if not args.against_reference:
            return _print_perft(*engine_perft(engine, state, args.depth, split=args.divide))
        if args.depth < 1:
            raise PegsError("--against-reference needs a --depth of 1 or more")
        found = find_divergence(engine, state, args.depth)
    if found is None:
        print(f"depth {args.depth}: the engine agrees with the reference")
        return 0
    for line in found.lines():
        print(line)
    return 1


def _fuzz(args: argparse.Namespace) -> int:
    options = Options(
        positions=args.positions,
        seed=args.seed,
        players=tuple(args.players or ()),
        rules=tuple(args.rules or ()),
        altered=args.altered,
        keep_going=args.keep_going,
        same_order=args.same_order,
        allow_declines=args.allow_declines,
    )
    engine: Engine = (
        ReferenceEngine()
        if args.engine is None
        else EngineProcess(args.engine, args.timeout or CHECK_TIMEOUT)
    )

    def rerun(positions: int) -> str:
        words = ["python", "-m", "pegs_rules.spec", "fuzz"]
        if args.engine is not None:
            words += ["--engine", args.engine]
        words += ["--seed", str(args.seed), "--positions", str(positions)]
        words += [f"--players={n}" for n in args.players or ()]
        words += [f"--rules={_rules_text(r)}" for r in args.rules or ()]
        if args.altered != FUZZ.altered:
            words.append(f"--altered={args.altered}")
        flags = ("keep_going", "same_order", "allow_declines")
        words += [f"--{flag.replace('_', '-')}" for flag in flags if getattr(args, flag)]
        if args.timeout is not None:
            words.append(f"--timeout={args.timeout:g}")
        return shlex.join(words)

    try:
        return Fuzzer(engine, options, sys.stdout, sys.stderr, rerun, args.engine).run()
    finally:
        engine.close()


def _rules_text(rules: Rules) -> str:
    """``--rules`` as it reads ``rules``: the preset name, or a rules object in JSON."""
    data = to_data(rules)
    base = to_data(PRESETS[rules.name])
    fixed = {k: v for k, v in data.items() if k not in ("format", "type") and v != base[k]}
    return rules.name if fixed == {} else json.dumps({"name": rules.name} | fixed)


def _under_engine_rules(engine: EngineProcess, state: GameState) -> GameState:
    """``state`` under the fixed rules the engine's ``hello`` names, if it names any (the
    check command judges its perft positions so); the change is printed."""
    supports = Supports.from_hello(engine.handshake())
    preset = state.rules.name if state.rules.name in PRESETS else "arizona"
    needs = needs_of_position(preset, _rule_lines(state), "perft")
    rules = supports.judged_rules(needs)
    if rules == state.rules:
        return state
    try:
        moved = position_under(state, rules)
    except CannotDerive as error:
        raise PegsError(str(error)) from None
    print(f"under the engine's rules ({describe(rules)}):")
    return moved


def _rule_lines(state: GameState) -> list[str]:
    """The ``players`` and ``rule`` lines of a position's text."""
    return [line for line in str(state).splitlines() if line.startswith(("players:", "rule "))]


def _reference_perft(state: GameState, depth: int, split: bool) -> tuple[int, dict[str, int]]:
    if split and depth > 0:
        counts = divide(state, depth)
        return sum(counts.values()), counts
    return perft(state, depth), {}


def _print_perft(total: int, counts: dict[str, int]) -> int:
    for move, nodes in counts.items():
        print(f"{move}: {nodes}")
    if counts:
        print()
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
