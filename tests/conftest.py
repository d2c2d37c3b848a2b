"""Hypothesis profiles; choose one with the HYPOTHESIS_PROFILE environment variable.

* ``default``: a quick local run.
* ``ci``: the same budget, derandomized so that CI runs are reproducible.
* ``thorough``: many more examples, for a long hunt (not for routine runs).

With ``PEGS_RULES_EXPECT_COMPILED`` set (CI's run against the mypyc build),
the session first checks that every module the build compiles is imported
compiled.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from pgcluster import Cluster, cluster

from pegs_rules.rulings import RULINGS

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


def pytest_configure(config: pytest.Config) -> None:
    if not os.environ.get("PEGS_RULES_EXPECT_COMPILED"):
        return
    if sys.version_info < (3, 11):
        raise pytest.UsageError("checking the compiled build needs Python 3.11 or later")
    else:
        import tomllib  # only this CI step needs it

        project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
        hook = project["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
        for path in hook["include"]:
            name = path.removeprefix("src/").removesuffix(".py").replace("/", ".")
            module = importlib.import_module(name)
            if not str(module.__file__).endswith((".so", ".pyd")):
                raise pytest.UsageError(f"{name} is not compiled: {module.__file__}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A ``ruling`` marker names known ruling ids, at least one (it feeds the coverage page)."""
    for item in items:
        for mark in item.iter_markers("ruling"):
            unknown = [rule for rule in mark.args if rule not in RULINGS]
            if unknown or not mark.args:
                raise pytest.UsageError(f"{item.nodeid}: ruling marker names {unknown or 'none'}")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """A throwaway PostgreSQL server for the whole session (see ``pgcluster``); skips without one."""
    with cluster() as running:
        yield running
