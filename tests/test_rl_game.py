"""The environments' fast game agrees, byte for byte, with a fresh computation after every turn.

:class:`~pegs_rules.rl.game.NumberedGame` numbers the legal moves from the
generator's change codes, writes observations from its own parts and keeps the
board and the discard pile's counts as it goes, whether a turn is taken by
number (an agent) or by move (a bot). Each of these is checked here against the
documented functions run afresh on the state: :meth:`ActionSpace.encode` of
every move of ``legal_moves``, :func:`observation` of every seat's view, and
:func:`apply`.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pegs_rules import ARIZONA, GameState, apply, legal_moves, new_game, view
from pegs_rules.rules import STANDARD, Rules

pytest.importorskip("pettingzoo")

from played import examples
from rules_strategies import DECK_TABLES, house_rules

from pegs_rules.rl import ActionSpace, observation, raw_env
from pegs_rules.rl.game import NumberedGame


def agree(game: NumberedGame, state: GameState) -> None:
    """``game`` holds ``state`` and gives what the documented functions give for it."""
    space = game.space
    assert game.state == state
    seen = view(state, state.turn)
    fresh = {space.encode(seen, move): move for move in legal_moves(state)}
    assert game.moves() == fresh
    assert list(game.moves()) == list(fresh)  # in legal_moves order
    for seat in range(state.players):
        assert game.observation(seat).tobytes() == observation(view(state, seat)).tobytes()


def play_along(
    rules: Rules, players: int, seed: int, choices: random.Random, plies: int
) -> GameState:
    """Play a random game through a :class:`NumberedGame` and with :func:`apply` side by side,
    checking every position; return the last."""
    space = ActionSpace(players)
    state = new_game(players, seed=seed, rules=rules)
    game = NumberedGame(state, space)
    agree(game, state)
    while state.winner is None and state.ply < plies:
        action = choices.choice(sorted(game.options))
        move = game.moves()[action]
        if choices.random() < 0.5:
            game.step(action)
        else:
            game.play(move)  # as bots do
        state = apply(state, move)
        agree(game, state)
    return state


@settings(max_examples=examples(0.25))
@given(
    rules=st.one_of(st.sampled_from((ARIZONA, STANDARD)), house_rules()),
    players=st.sampled_from((4, 6, 8)),
    seed=st.integers(0, 2**32),
    choices=st.randoms(use_true_random=False),
    plies=st.integers(0, 300),
)
def test_the_fast_game_agrees_with_a_fresh_computation(
    rules: Rules, players: int, seed: int, choices: random.Random, plies: int
) -> None:
    play_along(rules, players, seed, choices, plies)


def test_a_whole_game_agrees_reshuffles_and_the_win_included() -> None:
    small_pool = replace(ARIZONA, decks=DECK_TABLES[2])  # reshuffles come early
    last = play_along(small_pool, 4, seed=4, choices=random.Random(1), plies=10**6)
    assert last.winner is not None and last.reshuffles >= 2


def test_the_environment_masks_what_the_fresh_numbering_numbers() -> None:
    game = raw_env(players=6, rules=STANDARD)
    game.reset(seed=5)
    rng = random.Random(5)
    space = game.actions
    for _ in range(120):
        state = game.game
        seen = view(state, state.turn)
        mask = game.observe(game.agent_selection)["action_mask"]
        fresh = sorted(space.encode(seen, move) for move in legal_moves(state))
        assert mask.nonzero()[0].tolist() == fresh
        game.step(rng.choice(fresh))
