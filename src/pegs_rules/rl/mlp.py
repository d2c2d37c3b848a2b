"""A trained multilayer-perceptron policy played with numpy alone: :class:`MaskedMlp`.

A policy network trained elsewhere (``tools/ppo_baseline.py`` trains one with
sb3-contrib's ``MaskablePPO``) is exported as its weights: an ``.npz`` file
holding ``keys`` (the observation entries the network reads, concatenated in
that order), ``weight0``, ``bias0``, ``weight1``, ``bias1``, ... (each
``weight`` an ``out x in`` matrix, as in ``torch.nn.Linear``), ``tanh``
between the layers and none after the last, whose outputs are the action
numbers' scores. The policy plays the legal action (the observation's
``action_mask``) of highest score, the lowest number among equal ones, as
``argmax`` does. It is a :data:`~pegs_rules.rl.Policy` of
:class:`~pegs_rules.rl.TeamEnv`. It computes in ``float64``, so that the move
it picks does not depend on the order in which a library sums a product.

>>> import numpy as np
>>> policy = MaskedMlp(
...     ("observation",),
...     ((np.eye(2), np.zeros(2)), (np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.zeros(3))),
... )
>>> policy({"observation": np.array([1.0, 0.5]), "action_mask": np.array([1, 1, 1], np.int8)})
2
>>> policy({"observation": np.array([1.0, 0.5]), "action_mask": np.array([1, 1, 0], np.int8)})
0
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pegs_rules.rl.env import Observation

__all__ = ["MaskedMlp"]

Array = npt.NDArray[np.float64]


@dataclass(frozen=True)
class MaskedMlp:
    """A policy: ``layers`` of ``(weight, bias)`` applied to the concatenated ``keys`` of an
    observation (see the module docstring)."""

    keys: tuple[str, ...]
    layers: tuple[tuple[Array, Array], ...]

    @classmethod
    def load(cls, path: str | Path) -> MaskedMlp:
        """The policy exported to ``path`` (an ``.npz`` file, see the module docstring)."""
        with np.load(path, allow_pickle=False) as saved:
            depth = sum(name.startswith("weight") for name in saved.files)
            layers = tuple(
                (
                    saved[f"weight{i}"].astype(np.float64),
                    saved[f"bias{i}"].astype(np.float64),
                )
                for i in range(depth)
            )
            return cls(tuple(str(key) for key in saved["keys"]), layers)

    def hidden(self, observation: Observation) -> Array:
        """The last hidden layer's values for ``observation``."""
        values = np.concatenate([np.asarray(observation[key], np.float64) for key in self.keys])
        for weight, bias in self.layers[:-1]:
            values = np.tanh(weight @ values + bias)
        return values

    def scores(self, observation: Observation) -> Array:
        """The network's score of every action number for ``observation``."""
        weight, bias = self.layers[-1]
        return weight @ self.hidden(observation) + bias

    def __call__(self, observation: Observation) -> int:
        """The legal action number of highest score (only the legal actions' scores are
        computed: a few rows of the last layer, not thousands)."""
        legal = np.flatnonzero(np.asarray(observation["action_mask"]).view(bool))
        weight, bias = self.layers[-1]
        scores = weight[legal] @ self.hidden(observation) + bias[legal]
        return int(legal[np.argmax(scores)])
