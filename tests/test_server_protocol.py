"""The protocol's messages in-process: reading frames, writing messages, and their docs."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from served import SCHEMAS, check_message

from pegs_rules import apply_with_events, legal_moves, new_game, view
from pegs_rules.errors import FormatError
from pegs_rules.serialize import events_to_data, from_data
from pegs_rules.server import protocol
from pegs_rules.server.app import BadRequest, parse_new_game
from pegs_rules.server.games import public_state
from pegs_rules.server.protocol import ERRORS, MoveRequest, ProtocolError, read_frame

ROOT = Path(__file__).resolve().parents[1]


@given(st.text(max_size=500) | st.binary(max_size=500))
def test_any_frame_reads_as_a_message_or_a_protocol_error(frame: str | bytes) -> None:
    try:
        message = read_frame(frame)
    except ProtocolError as error:
        assert error.code in ERRORS
        check_message(json.loads(protocol.error(error.code, error.message)))
    else:
        assert isinstance(message, (protocol.Join, protocol.MoveRequest, protocol.Ping))


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(), st.lists, max_leaves=30))
def test_deep_or_odd_json_is_refused_cleanly(data: Any) -> None:
    try:
        read_frame(json.dumps(data))
    except ProtocolError as error:
        assert error.code in ("bad_json", "bad_message", "unknown_type", "too_large")


def test_deeply_nested_frames_are_refused() -> None:
    with pytest.raises(ProtocolError) as refused:
        read_frame("[" * 3000 + "]" * 3000)
    assert refused.value.code in ("bad_json", "too_large")
    with pytest.raises(ProtocolError) as refused:
        read_frame("[" * 2000)
    assert refused.value.code == "bad_json"


def test_frames_read_as_documented() -> None:
    assert read_frame('{"type": "move", "move": "K s", "ply": 3}') == MoveRequest("K s", 3)
    assert read_frame('{"type": "join", "token": "t"}') == protocol.Join("t", True)
    for frame, code in [
        ('{"type": "move", "move": "K s", "ply": true}', "bad_message"),
        ('{"type": "move", "move": 7}', "bad_message"),
        ('{"type": "join", "token": "t", "board": 1}', "bad_message"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"move": "K s"}', "bad_message"),
        ("NaN", "bad_json"),
    ]:
        with pytest.raises(ProtocolError) as refused:
            read_frame(frame)
        assert refused.value.code == code, frame


def test_state_messages_match_their_schema_and_hide_what_they_must() -> None:
    rng = random.Random(4)
    state = new_game(6, seed=11)
    for _ in range(80):
        before = state
        move = rng.choice(legal_moves(state))
        state, events = apply_with_events(state, move)
    legal = legal_moves(state)
    for seat in [None, *range(6)]:
        last = (str(move), events)
        message = json.loads(protocol.state_message(state, seat, last, legal, "<svg/>"))
        check_message(message)
        assert message["move"] == str(move)
        assert str(state.seed) not in json.dumps(message)
        if seat is None:
            assert message["moves"] is None and message["events"]["seat"] == "public"
            drawn = [e for e in message["events"]["events"] if e["event"] == "cards_drawn"]
            assert drawn and all(e["cards"] is None for e in drawn)
        else:
            assert from_data(message["view"], "view") == view(state, seat)
            assert (message["moves"] is not None) == (seat == state.turn)
    assert before.ply + 1 == state.ply


def test_events_for_spectators_round_trip_and_must_hide_every_drawn_card() -> None:
    state = new_game(4, seed=2)
    _, events = apply_with_events(state, legal_moves(state)[0])
    document = events_to_data(events, "public")
    assert len(from_data(document, "events")) == len(events)
    shown = events_to_data(events, None)
    with pytest.raises(FormatError, match="hidden from spectators"):
        from_data(shown | {"seat": "public"}, "events")


def test_the_public_board_is_drawn_from_no_card() -> None:
    state = new_game(8, seed=5)
    public = public_state(state)
    assert public.pegs == state.pegs and public.turn == state.turn
    assert not any(public.hands) and not public.draw_pile and public.seed == 0


def test_a_new_game_request_names_every_problem() -> None:
    players, rules, seats = parse_new_game({"players": 6, "seats": ["human", "greedy"] * 3})
    assert (players, rules.name, seats[:2]) == (6, "arizona", ("human", "greedy"))
    with pytest.raises(BadRequest) as refused:
        parse_new_game({"players": 4, "seats": ["robot", "human", "mcts:0s", "mcts:99999"]})
    assert len(refused.value.problems) == 3


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children)
    ),
    max_leaves=10,
)
FIELD = st.sampled_from(["players", "preset", "seats", "house_rules"])
RULES_FIELD = st.sampled_from(["name", "nine", "face_values", "two_swap", "decks", "format", "x"])
BODIES = st.one_of(
    JSON,
    st.dictionaries(FIELD, JSON),
    st.fixed_dictionaries(
        {},
        optional={
            "players": st.sampled_from([4, 6, 8, 4.0, 6.0, "4", True, None, [4]]),
            "preset": st.sampled_from(["arizona", "standard", [], {}, None, 1, "chess"]),
            "seats": st.lists(st.sampled_from(["human", "greedy", "greedy ", 1, None, []])) | JSON,
            "house_rules": st.dictionaries(RULES_FIELD, JSON) | JSON,
        },
    ),
)


@given(BODIES)
def test_any_json_body_makes_a_game_or_gets_a_bad_request(body: Any) -> None:
    """Nothing a client sends, however wrongly typed, gets past the checks or crashes them."""
    try:
        players, rules, seats = parse_new_game(body)
    except BadRequest as refused:
        assert refused.status == 400 and refused.problems
        assert all(isinstance(p, str) and len(p) <= 250 for p in refused.problems)
    else:
        assert type(players) is int and players in rules.player_counts
        assert len(seats) == players and all(isinstance(kind, str) for kind in seats)
        check_message(body, "new-game")  # what the server takes, its schema allows


def test_the_docs_describe_every_message_and_error_code() -> None:
    page = (ROOT / "docs" / "server-protocol.rst").read_text(encoding="utf-8")
    schemas = sorted(path.name for path in (SCHEMAS / "server").glob("*.schema.json"))
    included = sorted(re.findall(r"server/([\w-]+\.schema\.json)", page))
    assert sorted(set(included)) == schemas
    for code in ERRORS:
        assert f"``{code}``" in page, code
    listed = json.loads((SCHEMAS / "server" / "error.schema.json").read_text(encoding="utf-8"))
    assert listed["properties"]["code"]["enum"] == list(ERRORS)


def test_importing_the_library_does_not_import_the_server() -> None:
    code = "import sys, pegs_rules; print(any(m.startswith(('pegs_rules.server', 'starlette', 'uvicorn')) for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_store_interface_imports_neither_store() -> None:
    """The interface knows nothing of its implementations: they import it, not it them."""
    code = (
        "import sys, pegs_rules.server.store; "
        "print(sorted(m for m in sys.modules if m.startswith('pegs_rules.server.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['pegs_rules.server.store']", out.stdout


def test_a_server_on_sqlite_needs_no_postgresql_driver(tmp_path: Path) -> None:
    """SQLite stays the default with no new dependency: only a postgresql:// URL loads psycopg."""
    code = (
        "import sys; from pegs_rules.server.app import ServerConfig, create_app; "
        "from pegs_rules.server.database import open_store; "
        f"open_store({str(tmp_path / 'g.sqlite3')!r}).close(); create_app(ServerConfig()); "
        "print(any(m.startswith(('psycopg', 'pegs_rules.server.postgres')) for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
