"""Reinforcement learning: a PettingZoo environment and a Gymnasium one (the ``pegs-rules[rl]`` extra).

* :func:`env` / :class:`raw_env`: the game as a PettingZoo AEC environment,
  one agent per seat (:mod:`pegs_rules.rl.env`);
* :class:`SingleSeatEnv`: a Gymnasium environment in which one seat plays
  against the library's bots (:mod:`pegs_rules.rl.single`);
* :class:`ActionSpace`: the fixed, documented numbering of every move
  (:mod:`pegs_rules.rl.actions`); :func:`observation`: what a seat observes
  (:mod:`pegs_rules.rl.observation`).

This package needs ``pettingzoo``, ``gymnasium`` and ``numpy``; the rest of
the library does not import it.
"""

from pegs_rules.rl.actions import ActionError, ActionSpace
from pegs_rules.rl.env import env, raw_env
from pegs_rules.rl.observation import observation, observation_size
from pegs_rules.rl.single import SingleSeatEnv

__all__ = [
    "ActionError",
    "ActionSpace",
    "SingleSeatEnv",
    "env",
    "observation",
    "observation_size",
    "raw_env",
]
