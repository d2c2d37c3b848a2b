"""Post-game analysis (:mod:`pegs_rules.analysis`) checked against what the rules say of a
position, not against its own output: a won game's last ply, a forced move, the costly plies'
costs and the expert's moves, the chart's marks, and ``pegs analyze``."""

from __future__ import annotations

import itertools
import json
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest
from played import bots_game

from pegs_rules import apply, legal_moves, parse_notation, to_json
from pegs_rules.analysis import Analysis, analyze, chart_svg
from pegs_rules.board import team_of
from pegs_rules.cli import main
from pegs_rules.records import GameRecord
from pegs_rules.state import GameState

PLAYOUTS = 3
EXPERT = 20


@cache
def game() -> GameRecord:
    """A whole 4-player game between greedy bots, with two forced moves (plies 27 and 79)."""
    return bots_game(4, seed=7)


@cache
def analysed() -> Analysis:
    return analyze(game(), playouts=PLAYOUTS, expert=EXPERT)


def states(record: GameRecord) -> list[GameState]:
    found = [record.start()]
    for text in record.moves:
        found.append(apply(found[-1], parse_notation(text)))
    return found


def test_the_winner_has_every_chance_at_the_end_and_every_chance_is_a_share_of_playouts() -> None:
    end = states(game())[-1]
    assert end.winner is not None
    numbers = analysed().to_json()
    chances = numbers["chances"]
    assert isinstance(chances, list)
    assert chances[-1] == (1.0 if end.winner == 0 else 0.0)
    last = numbers["plies"][-1]  # type: ignore[index]
    assert last["team"] == end.winner and last["after"] == 1.0  # the winning move's team won
    assert len(chances) == len(game().moves) + 1
    assert all(0 <= c <= 1 and (c * 2 * PLAYOUTS).is_integer() for c in chances)


def test_a_forced_move_costs_nothing_and_a_chosen_one_is_before_less_after() -> None:
    plies = analysed().to_json()["plies"]
    assert isinstance(plies, list)
    forced = [p for p, state in enumerate(states(game())[:-1], 1) if len(legal_moves(state)) == 1]
    assert forced == [27, 79]
    for p in forced:
        assert plies[p - 1]["cost"] == 0 and plies[p - 1]["before"] == plies[p - 1]["after"]
    for ply in plies:
        assert ply["team"] == team_of(ply["seat"])
        assert ply["cost"] == ply["before"] - ply["after"]
    for earlier, later in itertools.pairwise(plies):  # a state's chance, either side
        same = earlier["team"] == later["team"]
        assert later["before"] == pytest.approx(earlier["after"] if same else 1 - earlier["after"])


def test_the_costly_plies_cost_most_and_carry_a_legal_move_of_the_expert() -> None:
    numbers = analysed().to_json()
    plies, costly = numbers["plies"], numbers["costly"]
    assert isinstance(plies, list) and isinstance(costly, list)
    # costs are whole shares of 2 * PLAYOUTS (the floats may differ in the last place)
    by_cost = sorted(plies, key=lambda ply: (-round(ply["cost"] * 2 * PLAYOUTS), ply["ply"]))
    assert [c["ply"] for c in costly] == sorted(p["ply"] for p in by_cost[:3])
    assert all(plies[c["ply"] - 1]["cost"] > 0 for c in costly)
    game_states = states(game())
    for c in costly:
        state = game_states[c["ply"] - 1]
        assert c["played"] == game().moves[c["ply"] - 1]
        assert c["expert"] in {str(m) for m in legal_moves(state)}
        assert plies[c["ply"] - 1]["expert"] == c["expert"]


def test_the_same_seed_gives_the_same_analysis_and_a_short_record_is_analysed_too() -> None:
    short = GameRecord(players=6, seed=3, moves=bots_game(6, seed=3).moves[:10])
    once = analyze(short, playouts=2, expert=EXPERT, seed=5)
    assert once == analyze(short, playouts=2, expert=EXPERT, seed=5)
    assert len(once.points) == 11 and once.seats[0] == short.start().turn
    with pytest.raises(ValueError):
        analyze(short, playouts=0)


def test_the_chart_has_a_title_a_description_and_a_linked_mark_per_costly_ply() -> None:
    result = analysed()
    root = ET.fromstring(chart_svg(result))
    ns = {"s": "http://www.w3.org/2000/svg"}
    assert root.find("s:title", ns) is not None and root.find("s:desc", ns) is not None
    marks = root.findall("s:a", ns)
    assert [m.get("href") for m in marks] == [f"#ply-{c.ply}" for c in result.costly]
    for mark, costly in zip(marks, result.costly, strict=True):
        assert costly.expert in (mark.get("aria-label") or "")
    line = root.find("s:polyline", ns)
    assert line is not None
    points = (line.get("points") or "").split()
    assert len(points) == len(game().moves) + 1
    assert points[-1] == ("640,0" if states(game())[-1].winner == 0 else "640,200")


def test_pegs_analyze_writes_the_numbers_and_the_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    short = GameRecord(players=4, seed=game().seed, moves=game().moves[:30])
    record = tmp_path / "game.json"
    record.write_text(to_json(short), encoding="utf-8")
    out, chart = tmp_path / "a.json", tmp_path / "a.svg"
    argv = [str(record), "--playouts", str(PLAYOUTS), "--expert", str(EXPERT), "--seed", "4"]
    assert main(["analyze", *argv, "--json", str(out), "--svg", str(chart)]) == 0
    expected = analyze(short, playouts=PLAYOUTS, expert=EXPERT, seed=4)
    assert json.loads(out.read_text(encoding="utf-8")) == expected.to_json()
    assert chart.read_text(encoding="utf-8") == chart_svg(expected)
    said = capsys.readouterr().out
    assert f"30 plies, {PLAYOUTS} playouts a state" in said
    assert main(["analyze", str(tmp_path / "missing.json")]) == 2
    broken = tmp_path / "broken.json"
    broken.write_text(to_json(GameRecord(players=4, seed=1, moves=("pass",))), encoding="utf-8")
    capsys.readouterr()
    assert main(["analyze", str(broken)]) == 1
    assert "turn 1" in capsys.readouterr().err
