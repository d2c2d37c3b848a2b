"""OpenSpiel's IS-MCTS against this library's bots, through ``python_pegs_and_jokers``.

Plays ``--games`` games of 4 players: IS-MCTS (``open_spiel.python.algorithms.ismcts``,
``--simulations`` a move, its worlds dealt by :func:`pegs_rules.rl.openspiel.resample`) holds
one team, a bot (``--bot``) the other; the teams change sides each game. IS-MCTS values a leaf
by the bots' own measure of the race, ``tanh(progress / 100)`` of its team
(:func:`pegs_rules.bots.evaluation.progress`), and a finished game by its returns. Game ``g``'s
chance and the bots' seeds derive from ``--seed`` and ``g`` (:func:`pegs_rules.seeding.derive_seed`).
Prints each game and IS-MCTS's wins, with a 95% Wilson interval; with ``--json FILE`` writes
the record: the settings, the CPU time and each game's actions (chance's included), from which
``tests/test_rl_standard.py`` replays every game to its winner.

    nice -n 10 python tools/openspiel_match.py --games 40 --simulations 50 --bot medium \
        --json docs/examples/results/openspiel-ismcts.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import ismcts  # type: ignore[import-untyped]

from pegs_rules.bots import decide, make_bot
from pegs_rules.bots.evaluation import progress
from pegs_rules.rl.openspiel import PegsAndJokersState, resample
from pegs_rules.seeding import derive_seed
from pegs_rules.simulate import wilson
from pegs_rules.views import view


class Progress:
    """An IS-MCTS leaf evaluator: the race as the bots measure it (see the module docstring)."""

    def __init__(self, players: int) -> None:
        self.players = players

    def evaluate(self, state: PegsAndJokersState) -> np.ndarray[Any, np.dtype[np.float64]]:
        position = state.position()
        if state.is_terminal() or position is None:
            return np.array(state.returns())
        value = math.tanh(progress(position.pegs, 0) / 100)
        return np.array([value if seat % 2 == 0 else -value for seat in range(self.players)])

    def prior(self, state: PegsAndJokersState) -> list[tuple[int, float]]:
        actions = state.legal_actions()
        return [(action, 1 / len(actions)) for action in actions]


def play(
    seed: int, game_number: int, simulations: int, bot_name: str
) -> tuple[int | None, int, list[int]]:
    """Game ``game_number``: the winning team (``None`` if truncated), the team IS-MCTS held
    and the game's actions."""
    game = pyspiel.load_game("python_pegs_and_jokers", {"players": 4})
    chance = random.Random(derive_seed(seed, "openspiel match", game_number, "chance"))
    worlds = random.Random(derive_seed(seed, "openspiel match", game_number, "worlds"))
    search = ismcts.ISMCTSBot(
        game,
        Progress(4),
        1.4,
        simulations,
        random_state=np.random.RandomState(derive_seed(seed, "ismcts", game_number) % 2**32),
        allow_inconsistent_action_sets=True,
    )
    search.set_resampler(lambda state, player: resample(state, player, worlds))
    ours = game_number % 2
    bots = {
        seat: make_bot(bot_name, derive_seed(seed, "openspiel match", game_number, seat))
        for seat in range(4)
        if seat % 2 != ours
    }
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chance.choices(outcomes, chances)[0])
        elif state.current_player() % 2 == ours:
            state.apply_action(search.step(state))
        else:
            position = state.state
            move = decide(bots[position.turn], position)
            state.apply_action(state.space.encode(view(position, position.turn), move))
    winner = state.state.winner
    return winner, ours, [int(action) for action in state.history()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--bot", default="medium")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="write the record here")
    args = parser.parse_args()
    wins = 0
    games = []
    started = time.process_time()
    for g in range(args.games):
        winner, ours, actions = play(args.seed, g, args.simulations, args.bot)
        wins += winner == ours
        games.append({"ismcts_team": ours, "winner": winner, "actions": actions})
        print(f"game {g}: IS-MCTS team {ours}, winner {winner}", flush=True)
        if args.json:  # after every game, so that a run cut short keeps the games it played
            record = {
                "players": 4,
                "simulations": args.simulations,
                "bot": args.bot,
                "seed": args.seed,
                "cpu_seconds": round(time.process_time() - started),
                "games": games,
            }
            with open(args.json, "w") as out:
                json.dump(record, out)
    low, high = wilson(wins, args.games)
    cpu = time.process_time() - started
    print(
        f"IS-MCTS ({args.simulations} simulations) won {wins} of {args.games} against "
        f"{args.bot}: 95% interval [{low:.1%}, {high:.1%}]; {cpu:.0f} s CPU"
    )


if __name__ == "__main__":
    main()
