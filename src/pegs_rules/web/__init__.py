"""The browser playground: the rules engine running in a web page, with no server.

* ``static/``: the page itself (HTML, CSS, a few ES modules and a Web Worker for the
  bots and the hint), shipped as package data; it plays on the TypeScript engine
  (``js/`` of the repository), which ``pegs web build`` bundles into it;
* :mod:`pegs_rules.web.offer`: what the page's set-up form offers;
* :mod:`pegs_rules.web.build`: ``pegs web build OUT_DIR``, which puts the page and
  its engine in one static folder;
* :mod:`pegs_rules.web.ruling_pages`: a page for each ruling, for a playground
  served without the docs.
"""
