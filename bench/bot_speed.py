"""Playouts a second of the searching bots, this library's (pure Python) and the TypeScript
package's, in one run on the same decisions.

    python bench/bot_speed.py [--decisions 60] [--budget 300] [--bots hard expert]

The decisions are those of ``tools/bot_differential.py`` (4, 6 and 8 players, both presets),
each asked of a fresh bot with the same seed in both engines, so both do the same playouts
(they choose alike, which the run checks). Python's time is the CPU time of each ``choose``;
the TypeScript bots' is the CPU time of each ``choose`` in one Node process
(``js/scripts/bot-choose.mjs``, after ``npm run build --prefix js``), warmed up first by the
same decisions asked twice before (its compiler has then done most of its work). Playouts a second: decisions times budget over the time (the
expert may play a few more than its budget, the same in both engines).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from bot_differential import ask_node, decisions

from pegs_rules import legal_moves, to_data, view
from pegs_rules.bots import make_bot
from pegs_rules.serialize import moves_to_data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=60)
    parser.add_argument("--budget", type=int, default=300)
    parser.add_argument("--bots", nargs="+", default=["hard", "expert"])
    args = parser.parse_args(argv)
    for bot in args.bots:
        python_seconds = 0.0
        requests = []
        chosen = []
        for _, _, spec, seed, (_, state) in decisions(args.decisions, args.budget, [bot], 7, 2):
            seen = view(state, state.turn)
            moves = legal_moves(state)
            player = make_bot(spec, seed=seed)
            began = time.process_time()
            chosen.append(to_data(player.choose(seen, moves)))
            python_seconds += time.process_time() - began
            request = {"seed": seed, "view": to_data(seen), "moves": moves_to_data(moves)}
            requests.append(request)
        warm = [{**r, "bench": f"{bot}:{args.budget}"} for r in requests] * 2
        timed = [{**r, "bench": f"{bot}:{args.budget}"} for r in requests]
        checks = [{**r, "bot": f"{bot}:{args.budget}"} for r in requests]
        answers = ask_node(warm + timed + checks)
        ts_seconds = sum(
            answer["seconds"] for answer in answers[len(warm) : len(warm) + len(timed)]
        )
        agree = sum(a == b for a, b in zip(answers[len(warm) + len(timed) :], chosen, strict=True))
        playouts = args.decisions * args.budget
        print(
            f"{bot}: {args.decisions} decisions of {args.budget} playouts ({agree} chosen alike): "
            f"Python {playouts / python_seconds:,.0f} playouts/s, "
            f"TypeScript {playouts / ts_seconds:,.0f} playouts/s, "
            f"{python_seconds / ts_seconds:.1f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
