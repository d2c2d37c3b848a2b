"""A whole team as one agent: :class:`TeamEnv`, and self-play against frozen past agents: :class:`SelfPlayEnv`.

The agent plays every seat of ``team`` (team 0: seats 0, 2, ...; team 1:
seats 1, 3, ...): it is asked for a move whenever one of those seats is to
act, and only then. Each observation is a dict, seen from the seat to act:
``observation`` (:func:`~pegs_rules.rl.observation` of that seat's
:class:`~pegs_rules.PlayerView`), ``history`` (the last
:data:`~pegs_rules.rl.history.RECENT` moves, seats relative to that seat,
:mod:`pegs_rules.rl.history`) and ``action_mask``; ``info["seat"]`` is the
seat to act. The episode ends when a team wins (reward 1 if it is the agent's,
else -1), when the agent chooses an action the mask does not allow (reward -1)
or is truncated after ``max_turns`` turns.

The other team is played by ``opponents``: bot names (as for
:class:`~pegs_rules.rl.SingleSeatEnv`, seeded by
:func:`~pegs_rules.rl.single.bot_seed`) or a :data:`Policy`, a callable
that takes such an observation and returns an action number.
:class:`SelfPlayEnv` draws the other team's policy for each episode from a
pool of frozen past agents.

>>> game = TeamEnv(players=4, team=0, opponents="greedy")
>>> observation, info = game.reset(seed=1)
>>> info["seat"] % 2, observation["history"].shape
(0, (176,))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from pegs_rules.bots import Bot, decide, make_bot
from pegs_rules.moves import Move
from pegs_rules.rl.actions import ActionError, ActionSpace
from pegs_rules.rl.env import Observation, raw_env
from pegs_rules.rl.history import RECENT, ply_size, recent_plies
from pegs_rules.rl.observation import observation_size
from pegs_rules.rl.single import bot_seed
from pegs_rules.rules import Rules

__all__ = ["Policy", "SelfPlayEnv", "TeamEnv"]

Policy = Callable[[Observation], int]
"""An agent: from an observation of :class:`TeamEnv`, an action number."""


class TeamEnv(gymnasium.Env[Observation, int]):
    """Play every seat of ``team`` against ``opponents`` (see the module docstring).

    Args:
        players: 4, 6 or 8 seats.
        team: the agent's team, 0 or 1.
        opponents: comma-separated bot names, given to the other team's seats
            in turn, or a :data:`Policy` that plays them all.
        rules: a :class:`~pegs_rules.Rules` object or a preset's name.
        max_turns: turns after which the episode is truncated.
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium declares it an instance field

    def __init__(
        self,
        players: int = 4,
        team: int = 0,
        opponents: str | Policy = "greedy",
        rules: Rules | str = "arizona",
        max_turns: int = 20_000,
        render_mode: str | None = None,
    ) -> None:
        if team not in (0, 1) or isinstance(team, bool):
            raise ValueError(f"team: 0 or 1, not {team!r}")
        self.game = raw_env(players, rules, max_turns, render_mode)
        self.team = team
        self.render_mode = render_mode
        if isinstance(opponents, str):
            self.bot_names = [name.strip() for name in opponents.split(",") if name.strip()]
            if not self.bot_names:
                raise ValueError("opponents: name at least one bot")
            for name in self.bot_names:
                make_bot(name)  # ValueError for an unknown name
            self.opponent: Policy | None = None
        else:
            self.bot_names = []
            self.opponent = opponents
        observation_space: spaces.Space[Any] = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (observation_size(players),), np.float32),
                "history": spaces.Box(0.0, 1.0, (RECENT * ply_size(players),), np.float32),
                "action_mask": spaces.Box(0, 1, (self.game.actions.size,), np.int8),
            }
        )
        self.observation_space = observation_space
        self.action_space = self.game.action_space(self.game.possible_agents[0])
        self.bots: dict[int, Bot] = {}
        self.plies: list[tuple[int, Move]] = []
        """Every move of the game so far, with the seat that made it."""

    @property
    def actions(self) -> ActionSpace:
        """The numbering of moves."""
        return self.game.actions

    def observe(self) -> Observation:
        """The observation of the seat to act (see the module docstring)."""
        game = self.game
        seat = game.game.turn
        seen = game.observe(game.possible_agents[seat])
        return {
            "observation": seen["observation"],
            "history": recent_plies(self.plies, seat, game.players),
            "action_mask": seen["action_mask"],
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game (from ``seed`` if given) and let the other team play up to the
        agent's first turn."""
        super().reset(seed=seed)
        self._choose_opponent()
        self.game.reset(seed=seed)
        self.plies = []
        deal = self.game.game_seed
        others = [s for s in range(self.game.players) if s % 2 != self.team]
        self.bots = {
            s: make_bot(self.bot_names[i % len(self.bot_names)], bot_seed(deal, s))
            for i, s in enumerate(others)
            if self.bot_names
        }
        self._others_play()
        return self.observe(), {"seat": self.game.game.turn}

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """The seat to act (the agent's) makes the move numbered ``action``; then the other
        team plays up to the agent's next turn."""
        game = self.game
        seat = game.game.turn
        move = game.legal_moves().get(action)
        if move is None:
            try:
                game.step(action)  # raises the environment's explanation
            except ActionError as error:
                info = {"seat": seat, "illegal_action": str(error)}
                return self.observe(), -1.0, True, False, info
        assert move is not None
        self._play(move)
        self._others_play()
        state = game.game
        terminated = state.winner is not None
        reward = 0.0 if state.winner is None else 1.0 if state.winner == self.team else -1.0
        truncated = not terminated and state.ply >= game.max_turns
        return self.observe(), reward, terminated, truncated, {"seat": state.turn}

    def _choose_opponent(self) -> None:
        """Before a game: nothing here (see :class:`SelfPlayEnv`)."""

    def _play(self, move: Move) -> None:
        self.plies.append((self.game.game.turn, move))
        self.game.play(move)

    def _others_play(self) -> None:
        game = self.game
        while (
            game.game.winner is None
            and game.game.ply < game.max_turns
            and game.game.turn % 2 != self.team
        ):
            seat = game.game.turn
            if self.opponent is None:
                self._play(decide(self.bots[seat], game.game))
            else:
                self._play(game.legal_moves()[self.opponent(self.observe())])

    def render(self) -> str | None:
        """The board as text (``render_mode="ansi"``)."""
        return self.game.render()


class SelfPlayEnv(TeamEnv):
    """:class:`TeamEnv` whose other team, each episode, is played by a policy drawn (by the
    environment's seeded generator) from ``pool``, past agents frozen as callables;
    :meth:`freeze` adds one, dropping the oldest beyond ``keep``.

    >>> lowest = lambda seen: int(seen["action_mask"].argmax())
    >>> game = SelfPlayEnv([lowest], players=4)
    >>> observation, info = game.reset(seed=2)
    >>> game.opponent is lowest
    True
    """

    def __init__(self, pool: list[Policy], keep: int = 10, **kwargs: Any) -> None:
        if not pool:
            raise ValueError("pool: freeze at least one policy first")
        super().__init__(opponents=pool[0], **kwargs)
        self.pool = list(pool)
        self.keep = keep
        del self.pool[:-keep]

    def freeze(self, policy: Policy) -> None:
        """Add ``policy`` to the pool (a frozen copy: it must not change after)."""
        self.pool.append(policy)
        del self.pool[: -self.keep]

    def _choose_opponent(self) -> None:
        """Draw the other team's policy for the game about to be dealt."""
        self.opponent = self.pool[int(self.np_random.integers(len(self.pool)))]
