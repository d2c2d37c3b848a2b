"""The docs' learning example runs: a few training steps on the vector environment, then a test game.

The full run (minutes of training, 200 test games) is documented with its
figures in docs/rl.rst, not run here.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "reinforce.py"


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reinforce_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_a_few_training_steps_then_a_test_game() -> None:
    reinforce = example()
    policy = reinforce.Policy.new(seed=3)
    done = reinforce.train(policy, seconds=120.0, envs=2, seed=5, max_steps=400)
    assert done.games >= 1  # the critic learns from the ends of games
    assert np.count_nonzero(policy.value) > 0
    touched = np.flatnonzero(policy.bias)
    assert 0 < len(touched) < policy.bias.size // 10  # only the rows of legal actions moved
    assert np.count_nonzero(policy.weights[touched]) > 0
    assert not np.count_nonzero(np.delete(policy.weights, touched, axis=0))
    wins = reinforce.test(policy, games=1, seed=7)
    assert wins in (0, 1)
