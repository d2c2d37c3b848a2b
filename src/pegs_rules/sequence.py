"""The turn sequence carried out: the card played, the pegs moved, the draw, the next seat.

Implements ``turn.sequence``, ``turn.reshuffle`` and ``game.end`` for a move
already known to be legal: :func:`pegs_rules.apply` checks a move and calls
:func:`carry_out`; bots' playouts carry out turn after turn on a :class:`Table`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final

from pegs_rules.board import Location, is_home, team_of
from pegs_rules.cards import Rank
from pegs_rules.rules import Rules
from pegs_rules.state import Deal, Discards, GameState, Link, cards_of, reshuffled


def carry_out(
    state: GameState, card: Rank | None, effects: Sequence[tuple[int, int, int]]
) -> GameState:
    """Discard ``card``, carry out ``effects``, check for the win, draw, pass the turn.

    Unchecked: ``effects`` must be the changes of a legal play of ``card`` (or
    empty for a discard or, with ``card`` ``None``, a pass). :func:`apply` is
    the checked way in; bots' playouts use a :class:`Table`.
    """
    table = Table(state)
    table.carry_out(card, effects)
    return table.state()


class Table:
    """A game between turns, in the parts a :class:`GameState` keeps, changed in place by
    :meth:`carry_out` (a turn makes no state until :meth:`state` is asked for: bots' playouts
    carry out many turns and ask for the last)."""

    __slots__ = (
        "deal",
        "dealer",
        "discards",
        "drawn",
        "hands",
        "pegs",
        "ply",
        "rules",
        "turn",
        "winner",
    )

    def __init__(self, state: GameState) -> None:
        self.rules = state.rules
        self.pegs = state.pegs
        self.hands = list(state.hands)
        self.deal = state._deal
        self.drawn = state._drawn
        self.discards = state._discards
        self.turn = state.turn
        self.dealer = state.dealer
        self.ply = state.ply
        self.winner = state.winner

    def carry_out(self, card: Rank | None, effects: Sequence[tuple[int, int, int]]) -> None:
        """The turn of the seat to act: see :func:`carry_out`.

        ``card``, if any, goes on the discard pile. The move that brings a
        team's last peg home ends the game at once, with no draw and the turn
        not passed (``game.end``). Otherwise the drawer (arizona: the seat;
        standard: the next seat, up to one more card) draws until its hand is
        full (``turn.sequence``), and the next seat clockwise is to act.
        """
        seat = self.turn
        hands = self.hands
        if card is not None:
            hand = list(hands[seat])
            hand.remove(card)
            hands[seat] = tuple(sorted(hand))
            self.discards = Link(card, self.discards)
        self.ply += 1
        if effects:
            self.pegs = moved(self.pegs, effects)
            team = team_of(seat)
            if _all_home(self.pegs, team, effects):  # game.end: nothing is drawn
                self.winner = team
                return
        following = (seat + 1) % len(self.pegs)
        rules = self.rules  # turn.sequence: arizona draws after playing, standard before
        drawer = following if rules.draw_first else seat
        size = rules.hand_size + rules.draw_first
        if len(hands[drawer]) < size:
            self.draw(drawer, size)
        self.turn = following

    def draw(self, seat: int, size: int) -> None:
        """``seat`` draws until its hand holds ``size`` cards (``turn.sequence``).

        When the draw pile is empty the whole discard pile is reshuffled into
        a new one (``turn.reshuffle``); with both empty the hand stays short.
        """
        deal, drawn, discards = self.deal, self.drawn, self.discards
        need = size - len(self.hands[seat])
        taken: tuple[Rank, ...] = ()
        while len(taken) < need:
            if drawn == len(deal.cards):
                pile = cards_of(discards)
                if not pile:
                    break
                number = deal.reshuffles
                deal = Deal(reshuffled(deal.seed, number, pile), deal.seed, number + 1)
                drawn, discards = 0, ()
            chunk = deal.cards[drawn : drawn + need - len(taken)]
            taken += chunk
            drawn += len(chunk)
        self.hands[seat] = tuple(sorted(self.hands[seat] + taken))
        self.deal, self.drawn, self.discards = deal, drawn, discards

    def state(self) -> GameState:
        """The state the game is in."""
        return _assemble(
            self.rules,
            self.pegs,
            tuple(self.hands),
            self.deal,
            self.drawn,
            self.discards,
            self.turn,
            self.dealer,
            self.ply,
            self.winner,
        )


def _all_home(
    pegs: tuple[tuple[Location, ...], ...], team: int, effects: Sequence[tuple[int, int, int]]
) -> bool:
    """Whether ``effects`` brought a peg home and with it every peg of ``team``."""
    for _, _, dst in effects:
        if is_home(dst):
            return all(is_home(p) for locs in pegs[team::2] for p in locs)
    return False


def moved(
    pegs: tuple[tuple[Location, ...], ...], effects: Iterable[tuple[int, int, int]]
) -> tuple[tuple[Location, ...], ...]:
    """``pegs`` with every step of ``effects`` carried out in order."""
    new = list(pegs)
    for seat, src, dst in effects:
        locs = list(new[seat])
        locs.remove(src)
        locs.append(dst)
        new[seat] = tuple(sorted(locs))
    return tuple(new)


def _setter(name: str) -> Callable[[GameState, object], None]:
    setter: Callable[[GameState, object], None] = GameState.__dict__[name].__set__
    return setter


_NEW: Final[Callable[[type[GameState]], GameState]] = object.__new__
_SET_RULES: Final = _setter("rules")
_SET_PEGS: Final = _setter("pegs")
_SET_HANDS: Final = _setter("hands")
_SET_DEAL: Final = _setter("_deal")
_SET_DRAWN: Final = _setter("_drawn")
_SET_DISCARDS: Final = _setter("_discards")
_SET_TURN: Final = _setter("turn")
_SET_DEALER: Final = _setter("dealer")
_SET_PLY: Final = _setter("ply")
_SET_WINNER: Final = _setter("winner")


def _assemble(
    rules: Rules,
    pegs: tuple[tuple[Location, ...], ...],
    hands: tuple[tuple[Rank, ...], ...],
    deal: Deal,
    drawn: int,
    discards: Discards,
    turn: int,
    dealer: int,
    ply: int,
    winner: int | None,
) -> GameState:
    """A state from its stored parts (the piles as :class:`GameState` keeps them): its fields
    set directly, as ``__init__`` would, without building the piles anew (a turn makes one)."""
    state = _NEW(GameState)
    _SET_RULES(state, rules)
    _SET_PEGS(state, pegs)
    _SET_HANDS(state, hands)
    _SET_DEAL(state, deal)
    _SET_DRAWN(state, drawn)
    _SET_DISCARDS(state, discards)
    _SET_TURN(state, turn)
    _SET_DEALER(state, dealer)
    _SET_PLY(state, ply)
    _SET_WINNER(state, winner)
    return state
