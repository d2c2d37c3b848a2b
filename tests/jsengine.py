"""The TypeScript engine in ``js/``, for the tests that check it against this library.

:func:`node_command` gives the command that runs a script of the package with Node, or skips
the test (printing why) where Node or the package's build is missing; with
``PEGS_REQUIRE_NODE`` set (as CI sets it) it fails instead, so that CI never skips them. The
build is ``npm ci --prefix js && npm run build --prefix js``, which README's test command runs
before the tests.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "js"
DIST = JS / "dist"


def node_command(script: Path) -> list[str]:
    """``[node, script]``, or skip (or fail under ``PEGS_REQUIRE_NODE``) without Node or the build."""
    node = shutil.which("node")
    problem = None
    if node is None:
        problem = "Node.js is not installed"
    elif not (DIST / "index.js").exists():
        problem = (
            "the TypeScript package is not built (npm ci --prefix js && npm run build --prefix js)"
        )
    if problem is not None:
        if os.environ.get("PEGS_REQUIRE_NODE"):
            pytest.fail(problem)
        pytest.skip(problem)
    assert node is not None
    return [node, str(script)]
