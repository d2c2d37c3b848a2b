"""Which items of ``move.verdict`` one move can break together, and the cases that cover each pair.

Two items *clash* when one move breaks both: then the verdict names the
earlier. ``specs/verdict.json`` lists the checks in order, grouped in items,
and says which pairs of items never meet and why (a pass moves no peg...).
Every other pair can meet, and must be covered: some case of the suite
breaks both items (in the same step, or one of them in the move as a whole)
and expects the earlier one's ruling, which is the case's verdict. Which
items a case breaks is found by running every check on its move
(:func:`pegs_rules.verdict.faults`), not read from the case.

>>> matrix = clash_matrix()
>>> matrix.uncovered()
[]
>>> [p.cases for p in matrix.pairs if (p.first, p.second) == ("8.2", "8.3")]
[('move.verdict/swap-of-two-opponents-that-does-not-trade',)]
>>> [p.never for p in matrix.pairs if (p.first, p.second) == ("2", "3")]
['a pass names no card and moves no peg']
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from pegs_rules.errors import PegsError
from pegs_rules.moves import parse_notation
from pegs_rules.spec.suite import SPECS, case_state, load_cases
from pegs_rules.verdict import Fault, faults, verdict_order


@dataclass(frozen=True, slots=True)
class Pair:
    """Two items of ``move.verdict``, ``first`` before ``second`` in the order.

    ``never`` says why one move cannot break both (``None``: it can);
    ``cases`` are the ids of the cases that break both and expect ``first``.
    """

    first: str
    second: str
    never: str | None
    cases: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ClashMatrix:
    """Every pair of items of ``move.verdict`` with the cases that cover it."""

    items: tuple[str, ...]
    pairs: tuple[Pair, ...]

    def uncovered(self) -> list[tuple[str, str]]:
        """The pairs that can meet but no case covers."""
        return [(p.first, p.second) for p in self.pairs if p.never is None and not p.cases]

    def covered_though_never(self) -> list[tuple[str, str]]:
        """Pairs said never to meet that a case breaks together (the data would be wrong)."""
        return [(p.first, p.second) for p in self.pairs if p.never is not None and p.cases]


@cache
def never_together() -> dict[frozenset[str], str]:
    """The pairs of items ``specs/verdict.json`` says one move never breaks, with why."""
    data = json.loads((SPECS / "verdict.json").read_text(encoding="utf-8"))
    never: dict[frozenset[str], str] = {}
    for row in data["never_together"]:
        for other in row["with"]:
            never[frozenset((row["item"], other))] = row["why"]
    return never


def verdict_items() -> tuple[str, ...]:
    """The items of ``move.verdict`` that hold checks, in order."""
    return tuple(dict.fromkeys(check.item for check in verdict_order()))


def pairs_broken(case: dict[str, Any]) -> set[tuple[str, str]]:
    """The pairs of items a case's move breaks together with its verdict's item.

    Each pair is the verdict's item and another item the move breaks: in the
    move as a whole, or in the same step as the verdict (a fault of a later
    step meets an earlier step's only through the order of the steps, item 7).
    A case whose move is legal, or has no move, breaks none.
    """
    if "move" not in case or "illegal" not in case["expect"]:
        return set()
    found = faults(case_state(case), parse_notation(case["move"]))
    if not found:
        return set()
    verdict = found[0]
    return {(verdict.check.item, f.check.item) for f in found if _together(verdict, f)}


def _together(verdict: Fault, other: Fault) -> bool:
    if other.check.item == verdict.check.item:
        return False
    return verdict.step is None or other.step == verdict.step


def clash_matrix(cases: Sequence[dict[str, Any]] | None = None) -> ClashMatrix:
    """Every pair of items with why it never meets, or the cases that cover it."""
    items = verdict_items()
    covering: dict[tuple[str, str], list[str]] = {}
    for case in load_cases() if cases is None else cases:
        for pair in pairs_broken(case):
            covering.setdefault(pair, []).append(case["id"])
    never = never_together()
    unknown = {item for pair in never for item in pair} - set(items)
    if unknown:
        raise PegsError(f"specs/verdict.json: never_together names no item {sorted(unknown)}")
    pairs = []
    for i, first in enumerate(items):
        for second in items[i + 1 :]:
            cases_of = covering.get((first, second), [])
            pairs.append(
                Pair(first, second, never.get(frozenset((first, second))), tuple(cases_of))
            )
    late = [pair for pair in covering if items.index(pair[0]) > items.index(pair[1])]
    if late:  # pragma: no cover - a verdict is the earliest fault by construction
        raise PegsError(f"a verdict named a later item before an earlier one: {late}")
    return ClashMatrix(items, tuple(pairs))


def format_matrix(matrix: ClashMatrix) -> str:
    """The matrix as text: a grid of items, then each pair that can meet with its cases."""
    items = matrix.items
    by_pair = {(p.first, p.second): p for p in matrix.pairs}
    width = max(map(len, items))
    lines = [
        "move.verdict: which items one move can break together, and the cases covering each",
        "(+ covered, ! can meet but uncovered, . never together; rows before columns)",
        "",
        " " * (width + 1) + " ".join(f"{item:>{width}}" for item in items),
    ]
    for row in items:
        cells = []
        for column in items:
            pair = by_pair.get((row, column))
            mark = " " if pair is None else "." if pair.never else "+" if pair.cases else "!"
            cells.append(f"{mark:>{width}}")
        lines.append(f"{row:>{width}} " + " ".join(cells))
    possible = [p for p in matrix.pairs if p.never is None]
    covered = [p for p in possible if p.cases]
    lines += ["", f"{len(possible)} pairs can meet, {len(covered)} covered:"]
    for pair in possible:
        cases = ", ".join(pair.cases) if pair.cases else "NOT COVERED"
        lines.append(f"  {pair.first} + {pair.second}: {cases}")
    return "\n".join(lines)
