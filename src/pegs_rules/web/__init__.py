"""The browser playground: the rules engine running in a web page, with no server.

* ``static/``: the page itself (HTML, CSS, a few ES modules and a Web Worker),
  shipped as package data;
* :mod:`pegs_rules.web.bridge`: the Python side, run by Pyodide inside the
  worker, answering the page in the library's JSON documents;
* :mod:`pegs_rules.web.viewer`: a game record replayed ply by ply for the
  record viewer, and a finished game's summary;
* :mod:`pegs_rules.web.build`: ``pegs web build OUT_DIR``, which puts the page,
  the pinned Pyodide runtime and a wheel of this package in one static folder;
* :mod:`pegs_rules.web.ruling_pages`: a page for each ruling, for a playground
  served without the docs.
"""
