"""The game state: an immutable value holding everything about a game.

Build one with :func:`pegs_rules.new_game` (dealt from a seed) or
:func:`pegs_rules.position.parse_position` (from a readable description);
change it only with :func:`pegs_rules.apply`, which returns a new state.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from decimal import Decimal
from functools import cache

from pegs_rules.board import PEGS_PER_SEAT, START, Board, Location, is_home, location_name, team_of
from pegs_rules.cards import Rank, build_deck, format_cards
from pegs_rules.errors import PositionError, shown
from pegs_rules.rules import ARIZONA, PRESETS, Rules, rule_text


@cache
def board_for(players: int) -> Board:
    """The (shared) :class:`Board` for ``players`` seats."""
    return Board(players)


class Link:
    """One card laid on a discard pile, and the pile it was laid on: piles share their past.

    (How :class:`GameState` stores its discard pile; see :func:`cards_of`.)
    """

    __slots__ = ("card", "earlier")

    def __init__(self, card: Rank, earlier: Discards) -> None:
        self.card = card
        self.earlier = earlier


Discards = tuple[Rank, ...] | Link
"""A discard pile: a plain tuple, or cards laid on one link by link."""


class Deal:
    """A deck order laid down as the draw pile, by the deal or by a reshuffle, with what made
    it: the game's seed and how many reshuffles came before. (How :class:`GameState` keeps its
    draw pile, seed and reshuffles: one object, shared by every state that draws from it.)
    """

    __slots__ = ("cards", "reshuffles", "seed")

    def __init__(self, cards: tuple[Rank, ...], seed: int, reshuffles: int) -> None:
        self.cards = cards
        self.seed = seed
        self.reshuffles = reshuffles


class _DrawPile:
    """How a :class:`GameState` keeps ``draw_pile``: its :class:`Deal` and how many of the
    deal's cards are gone."""

    def __get__(self, state: GameState | None, owner: type[GameState]) -> tuple[Rank, ...]:
        if state is None:
            raise AttributeError("draw_pile")  # the field has no default
        cards = state._deal.cards
        return cards[state._drawn :] if state._drawn else cards

    def __set__(self, state: GameState, cards: tuple[Rank, ...]) -> None:
        object.__setattr__(state, "_deal", Deal(cards, 0, 0))
        object.__setattr__(state, "_drawn", 0)


class _Seed:
    """How a :class:`GameState` keeps ``seed``: in its :class:`Deal`."""

    def __get__(self, state: GameState | None, owner: type[GameState]) -> int:
        if state is None:
            raise AttributeError("seed")  # the field has no default
        return state._deal.seed

    def __set__(self, state: GameState, seed: int) -> None:
        deal = state._deal
        object.__setattr__(state, "_deal", Deal(deal.cards, seed, deal.reshuffles))


class _Reshuffles:
    """How a :class:`GameState` keeps ``reshuffles``: in its :class:`Deal`."""

    def __get__(self, state: GameState | None, owner: type[GameState]) -> int:
        if state is None:
            raise AttributeError("reshuffles")  # the field has no default
        return state._deal.reshuffles

    def __set__(self, state: GameState, reshuffles: int) -> None:
        deal = state._deal
        object.__setattr__(state, "_deal", Deal(deal.cards, deal.seed, reshuffles))


class _DiscardPile:
    """How a :class:`GameState` keeps ``discard_pile``: as links shared with earlier states."""

    def __get__(self, state: GameState | None, owner: type[GameState]) -> tuple[Rank, ...]:
        if state is None:
            raise AttributeError("discard_pile")  # the field has no default
        return cards_of(state._discards)

    def __set__(self, state: GameState, cards: tuple[Rank, ...]) -> None:
        object.__setattr__(state, "_discards", cards)


def cards_of(pile: Discards) -> tuple[Rank, ...]:
    """The cards of a stored discard pile, the oldest first."""
    laid = []
    while isinstance(pile, Link):
        laid.append(pile.card)
        pile = pile.earlier
    return pile + tuple(reversed(laid)) if laid else pile


@dataclass(frozen=True, init=False)
class GameState:
    """A complete game position, including hidden cards.

    Attributes:
        rules: the preset in force.
        pegs: for each seat, the sorted locations of its 5 pegs.
        hands: for each seat, its cards in rank order (hidden from the others).
        draw_pile: the face-down draw pile, top card first (hidden from all).
        discard_pile: the face-up discard pile, most recent card last.
        turn: the seat to act.
        dealer: the seat that dealt.
        seed: the game's seed; all chance derives from it.
        reshuffles: how many times the discard pile has been reshuffled.
        ply: how many turns have been taken.
        winner: the winning team (0 or 1), or ``None`` while the game goes on.

    The piles read as tuples but are kept so that the states of a game share
    them: a turn copies neither pile.
    """

    __match_args__ = (
        "rules",
        "pegs",
        "hands",
        "draw_pile",
        "discard_pile",
        "turn",
        "dealer",
        "seed",
        "reshuffles",
        "ply",
        "winner",
    )
    __slots__ = (
        "_deal",
        "_discards",
        "_drawn",
        "dealer",
        "hands",
        "pegs",
        "ply",
        "rules",
        "turn",
        "winner",
    )
    rules: Rules
    pegs: tuple[tuple[Location, ...], ...]
    hands: tuple[tuple[Rank, ...], ...]
    turn: int
    dealer: int
    ply: int
    winner: int | None
    # last, as mypy takes a descriptor for a default (at run time it is none)
    draw_pile: _DrawPile = _DrawPile()
    discard_pile: _DiscardPile = _DiscardPile()
    seed: _Seed = _Seed()
    reshuffles: _Reshuffles = _Reshuffles()

    def __init__(
        self,
        rules: Rules,
        pegs: tuple[tuple[Location, ...], ...],
        hands: tuple[tuple[Rank, ...], ...],
        draw_pile: tuple[Rank, ...],
        discard_pile: tuple[Rank, ...],
        turn: int,
        dealer: int,
        seed: int,
        reshuffles: int = 0,
        ply: int = 0,
        winner: int | None = None,
    ) -> None:
        self._deal: Deal
        self._drawn: int
        self._discards: Discards
        put = object.__setattr__  # the class is frozen
        put(self, "rules", rules)
        put(self, "pegs", pegs)
        put(self, "hands", hands)
        put(self, "draw_pile", draw_pile)  # first: the seed and reshuffles go in its deal
        put(self, "discard_pile", discard_pile)
        put(self, "turn", turn)
        put(self, "dealer", dealer)
        put(self, "seed", seed)
        put(self, "reshuffles", reshuffles)
        put(self, "ply", ply)
        put(self, "winner", winner)

    def __reduce__(self) -> tuple[type[GameState], tuple[object, ...]]:
        """Pickle and copy by the public fields."""
        return GameState, (
            self.rules,
            self.pegs,
            self.hands,
            self.draw_pile,
            self.discard_pile,
            self.turn,
            self.dealer,
            self.seed,
            self.reshuffles,
            self.ply,
            self.winner,
        )

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.pegs)

    @property
    def board(self) -> Board:
        """The board geometry."""
        return board_for(len(self.pegs))

    @property
    def is_over(self) -> bool:
        """True once a team has every peg home (``game.end``)."""
        return self.winner is not None

    @property
    def draw_pile_size(self) -> int:
        """Cards left in the draw pile (public; the order is not)."""
        return len(self._deal.cards) - self._drawn

    def hand(self, seat: int) -> tuple[Rank, ...]:
        """The cards ``seat`` holds."""
        return self.hands[seat]

    def team_pegs_home(self, team: int) -> int:
        """How many pegs of ``team`` are in their home lanes."""
        return sum(
            is_home(p) for s, locs in enumerate(self.pegs) if team_of(s) == team for p in locs
        )

    def __repr__(self) -> str:
        status = (
            f"team {shown(self.winner)} won"
            if self.winner is not None
            else f"seat {shown(self.turn)} to act"
        )
        try:
            return (
                f"<GameState {self.rules.name} {self.players}p ply {shown(self.ply)}: {status}, "
                f"draw {self.draw_pile_size}, discard {len(self.discard_pile)}>"
            )
        except Exception:  # a repr never fails: it is what error messages and debuggers show
            return f"<GameState, malformed: ply {shown(self.ply)}: {status}>"

    def __str__(self) -> str:
        """The position in the text form that :func:`~pegs_rules.position.parse_position` reads.

        A state that cannot be written so raises :class:`~pegs_rules.errors.PositionError`
        naming its problems (see :func:`~pegs_rules.validate`).
        """
        try:
            base = PRESETS.get(self.rules.name, ARIZONA)
            lines = [f"rules: {base.name}"]
            for name in self.rules.__dataclass_fields__:
                if getattr(self.rules, name) != getattr(base, name):
                    lines.append(f"rule {name}: {rule_text(self.rules, name)}")
            lines += [f"players: {self.players}", f"turn: {shown(self.turn)}"]
            lines.append(f"dealer: {shown(self.dealer)}")
            for seat, locs in enumerate(self.pegs):
                lines.append(f"pegs {seat}: " + " ".join(location_name(p) for p in locs))
            for seat, hand in enumerate(self.hands):
                lines.append(f"hand {seat}: {format_cards(hand)}".rstrip())
            lines.append(f"draw: {format_cards(self.draw_pile)}".rstrip())
            lines.append(f"discard: {format_cards(self.discard_pile)}".rstrip())
            if self.winner is not None:
                lines.append(f"winner: {shown(self.winner)}")
        except Exception as error:
            from pegs_rules.validate import reraise  # here: pegs_rules.validate imports this module

            reraise(self, error)
        return "\n".join(lines)


def new_game(
    players: int = 4,
    *,
    seed: int | None = None,
    rules: Rules = ARIZONA,
    dealer: int | None = None,
) -> GameState:
    """Shuffle and deal a new game from ``seed`` (``deal.dealer``, ``deal.hands``).

    The dealer is drawn from the seed unless given; cards are dealt one at a
    time clockwise from the dealer's left, and that seat acts first.

    The seed decides every hidden card, now and at every reshuffle, so keep it
    secret from the players. Any whole number works, and different seeds
    (``n`` and ``-n`` too) give different games. Without one, a 128-bit seed is
    drawn from :mod:`secrets`.

    >>> game = new_game(4, seed=1)
    >>> game.turn == (game.dealer + 1) % 4, [len(h) for h in game.hands], game.draw_pile_size
    (True, [5, 5, 5, 5], 142)
    >>> new_game(4).seed.bit_length() <= 128
    True
    """
    if seed is None:
        seed = secrets.randbits(128)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise PositionError(f"seed must be an int, not {shown(seed)}")
    if isinstance(players, bool) or players not in rules.player_counts:
        raise PositionError(
            f"preset {shown(rules.name)} allows {rules.player_counts} players, not {shown(players)}"
        )
    rng = shuffler(seed)
    if dealer is None:
        dealer = rng.randrange(players)
    elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise PositionError(f"dealer must be a seat 0..{players - 1}, not {shown(dealer)}")
    deck = list(build_deck(*rules.deck_for(players)))
    rng.shuffle(deck)
    return deal(rules, players, dealer, tuple(deck), seed)


def deal(rules: Rules, players: int, dealer: int, deck: tuple[Rank, ...], seed: int) -> GameState:
    """Deal ``deck`` (top card first) as :func:`new_game` deals (``deal.hands``).

    One card at a time clockwise from the dealer's left until every seat
    holds ``hand_size``; the rest is the draw pile. With ``draw_first``
    (standard) the first seat then draws its extra card (``turn.sequence``).
    """
    order = [(dealer + 1 + i) % players for i in range(players)]
    hands: list[tuple[Rank, ...]] = [() for _ in range(players)]
    for i in range(rules.hand_size * players):
        hands[order[i % players]] += (deck[i],)
    draw = deck[rules.hand_size * players :]
    if rules.draw_first:
        hands[order[0]] += draw[:1]
        draw = draw[1:]
    return GameState(
        rules=rules,
        pegs=((START,) * PEGS_PER_SEAT,) * players,
        hands=tuple(tuple(sorted(h)) for h in hands),
        draw_pile=draw,
        discard_pile=(),
        turn=order[0],
        dealer=dealer,
        seed=seed,
    )


def shuffler(seed: int) -> random.Random:
    """The random source of the deal of game ``seed`` (``deal.dealer``, ``deal.hands``).

    Python seeds its generator with a whole number's absolute value, so a
    negative seed is first turned into bytes of its own: ``n`` and ``-n`` deal
    different games, and every seed of 0 or more deals as it always has.
    """
    if seed >= 0:
        return random.Random(seed)
    size = (seed.bit_length() + 8) // 8
    return random.Random(b"pegs-rules/negative/" + seed.to_bytes(size, "big", signed=True))


_DECIMAL_SEEDS = 10**4300
"""Seeds below this size name their reshuffles in decimal, larger ones in hexadecimal."""


def seed_text(seed: int) -> str:
    """The seed as text for naming its reshuffles, whatever its size.

    Decimal digits, written without Python's limit on converting large whole
    numbers to text; a seed of 4,300 digits or more is written in hexadecimal
    (``0x...``), which takes time in proportion to its length.
    """
    if -_DECIMAL_SEEDS < seed < _DECIMAL_SEEDS:
        return str(Decimal(seed))
    return hex(seed)


def reshuffled(seed: int, number: int, cards: tuple[Rank, ...]) -> tuple[Rank, ...]:
    """The new draw pile made by reshuffle ``number`` of game ``seed`` (``turn.reshuffle``)."""
    pile = list(cards)
    random.Random(f"pegs-rules/{seed_text(seed)}/reshuffle/{number}").shuffle(pile)
    return tuple(pile)
