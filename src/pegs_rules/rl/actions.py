"""The fixed discrete action space: every move as one whole number, seen from the seat to act.

An :class:`ActionSpace` numbers every move a seat could make in a game of
``players`` seats, under any preset and house rules. The numbers are relative
to the seat to act (``me``), so one action means the same thing whoever acts.
They name pegs and holes as that seat sees them:

* a *colour* is one of the acting seat's team: colour ``m`` (``0 .. players/2 - 1``)
  is seat ``(me + 2m) % players``; colour 0 is the seat's own;
* a *peg* is ``5m + k``: slot ``k`` (0..4) of colour ``m``, slots taken in order of
  progress along that colour's way home: pegs in start first, then track pegs from
  the farthest to the nearest to the colour's in-spot, then home 1 to home 5 (pegs
  in start are alike, and a move of one uses the lowest such slot);
* a *hole* is a main-track hole counted clockwise from the acting seat's corner:
  hole ``h`` is track hole ``(18 * me + h) % (18 * players)``.

With ``P = 5 * players / 2`` pegs and ``L = 18 * players`` holes the numbers
come in six blocks, in this order; action ``offset + i`` of a block means:

* ``play`` (``26 * P`` numbers), ``i = ((rank - 1) * P + peg) * 2 + route``:
  play ``rank`` (A=1 .. K=13) with one peg. Route 0: a peg in start comes
  out, an 8 goes back 8 holes, any other card goes forward along the track;
  route 1: forward into (or within) the home lane.
* ``joker`` (``P * L``), ``i = peg * L + hole``: a joker moves ``peg`` onto ``hole``.
* ``swap`` (``P * L``), ``i = peg * L + hole``: a 2 swaps ``peg`` with the peg
  on ``hole`` (``variant.two-swap``).
* ``split`` (``144 * P * P``),
  ``i = ((((card * P + peg1) * 8 + a - 1) * 3 + kind1) * P + peg2) * 3 + kind2``:
  split a 7 (``card`` 0) or a 9 (``card`` 1): ``peg1`` moves ``a`` (1..8)
  holes first, then ``peg2`` the rest. A part's kind is 0 forward along the
  track, 1 forward into or within home, 2 backward. ``peg2`` names the peg by
  its slot before the move, even when the first part has knocked it on to its
  in-spot.
* ``discard`` (14), ``i = rank - 1``: discard ``rank`` (A=1 .. JK=14).
* ``pass`` (1): pass.

A split of two parts that could go in either order is listed by
:func:`~pegs_rules.legal_moves` once, in one order, and has one number;
so does a swap of two pegs the seat may both move. Most numbers name no legal
move in a given position: :meth:`ActionSpace.legal` numbers those that do (the
environment's ``action_mask`` marks them).

>>> from pegs_rules import new_game, legal_moves, view
>>> game = new_game(4, seed=1)
>>> space = ActionSpace(4)
>>> space.size
16115
>>> seen = view(game, game.turn)
>>> move = legal_moves(game)[0]
>>> action = space.encode(seen, move)
>>> str(move), action, space.describe(action)
('discard 7', 16106, 'discard 7')
>>> space.decode(seen, action) == move
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import NamedTuple

from pegs_rules.board import (
    HOME_HOLES,
    IN_SPOT_OFFSET,
    PEGS_PER_SEAT,
    SIDE_HOLES,
    START,
    Location,
    home,
    home_index,
    is_home,
    is_track,
    team_of,
)
from pegs_rules.cards import Rank
from pegs_rules.errors import PegsError
from pegs_rules.moves import Discard, Move, Pass, Play, Step
from pegs_rules.rules import Control, InSpotOccupied
from pegs_rules.state import board_for
from pegs_rules.views import PlayerView

__all__ = ["ActionError", "ActionSpace", "peg_slots"]

MAX_PART = 8
"""The longest part of a split (a 9 split 8 + 1)."""
KINDS = ("forward", "home", "back")
"""The kinds of a split part, by number."""
_SPLIT_CARDS = (Rank.SEVEN, Rank.NINE)


class _Split(NamedTuple):
    """A split action's fields: each part's peg slot, length in holes and kind (``KINDS``)."""

    rank: Rank
    peg1: int
    holes1: int
    kind1: int
    peg2: int
    holes2: int
    """Can be 0 or less: a number whose first part takes the whole card is no move."""
    kind2: int


class ActionError(PegsError):
    """An action number that is no legal move in the position: out of range or not in the mask."""


@lru_cache(maxsize=4096)
def peg_slots(pegs: tuple[Location, ...], seat: int, players: int) -> tuple[Location, ...]:
    """The locations of one colour's pegs in slot order (see the module docstring).

    >>> peg_slots((40, 1002, -1, 2, 10), seat=0, players=4)
    (-1, 10, 40, 2, 1002)
    """
    length = SIDE_HOLES * players
    spot = SIDE_HOLES * seat + IN_SPOT_OFFSET

    def progress(location: Location) -> int:
        if location == START:
            return -1
        if is_home(location):
            return length + home_index(location)
        return (location - spot - 1) % length  # the in-spot itself is the last track hole

    return tuple(sorted(pegs, key=progress))


@dataclass(frozen=True)
class ActionSpace:
    """The action numbers of a game of ``players`` seats (see the module docstring)."""

    players: int

    def __post_init__(self) -> None:
        board_for(self.players)  # raises ValueError for a seat count no board has

    @property
    def colours(self) -> int:
        """The colours of a team: how many seats' pegs an action may name."""
        return self.players // 2

    @property
    def pegs(self) -> int:
        """``P``: the pegs an action may name."""
        return PEGS_PER_SEAT * self.colours

    @property
    def holes(self) -> int:
        """``L``: main-track holes."""
        return SIDE_HOLES * self.players

    @cached_property
    def blocks(self) -> dict[str, tuple[int, int]]:
        """Each block's name with its first number and size, in order."""
        sizes = {
            "play": 13 * self.pegs * 2,
            "joker": self.pegs * self.holes,
            "swap": self.pegs * self.holes,
            "split": len(_SPLIT_CARDS) * (self.pegs * MAX_PART * len(KINDS)) * self.pegs * 3,
            "discard": len(Rank),
            "pass": 1,
        }
        blocks = {}
        offset = 0
        for name, size in sizes.items():
            blocks[name] = (offset, size)
            offset += size
        return blocks

    @property
    def size(self) -> int:
        """How many action numbers there are: ``0 .. size - 1``."""
        offset, size = self.blocks["pass"]
        return offset + size

    # ------------------------------------------------------------------
    # moves to numbers
    # ------------------------------------------------------------------

    def encode(self, seen: PlayerView, move: Move) -> int:
        """The number of ``move`` by the seat to act, in the position ``seen`` shows.

        ``seen`` may be any seat's view: only the public part (pegs, turn) is used.
        Raises :class:`ActionError` for a move that no number names (one that
        moves a peg of the other team, for example); any legal move has one.
        """
        if isinstance(move, Pass):
            return self.blocks["pass"][0]
        if isinstance(move, Discard):
            return self.blocks["discard"][0] + int(move.card) - 1
        if not isinstance(move, Play) or not 1 <= len(move.steps) <= 2:
            raise ActionError(f"no action names {move!r}")
        me = seen.turn
        first = move.steps[0]
        peg = self._peg(seen, first.seat, first.src)
        if len(move.steps) == 1:
            if move.card is Rank.JOKER:
                return self._offset("joker") + peg * self.holes + self._hole(me, first.dst)
            return (
                self._offset("play")
                + ((int(move.card) - 1) * self.pegs + peg) * 2
                + (1 if is_home(first.dst) else 0)
            )
        second = move.steps[1]
        if move.card is Rank.TWO:
            return self._offset("swap") + peg * self.holes + self._hole(me, first.dst)
        if move.card not in _SPLIT_CARDS:
            raise ActionError(f"no action names {move}: only a 7, a 9 or a 2 moves two pegs")
        a, kind1 = self._part(first)
        _, kind2 = self._part(second)
        peg2 = self._peg(seen, second.seat, self._before(seen, first, second))
        card = _SPLIT_CARDS.index(move.card)
        if not 1 <= a <= MAX_PART:
            raise ActionError(f"no action names {move}: a split part moves 1..{MAX_PART} holes")
        index = (((card * self.pegs + peg) * MAX_PART + a - 1) * 3 + kind1) * self.pegs + peg2
        return self._offset("split") + index * 3 + kind2

    def _offset(self, block: str) -> int:
        return self.blocks[block][0]

    def _hole(self, me: int, location: Location) -> int:
        if not is_track(location) or location >= self.holes:
            raise ActionError(f"not a track hole: {location}")
        return (location - SIDE_HOLES * me) % self.holes

    def _peg(self, seen: PlayerView, seat: int, location: Location) -> int:
        """The peg number of ``seat``'s peg at ``location``."""
        me = seen.turn
        if not 0 <= seat < self.players or team_of(seat) != team_of(me):
            raise ActionError(f"seat {seat} is not a colour of seat {me}'s team")
        slots = peg_slots(seen.pegs[seat], seat, self.players)
        if location not in slots:
            raise ActionError(f"seat {seat} has no peg at {location}")
        return PEGS_PER_SEAT * (((seat - me) % self.players) // 2) + slots.index(location)

    def _part(self, step: Step) -> tuple[int, int]:
        """How far a split part goes, and its kind."""
        seat, src, dst = step
        length = self.holes
        if is_home(dst):
            if is_home(src):
                return home_index(dst) - home_index(src), 1
            spot = SIDE_HOLES * seat + IN_SPOT_OFFSET
            return (spot - src) % length + home_index(dst), 1
        if not (is_track(src) and is_track(dst)):
            raise ActionError(f"not a split part: {step}")
        ahead = (dst - src) % length
        return (ahead, 0) if ahead <= MAX_PART else ((src - dst) % length, 2)

    def _before(self, seen: PlayerView, first: Step, second: Step) -> Location:
        """Where the peg that ``second`` moves stood before ``first``.

        Only a knock moves a peg the first part did not move, and a knocked
        peg the second part can still move is on its own in-spot (which may
        be the hole the first part left): follow the knocks from the hole the
        first part landed on.
        """
        moved_away = second.seat == first.seat and second.src == first.src
        if second.src in seen.pegs[second.seat] and not moved_away:
            return second.src
        at = _track_colours(seen.pegs)
        hole = first.dst
        for _ in range(self.players):
            victim = at.get(hole)
            if victim is None:
                break
            if victim == second.seat:
                return hole
            hole = SIDE_HOLES * victim + IN_SPOT_OFFSET
        raise ActionError(f"seat {second.seat} has no peg at {second.src} before {first}")

    # ------------------------------------------------------------------
    # numbers to moves
    # ------------------------------------------------------------------

    def decode(self, seen: PlayerView, action: int) -> Move | None:
        """The move that ``action`` names in the position ``seen`` shows (``None`` if none).

        The move is built from the numbers alone, legal or not:
        :meth:`encode` of a legal move decodes to that move. Raises
        :class:`ActionError` for a number out of range.
        """
        self._check(action)
        block, i = self._block_of(action)
        me = seen.turn
        if block == "pass":
            return Pass()
        if block == "discard":
            return Discard(Rank(i + 1))
        if block == "play":
            rest, route = divmod(i, 2)
            rank_index, peg = divmod(rest, self.pegs)
            rank = Rank(rank_index + 1)
            seat, src = self._located(seen, peg)
            dst = self._single_destination(seen, rank, seat, src, route)
            return None if dst is None else Play(rank, (Step(seat, src, dst),))
        if block in ("joker", "swap"):
            peg, hole = divmod(i, self.holes)
            seat, src = self._located(seen, peg)
            dst = (SIDE_HOLES * me + hole) % self.holes
            if block == "joker":
                return Play(Rank.JOKER, (Step(seat, src, dst),))
            other = _track_colours(seen.pegs).get(dst)
            if other is None or not is_track(src):
                return None
            steps = [Step(seat, src, dst), Step(other, dst, src)]
            if team_of(other) == team_of(me) and seen.rules.control is Control.TEAM:
                steps.sort()  # both pegs movable: the steps in order, as legal_moves lists them
            return Play(Rank.TWO, tuple(steps))
        split = self._split_of(i)
        seat1, src1 = self._located(seen, split.peg1)
        dst1 = self._part_destination(seat1, src1, split.holes1, split.kind1)
        seat2, src2 = self._located(seen, split.peg2)
        if dst1 is None or split.peg1 == split.peg2 or split.holes2 <= 0:
            return None
        first = Step(seat1, src1, dst1)
        src2 = self._after(seen, first, seat2, src2)
        dst2 = self._part_destination(seat2, src2, split.holes2, split.kind2)
        return None if dst2 is None else Play(split.rank, (first, Step(seat2, src2, dst2)))

    def block(self, action: int) -> str:
        """The name of the block ``action`` is in (``"play"``, ``"split"``, ...)."""
        self._check(action)
        return self._block_of(action)[0]

    def _check(self, action: object) -> None:
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < self.size:
            raise ActionError(f"not an action: {action!r} (0 .. {self.size - 1})")

    def _split_of(self, i: int) -> _Split:
        """The split numbered ``i`` within the split block."""
        rest, kind2 = divmod(i, 3)
        rest, peg2 = divmod(rest, self.pegs)
        rest, kind1 = divmod(rest, 3)
        rest, a_index = divmod(rest, MAX_PART)
        card, peg1 = divmod(rest, self.pegs)
        rank = _SPLIT_CARDS[card]
        total = 7 if rank is Rank.SEVEN else 9
        return _Split(rank, peg1, a_index + 1, kind1, peg2, total - a_index - 1, kind2)

    def _block_of(self, action: int) -> tuple[str, int]:
        for name, (offset, size) in self.blocks.items():
            if action < offset + size:
                return name, action - offset
        raise AssertionError("unreachable: the action was checked against the size")

    def _located(self, seen: PlayerView, peg: int) -> tuple[int, Location]:
        """The seat and location of peg number ``peg``."""
        colour, slot = divmod(peg, PEGS_PER_SEAT)
        seat = (seen.turn + 2 * colour) % self.players
        return seat, peg_slots(seen.pegs[seat], seat, self.players)[slot]

    def _single_destination(
        self, seen: PlayerView, rank: Rank, seat: int, src: Location, route: int
    ) -> Location | None:
        if src == START:
            return SIDE_HOLES * seat + 8 if route == 0 else None  # board.geometry: come-out
        if rank is Rank.EIGHT:
            return self._part_destination(seat, src, 8, 2) if route == 0 else None
        if rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
            steps = seen.rules.face_values[rank - Rank.JACK]
        else:
            steps = int(rank)
        return self._part_destination(seat, src, steps, route)

    def _part_destination(self, seat: int, src: Location, n: int, kind: int) -> Location | None:
        """Where ``n`` holes of the given kind take ``seat``'s peg from ``src``, if anywhere."""
        if src == START:
            return None
        if is_home(src):
            k = home_index(src) + n
            return home(k) if kind == 1 and k <= HOME_HOLES else None
        if kind == 0:
            return (src + n) % self.holes
        if kind == 2:
            return (src - n) % self.holes
        k = n - (SIDE_HOLES * seat + IN_SPOT_OFFSET - src) % self.holes
        return home(k) if 1 <= k <= HOME_HOLES else None

    def _after(self, seen: PlayerView, first: Step, seat: int, location: Location) -> Location:
        """Where ``seat``'s peg at ``location`` stands after ``first`` (``move.landing.in-spot``).

        Follows the knocks as the engine settles a landing: a team peg knocked
        off goes to its in-spot, knocking on any other team colour there.
        """
        at = _track_colours(seen.pegs)
        at.pop(first.src, None)
        hole = first.dst
        victim = at.get(hole) if is_track(hole) else None
        at[hole] = first.seat
        for _ in range(self.players):
            if victim is None or team_of(victim) != team_of(first.seat):
                break
            spot = SIDE_HOLES * victim + IN_SPOT_OFFSET
            after = at.get(spot)
            held = spot == hole or after is not None
            if (held and seen.rules.in_spot_occupied is not InSpotOccupied.CHAIN) or (
                spot == hole or after == victim
            ):
                break  # the knocked peg goes to its start, or the move is illegal
            if victim == seat and hole == location:
                return spot
            at[spot] = victim
            victim, hole = after, spot
        return location

    # ------------------------------------------------------------------
    # masks and names
    # ------------------------------------------------------------------

    def legal(self, seen: PlayerView, moves: Sequence[Move]) -> dict[int, Move]:
        """The number of each of ``moves`` (the legal moves in ``seen``), number to move."""
        numbered = {self.encode(seen, move): move for move in moves}
        if len(numbered) != len(moves):
            raise ActionError("two moves share a number")  # never, for legal_moves' lists
        return numbered

    def describe(self, action: int) -> str:
        """What ``action`` means, in words, whatever the position.

        >>> space = ActionSpace(4)
        >>> space.describe(space.blocks["split"][0] + 3 * 5 + 1)
        'split 7: peg 0 forward 1, then peg 5 into home 6'
        """
        self._check(action)
        block, i = self._block_of(action)
        if block == "pass":
            return "pass"
        if block == "discard":
            return f"discard {Rank(i + 1)}"
        if block == "play":
            rest, route = divmod(i, 2)
            rank_index, peg = divmod(rest, self.pegs)
            how = "into home" if route else "along the track (or out of start)"
            return f"play {Rank(rank_index + 1)}: peg {peg} {how}"
        if block in ("joker", "swap"):
            peg, hole = divmod(i, self.holes)
            verb = (
                "joker: peg {} onto hole {}" if block == "joker" else "swap 2: peg {} with hole {}"
            )
            return verb.format(peg, hole)
        split = self._split_of(i)
        words = ("forward", "into home", "back")
        return (
            f"split {split.rank}: peg {split.peg1} {words[split.kind1]} {split.holes1}, "
            f"then peg {split.peg2} {words[split.kind2]} {split.holes2}"
        )


def _track_colours(pegs: Sequence[Sequence[Location]]) -> dict[Location, int]:
    """The colour of the peg on each occupied track hole."""
    return {p: seat for seat, locs in enumerate(pegs) for p in locs if is_track(p)}
