"""What an agent observes: a flat vector made from one seat's :class:`~pegs_rules.PlayerView` only.

Everything is seen from the observing seat (``me``): seats are numbered from
it (relative seat ``r`` is seat ``(me + r) % players``; even ``r`` are
team-mates) and track holes from its corner (hole ``h`` is track hole
``(18 * me + h) % (18 * players)``), as in :mod:`pegs_rules.rl.actions`. The
vector (``float32``, every entry in ``[0, 1]``) is, in order, with
``L = 18 * players``:

* pegs on the track (``players * L``): 1 at ``r * L + h`` where relative
  seat ``r`` has a peg on hole ``h``;
* pegs in home (``players * 5``): 1 at ``r * 5 + k - 1`` where relative seat
  ``r`` has a peg on home ``k``;
* pegs in start (``players``): how many relative seat ``r`` has there, / 5;
* the seat's own hand (14): how many of A..K, JK it holds, / (hand size + 1);
* cards held (``players``): relative seat ``r``'s hand size, / (hand size + 1);
* the discard pile (14): how many of each rank lie face up, / copies in the deck;
* the draw pile (1): cards in it, / cards in the deck;
* the seat to act (``players``): 1 at its relative seat.

Nothing else of the game goes in: not other hands, not the order of the
draw pile, not the seed (a :class:`~pegs_rules.PlayerView` holds none of them).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from pegs_rules.board import HOME_HOLES, PEGS_PER_SEAT, SIDE_HOLES, START, home_index, is_home
from pegs_rules.cards import Rank, build_deck
from pegs_rules.rules import Rules
from pegs_rules.views import PlayerView

__all__ = ["deck_of", "observation", "observation_size"]


def observation_size(players: int) -> int:
    """The length of the observation vector for ``players`` seats."""
    length = SIDE_HOLES * players
    return players * (length + HOME_HOLES + 1) + len(Rank) + players + len(Rank) + 1 + players


@lru_cache(maxsize=64)
def deck_of(rules: Rules, players: int) -> list[int]:
    """The deck for ``players`` seats, counted: the number of cards first, then the copies
    of each rank, A (index 1) to JK (index 14). Shared: read only."""
    counts = Counter(build_deck(*rules.deck_for(players)))
    return [sum(counts.values())] + [counts[rank] for rank in Rank]


def observation(seen: PlayerView) -> npt.NDArray[np.float32]:
    """The observation vector of ``seen`` (see the module docstring)."""
    players = seen.players
    me = seen.seat
    length = SIDE_HOLES * players
    out = np.zeros(observation_size(players), dtype=np.float32)
    homes = players * length
    starts = homes + players * HOME_HOLES
    for r in range(players):
        for location in seen.pegs[(me + r) % players]:
            if location == START:
                out[starts + r] += 1 / PEGS_PER_SEAT
            elif is_home(location):
                out[homes + r * HOME_HOLES + home_index(location) - 1] = 1
            else:
                out[r * length + (location - SIDE_HOLES * me) % length] = 1
    at = starts + players
    cap = seen.rules.hand_size + 1
    for rank, count in Counter(seen.hand).items():
        out[at + rank - 1] = count / cap
    at += len(Rank)
    for r in range(players):
        out[at + r] = seen.hand_sizes[(me + r) % players] / cap
    at += players
    deck = deck_of(seen.rules, players)
    for rank, count in Counter(seen.discard_pile).items():
        out[at + rank - 1] = count / deck[rank]
    at += len(Rank)
    out[at] = seen.draw_pile_size / deck[0]
    out[at + 1 + (seen.turn - me) % players] = 1
    return out
