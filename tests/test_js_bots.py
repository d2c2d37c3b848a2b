"""The TypeScript package's searching bots choose as this library's: the differential of
``tools/bot_differential.py`` at a size for CI (its full run, 2,400 decisions at 100 playouts,
is in docs/javascript.rst), and the chooser's answer to a request it cannot read."""

from __future__ import annotations

from typing import Any

from jsengine import ROOT, node_command
from scripts import load_script


def _differential() -> Any:
    """``tools/bot_differential.py`` as a module (``tools`` is no package)."""
    path = ROOT / "tools" / "bot_differential.py"
    return load_script(path, "bot_differential")


def test_hard_and_expert_choose_as_this_librarys() -> None:
    node_command(ROOT / "js" / "scripts" / "bot-choose.mjs")  # skips without Node or the build
    differences = _differential().run(count=240, budget=30, bots=["hard", "expert"], every=11)
    assert differences == []


def test_the_typescript_bots_answer_in_the_differentials_form() -> None:
    node_command(ROOT / "js" / "scripts" / "bot-choose.mjs")
    module = _differential()
    answers = module.ask_node([{"bot": "expert:5", "seed": 1, "view": {}, "moves": {}}])
    assert list(answers[0]) == ["error"]
