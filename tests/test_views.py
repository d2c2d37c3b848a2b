"""Player views hide exactly the hidden cards; determinize fills them back in consistently."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from played import examples, reached_states, shuffle_hidden

from pegs_rules import (
    GameState,
    PegsError,
    PlayerView,
    PositionError,
    Rank,
    determinize,
    legal_moves,
    new_game,
    validate,
    view,
)


def swap_with_draw_pile(state: GameState, seat: int, other: int, index: int) -> GameState:
    """``state`` with one card of ``other``'s hand swapped with the top of the draw pile."""
    hand = list(state.hands[other])
    hand[index], top = state.draw_pile[0], hand[index]
    hands = list(state.hands)
    hands[other] = tuple(sorted(hand))
    return dataclasses.replace(state, hands=tuple(hands), draw_pile=(top, *state.draw_pile[1:]))


@settings(max_examples=examples(1.5))
@given(reached_states(), st.data())
def test_hidden_cards_never_change_a_view(state: GameState, data: st.DataObject) -> None:
    seat = data.draw(st.integers(0, state.players - 1))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    other = shuffle_hidden(state, seat, rng)
    assert validate(other) == []
    assert view(other, seat) == view(state, seat)
    others = [s for s in range(state.players) if s != seat and state.hands[s]]
    if others and state.draw_pile:
        mate = data.draw(st.sampled_from(others))
        index = data.draw(st.integers(0, len(state.hands[mate]) - 1))
        swapped = swap_with_draw_pile(state, seat, mate, index)
        assert view(swapped, seat) == view(state, seat)
        # the seat whose hand changed does see the difference
        if swapped.hands[mate] != state.hands[mate]:
            assert view(swapped, mate) != view(state, mate)


@settings(max_examples=examples(0.5))
@given(reached_states(), st.data())
def test_a_view_shows_everything_public(state: GameState, data: st.DataObject) -> None:
    seat = data.draw(st.integers(0, state.players - 1))
    seen = view(state, seat)
    assert seen.seat == seat and seen.hand == state.hands[seat]
    assert seen.pegs == state.pegs and seen.rules == state.rules
    assert seen.hand_sizes == tuple(map(len, state.hands))
    assert seen.draw_pile_size == len(state.draw_pile)
    assert seen.discard_pile == state.discard_pile
    assert (seen.turn, seen.dealer, seen.ply, seen.winner) == (
        state.turn,
        state.dealer,
        state.ply,
        state.winner,
    )
    assert (seen.players, seen.is_over, seen.reshuffles) == (
        state.players,
        state.is_over,
        state.reshuffles,
    )
    assert f"hand {seat}: " in str(seen) and "draw: (" in str(seen)


def test_a_view_has_no_field_for_a_secret() -> None:
    fields = {f.name for f in dataclasses.fields(PlayerView)}
    assert fields == {
        "seat",
        "rules",
        "pegs",
        "hand",
        "hand_sizes",
        "draw_pile_size",
        "discard_pile",
        "turn",
        "dealer",
        "reshuffles",
        "ply",
        "winner",
    }
    assert "seed" not in fields and "hands" not in fields and "draw_pile" not in fields


def test_public_changes_do_change_the_view() -> None:
    game = new_game(4, seed=2)
    base = view(game, 0)
    hands = list(game.hands)
    hands[0] = (*hands[0][:-1], Rank.JOKER)
    assert view(dataclasses.replace(game, hands=tuple(hands)), 0) != base
    assert view(dataclasses.replace(game, discard_pile=(Rank.ACE,)), 0) != base
    assert view(dataclasses.replace(game, draw_pile=game.draw_pile[1:]), 0) != base
    pegs = ((game.board.come_out(1), -1, -1, -1, -1), *game.pegs[1:])
    assert view(dataclasses.replace(game, pegs=pegs), 0) != base


@given(reached_states(), st.data())
def test_determinize_agrees_with_the_view(state: GameState, data: st.DataObject) -> None:
    seat = data.draw(st.integers(0, state.players - 1))
    seen = view(state, seat)
    guess = determinize(seen, random.Random(data.draw(st.integers(0, 2**32))))
    assert validate(guess) == []
    assert view(guess, seat) == seen
    hidden = Counter(state.draw_pile)
    guessed = Counter(guess.draw_pile)
    for s in range(state.players):
        if s != seat:
            hidden.update(state.hands[s])
            guessed.update(guess.hands[s])
            assert len(guess.hands[s]) == len(state.hands[s])
    assert guessed == hidden
    if seat == state.turn:
        assert legal_moves(guess) == legal_moves(state)


def test_determinize_is_random_but_repeatable() -> None:
    seen = view(new_game(6, seed=4), 3)
    first = determinize(seen, random.Random(1))
    assert determinize(seen, random.Random(1)) == first
    samples = {determinize(seen, random.Random(n)).hands[0] for n in range(20)}
    assert len(samples) > 10
    assert all(determinize(seen, random.Random(n)).hands[3] == seen.hand for n in range(5))


def test_impossible_views_are_refused() -> None:
    seen = view(new_game(4, seed=1), 0)
    rng = random.Random(0)
    with pytest.raises(PositionError, match="hides"):
        determinize(dataclasses.replace(seen, draw_pile_size=3), rng)
    with pytest.raises(PositionError, match="does not hold"):
        determinize(dataclasses.replace(seen, discard_pile=(Rank.JOKER,) * 7), rng)
    with pytest.raises(PositionError, match="hand size"):
        determinize(dataclasses.replace(seen, hand=seen.hand[1:]), rng)
    with pytest.raises(PositionError, match="cannot come from a real game"):
        determinize(dataclasses.replace(seen, turn=9), rng)
    with pytest.raises(PegsError):
        determinize("view", rng)  # type: ignore[arg-type]


def test_view_needs_a_state_and_a_seat() -> None:
    game = new_game(4, seed=1)
    for seat in (-1, 4, True, "0"):
        with pytest.raises(PositionError):
            view(game, seat)  # type: ignore[arg-type]
    with pytest.raises(PegsError):
        view("state", 0)  # type: ignore[arg-type]
