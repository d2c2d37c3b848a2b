"""The differential fuzzer: it finds nothing against the reference, finds and shrinks every bug
planted in a broken engine, and prints each as a suite case and a perft position that are
ready to commit, with a rerun command that finds it again."""

from __future__ import annotations

import dataclasses
import io
import json
import random
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import broken_engine
import jsonschema
import pytest
from checking import ROOT, check, output_blocks

from pegs_rules import apply, legal_moves, new_game, parse_notation, parse_position
from pegs_rules.rules import ARIZONA, STANDARD, Nine, Rules
from pegs_rules.spec import SPECS, check_case, main
from pegs_rules.spec.altered import altered_moves
from pegs_rules.spec.engine import Engine, EngineProcess, ReferenceEngine
from pegs_rules.spec.finding import perft_position, suite_case
from pegs_rules.spec.fuzz import Fuzzer, Options
from pegs_rules.spec.harness import run_case
from pegs_rules.spec.perft import perft
from pegs_rules.spec.plan import DECK_TABLES, plan_for, random_rules
from pegs_rules.spec.probe import Texts, reference_verdict
from pegs_rules.spec.record import enough_cards
from pegs_rules.spec.shrink import smaller_positions
from pegs_rules.spec.suite import case_state
from pegs_rules.spec.supports import Supports
from pegs_rules.state import GameState

BROKEN = ROOT / "tests" / "broken_engine.py"
SERVE = f"{sys.executable} -m pegs_rules.spec serve"


class Broken(ReferenceEngine):
    """broken_engine.py's answers with ``bugs``, in this process (the pipe is tested apart)."""

    def __init__(self, *bugs: str) -> None:
        super().__init__()
        self.bugs = set(bugs)
        self.name = f"broken ({', '.join(bugs)})"

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = broken_engine.answer({"id": 0, **request}, self.bugs)
        assert answer is not None
        return answer


def schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SPECS / "schema" / name).read_text(encoding="utf-8"))
    return loaded


def out_of_start(state: GameState) -> int:
    return sum(p != -1 for locs in state.pegs for p in locs)


def cards(state: GameState) -> int:
    return sum(map(len, state.hands)) + len(state.draw_pile) + len(state.discard_pile)


# --- the reference's side -----------------------------------------------------------------------


def test_the_text_after_a_move_is_the_position_text() -> None:
    """Texts.after writes the position after any move as str() does, reshuffles and game
    ends included, under random house rules."""
    rng = random.Random(3)
    reshuffled = won = 0
    for game in range(4):
        rules = random_rules(rng, rng.choice([ARIZONA, STANDARD]), None)
        rules = dataclasses.replace(rules, decks=DECK_TABLES[2])  # small: early reshuffles
        state = new_game(rng.choice([4, 6, 8]), seed=game, rules=rules)
        for _ in range(100):
            texts = Texts(state)
            for move in legal_moves(state):
                after = apply(state, move)
                reshuffled += after.reshuffles != state.reshuffles
                assert texts.after(after, move) == str(after), (str(state), str(move))
            state = apply(state, rng.choice(legal_moves(state)))
    assert reshuffled > 0
    ending = parse_position("pegs 0: 2 h2 h3 h4 h5\npegs 2: h1 h2 h3 h4 h5\nhand 0: 2 5\ndraw: 7")
    for move in legal_moves(ending):
        after = apply(ending, move)
        won += after.winner is not None
        assert Texts(ending).after(after, move) == str(after)
    assert won == 1


def test_random_rules_vary_only_the_fields_the_engine_varies() -> None:
    rng = random.Random(1)
    changed: set[str] = set()
    for _ in range(200):
        rules = random_rules(rng, ARIZONA, None)
        assert rules.player_counts == ARIZONA.player_counts and rules.name == "arizona"
        changed |= {
            f for f in Rules.__dataclass_fields__ if getattr(rules, f) != getattr(ARIZONA, f)
        }
        nine = random_rules(rng, STANDARD, frozenset({"nine"}))
        assert [
            f for f in Rules.__dataclass_fields__ if getattr(nine, f) != getattr(STANDARD, f)
        ] in (
            [],
            ["nine"],
        )
    assert changed == set(Rules.__dataclass_fields__) - {"name", "player_counts"}
    assert random_rules(rng, ARIZONA, frozenset()) == ARIZONA


def test_the_plan_keeps_to_what_the_engine_plays() -> None:
    supports = Supports.from_hello(
        {"supports": {"presets": ["standard"], "players": [4, 6], "requests": ["legal"]}}
    )
    plan = plan_for(supports, players=(6, 8))
    assert (plan.bases, plan.players, plan.legal, plan.apply) == ((STANDARD,), (6,), True, False)
    assert plan.varied is None
    fixed = Supports.from_hello({"supports": {"rules": {"name": "arizona", "nine": "plain"}}})
    assert plan_for(fixed).bases == (Rules(nine=Nine.PLAIN),)
    assert plan_for(fixed).varied == frozenset()
    with pytest.raises(
        ValueError, match="--rules arizona: they are not the rules the engine plays"
    ):
        plan_for(fixed, rules=(ARIZONA,))
    with pytest.raises(ValueError, match="neither legal nor apply"):
        plan_for(Supports.from_hello({"supports": {"requests": ["perft"]}}))
    with pytest.raises(ValueError, match="no player count"):
        plan_for(supports, players=(8,))


def test_altered_moves_are_mostly_illegal_and_never_written_as_a_listed_move() -> None:
    rng = random.Random(2)
    state = new_game(4, seed=9)
    verdicts = []
    kinds = set()
    for _ in range(150):
        moves = legal_moves(state)
        listed = {str(m) for m in moves}
        for move in altered_moves(state, moves, rng, 6):
            assert move not in listed
            verdicts.append(reference_verdict(state, move, Texts(state)).rule)
            parsed = parse_notation(move)
            kinds.add(type(parsed).__name__ + str(len(getattr(parsed, "steps", ()))))
        state = apply(state, rng.choice(moves))
    illegal = [rule for rule in verdicts if rule is not None]
    assert len(verdicts) >= 600 and len(illegal) / len(verdicts) > 0.8
    assert len(set(illegal)) >= 10 and {"Play1", "Play2", "Discard0", "Pass0"} <= kinds


def test_smaller_positions_rotate_and_drop_seats_with_their_moves() -> None:
    """From a 6-player position with seat 4 to act: leaving out seats 0 and 1 (nothing on
    holes 0..35) renumbers seat 4 as seat 2 and hole 80 as 44; turning the board so that
    seat 4 is seat 0 makes hole 80 hole 8 (80 - 72)."""
    state = parse_position(
        "players: 6\nturn: 4\npegs 4: 80 82\npegs 3: 60\nhand 4: 5\nhand 1: 7\ndraw: 2 3"
    )
    found = {name: (made, remap) for name, made, remap in smaller_positions(state, set())}
    dropped, remap = found["seats 0 and 1 left out"]
    assert (dropped.players, dropped.turn) == (4, 2)
    assert dropped.pegs[2] == parse_position("pegs 2: 44 46").pegs[2]
    assert dropped.pegs[1] == parse_position("pegs 1: 24").pegs[1]
    assert remap("5 4:80-85") == "5 2:44-49" and remap("5 0:1-6") is None
    rotated, remap = found["seat 4 to act as seat 0"]
    assert rotated.turn == 0 and rotated.hands[0] == state.hands[4]
    assert rotated.pegs[0] == parse_position("pegs 0: 8 10").pegs[0]
    assert remap("5 4:80-85") == "5 0:8-13" and remap("K 5:s-98") == "K 1:s-26"
    assert "seats 2 and 3 left out" not in found  # seat 3 has a peg out
    assert found["draw pile emptied"][0].draw_pile == ()
    assert found["peg 4:80 to start"][0].pegs[4] == parse_position("players: 6\npegs 4: 82").pegs[4]
    kept = {name for name, _, _ in smaller_positions(state, {(4, "80")})}
    assert "peg 4:80 to start" not in kept and "peg 4:82 to start" in kept


# --- against engines ----------------------------------------------------------------------------


def run_fuzzer(engine: list[str] | Engine, options: Options) -> tuple[Fuzzer, int, str]:
    """The fuzzer run against ``engine`` (a command line, or an engine in this process)."""
    out = io.StringIO()
    if not isinstance(engine, list):
        fuzzer = Fuzzer(engine, options, out)
        return fuzzer, fuzzer.run(), out.getvalue()
    with EngineProcess(engine, timeout=20) as process:
        fuzzer = Fuzzer(process, options, out, rerun=lambda n: f"--positions {n}")
        return fuzzer, fuzzer.run(), out.getvalue()


def test_the_reference_over_the_protocol_finds_nothing() -> None:
    fuzzer, status, out = run_fuzzer(shlex.split(SERVE), Options(positions=12, seed=5))
    assert status == 0 and out.rstrip().endswith("no divergence found"), out
    tally = fuzzer.tally
    assert tally.positions == 12 and tally.requests == tally.legal + tally.listed + tally.altered
    assert tally.legal == 12 and tally.altered > 12 and tally.illegal > 0
    summary = out.splitlines()[-2]
    assert summary.startswith(f"checked 12 positions of {tally.games} game")
    assert re.search(r" in \d+\.\d s: [\d,]+ positions/s, [\d,]+ requests/s$", summary)


def test_every_planted_bug_is_found_and_shrunk_to_a_few_pegs_and_cards() -> None:
    """Four bugs at once, kept going: each is found, shrunk, and its case catches it."""
    bugs = ("blocking", "wrong-id", "split-order", "joker-draw")
    fuzzer, status, out = run_fuzzer(Broken(*bugs), Options(positions=12, seed=3, keep_going=True))
    assert status == 1
    found = {f.found.signature: f for f in fuzzer.findings.values()}
    expected = {
        ("extra", "move.blocking"): (2, 1),
        ("ruling", "card.number", "card.face"): (1, 1),
        ("rejected", "card.seven.split.order", "card.seven.split"): (2, 1),
        ("position", "turn.sequence", "draw", "hand"): (1, 6),  # a full hand and one card to draw
    }
    assert set(found) == set(expected), out[-3000:]
    for signature, (pegs, dealt) in expected.items():
        finding = found[signature]
        assert finding.shrunk is not None
        small = finding.shrunk.divergence
        assert small.signature == signature
        assert out_of_start(small.state) <= pegs and cards(small.state) <= dealt, small.state
        check_the_finding(small, Broken(*bugs))
    said = out.split("by the ruling they touch:\n", 1)[1].splitlines()
    assert [line.split(":")[0].strip() for line in said] == [
        "card.number",
        "card.seven.split.order",
        "move.blocking",
        "turn.sequence",
    ]


class HouseRulesBroken(Broken):
    """The broken engine, saying that it plays every preset and house rule (it does: only its
    bugs are its own)."""

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = super().ask(request)
        answer.pop("supports", None)
        return answer


def test_house_rules_the_divergence_does_not_need_are_shrunk_away() -> None:
    """Games under four house rules; the bug (a 4 rejected as card.face, not card.number)
    needs none of them: the shrunk position has the preset's rules. An engine that plays those
    rules alone keeps them (its positions must be of its rules)."""
    house = Rules(nine=Nine.PLAIN, two_swap=True, wait_on_in_spot=True, face_values=(11, 12, 13))
    options = Options(positions=12, seed=3, rules=(house,), players=(4,))
    fuzzer, status, out = run_fuzzer(HouseRulesBroken("wrong-id"), options)
    assert status == 1
    (finding,) = fuzzer.findings.values()
    assert finding.found.state.rules == house and finding.shrunk is not None
    assert finding.shrunk.divergence.state.rules == ARIZONA, out[-3000:]
    assert "rule face_values: 11 12 13 reset to the preset's" in finding.shrunk.steps
    state = finding.found.state
    names = [name for name, _, _ in smaller_positions(state, set(), lambda rules: False)]
    assert not any(name.startswith("rule ") for name in names)
    names = [name for name, _, _ in smaller_positions(state, set(), lambda rules: True)]
    assert names[:4] == [
        f"rule {line} reset to the preset's"
        for line in (
            "nine: plain",
            "face_values: 11 12 13",
            "wait_on_in_spot: true",
            "two_swap: true",
        )
    ]


def check_the_finding(found: Any, engine: Engine) -> None:
    """The case is valid, holds for the reference and fails for the engine; the perft position
    is valid and counted right."""
    case = suite_case(found, "a test")
    assert case is not None
    jsonschema.validate({"cases": [case]}, schema("case.schema.json"))
    assert check_case(case) is None
    assert run_case(engine, case).problem is not None
    position = perft_position(found, "a test")
    document = {"description": "one position", "positions": [position]}
    jsonschema.validate(document, schema("perft.schema.json"))
    state = case_state(position)
    assert position["depth"] == 3 and enough_cards(state, 3)  # as specs/perft.json wants
    assert position["counts"] == [perft(state, d) for d in range(1, position["depth"] + 1)]


def test_the_first_divergence_ends_the_run_and_its_rerun_finds_it_again(tmp_path: Path) -> None:
    engine = f"{sys.executable} {BROKEN} wrong-id"
    status, out = check("fuzz", "--engine", engine, "--seed", "3", "--players", "4")
    assert status == 1
    assert out.count("\ndivergence ") == 1 and out.startswith("fuzzing ")
    block = out.split("\ndivergence 1 at position ", 1)[1]
    number = int(block.split(" ", 1)[0].replace(",", ""))
    rerun = next(x for x in out.splitlines() if x.startswith("  rerun: ")).split(": ", 1)[1]
    words = ["python", "-m", "pegs_rules.spec", "fuzz", "--engine", engine, "--seed", "3"]
    assert rerun == shlex.join([*words, "--positions", str(number), "--players=4"])
    # the request that diverged, sent by hand: the engine names card.face, as the block says
    by_hand = next(x for x in out.splitlines() if x.startswith("    printf '%s\\n' "))
    assert by_hand.endswith(f" | {engine}") and "  no perft position: it would not " in out
    sent = subprocess.run(by_hand, shell=True, capture_output=True, text=True, timeout=60)
    hello, answer = (json.loads(line) for line in sent.stdout.splitlines())
    assert hello["id"] == 1 and answer == {"id": 2, "illegal": "card.face"}
    assert "  engine: illegal: card.face\n" in block
    status, again = check(*shlex.split(rerun)[3:])
    assert status == 1
    shown = again.split("\ndivergence 1 ", 1)[1].split("  rerun:")[0]
    assert shown == "at position " + block.split("  rerun:")[0]
    assert f"checked {number:,} positions" in again or f"checked {number} position" in again


def test_a_decline_is_a_divergence_unless_declines_are_allowed() -> None:
    _, status, out = run_fuzzer(Broken("decline-jokers"), Options(positions=30))
    assert status == 1 and "the engine declines a request its hello covers" in out
    fuzzer, status, out = run_fuzzer(
        Broken("decline-jokers"), Options(positions=30, allow_declines=True)
    )
    assert status == 0 and fuzzer.tally.declined > 0
    assert f"{fuzzer.tally.declined} requests declined (allowed: --allow-declines)" in out


def test_an_engine_that_crashes_is_reported_with_the_position_and_the_request() -> None:
    command = [sys.executable, str(BROKEN), "crash"]
    fuzzer, status, out = run_fuzzer(command, Options(positions=40))
    assert status == 1 and len(fuzzer.failures) == 1
    line = next(x for x in out.splitlines() if x.startswith("engine failure at position"))
    assert ", on the request apply 9 " in line and "exit status 3" in line
    assert "crashing on purpose" in out and "\n  position:\n    rules: arizona\n" in out


def test_requests_in_flight_are_answered_in_order() -> None:
    state = new_game(4, seed=2)
    moves = [str(m) for m in legal_moves(state)]
    with EngineProcess(shlex.split(SERVE), timeout=20) as engine:
        for move in moves * 20:
            engine.send({"type": "apply", "move": move, "position": str(state)})
        answers = [engine.receive() for _ in moves * 20]
    assert len(answers) > 40
    for move, answer in zip(moves * 20, answers, strict=True):
        assert answer["position"] == str(apply(state, parse_notation(move)))


@pytest.mark.parametrize("args, shown", output_blocks("fuzz"), ids=lambda x: str(x)[:40])
def test_the_worked_example_on_the_docs_page_is_what_the_fuzzer_prints(
    args: str, shown: list[str]
) -> None:
    """The page's run against an adapter with a planted bug: each line shown is printed, in
    order and exactly (``...`` stands for lines left out), but for the times in the summary."""
    status, out = check("fuzz", *shlex.split(args))
    assert status == 1 and shown[0] == f"$ python -m pegs_rules.spec fuzz {args}"
    timing = re.compile(r"in [\d.]+ s: [\d,]+ positions/s, [\d,]+ requests/s")

    def untimed(line: str) -> str:
        return timing.sub("in (some time)", line)

    lines = iter(out.splitlines())
    for line in shown[1:]:
        if line.strip() != "...":
            assert any(untimed(got) == untimed(line) for got in lines), (line, out[-3000:])


def test_the_command_plays_the_rules_and_players_asked_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rules = '{"name": "arizona", "nine": "plain"}'
    argv = ["fuzz", "--positions", "3", "--rules", rules, "--players", "6", "--altered", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "fuzzing pegs-rules (in process): seed 1, rules arizona with nine: plain "
        "(no house rule drawn); 6 players; legal and apply requests\n"
    )
    assert "checked 3 positions of 1 game (" in out and out.endswith("no divergence found\n")
    for bad, said in (
        ("house", "names the preset 'house'"),
        ('{"name": "arizona", "nine": 9}', "nine"),
    ):
        with pytest.raises(SystemExit) as exit_:
            main(["fuzz", "--rules", bad])
        assert exit_.value.code == 2 and said in capsys.readouterr().err
