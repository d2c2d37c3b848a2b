"""The conformance suite in specs/: well-formed, traceable, and passed by the engine."""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from ruling_markers import marked_by_ruling

from pegs_rules import new_game
from pegs_rules.rulings import ADDED, RULINGS
from pegs_rules.spec import SPECS, check_case, check_game, load_cases, load_games, main
from pegs_rules.spec.clashes import clash_matrix
from pegs_rules.spec.suite import rules_of
from pegs_rules.specfiles import rulings_sections

CASES = load_cases()
GAMES = load_games()
RULINGS_MD = SPECS / "rulings.md"


def _schema(name: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((SPECS / "schema" / name).read_text(encoding="utf-8"))
    return schema


@pytest.mark.parametrize("path", sorted((SPECS / "cases").glob("*.json")), ids=lambda p: p.name)
def test_case_file_matches_schema(path: Path) -> None:
    jsonschema.validate(json.loads(path.read_text(encoding="utf-8")), _schema("case.schema.json"))


@pytest.mark.parametrize("path", sorted((SPECS / "games").glob("*.json")), ids=lambda p: p.name)
def test_game_file_matches_schema(path: Path) -> None:
    jsonschema.validate(json.loads(path.read_text(encoding="utf-8")), _schema("game.schema.json"))


def test_schema_rejects_a_case_without_an_outcome() -> None:
    bad = {
        "cases": [
            {
                "id": "x.y/z",
                "rules": ["x.y"],
                "preset": "arizona",
                "position": [],
                "why": "no outcome",
            }
        ]
    }
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, _schema("case.schema.json"))


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    assert check_case(case) is None


@pytest.mark.parametrize("record", GAMES, ids=[g["id"] for g in GAMES])
def test_game_replays(record: dict[str, Any]) -> None:
    assert check_game(record) is None


@pytest.mark.parametrize("record", GAMES, ids=[g["id"] for g in GAMES])
def test_game_starts_from_the_deal_of_its_seed(record: dict[str, Any]) -> None:
    """The reference engine's deal for the vector's seed is the recorded start."""
    rules = rules_of(record["preset"], record.get("rules", []))
    state = new_game(record["players"], seed=record["seed"], rules=rules)
    assert str(state).splitlines() == record["start"]


def test_game_vectors_cover_presets_and_house_rules() -> None:
    """Standard and two house-rule mixes, each at 4, 6 and 8 players, besides arizona."""
    kinds = Counter((g["preset"], tuple(g.get("rules", [])), g["players"]) for g in GAMES)
    mixes = {(preset, rules) for preset, rules, _ in kinds}
    assert ("arizona", ()) in mixes and ("standard", ()) in mixes
    assert len([m for m in mixes if m[1]]) >= 2
    for preset, rules in mixes:
        assert {p for m, r, p in kinds if (m, r) == (preset, rules)} == {4, 6, 8}


def test_game_replay_detects_a_changed_move() -> None:
    record = json.loads(json.dumps(GAMES[0]))
    record["turns"][5][1] = "0" * 16
    turns = len(record["turns"])
    assert str(check_game(record)).startswith(
        f"1 of {turns} turns differ; the first, turn 6: {record['turns'][5][0]} leads to a different "
        "position"
    )


def test_game_replay_reports_a_vector_it_cannot_replay() -> None:
    """A move the rules refuse, or a reshuffle without its pile, fails the vector, never the
    harness."""
    record = json.loads(json.dumps(GAMES[0]))
    record["turns"][3][0] = "K 0:s-9"
    assert str(check_game(record)).startswith("turn 4: the vector's K 0:s-9 cannot be replayed")
    record = json.loads(json.dumps(GAMES[0]))
    assert record["reshuffles"]
    record["reshuffles"] = []
    assert "reshuffle: not the cards of the discard pile" in str(check_game(record))


def test_case_ids_are_unique() -> None:
    counts = Counter(c["id"] for c in CASES)
    assert [i for i, n in counts.items() if n > 1] == []


def test_every_case_names_known_rulings() -> None:
    unknown = {r for c in CASES for r in c["rules"]} - set(RULINGS)
    assert unknown == set()


def test_every_ruling_has_three_cases() -> None:
    counts = Counter(r for c in CASES for r in c["rules"])
    assert {r: counts[r] for r in RULINGS if counts[r] < 3} == {}


STANDARD_DIFFERS = (
    "turn.sequence",  # draw to six first
    "deal.hands",  # hand sizes
    "team.control",  # own pegs until all five are home, then the first teammate clockwise
    "card.nine",  # plain 9
    "card.joker.source",  # the free joker
    "card.come-out",  # coming out from one's own start only
)
"""The rulings where the standard preset differs from arizona."""


def test_standard_preset_has_five_cases_for_each_difference() -> None:
    counts = Counter(r for c in CASES if c["preset"] == "standard" for r in c["rules"])
    assert {r: counts[r] for r in STANDARD_DIFFERS if counts[r] < 5} == {}


def test_suite_size_and_player_counts() -> None:
    assert len(CASES) >= 200
    players = Counter(
        next(
            (
                line.split(":")[1].strip()
                for line in c.get("position", [])
                if line.startswith("players")
            ),
            "4",
        )
        for c in CASES
    )
    assert {"4", "6", "8"} <= set(players)


def test_the_rulings_text_and_the_code_name_the_same_rulings() -> None:
    written = list(rulings_sections())
    assert sorted(written) == sorted(RULINGS)
    assert len(set(written)) == len(written)


def test_every_id_the_rulings_text_mentions_is_a_ruling() -> None:
    text = RULINGS_MD.read_text(encoding="utf-8")
    ids = set(re.findall(r"`([a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+)`", text)) - {"rulings.md"}
    assert ids - set(RULINGS) == set()


@pytest.mark.parametrize("rule", sorted(RULINGS))
def test_each_ruling_says_what_each_preset_does_and_where_it_comes_from(rule: str) -> None:
    text = rulings_sections()[rule]
    heads = re.findall(r"^\*\*([^*]+)\.\*\*", text, flags=re.MULTILINE)
    assert heads[-1] == "Sources" and heads.count("Sources") == 1
    said = heads[:-1]
    assert said in (["Both presets"], ["arizona", "standard"]) or (
        len(said) == 1 and said[0].startswith("Switch `")
    ), said
    assert ("*Added (" in text) == (rule in ADDED)


def test_nothing_in_the_repository_reads_rulings_from_outside_it() -> None:
    """The repository owns its rulings: no source, test or page points outside it for them."""
    root = Path(__file__).resolve().parents[1]
    outside = []
    for folder in ("src", "tests", "docs", "specs", "bench", "tools"):
        for path in (root / folder).rglob("*"):
            if (
                path.suffix in {".py", ".rst", ".md", ".json", ".toml"}
                and "_build" not in path.parts
            ):
                text = path.read_text(encoding="utf-8")
                if any(word in text for word in (f"shared/{'design'}", f"../{'shared'}")):
                    outside.append(str(path.relative_to(root)))
    assert outside == []


def test_every_ruling_is_checked_by_a_marked_test() -> None:
    """The coverage page counts ``@pytest.mark.ruling`` markers; no ruling may show 0 tests."""
    marked = marked_by_ruling(list(RULINGS))
    assert [rule for rule in RULINGS if not marked[rule]] == []
    assert set(marked) == set(RULINGS)


def test_dump_is_one_json_document_with_everything() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["dump"]) == 0
    dumped = json.loads(out.getvalue())
    assert len(dumped["cases"]) == len(CASES) and len(dumped["games"]) == len(GAMES)


def verdict_items() -> list[tuple[str, list[str], list[str]]]:
    """The numbered items of ``move.verdict``: their text, ruling ids and case ids."""
    text = rulings_sections()["move.verdict"].split("**Sources.**")[0]
    items = re.split(r"\n\s*(?=\d+\. )", text)[1:]
    found = []
    for item in items:
        names = [n for n in re.findall(r"`([^`]+)`", item) if not n.startswith("specs/")]
        found.append((item, [n for n in names if "/" not in n], [n for n in names if "/" in n]))
    return found


@pytest.mark.ruling("move.verdict")
def test_each_precedence_item_is_held_by_cases_that_expect_its_ruling() -> None:
    """``move.verdict``: every item cites cases, each an illegal move whose expected id is one
    the item names; every case written for the ruling is cited, covers a pair of items in the
    clash matrix, or settles a point decided with the clashes."""
    by_id = {c["id"]: c for c in CASES}
    items = verdict_items()
    assert len(items) >= 15
    cited = set()
    for item, rulings, cases in items:
        if item.split("\n\n")[0].rstrip().endswith(":"):
            continue  # the heading of the per-step items (6) or of a swap's (8)
        assert cases, item
        for case_id in cases:
            case = by_id[case_id]
            assert case["expect"]["illegal"] in rulings, (case_id, rulings)
            assert check_case(case) is None
        cited |= set(cases)
    written = {c["id"] for c in CASES if "move.verdict" in c["rules"]}
    in_the_clash_matrix = {case for pair in clash_matrix().pairs for case in pair.cases}
    decided = {c["id"] for c in CASES if c["file"] == "clashes.json"}
    assert written <= cited | in_the_clash_matrix | decided
