"""Perft for any engine, and where its move generator parts from the reference's.

:func:`engine_perft` asks an engine for a perft count (and its divide);
:func:`find_divergence` compares it with this library's and, while the counts
differ, follows the first move whose count differs, one depth at a time,
down to the single position where the two lists of moves differ, and
returns that position and the moves that differ. Each move it follows it
also asks the engine to ``apply``, and stops where the engine's position
after the move is not the reference's: from there on the two count from
different positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pegs_rules.errors import PegsError
from pegs_rules.moves import parse_notation
from pegs_rules.position import parse_position
from pegs_rules.serialize import from_data
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
        position: the position where the lists of moves differ (the last level's), or where
            the engine's position after the last move followed differs from it: the
            reference's.
        missing: moves the reference lists there and the engine does not.
        extra: moves the engine lists there and the reference does not.
        note: what else went wrong, when the moves are the same but the counts are not
            (the engine's divide does not add up to its count, say).
        engine_position: the engine's own position there (its ``apply`` answer to the last
            move followed), when it differs from the reference's; ``None`` when they agree
            or the engine does not serve ``apply``.
        compared: whether the engine's ``apply`` answers were compared along the way.
    """

    levels: tuple[Level, ...]
    position: GameState
    missing: tuple[str, ...]
    extra: tuple[str, ...]
    note: str = ""
    engine_position: str | None = None
    compared: bool = True

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
        after = f" after {', '.join(path)}" if path else ""
        if self.engine_position is not None:
            out += ["", f"the engine's position{after}:"]
            out += [f"  {line}" for line in self.engine_position.splitlines()]
            out += ["", f"the reference's position{after}:"]
        elif path and not self.compared:
            out += ["", f"the reference's position{after} (the engine's was not asked for):"]
        else:
            whose = " (the engine's and the reference's)" if path else ""
            out += ["", f"the position{after}{whose}:"]
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
    the position where the move lists differ, or where the engine's ``apply`` of the move
    followed leads elsewhere than the reference's; ``None`` if the counts at ``depth``
    agree."""
    levels: list[Level] = []
    path: tuple[str, ...] = ()
    compared = True
    while True:
        want = divide(state, depth)
        reference = sum(want.values())
        nodes, got = engine_perft(engine, state, depth, split=True)
        levels.append(Level(path, depth, reference, nodes))
        found = tuple(levels), state
        if nodes == reference and got == want:
            if levels[:-1]:
                note = (
                    f"the counts agree here, although the engine's divide one level up "
                    f"counts {levels[-2].engine} for {path[-1]}: its divide and its perft "
                    "of the position after that move disagree"
                )
                return Divergence(*found, (), (), note, compared=compared)
            return None
        missing = tuple(m for m in want if m not in got)
        extra = tuple(m for m in got if m not in want)
        if missing or extra:
            return Divergence(*found, missing, extra, compared=compared)
        differ = next((m for m in want if want[m] != got[m]), None)
        if differ is None:
            note = (
                f"the same moves and counts per move, but the engine's count is {nodes}, "
                f"not their sum {sum(got.values())}"
            )
            return Divergence(*found, (), (), note, compared=compared)
        if depth == 1:
            note = f"the engine counts {got[differ]} one-move sequences for {differ}, not 1"
            return Divergence(*found, (), (), note, compared=compared)
        after = apply(state, parse_notation(differ))
        path = (*path, differ)
        depth -= 1
        theirs = engine_apply(engine, state, differ)
        compared = compared and theirs is not None
        if theirs is not None and str(theirs) != str(after):
            levels.append(Level(path, depth, want[differ], got[differ]))
            note = (
                f"the engine's position after {differ} is not the reference's, so the two "
                "count from different positions"
            )
            return Divergence(tuple(levels), after, (), (), note, theirs.text)
        state = after


@dataclass(frozen=True, slots=True)
class Answered:
    """A position an engine answered: its text as the engine wrote it (or as the reference
    writes the state JSON it sent), and the position it describes."""

    text: str
    state: GameState

    def __str__(self) -> str:
        return str(self.state)


def engine_apply(engine: Engine, state: GameState, move: str) -> Answered | None:
    """The engine's position after ``move`` (a legal move), or ``None`` if it does not serve
    ``apply`` (it answers ``unsupported``); :class:`PerftAnswerError` if it answers anything
    else than a position."""
    answer = engine.ask({"type": "apply", **position_fields(state, made=True), "move": move})
    if "unsupported" in answer:
        return None
    if "illegal" in answer:
        raise PerftAnswerError(
            f"the engine rejects {move}, which its divide lists, with {answer['illegal']}"
        )
    try:
        if isinstance(answer.get("position"), str):
            return Answered(answer["position"], parse_position(answer["position"]))
        if "state" in answer:
            after = from_data(answer["state"], "state")
            return Answered(str(after), after)
    except PegsError as error:
        raise PerftAnswerError(
            f"the engine's position after {move} cannot be read: {error}"
        ) from None
    raise PerftAnswerError(f"the engine's apply answer to {move} has no position: {answer!r:.200}")
