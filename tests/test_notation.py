"""Move text against a position: parse_move and format_move, and explain."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from played import examples, reached_states

from pegs_rules import (
    AmbiguousMoveError,
    Discard,
    Explanation,
    GameState,
    IllegalMoveError,
    Move,
    NotationError,
    Pass,
    PegsError,
    Play,
    Rank,
    Step,
    apply,
    explain,
    format_move,
    legal_moves,
    location_name,
    new_game,
    parse_move,
    parse_position,
)
from pegs_rules.rulings import RULINGS

STATE = parse_position("""
pegs 0: 70 h1
pegs 1: 30
pegs 2: 40 h1
hand 0: 3 7 K
""")


# --- round trips over reached states -----------------------------------------------------------


@settings(max_examples=examples(0.5))
@given(reached_states())
def test_every_legal_move_round_trips_in_canonical_and_short_form(state: GameState) -> None:
    for move in legal_moves(state):
        text = format_move(state, move)
        assert text == str(move)
        assert parse_move(state, text) == move
        short = format_move(state, move, short=True)
        assert len(short) <= len(text)
        assert parse_move(state, short) == move, (short, str(move))
        for shorter in (t for t in shorthands(move) if len(t) < len(short)):
            try:
                named = parse_move(state, shorter)
            except PegsError:
                continue  # ambiguous, or no legal move
            assert named != move, f"{shorter!r} is shorter than {short!r} and names {move}"


def shorthands(move: Move) -> list[str]:
    """Every way of writing ``move`` with each step's seat and destination given or left out
    (the module docstring's shorthands), and its card alone."""
    if not isinstance(move, Play):
        return []
    texts = [move.card.symbol]
    for choice in itertools.product(range(4), repeat=len(move.steps)):
        words = []
        for (seat, src, dst), kind in zip(move.steps, choice, strict=True):
            word = location_name(src) + (f"-{location_name(dst)}" if kind % 2 else "")
            words.append(f"{seat}:{word}" if kind >= 2 else word)
        texts.append(" ".join([move.card.symbol, *words]))
    return texts


@settings(max_examples=examples(0.5))
@given(reached_states())
def test_a_seatless_step_names_its_move_or_lists_it_among_the_candidates(
    state: GameState,
) -> None:
    for move in legal_moves(state):
        if not isinstance(move, Play):
            continue
        steps = " ".join(f"{location_name(s.src)}-{location_name(s.dst)}" for s in move.steps)
        text = f"{move.card.symbol.lower()} {steps}"
        try:
            assert parse_move(state, text) == move
        except AmbiguousMoveError as error:
            assert move in error.candidates and len(error.candidates) > 1
            assert all(parse_move(state, str(m)) == m for m in error.candidates)


# --- shorthands --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("3 70-1", "3 0:70-1"),
        ("3 0:70-1", "3 0:70-1"),
        ("3 70", "3 0:70-1"),
        ("3, 40-43", "3 2:40-43"),
        ("K S-8", "K 0:s-8"),
        ("k 2:s", "K 2:s-44"),
        ("7 70-5", "7 0:70-5"),
        ("7 h1-h2 70-h", "7 0:h1-h2 0:70-h1"),
        ("7 h1-h 40-46", "7 0:h1-h2 2:40-46"),
        ("7 H1-H2 2:40", "7 0:h1-h2 2:40-46"),
    ],
)
def test_shorthands_resolve_against_the_legal_moves(text: str, move: str) -> None:
    assert str(parse_move(STATE, text)) == move


def test_ambiguous_text_lists_every_candidate() -> None:
    with pytest.raises(AmbiguousMoveError) as caught:
        parse_move(STATE, "3 h1-h4")
    assert [str(m) for m in caught.value.candidates] == ["3 0:h1-h4", "3 2:h1-h4"]
    assert "3 0:h1-h4, 3 2:h1-h4" in str(caught.value)
    with pytest.raises(AmbiguousMoveError, match="K 0:s-8, K 0:70-8, K 2:s-44, K 2:40-50"):
        parse_move(STATE, "K")
    with pytest.raises(AmbiguousMoveError):
        parse_move(STATE, "K s")


def test_a_card_alone_names_its_only_play() -> None:
    state = parse_position("pegs 0: 12\nhand 0: 5")
    assert str(parse_move(state, "5")) == "5 0:12-17"


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("3 0:70-5", "card.number"),  # canonical, wrong count
        ("3 41-44", "board.pegs"),  # no peg there
        ("3 30-33", "team.control"),  # an opponent's peg: its seat is guessed from the hole
        ("3 70-h", "card.number"),  # a pattern with no legal match
        ("5 70-h", "turn.sequence"),  # a card not held
        ("discard 3", "turn.must-play"),
        ("pass", "turn.discard"),
        ("7 0:70-h3 0:70-h3", "card.seven.split"),
    ],
)
def test_illegal_text_raises_the_rule_that_forbids_it(text: str, rule: str) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        parse_move(STATE, text)
    assert caught.value.rule == rule, caught.value


def test_illegal_canonical_text_gets_the_same_reason_as_apply() -> None:
    move = Play(Rank.THREE, (Step(0, 70, 5),))
    with pytest.raises(IllegalMoveError) as by_apply:
        apply(STATE, move)
    with pytest.raises(IllegalMoveError) as by_parse:
        parse_move(STATE, str(move))
    assert str(by_parse.value) == str(by_apply.value)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "no move given"),
        ("   ", "no move given"),
        ("X 70-1", "'X' is not a card"),
        ("3 70-1 40-43 12-15", "one or two steps, not 3"),
        ("3 a:70-1", "bad seat 'a'"),
        ("3 70-q", "bad location 'q'"),
        ("3 70-h6", "bad location 'h6'"),
        ("3 -5", "bad location ''"),
        ("3 " + "9" * 40, "bad location"),
        ("discard", "'discard CARD'"),
        ("discard 3 4", "'discard CARD'"),
        ("discard Z", "'Z' is not a card"),
        ("pass 3", "'pass' takes nothing after it"),
    ],
)
def test_malformed_text_says_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_move(STATE, text)
    assert says in str(caught.value)
    assert not isinstance(caught.value, AmbiguousMoveError)


def _parses_or_refuses(text: str) -> None:
    try:
        move = parse_move(STATE, text)
    except PegsError as error:
        assert str(error)
    else:
        assert move in legal_moves(STATE)


@given(st.text(max_size=30))
def test_any_text_is_a_move_or_a_library_error(text: str) -> None:
    _parses_or_refuses(text)


@given(st.text(alphabet="0123456789shHkK37:- ,", max_size=16))
def test_move_like_text_is_a_move_or_a_library_error(text: str) -> None:
    _parses_or_refuses(text)


def test_discard_and_pass_read_in_any_case() -> None:
    stuck = parse_position("pegs 0: s\nhand 0: 5 JK")
    assert parse_move(stuck, "DISCARD 5") == Discard(Rank.FIVE)
    empty = parse_position("hand 0:")
    assert parse_move(empty, "Pass") == Pass()


def test_format_move_refuses_an_illegal_move_and_non_states() -> None:
    with pytest.raises(IllegalMoveError):
        format_move(STATE, Discard(Rank.THREE))
    with pytest.raises(PegsError):
        format_move("state", Pass())  # type: ignore[arg-type]
    with pytest.raises(PegsError):
        parse_move(None, "pass")  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        parse_move(STATE, 3)  # type: ignore[arg-type]


@pytest.mark.ruling("game.end")
def test_after_the_game_every_text_is_refused_with_game_end() -> None:
    won = parse_position("pegs 0: h1 h2 h3 h4 h5\npegs 2: h1 h2 h3 h4 h5\nturn: 0\nhand 0: 3")
    for text in ("3 h1-h4", "3 0:h1-h4", "3"):
        with pytest.raises(IllegalMoveError, match=r"\[game.end\]"):
            parse_move(won, text)


# --- explain -----------------------------------------------------------------------------------


def test_explain_a_legal_and_an_illegal_move() -> None:
    legal = explain(STATE, parse_move(STATE, "3 70-1"))
    assert legal == Explanation(True, None, "3 0:70-1 is a legal move for seat 0")
    illegal = explain(STATE, Play(Rank.THREE, (Step(0, 70, 5),)))
    assert (illegal.legal, illegal.rule) == (False, "card.number")
    assert str(illegal) == f"[card.number] {illegal.reason}"
    assert explain(STATE, "3 70-1").rule == "turn.sequence"
    with pytest.raises(PegsError):
        explain("state", Pass())  # type: ignore[arg-type]


@settings(max_examples=examples(0.5))
@given(reached_states(), st.data())
def test_explain_agrees_with_apply(state: GameState, data: st.DataObject) -> None:
    legal = legal_moves(state)
    for move in legal[:5]:
        assert explain(state, move).legal
    card = data.draw(st.sampled_from(list(Rank)))
    seat = data.draw(st.integers(0, state.players - 1))
    src = data.draw(st.sampled_from([-1, 0, 5, 40, 70, 1001, 1003]))
    dst = data.draw(st.sampled_from([-1, 3, 8, 33, 70, 71, 1002, 1005]))
    for move in (Play(card, (Step(seat, src, dst),)), Discard(card), Pass()):
        verdict = explain(state, move)
        if verdict.legal:
            assert move in legal and verdict.rule is None
            continue
        with pytest.raises(IllegalMoveError) as caught:
            apply(state, move)
        assert verdict.rule == caught.value.rule in RULINGS
        assert verdict.reason == caught.value.reason


def test_explain_a_fresh_game() -> None:
    game = new_game(4, seed=1)
    assert explain(game, Pass()).rule == "turn.discard"
