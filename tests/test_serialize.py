"""JSON: round trips over reached states, the schemas, and untrusted input.

Loading anything must either give a value that round-trips and passes the validator, or
raise the library's FormatError: never another exception, never an impossible state.
"""

from __future__ import annotations

import dataclasses
import json
import typing
from collections.abc import Callable
from enum import Enum
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from played import SCHEMAS, check_schema, examples, full_game, reached_states

from pegs_rules import (
    ARIZONA,
    Explanation,
    FormatError,
    GameState,
    PegsError,
    PlayerView,
    Rank,
    Rules,
    apply_with_events,
    events_to_data,
    explain,
    from_data,
    from_json,
    legal_moves,
    moves_to_data,
    new_game,
    parse_notation,
    record_of,
    redact,
    serialize,
    to_data,
    to_json,
    validate,
    view,
)
from pegs_rules.rules import PRESETS

GAME = new_game(4, seed=5)
LATE = full_game("arizona", 4)[0][700]


def problems_of(text: str | bytes) -> tuple[str, ...]:
    with pytest.raises(FormatError) as caught:
        from_json(text)
    assert caught.value.problems and str(caught.value)
    return caught.value.problems


# --- round trips -------------------------------------------------------------------------------


@given(reached_states())
def test_every_reached_state_round_trips_and_matches_the_schema(state: GameState) -> None:
    assert validate(state) == []
    text = to_json(state)
    assert from_json(text) == state
    assert from_json(text, "state") == state
    assert from_data(json.loads(text)) == state
    check_schema("state", json.loads(text))


@settings(max_examples=examples(0.5))
@given(reached_states())
def test_every_legal_move_round_trips_and_matches_the_schema(state: GameState) -> None:
    for move in legal_moves(state):
        data = to_data(move)
        check_schema("move", data)
        assert from_json(json.dumps(data)) == move
        assert from_data(data, "move") == move


@settings(max_examples=examples(0.5))
@given(reached_states(), st.data())
def test_what_a_client_sees_round_trips_and_matches_the_schemas(
    state: GameState, data: st.DataObject
) -> None:
    seat = data.draw(st.integers(0, state.players - 1))
    seen = view(state, seat)
    check_schema("view", to_data(seen))
    assert from_json(to_json(seen)) == seen
    assert from_json(to_json(seen), "view") == seen
    moves = legal_moves(state)
    listed = moves_to_data(moves)
    check_schema("moves", listed)
    assert from_json(json.dumps(listed), "moves") == moves
    if not moves:  # a finished game (the last state of a full game) has none to explain
        return
    move = data.draw(st.sampled_from(moves))
    verdict = explain(state, move)
    check_schema("explanation", to_data(verdict))
    assert from_json(to_json(verdict), "explanation") == verdict
    if state.winner is None:
        _, events = apply_with_events(state, move)
        for reader in (seat, None):
            document = events_to_data(events, reader)
            check_schema("events", document)
            shown = events if reader is None else redact(events, reader)
            assert from_json(json.dumps(document), "events") == shown


def test_a_view_document_holds_no_hidden_card_and_no_seed() -> None:
    data = to_data(view(LATE, 1))
    assert set(data) == {f.name for f in dataclasses.fields(PlayerView)} | {"format", "type"}
    assert data["hand"] == [c.symbol for c in LATE.hands[1]]
    assert data["hand_sizes"] == [len(hand) for hand in LATE.hands]
    assert data["draw_pile_size"] == len(LATE.draw_pile)
    assert "seed" not in json.dumps(data) and "draw_pile" not in data


def test_an_events_document_hides_the_cards_other_seats_drew() -> None:
    state = new_game(4, seed=2)
    _, events = apply_with_events(state, legal_moves(state)[0])
    drawn = [state.draw_pile[0].symbol]  # turn.sequence: one card played, the top one drawn
    mine = events_to_data(events, state.turn)["events"][-1]
    theirs = events_to_data(events, (state.turn + 1) % 4)["events"][-1]
    assert mine["event"] == theirs["event"] == "cards_drawn"
    assert mine["cards"] == drawn and theirs["cards"] is None
    assert theirs["text"] == f"seat {state.turn} draws 1 card"


def test_documents_say_their_format_and_type() -> None:
    values: list[tuple[serialize.Document, str]] = [
        (GAME, "state"),
        (ARIZONA, "rules"),
        (parse_notation("pass"), "move"),
        (view(GAME, 0), "view"),
        (Explanation(False, "card.seven", "a 7 moves a peg 7 holes"), "explanation"),
    ]
    for value, kind in values:
        data = to_data(value)
        assert (data["format"], data["type"]) == (1, kind)
        check_schema(kind, data)
    for data, kind in ((moves_to_data(()), "moves"), (events_to_data((), 0), "events")):
        assert (data["format"], data["type"]) == (1, kind)
        check_schema(kind, data)


def _field_values(kind: Any) -> st.SearchStrategy[Any]:
    """Type-directed values for a Rules field, so that fields added later are covered too."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind is bool:
        return st.booleans()
    if kind is int:
        return st.integers(1, 13)
    if kind is str:
        return st.text(min_size=1, max_size=8)
    if kind is Rank:
        return st.sampled_from(list(Rank))
    if isinstance(kind, type) and issubclass(kind, Enum):
        return st.sampled_from(list(kind))
    if origin is tuple and args[-1:] == (...,):
        return st.lists(_field_values(args[0]), min_size=1, max_size=3).map(tuple)
    if origin is tuple:
        return st.tuples(*map(_field_values, args))
    raise AssertionError(f"no strategy for Rules fields of type {kind}")  # pragma: no cover


RULE_TYPES = typing.get_type_hints(Rules)


@st.composite
def rules_variants(draw: st.DrawFn) -> Rules:
    """A preset with some of its fields changed to other values of their types."""
    base = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    names = draw(st.sets(st.sampled_from([f.name for f in dataclasses.fields(Rules)])))
    changes = {name: draw(_field_values(RULE_TYPES[name])) for name in sorted(names)}
    try:
        return dataclasses.replace(base, **changes)
    except ValueError:  # the Rules checks refuse it: keep the preset
        return base


@given(rules_variants())
def test_rules_round_trip_generically(rules: Rules) -> None:
    data = to_data(rules)
    check_schema("rules", data)
    assert from_json(json.dumps(data)) == rules
    assert from_data(data, "rules") == rules


class Colour(Enum):
    RED = "red"
    BLUE = 2
    GREEN = (0, 1, 0)


@pytest.mark.parametrize(
    ("kind", "value", "data"),
    [
        (int | None, None, None),
        (int | None, 3, 3),
        (frozenset[Rank], frozenset({Rank.KING, Rank.ACE}), ["A", "K"]),
        (typing.Literal["x", "y"], "y", "y"),
        (float, 2.5, 2.5),
        (tuple[bool, ...], (True, False), [True, False]),
        (
            tuple[Colour, Colour, Colour],
            (Colour.RED, Colour.BLUE, Colour.GREEN),
            ["red", 2, "GREEN"],
        ),
    ],
)
def test_the_rules_codec_handles_field_types_to_come(kind: Any, value: Any, data: Any) -> None:
    """Rules fields are converted by type, so new fields of these types need no new code."""
    assert serialize._encode(kind, value) == data
    assert serialize._decode(serialize._Reader(), kind, data, "$") == value
    reader = serialize._Reader()
    with pytest.raises(serialize._Invalid):
        serialize._decode(reader, kind, {"not": "this"}, "$.field")
    assert reader.problems and reader.problems[0].startswith("$.field: ")


def test_rules_are_written_field_by_field() -> None:
    data = to_data(ARIZONA)
    assert [k for k in data if k not in ("format", "type")] == [
        f.name for f in dataclasses.fields(Rules)
    ]
    assert data["name"] == "arizona" and data["hand_size"] == 5
    assert data["decks"] == [[4, 3, 6], [6, 3, 6], [8, 4, 8]]


def test_missing_rules_fields_take_their_defaults() -> None:
    assert from_json('{"format": 1, "type": "rules"}') == Rules()
    data = to_data(GAME)
    data["rules"] = {"name": "arizona"}
    assert from_data(data) == GAME


def test_the_rules_schema_lists_every_rules_field() -> None:
    schema = json.loads((SCHEMAS / "rules.schema.json").read_text(encoding="utf-8"))
    described = set(schema["$defs"]["fields"]["properties"])
    fields = {f.name for f in dataclasses.fields(Rules)}
    assert described == fields, (
        f"update specs/schema/rules.schema.json: missing {sorted(fields - described)}, "
        f"stale {sorted(described - fields)}"
    )


# --- impossible states -------------------------------------------------------------------------


def _state_doc(**changes: Any) -> str:
    data = to_data(LATE)
    data.update(changes)
    return json.dumps(data)


def _pegs(seat: int, locations: list[str]) -> list[list[str]]:
    pegs: list[list[str]] = to_data(LATE)["pegs"]
    pegs[seat] = locations
    return pegs


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"pegs": _pegs(0, ["s", "s", "s", "s"])}, "pegs 0: 4 pegs, not 5"),
        ({"pegs": _pegs(0, ["s", "s", "s", "s", "99"])}, "no such location on a 4-seat board: 99"),
        ({"pegs": to_data(LATE)["pegs"][:3]}, "players: 3 seats"),
        ({"pegs": to_data(new_game(6, seed=1))["pegs"]}, "hands: 4 hands for 6 seats"),
        ({"turn": 4}, "turn: 4 is not a seat"),
        ({"dealer": -1}, "dealer: -1 is not a seat"),
        ({"ply": -3}, "ply: expected a count"),
        ({"winner": 1}, "winner: team 1 has won, but not all its pegs are home"),
        ({"draw_pile": to_data(LATE)["draw_pile"][1:]}, "missing"),
        ({"discard_pile": [*to_data(LATE)["discard_pile"], "JK"]}, "extra JK"),
    ],
)
def test_impossible_states_are_refused_with_the_reason(
    changes: dict[str, Any], expected: str
) -> None:
    problems = problems_of(_state_doc(**changes))
    assert any(expected in p for p in problems), problems


def test_two_pegs_on_one_hole_and_a_full_hand_too_many() -> None:
    data = to_data(LATE)
    track = next(p for p in data["pegs"][1] if p not in ("s",) and not p.startswith("h"))
    data["pegs"][3] = ["s", "s", "s", "s", track]
    data["hands"][0].append(data["draw_pile"].pop())
    problems = problems_of(json.dumps(data))
    assert any(f"share hole {track}" in p for p in problems), problems
    assert any("hand 0: 6 cards, more than 5" in p for p in problems), problems


def test_every_problem_is_reported() -> None:
    data = to_data(LATE)
    data["turn"] = "one"
    data["hands"][2][0] = "Z"
    data["pegs"][1][0] = "h9"
    data["rules"]["hand_size"] = True
    data["colour"] = "red"
    del data["seed"]
    problems = problems_of(json.dumps(data))
    for expected in (
        "$.turn: expected a whole number",
        "$.hands[2][0]: expected a card",
        "$.pegs[1][0]: expected a location",
        "$.rules.hand_size: expected a whole number",
        "$: unknown field 'colour'",
        "$: missing field 'seed'",
    ):
        assert any(p.startswith(expected) for p in problems), (expected, problems)


def test_a_won_game_must_name_its_winner() -> None:
    states, _ = full_game("arizona", 4)
    final = to_data(states[-1])
    assert from_data(final) == states[-1]
    final["winner"] = None
    assert any("so it has won" in p for p in problems_of(json.dumps(final)))
    final["winner"] = 1 - states[-1].winner  # type: ignore[operator]
    assert any("not all its pegs are home" in p for p in problems_of(json.dumps(final)))


def test_unsorted_pegs_and_hands_are_read_in_order() -> None:
    data = to_data(LATE)
    for row in (*data["pegs"], *data["hands"]):
        row.reverse()
    assert from_data(data) == LATE


# --- malformed documents -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "not JSON"),
        ("{", "not JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"type": "state"}', "missing field 'format'"),
        ('{"format": 2, "type": "state"}', "format 2 is not supported"),
        ('{"format": true, "type": "move", "action": "pass"}', "format true is not supported"),
        ('{"format": 1.0, "type": "move", "action": "pass"}', "is not supported"),
        ('{"format": 1, "type": "game"}', "$.type: expected one of"),
        ('{"format": 1, "type": "move", "action": "pass", "action": "pass"}', "given twice"),
        ('{"format": 1, "type": "move", "action": "jump"}', "expected 'play', 'discard' or"),
        ('{"format": 1, "type": "move", "action": "pass", "card": "7"}', "unknown field 'card'"),
        ('{"format": 1, "type": "move", "action": "discard"}', "missing field 'card'"),
        ('{"format": 1, "type": "move", "action": "play", "card": "7", "steps": []}', "1 to 2"),
        ('{"format": 1, "type": "rules", "hand_size": NaN}', "NaN is not a JSON number"),
        ('{"format": 1, "type": "rules", "nine": "sometimes"}', "$.nine: expected one of"),
        (
            '{"format": 1, "type": "rules", "face_values": [10, 10]}',
            "face_values: expected an array of 3",
        ),
        ('{"format": 1, "type": "rules", "player_counts": [5]}', "unplayable rules"),
        ("[" * 50_000, "nested too deeply"),
        ('{"format": 1, "type": "rules", "hand_size": ' + "9" * 5000 + "}", "not JSON"),
    ],
)
def test_malformed_documents_say_what_is_wrong(text: str, expected: str) -> None:
    problems = problems_of(text)
    assert any(expected in p for p in problems), problems


def _view_doc(**changes: Any) -> dict[str, Any]:
    return to_data(view(LATE, 2)) | changes


def _events_doc(seat: int | None) -> dict[str, Any]:
    states, moves = full_game("arizona", 4)
    _, events = apply_with_events(states[10], moves[10])
    return events_to_data(events, seat)


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        (_view_doc(seat=4), "impossible view"),
        (_view_doc(hand_sizes=[5, 5, 5]), "impossible view"),
        (_view_doc(draw_pile_size=500), "impossible view: the view hides"),
        (_view_doc(hand=["JK"] * 9, hand_sizes=[5, 5, 9, 5]), "impossible view"),
        (_view_doc(seed=1), "unknown field 'seed'"),
        (_view_doc(draw_pile=[]), "unknown field 'draw_pile'"),
        (_view_doc(ply=-1), "impossible view"),
        (
            {"format": 1, "type": "explanation", "legal": True, "rule": "card.seven", "reason": ""},
            "a legal move has no rule id",
        ),
        (
            {"format": 1, "type": "explanation", "legal": False, "rule": "card.x", "reason": "."},
            "no ruling 'card.x'",
        ),
        (moves_to_data([parse_notation("pass")] * 2), "a move is listed twice"),
        (
            {"format": 1, "type": "moves", "moves": [{"notation": "discard 7", "action": "pass"}]},
            "'discard 7' does not match the move pass",
        ),
        ({"format": 1, "type": "moves", "moves": [{"action": "pass"}]}, "expected a string"),
        (
            {"format": 1, "type": "events", "seat": 0, "events": [{"event": "jump"}]},
            "expected one of card_played",
        ),
        (
            {"format": 1, "type": "events", "seat": None, "events": [{"event": "game_over"}]},
            "missing field 'winner'",
        ),
        (
            {
                "format": 1,
                "type": "events",
                "seat": 0,
                "events": [{"event": "game_over", "winner": 2}],
            },
            "team 0 or 1",
        ),
        (
            {
                "format": 1,
                "type": "events",
                "seat": 0,
                "events": [{"event": "passed", "seat": 0, "text": "seat 0 passes twice"}],
            },
            "the event's own sentence",
        ),
        (
            {
                "format": 1,
                "type": "events",
                "seat": 0,
                "events": [{"event": "cards_drawn", "seat": 1, "count": 2, "cards": ["7", "8"]}],
            },
            "the cards seat 1 drew must be hidden from seat 0",
        ),
        (
            {
                "format": 1,
                "type": "events",
                "seat": 1,
                "events": [{"event": "cards_drawn", "seat": 1, "count": 1, "cards": None}],
            },
            "the cards seat 1 drew are hidden, but not from seat 1",
        ),
        (
            {
                "format": 1,
                "type": "events",
                "seat": None,
                "events": [{"event": "cards_drawn", "seat": 1, "count": 1, "cards": ["7", "8"]}],
            },
            "count 1 does not match the 2 cards drawn",
        ),
        (
            {
                "format": 1,
                "type": "events",
                "seat": None,
                "events": [{"event": "reshuffled", "cards": 0, "number": 1}],
            },
            "a reshuffle takes at least one card",
        ),
    ],
)
def test_impossible_client_documents_are_refused_with_the_reason(
    document: dict[str, Any], expected: str
) -> None:
    problems = problems_of(json.dumps(document))
    assert any(expected in p for p in problems), problems


def test_a_document_of_another_type_is_refused_when_a_type_is_asked_for() -> None:
    with pytest.raises(FormatError, match="expected a state document, not a move"):
        from_json(to_json(parse_notation("pass")), "state")


def test_only_text_is_read_and_only_documents_are_written() -> None:
    with pytest.raises(FormatError):
        from_json(None)  # type: ignore[call-overload]
    with pytest.raises(FormatError):
        to_json("state")  # type: ignore[arg-type]
    assert from_json(to_json(GAME).encode()) == GAME
    with pytest.raises(FormatError):
        from_json(b"\xff\xfe\xfa")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


def _loads_or_refuses(data: object) -> None:
    """Loading gives a valid value that round-trips, or FormatError; nothing else."""
    try:
        value = from_data(data)
    except FormatError as error:
        assert error.problems
        return
    except PegsError as error:  # pragma: no cover - a library error, but the wrong one
        raise AssertionError(f"not a FormatError: {error!r}") from error
    if isinstance(value, GameState):
        assert validate(value) == []
    if isinstance(value, tuple):  # a moves or an events document
        assert isinstance(data, dict)
        again = (
            moves_to_data(value)  # type: ignore[arg-type]
            if data["type"] == "moves"
            else events_to_data(value, data["seat"])  # type: ignore[arg-type]
        )
        assert from_data(again) == value
        return
    assert from_json(to_json(value)) == value


@given(json_values)
def test_random_json_values_are_refused_cleanly(data: object) -> None:
    _loads_or_refuses(data)
    _loads_or_refuses({"format": 1, "type": "state", "x": data})


@given(st.text(max_size=60) | st.binary(max_size=60))
def test_random_text_is_refused_cleanly(text: str | bytes) -> None:
    with pytest.raises(FormatError):
        from_json(text)


@settings(max_examples=examples(0.5))
@given(reached_states(), st.data())
def test_truncated_documents_are_refused(state: GameState, data: st.DataObject) -> None:
    text = to_json(state)
    cut = data.draw(st.integers(0, len(text) - 1))
    with pytest.raises(FormatError):
        from_json(text[:cut])


def _paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``data``."""
    out = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            out += _paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            out += _paths(value, (*path, index))
    return out


@settings(max_examples=examples(2))
@given(
    st.sampled_from(["state", "record", "move", "rules", "view", "moves", "events"]),
    st.data(),
    json_values
    | st.sampled_from(["s", "h1", "h6", "0", "40", "-1", "7", "JK", "Z", "", "arizona"])
    | st.integers(-3, 300),
)
def test_mutated_documents_load_validly_or_are_refused(
    kind: str, data: st.DataObject, replacement: object
) -> None:
    """One value anywhere in a real document replaced by another (often of the wrong type)."""
    states, moves = full_game("arizona", 4)
    state = states[data.draw(st.integers(0, len(states) - 2))]
    move = moves[state.ply]
    reader = data.draw(st.sampled_from([None, 0, 1]))
    documents: dict[str, Callable[[], dict[str, Any]]] = {
        "state": lambda: to_data(state),
        "move": lambda: to_data(move),
        "rules": lambda: to_data(ARIZONA),
        "record": lambda: to_data(record_of(states[0], moves[:20])),
        "view": lambda: to_data(view(state, state.turn)),
        "moves": lambda: moves_to_data(legal_moves(state)),
        "events": lambda: events_to_data(apply_with_events(state, move)[1], reader),
    }
    document = documents[kind]()
    path = data.draw(st.sampled_from(_paths(document)[1:]))
    target = document
    for key in path[:-1]:
        target = target[key]
    if data.draw(st.booleans()) and isinstance(target, dict):
        del target[path[-1]]
    else:
        target[path[-1]] = replacement
    _loads_or_refuses(document)
    _loads_or_refuses(json.loads(json.dumps(document)))


def test_validate_survives_a_state_built_from_nonsense() -> None:
    weird = GameState(
        rules=ARIZONA,
        pegs=((1, "x"),),  # type: ignore[arg-type]
        hands="abc",  # type: ignore[arg-type]
        draw_pile=(None,),  # type: ignore[arg-type]
        discard_pile=(),
        turn=True,
        dealer=None,  # type: ignore[arg-type]
        seed=1.5,  # type: ignore[arg-type]
        winner=3,
    )
    problems = validate(weird)
    assert len(problems) >= 6, problems
    assert validate("state") == ["not a game state: str"]
    nonsense_rules = dataclasses.replace(GAME, rules="arizona")  # type: ignore[arg-type]
    assert validate(nonsense_rules) == ["rules: not a Rules object: str"]
