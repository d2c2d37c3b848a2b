"""Legal-move generation.

:func:`legal_moves` lists every legal move of the seat to act, in this order
(deterministic, no duplicates):

1. plays, by card rank (A, 2, ..., K, JK), then by their steps compared as
   ``(seat, from, to)`` tuples (a start area sorts before track holes, track
   holes before home holes);
2. discards, by rank (only when no card but a joker is playable,
   ``turn.discard``);
3. ``pass``, alone, for a seat with no cards.

A rank held twice gives its moves once. A split whose two orders leave the
same position is listed once, in the order that sorts first
(``card.seven.split.order``); so is a swap of two pegs the seat may both
move: the step of the lower seat's peg first (``variant.two-swap.order``).

The plays are found in integer codes by :mod:`pegs_rules.plays`; this module
turns them into :class:`~pegs_rules.Play` objects and remembers the last few
positions' plays.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from functools import cache
from typing import Final

from pegs_rules import plays
from pegs_rules.board import MAX_PLAYERS, Location, team_of
from pegs_rules.cards import FACE_RANKS, Rank
from pegs_rules.errors import PegsError, PositionError
from pegs_rules.moves import Discard, Move, Pass, Play, Step
from pegs_rules.paths import Paths, paths_for
from pegs_rules.rules import Control, InSpotOccupied, JokerSource, Nine, Rules
from pegs_rules.state import GameState
from pegs_rules.validate import reraise

_JOKER: Final = Rank.JOKER
"""The joker, as a constant: the compiled build reads it without a lookup."""


def forward_steps(rank: Rank, rules: Rules) -> int:
    """How far ``rank`` moves a peg forward (0 for the 8 and the joker)."""
    if rank in FACE_RANKS:
        return rules.face_values[rank - Rank.JACK]  # card.face, variant.face-values
    if rank is Rank.EIGHT or rank is Rank.JOKER:
        return 0
    return int(rank)


def splits(rank: Rank, rules: Rules) -> bool:
    """Whether ``rank`` may be split over two pegs (``card.seven.split``, ``card.nine``)."""
    return rank is Rank.SEVEN or (rank is Rank.NINE and rules.nine is not Nine.PLAIN)


def movable_seats(state: GameState) -> tuple[int, ...]:
    """The seats whose pegs the seat to act may move (``team.control``).

    Arizona: every seat of its team. Standard: its own seat until all five of
    its pegs are home, then the first teammate clockwise with a peg out.
    """
    return seats_to_move(state.pegs, state.turn, state.rules)


def seats_to_move(
    pegs: tuple[tuple[Location, ...], ...], seat: int, rules: Rules
) -> tuple[int, ...]:
    """The seats whose pegs ``seat`` may move with ``pegs`` on the board (see
    :func:`movable_seats`)."""
    players = len(pegs)
    if rules.control is Control.TEAM:
        return _team_seats(players, team_of(seat))
    for step in range(0, players, 2):
        mate = (seat + step) % players
        if not all(p > 1000 for p in pegs[mate]):
            return (mate,)
    return (seat,)


@cache
def _team_seats(players: int, team: int) -> tuple[int, ...]:
    return tuple(s for s in range(players) if team_of(s) == team)


Plays = list[tuple[Play, tuple[Step, ...]]]
"""Legal plays of one card in the documented order, each with the changes it makes, landings
included, in the order they happen (the play's own steps when it knocks no peg away)."""


def hand_plays(state: GameState) -> dict[Rank, Plays]:
    """Every legal play of each rank the seat to act holds, ignoring must-play.

    The result is remembered for the last few positions (so that
    :func:`~pegs_rules.apply` finds the plays :func:`legal_moves` found) and
    shared between calls: treat it as read-only. Raises
    :class:`~pegs_rules.errors.PositionError` for pegs off the board or a card
    that is no card.
    """
    return _found(state).plays()


def play_effects(state: GameState, play: Play) -> tuple[Step, ...] | None:
    """The changes ``play`` makes, landings included, in order (see :data:`Plays`), if it is
    one of the listed plays of the seat to act: the very object :func:`legal_moves` gave, or
    one equal to it; ``None`` if it is not listed. Raises as :func:`hand_plays` does."""
    return _found(state).effects(play)


class _Found:
    """What a position offers the seat to act: its plays in order (``listed``), whether a card
    but a joker has one, its legal moves (see :func:`legal_moves`) and, for each rank held in
    order, its play keys in order with each play's change codes (see :mod:`pegs_rules.plays`),
    from which a play's changes are made when asked for."""

    def __init__(
        self,
        made: _Made,
        found: list[tuple[Rank, list[int], dict[int, list[int]]]],
        listed: list[Play],
        playable: bool,
    ) -> None:
        self.made = made
        self.found = found
        self.listed = listed
        self.playable = playable
        discards = [] if playable else [Discard(rank) for rank, _, _ in found]  # turn.discard
        self.moves: tuple[Move, ...] = (*listed, *discards)
        self.by_rank: dict[Rank, Plays] | None = None

    def plays(self) -> dict[Rank, Plays]:
        """Every play with its changes, by rank (made the first time they are asked for)."""
        if self.by_rank is None:
            by_rank: dict[Rank, Plays] = {}
            index = 0
            for rank, keys, changes in self.found:
                listed: Plays = []
                for key in keys:
                    play = self.listed[index]
                    listed.append((play, self.made.effects(play, changes[key])))
                    index += 1
                by_rank[rank] = listed
            self.by_rank = by_rank
        return self.by_rank

    def effects(self, play: Play) -> tuple[Step, ...] | None:
        """See :func:`play_effects`."""
        listed = self.listed
        first = 0
        for rank, keys, changes in self.found:
            if rank == play.card:
                for at in range(first, first + len(keys)):
                    if listed[at] is play:  # the very object legal_moves gave
                        return self.made.effects(play, changes[keys[at - first]])
                for at in range(first, first + len(keys)):
                    if listed[at] == play:
                        return self.made.effects(play, changes[keys[at - first]])
                return None
            first += len(keys)
        return None


def _found(state: GameState) -> _Found:
    """What ``state`` offers the seat to act, found or remembered."""
    last_state, last_found = _memo.last
    if last_state is state and last_found is not None:  # apply right after legal_moves
        return last_found
    if len(state.pegs) not in _SEAT_COUNTS:  # board.sides: no tables for other boards
        raise PositionError(f"a board has 4, 6 or 8 seats, not {len(state.pegs)}")
    ranks = tuple(sorted(set(state.hands[state.turn])))
    for rank in ranks:
        if type(rank) is not Rank:
            raise PositionError(f"hand {state.turn}: not a hand of cards: {ranks!r}")
    seats = movable_seats(state)
    pegs = state.pegs
    rules = state.rules
    key = (id(pegs), seats, ranks, id(rules))
    entry = _memo.entries.get(key)
    if entry is None:
        entry = pegs, rules, _find(pegs, seats, ranks, rules)
        _memo.put(key, entry)
    _memo.last = state, entry[2]
    return entry[2]


_Entry = tuple[tuple[tuple[Location, ...], ...], Rules, _Found]
"""A remembered position: its pegs and rules (kept alive, as the key holds their ids) and
what it offers."""


class _Memo:
    """What the last few positions offer, by pegs, movable seats, ranks held and rules.

    The pegs and the rules are keyed by identity (the states of a game, the
    views of them and the samples a bot deals from a view share their pegs)
    and kept alive by the entry, so an id never stands for two objects. A
    position whose pegs are not all plain ints on the board is never
    remembered: :class:`~pegs_rules.plays.Board` refuses it. Small: the garbage
    collector pays for every entry kept.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[tuple[int, tuple[int, ...], tuple[Rank, ...], int], _Entry] = (
            OrderedDict()
        )
        self.last: tuple[GameState | None, _Found | None] = None, None
        """The last state asked about, and what it offers."""

    def put(self, key: tuple[int, tuple[int, ...], tuple[Rank, ...], int], entry: _Entry) -> None:
        self.entries[key] = entry
        if len(self.entries) > self.size:
            try:  # noqa: SIM105 (contextlib.suppress costs more, at every call)
                self.entries.popitem(last=False)
            except KeyError:  # another thread got there first
                pass


_memo = _Memo(2)
_SEAT_COUNTS = range(4, MAX_PLAYERS + 1, 2)


def clear_memo() -> None:
    """Forget the remembered plays of :func:`hand_plays` (for benchmarks and memory)."""
    _memo.entries.clear()
    _memo.last = None, None


_IN_SPOT = {
    InSpotOccupied.CHAIN: plays.CHAIN,
    InSpotOccupied.ILLEGAL: plays.ILLEGAL,
    InSpotOccupied.TO_START: plays.TO_START,
}
_NINE = {
    Nine.PLAIN: plays.PLAIN,
    Nine.FORWARD_FORWARD: plays.FORWARD_FORWARD,
    Nine.FORWARD_BACKWARD: plays.FORWARD_BACKWARD,
}


def work_board(pegs: tuple[tuple[Location, ...], ...], team: int, rules: Rules) -> plays.Board:
    """A :class:`~pegs_rules.plays.Board` of ``pegs`` for ``team`` to move under ``rules``."""
    return plays.Board(paths_for(len(pegs)), pegs, team, _switches(rules))


def _switches(rules: Rules) -> plays.Switches:
    """The generator's view of ``rules``, made once for each rules object in use."""
    found = _SWITCHES.get(id(rules))
    if found is not None:  # the entry keeps its rules alive, so no other object has its id
        return found[1]
    switches = plays.Switches(
        rules.face_values,
        _NINE[rules.nine],
        rules.two_swap,
        rules.joker_source is JokerSource.ANY,
        rules.home_entry_compulsory,
        rules.wait_on_in_spot,
        _IN_SPOT[rules.in_spot_occupied],
    )
    if len(_SWITCHES) >= 32:
        _SWITCHES.clear()
    _SWITCHES[id(rules)] = rules, switches
    return switches


_SWITCHES: dict[int, tuple[Rules, plays.Switches]] = {}


def _find(
    pegs: tuple[tuple[Location, ...], ...],
    seats: tuple[int, ...],
    ranks: tuple[Rank, ...],
    rules: Rules,
) -> _Found:
    board = work_board(pegs, team_of(seats[0]), rules)
    made = made_for(board.paths)
    found: list[tuple[Rank, list[int], dict[int, list[int]]]] = []
    listed: list[Play] = []
    playable = False
    for rank in ranks:
        singles = made.singles[rank]
        changes = plays.card_plays(board, seats, rank)
        keys = sorted(changes)
        listed += [singles.get(key) or made.play(rank, key) for key in keys]
        found.append((rank, keys, changes))
        playable = playable or (bool(keys) and rank is not _JOKER)
    return _Found(made, found, listed, playable)


class _Made:
    """Public objects made once for one board size and shared: the :class:`~pegs_rules.Step`
    of each change code, and the one-step :class:`~pegs_rules.Play` of each card and change
    (as many as the board allows; two-step plays are too many to keep)."""

    def __init__(self, paths: Paths) -> None:
        self.paths = paths
        self.key = paths.players * paths.slots * paths.slots + 1
        self.steps: dict[int, Step] = {}
        self.singles: dict[Rank, dict[int, Play]] = {rank: {} for rank in Rank}

    def step(self, code: int) -> Step:
        """The step of change ``code``."""
        step = self.steps.get(code)
        if step is None:
            slots = self.paths.slots
            seat = code // (slots * slots)
            src = code // slots % slots
            dst = code % slots
            step = Step(seat, self.paths.location_of(src), self.paths.location_of(dst))
            self.steps[code] = step
        return step

    def play(self, rank: Rank, play_key: int) -> Play:
        """The play of ``rank`` keyed ``play_key`` (see :mod:`pegs_rules.plays`); a one-step
        play is kept in ``singles``."""
        first, second = play_key // self.key, play_key % self.key
        if second:
            return _play(rank, (self.step(first), self.step(second - 1)))
        play = self.singles[rank][play_key] = _play(rank, (self.step(first),))
        return play

    def effects(self, play: Play, changes: list[int]) -> tuple[Step, ...]:
        """The changes a play makes, from its change codes: its own steps unless it knocks
        pegs away."""
        if len(changes) == len(play.steps):
            return play.steps
        return tuple([self.step(change) for change in changes])


_NEW: Final[Callable[[type[Play]], Play]] = object.__new__
_SET_CARD: Final[Callable[[Play, Rank], None]] = Play.__dict__["card"].__set__
_SET_STEPS: Final[Callable[[Play, tuple[Step, ...]], None]] = Play.__dict__["steps"].__set__


def _play(card: Rank, steps: tuple[Step, ...]) -> Play:
    """``Play(card, steps)``, made at half the cost: the same object, its fields set directly
    rather than through the frozen dataclass's ``__init__``."""
    play = _NEW(Play)
    _SET_CARD(play, card)
    _SET_STEPS(play, steps)
    return play


@cache
def made_for(paths: Paths) -> _Made:
    """The public objects made for the board of ``paths``, shared (see :class:`_Made`)."""
    return _Made(paths)


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every legal move of the seat to act, in the documented order.

    ``turn.must-play``: if any card but a joker is playable, only plays are
    legal (any playable card, jokers included). ``turn.discard``: otherwise
    the seat may play a joker or discard any one card. An empty hand passes.
    A finished game has no moves. A state the engine cannot work on raises
    :class:`~pegs_rules.errors.PositionError` (see :func:`~pegs_rules.validate`).
    """
    if not isinstance(state, GameState):
        raise PegsError(f"not a game state: {type(state).__name__}")
    try:
        if state.winner is not None:
            return ()
        if not state.hands[state.turn]:
            return (Pass(),)
        return _found(state).moves
    except Exception as error:
        reraise(state, error)


def has_playable_card(state: GameState) -> bool:
    """True if the seat to act holds a card other than a joker with a legal play."""
    return _found(state).playable
