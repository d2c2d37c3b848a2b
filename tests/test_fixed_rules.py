"""An engine that plays fixed rules: it says so in its hello, and is checked on every item it
can play, each re-judged under its rules by the reference engine and marked as derived."""

from __future__ import annotations

import dataclasses
import re
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from checking import check, double, summary, validator

from pegs_rules import GameState, Move, apply, legal_moves, parse_position
from pegs_rules.cards import Rank
from pegs_rules.rules import ARIZONA, PRESETS, Nine, Rules
from pegs_rules.spec import derive, load_cases, load_games, load_perft
from pegs_rules.spec.derive import CannotDerive, derive_case, derive_perft, position_under
from pegs_rules.spec.engine import EngineProcess, ReferenceEngine
from pegs_rules.spec.harness import run_suite
from pegs_rules.spec.perft import perft
from pegs_rules.spec.record import enough_cards
from pegs_rules.spec.report import report
from pegs_rules.spec.suite import case_state
from pegs_rules.spec.supports import Supports, SupportsError, needs_of_position

CASES = load_cases()
HOUSE = {"name": "arizona", "nine": "plain", "face_values": [11, 12, 13]}
"""The fixed rules of the engine these tests play: arizona with a plain 9 and faces 11-13."""


def case(lines: list[str], **fields: Any) -> dict[str, Any]:
    """A case of the arizona preset with these position lines."""
    made = {"id": "x.y/z", "rules": ["x.y"], "preset": "arizona", "position": lines}
    return made | {"why": "made for the test", "expect": {"legal": []}} | fields


# --- derived expectations, worked out by hand ---------------------------------------------------


def test_a_case_re_judged_under_other_rules_gets_their_answer() -> None:
    plain = Rules(nine=Nine.PLAIN)
    # a plain 9 moves one peg 9 forward: 10 to 19, 30 to 39 (card.nine), no split
    nine = derive_case(case(["pegs 0: 10 30", "hand 0: 9"]), plain)
    assert nine["expect"] == {"legal": ["9 0:10-19", "9 0:30-39"]}
    assert "rule nine: plain" in nine["position"] and nine["preset"] == "arizona"
    # a king moving 13 (variant.face-values): comes out of seat 0's or its teammate seat 2's
    # start area (team.control) to 8 or 44, or goes from 20 to 33
    faces = Rules(face_values=(11, 12, 13))
    king = derive_case(case(["pegs 0: 20", "hand 0: K"]), faces)
    assert sorted(king["expect"]["legal"]) == ["K 0:20-33", "K 0:s-8", "K 2:s-44"]
    # the same move, illegal under them: a 10-step king (card.face)
    ten = case(["pegs 0: 20", "hand 0: K"], move="K 0:20-30", expect={"after": ["pegs 0: 30"]})
    assert derive_case(ten, faces)["expect"] == {"illegal": "card.face"}


def test_a_derived_position_after_a_reshuffle_leaves_out_what_the_shuffle_decides() -> None:
    """Seat 0 plays its 5 with an empty draw pile: the discard pile 2 3 and the 5 are
    reshuffled and seat 0 draws one of them (turn.reshuffle), so its hand and the draw pile
    depend on the shuffle; the lines the case lists that do not are judged, no others."""
    played = case(
        ["pegs 0: 12", "hand 0: 5 9", "discard: 2 3"],
        move="5 0:12-17",
        expect={"after": ["pegs 0: 17", "hand 0: 9", "draw:", "discard:", "turn: 1"]},
    )
    after = derive_case(played, Rules(nine=Nine.PLAIN))["expect"]["after"]
    assert after == ["pegs 0: s s s s 17", "discard:", "turn: 1"]
    only_pegs = derive_case(played | {"expect": {"after": ["pegs 0: 17"]}}, Rules(nine=Nine.PLAIN))
    assert only_pegs["expect"] == {"after": ["pegs 0: s s s s 17"]}


def test_a_derived_position_judges_the_lines_its_case_lists_and_no_reshuffle_of_its_own() -> None:
    """Under arizona seat 0 plays its 5 and draws the 8: no reshuffle, and the case lists the
    piles and hand. Under standard seat 1 draws first, two cards: the 8, then a reshuffle of
    the 3 and 5 (turn.reshuffle, not the case's business): the piles and seat 1's hand are
    not judged, seat 0's hand is (it played the 5 and draws nothing). Under arizona with a plain 9 the case's lines are judged with their values there."""
    listed = ["pegs 0: 17", "hand 0: 8 9 9 9 9", "draw:", "discard: 3 5", "turn: 1"]
    played = case(
        ["pegs 0: 12", "hand 0: 5 9 9 9 9", "hand 1: 2 2 2 2", "draw: 8", "discard: 3"],
        move="5 0:12-17",
        expect={"after": listed},
    )
    standard = derive_case(played, PRESETS["standard"])
    assert standard["expect"] == {"after": ["pegs 0: s s s s 17", "hand 0: 9 9 9 9", "turn: 1"]}
    plain = derive_case(played, Rules(nine=Nine.PLAIN))["expect"]["after"]
    assert plain == ["pegs 0: s s s s 17", *listed[1:]]
    # a move the case rejects, legal under the engine's rules: its verdict alone is judged
    ten = case(["pegs 0: 20", "hand 0: K"], move="K 0:20-30", expect={"illegal": "card.face"})
    assert derive_case(ten, ARIZONA)["expect"] == {"after": []}


def test_a_derived_deal_and_an_impossible_position() -> None:
    deal: dict[str, Any] = {"id": "deal.hands/x", "rules": ["deal.hands"], "preset": "arizona"}
    deal["why"] = "a deal"
    listed = {"hand_sizes": [5] * 4, "draw_pile": 142, "first_turn": 2, "cards": {}}
    deal |= {"deal": {"players": 4, "dealer": 1}, "expect": {"dealt": listed}}
    six = Rules(hand_size=6)
    dealt = derive_case(deal, six)
    only_sizes = derive_case(deal | {"expect": {"dealt": {"hand_sizes": [5] * 4}}}, six)
    assert only_sizes["expect"] == {"dealt": {"hand_sizes": [6] * 4}}  # what the case judges
    assert dealt["deal"]["rules"] == ["hand_size: 6"]
    facts = dealt["expect"]["dealt"]
    assert facts["hand_sizes"] == [6, 6, 6, 6] and facts["draw_pile"] == 162 - 24
    assert facts["first_turn"] == 2 and facts["cards"]["JK"] == 6 and facts["cards"]["7"] == 12
    with pytest.raises(CannotDerive, match=r"impossible under the engine's rules .*6 cards"):
        position_under(parse_position("rules: standard\nhand 0: 2 3 4 5 6 7"), ARIZONA)
    with pytest.raises(CannotDerive, match="players"):
        position_under(parse_position("players: 6"), Rules(player_counts=(4,)))


def test_a_derived_perft_position_stops_where_a_reshuffle_could_come() -> None:
    """With ten-card hands a sequence of n moves may draw 10n cards: only the depths the
    draw pile covers are counted."""
    position = next(p for p in load_perft() if p["id"] == "arizona-4p-split-sevens")
    tens = Rules(hand_size=10, decks=((4, 3, 6), (6, 3, 6), (8, 4, 8)))
    state = position_under(case_state(position), tens)
    depth = len(state.draw_pile) // 10
    assert 0 < depth < len(position["counts"]) and enough_cards(state, depth)
    derived = derive_perft(position, tens, 99)
    assert derived["depth"] == depth
    assert derived["counts"] == [perft(state, d) for d in range(1, depth + 1)]
    assert derive_perft(position, tens, 1)["counts"] == [perft(state, 1)]


# --- what supports may say ----------------------------------------------------------------------


def test_supports_reads_fixed_rules_and_the_fields_left_to_vary() -> None:
    supports = Supports.from_hello({"supports": {"rules": HOUSE}})
    assert supports.rules == Rules(nine=Nine.PLAIN, face_values=(11, 12, 13))
    assert supports.house_rules == frozenset()  # beside rules, left out means none
    standard = needs_of_position("standard", ["rule two_swap: true"], "legal")
    assert supports.judged_rules(standard) == supports.rules
    varying = Supports.from_hello({"supports": {"rules": HOUSE, "house_rules": ["two_swap"]}})
    judged = varying.judged_rules(standard)
    assert judged.two_swap and judged.nine is Nine.PLAIN and judged.draw_first is False
    full = Supports.from_hello({"supports": {"rules": {"name": "standard"}}})
    assert full.rules is not None and full.rules.draw_first  # the preset's values
    assert str(supports).startswith(
        "rules: arizona with nine: plain, face_values: 11 12 13; players: all; house rules: none"
    )


@pytest.mark.parametrize(
    "rules, message",
    [
        ("arizona", "must be a rules object"),
        ({"nine": "plain"}, "must be a rules object"),
        ({"name": "house"}, "names the preset 'house'; known: arizona, standard"),
        ({"name": "arizona", "nine": "sideways"}, "supports.rules: .*nine"),
        ({"name": "arizona", "hand_size": 0}, "supports.rules: .*hand_size"),
        ({"name": "arizona", "colour": "red"}, "supports.rules: .*colour"),
    ],
)
def test_malformed_fixed_rules_make_the_engine_unusable(rules: object, message: str) -> None:
    with pytest.raises(SupportsError, match=message):
        Supports.from_hello({"supports": {"rules": rules}})
    with pytest.raises(SupportsError, match=r"leave out supports\.presets"):
        Supports.from_hello({"supports": {"rules": HOUSE, "presets": ["arizona"]}})


def test_the_hello_schema_describes_fixed_rules() -> None:
    hello = {"id": 1, "engine": "x", "version": "1", "protocol": 1}
    good = {"rules": HOUSE, "players": [4], "house_rules": ["two_swap"]}
    assert not list(validator("hello-response").iter_errors({**hello, "supports": good}))
    for bad in (
        {"rules": HOUSE, "presets": ["arizona"]},
        {"rules": {"name": "house"}},
        {"rules": {"nine": "plain"}},
        {"rules": {"name": "arizona", "nine": "sideways"}},
    ):
        assert list(validator("hello-response").iter_errors({**hello, "supports": bad})), bad


# --- checking such an engine --------------------------------------------------------------------


def test_an_engine_with_fixed_rules_is_checked_on_every_item_it_can_play(
    tmp_path: Path,
) -> None:
    """It plays HOUSE at 4 players, never reading a position's rule lines: every 4-player
    item it can play is run, derived, and passes; the skip reasons say what is true."""
    engine = double(tmp_path, {"supports": {"rules": HOUSE, "players": [4]}, "plays": HOUSE})
    junit = tmp_path / "junit.xml"
    status, out = check("check", "--engine", engine, "--perft-depth", "1", "--junit", str(junit))
    assert status == 0, out[-3000:]
    passed, failed, skipped, declined = summary(out)
    total = len(CASES) + len(load_games()) + len(load_perft())
    assert (failed, declined, passed + skipped) == (0, 0, total)
    four = [c for c in CASES if needs_of_case_players(c) == 4]
    assert passed >= len(four) - 10 and passed > 250  # the engine could run 80
    assert f"{passed} items judged under the engine's own rules" in out
    reasons = out.split("\nskipped (not sent to the engine):\n", 1)[1].split("\n\n", 1)[0]
    for line in reasons.splitlines():
        why = re.sub(r"^\s*\d+ items?\s+", "", line)
        assert why.startswith(
            (
                "the engine does not play with 6 players",
                "the engine does not play with 8 players",
                "the position is impossible under the engine's rules (arizona with nine: plain, "
                "face_values: 11 12 13): impossible state: hand ",
                "under the engine's rules it is the game of game/",
            )
        ), why
    root = ET.parse(junit).getroot()
    derived = root.findall(".//testcase/properties/property[@name='derived']")
    assert len(derived) == passed


def needs_of_case_players(case: dict[str, Any]) -> int:
    if "deal" in case:
        return int(case["deal"]["players"])
    return next((int(x.split(":")[1]) for x in case["position"] if x.startswith("players:")), 4)


def test_an_engine_that_does_not_play_the_rules_it_declares_fails_derived_items(
    tmp_path: Path,
) -> None:
    """It declares HOUSE but plays plain arizona: the 9s and face cards it gets wrong fail,
    each marked as derived, with the case's why as the suite gives it."""
    engine = double(
        tmp_path, {"supports": {"rules": HOUSE, "players": [4]}, "plays": {"name": "arizona"}}
    )
    status, out = check(
        "check", "--engine", engine, "--only-ruling", "card.nine", "--only-ruling", "card.face"
    )
    assert status == 1
    assert summary(out)[1] >= 4
    blocks = out.split("\nFAIL ")[1:]
    for block in blocks:
        assert (
            "\n  expectation: derived: the reference engine's answer under the engine's " in block
        )
        assert "\n  why (under the suite's own rules): " in block
    king = next(b for b in blocks if "K 0:" in b and "the legal moves differ" in b.split("\n")[0])
    assert "-33" in king  # a 13-step king was expected


def test_perft_against_the_reference_uses_the_engines_fixed_rules(tmp_path: Path) -> None:
    position = next(p for p in load_perft() if p["id"] == "house-4p-nine-back-and-swap")
    engine = double(tmp_path, {"supports": {"rules": HOUSE}, "plays": HOUSE})
    status, out = check(
        "perft", "--engine", engine, position["id"], "--depth", "1", "--against-reference"
    )
    assert status == 0, out
    assert out.splitlines() == [
        "under the engine's rules (arizona with nine: plain, face_values: 11 12 13):",
        "depth 1: the engine agrees with the reference",
    ]
    status, out = check("perft", "--engine", engine, position["id"], "--depth", "1")
    state = position_under(case_state(position), Rules(nine=Nine.PLAIN, face_values=(11, 12, 13)))
    assert out.splitlines()[-1] == f"nodes: {perft(state, 1)}"
    assert perft(state, 1) != position["counts"][0]  # counted under the engine's rules


def test_run_suite_marks_derived_outcomes(tmp_path: Path) -> None:
    engine = double(tmp_path, {"supports": {"rules": HOUSE}, "plays": HOUSE})
    chosen = [c for c in CASES if c["id"].startswith("card.nine/")][:3]
    with EngineProcess(shlex.split(engine), timeout=10) as process:
        outcomes = run_suite(process, chosen)
    assert all(o.passed and o.derived for o in outcomes)
    assert all(
        "arizona with nine: plain, face_values: 11 12 13" in str(o.derived) for o in outcomes
    )


def test_a_reshuffle_of_its_own_fails_the_reshuffle_cases_alone_under_fixed_rules(
    tmp_path: Path,
) -> None:
    """An engine whose reshuffle leaves out the card just played, declaring standard: under
    standard's larger hands many positions reshuffle that do not under the cases' own rules,
    and the piles after them differ; only the cases about the reshuffle fail (the one naming
    deal.hands is standard's own, not derived), as they do when it declares nothing."""
    rulings = ("move.landing", "move.safe-holes", "card.face", "turn.reshuffle")
    selection = [arg for ruling in rulings for arg in ("--only-ruling", ruling)]
    failed = []
    for supports in ({}, {"rules": {"name": "standard"}}):
        engine = double(tmp_path, {"reshuffle_without_played": True, "supports": supports})
        status, out = check("check", "--engine", engine, *selection)
        assert status == 1
        failed.append({line.split()[1] for line in out.splitlines() if line.startswith("FAIL ")})
    assert failed[0] == failed[1]
    cases = {c["id"]: c for c in CASES}
    assert failed[0] and all("turn.reshuffle" in cases[i]["rules"] for i in failed[0])


class HouseEngine(ReferenceEngine):
    """The reference engine, in this process, saying that it plays HOUSE: it follows the
    rulings under the rule lines of each position sent."""

    def handshake(self) -> dict[str, Any]:
        return {**super().handshake(), "supports": {"rules": HOUSE}}


def test_a_misreading_in_a_derived_expectation_names_the_rulings_it_rests_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reference misreads a plain 9 when deriving (it forgets a move): the engine that
    follows the text fails the derived case, under the case's id and row, and the failure names
    the case's rulings and, apart, variant.nine-split, the text the expectation rests on."""
    chosen = next(c for c in CASES if c["id"].startswith("card.nine/") and "legal" in c["expect"])

    def misread(state: GameState) -> tuple[Move, ...]:
        return legal_moves(state)[:-1]

    monkeypatch.setattr(derive, "legal_moves", misread)
    (outcome,) = run_suite(HouseEngine(), [chosen])
    assert outcome.problem and outcome.derived and outcome.id == chosen["id"]
    assert outcome.group == chosen["rules"][0] and outcome.read == tuple(chosen["rules"])
    assert "variant.nine-split" in outcome.rests_on
    text = " ".join(report([outcome]).split())
    assert f"rulings to read: {', '.join(chosen['rules'])}; and, the expectation" in text
    assert "its reading of variant.nine-split" in text
    assert "1 failure of a derived expectation" in text


def test_a_misreading_outside_what_the_case_judges_fails_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reference misreads the discard pile after every move when deriving: the cases that
    list only pegs (and the turn) judge no pile, so the engine that follows the text passes."""
    chosen = [
        c
        for c in CASES
        if "after" in c["expect"]
        and not any(x.startswith(("discard", "draw", "hand")) for x in c["expect"]["after"])
    ][:12]

    def misread(state: GameState, move: Move) -> GameState:
        return dataclasses.replace(apply(state, move), discard_pile=(Rank.KING,))

    monkeypatch.setattr(derive, "apply", misread)
    outcomes = run_suite(HouseEngine(), chosen)
    assert len(outcomes) == 12 and all(o.derived for o in outcomes if o.skipped is None)
    assert all(o.passed for o in outcomes if o.skipped is None), report(outcomes)
