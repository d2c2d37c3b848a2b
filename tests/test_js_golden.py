"""``js/test/golden.jsonl``, the reference's JSON documents (their digests) over seeded games
that the TypeScript package's ``golden.test.ts`` compares its own with, is what this library
writes now (``python tools/js_golden.py`` writes it again)."""

from __future__ import annotations

from pathlib import Path

from scripts import load_script

TOOL = Path(__file__).resolve().parents[1] / "tools" / "js_golden.py"


def test_the_golden_documents_are_what_this_library_writes() -> None:
    module = load_script(TOOL, "js_golden")
    written = module.GOLDEN.read_text(encoding="utf-8")
    assert written == module.golden(), "run python tools/js_golden.py and commit the file"
