"""``move.verdict``: the order of the checks is data, the rulings text says the same, and every
pair of items that one move can break together is covered by a case.

The order lives in ``specs/verdict.json``; :mod:`pegs_rules.verdict` runs one function per
check in that order, and so does the TypeScript engine (its module is generated from the same
file; the package's tests check it is up to date).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import fields
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from played import examples, play, reached_states
from rules_strategies import house_rules

from pegs_rules import GameState, legal_moves, parse_notation, parse_position
from pegs_rules.errors import NotationError
from pegs_rules.reasons import explain, why_illegal
from pegs_rules.rules import Rules
from pegs_rules.rulings import RULINGS
from pegs_rules.spec.altered import altered_moves
from pegs_rules.spec.clashes import clash_matrix, never_together, pairs_broken
from pegs_rules.spec.suite import SPECS, load_cases
from pegs_rules.spec.supports import fixed_rules
from pegs_rules.specfiles import rulings_sections
from pegs_rules.verdict import CHECKS, faults, verdict_order

DATA = json.loads((SPECS / "verdict.json").read_text(encoding="utf-8"))
_ID = re.compile(r"`([a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+)`")


def prose_items(text: str) -> list[tuple[str, list[str]]]:
    """The numbered items of ``move.verdict`` that name rulings (``1`` .. ``5``, ``6.1`` ..,
    ``8.3``), each with the ruling ids it names in order of first mention (case ids, which
    hold a ``/``, left out). Items with sub-items and item 7, between the steps, hold none."""
    text = text.split("**Sources.**")[0]
    found: list[tuple[str, list[str]]] = []
    top = ""
    for block in re.split(r"\n(?=\d+\. |   \d+\. )", text)[1:]:
        number = block.strip().split(".")[0]
        if not block.startswith("   "):
            top = number
            if block.rstrip().endswith(":"):
                continue  # the heading of sub-items (6, 8)
            if number == DATA["between_steps"]["item"]:
                continue
        label = f"{top}.{number}" if block.startswith("   ") else number
        block = block.split("\n\n")[0]
        found.append((label, list(dict.fromkeys(_ID.findall(block)))))
    return found


def data_items(checks: list[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """The runs of checks of one item in the data, in order, each with its checks' ruling
    ids in order of first mention (an item whose checks are not together makes two runs)."""
    runs: list[tuple[str, list[str]]] = []
    for check in checks:
        if not runs or runs[-1][0] != check["item"]:
            runs.append((check["item"], []))
        charged = runs[-1][1]
        charged += [c for c in check["charges"] if c not in charged]
    return runs


@pytest.mark.ruling("move.verdict")
def test_the_engine_runs_exactly_the_checks_of_the_data() -> None:
    names = [check["check"] for check in DATA["checks"]]
    assert len(set(names)) == len(names)
    assert set(names) == set(CHECKS)
    assert [c.name for c in verdict_order()] == names
    rules_fields = {f.name for f in fields(Rules)}
    for check in DATA["checks"]:
        assert check["scope"] in ("move", "step", "swap"), check
        assert set(check["charges"]) <= set(RULINGS), check
        if "when" in check:
            field, value = check["when"]["field"], check["when"]["value"]
            assert field in rules_fields
            fixed_rules({"name": "arizona", field: value})  # a value the rules object takes


@pytest.mark.ruling("move.verdict")
def test_the_rulings_text_lists_the_checks_in_the_order_of_the_data() -> None:
    """Each item of the text names the rulings its checks charge, in the data's order."""
    assert prose_items(rulings_sections()["move.verdict"]) == data_items(DATA["checks"])


@pytest.mark.ruling("move.verdict")
def test_a_swap_of_two_checks_in_the_data_disagrees_with_the_text() -> None:
    """The comparison above can fail: the planted swap of 6.1 and 6.2 (``board.geometry`` after
    ``team.control``), and a swap inside item 6.7, each make the data differ from the text."""
    text = prose_items(rulings_sections()["move.verdict"])
    checks = DATA["checks"]
    names = [c["check"] for c in checks]
    for a, b in (
        ("no-such-hole", "seat-not-movable"),
        ("wait-on-in-spot", "home-entry-compulsory"),
    ):
        swapped = list(checks)
        i, j = names.index(a), names.index(b)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        assert data_items(swapped) != text


@pytest.mark.ruling("move.verdict")
def test_every_pair_of_items_that_can_meet_is_covered_by_a_case() -> None:
    matrix = clash_matrix()
    assert matrix.uncovered() == []
    assert matrix.covered_though_never() == []
    possible = [p for p in matrix.pairs if p.never is None]
    assert len(possible) == 60 and len(matrix.items) == 16


@pytest.mark.ruling("move.verdict")
def test_a_case_covers_a_pair_only_where_the_verdict_names_the_earlier_item() -> None:
    case = {
        "preset": "arizona",
        "position": ["pegs 0: 10 30 33", "hand 0: 7"],
        "move": "7 0:30-35 0:10-13",
        "expect": {"illegal": "move.blocking"},
    }
    # the first part is blocked (6.6); the total of 8 is the second part's fault (6.5): the
    # order of the steps decides (item 7), so the pair 6.5 + 6.6 is not shown by this case
    assert pairs_broken(case) == set()
    case["move"] = "7 0:10-13 0:30-35"
    assert pairs_broken(case) == {("6.5", "6.6")}


@pytest.mark.ruling("move.verdict")
def test_the_first_fault_is_the_verdict_of_every_illegal_case() -> None:
    for case in load_cases():
        if "illegal" in case["expect"]:
            state = parse_position("\n".join([f"rules: {case['preset']}", *case["position"]]))
            found = faults(state, parse_notation(case["move"]))
            assert found and found[0].rule == case["expect"]["illegal"], case["id"]


@pytest.mark.ruling("move.verdict")
def test_a_written_play_of_three_steps_is_not_a_move() -> None:
    """``move.verdict`` item 5: the notation holds one step or two; more is unreadable."""
    with pytest.raises(NotationError, match="one or two steps"):
        parse_notation("7 0:10-12 0:30-32 0:50-53")


def _check_faults(state: GameState, seed: int) -> None:
    never = never_together()
    for text in altered_moves(state, legal_moves(state), random.Random(seed), 12):
        move = parse_notation(text)
        found = faults(state, move)
        if not found:  # no check fails: the move is legal, a listed move written the other way
            assert explain(state, move).legal, text
            continue
        assert found[0].reason == why_illegal(state, move)
        for other in found[1:]:
            if found[0].step is None or other.step == found[0].step:
                pair = frozenset((found[0].check.item, other.check.item))
                assert pair not in never, (text, found[0], other)


@pytest.mark.ruling("move.verdict")
@settings(max_examples=examples(0.5), deadline=None)
@given(reached_states(), st.integers(0, 2**16))
def test_no_move_of_real_play_breaks_two_items_said_never_to_meet(
    state: GameState, seed: int
) -> None:
    """Moves altered from the legal ones of positions reached by play: their first fault is
    the verdict, and no two items ``specs/verdict.json`` keeps apart meet in them."""
    _check_faults(state, seed)


@pytest.mark.ruling("move.verdict", "variant.nine-split", "variant.two-swap")
@settings(max_examples=examples(0.5), deadline=None)
@given(house_rules(), st.integers(0, 2**32 - 1), st.integers(0, 60), st.integers(0, 2**16))
def test_no_move_under_house_rules_breaks_two_items_said_never_to_meet(
    rules: Rules, seed: int, plies: int, alter: int
) -> None:
    states, _ = play(rules.player_counts[0], seed, seed + 1, plies, rules)
    _check_faults(states[-1], alter)
