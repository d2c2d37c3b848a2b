"""Benchmark: PettingZoo environment steps per second, against the bare engine in the same run.

Usage: python bench/rl_env.py [--games N] [--players 4|6|8] [--preset NAME] [--rounds R]

Plays seeded games of uniformly random legal moves two ways, interleaved
round by round on one core: through ``pegs_rules.rl.raw_env`` (``last()``
with its observation and action mask, a choice among the mask's actions,
``step``), and with the engine alone (``legal_moves``, a choice, ``apply``).
Reports each one's steps (turns) per second of CPU time (so that other jobs on
a shared machine slow neither side) and the environment's rate as a ratio to
the engine's, the figure that carries over between machines.

The random agent reads the mask as numpy booleans (``mask.view(bool)``): numpy
finds the nonzero entries of an ``int8`` array about fifteen times slower than
those of the same bytes viewed as ``bool``, which would otherwise cost more than
the environment's whole step.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from pegs_rules import apply, find_preset, legal_moves, new_game
from pegs_rules.rl import raw_env


def env_games(players: int, preset: str, seeds: range) -> int:
    """Play one game per seed through the environment; return the steps taken."""
    game = raw_env(players=players, rules=preset)
    steps = 0
    for seed in seeds:
        game.reset(seed=seed)
        rng = random.Random(seed)
        for _agent in game.agent_iter():
            observation, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"].view(np.bool_))
            game.step(rng.choice(legal.tolist()))
            steps += 1
    return steps


def engine_games(players: int, preset: str, seeds: range) -> int:
    """Play one game per seed with the engine alone; return the turns taken."""
    turns = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(players, seed=seed, rules=find_preset(preset))
        while not state.is_over:
            state = apply(state, rng.choice(legal_moves(state)))
            turns += 1
    return turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per round and way")
    parser.add_argument("--players", type=int, default=4, choices=(4, 6, 8))
    parser.add_argument("--preset", default="arizona")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    totals = {"env": [0, 0.0], "engine": [0, 0.0]}
    for round_ in range(args.rounds):
        seeds = range(round_ * args.games, (round_ + 1) * args.games)
        for way, run in (("env", env_games), ("engine", engine_games)):
            started = time.process_time()
            totals[way][0] += run(args.players, args.preset, seeds)
            totals[way][1] += time.process_time() - started
    env_rate = totals["env"][0] / totals["env"][1]
    engine_rate = totals["engine"][0] / totals["engine"][1]
    print(f"{args.rounds} rounds of {args.games} random {args.players}-player {args.preset} games")
    print(f"  environment steps per CPU second: {env_rate:8.0f}  ({totals['env'][0]} steps)")
    print(f"  engine turns per CPU second:      {engine_rate:8.0f}  ({totals['engine'][0]} turns)")
    print(f"  environment / engine:             {env_rate / engine_rate:8.2f}")


if __name__ == "__main__":
    main()
