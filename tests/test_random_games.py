"""Complete random games for 4, 6 and 8 players: each must end with a winning team.

Run with ``-s`` to see the average number of turns per game for each player count.
"""

from __future__ import annotations

import random

import pytest

from pegs_rules import GameState, apply, legal_moves, new_game

SEEDS = (1, 2, 3, 4)
MAX_TURNS = 20_000
"""A safety net: a game this long means something is stuck."""

TURNS: dict[int, list[int]] = {}
"""Turns taken per finished game, by player count (filled in by the tests)."""


def play_random_game(players: int, seed: int) -> tuple[GameState, int]:
    rng = random.Random(f"random-games/{players}/{seed}")
    state = new_game(players, seed=seed)
    turns = 0
    while state.winner is None:
        assert turns < MAX_TURNS, f"no winner after {turns} turns:\n{state}"
        moves = legal_moves(state)
        assert moves, f"no legal move in an unfinished game:\n{state}"
        state = apply(state, rng.choice(moves))
        turns += 1
    return state, turns


@pytest.mark.parametrize("players", [4, 6, 8])
def test_random_games_reach_a_winner(players: int) -> None:
    lengths = []
    for seed in SEEDS:
        state, turns = play_random_game(players, seed)
        assert state.winner in (0, 1)
        team = state.winner
        for seat, locs in enumerate(state.pegs):
            if seat % 2 == team:
                assert all(loc > 1000 for loc in locs), f"seat {seat} not home:\n{state}"
        assert any(loc < 1000 for s, locs in enumerate(state.pegs) if s % 2 != team for loc in locs)
        assert state.ply == turns
        assert legal_moves(state) == ()
        lengths.append(turns)
    TURNS[players] = lengths
    average = sum(lengths) / len(lengths)
    print(f"\n{players} players: {len(lengths)} games, turns {lengths}, average {average:.0f}")
