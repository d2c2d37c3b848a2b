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
from pegs_rules.movegen import made_for, seats_to_move, work_board
from pegs_rules.moves import Step
from pegs_rules.plays import Board, card_plays
from pegs_rules.sequence import Table
from pegs_rules.state import GameState

_JOKER: Final = Rank.JOKER
"""The joker, as a constant: the compiled build reads it without a lookup."""

Option = tuple[Rank | None, list[int]]
"""A card to play (``None``: pass) and the change codes it makes (none for a discard)."""

Found = list[tuple[Rank, dict[int, list[int]]]]
"""Each rank held, in order, with its plays as :func:`~pegs_rules.plays.card_plays` finds
them: the change codes of each, by play key (in no order)."""


def single_peg_plays(
    board: Board, seats: tuple[int, ...], ranks: Sequence[Rank]
) -> tuple[Found, bool, bool]:
    """The plays of ``ranks`` that move one peg; whether a card other than a joker has one;
    whether a card that may split or swap is held.

    Every play found is legal; only the plays that move two pegs are left
    out, so when no card but a joker has a play here the hand may still have
    splits or swaps.
    """
    found = [(rank, card_plays(board, seats, rank, pairs=False)) for rank in ranks]
    return found, _playable(found), not board.switches.pairing.isdisjoint(ranks)


def every_play(board: Board, seats: tuple[int, ...], ranks: Sequence[Rank]) -> tuple[Found, bool]:
    """Every legal play of ``ranks``; whether a card other than a joker has one."""
    found = [(rank, card_plays(board, seats, rank)) for rank in ranks]
    return found, _playable(found)


def _playable(found: Found) -> bool:
    """Whether a card other than a joker has a play in ``found`` (``turn.must-play``)."""
    return any(plays and rank is not _JOKER for rank, plays in found)


def in_order(found: Found, discards: Sequence[Rank]) -> list[Option]:
    """The plays of ``found``, then the discards of ``discards``, as options in
    :func:`~pegs_rules.legal_moves` order."""
    options: list[Option] = [(rank, plays[key]) for rank, plays in found for key in sorted(plays)]
    return options + [(rank, []) for rank in discards]


def playout(
    state: GameState, rng: random.Random, epsilon: float, values: Values, turns: int
) -> GameState:
    """Play ``turns`` turns (fewer if the game ends) with the cheap policy of :func:`playout_turn`.

    The turns are carried out on a :class:`~pegs_rules.sequence.Table`: only the
    state after the last is made.
    """
    if state.winner is not None or not turns:
        return state
    table = Table(state)
    board = work_board(state.pegs, team_of(state.turn), state.rules)
    for _ in range(turns):
        changes = _turn(table, board, rng, epsilon, values)
        if table.winner is not None:
            break
        board.move(changes)
        board.team = table.turn & 1
    return table.state()


def playout_turn(state: GameState, rng: random.Random, epsilon: float, values: Values) -> GameState:
    """One turn of a playout: the option whose changes gain most in ``values``, carried out.

    ``values.by_slot[seat][slot]`` is what a peg of ``seat`` on ``slot`` is worth. The
    options are the plays that move one peg, with the discards when no card
    but a joker has one; every legal move when the hand may have nothing but
    splits or swaps. With chance ``epsilon`` a random option instead; ties
    at random. The result is what :func:`~pegs_rules.apply` gives for the same move
    (a finished game stays as it is).
    """
    return playout(state, rng, epsilon, values, 1)


def _turn(
    table: Table,
    board: Board,
    rng: random.Random,
    epsilon: float,
    values: Values,
) -> list[int]:
    """:func:`playout_turn` on ``table``, ``board`` holding its pegs: the changes made."""
    seat = table.turn
    hand = table.hands[seat]
    if not hand:
        table.carry_out(None, ())
        return []
    seats = seats_to_move(table.pegs, seat, table.rules)
    ranks = sorted(set(hand))
    found, other, may_pair = single_peg_plays(board, seats, ranks)
    if not other and may_pair:  # the hand may have nothing but splits: ask for everything
        found, other = every_play(board, seats, ranks)
    discards = () if other else ranks  # turn.discard
    count = len(discards) + sum([len(plays) for _, plays in found])
    if count == 1 or rng.random() < epsilon:
        card, changes = rng.choice(in_order(found, discards))
    else:
        card, changes = _best(found, discards, seat & 1, values, rng)
    table.carry_out(card, _located(board, changes))
    return changes


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


def _best(
    found: Found, discards: Sequence[Rank], team: int, values: Values, rng: random.Random
) -> Option:
    """The option of :func:`in_order` whose changes gain ``team`` most; ties at random."""
    gains = values.gains
    best: list[tuple[int, Rank, int, list[int]]] = []  # in_order's order: plays, then discards
    best_gain = -math.inf
    for rank, plays in found:
        for key, changes in plays.items():
            gain = 0.0
            for change in changes:
                delta = gains.get(change)
                gain += values.gain(change) if delta is None else delta
            if team:
                gain = -gain
            if gain > best_gain:
                best, best_gain = [(0, rank, key, changes)], gain
            elif gain == best_gain:
                best.append((0, rank, key, changes))
    if discards and best_gain <= 0.0:  # a discard changes nothing
        if best_gain < 0.0:
            best = []
        best += [(1, rank, 0, []) for rank in discards]
    chosen = best[0] if len(best) == 1 else rng.choice(sorted(best))
    return chosen[1], chosen[3]


def _located(board: Board, changes: list[int]) -> list[Step]:
    """``changes`` as steps, ``(seat, from, to)`` in locations."""
    made = made_for(board.paths)
    return [made.step(change) for change in changes]
