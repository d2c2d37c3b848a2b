"""Hypothesis profiles; choose one with the HYPOTHESIS_PROFILE environment variable.

* ``default``: a quick local run.
* ``ci``: the same budget, derandomized so that CI runs are reproducible.
* ``thorough``: many more examples, for a long hunt (not for routine runs).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile("default", max_examples=60, deadline=None, suppress_health_check=_SLOW_OK)
settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    suppress_health_check=_SLOW_OK,
    derandomize=True,
    print_blob=True,
)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None, suppress_health_check=_SLOW_OK
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
