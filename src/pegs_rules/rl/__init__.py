"""Reinforcement learning: a PettingZoo environment and a Gymnasium one (the ``pegs-rules[rl]`` extra).

* :func:`env` / :class:`raw_env`: the game as a PettingZoo AEC environment,
  one agent per seat (:mod:`pegs_rules.rl.env`);
* :class:`SingleSeatEnv`: a Gymnasium environment in which one seat plays
  against the library's bots (:mod:`pegs_rules.rl.single`);
* :class:`TeamEnv`: one agent plays every seat of a team, its observations
  with the latest moves; :class:`SelfPlayEnv`: against a pool of frozen past
  agents (:mod:`pegs_rules.rl.team`);
* :class:`ActionSpace`: the fixed, documented numbering of every move
  (:mod:`pegs_rules.rl.actions`); :func:`observation`: what a seat observes
  (:mod:`pegs_rules.rl.observation`).

Importing it registers :class:`SingleSeatEnv` with Gymnasium as
``PegsAndJokers-v0``, so ``gymnasium.make("pegs_rules.rl:PegsAndJokers-v0")``
(or ``gymnasium.make("PegsAndJokers-v0")`` once the package is imported) makes
one; the keyword arguments of :func:`gymnasium.make` go to the constructor.
:class:`TeamEnv` is registered so as ``PegsAndJokersTeam-v0``.

This package needs ``pettingzoo``, ``gymnasium`` and ``numpy``; the rest of
the library does not import it.
"""

import gymnasium

from pegs_rules.rl.actions import ActionError, ActionSpace
from pegs_rules.rl.env import env, raw_env
from pegs_rules.rl.observation import observation, observation_size
from pegs_rules.rl.single import SingleSeatEnv
from pegs_rules.rl.team import Policy, SelfPlayEnv, TeamEnv

gymnasium.register("PegsAndJokers-v0", entry_point="pegs_rules.rl.single:SingleSeatEnv")
gymnasium.register("PegsAndJokersTeam-v0", entry_point="pegs_rules.rl.team:TeamEnv")

__all__ = [
    "ActionError",
    "ActionSpace",
    "Policy",
    "SelfPlayEnv",
    "SingleSeatEnv",
    "TeamEnv",
    "env",
    "observation",
    "observation_size",
    "raw_env",
]
