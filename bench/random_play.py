"""Benchmark: seeded random games, reporting turns/s and legal_moves calls/s.

Usage: python bench/random_play.py [--games N] [--players 4|6|8] [--seed S]

Runs on one core. Turns/s counts whole turns (legal_moves + a random choice +
apply); legal_moves/s re-times legal_moves alone on every state those games
passed through.
"""

from __future__ import annotations

import argparse
import random
import time

from pegs_rules import GameState, apply, legal_moves, new_game


def play(players: int, seed: int) -> list[GameState]:
    """Play one random game; return every state it passed through."""
    rng = random.Random(seed)
    state = new_game(players, seed=seed)
    states = [state]
    while not state.is_over:
        state = apply(state, rng.choice(legal_moves(state)))
        states.append(state)
    return states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4, choices=(4, 6, 8))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    started = time.perf_counter()
    history: list[GameState] = []
    for game in range(args.games):
        history.extend(play(args.players, args.seed + game))
    elapsed = time.perf_counter() - started
    turns = len(history) - args.games

    started = time.perf_counter()
    moves = 0
    for state in history:
        moves += len(legal_moves(state))
    lm_elapsed = time.perf_counter() - started

    print(f"{args.games} random {args.players}-player games, {turns} turns")
    print(f"  turns per game:        {turns / args.games:10.1f}")
    print(f"  turns per second:      {turns / elapsed:10.0f}")
    print(f"  legal_moves per second:{len(history) / lm_elapsed:10.0f}")
    print(f"  legal moves per call:  {moves / len(history):10.1f}")


if __name__ == "__main__":
    main()
