"""Sphinx extension for the pegs-rules documentation.

It ties the rules reference to the same data the tests use:

* ``.. ruling:: ID`` heads the page of one ruling: it gives the page's section
  the ruling id itself as its HTML anchor (``card.seven.split.html#card.seven.split``),
  registers ``ID`` as a label for ``:ref:``, and shows the one-line summary from
  :data:`pegs_rules.rulings.RULINGS`, where the ruling comes from and the presets.
* ``.. ruling-examples:: ID`` shows up to three worked examples picked from the
  conformance cases in ``specs/cases/*.json`` (loaded with
  :func:`pegs_rules.spec.load_cases`), each with a board diagram drawn by
  :mod:`pegs_rules.render`, then lists every other case that names the ruling.
* ``.. rulings-index::``, ``.. ruling-coverage::`` and ``.. presets-table::``
  generate the index of rulings, the coverage page and the variants table.
* ``.. board-diagram:: NAME`` draws the position given as its content.
* ``.. optional-automodule:: MODULE`` documents a module that may not exist yet;
  ``.. package-exports::`` tabulates what ``pegs_rules`` re-exports;
  ``.. command-help::`` shows the help of the ``pegs`` command.
* ``:ruling:`ID``` links to a ruling's page; an unknown id fails the build. An
  inline literal that is exactly a ruling id (````card.eight```` in a docstring)
  becomes the same link.

The build fails (under ``-W``) when a ruling id has no page ``docs/rules/ID.rst``,
or a public module of the package has no page ``docs/api/MODULE.rst``.

Diagrams are written to ``docs/_generated/diagrams/`` (not committed). If the
module :mod:`pegs_rules.render` does not exist the diagrams are left out and the
build says so; any other error in it fails the build.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
import sys
import urllib.parse
from collections import Counter
from enum import Enum
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective, SphinxRole
from sphinx.util.nodes import make_refnode

from pegs_rules.board import location_name
from pegs_rules.errors import PegsError
from pegs_rules.moves import Discard, Move, Pass, Play, parse_notation
from pegs_rules.position import parse_position
from pegs_rules.rules import PRESETS, find_preset, with_rule
from pegs_rules.rulings import ADDED, DECIDED, RULINGS
from pegs_rules.spec import load_cases
from pegs_rules.spec.clashes import clash_matrix, format_matrix
from pegs_rules.specfiles import ruling_text, sources_key
from pegs_rules.state import GameState, new_game
from pegs_rules.turn import apply

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
"""The repository checkout."""
TESTS = ROOT / "tests"
SPECS = ROOT / "specs"
"""The conformance suite of this checkout (whatever copy of the package is installed)."""
GENERATED = "_generated"
"""Folder of generated files, inside the docs source folder (ignored by git)."""
EXAMPLES_PER_RULING = 3
DIAGRAM_SIZE = 520

AREAS = {
    "board": "Board and equipment",
    "deck": "Board and equipment",
    "deal": "Deal and turn",
    "turn": "Deal and turn",
    "team": "Who may move what",
    "card": "Cards",
    "move": "Movement",
    "game": "End of the game",
    "variant": "House rules",
}
"""The area of a ruling, from the first word of its id (the order is the index's)."""


# --- data ---------------------------------------------------------------------------------------


@cache
def cases() -> tuple[dict[str, Any], ...]:
    """Every conformance case, in file then case order."""
    return tuple(load_cases(SPECS))


def renderer() -> ModuleType | None:
    """The module :mod:`pegs_rules.render`, or ``None`` only if it does not exist."""
    try:
        return importlib.import_module("pegs_rules.render")
    except ModuleNotFoundError as error:
        if error.name == "pegs_rules.render":
            return None
        raise


def kind(case: dict[str, Any]) -> str:
    """The kind of outcome a case expects: legal, illegal, after or dealt."""
    (name,) = case["expect"]
    return str(name)


def cases_naming(rule: str) -> list[dict[str, Any]]:
    """The cases whose ``rules`` list names ``rule``, those with it first before the others."""
    main = [c for c in cases() if c["rules"][0] == rule]
    return main + [c for c in cases() if rule in c["rules"][1:]]


def pick_examples(rule: str, pinned: list[str]) -> list[dict[str, Any]]:
    """Up to three cases for ``rule``: the pinned ones, then a variety of outcomes.

    Cases whose first (main) ruling is ``rule`` come before cases that only name
    it; among each group, one case of every outcome kind (legal moves, a move
    applied, a move rejected, a deal) is taken before a second of any kind.
    """
    by_id = {c["id"]: c for c in cases()}
    chosen = [by_id[i] for i in pinned]
    named = cases_naming(rule)
    main = [c for c in named if c["rules"][0] == rule]
    rest = [c for c in named if c["rules"][0] != rule]
    for group in (main, rest):
        for varied in (True, False):
            for case in group:
                if len(chosen) == EXAMPLES_PER_RULING:
                    return chosen
                shown = {kind(c) for c in chosen}
                if case not in chosen and (not varied or kind(case) not in shown):
                    chosen.append(case)
    return chosen


@cache
def test_mentions() -> dict[str, tuple[str, ...]]:
    """For each ruling id, the test functions (``file::name``) whose ruling marker names it.

    The markers are ``@pytest.mark.ruling("card.seven", ...)`` on test functions
    (and classes) in ``tests/test_*.py``, read by ``tests/ruling_markers.py``, the
    same reader the traceability tests use.
    """
    sys.path.insert(0, str(TESTS))
    try:
        markers = importlib.import_module("ruling_markers")
    finally:
        sys.path.remove(str(TESTS))
    found: dict[str, tuple[str, ...]] = markers.marked_by_ruling(list(RULINGS), TESTS)
    return found


# --- small helpers ------------------------------------------------------------------------------


def markdown_to_rst(text: str) -> list[str]:
    """The few Markdown forms of ``specs/rulings.md`` (bold, italics, code) as reST lines."""
    text = re.sub(r"\*\*(.+?)\*\*", _bold_around_code, text)
    return re.sub(r"(?<!`)`([^`]+)`(?!`)", r"``\1``", text).splitlines()


def _bold_around_code(match: re.Match[str]) -> str:
    """A bold span holding code, as bold pieces around literals (reST does not nest them)."""
    inner = match.group(1)
    if "`" not in inner:
        return match.group(0)
    pieces = []
    for i, part in enumerate(re.split(r"`([^`]+)`", inner)):
        if i % 2:
            pieces.append(f"``{part}``")
        elif part.strip():
            lead, trail = part[: len(part) - len(part.lstrip())], part[len(part.rstrip()) :]
            pieces.append(f"{lead}**{part.strip()}**{trail}")
    joined = pieces[0]
    for piece in pieces[1:]:
        joined += piece if joined[-1].isspace() or piece[0].isspace() else "\\ " + piece
    return joined


_RST_SPECIAL = re.compile(r"([\\`*_|\[\]<>])")


def esc(text: str) -> str:
    """``text`` with every character escaped that reST could read as markup."""
    return _RST_SPECIAL.sub(r"\\\1", text)


def case_state(case: dict[str, Any]) -> GameState:
    """The position of a case (or, for a deal case, a fresh deal with seed 0)."""
    if "deal" in case:
        deal = case["deal"]
        rules = find_preset(case["preset"])
        for line in deal.get("rules", []):
            field, _, value = line.partition(":")
            rules = with_rule(rules, field.strip(), value)
        return new_game(deal["players"], seed=0, rules=rules, dealer=deal["dealer"])
    return parse_position("\n".join([f"rules: {case['preset']}", *case["position"]]))


def playground_link(case: dict[str, Any]) -> str:
    """The playground (the Play page, ``play/``) on a case's position, asked about its move."""
    query = {"position": "\n".join([f"rules: {case['preset']}", *case["position"]])}
    if "move" in case:
        query["move"] = case["move"]
    return "../play/index.html?" + urllib.parse.urlencode(query, quote_via=urllib.parse.quote)


def describe_move(move: Move) -> str:
    """A sentence (reST) saying what ``move`` does."""
    if isinstance(move, Pass):
        return "the seat to act passes"
    if isinstance(move, Discard):
        return f"the seat to act discards a {move.card.symbol} without moving"
    parts = [f"seat {s.seat}'s peg from {where(s.src)} to {where(s.dst)}" for s in move.steps]
    if len(parts) == 1:
        return f"the {move.card.symbol} moves {parts[0]}"
    return f"the {move.card.symbol} is split: first {parts[0]}, then {parts[1]}"


def where(location: int) -> str:
    """A location in words: ``start``, ``home 2`` or ``hole 17``."""
    name = location_name(location)
    if name == "s":
        return "start"
    if name.startswith("h"):
        return f"home {name[1:]}"
    return f"hole {name}"


def rings(case: dict[str, Any], state: GameState) -> tuple[int, ...]:
    """The track holes to ring on a case's diagram.

    For a move, the track holes it starts and ends on; for a list of legal
    moves, the track holes they end on (at most 12, else none).
    """
    try:
        if "move" in case:
            moves = [parse_notation(case["move"])]
            ends = False
        elif "legal" in case["expect"]:
            moves = [parse_notation(m) for m in case["expect"]["legal"]]
            ends = True
        else:
            return ()
    except PegsError:
        return ()
    length = state.board.track_length
    holes: set[int] = set()
    for move in moves:
        if isinstance(move, Play):
            for step in move.steps:
                holes.update(p for p in ((step.dst,) if ends else step[1:]) if 0 <= p < length)
    return tuple(sorted(holes)) if len(holes) <= 12 else ()


def after_state(case: dict[str, Any], state: GameState, move: Move | None) -> GameState | None:
    """The position after a case's move, for a case that expects the move to be legal."""
    if move is None or "after" not in case["expect"]:
        return None
    try:
        return apply(state, move)
    except PegsError:  # the engine disagrees: the test suite reports it
        return None


def diagram_figure(image: str, alt: str, caption: str) -> list[str]:
    """A board diagram (reST, inside an example) that links to itself at full size."""
    return [
        f"      .. figure:: {image}",
        f"         :alt: Board diagram of {alt}",
        "         :width: 100%",
        "         :class: pegs-board",
        "",
        f"         {caption}",
        "",
    ]


def diagram_name(text: str) -> str:
    """A file name for a diagram of the case or figure called ``text``."""
    return re.sub(r"[^A-Za-z0-9.-]+", "--", text).strip("-")


def write_diagram(
    directive: SphinxDirective,
    name: str,
    state: GameState,
    move: Move | None,
    highlight: tuple[int, ...] = (),
) -> str | None:
    """Draw ``state`` (and ``move``) into the generated folder; its path for an image.

    ``None`` when :mod:`pegs_rules.render` does not exist yet.
    """
    render = renderer()
    if render is None:
        return None
    directive.env.note_dependency(str(ROOT / "src" / "pegs_rules" / "render.py"))
    try:
        svg = render.svg(state, move, highlight=highlight, labels=True, size=DIAGRAM_SIZE)
    except PegsError:  # a deliberately impossible move (a seat or hole that does not exist)
        svg = render.svg(state, None, labels=True, size=DIAGRAM_SIZE)
    folder = Path(directive.env.srcdir) / GENERATED / "diagrams"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{diagram_name(name)}.svg"
    if not path.exists() or path.read_text(encoding="utf-8") != svg:
        path.write_text(svg, encoding="utf-8")
    return f"/{GENERATED}/diagrams/{path.name}"


class RstDirective(SphinxDirective):
    """A directive that writes reST and parses it in place."""

    def parse_rst(self, lines: list[str]) -> list[nodes.Node]:
        container = nodes.container()
        source = self.get_source_info()[0] or self.env.docname
        self.state.nested_parse(StringList(lines, source=source), self.content_offset, container)
        return list(container.children)


def check_ruling(directive: SphinxDirective, rule: str) -> None:
    if rule not in RULINGS:
        raise directive.error(f"unknown ruling id {rule!r} (see pegs_rules.rulings.RULINGS)")


# --- the ruling page head -----------------------------------------------------------------------


class RulingDirective(RstDirective):
    """``.. ruling:: ID`` right under the title of a ruling's page."""

    required_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {
        "standard": directives.unchanged_required,
        "switch": directives.unchanged_required,
    }
    has_content = False

    def presets(self) -> list[str]:
        """Where each preset stands on this ruling.

        ``:standard:`` says how the ``standard`` preset differs; on the page of a
        house-rule switch, ``:switch: FIELD`` names the field of the rules object,
        and each preset's value of it is shown instead.
        """
        from pegs_rules.rules import Rules, rule_text

        switch = self.options.get("switch", "").strip()
        if switch:
            if switch not in Rules.__dataclass_fields__:
                raise self.error(f"Rules has no field {switch!r}")
            return [
                f"``{name}``: ``rule {switch}: {rule_text(rules, switch)}``"
                for name, rules in PRESETS.items()
            ]
        differs = self.options.get("standard", "").strip()
        said = []
        for name in PRESETS:
            if name == "arizona":
                said.append("``arizona`` (the default): as on this page.")
            elif name == "standard":
                said.append(f"``standard``: {differs or 'the same as ``arizona``.'}")
            else:
                said.append(f"``{name}``: see :doc:`/variants`.")
        if "standard" not in PRESETS and differs:
            said.append(f"``standard`` (planned): {differs}")
        return said

    def run(self) -> list[nodes.Node]:
        rule = self.arguments[0]
        check_ruling(self, rule)
        expected = f"rules/{rule}"
        if self.env.docname != expected:
            raise self.error(f"the page of ruling {rule!r} must be {expected}.rst")
        section = self.state.parent
        if not isinstance(section, nodes.section):
            raise self.error("put .. ruling:: directly under the page title")
        section["ids"].insert(0, rule)
        self.state.document.ids[rule] = section
        title = section[0].astext() if section.children else rule
        std: Any = self.env.get_domain("std")
        std.labels[rule] = (self.env.docname, rule, title)
        std.anonlabels[rule] = (self.env.docname, rule)
        self.env.metadata[self.env.docname]["ruling"] = rule
        if rule in DECIDED:
            origin = "a ruling of the project's original design"
        elif self.options.get("switch"):
            field = f"the field ``{self.options['switch']}`` of the rules object"
            if rule.count(".") == 1:
                origin = f"a house-rule switch added by this library, {field}"
            else:  # a finer point of a switch (variant.two-swap.order)
                origin = f"added by this library, a finer point of the house-rule switch {field}"
        else:
            origin = "added by this library, where the original rulings are silent"
        self.env.note_dependency(str(SPECS / "rulings.md"))
        text = ruling_text(rule)
        lines = [
            ".. rst-class:: ruling-card",
            "",
            ":In one line: " + esc(RULINGS[rule]),
            f":Ruling id: ``{rule}`` ({origin})",
            ":Presets:",
            *(f"   * {line}" for line in self.presets()),
            f":Link here: ``rules/{rule}.html#{rule}``",
            "",
            ".. admonition:: The ruling, as ``specs/rulings.md`` states it",
            "   :class: ruling-text",
            "",
            *(f"   {line}" if line else "" for line in markdown_to_rst(text)),
            "",
            *(f"   {line}" for line in markdown_to_rst(sources_key()) if "**Sources.**" in text),
            "",
        ]
        return self.parse_rst(lines)


# --- worked examples ----------------------------------------------------------------------------


class RulingExamplesDirective(RstDirective):
    """``.. ruling-examples:: ID``: worked examples from the conformance cases."""

    required_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {"cases": directives.unchanged}
    has_content = False

    def run(self) -> list[nodes.Node]:
        rule = self.arguments[0]
        check_ruling(self, rule)
        for path in sorted((SPECS / "cases").glob("*.json")):
            self.env.note_dependency(str(path))
        pinned = self.options.get("cases", "").split()
        known = {c["id"] for c in cases()}
        for case_id in pinned:
            if case_id not in known:
                raise self.error(f"no conformance case {case_id!r}")
        examples = pick_examples(rule, pinned)
        lines: list[str] = []
        if not examples:
            lines += [
                ".. note::",
                "",
                "   No conformance case in ``specs/cases`` names this ruling yet.",
                "",
            ]
        for number, case in enumerate(examples, 1):
            lines += self.example(number, case)
        named = cases_naming(rule)
        others = [c for c in named if c not in examples]
        if others:
            lines += [
                f".. rubric:: Every other case naming ``{rule}`` ({len(others)})",
                "",
            ]
            for case in others:
                lines.append(f"* ``{case['id']}``: {esc(case['why'])}")
            lines.append("")
        return self.parse_rst(lines)

    def example(self, number: int, case: dict[str, Any]) -> list[str]:
        state = case_state(case)
        move = parse_notation(case["move"]) if "move" in case else None
        ringed = rings(case, state)
        before = write_diagram(self, case["id"], state, move, ringed)
        after = after_state(case, state, move)
        after_image = None
        if after is not None and isinstance(move, Play):
            landed = tuple(
                step.dst for step in move.steps if 0 <= step.dst < state.board.track_length
            )
            after_image = write_diagram(self, f"{case['id']}--after", after, None, landed)
        wide = state.players > 4 or after_image is not None
        lines = [
            f".. rubric:: Example {number}: ``{case['id']}``",
            "",
            ".. container:: pegs-example"
            + (" pegs-example-wide" if wide else "")
            + (" pegs-example-large" if state.players > 4 else ""),
            "",
        ]
        if before is not None:
            lines += ["   .. container:: pegs-example-diagram", ""]
            if move is None:
                caption = "The position."
            elif after_image is None:
                caption = "The position, with the move tried drawn as arrows."
            else:
                caption = "Before: the move drawn as arrows."
            lines += diagram_figure(before, f"the position of case {case['id']}", caption)
            if after_image is not None:
                lines += diagram_figure(
                    after_image,
                    f"the position after the move of case {case['id']}",
                    "After: the moved pegs' holes ringed.",
                )
            if ringed:
                holes = [str(hole) for hole in ringed]
                named = holes[0] if len(holes) == 1 else ", ".join(holes[:-1]) + " and " + holes[-1]
                plural = "s" if len(holes) > 1 else ""
                what = "the move starts or ends" if move else "the legal moves end"
                lines += [f"      *Ringed: hole{plural} {named}, where {what}.*", ""]
            lines += ["      *Click a board to see it full size.*", ""]
        body = self.example_text(case, state, move)
        lines += ["   .. container:: pegs-example-text", ""]
        lines += [f"      {line}" if line else "" for line in body]
        lines.append("")
        return lines

    def example_text(self, case: dict[str, Any], state: GameState, move: Move | None) -> list[str]:
        seat = state.turn
        if "deal" in case:
            deal = case["deal"]
            lines = [
                f"**Deal.** A fresh game for {deal['players']} players, dealt by seat "
                f"{deal['dealer']}, preset ``{case['preset']}`` "
                "(any seed; the diagram shows seed 0).",
                "",
            ]
            if deal.get("rules"):
                lines += [
                    "With these house rules:",
                    "",
                    ".. code-block:: text",
                    "",
                    *(f"   rule {line}" for line in deal["rules"]),
                    "",
                ]
        else:
            lines = [
                f"**Position.** Seat {seat} (team {seat % 2}) is to act; "
                f"{state.players} players, preset ``{case['preset']}``.",
                "",
                ".. code-block:: text",
                "",
                *(f"   {line}" for line in case["position"] or ["# the empty board"]),
                "",
            ]
        if move is not None:
            lines += [
                f"**Move.** ``{case['move']}``: {esc(describe_move(move))}.",
                "",
            ]
        lines += self.outcome(case)
        lines += [
            f"**Why.** {esc(case['why'])}",
            "",
        ]
        if "position" in case:
            lines += [f"`Open in the playground <{playground_link(case)}>`__", ""]
        lines += [
            f"*Case* ``{case['id']}`` *in* ``specs/cases/{case['file']}``; "
            "*it names* " + ", ".join(f":ruling:`{r}`" for r in case["rules"]) + ".",
            "",
        ]
        return lines

    def outcome(self, case: dict[str, Any]) -> list[str]:
        expect = case["expect"]
        if "legal" in expect:
            moves = expect["legal"]
            if not moves:
                return ["**Expected.** No legal move at all.", ""]
            head = "the only legal move" if len(moves) == 1 else f"all {len(moves)} legal moves"
            return [f"**Expected.** {head.capitalize()}:", "", *(f"* ``{m}``" for m in moves), ""]
        if "illegal" in expect:
            return [
                f"**Expected.** The move is rejected, citing :ruling:`{expect['illegal']}`.",
                "",
            ]
        if "after" in expect:
            return [
                "**Expected.** The move is legal; afterwards these lines hold "
                "(a ``pegs`` line lists all of that seat's pegs off the start area):",
                "",
                ".. code-block:: text",
                "",
                *(f"   {line}" for line in expect["after"]),
                "",
            ]
        dealt = expect["dealt"]
        lines = ["**Expected.** The deal gives:", ""]
        labels = {
            "hand_sizes": "cards in each hand",
            "draw_pile": "cards in the draw pile",
            "first_turn": "the seat that acts first",
            "cards": "cards of each rank",
        }
        for key, value in dealt.items():
            if isinstance(value, dict):
                value = ", ".join(f"{k}: {v}" for k, v in value.items())
            elif isinstance(value, list):
                value = " ".join(map(str, value))
            lines.append(f"* {labels.get(key, key)}: ``{value}``")
        return [*lines, ""]


# --- generated tables ---------------------------------------------------------------------------


def area_of(rule: str) -> str:
    return AREAS.get(rule.split(".")[0], "Other rulings")


def rulings_by_area() -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for area in AREAS.values():
        grouped.setdefault(area, [])
    for rule in RULINGS:
        grouped.setdefault(area_of(rule), []).append(rule)
    return {area: rules for area, rules in grouped.items() if rules}


class RulingsIndexDirective(RstDirective):
    """``.. rulings-index::``: every ruling by area, each row anchored by its id."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        switches = [rule for rule in ADDED if rule.startswith("variant.") and rule.count(".") == 1]
        finer = len(ADDED) - len(switches)
        result: list[nodes.Node] = self.parse_rst(
            [
                f"{len(RULINGS)} rulings: {len(DECIDED)} from the project's original design and "
                f"{len(ADDED)} added by this library where that design is silent (marked *added*): "
                f"{finer} finer point{'s' if finer != 1 else ''} of play and "
                f"{len(switches)} house-rule switch{'es' if len(switches) != 1 else ''}.",
                "",
            ]
        )
        for area, rules in rulings_by_area().items():
            lines = [
                f".. rubric:: {area}",
                "",
                ".. list-table::",
                "   :header-rows: 1",
                "   :widths: 30 70",
                "   :class: rulings-index",
                "",
                "   * - Ruling",
                "     - In one line",
            ]
            for rule in rules:
                added = " *(added)*" if rule in ADDED else ""
                lines += [
                    f"   * - :ruling:`{rule}`{added}",
                    f"     - {esc(RULINGS[rule])}",
                ]
            result += self.parse_rst([*lines, ""])
        # the pages, in the order of the tables (the navigation follows it)
        pages = [f"/rules/{rule}" for rules in rulings_by_area().values() for rule in rules]
        result += self.parse_rst([".. toctree::", "   :hidden:", "", *(f"   {p}" for p in pages)])
        # each row's HTML id is its ruling id: rules/index.html#card.seven.split
        for part in result:
            if not isinstance(part, nodes.Element):
                continue
            for row in part.findall(nodes.row):
                for ref in row.findall(addnodes.pending_xref):
                    if ref.get("reftype") == "ruling":
                        row["ids"].append(ref["reftarget"])
                        break
        return result


class RulingCoverageDirective(RstDirective):
    """``.. ruling-coverage::``: spec cases and tests per ruling."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        for path in [*sorted((SPECS / "cases").glob("*.json")), *sorted(TESTS.glob("*.py"))]:
            self.env.note_dependency(str(path))
        main = Counter(c["rules"][0] for c in cases())
        anywhere = Counter(r for c in cases() for r in set(c["rules"]))
        tests = test_mentions()
        lines = [
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 34 14 14 14",
            "   :class: ruling-coverage",
            "",
            "   * - Ruling",
            "     - Cases, first",
            "     - Cases, any",
            "     - Tests",
        ]
        for rule in RULINGS:
            flag = " (!)" if not anywhere[rule] else ""
            lines += [
                f"   * - :ruling:`{rule}`",
                f"     - {main[rule]}",
                f"     - {anywhere[rule]}{flag}",
                f"     - {len(tests[rule])}",
            ]
        total_tests = len({name for names in tests.values() for name in names})
        lines += [
            "   * - **All rulings**",
            f"     - **{len(cases())}**",
            f"     - **{len(cases())}**",
            f"     - **{total_tests}**",
            "",
        ]
        return self.parse_rst(lines)


class VerdictOrderDirective(RstDirective):
    """``.. verdict-order::``: the checks of ``move.verdict`` in order, from specs/verdict.json."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        path = SPECS / "verdict.json"
        self.env.note_dependency(str(path))
        data = json.loads(path.read_text(encoding="utf-8"))
        lines = [
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 5 6 34 27 18",
            "   :class: verdict-order",
            "",
            "   * - #",
            "     - Item",
            "     - The move fails if it has...",
            "     - Ruling named",
            "     - Brought in by",
        ]
        scopes = {"move": "the whole move", "step": "each step", "swap": "a swap"}
        for number, check in enumerate(data["checks"], 1):
            named = ", ".join(f":ruling:`{rule}`" for rule in check["charges"])
            if "choice" in check:
                named += f" ({esc(check['choice'])})"
            when = check.get("when")
            brought = (
                f"``{when['field']}: {json.dumps(when['value'])}``"
                if when
                else f"always ({scopes[check['scope']]})"
            )
            lines += [
                f"   * - {number}",
                f"     - {check['item']}",
                f"     - ``{check['check']}``: {esc(check['fault'])}",
                f"     - {named}",
                f"     - {brought}",
            ]
        return self.parse_rst(lines)


class ClashMatrixDirective(RstDirective):
    """``.. clash-matrix::``: which items of ``move.verdict`` meet, and the cases covering each."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        for path in [SPECS / "verdict.json", *sorted((SPECS / "cases").glob("*.json"))]:
            self.env.note_dependency(str(path))
        matrix = clash_matrix()
        grid = format_matrix(matrix).split("\n\n")[1]
        lines = ["::", "", *("   " + line for line in grid.splitlines()), ""]
        lines += [
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 12 88",
            "   :class: clash-matrix",
            "",
            "   * - Items",
            "     - Cases that break both and expect the earlier",
        ]
        for pair in matrix.pairs:
            if pair.never is None:
                said = ", ".join(f"``{case}``" for case in pair.cases) or "**not covered**"
                lines += [f"   * - {pair.first} + {pair.second}", f"     - {said}"]
        data = json.loads((SPECS / "verdict.json").read_text(encoding="utf-8"))
        lines += ["", "The other pairs never meet:", ""]
        for row in data["never_together"]:
            lines.append(f"* {row['item']} with {', '.join(row['with'])}: {esc(row['why'])}.")
        return self.parse_rst([*lines, ""])


def rules_fields() -> dict[str, str]:
    """Each field of :class:`pegs_rules.rules.Rules` with its description (reST).

    The descriptions are the ``Attributes:`` section of the class docstring, so
    the table cannot drift from the code; a ruling id written there as
    ````card.face```` becomes a link to its page.
    """
    from pegs_rules.rules import Rules

    described: dict[str, str] = {}
    current = ""
    in_attributes = False
    for line in (Rules.__doc__ or "").splitlines():
        stripped = line.strip()
        if stripped == "Attributes:":
            in_attributes = True
            continue
        if not in_attributes:
            continue
        match = re.match(r"^(\w+): (.*)$", stripped)
        if match and match.group(1) in Rules.__dataclass_fields__:
            current = match.group(1)
            described[current] = match.group(2)
        elif stripped and current:
            described[current] += " " + stripped
    for field in Rules.__dataclass_fields__:
        described.setdefault(field, "")

    def link(match: re.Match[str]) -> str:
        word = match.group(1)
        return f":ruling:`{word}`" if word in RULINGS else f"``{word}``"

    return {field: re.sub(r"``([^`]+)``", link, text) for field, text in described.items()}


def field_choices(field: str) -> str:
    """The values a field accepts, as ``rule FIELD: VALUE`` text."""
    from pegs_rules.rules import ARIZONA

    value = getattr(ARIZONA, field)
    if isinstance(value, bool):
        return "``true``, ``false``"
    if isinstance(value, Enum):
        return ", ".join(f"``{member.value}``" for member in type(value))
    return ""


class PresetsTableDirective(RstDirective):
    """``.. presets-table::``: every choice of the rules object against every preset."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from pegs_rules.rules import rule_text

        self.env.note_dependency(str(ROOT / "src" / "pegs_rules" / "rules.py"))
        fields = {f: d for f, d in rules_fields().items() if f != "name"}
        lines = [
            ".. list-table::",
            "   :header-rows: 1",
            "   :class: presets-table",
            "",
            "   * - Choice (``rule FIELD:``)",
            *(f"     - ``{name}``" for name in PRESETS),
            "     - Other values",
        ]
        for field, description in fields.items():
            lines += [
                f"   * - ``{field}``",
                "",
                f"       {description}",
            ]
            for preset in PRESETS.values():
                lines.append(f"     - ``{rule_text(preset, field)}``")
            lines.append(f"     - {field_choices(field)}")
        return self.parse_rst([*lines, ""])


# --- figures and optional modules ---------------------------------------------------------------


class BoardDiagramDirective(RstDirective):
    """``.. board-diagram:: NAME`` with a position as content (and ``:move:``)."""

    required_arguments = 1
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "move": directives.unchanged,
        "alt": directives.unchanged,
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        state = parse_position("\n".join(self.content))
        move_text = self.options.get("move")
        move = parse_notation(move_text) if move_text else None
        image = write_diagram(self, f"figure-{self.arguments[0]}", state, move)
        if image is None:
            return self.parse_rst(
                [
                    ".. note::",
                    "",
                    "   The board diagram appears here once ``pegs_rules.render`` exists.",
                    "",
                ]
            )
        lines = [
            f".. figure:: {image}",
            f"   :alt: {self.options.get('alt', 'Board diagram')}",
            "   :width: 100%",
            "   :class: pegs-figure",
            "",
        ]
        if self.options.get("caption"):
            lines += [f"   {self.options['caption']}", ""]
        return self.parse_rst(lines)


class OptionalAutomoduleDirective(RstDirective):
    """``.. optional-automodule:: MODULE``: ``automodule`` if the module exists."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            return self.parse_rst(
                [".. note::", "", f"   ``{name}`` is not part of this version yet.", ""]
            )
        return self.parse_rst([f".. automodule:: {name}", "   :members:", ""])


class CommandHelpDirective(RstDirective):
    """``.. command-help::``: the help of ``pegs`` and of each of its commands."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        import argparse

        from pegs_rules.cli import build_parser

        parser = build_parser()
        pages = [("pegs", parser)]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                pages += [(f"pegs {name}", sub) for name, sub in action.choices.items()]
        lines: list[str] = []
        for title, page in pages:
            lines += [f".. rubric:: ``{title}``", "", ".. code-block:: text", ""]
            lines += [f"   {line}".rstrip() for line in page.format_help().splitlines()]
            lines.append("")
        return self.parse_rst(lines)


class PackageExportsDirective(RstDirective):
    """``.. package-exports::``: what ``pegs_rules`` re-exports, by defining module.

    Read from the ``from pegs_rules.X import ...`` lines of ``__init__.py``,
    keeping the names in ``__all__``.
    """

    has_content = False

    def run(self) -> list[nodes.Node]:
        import pegs_rules

        path = Path(pegs_rules.__file__)
        self.env.note_dependency(str(path))
        exported = set(getattr(pegs_rules, "__all__", ()))
        by_module: dict[str, list[str]] = {}
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pegs_rules."):
                names = [a.asname or a.name for a in node.names if (a.asname or a.name) in exported]
                if names:
                    by_module.setdefault(node.module or "", []).extend(names)
        lines = [
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 30 70",
            "",
            "   * - Defined in",
            "     - Names",
        ]
        for module, names in by_module.items():
            refs = ", ".join(f":py:obj:`~{module}.{name}`" for name in names)
            lines += [f"   * - :mod:`{module}`", f"     - {refs}"]
        return self.parse_rst([*lines, ""])


# --- the :ruling: role --------------------------------------------------------------------------


class RulingRole(SphinxRole):
    """``:ruling:`ID```: a link to the page of ruling ``ID``."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        rule = self.text.strip()
        if rule not in RULINGS:
            message = self.inliner.reporter.error(f"unknown ruling id {rule!r}", line=self.lineno)
            return [nodes.problematic(self.rawtext, self.rawtext)], [message]
        ref = addnodes.pending_xref(
            self.rawtext,
            nodes.literal(rule, rule, classes=["ruling"]),
            refdomain="",
            reftype="ruling",
            reftarget=rule,
            refdoc=self.env.docname,
            refexplicit=True,
        )
        return [ref], []


class LinkRulingIds(SphinxTransform):
    """Turn every inline literal that is exactly a ruling id (````card.eight````) into a link.

    Docstrings and the included ``specs/README.md`` name rulings this way.
    """

    default_priority = 500

    def apply(self, **kwargs: Any) -> None:
        for literal in list(self.document.findall(nodes.literal)):
            rule = literal.astext()
            parent = literal.parent
            if rule not in RULINGS or isinstance(parent, (addnodes.pending_xref, nodes.reference)):
                continue
            if self.env.docname == f"rules/{rule}":
                continue
            ref = addnodes.pending_xref(
                "",
                refdomain="",
                reftype="ruling",
                reftarget=rule,
                refdoc=self.env.docname,
                refexplicit=True,
            )
            literal.replace_self(ref)
            ref += literal


def resolve_ruling(
    app: Sphinx, env: BuildEnvironment, node: addnodes.pending_xref, contnode: nodes.Element
) -> nodes.Element | None:
    if node.get("reftype") != "ruling":
        return None
    rule = node["reftarget"]
    return make_refnode(app.builder, node["refdoc"], f"rules/{rule}", rule, contnode)


# --- checks -------------------------------------------------------------------------------------


def check_every_ruling_has_a_page(app: Sphinx, env: BuildEnvironment) -> None:
    pages = {
        meta.get("ruling"): docname
        for docname, meta in env.metadata.items()
        if docname.startswith("rules/")
    }
    for rule in RULINGS:
        if rule not in pages:
            logger.warning("ruling %s has no page: add docs/rules/%s.rst", rule, rule)
    if renderer() is None:
        logger.info("pegs_rules.render does not exist yet: the board diagrams are left out")
    import pkgutil

    import pegs_rules

    for info in pkgutil.iter_modules(pegs_rules.__path__):
        if not info.name.startswith("_") and f"api/{info.name}" not in env.found_docs:
            logger.warning(
                "module pegs_rules.%s has no page: add docs/api/%s.rst to a topic of "
                "docs/api/index.rst",
                info.name,
                info.name,
            )


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("ruling", RulingDirective)
    app.add_directive("ruling-examples", RulingExamplesDirective)
    app.add_directive("rulings-index", RulingsIndexDirective)
    app.add_directive("ruling-coverage", RulingCoverageDirective)
    app.add_directive("verdict-order", VerdictOrderDirective)
    app.add_directive("clash-matrix", ClashMatrixDirective)
    app.add_directive("presets-table", PresetsTableDirective)
    app.add_directive("board-diagram", BoardDiagramDirective)
    app.add_directive("optional-automodule", OptionalAutomoduleDirective)
    app.add_directive("command-help", CommandHelpDirective)
    app.add_directive("package-exports", PackageExportsDirective)
    app.add_role("ruling", RulingRole())
    app.add_transform(LinkRulingIds)
    app.connect("missing-reference", resolve_ruling)
    app.connect("env-check-consistency", check_every_ruling_has_a_page)
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}
