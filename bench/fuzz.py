"""Benchmark: the fuzzer's own side, the engine's time left out.

Usage: python bench/fuzz.py [--positions N] [--seed S] [--repeats R]

Runs ``python -m pegs_rules.spec fuzz``'s loop (:class:`pegs_rules.spec.fuzz.Fuzzer`)
against this library in process, timing the engine's answers apart: what is left is the
CPU the harness itself spends a position (playing the games, judging every legal and
altered move with the reference, encoding the requests, comparing the answers), the
ceiling of a run against an engine that answers at once. Decoding an engine's JSON answers,
which a real run also does, is not included.
"""

from __future__ import annotations

import argparse
import io
import time
from typing import Any

from pegs_rules.spec.engine import ReferenceEngine
from pegs_rules.spec.fuzz import Fuzzer, Options


class TimedEngine(ReferenceEngine):
    """The reference engine, adding up the CPU its answers take."""

    def __init__(self) -> None:
        super().__init__()
        self.cpu = 0.0

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        start = time.process_time()
        answer = super().ask(request)
        self.cpu += time.process_time() - start
        return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    for _ in range(args.repeats):
        engine = TimedEngine()
        fuzzer = Fuzzer(engine, Options(positions=args.positions, seed=args.seed), io.StringIO())
        start = time.process_time()
        status = fuzzer.run()
        harness = time.process_time() - start - engine.cpu
        tally = fuzzer.tally
        print(
            f"{tally.positions} positions, {tally.requests} requests (status {status}): the "
            f"harness {harness / tally.positions * 1000:.2f} ms CPU a position, "
            f"{tally.requests / harness:,.0f} requests a CPU second; the engine "
            f"{engine.cpu / tally.requests * 1000:.2f} ms a request"
        )


if __name__ == "__main__":
    main()
