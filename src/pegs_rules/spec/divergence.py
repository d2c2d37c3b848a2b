"""Perft for any engine, and where its move generator parts from the reference's.

:func:`engine_perft` asks an engine for a perft count (and its divide);
:func:`find_divergence` compares it with this library's and, while the counts
differ, follows the first move whose count differs, one depth at a time,
down to the single position where the two lists of moves differ, and
returns that position and the moves that differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pegs_rules.errors import PegsError
from pegs_rules.moves import parse_notation
from pegs_rules.spec.engine import Engine
from pegs_rules.spec.harness import position_fields
from pegs_rules.spec.perft import divide
from pegs_rules.state import GameState
from pegs_rules.turn import apply


class PerftAnswerError(PegsError):
    """An engine's perft answer that cannot be compared (an error, no count, no divide)."""


def engine_perft(
    engine: Engine, state: GameState, depth: int, *, split: bool = False
) -> tuple[int, dict[str, int]]:
    """The engine's count of move sequences of ``depth`` from ``state`` and, if ``split``,
    its count per first move (``divide``)."""
    request: dict[str, Any] = {"type": "perft", **position_fields(state, made=True)}
    request |= {"depth": depth, **({"divide": True} if split else {})}
    answer = engine.ask(request)
    for key in ("unsupported", "error"):
        if key in answer:
            raise PerftAnswerError(f"the engine answered perft with {key}: {answer[key]}")
    nodes = answer.get("nodes")
    counts = answer.get("divide", {}) if split else {}
    if not isinstance(nodes, int) or isinstance(nodes, bool):
        raise PerftAnswerError(f"the engine's perft answer has no count: {answer!r:.200}")
    if not isinstance(counts, dict) or not all(
        isinstance(m, str) and isinstance(n, int) for m, n in counts.items()
    ):
        raise PerftAnswerError(f"the engine's divide is not moves and counts: {counts!r:.200}")
    if split and depth > 0 and "divide" not in answer:
        raise PerftAnswerError("the engine's perft answer has no divide")
    return nodes, counts


@dataclass(frozen=True, slots=True)
class Level:
    """One depth followed: the moves that lead there and both counts."""

    path: tuple[str, ...]
    depth: int
    reference: int
    engine: int


@dataclass(frozen=True, slots=True)
class Divergence:
    """Where an engine's perft parts from the reference's.

    Attributes:
        levels: each depth followed, from the position given down.
        position: the position where the lists of moves differ (the last level's).
        missing: moves the reference lists there and the engine does not.
        extra: moves the engine lists there and the reference does not.
        note: what else went wrong, when the moves are the same but the counts are not
            (the engine's divide does not add up to its count, say).
    """

    levels: tuple[Level, ...]
    position: GameState
    missing: tuple[str, ...]
    extra: tuple[str, ...]
    note: str = ""

    def lines(self) -> list[str]:
        """The divergence as a reader sees it."""
        out = []
        for level in self.levels:
            where = f"after {', '.join(level.path)}: " if level.path else ""
            out.append(
                f"{'  ' * len(level.path)}{where}depth {level.depth}: reference "
                f"{level.reference}, engine {level.engine}"
            )
        path = self.levels[-1].path
        out += ["", "the position" + (f" after {', '.join(path)}" if path else "") + ":"]
        out += [f"  {line}" for line in str(self.position).splitlines()]
        if self.note:
            out += ["", self.note]
        if self.missing:
            out += ["", "moves the reference lists and the engine does not:"]
            out += [f"  - {m}" for m in self.missing]
        if self.extra:
            out += ["", "moves the engine lists and the reference does not:"]
            out += [f"  + {m}" for m in self.extra]
        return out


def find_divergence(engine: Engine, state: GameState, depth: int) -> Divergence | None:
    """Follow the first move whose count differs, depth by depth (``depth`` at least 1), to
    the position where the move lists differ; ``None`` if the counts at ``depth`` agree."""
    levels: list[Level] = []
    path: tuple[str, ...] = ()
    while True:
        want = divide(state, depth)
        reference = sum(want.values())
        nodes, got = engine_perft(engine, state, depth, split=True)
        levels.append(Level(path, depth, reference, nodes))
        if nodes == reference and got == want:
            if levels[:-1]:
                note = "the counts agree here, although they differ one level up"
                return Divergence(tuple(levels), state, (), (), note)
            return None
        missing = tuple(m for m in want if m not in got)
        extra = tuple(m for m in got if m not in want)
        if missing or extra:
            return Divergence(tuple(levels), state, missing, extra)
        differ = next((m for m in want if want[m] != got[m]), None)
        if differ is None:
            note = (
                f"the same moves and counts per move, but the engine's count is {nodes}, "
                f"not their sum {sum(got.values())}"
            )
            return Divergence(tuple(levels), state, (), (), note)
        if depth == 1:
            note = f"the engine counts {got[differ]} one-move sequences for {differ}, not 1"
            return Divergence(tuple(levels), state, (), (), note)
        state = apply(state, parse_notation(differ))
        path = (*path, differ)
        depth -= 1
