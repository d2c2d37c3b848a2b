"""The playground's engine side (``pegs_rules.web.bridge``), run here in CPython.

The browser runs the same module inside Pyodide; these tests pin down what it
answers: the library's own documents (checked by loading them back and against
the JSON Schemas), legal moves exactly as ``legal_moves`` lists them, refusals
with the ruling that ``explain`` names, bots that replay from the seed, and a
documented refusal (never an exception) for any request at all.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from played import bots_game, check_schema

from pegs_rules import (
    Rules,
    apply,
    explain,
    from_data,
    legal_moves,
    new_game,
    parse_notation,
    parse_position,
    to_json,
    view,
)
from pegs_rules.bots import decide, make_bot
from pegs_rules.errors import ReplayError
from pegs_rules.events import CardsDrawn, Event, PegDisplaced, apply_with_events
from pegs_rules.moves import Play
from pegs_rules.paths import paths_for
from pegs_rules.records import record_of, replay
from pegs_rules.render import svg
from pegs_rules.rules import PRESETS, rule_text
from pegs_rules.rulings import RULINGS
from pegs_rules.spec import load_cases
from pegs_rules.web.bridge import BOARD_SIZE, HINT_BOT, MAX_POSITION, SWITCHES, Session, warm_up

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


def started(seats: list[str], seed: int, players: int = 4, **fields: Any) -> Session:
    session = Session()
    answer = ask(session, "new_game", players=players, seed=seed, seats=seats, **fields)
    assert answer["ok"], answer
    return session


def test_after_warming_up_no_first_game_computes_a_board_again() -> None:
    """What the playground's snapshot holds: a restored engine's first game finds its
    board's path tables made."""
    paths_for.cache_clear()
    warm_up()
    made = paths_for.cache_info().misses
    assert made == len(PRESETS["arizona"].player_counts) == 3
    for players in (4, 6, 8):
        started(["human"] + ["greedy"] * (players - 1), seed=players, players=players)
    assert paths_for.cache_info().misses == made


# --- the setup form ----------------------------------------------------------------------------


def test_hello_offers_every_house_rule_switch_with_its_ruling() -> None:
    hello = ask(Session(), "hello")
    fields = {f.name for f in dataclasses.fields(Rules)}
    assert {s["name"] for s in hello["switches"]} == fields - {"name", "player_counts"}
    for switch in hello["switches"]:
        assert switch["ruling"] in RULINGS
        value = getattr(PRESETS["arizona"], switch["name"])
        if switch["kind"] == "choice":
            assert switch["choices"] == [m.value for m in type(value)]
        else:
            assert switch["kind"] == ("bool" if isinstance(value, bool) else "text")
    for name, preset in PRESETS.items():
        offered = hello["presets"][name]
        assert offered["players"] == list(preset.player_counts)
        assert offered["rules"] == {n: rule_text(preset, n) for n, _, _ in SWITCHES}
    assert hello["rulings"] == RULINGS
    assert hello["bots"] == ["random", "easy", "medium", "hard", "expert", "greedy", "mcts"]


def test_a_game_takes_the_preset_and_switches_asked_for() -> None:
    session = started(
        ["human", "greedy", "human", "greedy", "random", "mcts:30s"],
        seed=3,
        players=6,
        preset="standard",
        rules={"two_swap": "true", "face_values": "11 12 13"},
    )
    assert session.game is not None
    rules = session.game.state.rules
    assert rules.name == "standard" and rules.two_swap and rules.face_values == (11, 12, 13)
    assert session.game.state == new_game(6, seed=3, rules=rules)


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        ({"players": 5, "seats": ["human"] * 5}, "5 players: choose 4, 6 or 8"),
        ({"players": 4, "seats": ["human"] * 3}, "one seat kind per player"),
        ({"players": 4, "seats": ["human", "greedy", "alphazero", "greedy"]}, "seat 2"),
        ({"players": 4, "seats": ["human"] * 4, "preset": "texas"}, "unknown preset"),
        ({"players": 4, "seats": ["human"] * 4, "rules": {"nine": "sideways"}}, "nine"),
        ({"players": 4, "seats": ["human"] * 4, "rules": {"colour": "red"}}, "no rule"),
        ({"players": "4", "seats": ["human"] * 4}, "whole numbers"),
        ({"players": 4, "seats": "human"}, "seats is a list"),
        ({"players": 4, "seats": ["human"] * 4, "seed": 1.5}, "whole numbers"),
        ({"players": 4, "seats": ["human", "mcts:31s", "human", "human"]}, "30 s at most"),
    ],
)
def test_a_setup_the_rules_cannot_play_is_refused(setup: dict[str, Any], words: str) -> None:
    answer = ask(Session(), "new_game", **setup)
    assert answer["ok"] is False and answer["kind"] == "setup"
    assert words in answer["error"]


# --- playing -----------------------------------------------------------------------------------


def test_the_person_to_act_gets_the_engines_legal_moves_and_their_own_view() -> None:
    session = Session()
    update = ask(
        session, "new_game", players=4, seed=4, seats=["greedy", "greedy", "human", "greedy"]
    )
    state = new_game(4, seed=4)
    assert update["seat"] == state.turn == 2 and update["next"] == "human"
    assert [m["notation"] for m in update["moves"]["moves"]] == [str(m) for m in legal_moves(state)]
    assert from_data(update["moves"], "moves") == legal_moves(state)
    assert from_data(update["view"], "view") == view(state, 2)
    assert update["svg"] == svg(state, size=BOARD_SIZE)
    assert update["public"] | {} == {
        "players": 4,
        "preset": "arizona",
        "ply": 0,
        "turn": 2,
        "team": 0,
        "dealer": state.dealer,
        "winner": None,
        "hand_sizes": [5, 5, 5, 5],
        "draw_pile_size": len(state.draw_pile),
        "discard_top": None,
    }
    for kind in ("view", "moves", "events"):
        check_schema(kind, update[kind])


def test_a_move_by_shorthand_is_made_and_its_events_hide_other_seats_draws() -> None:
    session = started(["greedy", "greedy", "human", "greedy"], seed=4)
    update = ask(session, "play", move="k 0:s")
    state, events = apply_with_events(new_game(4, seed=4), parse_notation("K 0:s-8"))
    assert update["ok"] and update["last_move"] == "K 0:s-8"
    assert update["public"]["ply"] == 1 and update["next"] == "bot" and update["moves"] is None
    assert from_data(update["events"], "events") == events  # seat 2's own draw is shown
    assert update["svg"] == svg(state, size=BOARD_SIZE)
    update = ask(session, "advance")  # seat 3, a bot: seat 2 sees how many cards it drew
    shown = from_data(update["events"], "events")
    draws = [e for e in shown if isinstance(e, CardsDrawn)]
    assert draws and all(e.seat == 3 and e.cards is None for e in draws)
    check_schema("events", update["events"])


def test_an_illegal_move_is_refused_with_the_ruling_explain_gives() -> None:
    session = started(["greedy", "greedy", "human", "greedy"], seed=4)
    state = new_game(4, seed=4)
    answer = ask(session, "play", move="K 2:s-45")
    verdict = explain(state, parse_notation("K 2:s-45"))
    assert answer["ok"] is False and answer["kind"] == "illegal"
    assert answer["verdict"] == {
        "format": 1,
        "type": "explanation",
        "legal": False,
        "rule": verdict.rule,
        "reason": verdict.reason,
    }
    assert answer["move"] == "K 2:s-45"
    assert session.game is not None and session.game.state == state  # nothing changed


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("hello there", "notation"),
        ("", "notation"),
        ("K" * 301, "notation"),
        ("5 0:s-8", "illegal"),  # no 5 in the hand: the card's own ruling
    ],
)
def test_text_that_names_no_move_is_refused(text: str, kind: str) -> None:
    session = started(["greedy", "greedy", "human", "greedy"], seed=4)
    answer = ask(session, "play", move=text)
    assert answer["ok"] is False and answer["kind"] == kind and answer["error"]


def test_a_shorthand_that_fits_several_moves_lists_them() -> None:
    session = started(["greedy", "greedy", "human", "greedy"], seed=3)  # A and Q come out
    answer = ask(session, "play", move="2:s-44")
    assert answer["ok"] is False and answer["kind"] in ("ambiguous", "notation")
    answer = ask(session, "play", move="q s")
    assert answer["kind"] == "ambiguous"
    assert sorted(answer["candidates"]) == ["Q 0:s-8", "Q 2:s-44"]


def test_nobody_plays_out_of_turn() -> None:
    session = started(["greedy", "human", "greedy", "greedy"], seed=4)  # seat 2 is a bot
    answer = ask(session, "play", move="K 0:s-8")
    assert answer["ok"] is False and "seat 2 (greedy) is to act" in answer["error"]
    session = started(["human", "greedy", "human", "greedy"], seed=4)
    assert ask(session, "advance")["error"] == "no bot is to act"
    assert ask(Session(), "advance")["error"] == "no game has been started"


def test_bots_replay_from_the_seed_and_the_record_replays() -> None:
    seats = ["greedy", "random", "greedy", "random"]
    session = started(seats, seed=11)
    update: dict[str, Any] = {"next": "bot"}
    made = []
    while update["next"] == "bot":
        update = ask(session, "advance")
        made.append(update["last_move"])
    assert update["next"] == "over"
    state = new_game(4, seed=11)
    bots = [make_bot(name, 11 * 100 + seat) for seat, name in enumerate(seats)]
    expected = []
    while not state.is_over:
        move = decide(bots[state.turn], state)
        expected.append(str(move))
        state = apply(state, move)
    assert made == expected
    assert update["public"]["winner"] == state.winner
    assert update["svg"] == svg(state, size=BOARD_SIZE)
    record = ask(session, "record")
    check_schema("record", {k: v for k, v in record.items() if k != "ok"})
    assert replay(from_data({k: v for k, v in record.items() if k != "ok"}, "record")) == state
    assert ask(session, "play", move="pass")["error"].startswith("the game is over")


def test_with_no_person_the_page_looks_over_each_bots_shoulder() -> None:
    session = started(["greedy"] * 4, seed=2)
    for _ in range(5):
        update = ask(session, "advance")
        assert update["seat"] == update["public"]["turn"] and update["moves"] is None


def test_leaving_forgets_the_game() -> None:
    session = started(["human", "greedy", "greedy", "greedy"], seed=2)
    assert ask(session, "leave")["ok"]
    assert ask(session, "record")["error"] == "no game has been started"


# --- rules-lawyer mode -------------------------------------------------------------------------


def test_study_reads_position_text_and_state_json_alike() -> None:
    state = new_game(6, seed=5)
    for _ in range(30):
        state = apply(state, legal_moves(state)[-1])
    by_text = ask(Session(), "study", position=str(state))
    by_json = ask(Session(), "study", position=to_json(state))
    for answer in (by_text, by_json):
        assert answer["position"] == str(state)
        assert [m["notation"] for m in answer["moves"]["moves"]] == [
            str(m) for m in legal_moves(state)
        ]
        assert answer["hands"] == [[card.symbol for card in hand] for hand in state.hands]
    assert by_json["svg"] == svg(state, size=BOARD_SIZE)
    assert by_json["public"]["ply"] == 30  # the position text does not say how many turns
    assert by_text["public"]["ply"] == 0
    hand_made = ask(Session(), "study", position=SPLIT)  # a position needs no whole deck
    assert hand_made["position"] == str(parse_position(SPLIT))
    assert hand_made["hands"] == [["7"], [], [], []]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("hello world", "expected 'key: values'"),
        ("pegs 0: 12 12", "two pegs"),
        ("players: 5", "players"),
        ('{"format": 1, "type": "state"}', "$"),
        ("{not json", "not JSON"),
        ("   ", "no position given"),
        ("x" * (MAX_POSITION + 1), "at most 100,000 are read"),
    ],
)
def test_a_position_that_cannot_be_read_says_why(text: str, words: str) -> None:
    answer = ask(Session(), "study", position=text)
    assert answer["ok"] is False and answer["kind"] == "position"
    assert words in answer["error"]


def test_a_ten_megabyte_paste_is_refused_at_once() -> None:
    session = Session()
    started_at = time.perf_counter()
    answer = json.loads(session.handle(json.dumps({"op": "study", "position": "x" * 10**7})))
    assert answer["ok"] is False and "at most" in answer["error"]
    assert time.perf_counter() - started_at < 2


def test_explaining_a_legal_move_steps_through_its_events() -> None:
    session = Session()
    ask(session, "study", position=SPLIT)
    state = parse_position(SPLIT)
    move = parse_notation("7 0:30-33 2:39-43")  # the first part knocks seat 2's peg to 39
    answer = ask(session, "explain", move="7 30-33 39-43")
    after, events = apply_with_events(state, move)
    assert answer["verdict"]["legal"] is True and answer["verdict"]["rule"] is None
    assert answer["move"] == str(move)
    assert from_data(answer["events"], "events") == events
    frames = answer["frames"]
    assert frames[0]["svg"] == svg(state, move, size=BOARD_SIZE)
    assert frames[-1]["svg"] == svg(after, size=BOARD_SIZE)
    shown = sorted(i for frame in frames for i in frame["events"])
    assert shown == list(range(len(events)))  # every event on exactly one board
    captions = [frame["caption"] for frame in frames]
    assert captions == [
        "before",
        "seat 0's peg moves from 30 to 33",
        "seat 2's peg is knocked from 33 to its in-spot 39",
        "seat 2's peg moves from 39 to 43",
        "after",
    ]


def test_explaining_an_illegal_move_names_its_ruling() -> None:
    session = Session()
    ask(session, "study", position=SPLIT)
    state = parse_position(SPLIT)
    verdict = explain(state, parse_notation("7 0:30-33 2:33-37"))
    answer = ask(session, "explain", move="7 0:30-33 2:33-37")
    assert answer["ok"] and answer["verdict"]["legal"] is False
    assert answer["verdict"]["rule"] == verdict.rule == "board.pegs"
    assert answer["summary"] == RULINGS["board.pegs"]
    assert answer["events"] is None
    assert [f["svg"] for f in answer["frames"]] == [
        svg(state, parse_notation("7 0:30-33 2:33-37"), size=BOARD_SIZE)
    ]
    check_schema("explanation", answer["verdict"])
    answer = ask(session, "explain", move="7 0:30-33 9:33-37")  # cannot be drawn
    assert answer["ok"] and answer["frames"][0]["svg"] == svg(state, size=BOARD_SIZE)


@pytest.mark.parametrize(
    "case",
    [c for c in load_cases() if "illegal" in c["expect"]],
    ids=lambda c: str(c["id"]),
)
def test_every_illegal_spec_case_gets_its_ruling(case: dict[str, Any]) -> None:
    session = Session()
    study = ask(
        session, "study", position="\n".join([f"rules: {case['preset']}", *case["position"]])
    )
    assert study["ok"], study
    answer = ask(session, "explain", move=case["move"])
    assert answer["ok"] and answer["verdict"]["rule"] == case["expect"]["illegal"]


def test_explaining_needs_a_position() -> None:
    answer = ask(Session(), "explain", move="7 0:30-37")
    assert answer["ok"] is False and answer["error"] == "no position is being studied"


# --- the record viewer ------------------------------------------------------------------------


def test_a_record_opens_and_its_plies_are_the_engines_positions_moves_and_events() -> None:
    record = bots_game(6, seed=8)
    session = Session()
    opened = ask(session, "open_record", record=to_json(record))
    assert opened["ok"] and opened["type"] == "replay"
    assert opened["end"] == len(record.moves) and opened["moves"] == list(record.moves)
    assert opened["stopped"] is None and opened["summary"]["winner"] == replay(record).winner
    state, mover = record.start(), None
    events: tuple[Event, ...] = ()
    looked_at = {*range(0, opened["end"], 23), opened["end"] - 1, opened["end"]}
    for ply in range(opened["end"] + 1):
        if ply in looked_at:
            answer = ask(session, "replay_ply", ply=ply)
            assert answer["ply"] == ply and answer["end"] == opened["end"]
            study = answer["study"]
            assert study["svg"] == svg(state, size=BOARD_SIZE)
            assert [m["notation"] for m in study["moves"]["moves"]] == [
                str(m) for m in legal_moves(state)
            ]
            assert study["hands"] == [[card.symbol for card in hand] for hand in state.hands]
            assert answer["next_move"] == (record.moves[ply] if ply < opened["end"] else None)
            assert answer["move"] == (record.moves[ply - 1] if ply else None)
            assert answer["seat"] == mover
            assert from_data(answer["events"], "events") == events  # nothing hidden
            check_schema("events", answer["events"])
        if ply < opened["end"]:
            mover = state.turn
            state, events = apply_with_events(state, parse_notation(record.moves[ply]))


def test_an_illegal_move_stops_the_replay_with_the_ruling_pegs_replay_gives() -> None:
    record = bots_game(4, seed=3)
    state = record.start()
    for text in record.moves[:9]:
        state = apply(state, parse_notation(text))
    wrong = next(
        f"{card} {state.turn}:s-{state.board.come_out(state.turn)}"
        for card in ("A", "K", "Q", "J")
        if all(c.symbol != card for c in state.hands[state.turn])
    )
    broken = dataclasses.replace(record, moves=(*record.moves[:9], wrong, *record.moves[10:]))
    with pytest.raises(ReplayError) as refused:
        replay(broken)
    session = Session()
    opened = ask(session, "open_record", record=to_json(broken))
    assert opened["end"] == 9 == refused.value.turn - 1 and opened["summary"] is None
    assert opened["stopped"]["turn"] == 10 and opened["stopped"]["move"] == wrong
    assert opened["stopped"]["verdict"]["rule"] == refused.value.rule
    assert opened["stopped"]["summary"] == RULINGS[refused.value.rule]
    last = ask(session, "replay_ply", ply=9)
    assert last["next_move"] == wrong and last["study"]["position"] == str(state)
    answer = ask(session, "explain", move=wrong)  # the lawyer mode at that ply
    assert answer["verdict"]["rule"] == refused.value.rule
    assert ask(session, "replay_ply", ply=10)["kind"] == "request"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "not JSON"),
        ('{"format": 1, "type": "state"}', "record"),
        ('{"format": 1, "type": "record", "rules": {}, "players": 5, "seed": 1, "moves": []}', "5"),
        ("x" * (MAX_POSITION + 1), "at most"),
    ],
)
def test_a_record_that_cannot_be_read_says_why(text: str, words: str) -> None:
    answer = ask(Session(), "open_record", record=text)
    assert answer["ok"] is False and answer["kind"] == "record"
    assert words in answer["error"]


def test_a_ply_needs_an_opened_record_and_a_ply_it_reached() -> None:
    assert ask(Session(), "replay_ply", ply=0)["error"] == "no record has been opened"
    session = Session()
    ask(session, "open_record", record=to_json(bots_game(4, seed=3)))
    for ply in (-1, 10**6, "3", True, None):
        assert ask(session, "replay_ply", ply=ply)["kind"] == "request"


def test_the_summary_counts_what_the_rules_say_happened() -> None:
    record = bots_game(8, seed=3)
    final = replay(record)
    opened = ask(Session(), "open_record", record=to_json(record))
    summary = opened["summary"]
    assert summary["winner"] == final.winner and summary["turns"] == final.ply == len(record.moves)
    assert summary["winners"] == [s for s in range(8) if s % 2 == final.winner]
    seats = summary["seats"]
    for row in seats:  # a team wins when every peg of its seats is home (game.end)
        assert (row["home"] == 5) >= (row["team"] == final.winner)
    plays = [0] * 8
    state = record.start()
    knocks = 0
    for text in record.moves:
        move = parse_notation(text)
        plays[state.turn] += isinstance(move, Play)
        state, events = apply_with_events(state, move)
        knocks += sum(isinstance(e, PegDisplaced) for e in events)
    assert [row["played"] for row in seats] == plays
    assert sum(r["played"] + r["discarded"] + r["passed"] for r in seats) == final.ply
    assert sum(r["knocked"] for r in seats) == sum(r["knocked_back"] for r in seats) == knocks > 0


def test_a_games_summary_names_who_sat_where() -> None:
    session = started(["greedy"] * 4, seed=5)
    while ask(session, "advance")["next"] == "bot":
        pass
    summary = ask(session, "summary")
    assert summary["kinds"] == ["greedy"] * 4 and summary["winner"] in (0, 1)


# --- the hint ----------------------------------------------------------------------------------


def test_the_hint_is_the_search_bots_move_for_the_person_to_act_without_hidden_cards() -> None:
    session = started(["greedy", "greedy", "human", "greedy"], seed=4)
    state = new_game(4, seed=4)
    hint = ask(session, "hint", on="game")
    move = decide(make_bot(HINT_BOT, state.seed + state.ply), state)
    assert hint["ok"] and (hint["seat"], hint["move"], hint["bot"]) == (2, str(move), HINT_BOT)
    after, events = apply_with_events(state, move)
    assert hint["frames"][0]["svg"] == svg(state, move, size=BOARD_SIZE)
    assert hint["frames"][-1]["svg"] == svg(after, size=BOARD_SIZE)
    shown = from_data(hint["events"], "events")
    assert len(shown) == len(events) and all(
        e.cards is None for e in shown if isinstance(e, CardsDrawn)
    )
    assert ask(session, "hint", on="game") == hint  # the same position, the same hint
    assert session.game is not None and session.game.state == state  # nothing was played
    ask(session, "play", move=hint["move"])
    assert ask(session, "hint", on="game")["error"] == "seat 3 is a bot: a hint is for a person"


def test_the_hint_in_the_viewer_is_for_the_seat_to_act_at_that_ply() -> None:
    record = bots_game(4, seed=3)
    session = Session()
    ask(session, "open_record", record=to_json(record))
    ask(session, "replay_ply", ply=12)
    state = record.start()
    for text in record.moves[:12]:
        state = apply(state, parse_notation(text))
    hint = ask(session, "hint", on="study")
    assert hint["move"] == str(decide(make_bot(HINT_BOT, state.seed + state.ply), state))
    assert hint["seat"] == state.turn
    ask(session, "study", position=SPLIT)  # a hand-made position deals no whole deck
    refused = ask(session, "hint", on="study")
    assert refused["kind"] == "position" and refused["error"].startswith("no hint")
    assert ask(session, "hint", on="moon")["kind"] == "request"
    assert ask(Session(), "hint", on="study")["error"] == "no position is being studied"


# --- any request at all ------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
OPS = st.sampled_from(
    [
        "hello",
        "new_game",
        "advance",
        "play",
        "record",
        "study",
        "explain",
        "leave",
        "?",
        "open_record",
        "replay_ply",
        "hint",
        "summary",
    ]
)
RECORD = to_json(record_of(new_game(4, seed=1), ["discard 7", "A 1:s-26"]))
FIELDS = st.dictionaries(
    st.sampled_from(
        ["players", "preset", "rules", "seats", "seed", "move", "position", "record", "ply", "on"]
    ),
    JSON
    | st.sampled_from(["human", "greedy", "7 0:30-37", "K s", "pegs 0: 5\nhand 0: 7", RECORD])
    | st.sampled_from(["game", "study", 0, 1, 2]),
    max_size=5,
)


@given(st.lists(st.tuples(OPS, FIELDS), max_size=6), st.text(max_size=40))
def test_no_request_makes_the_session_fail(
    requests: list[tuple[str, dict[str, Any]]], raw: str
) -> None:
    session = started(["human", "random", "human", "random"], seed=1)
    for op, fields in requests:
        answer = json.loads(session.handle(json.dumps({"op": op, **fields}, default=str)))
        assert answer["ok"] in (True, False)
        assert answer.get("kind") != "internal", answer
    answer = json.loads(session.handle(raw))
    assert answer["ok"] is False or raw.strip().startswith("{")
    assert json.loads(session.handle(json.dumps(random.Random(0).random())))["kind"] == "request"
