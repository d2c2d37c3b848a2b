"""The harness's verdict on engines that do part of the game, name other rulings, or go wrong
deep in the tree: skipped items with their reasons, ruling ids scored apart, a report to paste,
and perft that finds where two move generators part."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from pegs_rules import apply, legal_moves
from pegs_rules.spec import load_cases, load_games, load_perft, main
from pegs_rules.spec.engine import EngineProcess
from pegs_rules.spec.harness import run_suite
from pegs_rules.spec.report import counts
from pegs_rules.spec.suite import case_state, digest_of
from pegs_rules.spec.supports import Supports, SupportsError

ROOT = Path(__file__).resolve().parents[1]
DOUBLE = ROOT / "tests" / "engine_double.py"
ADAPTER = ROOT / "docs" / "checking" / "engine_adapter.py"
CASES = load_cases()


def check(*args: str, cwd: Path = ROOT) -> tuple[int, str]:
    """``python -m pegs_rules.spec ARGS`` as a user runs it, in the environment this session
    runs in (its ``python`` first on the path, as in an activated venv): exit status and output."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    done = subprocess.run(
        [sys.executable, "-m", "pegs_rules.spec", *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
        env={**os.environ, "PATH": path},
    )
    return done.returncode, done.stdout + done.stderr


def double(tmp_path: Path, config: object) -> str:
    """The engine double's command line with ``config`` as its faults file."""
    path = tmp_path / "double.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return f"{sys.executable} {DOUBLE} {path}"


def summary(output: str) -> tuple[int, int, int]:
    """Passed, failed and skipped from the closing line."""
    found = re.search(r"^(\d+) passed, (\d+) failed, (\d+) skipped in ", output, re.MULTILINE)
    assert found, output[-2000:]
    passed, failed, skipped = found.groups()
    return int(passed), int(failed), int(skipped)


# --- (b) a partial engine: the documented adapter -----------------------------------------------


def test_the_documented_adapter_passes_what_it_declares_and_skips_the_rest(
    tmp_path: Path,
) -> None:
    """It declares arizona, 4 players, no house rules, legal and apply only: nothing fails,
    everything else is skipped with its reason, the run exits 0, and the report says so."""
    report = tmp_path / "conformance.md"
    junit = tmp_path / "junit.xml"
    status, out = check(
        "check",
        "--engine",
        f"{sys.executable} {ADAPTER}",
        "--report",
        str(report),
        "--junit",
        str(junit),
    )
    assert status == 0, out[-3000:]
    passed, failed, skipped = summary(out)
    total = len(CASES) + len(load_games()) + len(load_perft())
    assert failed == 0 and passed > 150 and passed + skipped == total
    assert "the engine does not play with 6 players (it plays with 4)" in out
    assert "the engine does not serve perft requests (it serves apply, legal)" in out
    assert "game/greedy-4p-seed-1: 167 turns compared, 167 agreed" in out
    root = ET.parse(junit).getroot()
    assert (root.get("failures"), root.get("skipped")) == ("0", str(skipped))
    assert len(list(root.iter("skipped"))) == skipped
    text = report.read_text(encoding="utf-8")
    assert f"**{passed} passed, 0 failed, {skipped} skipped**" in text
    assert '"engine": "my-engine"' in text and '"requests": [' in text
    assert "| `card.seven.split` |" in text and "## Skipped" in text and "## Failures" not in text


def output_blocks() -> list[tuple[str, list[str]]]:
    """The ``<!-- output: ARGS -->`` blocks of the docs page: the arguments and the lines shown."""
    text = (ROOT / "docs" / "checking.md").read_text(encoding="utf-8")
    blocks = re.findall(r"<!-- output: (.*?) -->\n```console\n(.*?)```", text, re.DOTALL)
    return [(args, shown.splitlines()) for args, shown in blocks]


@pytest.mark.parametrize("args, shown", output_blocks(), ids=lambda x: str(x)[:40])
def test_the_output_shown_on_the_docs_page_is_what_the_harness_prints(
    args: str, shown: list[str]
) -> None:
    """Each line shown appears, in order, in the real output; counts and times may differ
    (the suite grows), ``...`` stands for lines left out."""
    status, out = check("check", *shlex.split(args))
    assert shown[0] == f"$ python -m pegs_rules.spec check {args}"
    lines = iter(out.splitlines())
    for line in shown[1:]:
        if line == "...":
            continue
        pattern = re.sub(r"\\d\+(\\\.\\d\+)?", r"\\d+(?:\\.\\d+)?", re.escape(line))
        pattern = re.sub(r"(\\ )+", r"\\s+", pattern)
        pattern = re.sub(r"\d+", r"\\d+", pattern.replace("\\.", "\0")).replace("\0", "\\.")
        assert any(re.fullmatch(pattern, got) for got in lines), (line, out[-3000:])
    assert status == (1 if "nothing was checked" in out else 0)


# --- (c) an engine that names other rulings -----------------------------------------------------


def test_rejections_with_other_ruling_ids_are_counted_apart(tmp_path: Path) -> None:
    """Right verdicts with the wrong ids: strict fails the run, lenient passes it; both show
    how many there were."""
    engine = double(tmp_path, {"other_ids": True})
    only = ["--only-ruling", "move.verdict", "--only-ruling", "card.seven"]
    illegal = [
        c
        for c in CASES
        if {"move.verdict", "card.seven"} & set(c["rules"]) and "illegal" in c["expect"]
    ]
    status, strict = check("check", "--engine", engine, *only)
    assert status == 1
    _, failed, _ = summary(strict)
    assert failed == len(illegal) >= 12
    note = (
        f"{len(illegal)} rejections named another ruling than the suite (right verdict, other id)"
    )
    assert f"{note}, counted as failed (--ids strict)" in strict
    first = illegal[0]
    assert f"FAIL {first['id']} [{first['rules'][0]}]: the move is illegal, but for " in strict
    assert f"  expected: illegal: {first['expect']['illegal']}" in strict
    status, lenient = check("check", "--engine", engine, *only, "--ids", "lenient")
    assert status == 0, lenient[-3000:]
    assert summary(lenient)[1] == 0
    assert f"{note}, counted as passed (--ids lenient)" in lenient
    assert f"OTHER ID {first['id']} [" in lenient


# --- failures an author can act on --------------------------------------------------------------


def fault_on(case: dict[str, Any], fault: str) -> dict[str, Any]:
    """A fault of the engine double on the request ``case`` sends."""
    kind = "legal" if "legal" in case["expect"] else "apply"
    position = digest_of(str(case_state(case)))
    return {"type": kind, "position": position, "move": case.get("move"), "fault": fault}


def test_a_failure_shows_the_position_both_answers_in_full_and_the_reason(
    tmp_path: Path,
) -> None:
    listed = next(c for c in CASES if c["id"] == "card.seven/single-peg-moves-seven")
    legal = next(
        c for c in CASES if c["id"] == "card.seven.split.order/same-result-reversed-accepted"
    )
    engine = double(tmp_path, [fault_on(listed, "empty"), fault_on(legal, "reject")])
    status, out = check("check", "--engine", engine, "--only", "card.seven")
    assert status == 1 and summary(out)[1] == 2
    empty = out.split(f"FAIL {listed['id']} [card.seven]: ", 1)[1].split("\nFAIL ", 1)[0]
    assert empty.startswith("the legal moves differ; the engine answered no moves\n  position:\n")
    assert "\n    pegs 0: s s s s 10\n" in empty
    assert "\n  expected: 1 move: 7 0:10-17\n  received: (no moves)\n  - 7 0:10-17\n" in empty
    assert (
        f"\n  rerun: python -m pegs_rules.spec check --engine {shlex.quote(engine)} --only "
        in empty
    )
    rejected = out.split(f"FAIL {legal['id']} [card.seven.split.order]: ", 1)[1]
    assert rejected.startswith("the move should be legal; rejected with move.blocking made up")
    assert f"\n  move: {legal['move']}\n  expected:\n    legal; afterwards:\n" in rejected
    assert "\n  received: illegal: move.blocking\n  the engine's reason: made up\n" in rejected


# --- capabilities -------------------------------------------------------------------------------


def test_an_unsupported_answer_skips_that_item_only(tmp_path: Path) -> None:
    case = next(c for c in CASES if c["id"] == "card.seven/exactly-seven")
    fault = {
        "type": "apply",
        "position": digest_of(str(case_state(case))),
        "move": case["move"],
        "fault": "unsupported",
    }
    command = shlex.split(double(tmp_path, [fault]))
    with EngineProcess(command, timeout=10) as engine:
        outcomes = run_suite(engine, [c for c in CASES if c["id"].startswith("card.seven/")])
    skipped = [o for o in outcomes if o.skipped is not None]
    assert [(o.id, o.skipped) for o in skipped] == [
        (case["id"], "the engine: not this one, on purpose")
    ]
    assert counts(outcomes).failed == 0


@pytest.mark.parametrize(
    "supports, message",
    [
        ("all", "supports must be an object"),
        ({"players": "4"}, "supports.players must be a list of ints"),
        ({"house_rules": ["nien"]}, "supports.house_rules names nien"),
        ({"requests": ["aply"]}, "supports.requests names aply"),
        ({"players": [4, 5]}, "supports.players names 5; known: 4, 6, 8"),
        ({"presets": ["house"]}, "supports.presets names house"),
    ],
)
def test_a_malformed_supports_makes_the_engine_unusable(supports: Any, message: str) -> None:
    with pytest.raises(SupportsError, match=message):
        Supports.from_hello({"supports": supports})


def test_supports_keys_of_a_later_version_are_ignored() -> None:
    later = {"presets": ["arizona"], "variants": ["x"]}
    assert Supports.from_hello({"supports": later}) == Supports(presets=frozenset({"arizona"}))


def test_a_malformed_supports_stops_the_run_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = double(tmp_path, {"supports": {"players": [5]}})
    assert main(["check", "--engine", engine, "--only", "card.seven/"]) == 2
    out = capsys.readouterr().out
    assert "not run: the engine is unusable: hello: supports.players" in out, out[-2000:]


def test_filters_select_by_preset_players_and_ruling(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--preset", "standard", "--players", "6", "--perft-depth", "1"]) == 0
    out = capsys.readouterr().out
    assert "game/greedy-standard-6p-seed-1" in out and "game/greedy-4p-seed-1" not in out
    standard_6 = [
        c
        for c in CASES
        if c["preset"] == "standard"
        and ("players: 6" in c.get("position", []) or c.get("deal", {}).get("players") == 6)
    ]
    perft_6 = [
        p for p in load_perft() if p["preset"] == "standard" and "players: 6" in p["position"]
    ]
    games_6 = [g for g in load_games() if (g["preset"], g["players"]) == ("standard", 6)]
    assert summary(out) == (len(standard_6) + len(games_6) + len(perft_6), 0, 0)
    assert main(["check", "--only-ruling", "move.verdict"]) == 0
    out = capsys.readouterr().out
    verdict = [c for c in CASES if "move.verdict" in c["rules"]]
    assert summary(out) == (len(verdict), 0, 0) and "game vectors" not in out
    assert main(["check", "--only-ruling", "card.sevn"]) == 2
    assert "--only-ruling: no ruling card.sevn" in capsys.readouterr().err


# --- perft against any engine -------------------------------------------------------------------


def test_perft_against_the_reference_finds_the_position_where_the_moves_differ(
    tmp_path: Path,
) -> None:
    """An engine whose generator leaves out one move two plies down: the command follows the
    counts that differ to that position and names the missing move."""
    position = next(p for p in load_perft() if p["id"] == "arizona-4p-seed-1-deal")
    state = case_state(position)
    first = legal_moves(state)[1]
    second = legal_moves(apply(state, first))[0]
    deep = apply(apply(state, first), second)
    lost = legal_moves(deep)[0]
    engine = double(tmp_path, {"perft_drop": [digest_of(str(deep))]})
    status, out = check(
        "perft", "--engine", engine, position["id"], "--depth", "3", "--against-reference"
    )
    assert status == 1, out
    lines = out.splitlines()
    assert (
        lines[0]
        == f"depth 3: reference {position['counts'][2]}, engine {position['counts'][2] - 1}"
    )
    assert lines[2].strip().startswith(f"after {first}, {second}: depth 1: reference ")
    assert f"the position after {first}, {second}:" in lines
    assert f"  {str(deep).splitlines()[4]}" in lines
    assert lines[-2:] == ["moves the reference lists and the engine does not:", f"  - {lost}"]
    status, out = check("perft", "--engine", engine, position["id"], "--depth", "1", "--divide")
    assert status == 0 and out.splitlines()[-1] == f"nodes: {position['counts'][0]}"
    status, out = check(
        "perft", "--engine", engine, position["id"], "--depth", "1", "--against-reference"
    )
    assert (status, out.strip()) == (0, "depth 1: the engine agrees with the reference")
