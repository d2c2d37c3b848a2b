"""pytest's collection: a module's doctests are left out when its optional dependency is not installed."""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("pyspiel") else ["src/pegs_rules/rl/openspiel.py"]
