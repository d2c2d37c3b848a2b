"""The conformance suite in ``specs/`` and the engine protocol that lets any engine run it.

* :mod:`~pegs_rules.spec.suite`: the suite's data (cases, game vectors, perft
  positions) and what a position line means;
* :mod:`~pegs_rules.spec.protocol`: the line protocol, as the reference engine
  answers it (``python -m pegs_rules.spec serve``);
* :mod:`~pegs_rules.spec.engine`: asking an engine, in this process or as a
  program, with timeouts and restarts;
* :mod:`~pegs_rules.spec.supports`: what an engine says it supports, and what
  each item needs;
* :mod:`~pegs_rules.spec.derive`: items re-judged under an engine's fixed rules;
* :mod:`~pegs_rules.spec.harness`: checking an engine against the suite
  (``python -m pegs_rules.spec check``);
* :mod:`~pegs_rules.spec.report`: the outcomes as a text report, a Markdown
  report and JUnit XML;
* :mod:`~pegs_rules.spec.perft`: counting move sequences
  (``python -m pegs_rules.spec perft``);
* :mod:`~pegs_rules.spec.divergence`: perft over the protocol, and where an
  engine's move generator parts from the reference's;
* :mod:`~pegs_rules.spec.fuzz`: random games against the reference
  (``python -m pegs_rules.spec fuzz``), with :mod:`~pegs_rules.spec.plan` (what
  it plays), :mod:`~pegs_rules.spec.probe` (the comparisons), :mod:`~pegs_rules.spec.altered` (altered moves),
  :mod:`~pegs_rules.spec.shrink` (shrinking) and :mod:`~pegs_rules.spec.finding`
  (a divergence as a case and a perft position);
* :mod:`~pegs_rules.spec.record`: recording the regression vectors;
* :mod:`~pegs_rules.spec.command`: the command line.

The formats are described in ``specs/README.md`` and the protocol in
``specs/protocol.md``.
"""

from pegs_rules.spec.command import main
from pegs_rules.spec.harness import check_case, check_game
from pegs_rules.spec.suite import SPECS, digest, load_cases, load_games, load_perft

__all__ = [
    "SPECS",
    "check_case",
    "check_game",
    "digest",
    "load_cases",
    "load_games",
    "load_perft",
    "main",
]
