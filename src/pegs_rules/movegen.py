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
same position is listed once, in the order that sorts first.

The plays are found in integer codes by :mod:`pegs_rules.plays`; this module
turns them into :class:`~pegs_rules.Play` objects and remembers the last few
positions' plays.
"""

from __future__ import annotations

from collections import OrderedDict
from contextlib import suppress
from functools import cache

from pegs_rules import plays
from pegs_rules.board import MAX_PLAYERS, Location, team_of
from pegs_rules.cards import FACE_RANKS, Rank
from pegs_rules.errors import PegsError, PositionError
from pegs_rules.moves import Discard, Move, Pass, Play, Step
from pegs_rules.paths import Paths, paths_for
from pegs_rules.rules import Control, InSpotOccupied, JokerSource, Nine, Rules
from pegs_rules.state import GameState


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
    seat = state.turn
    players = len(state.pegs)
    if state.rules.control is Control.TEAM:
        return _team_seats(players, team_of(seat))
    for step in range(0, players, 2):
        mate = (seat + step) % players
        if not all(p > 1000 for p in state.pegs[mate]):
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
    last = _memo.last
    if last[0] is state:  # apply right after legal_moves
        return last[1]
    if len(state.pegs) not in _SEAT_COUNTS:  # board.sides: no tables for other boards
        raise PositionError(f"a board has 4, 6 or 8 seats, not {len(state.pegs)}")
    ranks = tuple(sorted(set(state.hands[state.turn])))
    if not all(type(rank) is Rank for rank in ranks):
        raise PositionError(f"hand {state.turn}: not a hand of cards: {ranks!r}")
    seats = movable_seats(state)
    rules = state.rules
    key = (state.pegs, seats, ranks, id(rules))
    found = _memo.get(key)
    if found is None:
        found = rules, _hand_plays(state.pegs, seats, ranks, rules)
        _memo.put(key, found)
    _memo.last = state, found[1]
    return found[1]


class _Memo:
    """The plays of the last few positions, by pegs, movable seats, ranks held and rules.

    The rules are keyed by identity and kept alive by the entry, so an id
    never stands for two rules objects. A position whose pegs are not all
    plain ints on the board is never remembered: :class:`~pegs_rules.plays.Board`
    refuses it. Small: the garbage collector pays for every entry kept.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[object, tuple[Rules, dict[Rank, Plays]]] = OrderedDict()
        self.last: tuple[GameState | None, dict[Rank, Plays]] = None, {}
        """The last state asked about, and its plays."""

    def get(self, key: object) -> tuple[Rules, dict[Rank, Plays]] | None:
        return self.entries.get(key)

    def put(self, key: object, found: tuple[Rules, dict[Rank, Plays]]) -> None:
        self.entries[key] = found
        if len(self.entries) > self.size:
            with suppress(KeyError):  # another thread got there first
                self.entries.popitem(last=False)


_memo = _Memo(16)
_SEAT_COUNTS = range(4, MAX_PLAYERS + 1, 2)


def clear_memo() -> None:
    """Forget the remembered plays of :func:`hand_plays` (for benchmarks and memory)."""
    _memo.entries.clear()
    _memo.last = None, {}


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


def _hand_plays(
    pegs: tuple[tuple[Location, ...], ...],
    seats: tuple[int, ...],
    ranks: tuple[Rank, ...],
    rules: Rules,
) -> dict[Rank, Plays]:
    board = work_board(pegs, team_of(seats[0]), rules)
    made = _made(board.paths)
    key = board.key
    result: dict[Rank, Plays] = {}
    for rank in ranks:
        singles = made.singles[rank]
        found: Plays = []
        found_plays = plays.card_plays(board, seats, rank)
        for play_key in sorted(found_plays):
            changes = found_plays[play_key]
            first = play_key // key
            second = play_key % key
            if second:
                play = Play(rank, (made.step(first), made.step(second - 1)))
            else:
                play = singles.get(first) or made.single(rank, first)
            steps = play.steps
            if len(changes) == len(steps):
                found.append((play, steps))
            else:
                found.append((play, tuple([made.step(change) for change in changes])))
        result[rank] = found
    return result


class _Made:
    """Public objects made once for one board size and shared: the :class:`~pegs_rules.Step`
    of each change code, and the one-step :class:`~pegs_rules.Play` of each card and change
    (as many as the board allows; two-step plays are too many to keep)."""

    def __init__(self, paths: Paths) -> None:
        self.paths = paths
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

    def single(self, rank: Rank, code: int) -> Play:
        """The play of ``rank`` whose one step is change ``code``."""
        play = self.singles[rank].get(code)
        if play is None:
            play = self.singles[rank][code] = Play(rank, (self.step(code),))
        return play


@cache
def _made(paths: Paths) -> _Made:
    return _Made(paths)


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every legal move of the seat to act, in the documented order.

    ``turn.must-play``: if any card but a joker is playable, only plays are
    legal (any playable card, jokers included). ``turn.discard``: otherwise
    the seat may play a joker or discard any one card. An empty hand passes.
    A finished game has no moves.
    """
    if not isinstance(state, GameState):
        raise PegsError(f"not a game state: {type(state).__name__}")
    if state.winner is not None:
        return ()
    if not state.hands[state.turn]:
        return (Pass(),)
    by_rank = hand_plays(state)
    moves: list[Move] = [play for plays_ in by_rank.values() for play, _ in plays_]
    if not any(plays_ for rank, plays_ in by_rank.items() if rank is not Rank.JOKER):
        moves += [Discard(rank) for rank in by_rank]
    return tuple(moves)


def has_playable_card(state: GameState) -> bool:
    """True if the seat to act holds a card other than a joker with a legal play."""
    return any(plays_ for rank, plays_ in hand_plays(state).items() if rank is not Rank.JOKER)
