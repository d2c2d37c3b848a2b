"""The turn sequence carried out: the card played, the pegs moved, the draw, the next seat.

Implements ``turn.sequence``, ``turn.reshuffle`` and ``game.end`` for a move
already known to be legal: :func:`pegs_rules.apply` checks a move and calls
:func:`carry_out`; bots' playouts call it directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

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
    the checked way in; bots' playouts use this one.
    """
    seat = state.turn
    hands = list(state.hands)
    if card is not None:
        hand = list(hands[seat])
        hand.remove(card)
        hands[seat] = tuple(sorted(hand))
    pegs = state.pegs
    if effects:
        pegs = moved(pegs, effects)
        team = team_of(seat)
        if _all_home(pegs, team, effects):  # game.end: nothing is drawn
            return next_state(state, pegs, hands, card, None, 0, seat, team)
    following = (seat + 1) % len(pegs)
    rules = state.rules  # turn.sequence: arizona draws after playing, standard before
    drawer = following if rules.draw_first else seat
    size = rules.hand_size + rules.draw_first
    return next_state(state, pegs, hands, card, drawer, size, following, None)


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


def next_state(
    state: GameState,
    pegs: tuple[tuple[Location, ...], ...],
    hands: list[tuple[Rank, ...]],
    card: Rank | None,
    drawer: int | None,
    size: int,
    turn: int,
    winner: int | None,
) -> GameState:
    """The state after a turn of ``state``, sharing its piles (for :mod:`pegs_rules.turn`).

    ``card``, if any, goes on the discard pile; then ``drawer``, if any, draws
    until its hand (taken from ``hands``) holds ``size`` cards
    (``turn.sequence``). When the draw pile is empty the whole discard pile
    is reshuffled into a new one (``turn.reshuffle``); with both empty the
    hand stays short. The pegs, turn and winner are as given, the ply one more.
    """
    deal, drawn, discards = state._deal, state._drawn, state._discards
    if card is not None:
        discards = Link(card, discards)
    if drawer is not None and len(hands[drawer]) < size:
        need = size - len(hands[drawer])
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
        hands[drawer] = tuple(sorted(hands[drawer] + taken))
    return _assemble(
        state.rules,
        pegs,
        tuple(hands),
        deal,
        drawn,
        discards,
        turn,
        state.dealer,
        state.ply + 1,
        winner,
    )


def _setter(name: str) -> Callable[[GameState, object], None]:
    setter: Callable[[GameState, object], None] = GameState.__dict__[name].__set__
    return setter


_SET = {name: _setter(name) for name in GameState.__slots__}


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
    state = object.__new__(GameState)
    _SET["rules"](state, rules)
    _SET["pegs"](state, pegs)
    _SET["hands"](state, hands)
    _SET["_deal"](state, deal)
    _SET["_drawn"](state, drawn)
    _SET["_discards"](state, discards)
    _SET["turn"](state, turn)
    _SET["dealer"](state, dealer)
    _SET["ply"](state, ply)
    _SET["winner"](state, winner)
    return state
