"""Malformed input never crashes with anything but the library's own errors."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pegs_rules import (
    Discard,
    GameState,
    IllegalMoveError,
    Pass,
    PegsError,
    Play,
    PositionError,
    Rank,
    Step,
    apply,
    legal_moves,
    new_game,
    parse_notation,
    parse_position,
)
from pegs_rules.reasons import why_illegal
from pegs_rules.rulings import RULINGS

GAME = new_game(4, seed=3)
ints = st.integers(min_value=-3, max_value=1010)
junk: st.SearchStrategy[Any] = st.one_of(
    st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=3)
)


@given(
    card=st.one_of(st.sampled_from(list(Rank)), junk),
    steps=st.lists(st.one_of(st.tuples(ints, ints, ints), junk), max_size=3),
    as_tuple=st.booleans(),
)
def test_any_play_is_applied_or_rejected_with_a_known_rule(
    card: Any, steps: list[Any], as_tuple: bool
) -> None:
    move = Play(card, tuple(steps) if as_tuple else steps)  # type: ignore[arg-type]
    legal = legal_moves(GAME)
    try:
        after = apply(GAME, move)
    except IllegalMoveError as error:
        assert error.rule in RULINGS
        assert move not in legal
    else:
        assert move in legal
        assert after.ply == 1


@given(st.one_of(junk, st.sampled_from(list(Rank))))
def test_any_discard_or_object_is_rejected_with_a_known_rule(thing: Any) -> None:
    for move in (Discard(thing), thing):
        if move in legal_moves(GAME):
            continue
        with pytest.raises(IllegalMoveError) as caught:
            apply(GAME, move)
        assert caught.value.rule in RULINGS


@given(st.text(max_size=40))
def test_any_text_parses_or_raises_a_library_error(text: str) -> None:
    for parse in (parse_notation, parse_position):
        try:
            parsed: object = parse(text)
        except PegsError as error:  # any other exception fails the test
            assert str(error)
        else:
            assert isinstance(parsed, (Play, Discard, Pass, GameState))


def test_not_a_state_is_a_library_error() -> None:
    with pytest.raises(PegsError):
        legal_moves("state")  # type: ignore[arg-type]
    with pytest.raises(PegsError):
        apply(None, Discard(Rank.ACE))  # type: ignore[arg-type]


def test_a_peg_location_that_is_no_int_is_refused_and_never_remembered() -> None:
    """A bool is no location: the invalid state is refused, and the valid state with the
    same (equal) position that follows gets its own moves, not ones that print ``True``.
    From hole 1 a 5 goes on to 6, or 2 holes to the in-spot and 3 into home (``move.home-entry``)."""
    state = parse_position("pegs 0: 1\nhand 0: 5")
    bad = dataclasses.replace(state, pegs=((-1, -1, -1, -1, True), *state.pegs[1:]))
    with pytest.raises(PositionError):
        legal_moves(bad)
    assert [str(move) for move in legal_moves(state)] == ["5 0:1-6", "5 0:1-h3"]
    off_board = dataclasses.replace(state, pegs=((-1, -1, -1, -1, 500), *state.pegs[1:]))
    with pytest.raises(PositionError):
        legal_moves(off_board)
    not_cards = dataclasses.replace(state, hands=((5,), *state.hands[1:]))  # type: ignore[arg-type]
    with pytest.raises(PositionError):
        legal_moves(not_cards)


def test_every_reason_names_a_known_ruling() -> None:
    state: GameState = GAME
    for move in (Play(Rank.SEVEN, (Step(0, 5, 9), Step(0, 5, 9))), Discard(Rank.JOKER)):
        rule, reason = why_illegal(state, move)
        assert rule in RULINGS and reason
