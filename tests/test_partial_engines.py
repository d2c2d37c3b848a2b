"""The harness's verdict on engines that do part of the game, name other rulings, or go wrong
deep in the tree: skipped items with their reasons, ruling ids scored apart, a report to paste,
and perft that finds where two move generators part."""

from __future__ import annotations

import dataclasses
import re
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from checking import ROOT, check, double, output_blocks, summary

from pegs_rules import GameState, apply, legal_moves, parse_notation, parse_position
from pegs_rules.spec import load_cases, load_games, load_perft, main
from pegs_rules.spec.engine import EngineProcess
from pegs_rules.spec.harness import Scoring, run_suite
from pegs_rules.spec.probe import ruling_of_move
from pegs_rules.spec.report import report
from pegs_rules.spec.suite import case_state, digest_of
from pegs_rules.spec.supports import Supports, SupportsError, needs_of_case

ADAPTER = ROOT / "docs" / "checking" / "engine_adapter.py"
CASES = load_cases()


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
    passed, failed, skipped, declined = summary(out)
    total = len(CASES) + len(load_games()) + len(load_perft())
    assert failed == declined == 0 and passed > 150 and passed + skipped == total
    assert "the engine does not play with 6 players (it plays with 4)" in out
    assert "the engine does not serve perft requests (it serves apply, legal)" in out
    assert "game/greedy-4p-seed-1: 167 turns compared, 167 agreed" in out
    root = ET.parse(junit).getroot()
    assert (root.get("failures"), root.get("skipped")) == ("0", str(skipped))
    assert len(list(root.iter("skipped"))) == skipped
    text = report.read_text(encoding="utf-8")
    assert f"**{passed} passed, 0 failed, {skipped} skipped, 0 declined**" in text
    assert '"engine": "my-engine"' in text and '"requests": [' in text
    assert "| `card.seven.split` |" in text and "## Skipped" in text and "## Failures" not in text


@pytest.mark.parametrize("args, shown", output_blocks("check"), ids=lambda x: str(x)[:40])
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
    _, failed, _, _ = summary(strict)
    assert failed == len(illegal) >= 12
    note = (
        f"{len(illegal)} rejections named another ruling than the suite (right verdict, other id)"
    )
    assert f"{note}, counted as failed (--ids strict)" in strict
    first = illegal[0]
    assert f"FAIL {first['id']} [{first['rules'][0]}]: the move is illegal, but for " in strict
    assert f"  expected: illegal: {first['expect']['illegal']}" in strict
    junit = tmp_path / "junit.xml"
    status, lenient = check(
        "check", "--engine", engine, *only, "--ids", "lenient", "--junit", str(junit)
    )
    assert status == 0, lenient[-3000:]
    assert summary(lenient)[1] == 0
    assert f"{note}, counted as passed (--ids lenient)" in lenient
    assert f"OTHER ID {first['id']} [" in lenient
    # JUnit marks them: a property and a line of output, though they count as passed
    root = ET.parse(junit).getroot()
    marked = {
        t.get("name"): t
        for t in root.iter("testcase")
        if t.find("properties/property[@name='other_ruling']") is not None
    }
    assert set(marked) == {c["id"] for c in illegal} and root.get("failures") == "0"
    text = marked[first["id"]].findtext("system-out") or ""
    assert text.startswith("right verdict, other ruling id (counted as passed, --ids lenient): ")
    counted = root.findall(".//testsuite/properties/property[@name='other_ruling']")
    assert sum(int(p.get("value", "")) for p in counted) == len(illegal)


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
    status, out = check("check", "--engine", engine, "--only", "card.seven*")
    assert status == 1 and summary(out)[1] == 2
    empty = out.split(f"FAIL {listed['id']} [card.seven]: ", 1)[1].split("\nFAIL ", 1)[0]
    read = f"rulings to read: {', '.join(listed['rules'])} (specs/rulings.md)"
    assert empty.startswith(f"the legal moves differ; the engine answered no moves\n  {read}\n")
    assert f"why: {' '.join(listed['why'].split())} position: rules: arizona" in " ".join(
        empty.split()
    )
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


def test_every_failure_shows_both_answers_and_the_why_whatever_went_wrong(
    tmp_path: Path,
) -> None:
    """An engine failure, an unreadable position, an error and an answer without the field
    wanted: each failure still shows what was expected, what came back, and the case's why."""
    legal = [c["id"] for c in CASES if c["id"].startswith("card.seven") and "after" in c["expect"]]
    picks = {
        "garbage": "card.seven/single-peg-moves-seven",
        "unreadable": legal[0],
        "nothing": legal[1],
    }
    cases = {fault: next(c for c in CASES if c["id"] == name) for fault, name in picks.items()}
    faults = [fault_on(case, fault) for fault, case in cases.items()]
    command = shlex.split(double(tmp_path, faults))
    with EngineProcess(command, timeout=10) as engine:
        outcomes = {o.id: o for o in run_suite(engine, list(cases.values()))}
    for case in cases.values():
        outcome = outcomes[case["id"]]
        assert outcome.problem and outcome.expected and outcome.received, outcome
        assert outcome.why == case["why"]
    garbage = outcomes[picks["garbage"]]
    assert garbage.expected == ("1 move: 7 0:10-17",)
    assert garbage.received[0].startswith("no answer: the answer is not JSON: this is not JSON")
    unreadable = outcomes[picks["unreadable"]]
    assert unreadable.expected[0] == "legal; afterwards:"
    assert unreadable.received == ("a position that cannot be read:", "pegs 0: 999", "hand 0: 7")
    nothing = outcomes[picks["nothing"]]
    assert str(nothing.problem).startswith("the answer has none of illegal, position, state")
    assert nothing.received[0].endswith(', "note": "nothing to say"}')
    text = report(list(outcomes.values()))
    block = text.split(f"FAIL {picks['unreadable']} [", 1)[1].split("\nFAIL ", 1)[0]
    assert "\n  why: " in block and "\n  expected:\n    legal; afterwards:\n" in block
    assert "\n  received:\n    a position that cannot be read:\n    pegs 0: 999\n" in block


# --- selecting items and running them again -----------------------------------------------------


def test_only_takes_exact_ids_and_a_selection_of_nothing_exits_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    exact = "variant.in-spot-occupied/illegal-policy"
    longer = [c["id"] for c in CASES if c["id"].startswith(exact)]
    assert len(longer) >= 2  # the id is a prefix of others
    assert main(["check", "--only", exact]) == 0
    assert summary(capsys.readouterr().out) == (1, 0, 0, 0)
    for pattern in (exact + "*", "variant.in-spot-occupied/"):
        assert main(["check", "--only", pattern]) == 0
        chosen = [c for c in CASES if c["id"].startswith(pattern.rstrip("*"))]
        assert summary(capsys.readouterr().out) == (len(chosen), 0, 0, 0)
    assert main(["check", "--only", "no.such/id"]) == 2
    err = capsys.readouterr().err
    assert "--only no.such/id: no item has this id (ids are exact; end one with / or *" in err
    assert main(["check", "--only", exact[:-1]]) == 2  # a typo: no id, and a hint
    assert f"did you mean {exact}" in capsys.readouterr().err
    assert main(["check", "--only", "game/", "--only-ruling", "card.seven"]) == 2
    assert "--only-ruling card.seven: no selected case exercises it" in capsys.readouterr().err
    assert main(["check", "--only", "card.seven/exactly-seven", "--players", "6"]) == 2
    assert "no item of the suite is selected by these options" in capsys.readouterr().err


def test_rerun_lines_carry_every_option_that_changes_the_verdict(tmp_path: Path) -> None:
    """A lenient run with a longer timeout and declines allowed: each rerun line repeats
    those options, and pasted it gives the same verdict (a pass stays a pass)."""
    stay = next(
        c for c in CASES if c["id"] == "card.seven.split.order/same-result-reversed-accepted"
    )
    engine = double(tmp_path, {"other_ids": True, "faults": [fault_on(stay, "stay")]})
    options = ["--ids", "lenient", "--allow-declines", "--timeout", "7"]
    status, out = check("check", "--engine", engine, "--only", "card.seven*", *options)
    assert status == 1 and summary(out)[1] == 1
    reruns = [line.split("rerun: ", 1)[1] for line in out.splitlines() if "  rerun: " in line]
    other = next(c for c in CASES if c["id"].startswith("card.seven") and "illegal" in c["expect"])
    assert len(reruns) == 1 + sum(
        c["id"].startswith("card.seven") and "illegal" in c["expect"] for c in CASES
    )
    for line in reruns:
        assert line.endswith(" --ids lenient --allow-declines --timeout 7"), line
    for case, verdict in ((stay, 1), (other, 0)):
        line = next(x for x in reruns if f" --only {case['id']} " in x)
        words = shlex.split(line)
        assert words[:4] == ["python", "-m", "pegs_rules.spec", "check"]
        rerun_status, rerun_out = check(*words[3:])
        assert rerun_status == verdict, rerun_out[-2000:]
        assert sum(summary(rerun_out)) == 1


# --- capabilities -------------------------------------------------------------------------------


def test_a_dishonest_engine_that_declines_what_it_gets_wrong_fails(tmp_path: Path) -> None:
    """It claims 4 players and every request, and answers unsupported to each move the
    reference rejects: those items are declined, counted apart from the ones its hello
    leaves out, listed by name, and fail the run unless declines are allowed."""
    engine = double(tmp_path, {"decline_rejections": True, "supports": {"players": [4]}})
    rulings = {"move.verdict", "card.seven"}
    chosen = [c for c in CASES if rulings & set(c["rules"]) and "deal" not in c]
    fits = [c for c in chosen if needs_of_case(c).players == 4]
    rejected = {c["id"] for c in fits if "illegal" in c["expect"]}
    junit, report = tmp_path / "junit.xml", tmp_path / "report.md"
    options = ["--only-ruling", "move.verdict", "--only-ruling", "card.seven"]
    options += ["--junit", str(junit), "--report", str(report)]
    status, strict = check("check", "--engine", engine, *options)
    assert status == 1, strict[-3000:]
    passed, failed, skipped, declined = summary(strict)
    assert (failed, declined, skipped) == (0, len(rejected), len(chosen) - len(fits))
    assert passed == len(fits) - len(rejected) and len(rejected) >= 5
    listed = strict.split("\ndeclined by the engine:\n", 1)[1].split("\n\n", 1)[0]
    assert {line.split(":")[0].strip() for line in listed.splitlines()} == rejected
    assert "the engine: I would rather not say" in listed
    note = f"{len(rejected)} items that the engine's hello covers were declined by the engine"
    assert f"{note}: each fails the run (--allow-declines lets them pass)" in strict
    table = strict.split("\nall ", 1)[0].splitlines()[3:]
    assert {x for row in table for x in row.split()[6:]} == rejected  # named in their rows
    root = ET.parse(junit).getroot()
    declines = [
        t.get("name")
        for t in root.iter("testcase")
        if t.find("failure[@type='declined']") is not None
    ]
    assert set(declines) == rejected and root.get("failures") == str(len(rejected))
    assert root.get("skipped") == str(skipped)
    text = report.read_text(encoding="utf-8")
    assert f"**{passed} passed, 0 failed, {skipped} skipped, {len(rejected)} declined**" in text
    assert "## Declined by the engine" in text and all(f"| `{x}` |" in text for x in rejected)

    status, allowed = check("check", "--engine", engine, *options, "--allow-declines")
    assert status == 0, allowed[-3000:]
    assert summary(allowed) == (passed, 0, skipped, len(rejected))
    assert "were declined by the engine: allowed (--allow-declines)" in allowed
    root = ET.parse(junit).getroot()
    assert root.get("failures") == "0" and root.get("skipped") == str(skipped + len(rejected))
    assert len(root.findall(".//skipped[@type='declined']")) == len(rejected)


def vector_fault(game: dict[str, Any], turn: int, fault: str) -> dict[str, Any]:
    """A fault of the engine double on turn ``turn`` (from 1) of a game vector."""
    state = parse_position("\n".join(game["start"]))
    for text, _ in game["turns"][: turn - 1]:
        state = apply(state, parse_notation(text))
    move = game["turns"][turn - 1][0]
    return {"type": "apply", "position": digest_of(str(state)), "move": move, "fault": fault}


def test_a_decline_inside_a_game_vector_ends_it_and_keeps_the_turns_before(
    tmp_path: Path,
) -> None:
    """Declining turn 10 of a vector that agreed so far declines the vector; a difference at
    turn 5 before it fails the vector, the decline noted."""
    games = load_games()[:2]
    faults = [vector_fault(games[0], 10, "unsupported")]
    faults += [vector_fault(games[1], 5, "stay"), vector_fault(games[1], 10, "unsupported")]
    command = shlex.split(double(tmp_path, faults))
    with EngineProcess(command, timeout=10) as engine:
        first, second = run_suite(engine, [], games)
    assert first.declined == "the engine: not this one, on purpose" and first.problem is None
    assert first.detail == "9 turns compared, 9 agreed; the engine declined turn 10"
    assert first.fails(Scoring()) and not first.fails(Scoring(allow_declines=True))
    assert second.declined is None and second.fails(Scoring(allow_declines=True))
    assert str(second.problem).startswith("1 of 9 turns differ; the first, turn 5: ")
    assert second.detail == (
        "9 turns compared, 8 agreed; first difference at turn 5; the engine declined turn 10"
    )


def test_a_perft_depth_the_engine_will_not_count_is_a_decline(tmp_path: Path) -> None:
    position = load_perft()[0]
    state = case_state(position)
    fault = {
        "type": "perft",
        "position": digest_of(str(state)),
        "move": None,
        "fault": "unsupported",
    }
    command = shlex.split(double(tmp_path, [fault]))
    with EngineProcess(command, timeout=10) as engine:
        (outcome,) = run_suite(engine, [], [], [position], perft_depth=2)
    assert outcome.declined == "the engine: not this one, on purpose"
    assert outcome.detail == ""  # depth 1 is the one declined: nothing was compared


def test_a_wrong_count_stays_a_failure_when_the_engine_declines_the_divide(
    tmp_path: Path,
) -> None:
    """The harness asks for ``divide`` after a wrong count; an engine that declines it has still
    answered the count wrong: a failure, with or without ``--allow-declines``."""
    position = load_perft()[0]
    fault = {
        "type": "perft",
        "position": digest_of(str(case_state(position))),
        "move": None,
        "fault": "miscount-no-divide",
    }
    engine = double(tmp_path, [fault])
    status, out = check(
        "check",
        "--engine",
        engine,
        "--only",
        f"perft/{position['id']}",
        "--perft-depth",
        "1",
        "--allow-declines",
    )
    assert status == 1, out[-3000:]
    assert summary(out) == (0, 1, 0, 0)
    expected = position["counts"][0]
    assert (
        f"depth 1: {expected + 1} nodes, expected {expected}; the engine declined the divide "
        "(the engine: no divide, on purpose)"
    ) in out


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
    total = sum(c["id"].startswith("card.seven/") for c in CASES)
    assert (
        f"the engine is unusable: hello: supports.players names 5; known: 4, 6, 8; {total} "
        "items not run" in out
    ), out[-2000:]
    assert out.count("supports.players names 5") == 1 and "FAIL" not in out


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
    assert summary(out) == (len(standard_6) + len(games_6) + len(perft_6), 0, 0, 0)
    assert main(["check", "--only-ruling", "move.verdict"]) == 0
    out = capsys.readouterr().out
    verdict = [c for c in CASES if "move.verdict" in c["rules"]]
    assert summary(out) == (len(verdict), 0, 0, 0) and "game vectors" not in out
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
    assert f"the position after {first}, {second} (the engine's and the reference's):" in lines
    assert f"  {str(deep).splitlines()[4]}" in lines
    assert lines[-2:] == ["moves the reference lists and the engine does not:", f"  - {lost}"]
    status, out = check("perft", "--engine", engine, position["id"], "--depth", "1", "--divide")
    assert status == 0 and out.splitlines()[-1] == f"nodes: {position['counts'][0]}"
    status, out = check(
        "perft", "--engine", engine, position["id"], "--depth", "1", "--against-reference"
    )
    assert (status, out.strip()) == (0, "depth 1: the engine agrees with the reference")


def test_perft_against_the_reference_compares_the_engines_positions_too(tmp_path: Path) -> None:
    """An engine whose apply loses a card of the next seat's hand after any move from the
    start: its counts differ one level down, though its moves in the reference's position
    there are right. The finder asks the engine to apply the move, and shows its position."""
    position = next(p for p in load_perft() if p["id"] == "arizona-4p-seed-1-deal")
    state = case_state(position)
    engine = double(tmp_path, {"apply_drop": [digest_of(str(state))]})
    status, out = check(
        "perft", "--engine", engine, position["id"], "--depth", "2", "--against-reference"
    )
    assert status == 1, out
    lines = out.splitlines()
    moved = next(
        move
        for move in legal_moves(state)
        if len(legal_moves(apply(state, move)))
        != len(legal_moves(replace_hand(apply(state, move))))
    )
    after = apply(state, moved)
    assert lines[1].strip().startswith(f"after {moved}: depth 1: reference ")
    assert f"the engine's position after {moved}:" in lines
    assert f"the reference's position after {moved}:" in lines
    theirs = lines[lines.index(f"the engine's position after {moved}:") + 1 :]
    seat = after.turn
    hand = next(x for x in str(after).splitlines() if x.startswith(f"hand {seat}:"))
    assert f"  {hand}" not in theirs[: theirs.index("")]  # the engine's hand lacks a card
    assert f"  {hand}" in lines[lines.index(f"the reference's position after {moved}:") :]
    assert f"the engine's position after {moved} is not the reference's" in out


def replace_hand(state: GameState) -> GameState:
    """``state`` with the first card of the hand of the seat to act left out."""
    hands = list(state.hands)
    hands[state.turn] = hands[state.turn][1:]
    return dataclasses.replace(state, hands=tuple(hands))


def test_a_game_vector_failure_names_the_ruling_its_first_difference_touches(
    tmp_path: Path,
) -> None:
    """After the first turn the engine leaves a card out of the next seat's hand: the hands
    differ, which turn.sequence governs. A perft count that leaves out a move names the ruling
    of that move's card."""
    record = load_games()[0]
    start = parse_position("\n".join(record["start"]))
    command = shlex.split(double(tmp_path, {"apply_drop": [digest_of(str(start))]}))
    position = load_perft()[0]
    state = case_state(position)
    with EngineProcess(command, timeout=10) as engine:
        (game,) = run_suite(engine, [], [record])
    assert game.problem and game.problem.startswith("1 of ") and game.read == ("turn.sequence",)
    assert "rulings to read: turn.sequence (specs/rulings.md)" in report([game])
    dropping = double(tmp_path, {"perft_drop": [digest_of(str(state))]})
    with EngineProcess(shlex.split(dropping), timeout=10) as engine:
        (counted,) = run_suite(engine, [], [], [position], perft_depth=1)
    first = str(legal_moves(state)[0])
    assert counted.diff == (f"- {first}: 1",)
    assert counted.read == (ruling_of_move(state, first),)
