"""The searching bots of both engines asked for the same decisions: do they choose alike?

Plays games between greedy bots at 4, 6 and 8 players under both presets, and at decisions
along the way (with at least two legal moves) asks this library's bot and the TypeScript
package's (``js/scripts/bot-choose.mjs``, after ``npm run build --prefix js``) for a move
from the same view, with the same seed and the same budget of playouts. Prints how many
decisions were asked and each difference; exits 1 if there is one.

    python tools/bot_differential.py --decisions 2000 --budget 100
    python tools/bot_differential.py --decisions 60 --budget 20 --bots hard expert

Both bots' budgets are playouts (never seconds), so neither choice depends on timing (a
choice that hits the bots' time cap, ``max_seconds``, could; at these budgets none does).
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pegs_rules import (
    PegsError,
    apply,
    find_preset,
    from_data,
    legal_moves,
    new_game,
    to_data,
    view,
)
from pegs_rules.bots import Bot, make_bot
from pegs_rules.bots.search import shortlist
from pegs_rules.serialize import moves_to_data

ROOT = Path(__file__).resolve().parent.parent
CHOOSER = ROOT / "js" / "scripts" / "bot-choose.mjs"


@dataclass(frozen=True)
class Decision:
    """One decision to ask both engines: where it arose, the bot, its seed, and the answers."""

    players: int
    preset: str
    game: int
    ply: int
    bot: str
    seed: int
    request: dict[str, Any]
    python: dict[str, Any]


def positions(players: int, preset: str, every: int, seed: int) -> Iterator[tuple[int, Any]]:
    """Game seeds and states of games between greedy bots, every ``every`` plies from a
    seed-dependent offset, where the seat to act has at least two moves to search (the bots
    search only then)."""
    rules = find_preset(preset)
    for game in itertools.count(seed):
        state = new_game(players, seed=game, rules=rules)
        bots = [make_bot("greedy", seed=game * 10 + s) for s in range(players)]
        offset = game % every
        while state.winner is None:
            moves = legal_moves(state)
            if (
                state.ply % every == offset
                and len(shortlist(view(state, state.turn), moves, 8)[1]) > 1
            ):
                yield game, state
            move = bots[state.turn].choose(view(state, state.turn), moves)
            state = apply(state, move)


def decisions(
    count: int, budget: int, bots: list[str], every: int, seed: int
) -> Iterator[tuple[str, int, str, int, Any]]:
    """``count`` decisions spread evenly over the six tables (4, 6, 8 players; both presets)
    and the ``bots``: (preset, players, bot name with budget, decision seed, state)."""
    tables = [(preset, players) for preset in ("arizona", "standard") for players in (4, 6, 8)]
    per = -(-count // (len(tables) * len(bots)))
    n = 0
    for preset, players in tables:
        source = positions(players, preset, every, seed)
        for _ in range(per):
            game, state = next(source)
            for bot in bots:
                if n == count:
                    return
                yield preset, players, f"{bot}:{budget}", seed * 1_000_003 + n, (game, state)
                n += 1


def ask_node(requests: list[dict[str, Any]], node: str = "node") -> list[dict[str, Any]]:
    """The TypeScript bots' answers to ``requests`` (see ``js/scripts/bot-choose.mjs``)."""
    text = "".join(json.dumps(request) + "\n" for request in requests)
    done = subprocess.run(
        [node, str(CHOOSER)], input=text, capture_output=True, text=True, check=True
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def run(count: int, budget: int, bots: list[str], every: int = 7, seed: int = 1) -> list[str]:
    """Ask ``count`` decisions of both engines; the differences, described."""
    asked: list[Decision] = []
    made: dict[str, Bot] = {}
    for preset, players, bot, decision_seed, (game, state) in decisions(
        count, budget, bots, every, seed
    ):
        seen = view(state, state.turn)
        moves = legal_moves(state)
        # every fourth decision is asked of the bot that made the last three, whose generator
        # has drawn for them: any difference in what the engines draw shows up there
        name = f"{preset}-{players}-{bot}"
        if decision_seed % 4 == 0 or name not in made:
            made[name] = make_bot(bot, seed=decision_seed)
            fresh = True
        else:
            fresh = False
        chosen = made[name].choose(seen, moves)
        request = {
            "bot": bot,
            "id": name,
            "fresh": fresh,
            "seed": decision_seed,
            "view": to_data(seen),
            "moves": moves_to_data(moves),
        }
        asked.append(
            Decision(players, preset, game, state.ply, bot, decision_seed, request, to_data(chosen))
        )
    node = shutil.which("node") or "node"
    answers = ask_node([d.request for d in asked], node)
    differences = []
    for decision, answer in zip(asked, answers, strict=True):
        if answer != decision.python:
            differences.append(
                f"{decision.bot} seed {decision.seed}, {decision.players} players "
                f"{decision.preset}, game {decision.game} ply {decision.ply}: "
                f"Python {_shown(decision.python)}, TypeScript {_shown(answer)}"
            )
    return differences


def _shown(answer: dict[str, Any]) -> str:
    """A move's notation, or what the engine answered instead."""
    try:
        return str(from_data(answer, "move"))
    except PegsError:
        return repr(answer)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=120)
    parser.add_argument("--budget", type=int, default=30, help="playouts a decision")
    parser.add_argument("--bots", nargs="+", default=["hard", "expert"])
    parser.add_argument("--every", type=int, default=7, help="plies between decisions asked")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    differences = run(args.decisions, args.budget, args.bots, args.every, args.seed)
    for line in differences:
        print(line)
    print(
        f"{args.decisions} decisions ({', '.join(args.bots)}; {args.budget} playouts each; "
        f"4, 6 and 8 players; arizona and standard): {len(differences)} differ"
    )
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
