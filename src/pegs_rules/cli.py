"""The command line: ``python -m pegs_rules demo --seed 1`` (also installed as ``pegs``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from pegs_rules.board import location_name, team_of
from pegs_rules.bots import Bot, GreedyBot, RandomBot
from pegs_rules.cards import format_cards
from pegs_rules.movegen import legal_moves
from pegs_rules.state import new_game
from pegs_rules.turn import apply

BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def demo(players: int, seed: int, bot_names: Sequence[str], max_turns: int) -> int:
    """Play and print one seeded game between bots; return 0."""
    state = new_game(players, seed=seed)
    bots: list[Bot] = [BOTS[bot_names[s % len(bot_names)]](seed * 100 + s) for s in range(players)]
    print(f"pegs-rules demo: {players} players, preset {state.rules.name}, seed {seed}")
    print(f"dealer: seat {state.dealer}; teams: 0 = even seats, 1 = odd seats")
    while not state.is_over and state.ply < max_turns:
        seat = state.turn
        hand = format_cards(state.hands[seat])
        move = bots[seat].choose(state, legal_moves(state))
        state = apply(state, move)
        print(f"turn {state.ply:4d}  seat {seat} [{hand:<18}] {move}")
    print()
    for seat, locs in enumerate(state.pegs):
        print(f"seat {seat} (team {team_of(seat)}): " + " ".join(location_name(p) for p in locs))
    if state.winner is None:
        print(f"no winner after {state.ply} turns")
    else:
        print(f"team {state.winner} wins after {state.ply} turns")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pegs", description="Pegs and Jokers rules engine")
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("demo", help="play and print a seeded game between bots")
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--players", type=int, choices=(4, 6, 8), default=4)
    play.add_argument("--bots", default="greedy,random", help="comma-separated: random, greedy")
    play.add_argument("--max-turns", type=int, default=100_000)
    args = parser.parse_args(argv)
    names = args.bots.split(",")
    unknown = [n for n in names if n not in BOTS]
    if unknown:
        parser.error(f"unknown bot(s): {', '.join(unknown)}; choose from {', '.join(BOTS)}")
    return demo(args.players, args.seed, names, args.max_turns)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
