"""The engine protocol: messages match their schemas, the reference passes over a real pipe,
and a broken engine is caught with the right case ids, without ever hanging the harness."""

from __future__ import annotations

import io
import json
import re
import resource
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from checking import validator
from hypothesis import given, settings
from hypothesis import strategies as st
from played import examples

from pegs_rules import __version__, apply, parse_notation, parse_position, to_data
from pegs_rules.spec import SPECS, load_cases, load_games, load_perft
from pegs_rules.spec.engine import (
    MAX_ANSWER,
    EngineFailure,
    EngineProcess,
    EngineUnusable,
    ReferenceEngine,
)
from pegs_rules.spec.harness import Outcome, position_fields, run_suite
from pegs_rules.spec.protocol import MAX_ERROR, MAX_REQUEST, handle, serve
from pegs_rules.spec.report import junit_xml, report
from pegs_rules.spec.suite import case_state, digest_of
from pegs_rules.spec.supports import HOUSE_RULES, Supports

CASES = load_cases()
GAMES = load_games()
PERFT = load_perft()
DOUBLE = Path(__file__).with_name("engine_double.py")
ROOT = Path(__file__).resolve().parents[1]
TYPES = ("hello", "legal", "apply", "deal", "perft", "quit")
SERVE = [sys.executable, "-m", "pegs_rules.spec", "serve"]


# --- schemas ------------------------------------------------------------------------------------


def check_message(name: str, message: object) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator(name).iter_errors(message)]
    assert not errors, (name, errors)


class CheckedEngine(ReferenceEngine):
    """The reference engine, checking requests and answers against their schemas: the first
    few of each form (type, fields sent, fields answered)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: Counter[tuple[str, ...]] = Counter()

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        request = {"id": self.forms.total(), **request}
        answer = super().ask(request)
        form = (request["type"], *sorted(request), "->", *sorted(answer))
        self.forms[form] += 1
        if self.forms[form] <= 3:
            check_message(f"{request['type']}-request", request)
            kind = "error" if "error" in answer else request["type"]
            check_message(f"{kind}-response", answer)
        return answer


def test_every_message_of_a_suite_run_matches_its_schema() -> None:
    engine = CheckedEngine()
    outcomes = run_suite(engine, CASES, GAMES[:1], PERFT, perft_depth=2)
    assert [o.id for o in outcomes if not o.passed] == []
    forms = {form[0] for form in engine.forms}
    assert forms == {"hello", "legal", "apply", "deal", "perft"}
    sent = {field for form in engine.forms for field in form[: form.index("->")]}
    answered = {field for form in engine.forms for field in form[form.index("->") :]}
    assert {"position", "state", "move", "reshuffle", "depth", "house_rules"} <= sent
    assert {"moves", "position", "state", "illegal", "reason", "nodes"} <= answered


def test_hello_quit_and_error_messages_match_their_schemas() -> None:
    hello = {"id": 1, "type": "hello", "protocol": 1}
    check_message("hello-request", hello)
    check_message("hello-response", handle(hello))
    check_message("quit-request", {"id": 2, "type": "quit"})
    assert handle({"id": 2, "type": "quit"}) is None
    for bad in ({"id": 3, "type": "undo"}, {"id": 4, "type": "legal"}, [1, 2]):
        answer = handle(bad)
        assert answer is not None and set(answer) == {"id", "error"}
        check_message("error-response", answer)


def example_lines(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """Every message of the ``text`` blocks of a Markdown page (``>``/``<`` marks stripped),
    each with the schema it must match: ``TYPE-request`` for a request, and for an answer
    ``error-``, ``unsupported-`` or the ``TYPE-response`` of the request it answers."""
    text = path.read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```text\n(.*?)```", text, re.DOTALL):
        asked: dict[object, str] = {}
        for line in block.splitlines():
            message = json.loads(line[2:] if line[:2] in ("> ", "< ") else line)
            if "type" in message:
                asked[message["id"]] = message["type"]
                if message["type"] in TYPES:  # else an example of an unknown request
                    found.append((f"{message['type']}-request", message))
            else:
                kind = next((k for k in ("error", "unsupported") if k in message), None)
                assert kind or asked[message["id"]] in TYPES, message
                found.append((f"{kind or asked[message['id']]}-response", message))
    return found


@pytest.mark.parametrize("page", ["specs/protocol.md", "docs/checking.md"])
def test_every_example_line_of_the_pages_matches_its_schema(page: str) -> None:
    """The protocol document and the page for engine authors: each example message is valid."""
    path = SPECS / "protocol.md" if page.startswith("specs/") else ROOT / page
    examples = example_lines(path)
    assert len(examples) >= (10 if page.startswith("specs/") else 6)
    for name, message in examples:
        check_message(name, message)
    kinds = {name for name, _ in examples}
    if page.startswith("specs/"):
        assert {
            f"{t}-request" for t in ("hello", "legal", "apply", "deal", "perft", "quit")
        } <= kinds
        assert {"error-response", "unsupported-response", "hello-response"} <= kinds


def test_the_schemas_allow_unknown_fields_and_know_the_house_rules() -> None:
    """``specs/protocol.md``: fields not listed are ignored by both sides; ``supports`` names
    the fields of the rules object."""
    check_message("legal-request", {"id": 1, "type": "legal", "position": "", "later": 1})
    check_message("legal-response", {"id": 1, "moves": [], "comment": "none"})
    schema = json.loads(
        (SPECS / "schema" / "protocol" / "hello-response.schema.json").read_text("utf-8")
    )
    house = schema["properties"]["supports"]["properties"]["house_rules"]["oneOf"][1]
    assert sorted(house["items"]["enum"]) == sorted(HOUSE_RULES)
    supports = {"presets": ["arizona"], "players": [4, 6], "house_rules": "all", "requests": []}
    hello = {"id": 1, "engine": "x", "version": "1", "protocol": 1}
    check_message("hello-response", {**hello, "supports": supports})
    assert Supports.from_hello({"supports": supports}) == Supports(
        frozenset({"arizona"}), frozenset({4, 6}), None, frozenset()
    )
    bad = {**supports, "players": [5]}
    assert list(validator("hello-response").iter_errors({**hello, "supports": bad}))


def test_schemas_reject_malformed_messages() -> None:
    for name, message in [
        ("legal-request", {"id": 1, "type": "legal"}),  # no position
        ("apply-request", {"id": 1, "type": "apply", "position": "x"}),  # no move
        ("apply-response", {"id": 1, "illegal": "card.seven", "position": "x"}),
        ("perft-response", {"id": 1, "nodes": -1}),
        ("deal-request", {"id": 1, "type": "deal", "players": 5, "dealer": 0, "seed": 1}),
    ]:
        assert list(validator(name).iter_errors(message)), (name, message)


# --- the reference engine -----------------------------------------------------------------------


def transcript() -> list[tuple[str, str]]:
    """The transcript of specs/protocol.md: (direction, line) pairs."""
    text = (SPECS / "protocol.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- transcript -->\n```text\n(.*?)```", text, re.DOTALL)
    assert block is not None
    return [(line[0], line[2:]) for line in block.group(1).splitlines()]


def test_the_documented_transcript_is_what_the_engine_says() -> None:
    """Each answer shown equals the engine's (without its state JSON; the version is this
    release's)."""
    lines = transcript()
    requests = [json.loads(text) for direction, text in lines if direction == ">"]
    shown = [json.loads(text) for direction, text in lines if direction == "<"]
    out = io.StringIO()
    serve(io.BytesIO("".join(json.dumps(r) + "\n" for r in requests).encode()), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == len(shown) == len(requests) - 1  # quit is not answered
    for want, got in zip(shown, answers, strict=True):
        got.pop("state", None)
        if "version" in got:
            assert got["version"] == __version__
            got["version"] = want["version"]
        assert got == want


def test_apply_uses_the_given_reshuffle_pile() -> None:
    """turn.reshuffle: the engine's own shuffle is replaced by the pile the request gives."""
    position = "pegs 0: 12\nhand 0: 5 9 9 9 9\ndiscard: 2 3 4"
    request = {"id": 1, "type": "apply", "position": position, "move": "5 0:12-17"}
    answer = handle({**request, "reshuffle": "4 2 5 3"})
    assert answer is not None
    after = parse_position(answer["position"])
    assert after.hands[0] == parse_position("hand 0: 4 9 9 9 9").hands[0]
    assert [c.symbol for c in after.draw_pile] == ["2", "5", "3"]
    wrong = handle({**request, "reshuffle": "4 2 5 K"})
    assert wrong is not None and "not the cards of the discard pile" in wrong["error"]


def test_a_deal_from_a_given_deck() -> None:
    state = parse_position("players: 4")
    deck = " ".join(
        ["A"] * 12
        + ["JK"] * 6
        + [
            r
            for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
            for _ in range(12)
        ]
    )
    answer = handle(
        {
            "id": 1,
            "type": "deal",
            "players": 4,
            "dealer": 3,
            "seed": 0,
            "preset": "arizona",
            "deck": deck,
        }
    )
    assert answer is not None and state.players == 4
    dealt = parse_position(answer["position"])
    assert dealt.hands[0][:1] == parse_position("hand 0: A").hands[0]  # seat 0 is dealt first
    assert len(dealt.draw_pile) == 162 - 20
    short = handle(
        {
            "id": 2,
            "type": "deal",
            "players": 4,
            "dealer": 3,
            "seed": 0,
            "preset": "arizona",
            "deck": "A 2",
        }
    )
    assert short is not None and "error" in short


def test_a_state_json_short_of_cards_is_a_test_position() -> None:
    """Hand-made positions travel as state JSON too: the cards they leave out are out of play."""
    state = parse_position("pegs 0: 70\nhand 0: 7")
    fields = position_fields(state, made=True)
    answer = handle({"id": 1, "type": "legal", "state": fields["state"]})
    assert answer == {"id": 1, "moves": ["7 0:70-5", "7 0:70-h2"]}
    fields["state"]["hands"][1] = ["JK"] * 20  # more jokers than the deck holds
    answer = handle({"id": 2, "type": "legal", "state": fields["state"]})
    assert answer is not None and "error" in answer


def test_the_reference_engine_passes_over_a_pipe(tmp_path: Path) -> None:
    """The whole suite (perft to depth 2) through ``serve`` in a subprocess, with JUnit XML."""
    junit = tmp_path / "junit.xml"
    engine = " ".join(SERVE)
    done = subprocess.run(
        [*SERVE[:-1], "check", "--engine", engine, "--junit", str(junit), "--perft-depth", "2"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    assert "card.seven.split.order" in done.stdout and "game vectors" in done.stdout
    total = len(CASES) + len(GAMES) + len(PERFT)
    assert f"\n{total} passed, 0 failed, 0 skipped, 0 declined in " in done.stdout
    root = ET.parse(junit).getroot()
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == (str(total), "0", "0")
    names = {case.get("name") for case in root.iter("testcase")}
    assert {c["id"] for c in CASES} <= names and f"game/{GAMES[0]['id']}" in names


# --- a broken engine ----------------------------------------------------------------------------


def key_of(case: dict[str, Any]) -> tuple[str, str, str | None]:
    """The request a case sends: its type, the digest of its position text, its move."""
    kind = "legal" if "legal" in case["expect"] else "apply"
    return kind, digest_of(str(case_state(case))), case.get("move")


def pick(
    kind: str, expect: str, used: set[tuple[str, str, str | None]], start: int = 0
) -> dict[str, Any]:
    """An arizona case sending request ``kind`` and expecting ``expect``, from ``start`` on,
    whose request no case picked before sends; its request joins ``used``."""
    for case in CASES[start:]:
        if "deal" in case or expect not in case["expect"] or key_of(case)[0] != kind:
            continue
        if case["preset"] != "arizona":
            continue
        if key_of(case) not in used and (expect != "legal" or case["expect"]["legal"]):
            used.add(key_of(case))
            return case
    raise AssertionError(f"no {kind} case expecting {expect}")


def test_a_broken_engine_is_caught_with_the_right_case_ids(tmp_path: Path) -> None:
    n = len(CASES)
    used: set[tuple[str, str, str | None]] = set()
    targets = {
        "drop": pick("legal", "legal", used),
        "add": pick("legal", "legal", used, n // 4),
        "garbage": pick("legal", "legal", used, n // 2),
        "hang": pick("legal", "legal", used, 3 * n // 4),
        "stay": pick("apply", "after", used),
        "crash": pick("apply", "after", used, n // 2),
        "wrong-rule": next(c for c in CASES if c["expect"].get("illegal") == "move.blocking"),
    }
    faults = []
    for fault, case in targets.items():
        kind, position, move = key_of(case)
        faults.append({"type": kind, "position": position, "move": move, "fault": fault})
    # a game vector whose 10th turn is answered with the position before it
    game = GAMES[0]
    state = parse_position("\n".join(game["start"]))
    for text, _ in game["turns"][:9]:
        state = apply(state, parse_notation(text))
    faults.append(
        {
            "type": "apply",
            "position": digest_of(str(state)),
            "move": game["turns"][9][0],
            "fault": "stay",
        }
    )
    perft = PERFT[0]
    faults.append(
        {
            "type": "perft",
            "position": digest_of(str(case_state(perft))),
            "move": None,
            "fault": "miscount",
        }
    )
    config = tmp_path / "faults.json"
    config.write_text(json.dumps(faults), encoding="utf-8")

    keys = {key_of(case) for case in targets.values()}
    expected = {c["id"] for c in CASES if "deal" not in c and key_of(c) in keys}
    expected |= {f"game/{game['id']}", f"perft/{perft['id']}"}

    with EngineProcess([sys.executable, str(DOUBLE), str(config)], timeout=2) as engine:
        outcomes = run_suite(engine, CASES, GAMES[:2], PERFT[:3], perft_depth=2)
        restarts = engine.restarts
    failed = {o.id: o for o in outcomes if not o.passed}
    assert set(failed) == expected
    assert restarts == 3  # after the hang, the crash and the garbage
    assert "no answer within 2 s" in str(failed[targets["hang"]["id"]].problem)
    crash = str(failed[targets["crash"]["id"]].problem)
    assert "exit status 3" in crash and "crashing on purpose" in crash
    assert "not JSON" in str(failed[targets["garbage"]["id"]].problem)
    dropped = targets["drop"]["expect"]["legal"]
    assert any(line.startswith("- ") for line in failed[targets["drop"]["id"]].diff), dropped
    assert "+ 2 0:h5-h5" in failed[targets["add"]["id"]].diff
    other = failed[targets["wrong-rule"]["id"]]
    assert other.other_ruling
    assert (other.expected, other.received) == (
        ("illegal: move.blocking",),
        ("illegal: card.joker",),
    )
    vector = failed[f"game/{game['id']}"]
    turns = len(game["turns"])
    assert str(vector.problem).startswith(f"1 of {turns} turns differ; the first, turn 10: ")
    assert (
        vector.detail == f"{turns} turns compared, {turns - 1} agreed; first difference at turn 10"
    )
    for outcome in failed.values():  # every failure shows the position asked about
        assert outcome.position.startswith("rules: arizona\nplayers: "), outcome
    assert str(failed[f"perft/{perft['id']}"].problem).startswith("depth 1: ")
    check_reports(outcomes, expected)


def test_a_state_json_answer_is_compared_byte_for_byte(tmp_path: Path) -> None:
    """A game vector's turn answered with the right position text but a state JSON whose keys
    come in another order fails the vector, showing where the texts part."""
    game = GAMES[0]
    state = parse_position("\n".join(game["start"]))
    for text, _ in game["turns"][:4]:
        state = apply(state, parse_notation(text))
    move = game["turns"][4][0]
    fault = {"type": "apply", "position": digest_of(str(state)), "move": move}
    config = tmp_path / "faults.json"
    config.write_text(json.dumps([fault | {"fault": "state-order"}]), encoding="utf-8")
    with EngineProcess([sys.executable, str(DOUBLE), str(config)], timeout=5) as engine:
        (outcome,) = run_suite(engine, [], GAMES[:1], [])
    assert not outcome.passed
    assert str(outcome.problem).endswith(
        f"turn 5: {move}: the state JSON is not the reference's, byte for byte"
    )
    want, got = outcome.diff
    assert want.startswith("- character ") and '"turn": ' in want.split("...")[1][:70]
    assert got.startswith("+ character ") and '"dealer": ' in got.split("...")[1][:70]


def check_reports(outcomes: list[Outcome], expected: set[str]) -> None:
    """The table names each failed id under its ruling; JUnit XML has a failure for each."""
    text = report(
        outcomes, rerun=lambda args: shlex.join(["python", "-m", "pegs_rules.spec", *args])
    )
    for case_id in expected:
        row = next(line for line in text.splitlines() if case_id in line.split())
        group = next(o.group for o in outcomes if o.id == case_id)
        assert row.startswith(group)
        block = text.split(f"FAIL {case_id} [", 1)[1].split("\nFAIL ", 1)[0]
        assert "\n  position:\n    rules: arizona\n" in block, block
        assert "\n  rerun: python -m pegs_rules.spec " in block
        assert f" {case_id}" in block or f" {case_id.removeprefix('perft/')} --depth" in block
    root = ET.fromstring(junit_xml(outcomes))
    failing = {t.get("name") for t in root.iter("testcase") if t.find("failure") is not None}
    assert failing == expected
    assert root.get("failures") == str(len(expected))


# --- engines that cannot be used ----------------------------------------------------------------


def test_an_engine_that_never_starts_fails_everything_and_exits_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pegs_rules.spec import main

    engine = f"{sys.executable} -c 'import sys; sys.exit(5)'"
    assert main(["check", "--engine", engine, "--timeout", "5"]) == 2
    out = capsys.readouterr().out
    total = len(CASES) + len(GAMES) + len(PERFT)
    said = "the engine is unusable: the engine did not answer hello: the engine exited (exit"
    assert f"{said} status 5); {total} items not run\n" in out
    assert out.count("exit status 5") == 1 and "FAIL" not in out  # reported once
    assert (
        out.rstrip()
        .splitlines()[-1]
        .startswith(f"0 passed, 0 failed, 0 skipped, 0 declined, {total} not run in ")
    )


def test_an_engine_speaking_another_protocol_is_refused() -> None:
    script = "import json,sys\nfor l in sys.stdin: print(json.dumps({'id': json.loads(l)['id'], 'protocol': 2}), flush=True)"
    with (
        EngineProcess([sys.executable, "-c", script], timeout=5) as engine,
        pytest.raises(EngineUnusable, match="protocol 2"),
    ):
        engine.ask({"type": "legal", "position": ""})


def test_a_silent_engine_times_out_and_is_stopped() -> None:
    script = "import sys, time\nfor l in sys.stdin: time.sleep(60)"
    engine = EngineProcess([sys.executable, "-c", script], timeout=0.5)
    with pytest.raises(EngineUnusable, match=r"no answer within 0\.5 s"):
        engine.ask({"type": "legal", "position": ""})
    assert engine._process is None
    engine.close()


@pytest.mark.parametrize("stream", [1, 2], ids=["answers", "error output"])
def test_an_engine_writing_without_end_is_stopped_in_bounded_memory(stream: int) -> None:
    """A line with no end, on the answers' stream or the error output, is not held whole: the
    harness stops the engine (an answer past MAX_ANSWER, or no answer in time) having grown by
    little more than MAX_ANSWER, where holding the line would take gigabytes."""
    script = f"import os\nchunk = b'x' * 65536\nwhile True: os.write({stream}, chunk)"
    grown_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    engine = EngineProcess([sys.executable, "-c", script], timeout=3)
    what = "an answer longer than" if stream == 1 else r"no answer within 3 s"
    with pytest.raises(EngineUnusable, match=what):
        engine.ask({"type": "legal", "position": ""})
    assert engine._process is None
    engine.close()
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - grown_before
    assert grown < 4 * MAX_ANSWER, f"the harness grew by {grown:,} bytes"


def test_a_missing_program_is_unusable() -> None:
    with pytest.raises(EngineFailure, match="cannot start"):
        EngineProcess(["/nonexistent/engine"]).ask({"type": "legal", "position": ""})


# --- hostile requests ---------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = [
    "position",
    "state",
    "move",
    "reshuffle",
    "players",
    "dealer",
    "seed",
    "preset",
    "house_rules",
    "rules",
    "deck",
    "depth",
    "divide",
    "protocol",
]


@st.composite
def requests(draw: st.DrawFn) -> object:
    """Requests of every type whose fields are anything, and anything at all."""
    if draw(st.booleans()):
        return draw(json_values)
    request = {
        "id": draw(json_values),
        "type": draw(st.sampled_from(["hello", "legal", "apply", "deal", "perft", "x"])),
    }
    for name in draw(st.lists(st.sampled_from(FIELDS), max_size=5)):
        request[name] = draw(
            st.one_of(
                json_values,
                st.just("pegs 0: 70\nhand 0: 7"),
                st.integers(0, 3),
                st.just("standard"),
            )
        )
    if draw(st.booleans()):
        request["state"] = to_data(parse_position("pegs 0: 70\nhand 0: 7")) | draw(
            st.dictionaries(
                st.sampled_from(["pegs", "hands", "rules", "turn", "draw_pile"]),
                json_values,
                max_size=2,
            )
        )
    return request


@settings(max_examples=examples(2.0))
@given(requests())
def test_any_request_gets_an_answer_or_an_error(request: object) -> None:
    answer = handle(request)
    assert isinstance(answer, dict) and "id" in answer
    if "error" in answer:
        check_message("error-response", answer)


def test_serve_survives_lines_that_are_not_requests() -> None:
    lines = [
        "",
        "[" * 5000,
        '{"id": 1, "type": "hello"',
        "123",
        '{"id": 2, "type": "legal", "position": "pegs 0: 999"}',
    ]
    out = io.StringIO()
    assert serve(io.BytesIO(("\n".join(lines) + "\n").encode()), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [None, None, None, 2]
    assert all("error" in a for a in answers)


def padded(request: dict[str, Any], size: int) -> bytes:
    """``request`` as a line of exactly ``size`` bytes before its line end."""
    line = json.dumps({**request, "pad": ""}).encode()
    return line[:-2] + b"x" * (size - len(line)) + line[-2:]


def test_serve_refuses_a_request_line_longer_than_the_limit_and_goes_on() -> None:
    """A line of MAX_REQUEST bytes is served; one byte more is refused unread, with a short
    error, and the next line is served."""
    lines = [
        padded({"id": 1, "type": "hello", "protocol": 1}, MAX_REQUEST),
        padded({"id": 2, "type": "hello", "protocol": 1}, MAX_REQUEST + 1),
        b"[" * (3 * MAX_REQUEST),
        json.dumps({"id": 3, "type": "hello", "protocol": 1}).encode() + b"\r",  # a CR LF end
        b'{"id": 4, "type": "hello", "protocol": 1}',  # the last line may go without a line end
    ]
    out = io.StringIO()
    assert serve(io.BytesIO(b"\n".join(lines)), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [1, None, None, 3, 4]
    assert "engine" in answers[0] and "engine" in answers[3] and "engine" in answers[4]
    refused = f"a request line longer than {MAX_REQUEST:,} bytes"
    assert answers[1]["error"] == answers[2]["error"] == refused
    assert refused == "a request line longer than 1,048,576 bytes"  # as specs/protocol.md says


def test_an_error_quotes_a_long_request_cut_short() -> None:
    """An error quoting junk from a request (a position of 900 KB) is cut at MAX_ERROR
    characters."""
    junk = "pegs 0: " + "x" * 900_000
    line = json.dumps({"id": 5, "type": "legal", "position": junk}).encode()
    out = io.StringIO()
    serve(io.BytesIO(line + b"\n"), out)
    answer = json.loads(out.getvalue())
    check_message("error-response", answer)  # whose schema says so too
    error = answer["error"]
    assert len(error) == MAX_ERROR + 3 == 1003 and error.endswith("xx...")
    assert handle({"id": 6, "type": "x" * 5000}) == {"id": 6, "error": error_of("x" * 5000)}


def error_of(kind: str) -> str:
    whole = f"unknown request type {kind!r}; known: hello, legal, apply, deal, perft"
    return whole[:MAX_ERROR] + "..."


def test_check_command_reports_a_failure_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pegs_rules.spec import main

    case = next(
        c for c in CASES if c["id"] == "card.seven.split.order/same-result-reversed-accepted"
    )
    kind, position, move = key_of(case)
    config = tmp_path / "faults.json"
    config.write_text(
        json.dumps([{"type": kind, "position": position, "move": move, "fault": "stay"}])
    )
    junit = tmp_path / "junit.xml"
    engine = f"{sys.executable} {DOUBLE} {config}"
    argv = ["check", "--engine", engine, "--only", "card.seven.split.order/", "--junit", str(junit)]
    assert main(argv) == 1
    out = capsys.readouterr().out
    total = sum(c["id"].startswith("card.seven.split.order/") for c in CASES)
    assert f"{total - 1} passed, 1 failed" in out
    assert f"FAIL {case['id']} [card.seven.split.order]: after the move the position differs" in out
    assert "  - pegs 0: 11 18" in out and "  + pegs 0: s s s 10 12" in out
    assert out.splitlines()[0].endswith(f"(pegs-rules {__version__})")
    failures = [
        t.get("name")
        for t in ET.parse(junit).getroot().iter("testcase")
        if t.find("failure") is not None
    ]
    assert failures == [case["id"]]
