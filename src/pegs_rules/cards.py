"""Card ranks and the deck (``deck.composition``).

Suits have no effect on any rule, so a card is just its :class:`Rank`.

>>> Rank.parse("10"), Rank.QUEEN.symbol, Rank.JOKER.symbol
(<Rank.TEN: 10>, 'Q', 'JK')
>>> len(build_deck(decks=3, jokers=6))
162
"""

from __future__ import annotations

from enum import IntEnum


class Rank(IntEnum):
    """A card rank. Jokers sort after kings."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    JOKER = 14

    @property
    def symbol(self) -> str:
        """The short symbol: ``A``, ``2``..``10``, ``J``, ``Q``, ``K``, ``JK``."""
        return _SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """The rank named by a symbol (case-insensitive); ``ValueError`` if none."""
        rank = _BY_SYMBOL.get(text.strip().upper())
        if rank is None:
            raise ValueError(f"not a card: {text!r} (use A 2-10 J Q K JK)")
        return rank

    def __str__(self) -> str:
        return self.symbol


_SYMBOLS = {r: str(r.value) for r in Rank} | {
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.JOKER: "JK",
}
_BY_SYMBOL = {s: r for r, s in _SYMBOLS.items()}

COME_OUT_RANKS = frozenset({Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING})
"""Ranks that may bring a peg out of a start area (``card.come-out``)."""
FACE_RANKS = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING})
"""Jack, queen and king (``card.face``)."""


def build_deck(decks: int, jokers: int) -> tuple[Rank, ...]:
    """``decks`` standard 52-card decks plus ``jokers`` jokers, in rank order."""
    return tuple(r for r in Rank if r is not Rank.JOKER for _ in range(4 * decks)) + (
        (Rank.JOKER,) * jokers
    )


def deck_counts(decks: int, jokers: int) -> dict[Rank, int]:
    """How many cards of each rank :func:`build_deck` holds, without building it.

    >>> deck_counts(3, 6)[Rank.SEVEN], deck_counts(3, 6)[Rank.JOKER]
    (12, 6)
    """
    return {rank: jokers if rank is Rank.JOKER else 4 * decks for rank in Rank}


def format_cards(cards: tuple[Rank, ...] | list[Rank]) -> str:
    """Cards as space-separated symbols."""
    return " ".join(c.symbol for c in cards)


def parse_cards(text: str) -> tuple[Rank, ...]:
    """Inverse of :func:`format_cards`."""
    return tuple(Rank.parse(t) for t in text.split())
