"""What each of the expert bot's ideas is worth: matches between the expert with an idea taken out
and a baseline, written to ``docs/strength/results/idea-NAME.json`` for docs/strength.rst.

Usage: python docs/strength/ideas.py [NAME ...] [--out DIR] [--games N] [--workers W]

The matches (each with every deal played twice, the second time with the bots
one seat on, as ``pegs simulate`` does; 4 players; time budgets in CPU
seconds a move):

* ``joker``: the expert's evaluation alone (``ExpertBot(width=1)``: the move
  its evaluation likes best, no search) against the greedy bot, whose
  evaluation differs only in not counting the joker's threat;
* ``search``: the expert without the joker in its evaluation (paired deals
  and halving only) against mcts, 0.05 s a move each;
* ``unpaired``: the expert with a fresh deal for every candidate (the joker
  and halving kept) against mcts, 0.05 s a move each.

Together with the full expert against mcts (``run.sh``), they say what each idea adds.

Each match is written to ``idea-NAME.json``: its sides and one record a game
(``index``; ``seed``, the deal; ``swapped``, whether side 0 held the odd seats;
``winner_side``; ``plies``; each side's CPU seconds thinking and moves), and a
``provenance`` as ``pegs simulate`` writes one: the code that played the games,
how the bots were seeded (``arithmetic``: ``(deal * 2 + swapped) * 16 + seat``,
as the committed match was played; the bots are the library's own), and whether
the games replay (``joker``, whose bots do not search, does; the others think
for a time).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from pegs_rules import apply, new_game
from pegs_rules.bots import Bot, ExpertBot, GreedyBot, MctsBot, decide, thinking_time
from pegs_rules.simulate import played_by, wilson

HERE = Path(__file__).resolve().parent
Factory = Callable[[int], Bot]

MATCHES: dict[str, tuple[str, str, int]] = {
    "joker": ("expert, width 1", "greedy", 200),
    "search": ("expert without the joker, 0.05 s", "mcts, 0.05 s", 30),
    "unpaired": ("expert without paired deals, 0.05 s", "mcts, 0.05 s", 30),
}
"""Each match's sides and games."""


def bots(name: str) -> tuple[Factory, Factory]:
    """The two sides of match ``name``: bot factories from a seed."""
    return {
        "joker": (_expert_alone, GreedyBot),
        "search": (_expert_without_joker, _mcts),
        "unpaired": (_expert_unpaired, _mcts),
    }[name]


def _expert_alone(seed: int) -> Bot:
    return ExpertBot(seed, width=1)


def _expert_without_joker(seed: int) -> Bot:
    return ExpertBot(seed, time_limit=0.05, joker=False)


def _expert_unpaired(seed: int) -> Bot:
    return ExpertBot(seed, time_limit=0.05, paired=False)


def _mcts(seed: int) -> Bot:
    return MctsBot(seed, time_limit=0.05)


def play(name: str, index: int) -> dict[str, object]:
    """Game ``index`` of match ``name``: its record (see the module docstring)."""
    deal = 1_000_000 + index // 2
    swapped = index % 2
    factories = bots(name)
    state = new_game(4, seed=deal)
    sides = [(seat + swapped) % 2 for seat in range(4)]
    players = [factories[side]((deal * 2 + swapped) * 16 + seat) for seat, side in enumerate(sides)]
    thinking, moves = [0.0, 0.0], [0, 0]
    while state.winner is None:
        seat = state.turn
        began = thinking_time()
        move = decide(players[seat], state)
        thinking[sides[seat]] += thinking_time() - began
        moves[sides[seat]] += 1
        state = apply(state, move)
    return {
        "index": index,
        "seed": deal,
        "swapped": bool(swapped),
        "winner_side": state.winner ^ swapped,
        "plies": state.ply,
        "think_seconds": [round(seconds, 6) for seconds in thinking],
        "moves": moves,
    }


def run(name: str, games: int, workers: int, out: Path) -> None:
    """Play match ``name`` into ``out/idea-NAME.json``, each game kept in ``idea-NAME.jsonl``
    as it finishes (so a stopped run carries on when started again)."""
    out.mkdir(parents=True, exist_ok=True)
    records = out / f"idea-{name}.jsonl"
    done = {}
    if records.exists():
        for line in records.read_text(encoding="utf-8").splitlines():
            try:
                game = json.loads(line)
            except json.JSONDecodeError:  # cut short when the run stopped
                continue
            done[game["index"]] = game
    with ProcessPoolExecutor(workers) as pool, records.open("a", encoding="utf-8") as log:
        todo = [index for index in range(games) if index not in done]
        for future in as_completed([pool.submit(play, name, index) for index in todo]):
            game = future.result()
            done[game["index"]] = game
            log.write(json.dumps(game, separators=(",", ":")) + "\n")
            log.flush()
    first, second, _ = MATCHES[name]
    rows = ",\n".join(json.dumps(done[index], separators=(",", ":")) for index in range(games))
    timed = name != "joker"
    provenance = {
        "written_by": played_by(),
        "played_by": [played_by()],
        "seeding": "arithmetic",
        "replayable": not timed,
        "not_replayable_because": "both sides think for 0.05 s a move" if timed else None,
    }
    head = json.dumps(
        {"match": name, "players": 4, "sides": [first, second], "provenance": provenance},
        indent=1,
    )
    (out / f"idea-{name}.json").write_text(
        f'{head[:-2]},\n "games": [\n{rows}\n ]\n}}\n', encoding="utf-8"
    )
    records.unlink()
    wins = sum(done[index]["winner_side"] == 0 for index in range(games))
    low, high = wilson(wins, games)
    print(f"{name}: {first} won {wins} of {games} against {second} [{low:.1%}, {high:.1%}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(MATCHES), help="matches to play")
    parser.add_argument("--out", type=Path, default=HERE / "results")
    parser.add_argument("--games", type=int, help="games in every match instead")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    for name in args.names:
        run(name, args.games or MATCHES[name][2], args.workers, args.out)


if __name__ == "__main__":
    main()
