"""One seat against the library's bots, as a single-agent Gymnasium environment: :class:`SingleSeatEnv`.

The agent plays ``seat``; the other seats are played by bots named as for
:func:`~pegs_rules.bots.make_bot` (given to the other seats in turn), which
see only their own :class:`~pegs_rules.PlayerView`. Observations, actions and
rewards are those of :mod:`pegs_rules.rl.env` for that seat: an observation
is a dict of ``observation`` and ``action_mask``; the episode ends when a team
wins (reward 1 if it is the agent's, else -1), when the agent chooses an
action the mask does not allow (reward -1), or is truncated after
``max_turns`` turns. With ``history=True``, ``info["events"]`` holds what every
turn since the agent's last did, as its seat may see it, and
``info["new_game"]`` is ``True`` in the info :meth:`~SingleSeatEnv.reset`
returns (the events since the deal: the bots' turns before the agent's first)
and ``False`` in those of :meth:`~SingleSeatEnv.step` (see
:mod:`pegs_rules.rl.env`).

Each bot's generator is seeded by :func:`bot_seed`, a keyed hash of the deal's
seed (:func:`~pegs_rules.seeding.derive_seed`): a bot's seed tells it nothing of
the deal, so a bot written by a third party learns no hidden card from it.

>>> from pegs_rules.rl import SingleSeatEnv
>>> game = SingleSeatEnv(players=4, seat=0, bots="greedy")
>>> observation, info = game.reset(seed=3)
>>> int(observation["action_mask"].sum()) > 0
True
"""

from __future__ import annotations

from typing import Any

import gymnasium

from pegs_rules.bots import Bot, decide, make_bot
from pegs_rules.rl.actions import ActionError, ActionSpace
from pegs_rules.rl.env import Observation, raw_env
from pegs_rules.rules import Rules
from pegs_rules.seeding import derive_seed

__all__ = ["SingleSeatEnv", "bot_seed"]


def bot_seed(deal: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the game dealt from ``deal``: HMAC-SHA-256 keyed
    with the deal's seed over ``rl/single/bot/seat SEAT``
    (:func:`~pegs_rules.seeding.derive_seed`), from which the deal cannot be worked out."""
    return derive_seed(deal, "rl", "single", "bot", f"seat {seat}")


class SingleSeatEnv(gymnasium.Env[Observation, int]):
    """Play ``seat`` of a game against bots (see the module docstring).

    Args:
        players: 4, 6 or 8 seats.
        seat: the agent's seat.
        bots: comma-separated bot names for the other seats, given in turn
            (``"greedy"``, ``"random"``, ``"mcts:200"``, ...).
        rules: a :class:`~pegs_rules.Rules` object or a preset's name.
        max_turns: turns after which the episode is truncated.
        render_mode: ``"ansi"`` for :meth:`render` to return the board as text.
        history: tell the agent what each turn did (``info["events"]``) and
            when a game begins (``info["new_game"]``).
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium declares it an instance field

    def __init__(
        self,
        players: int = 4,
        seat: int = 0,
        bots: str = "greedy",
        rules: Rules | str = "arizona",
        max_turns: int = 20_000,
        render_mode: str | None = None,
        history: bool = False,
    ) -> None:
        self.game = raw_env(players, rules, max_turns, render_mode, history=history)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat: 0 .. {players - 1}, not {seat!r}")
        self.seat = seat
        self.agent = self.game.possible_agents[seat]
        self.bot_names = [name.strip() for name in bots.split(",") if name.strip()]
        if not self.bot_names:
            raise ValueError("bots: name at least one bot")
        for name in self.bot_names:
            make_bot(name)  # ValueError for an unknown name
        self.render_mode = render_mode
        self.observation_space = self.game.observation_space(self.agent)
        self.action_space = self.game.action_space(self.agent)
        self.bots: dict[int, Bot] = {}

    @property
    def actions(self) -> ActionSpace:
        """The numbering of moves."""
        return self.game.actions

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game (from ``seed`` if given) and let the bots play up to the agent's turn."""
        super().reset(seed=seed)
        self.game.reset(seed=seed)
        deal = self.game.game.seed
        others = [s for s in range(self.game.players) if s != self.seat]
        self.bots = {
            s: make_bot(self.bot_names[i % len(self.bot_names)], bot_seed(deal, s))
            for i, s in enumerate(others)
        }
        self._bots_play()
        return self.game.observe(self.agent), self._info()

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Make the agent's move numbered ``action``, then let the bots play up to its next turn.

        An action the mask does not allow ends the episode with reward -1 (as
        PettingZoo's wrapped classic games do); ``info["illegal_action"]`` says why.
        """
        try:
            self.game.step(action)
        except ActionError as error:
            info = {**self._info(), "illegal_action": str(error)}
            return self.game.observe(self.agent), -1.0, True, False, info
        self._bots_play()
        state = self.game.game
        terminated = state.winner is not None
        reward = 0.0 if state.winner is None else 1.0 if state.winner == self.seat % 2 else -1.0
        truncated = not terminated and state.ply >= self.game.max_turns
        return self.game.observe(self.agent), reward, terminated, truncated, self._info()

    def _info(self) -> dict[str, Any]:
        """The agent's info: with ``history``, its events and whether they run from the deal;
        else nothing."""
        if not self.game.history:
            return {}
        info = self.game.infos[self.agent]
        return {"events": list(info["events"]), "new_game": info["new_game"]}

    def _bots_play(self) -> None:
        game = self.game
        while (
            game.game.winner is None
            and game.game.ply < game.max_turns
            and game.game.turn != self.seat
        ):
            game.play(decide(self.bots[game.game.turn], game.game))

    def render(self) -> str | None:
        """The board as text (``render_mode="ansi"``)."""
        return self.game.render()
