"""The harness's outcomes as a reader sees them: a text report, a Markdown report, JUnit XML.

Every form counts the same way (:func:`counts`): an item passed, failed or
was skipped (the engine does not support it), and a rejection that names
another ruling than the suite's is counted on its own as well, as a failure
under ``--ids strict`` (the default) and as a pass under ``--ids lenient``.
A failure shows the position of the request that went wrong, what was
expected and what came back in full, the engine's reason, and the command
that runs that item again.
"""

from __future__ import annotations

import json
import textwrap
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pegs_rules.spec.harness import GAMES, PERFT, Outcome

Rerun = Callable[[tuple[str, ...]], str]
"""Turns an outcome's ``rerun`` arguments into a command line."""


@dataclass(frozen=True, slots=True)
class Counts:
    """How many items passed, failed and were skipped, and how many rejections named another
    ruling (counted among the failed under strict ids, among the passed under lenient)."""

    passed: int
    failed: int
    skipped: int
    other_ruling: int

    def __str__(self) -> str:
        return f"{self.passed} passed, {self.failed} failed, {self.skipped} skipped"


def counts(outcomes: list[Outcome], ids: str = "strict") -> Counts:
    """The counts of ``outcomes``, ruling ids compared as ``ids`` says."""
    failed = sum(o.failed(ids) for o in outcomes)
    skipped = sum(o.skipped is not None for o in outcomes)
    other = sum(o.other_ruling for o in outcomes)
    return Counts(len(outcomes) - failed - skipped, failed, skipped, other)


def _groups(outcomes: list[Outcome]) -> dict[str, list[Outcome]]:
    """The outcomes by group: rulings in order, then game vectors, then perft."""
    groups: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        groups.setdefault(outcome.group, []).append(outcome)
    order = sorted(g for g in groups if g not in (GAMES, PERFT))
    order += [g for g in (GAMES, PERFT) if g in groups]
    return {g: groups[g] for g in order}


def _ruling_note(total: Counts, ids: str) -> str:
    """What the count of rejections with another ruling means under ``ids``."""
    if not total.other_ruling:
        return ""
    counted = "failed" if ids == "strict" else "passed"
    return (
        f"{total.other_ruling} rejection{'s' if total.other_ruling != 1 else ''} named another "
        f"ruling than the suite (right verdict, other id), counted as {counted} (--ids {ids})"
    )


# --- text ---------------------------------------------------------------------------------------


def report(outcomes: list[Outcome], ids: str = "strict", rerun: Rerun | None = None) -> str:
    """The per-ruling table, the game vectors' turns, the reasons for skipping, then each
    failure in full."""
    groups = _groups(outcomes)
    width = max([len(g) for g in groups] + [len("ruling")])
    head = f"{'ruling':<{width}}  passed  failed  skipped  other id"
    lines = [head]
    for group, members in groups.items():
        c = counts(members, ids)
        failed = " ".join(o.id for o in members if o.failed(ids))
        row = f"{group:<{width}}  {c.passed:>6}  {c.failed:>6}  {c.skipped:>7}  {c.other_ruling:>8}"
        lines.append(f"{row}  {failed}".rstrip())
    total = counts(outcomes, ids)
    lines.append(
        f"{'all':<{width}}  {total.passed:>6}  {total.failed:>6}  {total.skipped:>7}  "
        f"{total.other_ruling:>8}"
    )
    if total.other_ruling:
        lines += ["", _ruling_note(total, ids)]
    vectors = [o for o in outcomes if o.group == GAMES and o.detail]
    if vectors:
        lines += ["", "game vectors:"]
        lines += [f"  {o.id}: {o.detail}" for o in vectors]
    reasons = Counter(o.skipped for o in outcomes if o.skipped is not None)
    if reasons:
        lines += ["", "skipped:"]
        lines += [
            f"  {n:>4} item{'s' if n != 1 else ' '}  {why}" for why, n in reasons.most_common()
        ]
    for outcome in outcomes:
        if outcome.problem is not None and outcome.skipped is None:
            lines += ["", *_failure_text(outcome, ids, rerun)]
    return "\n".join(lines)


def _failure_text(outcome: Outcome, ids: str, rerun: Rerun | None) -> list[str]:
    word = "FAIL" if outcome.failed(ids) else "OTHER ID"
    lines = [f"{word} {outcome.id} [{outcome.group}]: {outcome.problem}"]
    if outcome.position:
        lines += ["  position:", *(f"    {x}" for x in outcome.position.splitlines())]
    if outcome.move:
        lines.append(f"  move: {outcome.move}")
    for label, values in (("expected", outcome.expected), ("received", outcome.received)):
        lines += _labelled(label, values)
    if outcome.reason:
        lines += _labelled("the engine's reason", (outcome.reason,))
    if outcome.detail:
        lines.append(f"  {outcome.detail}")
    lines += [f"  {line}" for line in outcome.diff]
    if rerun is not None and outcome.rerun:
        lines.append(f"  rerun: {rerun(outcome.rerun)}")
    return lines


def _labelled(label: str, values: tuple[str, ...]) -> list[str]:
    """``label: value`` for one value (wrapped), else the label and the values indented."""
    if not values:
        return []
    if len(values) == 1:
        return textwrap.wrap(
            values[0], 100, initial_indent=f"  {label}: ", subsequent_indent="    "
        )
    return [f"  {label}:", *(f"    {x}" for x in values)]


# --- Markdown -----------------------------------------------------------------------------------


def markdown(
    outcomes: list[Outcome],
    *,
    engine: str,
    hello: dict[str, Any],
    suite: str,
    ids: str = "strict",
    rerun: Rerun | None = None,
) -> str:
    """A conformance report in Markdown, to paste into an engine's README: the result, the
    engine's ``hello``, a table per ruling, the game vectors, the reasons for skipping and
    every failure with its position."""
    total = counts(outcomes, ids)
    lines = [
        f"# Conformance report: {_inline(engine)}",
        "",
        f"Checked against {suite} with `python -m pegs_rules.spec check` (ruling ids: {ids}).",
        "",
        f"**{total}**" + (f"; {_ruling_note(total, ids)}." if total.other_ruling else "."),
        "",
        "## The engine's hello",
        "",
        "```json",
        json.dumps(hello, indent=1, sort_keys=True),
        "```",
        "",
        "## By ruling",
        "",
        "| ruling | passed | failed | skipped | other id | failed items |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for group, members in _groups(outcomes).items():
        c = counts(members, ids)
        failed = ", ".join(f"`{o.id}`" for o in members if o.failed(ids))
        lines.append(
            f"| `{group}` | {c.passed} | {c.failed} | {c.skipped} | {c.other_ruling} | {failed} |"
        )
    lines.append(
        f"| **all** | {total.passed} | {total.failed} | {total.skipped} | {total.other_ruling} | |"
    )
    vectors = [o for o in outcomes if o.group == GAMES and o.detail]
    if vectors:
        lines += ["", "## Game vectors", "", "| vector | turns |", "| --- | --- |"]
        lines += [f"| `{o.id}` | {o.detail} |" for o in vectors]
    reasons = Counter(o.skipped for o in outcomes if o.skipped is not None)
    if reasons:
        lines += ["", "## Skipped", "", "| items | why |", "| ---: | --- |"]
        lines += [f"| {n} | {_inline(str(why))} |" for why, n in reasons.most_common()]
    problems = [o for o in outcomes if o.problem is not None and o.skipped is None]
    if problems:
        lines += ["", "## Failures"]
    for outcome in problems:
        word = "" if outcome.failed(ids) else " (other id, counted as passed)"
        lines += ["", f"### `{outcome.id}`{word}", "", f"{_inline(outcome.problem or '')}", ""]
        if outcome.position:
            lines += ["Position:", "", "```text", outcome.position, "```", ""]
        if outcome.move:
            lines.append(f"- move: `{outcome.move}`")
        for label, values in (("expected", outcome.expected), ("received", outcome.received)):
            if len(values) == 1:
                lines.append(f"- {label}: `{values[0]}`")
            elif values:
                lines += [f"- {label}:", "", "  ```text", *(f"  {v}" for v in values), "  ```", ""]
        if outcome.reason:
            lines.append(f"- the engine's reason: {_inline(outcome.reason)}")
        if outcome.detail:
            lines.append(f"- {outcome.detail}")
        if outcome.diff:
            lines += ["", "```diff", *outcome.diff, "```"]
        if rerun is not None and outcome.rerun:
            lines += ["", f"Run it again: `{rerun(outcome.rerun)}`"]
    return "\n".join(lines) + "\n"


def _inline(text: str) -> str:
    """Text for a Markdown line: markup characters escaped."""
    return "".join("\\" + c if c in "\\`*_[]<>|#" else c for c in text.replace("\n", " "))


# --- JUnit XML ----------------------------------------------------------------------------------


def junit_xml(
    outcomes: list[Outcome], ids: str = "strict", name: str = "pegs-rules conformance"
) -> str:
    """The outcomes as JUnit XML: one test suite per ruling, one test case per item."""
    root = ET.Element("testsuites", name=name)
    for group, members in _groups(outcomes).items():
        c = counts(members, ids)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=group,
            tests=str(len(members)),
            failures=str(c.failed),
            errors="0",
            skipped=str(c.skipped),
            time=f"{sum(o.seconds for o in members):.3f}",
        )
        for outcome in members:
            test = ET.SubElement(
                suite, "testcase", classname=group, name=outcome.id, time=f"{outcome.seconds:.3f}"
            )
            if outcome.skipped is not None:
                ET.SubElement(test, "skipped", message=outcome.skipped)
            elif outcome.failed(ids):
                failure = ET.SubElement(test, "failure", message=outcome.problem or "")
                failure.text = "\n".join(_failure_text(outcome, ids, None)[1:]) or outcome.problem
    total = counts(outcomes, ids)
    root.set("tests", str(len(outcomes)))
    root.set("failures", str(total.failed))
    root.set("skipped", str(total.skipped))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
