"""The engine against the independent reference under the standard preset and the
house-rule switches (``variant.*``), both in ``reference.py``.

* whole seeded games under ``standard``: moves every turn, every turn's result (pegs,
  hands, piles, next seat, winner) through :func:`reference.check_turn`;
* random game prefixes under random switch combinations (hypothesis draws each field
  of ``Rules``): every turn's result, then the final state's moves and their results;
* random made positions under random switch combinations.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from reference import assert_agree, check_turn, reference_legal_moves
from rules_strategies import PLAYER_COUNTS, made_positions, play, rules_under_test

from pegs_rules import GameState, apply, legal_moves, new_game
from pegs_rules.rules import STANDARD, Rules

NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
"""Shrinking a random-play trace means replaying it many times; failures print the
position and the move instead."""


@pytest.mark.parametrize(("players", "seed"), [(4, 5), (6, 6)])
def test_agree_over_whole_standard_games(players: int, seed: int) -> None:
    """A whole random game under ``standard``: every turn's moves and result; every
    play's result every 40th turn."""
    rng = random.Random(seed)
    state = new_game(players, seed=seed, rules=STANDARD)
    assert len(state.hands[state.turn]) == 6  # turn.sequence (standard): draw first
    while state.winner is None:
        assert_agree(state, results=state.ply % 40 == 0)
        move = rng.choice(legal_moves(state))
        after = apply(state, move)
        check_turn(state, move, after)
        state = after
    assert reference_legal_moves(state) == legal_moves(state) == ()


@settings(phases=NO_SHRINK, max_examples=max(10, settings().max_examples // 2))
@given(
    rules_under_test,
    st.sampled_from(PLAYER_COUNTS),
    st.integers(0, 2**32 - 1),
    st.integers(0, 600).flatmap(lambda n: st.lists(st.integers(0, 2**16), min_size=n, max_size=n)),
)
def test_agree_on_played_states_under_switches(
    rules: Rules, players: int, seed: int, choices: list[int]
) -> None:
    """Every turn's result along a random game prefix; the moves and results of the
    last state, and the moves of every 100th."""
    states, moves = play(new_game(players, seed=seed, rules=rules), choices)
    for before, move, after in zip(states, moves, states[1:], strict=False):
        check_turn(before, move, after)
    for state in states[::100]:
        assert_agree(state, results=False)
    assert_agree(states[-1])


@settings(max_examples=10 * settings().max_examples)
@given(made_positions())
def test_agree_on_made_positions_under_switches(state: GameState) -> None:
    assert_agree(state)
