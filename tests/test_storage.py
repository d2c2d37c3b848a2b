"""States share their piles with earlier states, yet behave as plain values.

The draw pile is kept as a deck order shared between states and a count of
cards drawn, the discard pile as links to the earlier pile; moves are made
once and shared. None of that may show: states and moves pickle, copy,
compare, hash, replace and serialise as the values they stand for.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import pickle
import random

import pytest

from pegs_rules import GameState, apply, from_json, legal_moves, new_game, to_json
from pegs_rules.cards import Rank


def played(players: int, seed: int, plies: int) -> list[GameState]:
    rng = random.Random(seed)
    states = [new_game(players, seed=seed)]
    while len(states) <= plies and not states[-1].is_over:
        states.append(apply(states[-1], rng.choice(legal_moves(states[-1]))))
    return states


@pytest.fixture(scope="module")
def states() -> list[GameState]:
    """A game past its first reshuffle, every state kept."""
    states = played(4, seed=3, plies=400)
    assert states[-1].reshuffles >= 1
    return states


def test_states_pickle_and_copy_as_values(states: list[GameState]) -> None:
    for state in states[::37] + states[-1:]:
        for twin in (
            pickle.loads(pickle.dumps(state)),
            copy.copy(state),
            copy.deepcopy(state),
            from_json(to_json(state)),
        ):
            assert twin == state and hash(twin) == hash(state)
            assert (twin.draw_pile, twin.discard_pile) == (state.draw_pile, state.discard_pile)
            assert type(twin.draw_pile) is tuple and type(twin.discard_pile) is tuple
            assert legal_moves(twin) == legal_moves(state)
        moves = legal_moves(state)
        assert pickle.loads(pickle.dumps(moves)) == moves
        assert copy.deepcopy(moves) == moves


def test_shared_piles_read_as_the_cards_dealt_drawn_and_discarded(
    states: list[GameState],
) -> None:
    for before, after in itertools.pairwise(states):
        if after.reshuffles == before.reshuffles:
            drawn = len(before.draw_pile) - len(after.draw_pile)
            assert after.draw_pile == before.draw_pile[drawn:]
            assert after.discard_pile[: len(before.discard_pile)] == before.discard_pile
        assert after.draw_pile_size == len(after.draw_pile)
        assert len(after.discard_pile) - len(before.discard_pile) <= 1 or (
            after.reshuffles > before.reshuffles
        )


def test_replace_reads_and_sets_the_piles(states: list[GameState]) -> None:
    state = states[-1]
    again = dataclasses.replace(state, ply=state.ply + 1)
    assert (again.draw_pile, again.discard_pile) == (state.draw_pile, state.discard_pile)
    emptied = dataclasses.replace(state, draw_pile=(), discard_pile=(Rank.ACE,))
    assert (emptied.draw_pile, emptied.discard_pile) == ((), (Rank.ACE,))
    assert [f.name for f in dataclasses.fields(GameState)][:3] == ["rules", "pegs", "hands"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.draw_pile = ()  # type: ignore[misc]
