"""The TypeScript package's searching bots choose as this library's: the differential of
``tools/bot_differential.py`` at a size for CI (its full run, 2,400 decisions at 100 playouts,
is in docs/javascript.rst), and the chooser's answer to a request it cannot read."""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

from jsengine import ROOT, node_command


def _differential() -> Any:
    """``tools/bot_differential.py`` as a module (``tools`` is no package)."""
    path = ROOT / "tools" / "bot_differential.py"
    spec = importlib.util.spec_from_file_location("bot_differential", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bot_differential"] = module
    spec.loader.exec_module(module)
    return module


def test_hard_and_expert_choose_as_this_librarys() -> None:
    node_command(ROOT / "js" / "scripts" / "bot-choose.mjs")  # skips without Node or the build
    differences = _differential().run(count=240, budget=30, bots=["hard", "expert"], every=11)
    assert differences == []


def test_the_typescript_bots_answer_in_the_differentials_form() -> None:
    node_command(ROOT / "js" / "scripts" / "bot-choose.mjs")
    module = _differential()
    answers = module.ask_node([{"bot": "expert:5", "seed": 1, "view": {}, "moves": {}}])
    assert list(answers[0]) == ["error"]
