"""Sphinx extension: the browser playground as the docs site's "Play" page.

After an HTML build it writes the playground (:func:`pegs_rules.web.build.build`)
into the site's ``play/`` folder, where ``play.rst`` links to it and the rulings'
worked examples open it (``play/index.html?position=...``). Its rulings link back
to this site (``../rules/<id>.html``).

The playground needs the esbuild that ``npm ci --prefix js`` installs (it bundles
the TypeScript engine into the page); where it is missing the site is built without
the playground and the build says so (not a warning: the docs are complete without
it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

from pegs_rules.web.build import BuildError, build

logger = logging.getLogger(__name__)


def build_playground(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    try:
        build(Path(app.outdir) / "play", docs_url="../")
    except BuildError as error:
        logger.info("the playground is left out of the docs: %s", error)
        return
    logger.info("the playground is in %s", Path(app.outdir) / "play")


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("build-finished", build_playground)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
