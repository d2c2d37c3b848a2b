"""Where the conformance suite lives, and the rulings text in it.

The folder ``specs/`` (cases, game vectors, JSON Schemas and ``rulings.md``,
the normative text of every ruling) sits at the top of a source checkout and
ships inside the wheel as ``pegs_rules/specs``. :func:`specs_dir` finds it in
either place; :func:`ruling_text` reads one ruling from ``rulings.md``, and
:func:`sources_key` what the sources each ruling ends with (``R16; Q11``) name.

>>> (specs_dir() / "rulings.md").is_file()
True
>>> ruling_text("card.ace").splitlines()[0]
'**Both presets.** Besides coming out, an ace moves a peg one hole forward.'
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from pegs_rules.errors import PegsError

_HERE = Path(__file__).resolve().parent
_PLACES = (_HERE / "specs", _HERE.parents[1] / "specs")
"""Installed package data first, then the folder of a source checkout (``src/`` layout)."""
_HEADING = re.compile(r"^### `([a-z0-9.-]+)`", re.MULTILINE)
_SOURCES = re.compile(r"^- (\*\*Sources\*\* .+?)\n(?=- |\n)", re.MULTILINE | re.DOTALL)


def specs_dir() -> Path:
    """The ``specs`` folder: the package's copy, else the source checkout's.

    Raises :class:`~pegs_rules.errors.PegsError` if neither exists (a broken
    installation).
    """
    for place in _PLACES:
        if (place / "cases").is_dir():
            return place
    raise PegsError("the conformance suite (specs/) is missing from this installation")


@cache
def rulings_sections() -> dict[str, str]:
    """Each ruling id of ``specs/rulings.md`` with its text (Markdown), in file order."""
    text = (specs_dir() / "rulings.md").read_text(encoding="utf-8")
    parts = _HEADING.split(text)
    sections = {}
    for rule, body in zip(parts[1::2], parts[2::2], strict=True):
        body = re.split(r"^#{1,3} ", body, maxsplit=1, flags=re.MULTILINE)[0]
        sections[rule] = body.strip()
    return sections


@cache
def sources_key() -> str:
    """What the sources a ruling names (``R16``, ``Q11``, ``mk``) are, as the section "How to
    read a ruling" of ``specs/rulings.md`` says it (Markdown, on one line).

    >>> sources_key().startswith("**Sources** name where the ruling comes from: `R1`..`R35`")
    True
    """
    text = (specs_dir() / "rulings.md").read_text(encoding="utf-8")
    found = _SOURCES.search(text)
    if not found:
        raise PegsError("specs/rulings.md no longer says what a ruling's sources are")
    return " ".join(found[1].split())


def ruling_text(rule: str) -> str:
    """The normative text of ruling ``rule``, as written in ``specs/rulings.md``."""
    try:
        return rulings_sections()[rule]
    except KeyError:
        raise PegsError(f"no ruling {rule!r} in specs/rulings.md") from None
