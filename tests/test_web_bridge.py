"""Python's part of the playground (``pegs_rules.web.bridge``), run here in CPython.

The browser runs the same module inside Pyodide, for the hint and the searching bots
(the page plays everything else on the TypeScript engine; the browser tests check that
against this library). These tests pin down what it answers: the set-up form's offer,
bots that choose as the library's bots of the same names and seeds, the hint bot's move
seeing only the seat's view, and a documented refusal (never an exception) for any
request at all.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from played import bots_game

from pegs_rules import (
    Rules,
    apply,
    legal_moves,
    new_game,
    parse_notation,
    parse_position,
    to_json,
    view,
)
from pegs_rules.bots import decide, make_bot
from pegs_rules.rules import PRESETS, rule_text
from pegs_rules.rulings import RULINGS
from pegs_rules.web.bridge import HINT_BOT, SWITCHES, Session, hello

SPLIT = """
players: 4
turn: 0
pegs 0: 70 h2 h5 30
pegs 1: 21 26 h1
pegs 2: 33 h3 8
pegs 3: 3 60
hand 0: 7
"""


def ask(session: Session, op: str, **fields: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(session.handle(json.dumps({"op": op, **fields})))
    return answer


def test_hello_offers_every_house_rule_switch_with_its_ruling() -> None:
    offered = hello()
    fields = {f.name for f in dataclasses.fields(Rules)}
    assert {s["name"] for s in offered["switches"]} == fields - {"name", "player_counts"}
    for switch in offered["switches"]:
        assert switch["ruling"] in RULINGS
        value = getattr(PRESETS["arizona"], switch["name"])
        if switch["kind"] == "choice":
            assert switch["choices"] == [m.value for m in type(value)]
        else:
            assert switch["kind"] == ("bool" if isinstance(value, bool) else "text")
    for name, preset in PRESETS.items():
        preset_offered = offered["presets"][name]
        assert preset_offered["players"] == list(preset.player_counts)
        assert preset_offered["rules"] == {n: rule_text(preset, n) for n, _, _ in SWITCHES}
    assert offered["rulings"] == RULINGS
    assert offered["bots"] == ["random", "easy", "medium", "hard", "expert", "greedy", "mcts"]


def test_the_bots_choose_as_the_librarys_bots_of_the_same_names_and_seeds() -> None:
    seats = ["mcts:20", "human", "hard:10", "easy"]
    session = Session()
    assert ask(session, "bots", seed=11, seats=seats) == {"ok": True, "type": "bots"}
    bots = {s: make_bot(name, 11 * 100 + s) for s, name in enumerate(seats) if name != "human"}
    state = new_game(4, seed=11)
    for _ in range(12):  # the person's moves are the first listed
        if seats[state.turn] == "human":
            state = apply(state, legal_moves(state)[0])
            continue
        answer = ask(session, "decide", seat=state.turn, state=to_json(state))
        expected = decide(bots[state.turn], state)
        assert answer["ok"] and answer["move"] == str(expected), state.ply
        assert answer["thought_ms"] >= 0
        state = apply(state, expected)


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        ({"seed": 1, "seats": ["human", "greedy", "alphazero", "greedy"]}, "seat 2"),
        ({"seed": 1, "seats": "human"}, "seats is a list"),
        ({"seed": 1.5, "seats": ["human"] * 4}, "seed is a whole number"),
        ({"seed": 1, "seats": ["human", "mcts:31s", "human", "human"]}, "30 s at most"),
    ],
)
def test_bots_that_cannot_be_made_are_refused(request_: dict[str, Any], words: str) -> None:
    answer = ask(Session(), "bots", **request_)
    assert answer["ok"] is False and answer["kind"] == "setup" and words in answer["error"]


def test_a_bot_moves_only_at_its_seat_in_a_game_going_on() -> None:
    session = Session()
    ask(session, "bots", seed=4, seats=["greedy", "greedy", "human", "greedy"])
    state = new_game(4, seed=4)  # seat 2, the person's, is to act
    refused = ask(session, "decide", seat=2, state=to_json(state))
    assert refused["kind"] == "request" and refused["error"] == "no bot sits at seat 2"
    refused = ask(session, "decide", seat=3, state=to_json(state))
    assert refused["error"] == "seat 2 is to act, not seat 3"
    over = bots_game(4, seed=3)
    finished = new_game(4, seed=3)
    for text in over.moves:
        finished = apply(finished, parse_notation(text))
    refused = ask(session, "hint", state=to_json(finished))
    assert refused["error"] == "the game is over: there is no move to make"
    refused = ask(session, "decide", seat=3, state='{"format": 1, "type": "state"}')
    assert refused["kind"] == "position"
    assert ask(session, "decide", seat=3, state=7)["kind"] == "request"


def test_the_hint_is_the_search_bots_move_for_the_seat_to_act_seeing_its_view_only() -> None:
    state = new_game(4, seed=4)
    for _ in range(7):
        state = apply(state, decide(make_bot("greedy", state.ply), state))
    hint = ask(Session(), "hint", state=to_json(state))
    move = decide(make_bot(HINT_BOT, state.seed + state.ply), state)
    assert hint == {"ok": True, "type": "hint", "bot": HINT_BOT, "move": str(move)}
    # What the bot sees is the seat's view: two other hands swapped and the draw pile
    # reversed, the same hint.
    hands = list(state.hands)
    one, two = (state.turn + 1) % 4, (state.turn + 2) % 4
    assert len(hands[one]) == len(hands[two])
    hands[one], hands[two] = hands[two], hands[one]
    blind = dataclasses.replace(state, hands=tuple(hands), draw_pile=state.draw_pile[::-1])
    assert blind != state
    assert view(blind, state.turn) == view(state, state.turn)
    assert ask(Session(), "hint", state=to_json(blind))["move"] == hint["move"]
    refused = ask(Session(), "hint", state=to_json(parse_position(SPLIT)))  # no whole deck
    assert refused["kind"] == "position" and refused["error"].startswith("no hint")


# --- any request at all ------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
OPS = st.sampled_from(["bots", "decide", "hint", "hello", "?"])
STATE = to_json(new_game(4, seed=1))
FIELDS = st.dictionaries(
    st.sampled_from(["seats", "seed", "seat", "state"]),
    JSON | st.sampled_from(["human", "greedy", "random", STATE, '{"format": 1}', 0, 1, 2, 3]),
    max_size=4,
)


@given(st.lists(st.tuples(OPS, FIELDS), max_size=6), st.text(max_size=40))
def test_no_request_makes_the_session_fail(
    requests: list[tuple[str, dict[str, Any]]], raw: str
) -> None:
    session = Session()
    ask(session, "bots", seed=1, seats=["human", "random", "human", "random"])
    for op, fields in requests:
        if op == "hint":
            fields.pop("state", None)  # a real hint searches: the tests above ask for it
        answer = json.loads(session.handle(json.dumps({"op": op, **fields}, default=str)))
        assert answer["ok"] in (True, False)
        assert answer.get("kind") != "internal", answer
    answer = json.loads(session.handle(raw))
    assert answer["ok"] is False or raw.strip().startswith("{")
    assert json.loads(session.handle(json.dumps(random.Random(0).random())))["kind"] == "request"
