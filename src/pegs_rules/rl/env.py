"""The PettingZoo environment: :func:`env` (wrapped, as PettingZoo's classic games are) and :class:`raw_env`.

One agent per seat, ``player_0`` .. ``player_{n-1}``, acting in turn order
(``agent_selection`` is always the seat to act). Each observation is a dict:
``observation``, the vector of :mod:`pegs_rules.rl.observation`, built from
that seat's :class:`~pegs_rules.PlayerView` alone, and ``action_mask``
(``int8``, as PettingZoo and Gymnasium expect), 1 for each action of
:mod:`pegs_rules.rl.actions` that is a legal move (all zeros for a seat that
is not to act). To list the legal actions, view the mask as booleans first:
``np.flatnonzero(mask.view(bool))`` is about fifteen times faster than
``np.flatnonzero(mask)`` on its 16,115 bytes (at 4 players), which would take
longer than the environment's whole turn. When a team wins, each of
its agents is rewarded 1 and each of the other team's -1; a game still going
after ``max_turns`` turns is truncated with no reward.

An observation is of the position alone. With ``history=True`` the
environment also tells each agent what happened since it last acted: its
``info["events"]`` is the list of :mod:`~pegs_rules.events` of the turns taken
since (its own last turn's first), every seat's, as its seat may see them (the
cards other seats drew hidden, :func:`~pegs_rules.redact`), and
``info["new_game"]`` is ``True`` until the agent's first turn of a game: its
events then run from the deal, and whatever it remembers of an earlier game is
stale. After a reset every agent's events are empty and ``new_game`` is
``True``. Working the events out costs about as much again as the turn itself,
so it is off unless asked for.

All chance comes from the seeds. ``reset(seed=s)`` deals exactly the game
``new_game(players, seed=s, rules=rules)``, and each later reset without a
seed deals a game whose seed is drawn by a generator that ``s`` started
(:func:`deals_after`): so a run is reproducible from its seeds, and environments
seeded ``0, 1, 2, ...`` (as Gymnasium's vector environments seed theirs) go on
to deals that none of the others meets. Without any seed, the first deal's
seed comes from the operating system's entropy.

>>> from pegs_rules.rl import env
>>> game = env(players=4)
>>> game.reset(seed=1)
>>> game.agent_selection
'player_2'
>>> observation, reward, terminated, truncated, info = game.last()
>>> int(observation["action_mask"].sum()), observation["observation"].shape
(2, (349,))
"""

from __future__ import annotations

import operator
import random
import secrets
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from pegs_rules.board import team_of
from pegs_rules.events import apply_with_events, redact
from pegs_rules.moves import Move
from pegs_rules.reasons import explain
from pegs_rules.render import text as board_text
from pegs_rules.rl.actions import ActionError, ActionSpace
from pegs_rules.rl.game import NumberedGame
from pegs_rules.rl.observation import observation_size
from pegs_rules.rules import Rules, find_preset
from pegs_rules.state import GameState, new_game
from pegs_rules.views import view

__all__ = ["deals_after", "env", "raw_env"]

Observation = dict[str, npt.NDArray[Any]]
_INT8 = np.dtype(np.int8)


def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """A :class:`raw_env` that plays as PettingZoo's wrapped classic games do.

    An illegal action ends the game with -1 for the agent that chose it and
    0 for the others (``info["illegal_action"]`` says why), as PettingZoo's
    ``TerminateIllegalWrapper`` would make it; an action that is no number of
    the action space raises :class:`~pegs_rules.rl.ActionError`; and the
    environment comes in PettingZoo's ``OrderEnforcingWrapper``, which fails
    loudly on calls out of order. Takes the arguments of :class:`raw_env`.

    The environment checks the actions itself (``raw_env(illegal_reward=-1)``):
    it has numbered the legal moves already, so the check costs nothing, where
    PettingZoo's ``TerminateIllegalWrapper`` and ``AssertOutOfBoundsWrapper``
    around it made each turn take about half as long again, measured with
    ``bench/rl_env.py`` (which measures this ``env()`` against the bare engine).
    """
    return _InOrder(raw_env(illegal_reward=-1.0, **kwargs))


class _InOrder(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # PettingZoo is untyped
    """PettingZoo's ``OrderEnforcingWrapper``, whose :meth:`last` asks the environment in one
    call (``AECEnv.last`` run on a wrapper reads five attributes through it, each by a chain of
    ``__getattr__`` calls), and is otherwise the same."""

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, Any]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]


def deals_after(seed: int) -> random.Random:
    """The generator whose draws seed the games dealt after the game of ``seed`` by resets
    without a seed (each draw ``getrandbits(64)``): seeded by ``seed`` alone, not by that
    game's shuffle.

    >>> first = deals_after(0).getrandbits(64)
    >>> first == deals_after(0).getrandbits(64) != deals_after(1).getrandbits(64)
    True
    """
    return random.Random(f"pegs-rules: the deals after {seed}")


class raw_env(AECEnv[str, Observation, int]):  # type: ignore[misc]  # PettingZoo is untyped
    """A game of Pegs and Jokers as a PettingZoo AEC environment.

    Args:
        players: 4, 6 or 8 seats (as the rules allow).
        rules: a :class:`~pegs_rules.Rules` object (house rules included) or a
            preset's name.
        max_turns: turns after which a game is truncated.
        render_mode: ``"ansi"`` for :meth:`render` to return the board as text.
        illegal_reward: if given, an illegal action ends the game with this
            reward for the agent that chose it and 0 for the others (as
            :func:`env` does, with -1); if ``None``, :meth:`step` raises
            :class:`~pegs_rules.rl.ActionError` for it.
        history: tell each agent, in ``info["events"]``, what every turn since
            its last did, and in ``info["new_game"]`` whether they run from
            the deal (see the module docstring).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "pegs_and_jokers_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        rules: Rules | str = "arizona",
        max_turns: int = 20_000,
        render_mode: str | None = None,
        illegal_reward: float | None = None,
        history: bool = False,
    ) -> None:
        super().__init__()
        self.rules = find_preset(rules) if isinstance(rules, str) else rules
        if players not in self.rules.player_counts:
            raise ValueError(f"players: the rules allow {self.rules.player_counts}, not {players}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode: None or 'ansi', not {render_mode!r}")
        self.players = players
        self.max_turns = max_turns
        self.illegal_reward = illegal_reward
        self.history = history
        self.render_mode = render_mode
        self.actions = ActionSpace(players)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        size = observation_size(players)
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.actions.size,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = {
            agent: spaces.Discrete(self.actions.size) for agent in self.possible_agents
        }
        self.game_seed = secrets.randbits(128)
        """The seed of the game being played."""
        self.deals = deals_after(self.game_seed)
        """What draws the seeds of the next games (see :func:`deals_after`)."""
        self.numbered = NumberedGame(
            new_game(players, seed=self.game_seed, rules=self.rules), self.actions
        )
        """The game, stepped by action numbers (see :mod:`pegs_rules.rl.game`)."""
        self._start()

    @property
    def game(self) -> GameState:
        """The game as it stands; setting it carries on from another state."""
        return self.numbered.state

    @game.setter
    def game(self, state: GameState) -> None:
        self.numbered.load(state)
        self._turn_changed()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal the game of ``seed``; without one, of the next seed that the last seed given
        draws (see the module docstring)."""
        if seed is None:
            self.game_seed = self.deals.getrandbits(64)
        else:
            self.game_seed = seed
            self.deals = deals_after(seed)
        self.numbered.load(new_game(self.players, seed=self.game_seed, rules=self.rules))
        self._start()

    def _start(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {
            agent: {"events": [], "new_game": True} if self.history else {} for agent in self.agents
        }
        self._turn_changed()

    def _turn_changed(self) -> None:
        self.agent_selection = self.possible_agents[self.numbered.turn]

    def observe(self, agent: str) -> Observation:
        mask = bytearray(self.actions.size)
        if agent == self.agent_selection:
            for action in self.numbered.options:
                mask[action] = 1
        return {
            "observation": self.numbered.observation(self._seats[agent]),
            "action_mask": np.frombuffer(mask, _INT8),
        }

    def legal_moves(self) -> dict[int, Move]:
        """The legal moves of the seat to act, by action number (a new dict)."""
        return self.numbered.moves()

    def step(self, action: int | None) -> None:
        """The agent to act makes the move numbered ``action``.

        For an action the mask does not allow, raises
        :class:`~pegs_rules.rl.actions.ActionError`, with the engine's reason
        where the number names a move; or, with ``illegal_reward`` set and an
        action in the action space, ends the game (see :class:`raw_env`).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            number = None if action is None else operator.index(action)
        except TypeError:
            raise ActionError(f"not an action: {action!r}") from None
        if number is None or number not in self.numbered.options:
            why = self._why_not(number)
            if self.illegal_reward is None or not self.action_spaces[agent].contains(number):
                raise ActionError(why)
            self._illegal(agent, why)
            return
        if self.history:
            self.play(self.numbered.moves()[number])
            return
        self.numbered.step(number)
        self._turn_taken(agent)

    def play(self, move: Move) -> None:
        """The seat to act makes ``move``, given as a move rather than a number (bots use this).

        Raises :class:`~pegs_rules.IllegalMoveError` for a move that is not legal.
        """
        agent = self.agent_selection
        if not self.history:
            self.numbered.play(move)
            self._turn_taken(agent)
            return
        events = apply_with_events(self.numbered.state, move)[1]
        self.numbered.play(move)
        self.infos[agent].update(events=[], new_game=False)
        for seat, name in enumerate(self.possible_agents):
            self.infos[name]["events"] += redact(events, seat)
        self._turn_taken(agent)

    def _turn_taken(self, agent: str) -> None:
        """After a turn: the end of the game, if it came, and the next agent. (Until the game
        ends every reward is 0, so there are none to clear or add up.)"""
        self._cumulative_rewards[agent] = 0.0
        winner = self.numbered.winner
        if winner is not None:
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = 1.0 if team_of(seat) == winner else -1.0
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        elif self.numbered.ply >= self.max_turns:
            self.truncations = dict.fromkeys(self.agents, True)
        self._turn_changed()

    def _illegal(self, agent: str, why: str) -> None:
        """End the game on ``agent``'s illegal action: ``illegal_reward`` to it, 0 to the rest."""
        assert self.illegal_reward is not None
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(self.illegal_reward)
        self.infos[agent]["illegal_action"] = why
        self._accumulate_rewards()
        self._deads_step_first()

    def _why_not(self, action: int | None) -> str:
        if action is None:
            return f"{self.agent_selection} is to act: None is no action"
        seen = view(self.game, self.game.turn)
        named = f"action {int(action)} ({self.actions.describe(int(action))})"
        move = self.actions.decode(seen, int(action))
        if move is None:
            return f"{named} names no move in this position"
        verdict = explain(self.game, move)
        reason = f"[{verdict.rule}] {verdict.reason}" if not verdict.legal else "not in the mask"
        return f"{named} is {move}: {reason}"

    def render(self) -> str | None:
        """The board as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        return board_text(self.game)

    def close(self) -> None:
        """Nothing to release."""
