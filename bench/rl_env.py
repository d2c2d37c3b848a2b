"""Benchmark: the PettingZoo environment's turns per second, against the bare engine in the same run.

Usage: python bench/rl_env.py [--games N] [--players 4|6|8] [--preset NAME] [--rounds R]
(by default 6 rounds of 4 games each way)

Plays seeded games of uniformly random legal moves three ways, interleaved
round by round on one core:

* ``env``: through ``pegs_rules.rl.env()``, the wrapped environment, with the
  loop of the docs' "Reinforcement learning" page exactly (``agent_iter``,
  ``last()``, a random action among the mask's, ``step``);
* ``raw_env``: the same loop through the bare ``raw_env``;
* ``engine``: with the engine alone (``legal_moves``, a random choice, ``apply``).

Each way draws its choices from the same kind of generator (numpy's, seeded by
the game), and reports its turns per second of CPU time (so that other jobs on
a shared machine slow no way more than another); the ratio of each environment's
rate to the engine's is the figure that carries over between machines. The
ways take turns to go first, round by round, so that none always runs just after
another or first of all.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from pegs_rules import apply, find_preset, legal_moves, new_game
from pegs_rules.rl import env, raw_env


def env_games(make: Callable[..., object], players: int, preset: str, seeds: range) -> int:
    """Play one game per seed through the environment ``make`` returns, with the docs' loop;
    return the turns taken."""
    game = make(players=players, rules=preset)
    turns = 0
    for seed in seeds:
        game.reset(seed=seed)  # type: ignore[attr-defined]
        rng = np.random.default_rng(seed)
        # the loop of docs/rl.rst, "The PettingZoo environment"
        for _agent in game.agent_iter():  # type: ignore[attr-defined]
            observation, _, terminated, truncated, _ = game.last()  # type: ignore[attr-defined]
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"].view(bool))
                action = int(legal[rng.integers(len(legal))])
                turns += 1
            game.step(action)  # type: ignore[attr-defined]
    return turns


def engine_games(players: int, preset: str, seeds: range) -> int:
    """Play one game per seed with the engine alone; return the turns taken."""
    rules = find_preset(preset)
    turns = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = new_game(players, seed=seed, rules=rules)
        while not state.is_over:
            moves = legal_moves(state)
            state = apply(state, moves[rng.integers(len(moves))])
            turns += 1
    return turns


WAYS: dict[str, Callable[[int, str, range], int]] = {
    "env": lambda players, preset, seeds: env_games(env, players, preset, seeds),
    "raw_env": lambda players, preset, seeds: env_games(raw_env, players, preset, seeds),
    "engine": engine_games,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per round and way")
    parser.add_argument("--players", type=int, default=4, choices=(4, 6, 8))
    parser.add_argument("--preset", default="arizona")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()

    totals = {way: [0, 0.0] for way in WAYS}
    ways = list(WAYS)
    for round_ in range(args.rounds):
        seeds = range(round_ * args.games, (round_ + 1) * args.games)
        shift = round_ % len(ways)
        for way in ways[shift:] + ways[:shift]:
            run = WAYS[way]
            started = time.process_time()
            totals[way][0] += run(args.players, args.preset, seeds)
            totals[way][1] += time.process_time() - started
    rates = {way: turns / seconds for way, (turns, seconds) in totals.items()}
    print(f"{args.rounds} rounds of {args.games} random {args.players}-player {args.preset} games")
    for way, rate in rates.items():
        ratio = rate / rates["engine"]
        print(
            f"  {way:8} {rate:8.0f} turns per CPU second ({totals[way][0]} turns), "
            f"{ratio:.2f} of the engine's"
        )


if __name__ == "__main__":
    main()
