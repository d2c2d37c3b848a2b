"""Benchmark: seeded random games, reporting turns/s and legal_moves calls/s.

Usage: python bench/random_play.py [--games N] [--players 4|6|8] [--seed S] [--preset NAME]

Runs on one core. Turns/s counts whole turns of random play (legal_moves, a
random choice, apply). legal_moves/s then re-times legal_moves alone on a
sample of the states those games passed through, with the memo cleared so
every call computes its moves afresh.
"""

from __future__ import annotations

import argparse
import random
import time

from pegs_rules import GameState, apply, find_preset, legal_moves, new_game
from pegs_rules.movegen import clear_memo


def play(players: int, seed: int, preset: str, keep_every: int) -> tuple[int, list[GameState]]:
    """Play one random game; return its turn count and every ``keep_every``-th state."""
    rng = random.Random(seed)
    state = new_game(players, seed=seed, rules=find_preset(preset))
    kept = []
    while not state.is_over:
        if state.ply % keep_every == 0:
            kept.append(state)
        state = apply(state, rng.choice(legal_moves(state)))
    return state.ply, kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4, choices=(4, 6, 8))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--preset", default="arizona")
    args = parser.parse_args()

    started = time.perf_counter()
    turns = 0
    sample: list[GameState] = []
    for game in range(args.games):
        played, kept = play(args.players, args.seed + game, args.preset, keep_every=10)
        turns += played
        sample += kept
    elapsed = time.perf_counter() - started

    clear_memo()
    started = time.perf_counter()
    moves = sum(len(legal_moves(state)) for state in sample)
    lm_elapsed = time.perf_counter() - started

    print(f"{args.games} random {args.players}-player {args.preset} games, {turns} turns")
    print(f"  turns per game:         {turns / args.games:10.1f}")
    print(f"  turns per second:       {turns / elapsed:10.0f}")
    print(f"  legal_moves per second: {len(sample) / lm_elapsed:10.0f}  ({len(sample)} states)")
    print(f"  legal moves per call:   {moves / len(sample):10.1f}")


if __name__ == "__main__":
    main()
