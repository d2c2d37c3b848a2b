"""The rules preset: a frozen data object naming every choice the engine reads.

Only the default preset :data:`ARIZONA` exists so far; it follows
``shared/design/rulings.md``.

>>> ARIZONA.deck_for(8)
(4, 8)
>>> find_preset("arizona") is ARIZONA
True
"""

from __future__ import annotations

from dataclasses import dataclass

from pegs_rules.cards import Rank


@dataclass(frozen=True, slots=True)
class Rules:
    """A rules preset.

    Attributes:
        name: the preset's name.
        player_counts: the seat counts the preset allows (``board.sides``).
        decks: ``(players, decks, jokers)`` rows (``deck.composition``).
        hand_size: cards each player holds after drawing (``deal.hands``).
        face_value: steps a J, Q or K moves forward (``card.face``).
        split_ranks: ranks that may be split between two pegs
            (``card.seven.split``, ``card.nine``).
    """

    name: str = "arizona"
    player_counts: tuple[int, ...] = (4, 6, 8)
    decks: tuple[tuple[int, int, int], ...] = ((4, 3, 6), (6, 3, 6), (8, 4, 8))
    hand_size: int = 5
    face_value: int = 10
    split_ranks: tuple[Rank, ...] = (Rank.SEVEN, Rank.NINE)

    def __post_init__(self) -> None:
        counts = {row[0] for row in self.decks}
        if not set(self.player_counts) <= counts:
            raise ValueError("every allowed player count needs a row in `decks`")
        if any(n < 4 or n % 2 for n in self.player_counts):
            raise ValueError("player counts must be even and at least 4")
        if self.hand_size < 1:
            raise ValueError("hand_size must be at least 1")

    def deck_for(self, players: int) -> tuple[int, int]:
        """``(decks, jokers)`` used with ``players`` seats (``deck.composition``)."""
        for count, decks, jokers in self.decks:
            if count == players:
                return decks, jokers
        raise ValueError(f"preset {self.name!r} has no deck for {players} players")


ARIZONA = Rules()
"""The default preset: Arizona Pegs and Jokers."""

PRESETS: dict[str, Rules] = {ARIZONA.name: ARIZONA}


def find_preset(name: str) -> Rules:
    """The preset called ``name``; ``ValueError`` lists the known names."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown preset {name!r}; known: {', '.join(sorted(PRESETS))}") from None
