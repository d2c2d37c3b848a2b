"""Sphinx configuration of the pegs-rules documentation.

Build the site and run its examples (from the repository root)::

    sphinx-build -W --keep-going -b html docs docs/_build/html
    sphinx-build -W -b doctest docs docs/_build/doctest
"""

from __future__ import annotations

import sys
from pathlib import Path

import pegs_rules

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

project = "pegs-rules"
author = "pegs-rules developers"
copyright = "pegs-rules developers"
version = release = pegs_rules.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.napoleon",
    "myst_parser",
    "pegs_docs",
    "pegs_js",
    "pegs_play",
    "pegs_study",
    "pegs_strength",
    "pegs_learning",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_generated", "_ext"]
templates_path: list[str] = []

# The examples in the pages are ``.. doctest::`` blocks. Docstring examples pulled in by
# autodoc are run by pytest (``--doctest-modules``) in their own modules' namespaces, so
# the doctest builder leaves bare ``>>>`` blocks alone.
doctest_test_doctest_blocks = ""
doctest_global_setup = "import pegs_rules"

autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_preserve_defaults = True
autodoc_member_order = "bysource"
autodoc_default_options = {"show-inheritance": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = True

myst_heading_anchors = 3

html_theme = "furo"
html_title = f"pegs-rules {release}"
html_static_path = ["_static"]
html_css_files = ["pegs.css"]
html_show_sourcelink = False
pygments_style = "sphinx"
