"""Bots' playouts: one turn of a cheap policy, chosen and carried out in change codes.

The search bot (:class:`~pegs_rules.bots.MctsBot`) plays many turns it never
shows anyone. This module chooses them from the generator's integer results
(:mod:`pegs_rules.plays`) and carries them out as :func:`~pegs_rules.apply`
would, without making a :class:`~pegs_rules.Play` or a
:class:`~pegs_rules.Step`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from pegs_rules.board import team_of
from pegs_rules.cards import Rank
from pegs_rules.movegen import made_for, movable_seats, work_board
from pegs_rules.moves import Step
from pegs_rules.plays import Board, card_plays
from pegs_rules.sequence import carry_out
from pegs_rules.state import GameState

_JOKER: Final = Rank.JOKER
"""The joker, as a constant: the compiled build reads it without a lookup."""

Option = tuple[Rank | None, list[int]]
"""A card to play (``None``: pass) and the change codes it makes (none for a discard)."""


def single_peg_options(
    board: Board, seats: Sequence[int], ranks: Sequence[Rank]
) -> tuple[list[Option], bool, bool]:
    """The plays of ``ranks`` (in order) that move one peg, in :func:`~pegs_rules.legal_moves`
    order; whether a card other than a joker has one; whether a card that may split or swap is
    held.

    Every play listed is legal; only the plays that move two pegs are left
    out, so when no card but a joker has a play here the hand may still have
    splits or swaps.
    """
    options: list[Option] = []
    other = False
    for rank in ranks:
        found = card_plays(board, seats, rank, pairs=False)
        if found:
            options += [(rank, found[key]) for key in sorted(found)]
            other = other or rank is not _JOKER
    return options, other, not board.switches.pairing.isdisjoint(ranks)


def every_option(board: Board, seats: Sequence[int], ranks: Sequence[Rank]) -> list[Option]:
    """Every legal move of ``ranks`` (in order) as an option, in :func:`~pegs_rules.legal_moves`
    order."""
    options: list[Option] = []
    must_play = False
    for rank in ranks:
        found = card_plays(board, seats, rank)
        options += [(rank, found[key]) for key in sorted(found)]
        must_play = must_play or (bool(found) and rank is not _JOKER)
    if not must_play:
        options += [(rank, []) for rank in ranks]
    return options


def playout(
    state: GameState, rng: random.Random, epsilon: float, values: Values, turns: int
) -> GameState:
    """Play ``turns`` turns (fewer if the game ends) with the cheap policy of :func:`playout_turn`."""
    if state.winner is not None or not turns:
        return state
    board = work_board(state.pegs, team_of(state.turn), state.rules)
    for _ in range(turns):
        state, changes = _turn(state, board, rng, epsilon, values)
        if state.winner is not None:
            break
        board.move(changes)
        board.team = state.turn & 1
    return state


def playout_turn(state: GameState, rng: random.Random, epsilon: float, values: Values) -> GameState:
    """One turn of a playout: the option whose changes gain most in ``values``, carried out.

    ``values.by_slot[seat][slot]`` is what a peg of ``seat`` on ``slot`` is worth. The
    options are the plays that move one peg, with the discards when no card
    but a joker has one; every legal move when the hand may have nothing but
    splits or swaps. With chance ``epsilon`` a random option instead; ties
    at random. The result is what :func:`~pegs_rules.apply` gives for the same move.
    """
    board = work_board(state.pegs, team_of(state.turn), state.rules)
    return _turn(state, board, rng, epsilon, values)[0]


def _turn(
    state: GameState,
    board: Board,
    rng: random.Random,
    epsilon: float,
    values: Values,
) -> tuple[GameState, list[int]]:
    """:func:`playout_turn` on ``board`` (the pegs of ``state``): the state after, and the
    changes made."""
    seat = state.turn
    hand = state.hands[seat]
    if not hand:
        return carry_out(state, None, ()), []
    seats = movable_seats(state)
    ranks = sorted(set(hand))
    options, other, may_pair = single_peg_options(board, seats, ranks)
    if not other and may_pair:  # the hand may have nothing but splits: ask for everything
        options = every_option(board, seats, ranks)
    elif not other:
        options += [(rank, []) for rank in ranks]
    if len(options) == 1 or rng.random() < epsilon:
        card, changes = rng.choice(options)
    else:
        card, changes = _best(options, seat & 1, values, rng)
    return carry_out(state, card, _located(board, changes)), changes


class Values:
    """What a peg of each colour is worth on each slot, ``by_slot[seat][slot]``, and what each
    change gains team 0 (worked out once, when first met)."""

    def __init__(self, by_slot: list[list[float]]) -> None:
        self.by_slot = by_slot
        self.size = len(by_slot[0])
        self.gains: dict[int, float] = {}

    def gain(self, change: int) -> float:
        """What ``change`` gains team 0: its colour's value after less before, for team 0's
        colours, and the other way round for team 1's."""
        gain = self.gains.get(change)
        if gain is None:
            colour, move = divmod(change, self.size * self.size)
            src, dst = divmod(move, self.size)
            row = self.by_slot[colour]
            delta = row[dst] - row[src]
            gain = self.gains[change] = -delta if colour & 1 else delta
        return gain


def _best(options: list[Option], team: int, values: Values, rng: random.Random) -> Option:
    """The option whose changes gain ``team`` most; ties at random."""
    gains = values.gains
    best: list[Option] = []
    best_gain = -math.inf
    for option in options:
        gain = 0.0
        for change in option[1]:
            delta = gains.get(change)
            gain += values.gain(change) if delta is None else delta
        if team:
            gain = -gain
        if gain > best_gain:
            best, best_gain = [option], gain
        elif gain == best_gain:
            best.append(option)
    return best[0] if len(best) == 1 else rng.choice(best)


def _located(board: Board, changes: list[int]) -> list[Step]:
    """``changes`` as steps, ``(seat, from, to)`` in locations."""
    made = made_for(board.paths)
    return [made.step(change) for change in changes]
