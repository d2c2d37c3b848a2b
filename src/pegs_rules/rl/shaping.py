"""Potential-based reward shaping for :class:`~pegs_rules.rl.TeamEnv`: :class:`ShapedReward`.

A reward only at the game's end tells a learner that loses every game nothing about which of its
moves were better. Shaping adds ``F = gamma * potential(s') - potential(s)`` to the reward of
each of the agent's decisions, from the position ``s`` it decided in to the position ``s'`` of
its next decision; Ng, Harada and Russell (1999) showed that a shaping reward of this form leaves
the optimal policies unchanged. The potential is the agent's team's lead in :func:`progress`
(:func:`potential`), and 0 once the game is over, so that over a whole game the shaping adds up
to nearly nothing and the game's result stays what counts.

>>> from pegs_rules.board import START, home
>>> progress((START, START, 8, 3, home(5)), seat=0, players=4)
154
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium

from pegs_rules.board import (
    HOME_HOLES,
    IN_SPOT_OFFSET,
    PEGS_PER_SEAT,
    SIDE_HOLES,
    START,
    Location,
    home_index,
    is_home,
)
from pegs_rules.rl.env import Observation
from pegs_rules.rl.team import TeamEnv
from pegs_rules.state import GameState

__all__ = ["ShapedReward", "most_progress", "potential", "progress"]


def progress(pegs: Sequence[Location], seat: int, players: int) -> int:
    """How far ``seat``'s ``pegs`` have come, in holes: a peg in its start area has come 0; on
    the track, it counts the holes from the one after its seat's in-spot (1) round to the in-spot
    itself (``18 * players``), so a peg that has just come out has come 5; in its home lane, hole
    ``k`` counts ``18 * players + k``. The sum over the pegs."""
    length = SIDE_HOLES * players
    spot = SIDE_HOLES * seat + IN_SPOT_OFFSET
    total = 0
    for location in pegs:
        if is_home(location):
            total += length + home_index(location)
        elif location != START:
            total += 1 + (location - spot - 1) % length
    return total


def most_progress(players: int) -> int:
    """A team's :func:`progress` once all its pegs are home (each seat's filling its lane)."""
    lane = sum(range(1, HOME_HOLES + 1))
    return players // 2 * (PEGS_PER_SEAT * SIDE_HOLES * players + lane)


def potential(state: GameState, team: int) -> float:
    """``team``'s :func:`progress` less the other team's, over :func:`most_progress` (between -1
    and 1); 0 once the game is over."""
    if state.winner is not None:
        return 0.0
    players = len(state.pegs)
    lead = sum(
        progress(pegs, seat, players) * (1 if seat % 2 == team else -1)
        for seat, pegs in enumerate(state.pegs)
    )
    return lead / most_progress(players)


class ShapedReward(gymnasium.Wrapper[Observation, int, Observation, int]):
    """``env``'s reward plus ``gamma * potential(s') - potential(s)`` at each step (see the
    module docstring); ``gamma`` should be the learner's discount."""

    def __init__(self, env: TeamEnv, gamma: float) -> None:
        super().__init__(env)
        self.team_env = env
        self.gamma = gamma
        self.last = 0.0

    def now(self) -> float:
        """The potential of the game's position for the agent's team."""
        return potential(self.team_env.game.game, self.team_env.team)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        observation, info = self.env.reset(seed=seed, options=options)
        self.last = self.now()
        return observation, info

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        observation, reward, terminated, truncated, info = self.env.step(action)
        after = 0.0 if terminated else self.now()
        shaped = float(reward) + self.gamma * after - self.last
        self.last = after
        return observation, shaped, terminated, truncated, info
