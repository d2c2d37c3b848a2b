"""The harness's outcomes as a reader sees them: a text report, a Markdown report, JUnit XML.

Every form counts the same way (:func:`counts`), each item once: it passed,
failed, was skipped (never sent: the engine's ``hello`` does not cover it,
or it cannot be set up under the rules the engine plays), was declined (the engine answered ``unsupported`` to an item
its ``hello`` covers) or was not run (the engine became unusable). A decline
fails the run unless declines are allowed, and every declined item is
listed by name. A rejection that names another ruling than the suite's is
counted apart as well, among the failed under ``--ids strict`` (the
default) and among the passed under ``--ids lenient``; an item whose
expectation was derived under the engine's fixed rules is marked so. A
failure shows the position of the request that went wrong, what was
expected and what came back in full, the engine's reason, the case's
``why``, and the command that runs that item again; an unusable engine is
reported once.
"""

from __future__ import annotations

import json
import textwrap
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pegs_rules.spec.harness import GAMES, PERFT, STRICT, Outcome, Scoring

Rerun = Callable[[tuple[str, ...]], str]
"""Turns an outcome's ``rerun`` arguments into a command line."""


@dataclass(frozen=True, slots=True)
class Counts:
    """How many items passed, failed, were skipped, declined or not run (each item in one of
    these), how many rejections named another ruling (among the failed under strict ids,
    the passed under lenient) and how many expectations were derived."""

    passed: int
    failed: int
    skipped: int
    declined: int
    not_run: int = 0
    other_ruling: int = 0
    derived: int = 0

    def __str__(self) -> str:
        text = f"{self.passed} passed, {self.failed} failed, {self.skipped} skipped, "
        text += f"{self.declined} declined"
        return text + (f", {self.not_run} not run" if self.not_run else "")


def counts(outcomes: list[Outcome], scoring: Scoring = STRICT) -> Counts:
    """The counts of ``outcomes``, scored as ``scoring`` says."""
    judged = [o for o in outcomes if o.judged]
    failed = sum(o.fails(scoring) for o in judged)
    return Counts(
        passed=len(judged) - failed,
        failed=failed,
        skipped=sum(o.skipped is not None for o in outcomes),
        declined=sum(o.declined is not None for o in outcomes),
        not_run=sum(o.not_run is not None for o in outcomes),
        other_ruling=sum(o.other_ruling for o in outcomes),
        derived=sum(o.derived is not None and o.skipped is None for o in outcomes),
    )


def fails_run(outcomes: list[Outcome], scoring: Scoring = STRICT) -> bool:
    """Whether ``outcomes`` fail the run: a failure, or a decline that is not allowed."""
    return any(o.fails(scoring) for o in outcomes)


def _groups(outcomes: list[Outcome]) -> dict[str, list[Outcome]]:
    """The outcomes by group: rulings in order, then game vectors, then perft."""
    groups: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        groups.setdefault(outcome.group, []).append(outcome)
    order = sorted(g for g in groups if g not in (GAMES, PERFT))
    order += [g for g in (GAMES, PERFT) if g in groups]
    return {g: groups[g] for g in order}


def notes(outcomes: list[Outcome], scoring: Scoring) -> list[str]:
    """What the counts mean under ``scoring``: rejections with another ruling, declines,
    derived expectations and an unusable engine, a sentence each."""
    total = counts(outcomes, scoring)
    said = []
    if total.other_ruling:
        counted = "failed" if scoring.ids == "strict" else "passed"
        said.append(
            f"{_items(total.other_ruling, 'rejection')} named another ruling than the suite "
            f"(right verdict, other id), counted as {counted} (--ids {scoring.ids})"
        )
    if total.declined:
        effect = (
            "allowed (--allow-declines): they do not fail the run"
            if scoring.allow_declines
            else "each fails the run (--allow-declines lets them pass)"
        )
        said.append(
            f"{_items(total.declined, 'item')} that the engine's hello covers "
            f"{'was' if total.declined == 1 else 'were'} declined by the engine: {effect}"
        )
    if total.derived:
        said.append(
            f"{_items(total.derived, 'item')} judged under the engine's own rules: "
            "the expectations marked derived are the reference engine's answers under them"
        )
        wrong = sum(o.derived is not None and o.fails(scoring) for o in outcomes)
        if wrong:
            said.append(
                f"{_items(wrong, 'failure')} of a derived expectation: where your engine follows "
                "the rulings named and the reference engine does not, the reference is wrong"
            )
    unusable = next((o.not_run for o in outcomes if o.not_run is not None), None)
    if unusable is not None:
        said.append(f"{unusable}; {_items(total.not_run, 'item')} not run")
    return said


def _items(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"


def _failing(members: list[Outcome], scoring: Scoring) -> list[str]:
    """The ids of the members that fail the run."""
    return [o.id for o in members if o.fails(scoring)]


# --- text ---------------------------------------------------------------------------------------

_COLUMNS = ("passed", "failed", "skipped", "declined", "other id")


def report(outcomes: list[Outcome], scoring: Scoring = STRICT, rerun: Rerun | None = None) -> str:
    """The per-ruling table, what the counts mean, the game vectors' turns, the reasons for
    skipping, the declined items, then each failure in full."""
    groups = _groups(outcomes)
    width = max([len(g) for g in groups] + [len("ruling")])
    lines = [f"{'ruling':<{width}}  " + "  ".join(_COLUMNS)]
    for group, members in [*groups.items(), ("all", outcomes)]:
        c = counts(members, scoring)
        cells = (c.passed, c.failed, c.skipped, c.declined, c.other_ruling)
        row = f"{group:<{width}}  " + "  ".join(
            f"{n:>{len(name)}}" for n, name in zip(cells, _COLUMNS, strict=True)
        )
        failing = " ".join(_failing(members, scoring)) if group != "all" else ""
        lines.append(f"{row}  {failing}".rstrip())
    said = notes(outcomes, scoring)
    if said:
        lines += ["", *said]
    vectors = [o for o in outcomes if o.group == GAMES and o.detail]
    if vectors:
        lines += ["", "game vectors:"]
        lines += [f"  {o.id}: {o.detail}" for o in vectors]
    reasons = Counter(o.skipped for o in outcomes if o.skipped is not None)
    if reasons:
        lines += ["", "skipped (not sent to the engine):"]
        lines += [
            f"  {n:>4} item{'s' if n != 1 else ' '}  {why}" for why, n in reasons.most_common()
        ]
    declined = [o for o in outcomes if o.declined is not None]
    if declined:
        lines += ["", "declined by the engine:"]
        lines += [
            f"  {o.id}: {o.declined}" + (f" ({o.detail})" if o.detail else "") for o in declined
        ]
    for outcome in outcomes:
        if outcome.problem is not None and outcome.judged:
            lines += ["", *_failure_text(outcome, scoring, rerun)]
    return "\n".join(lines)


def _failure_text(outcome: Outcome, scoring: Scoring, rerun: Rerun | None) -> list[str]:
    word = "FAIL" if outcome.fails(scoring) else "OTHER ID"
    lines = [f"{word} {outcome.id} [{outcome.group}]: {outcome.problem}"]
    lines += _labelled("rulings to read", (reading(outcome),), hyphens=False)
    if outcome.derived:
        lines += _labelled("expectation", (outcome.derived,))
    if outcome.why:
        label = "why (under the suite's own rules)" if outcome.derived else "why"
        lines += _labelled(label, (outcome.why,))
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


def reading(outcome: Outcome) -> str:
    """The rulings an engine author reads to fix a failure, where to find them: the item's,
    then, for a derived expectation, those it is the reference engine's reading of (none for
    a failure that is no answer to judge: an error, no answer in time, a position that cannot
    be read)."""
    if not outcome.read:
        return "none: what came is no answer a ruling judges (specs/protocol.md)"
    text = ", ".join(outcome.read)
    beside = [r for r in outcome.rests_on if r not in outcome.read]
    if outcome.derived and beside:
        text += "; and, the expectation being the reference's answer under the engine's rules, "
        text += f"its reading of {', '.join(beside)}"
    return f"{text} (specs/rulings.md)"


def _labelled(label: str, values: tuple[str, ...], *, hyphens: bool = True) -> list[str]:
    """``label: value`` for one value (wrapped, at hyphens too unless not ``hyphens``), else
    the label and the values indented."""
    if not values:
        return []
    if len(values) == 1:
        return textwrap.wrap(
            values[0],
            100,
            initial_indent=f"  {label}: ",
            subsequent_indent="    ",
            break_on_hyphens=hyphens,
        )
    return [f"  {label}:", *(f"    {x}" for x in values)]


# --- Markdown -----------------------------------------------------------------------------------


def markdown(
    outcomes: list[Outcome],
    *,
    engine: str,
    hello: dict[str, Any],
    suite: str,
    scoring: Scoring = STRICT,
    rerun: Rerun | None = None,
) -> str:
    """A conformance report in Markdown, to paste into an engine's README: the result, the
    engine's ``hello``, a table per ruling, the game vectors, the reasons for skipping, the
    declined items and every failure with its position."""
    total = counts(outcomes, scoring)
    declines = "allowed" if scoring.allow_declines else "fail the run"
    lines = [
        f"# Conformance report: {_inline(engine)}",
        "",
        f"Checked against {suite} with `python -m pegs_rules.spec check` (ruling ids: "
        f"{scoring.ids}; declines: {declines}).",
        "",
        f"**{total}**.",
    ]
    said = notes(outcomes, scoring)
    if said:
        lines += ["", *(f"- {_inline(x)}." for x in said)]
    lines += [
        "",
        "## The engine's hello",
        "",
        "```json",
        json.dumps(hello, indent=1, sort_keys=True),
        "```",
        "",
        "## By ruling",
        "",
        "| ruling | passed | failed | skipped | declined | other id | failing items |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for group, members in _groups(outcomes).items():
        c = counts(members, scoring)
        failing = ", ".join(f"`{x}`" for x in _failing(members, scoring))
        lines.append(
            f"| `{group}` | {c.passed} | {c.failed} | {c.skipped} | {c.declined} | "
            f"{c.other_ruling} | {failing} |"
        )
    lines.append(
        f"| **all** | {total.passed} | {total.failed} | {total.skipped} | {total.declined} | "
        f"{total.other_ruling} | |"
    )
    vectors = [o for o in outcomes if o.group == GAMES and o.detail]
    if vectors:
        lines += ["", "## Game vectors", "", "| vector | turns |", "| --- | --- |"]
        lines += [f"| `{o.id}` | {o.detail} |" for o in vectors]
    reasons = Counter(o.skipped for o in outcomes if o.skipped is not None)
    if reasons:
        lines += ["", "## Skipped (not sent to the engine)", ""]
        lines += ["| items | why |", "| ---: | --- |"]
        lines += [f"| {n} | {_inline(str(why))} |" for why, n in reasons.most_common()]
    declined = [o for o in outcomes if o.declined is not None]
    if declined:
        lines += ["", "## Declined by the engine", "", "| item | the engine's reason |"]
        lines += ["| --- | --- |"]
        lines += [
            f"| `{o.id}` | {_inline(o.declined or '')}"
            + (f" ({_inline(o.detail)})" if o.detail else "")
            + " |"
            for o in declined
        ]
    problems = [o for o in outcomes if o.problem is not None and o.judged]
    if problems:
        lines += ["", "## Failures"]
    for outcome in problems:
        word = "" if outcome.fails(scoring) else " (other id, counted as passed)"
        lines += ["", f"### `{outcome.id}`{word}", "", f"{_inline(outcome.problem or '')}", ""]
        lines += [f"- rulings to read: {_inline(reading(outcome))}"]
        if outcome.derived:
            lines += [f"- expectation {_inline(outcome.derived)}"]
        if outcome.why:
            label = "why (under the suite's own rules)" if outcome.derived else "why"
            lines += [f"- {label}: {_inline(outcome.why)}"]
        if outcome.position:
            lines += ["", "Position:", "", "```text", outcome.position, "```", ""]
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
    outcomes: list[Outcome], scoring: Scoring = STRICT, name: str = "pegs-rules conformance"
) -> str:
    """The outcomes as JUnit XML: one test suite per ruling, one test case per item.

    A failure is a ``failure``; an item skipped because the ``hello`` does not cover it is
    ``skipped`` (type ``not-sent``); a declined item is a ``failure`` (type
    ``declined``), or ``skipped`` of that type when declines are allowed; an item not run
    because the engine became unusable is an ``error``. A test case whose rejection named
    another ruling, or whose expectation was derived, says so in its ``properties`` (and a
    passed one with another ruling in its ``system-out``); each suite's ``properties``
    count the declined items, the other ids and the derived expectations.
    """
    root = ET.Element("testsuites", name=name)
    for group, members in _groups(outcomes).items():
        c = counts(members, scoring)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=group,
            tests=str(len(members)),
            failures=str(sum(o.fails(scoring) for o in members)),
            errors=str(c.not_run),
            skipped=str(sum(_junit_skipped(o, scoring) for o in members)),
            time=f"{sum(o.seconds for o in members):.3f}",
        )
        properties = ET.SubElement(suite, "properties")
        for key, value in (
            ("declined", c.declined),
            ("other_ruling", c.other_ruling),
            ("derived", c.derived),
        ):
            ET.SubElement(properties, "property", name=key, value=str(value))
        for outcome in members:
            _junit_case(suite, group, outcome, scoring)
    root.set("tests", str(len(outcomes)))
    root.set("failures", str(sum(o.fails(scoring) for o in outcomes)))
    root.set("errors", str(sum(o.not_run is not None for o in outcomes)))
    root.set("skipped", str(sum(_junit_skipped(o, scoring) for o in outcomes)))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _junit_skipped(outcome: Outcome, scoring: Scoring) -> bool:
    return outcome.skipped is not None or (outcome.declined is not None and scoring.allow_declines)


def _junit_case(suite: ET.Element, group: str, outcome: Outcome, scoring: Scoring) -> None:
    test = ET.SubElement(
        suite, "testcase", classname=group, name=outcome.id, time=f"{outcome.seconds:.3f}"
    )
    marks = []
    if outcome.other_ruling:
        marks.append(("other_ruling", outcome.problem or ""))
    if outcome.derived:
        marks.append(("derived", outcome.derived))
    if marks:
        properties = ET.SubElement(test, "properties")
        for key, value in marks:
            ET.SubElement(properties, "property", name=key, value=value)
    if outcome.not_run is not None:
        ET.SubElement(
            test, "error", message="not run", type="engine-unusable"
        ).text = outcome.not_run
    elif outcome.skipped is not None:
        ET.SubElement(test, "skipped", message=outcome.skipped, type="not-sent")
    elif outcome.declined is not None:
        kind = "skipped" if scoring.allow_declines else "failure"
        message = f"declined: {outcome.declined}"
        ET.SubElement(test, kind, message=message, type="declined").text = outcome.detail or None
    elif outcome.fails(scoring):
        failure = ET.SubElement(
            test,
            "failure",
            message=outcome.problem or "",
            type="other-ruling" if outcome.other_ruling else "wrong-answer",
        )
        failure.text = "\n".join(_failure_text(outcome, scoring, None)[1:]) or outcome.problem
    elif outcome.other_ruling:
        out = ET.SubElement(test, "system-out")
        out.text = (
            f"right verdict, other ruling id (counted as passed, --ids {scoring.ids}): "
            f"{outcome.problem}"
        )
