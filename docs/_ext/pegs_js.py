"""Sphinx extension: the TypeScript package's API reference, generated from its sources.

After an HTML build it runs TypeDoc (``js/typedoc.json``) on the package in ``js/`` and writes
the reference into the site's ``js-api/`` folder, which :doc:`javascript` links to; first
``js/scripts/contracts.mjs`` gathers the comments at the head of the modules into the
reference's page *Contracts*. TypeDoc fails on a broken link or an exported name without a
comment. TypeDoc comes
with the package's development tools (``npm ci --prefix js``, which README's test command runs
before building the docs); where they or Node.js are missing, the build warns (and so fails under
``-W``), because the page's link would otherwise lead nowhere.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

JS = Path(__file__).resolve().parent.parent.parent / "js"


def build_reference(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    typedoc = JS / "node_modules" / ".bin" / "typedoc"
    out = Path(app.outdir) / "js-api"
    if shutil.which("node") is None or not typedoc.exists():
        logger.warning(
            "the TypeScript API reference needs Node.js and the package's tools "
            "(npm ci --prefix js); js-api/ is missing"
        )
        return
    for command in (
        ["node", "scripts/contracts.mjs"],  # the page "Contracts", from the modules' comments
        [str(typedoc), "--out", str(out), "--logLevel", "Warn"],
    ):
        done = subprocess.run(command, cwd=JS, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            logger.warning("%s failed:\n%s%s", " ".join(command), done.stdout, done.stderr)
            return
    logger.info("the TypeScript API reference is in %s", out)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("build-finished", build_reference)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
