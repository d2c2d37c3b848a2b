"""The game for OpenSpiel: importing this module registers ``python_pegs_and_jokers`` with ``pyspiel``.

>>> import pyspiel
>>> import pegs_rules.rl.openspiel
>>> game = pyspiel.load_game("python_pegs_and_jokers", {"players": 6})
>>> game.num_players(), game.num_distinct_actions() == ActionSpace(6).size
(6, True)

Parameters: ``players`` (4, 6 or 8), ``preset`` (a preset's name, as
:func:`~pegs_rules.rules.find_preset` knows them) and ``max_turns`` (a game
still going after that many turns ends with every return 0).

Chance is explicit, one card at a time. The first chance node names the
dealer (each seat equally likely); then each card of the deal is a chance
node in dealing order, its outcome the rank's number less one (0 for an ace,
13 for a joker), with probability the share of that rank among the cards not
yet dealt. After a move, each card a seat draws is a chance node over what is
left in the draw pile, and once the draw pile runs out over the reshuffled
discard pile (``turn.reshuffle``): a shuffled pile drawn card by card. Player
actions are the numbers of :class:`~pegs_rules.rl.ActionSpace`.

What a player observes: the observation tensor is
:func:`~pegs_rules.rl.observation` of its :class:`~pegs_rules.PlayerView`
(zeros until the deal is done; while a turn's draws are being made, the
position before the turn); the information-state tensor adds :data:`~pegs_rules.rl.history.RECENT`
plies, most recent first (:mod:`pegs_rules.rl.history`). The
information-state string is the player's whole history: its seat and dealt
cards, every move (moves are public) and the cards it drew itself.
:func:`resample` deals the cards a player cannot see afresh at random, as
IS-MCTS asks (uniform over the hands consistent with what it holds and what
lies face up, not weighed by what the others' moves suggest they hold).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from functools import cache
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from pegs_rules.cards import Rank, build_deck
from pegs_rules.events import CardsDrawn, Reshuffled, apply_with_events
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import Move
from pegs_rules.rl.actions import ActionSpace
from pegs_rules.rl.history import RECENT, ply_size, recent_plies
from pegs_rules.rl.observation import observation, observation_size
from pegs_rules.rules import Rules, find_preset
from pegs_rules.state import GameState, deal
from pegs_rules.views import view

__all__ = ["GAME_TYPE", "PegsAndJokersGame", "PegsAndJokersState", "resample"]

GAME_TYPE = pyspiel.GameType(
    short_name="python_pegs_and_jokers",
    long_name="Python Pegs and Jokers",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 4, "preset": "arizona", "max_turns": 2000},
)

_RANKS = list(Rank)


@cache
def _deck(rules: Rules, players: int) -> Counter[Rank]:
    return Counter(build_deck(*rules.deck_for(players)))


class PegsAndJokersGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """Pegs and Jokers for OpenSpiel (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**GAME_TYPE.parameter_specification, **(params or {})}
        self.rules = find_preset(str(params["preset"]))
        self.players = int(params["players"])
        if self.players not in self.rules.player_counts:
            raise ValueError(f"players: the rules allow {self.rules.player_counts}")
        self.max_turns = int(params["max_turns"])
        self.space = ActionSpace(self.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=max(len(Rank), self.players),
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_turns,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> PegsAndJokersState:
        return PegsAndJokersState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(self, perfect_recall)


class PegsAndJokersState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """A game in progress, from before the deal (see the module docstring)."""

    def __init__(self, game: PegsAndJokersGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.players = game.players
        self.space = game.space
        self.max_turns = game.max_turns
        self.dealer: int | None = None
        self.dealt: list[Rank] = []
        self.state: GameState | None = None
        """The position, once dealt and while no draw is outstanding."""
        self.plies: list[tuple[int, Move]] = []
        """Each move made, with the seat that made it."""
        self.log: list[tuple[int | None, str]] = []
        """What happened, in order, with the one seat that saw it (``None``: every seat)."""
        self._before: GameState | None = None
        self._after: GameState | None = None
        self._engine: list[Rank] = []
        """The cards the engine drew for the outstanding draws, in order."""
        self._draws: list[tuple[int, Counter[Rank]]] = []
        """The draws still to make: the drawing seat and the pile it draws from."""
        self._chosen: list[tuple[int, Rank]] = []
        self._moves: dict[int, Move] | None = None

    # -- whose turn, and what can be done ------------------------------------

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.state is None:
            return int(pyspiel.PlayerId.CHANCE)
        return self.state.turn

    def is_terminal(self) -> bool:
        state = self.state
        return state is not None and (state.winner is not None or state.ply >= self.max_turns)

    def returns(self) -> list[float]:
        state = self.state
        if state is None or state.winner is None:
            return [0.0] * self.players
        return [1.0 if seat % 2 == state.winner else -1.0 for seat in range(self.players)]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.legal_moves())

    def legal_moves(self) -> dict[int, Move]:
        """The legal moves of the seat to act, by action number."""
        if self._moves is None:
            state = self.state
            assert state is not None
            self._moves = self.space.legal(view(state, state.turn), legal_moves(state))
        return self._moves

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.dealer is None:
            return [(seat, 1.0 / self.players) for seat in range(self.players)]
        pile = self._draws[len(self._chosen)][1] if self._draws else self._undealt()
        total = sum(pile.values())
        return [(rank - 1, count / total) for rank, count in sorted(pile.items()) if count]

    def _undealt(self) -> Counter[Rank]:
        return _deck(self.rules, self.players) - Counter(self.dealt)

    def _dealing(self) -> int:
        """How many cards the deal gives out."""
        return self.rules.hand_size * self.players + self.rules.draw_first

    # -- moves ----------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        if self.state is not None:
            self._play(self.legal_moves()[action])
        elif self.dealer is None:
            self.dealer = action
            self.log.append((None, f"seat {action} deals"))
        elif self._draws:
            self._draw(_RANKS[action])
        else:
            card = _RANKS[action]
            i = len(self.dealt)
            seat = (self.dealer + 1 + i % self.players) % self.players
            got = "draws" if i == self.rules.hand_size * self.players else "is dealt"
            self.log.append((seat, f"seat {seat} {got} {card.name}"))
            self.dealt.append(card)
            if len(self.dealt) == self._dealing():
                deck = tuple(self.dealt) + tuple(sorted(self._undealt().elements()))
                self.state = deal(self.rules, self.players, self.dealer, deck, 0)
                self._moves = None

    def _play(self, move: Move) -> None:
        state = self.state
        assert state is not None
        after, events = apply_with_events(state, move)
        self.plies.append((state.turn, move))
        self.log.append((None, f"seat {state.turn}: {move}"))
        self._moves = None
        draws: list[tuple[int, Counter[Rank]]] = []
        engine: list[Rank] = []
        pile: Counter[Rank] = Counter()
        for event in events:
            if isinstance(event, CardsDrawn):
                assert event.cards is not None
                pile.update(event.cards)  # the same Counter for every draw from this pile
                draws += [(event.seat, pile)] * event.count
                engine += event.cards
            elif isinstance(event, Reshuffled):
                pile = Counter()
        if not draws:
            self.state = after
            return
        pile.update(after.draw_pile)
        self._before, self._after, self._engine = state, after, engine
        self._draws, self._chosen = draws, []
        self.state = None

    def _draw(self, card: Rank) -> None:
        seat, pile = self._draws[len(self._chosen)]
        pile[card] -= 1
        self._chosen.append((seat, card))
        self.log.append((seat, f"seat {seat} draws {card.name}"))
        if len(self._chosen) < len(self._draws):
            return
        after = self._after
        assert after is not None
        hands = [Counter(hand) for hand in after.hands]
        for (seat, _), engine_card in zip(self._draws, self._engine, strict=True):
            hands[seat][engine_card] -= 1
        for seat, chosen in self._chosen:
            hands[seat][chosen] += 1
        self.state = _with_cards(
            after, [tuple(sorted(hand.elements())) for hand in hands], self._draws[-1][1]
        )
        self._before = self._after = None
        self._draws, self._chosen = [], []

    # -- what players see -----------------------------------------------------

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.dealer is None:
                return f"seat {action} deals"
            return f"card {_RANKS[action].name}"
        state = self.state
        if state is not None and action in self.legal_moves():
            return str(self.legal_moves()[action])
        return self.space.describe(action)

    def position(self) -> GameState | None:
        """The last position without an outstanding draw (``None`` before the deal)."""
        return self.state if self.state is not None else self._before

    def __str__(self) -> str:
        if self.state is None:
            return f"dealing: dealer {self.dealer}, {len(self.dealt)} cards dealt"
        return f"ply {self.state.ply}, seat {self.state.turn} to act"

    def information_state(self, player: int) -> str:
        """``player``'s whole history (see the module docstring)."""
        seen = (line for seat, line in self.log if seat is None or seat == player)
        return "\n".join([f"seat {player} of {self.players}", *seen])


def resample(state: PegsAndJokersState, player: int, rng: random.Random) -> PegsAndJokersState:
    """A copy of ``state`` (at a player's turn) in which the cards ``player`` cannot see are
    dealt afresh from ``rng``: the others' hands, of their sizes, and the draw pile; and in
    whose history only what ``player`` saw is kept (see the module docstring)."""
    position = state.state
    if position is None:
        raise ValueError("resample: only at a player's turn")
    unseen = _deck(state.rules, state.players) - Counter(position.hands[player])
    unseen -= Counter(position.discard_pile)
    cards = sorted(unseen.elements())
    rng.shuffle(cards)
    hands = []
    for seat, hand in enumerate(position.hands):
        if seat == player:
            hands.append(hand)
        else:
            hands.append(tuple(sorted(cards[: len(hand)])))
            del cards[: len(hand)]
    copy: PegsAndJokersState = state.clone()
    copy.state = _with_cards(position, hands, Counter(cards))
    copy.log = [(seat, line) for seat, line in state.log if seat in (None, player)]
    return copy


def _with_cards(state: GameState, hands: list[tuple[Rank, ...]], pile: Counter[Rank]) -> GameState:
    """``state`` with ``hands`` and a draw pile of ``pile``'s cards."""
    return dataclasses.replace(state, hands=tuple(hands), draw_pile=tuple(sorted(pile.elements())))


class _Observer:
    """OpenSpiel's observer of the game: the observation tensor, with the recent plies when
    asked for perfect recall (the information-state tensor)."""

    def __init__(self, game: PegsAndJokersGame, perfect_recall: bool) -> None:
        self.players = game.players
        self.perfect_recall = perfect_recall
        size = observation_size(self.players)
        if perfect_recall:
            size += RECENT * ply_size(self.players)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PegsAndJokersState, player: int) -> None:
        self.tensor.fill(0.0)
        position = state.position()
        size = observation_size(self.players)
        if position is not None:
            self.tensor[:size] = observation(view(position, player))
        if self.perfect_recall:
            self.tensor[size:] = recent_plies(state.plies, player, self.players)

    def string_from(self, state: PegsAndJokersState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state(player)
        position = state.position()
        if position is None:
            return f"seat {player}: before the deal"
        seen = view(position, player)
        hand = " ".join(card.name for card in seen.hand)
        pegs = "; ".join(
            f"{seat}: {' '.join(map(str, locations))}" for seat, locations in enumerate(seen.pegs)
        )
        top = seen.discard_pile[-1].name if seen.discard_pile else "-"
        return (
            f"seat {player}, ply {position.ply}, seat {position.turn} to act; hand {hand}; "
            f"pegs {pegs}; discard top {top}; draw pile {seen.draw_pile_size}"
        )


pyspiel.register_game(GAME_TYPE, PegsAndJokersGame)
