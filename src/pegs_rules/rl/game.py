"""A game stepped by action numbers at the engine's own pace: :class:`NumberedGame`.

The environments of this package keep their game in a :class:`NumberedGame`.
It holds the game the way the bots' playouts do (a
:class:`~pegs_rules.sequence.Table` and a :class:`~pegs_rules.plays.Board`,
changed in place turn by turn), numbers the legal moves straight from the
generator's change codes (:mod:`pegs_rules.plays`) only when they are asked
for, and writes observations from the same parts, keeping the discard pile's
counts as cards are played. A move taken by number is carried out from its
change codes; a move given as a move (a bot's) is checked by
:func:`~pegs_rules.apply` and followed on the same board. No
:class:`~pegs_rules.Play`, :class:`~pegs_rules.PlayerView` or
:class:`~pegs_rules.GameState` is made on a turn unless it is asked for.

What it gives is exactly what the documented functions give for the same
game: its :attr:`~NumberedGame.options` are numbered as
:meth:`~pegs_rules.rl.ActionSpace.legal` numbers ``legal_moves(state)``, its
:meth:`~NumberedGame.observation` is, byte for byte,
:func:`~pegs_rules.rl.observation` of the seat's view, and a step leaves the
state :func:`~pegs_rules.apply` leaves. ``tests/test_rl_game.py`` checks all
three after every turn of random games, under both presets and the house rules
that change what a move looks like.

>>> from pegs_rules import new_game, legal_moves, view
>>> from pegs_rules.rl import ActionSpace
>>> space = ActionSpace(4)
>>> game = NumberedGame(new_game(4, seed=1), space)
>>> sorted(game.options) == sorted(space.legal(view(game.state, 2), legal_moves(game.state)))
True
>>> game.step(min(game.options))
>>> game.state.ply
1
"""

from __future__ import annotations

from array import array
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from pegs_rules.board import HOME_HOLES, PEGS_PER_SEAT, SIDE_HOLES, team_of
from pegs_rules.cards import Rank
from pegs_rules.movegen import made_for, play_effects, seats_to_move, work_board
from pegs_rules.moves import Discard, Move, Pass, Play
from pegs_rules.paths import HOME_BASE, IN_SPOT_OFFSET
from pegs_rules.playout import every_play
from pegs_rules.rl.actions import MAX_PART, ActionError, ActionSpace
from pegs_rules.rl.observation import deck_of, observation_size
from pegs_rules.sequence import Table
from pegs_rules.state import GameState
from pegs_rules.turn import apply

__all__ = ["NumberedGame", "Option"]

Option = tuple[Rank | None, int, list[int]]
"""A legal move as the generator found it: the card (``None``: pass), its play key (0 for a
discard or a pass) and its change codes (none for a discard or a pass)."""

_NUMBERS: Final = range(1, max(Rank) + 1)
"""The ranks as plain numbers (an enum member indexes more slowly)."""
_FLOAT32: Final = np.dtype(np.float32)
_JOKER: Final = Rank.JOKER
_TWO: Final = Rank.TWO
_SEVEN: Final = Rank.SEVEN


class NumberedGame:
    """A game whose legal moves are action numbers of ``space`` (see the module docstring).

    Args:
        state: the game to start from (:meth:`load` starts again from another).
        space: the numbering, for the state's seat count.
    """

    def __init__(self, state: GameState, space: ActionSpace) -> None:
        if space.players != state.players:
            raise ValueError(f"a numbering for {space.players} seats, a game of {state.players}")
        self.space = space
        self.layout = _Layout.of(space)
        self.load(state)

    def load(self, state: GameState) -> None:
        """Carry on from ``state``."""
        self.table = Table(state)
        self.board = work_board(state.pegs, team_of(state.turn), state.rules)
        self.made = made_for(self.board.paths)
        self.cap = state.rules.hand_size + 1
        self.deck = deck_of(state.rules, state.players)
        counts = [0] * (len(Rank) + 1)
        for card in state.discard_pile:
            counts[card] += 1
        self.discards = counts
        """How many of each rank lie on the discard pile, by rank."""
        self.shares = array(
            "f", [counts[rank] / self.deck[rank] if counts[rank] else 0.0 for rank in _NUMBERS]
        )
        """The discard pile's part of an observation: each rank's share of its copies."""
        self._reshuffles = state.reshuffles
        self._state: GameState | None = state
        self._options: dict[int, Option] | None = None

    @property
    def options(self) -> dict[int, Option]:
        """Each legal action of the seat to act, with its :data:`Option` (by rank, the plays of
        each in the generator's order, then any discards), found when first asked for."""
        if self._options is None:
            self._options = self._number()
        return self._options

    @property
    def state(self) -> GameState:
        """The game as it stands (made when first asked for after a turn)."""
        if self._state is None:
            self._state = self.table.state()
        return self._state

    @property
    def turn(self) -> int:
        """The seat to act."""
        return self.table.turn

    @property
    def winner(self) -> int | None:
        """The winning team, or ``None`` while the game goes on."""
        return self.table.winner

    @property
    def ply(self) -> int:
        """Turns taken."""
        return self.table.ply

    # ------------------------------------------------------------------
    # the legal moves, numbered
    # ------------------------------------------------------------------

    def _number(self) -> dict[int, Option]:
        """Find and number the legal moves of the seat to act (see :attr:`options`)."""
        table = self.table
        options: dict[int, Option] = {}
        if table.winner is not None:
            return options
        me = table.turn
        hand = table.hands[me]
        offsets = self.layout.offsets
        if not hand:
            options[offsets.pass_] = (None, 0, [])
            return options
        board = self.board
        ranks = sorted(set(hand))
        found, playable = every_play(board, seats_to_move(table.pegs, me, table.rules), ranks)
        numbers = self._peg_numbers(me)
        size = board.size
        key_size = board.key
        layout = self.layout
        length = layout.length
        corner = SIDE_HOLES * me + 1  # the slot of the acting seat's first hole
        for rank, plays in found:
            if rank is _JOKER:  # onto any peg: by the hole
                base = offsets.joker
                for key, changes in plays.items():
                    first = key // key_size  # src: the colour's seat * size + the slot
                    hole = (first % size - corner) % length
                    options[base + numbers[first // size] * length + hole] = (rank, key, changes)
                continue
            base = offsets.play + (rank - 1) * layout.pegs * 2  # one peg: by the route
            for key, changes in plays.items():
                first, second = divmod(key, key_size)
                peg = numbers[first // size]
                if not second:
                    action = base + peg * 2 + (first % size > length)
                elif rank is _TWO:
                    action = offsets.swap + peg * length + (first % size - corner) % length
                else:
                    # the second part's colour and slot, and what the parts add to the number
                    other, fixed = self._split_parts(rank, first, second - 1)
                    if (
                        other >= 0
                        and other != first // size
                        and other % size in board.pegs[other // size]
                    ):
                        action = fixed + layout.peg1 * peg + 3 * numbers[other]
                    else:  # the second part moves a peg that the first knocked on
                        action = self._split(rank, first, second - 1, peg, changes, numbers)
                options[action] = (rank, key, changes)
        if not playable:  # turn.discard
            for rank in ranks:
                options[offsets.discard + rank - 1] = (rank, 0, [])
        return options

    def _peg_numbers(self, me: int) -> dict[int, int]:
        """The peg number (see :mod:`~pegs_rules.rl.actions`) of each peg of the acting team,
        keyed ``seat * slots + slot``; pegs in start share the lowest number of their colour."""
        board = self.board
        progress = self.layout.progress
        players = self.layout.players
        numbers: dict[int, int] = {}
        for colour in range(players // 2):
            seat = (me + 2 * colour) % players
            base = seat * board.size
            order = progress[seat]
            for k, slot in enumerate(sorted(board.pegs[seat], key=order.__getitem__)):
                numbers.setdefault(base + slot, PEGS_PER_SEAT * colour + k)
        return numbers

    def _split(
        self,
        rank: Rank,
        first: int,
        second: int,
        peg1: int,
        changes: list[int],
        numbers: dict[int, int],
    ) -> int:
        """The number of the split of ``rank`` whose parts make changes ``first`` and
        ``second`` (``changes``: every change it makes, knock-ons included; ``peg1``: the
        number of the peg its first part moves)."""
        board = self.board
        size = board.size
        part1, part2 = self._part_numbers(first, second)
        colour_slot = second // size
        seat2, src2 = divmod(colour_slot, size)
        before = src2
        if colour_slot == first // size or src2 not in board.pegs[seat2]:
            # the first part knocked this peg on to src2, its in-spot: from where?
            before = -1
            for change in changes[1 : changes.index(second)]:
                seat, move = divmod(change, size * size)
                if seat == seat2 and move % size == src2:
                    before = move // size
        if part1 < 0 or before < 0:
            raise ActionError(f"no action names the {rank} split of changes {changes}")
        pegs = self.layout.pegs
        peg2 = numbers[seat2 * size + before]
        card = 0 if rank is _SEVEN else 1
        index = ((card * pegs + peg1) * MAX_PART * 3 + part1) * pegs + peg2
        return self.layout.offsets.split + index * 3 + part2 % 3

    def _part_numbers(self, first: int, second: int) -> tuple[int, int]:
        """The numbers of the parts that make changes ``first`` and ``second`` (see
        :meth:`_part`), remembered in the layout."""
        parts = self.layout.parts
        part1 = parts.get(first)
        if part1 is None:
            part1 = self._part(first)
        part2 = parts.get(second)
        if part2 is None:
            part2 = self._part(second)
        return part1, part2

    def _split_parts(self, rank: Rank, first: int, second: int) -> tuple[int, int]:
        """What the number of a split of ``rank`` whose parts make changes ``first`` and
        ``second`` owes to the parts alone: the colour and slot of the peg the second part
        moves (``seat * slots + slot``), and the number less what the pegs' numbers add
        (``peg1`` times :attr:`_Layout.peg1`, ``3 * peg2``); -1 and 0 if no number names it."""
        part1, part2 = self._part_numbers(first, second)
        if part1 < 0:
            return -1, 0
        pegs = self.layout.pegs
        card = 0 if rank is _SEVEN else 1
        fixed = ((card * pegs * MAX_PART * 3 + part1) * pegs) * 3 + part2 % 3
        return second // self.board.size, self.layout.offsets.split + fixed

    def _part(self, change: int) -> int:
        """The split part of change code ``change`` as ``(holes - 1) * 3 + kind`` (see
        :data:`~pegs_rules.rl.actions.KINDS`; -1 for a part too long to number), remembered."""
        size = self.board.size
        length = self.layout.length
        seat, move = divmod(change, size * size)
        src, dst = divmod(move, size)
        if dst > length:  # into or within home
            spot = SIDE_HOLES * seat + IN_SPOT_OFFSET + 1
            holes = dst - src if src > length else (spot - src) % length + dst - length
            kind = 1
        else:
            holes = (dst - src) % length
            kind = 0
            if holes > MAX_PART:
                holes, kind = (src - dst) % length, 2
        part = (holes - 1) * 3 + kind if 1 <= holes <= MAX_PART else -1
        self.layout.parts[change] = part
        return part

    def moves(self) -> dict[int, Move]:
        """The legal moves of the seat to act, by action number, in ``legal_moves`` order."""
        made = self.made
        moves: dict[int, Move] = {}
        for action, (card, key, _) in sorted(self.options.items(), key=_listed):
            if card is None:
                moves[action] = Pass()
            elif key:
                moves[action] = made.play(card, key)
            else:
                moves[action] = Discard(card)
        return moves

    # ------------------------------------------------------------------
    # turns
    # ------------------------------------------------------------------

    def step(self, action: int) -> None:
        """The seat to act makes the move numbered ``action``, one of :attr:`options`.

        Raises :class:`~pegs_rules.rl.ActionError` for any other number.
        """
        option = self.options.get(action)
        if option is None:
            raise ActionError(f"action {action!r} is not a legal move here")
        card, _, changes = option
        step = self.made.step
        self.table.carry_out(card, [step(change) for change in changes])
        self._moved(card, changes, None)

    def play(self, move: Move) -> None:
        """The seat to act makes ``move``, given as a move (bots play so).

        Raises :class:`~pegs_rules.IllegalMoveError` for a move that is not legal.
        """
        before = self.state
        after = apply(before, move)
        board = self.board
        changes = []
        if isinstance(move, Play):
            length = board.paths.length
            for seat, src, dst in play_effects(before, move) or ():
                changes.append(board.code(seat, _slot(src, length), _slot(dst, length)))
        self.table = Table(after)
        self._moved(move.card if isinstance(move, (Play, Discard)) else None, changes, after)

    def _moved(self, card: Rank | None, changes: list[int], state: GameState | None) -> None:
        """Bring the board, the discard counts and the options up to the turn just taken."""
        table = self.table
        board = self.board
        board.move(changes)
        board.team = table.turn & 1
        if card is not None:
            self.discards[card] += 1
            self.shares[card - 1] = self.discards[card] / self.deck[card]
        if table.deal.reshuffles != self._reshuffles:  # the discard pile became the draw pile
            self._reshuffles = table.deal.reshuffles
            self.discards = [0] * (len(Rank) + 1)
            self.shares = array("f", bytes(4 * len(Rank)))
        self._state = state
        self._options = None

    # ------------------------------------------------------------------
    # observations
    # ------------------------------------------------------------------

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """What ``seat`` observes: :func:`~pegs_rules.rl.observation` of its view.

        Written into a Python ``array`` of ``float32`` (a store there costs a
        fraction of one into a numpy array) that numpy then takes over, uncopied.
        """
        layout = self.layout
        table = self.table
        hands = table.hands
        out = layout.blank[:]
        index = layout.index[seat]
        for other, slots in enumerate(self.board.pegs):
            row = index[other]
            for slot in slots:
                if slot:
                    out[row[slot]] = 1.0
        # the rest, from the pegs in start on: only what is not 0 is written
        cap = self.cap
        start = self.board.start
        at = layout.starts
        sizes = layout.sizes
        for r, other in enumerate(layout.order[seat]):
            if start[other]:
                out[at + r] = start[other] / PEGS_PER_SEAT
            out[sizes + r] = len(hands[other]) / cap
        hand = hands[seat]
        at = layout.hand - 1
        for card in set(hand):
            out[at + card] = hand.count(card) / cap
        out[layout.discards : layout.draw] = self.shares
        out[layout.draw] = (len(table.deal.cards) - table.drawn) / self.deck[0]
        out[layout.draw + 1 + (table.turn - seat) % layout.players] = 1.0
        return np.frombuffer(out, _FLOAT32)


def _slot(location: int, length: int) -> int:
    """The generator's slot of ``location`` (see :mod:`pegs_rules.paths`)."""
    return location - HOME_BASE + length if location > HOME_BASE else location + 1


def _listed(item: tuple[int, Option]) -> tuple[bool, int, int]:
    """Where an option comes in ``legal_moves``: plays by rank and key, then discards by rank."""
    card, key, _ = item[1]
    return not key, card or 0, key


class _Offsets:
    """Each block's first number (see :attr:`~pegs_rules.rl.ActionSpace.blocks`)."""

    def __init__(self, space: ActionSpace) -> None:
        blocks = space.blocks
        self.play = blocks["play"][0]
        self.joker = blocks["joker"][0]
        self.swap = blocks["swap"][0]
        self.split = blocks["split"][0]
        self.discard = blocks["discard"][0]
        self.pass_ = blocks["pass"][0]


class _Layout:
    """Tables made once per numbering (that is, per seat count): where each peg goes in an
    observation, the order of progress on each colour's slots, each split part met so far."""

    def __init__(self, space: ActionSpace) -> None:
        players = self.players = space.players
        self.length = length = SIDE_HOLES * players
        self.offsets = _Offsets(space)
        self.size = observation_size(players)
        self.blank = array("f", bytes(4 * self.size))
        """An observation of zeros, to copy."""
        homes = players * length
        self.starts = homes + players * HOME_HOLES
        self.hand = self.starts + players
        self.sizes = self.hand + len(Rank)
        self.discards = self.sizes + players
        self.draw = self.discards + len(Rank)
        # index[seat][other][slot]: the entry of a peg of `other` on `slot`, seen by `seat`
        self.index = [
            [
                [-1]
                + [
                    ((other - seat) % players) * length + (t - SIDE_HOLES * seat) % length
                    for t in range(length)
                ]
                + [homes + ((other - seat) % players) * HOME_HOLES + k for k in range(HOME_HOLES)]
                for other in range(players)
            ]
            for seat in range(players)
        ]
        # progress[seat][slot]: how far a peg of `seat` on `slot` has come (see peg_slots)
        self.progress = [
            [-1]
            + [(t - SIDE_HOLES * seat - IN_SPOT_OFFSET - 1) % length for t in range(length)]
            + [length + k for k in range(1, HOME_HOLES + 1)]
            for seat in range(players)
        ]
        # order[seat]: the seats from `seat` on, as it sees them
        self.order = [[(seat + r) % players for r in range(players)] for seat in range(players)]
        self.parts: dict[int, int] = {}
        """Each split part met so far, by change code (see :meth:`NumberedGame._part`)."""
        self.peg1 = MAX_PART * 3 * space.pegs * 3
        """What one more in a split's first peg number adds to its action number."""
        self.pegs = space.pegs

    @staticmethod
    @cache
    def of(space: ActionSpace) -> _Layout:
        return _Layout(space)
