"""The latest moves as a fixed-size vector: :func:`recent_plies`.

Moves are public (a play or a discard shows its card; a pass shows the seat
had none), so any seat may be told them. Each of the last :data:`RECENT`
plies, most recent first, takes :func:`ply_size` entries (``float32``, each
0 or 1):

* 1: a ply is there (0 for the plies before the game's first);
* ``players``: the seat that moved, relative to the observer (one-hot:
  relative seat ``r`` is seat ``(observer + r) % players``; even ``r`` are
  team-mates, ``r = 0`` the observer itself);
* 14: the card played or discarded, A to joker (one-hot; none for a pass);
* 3: whether the move was a play, a discard or a pass (one-hot).

>>> from pegs_rules import Discard, Pass, Rank
>>> plies = [(1, Discard(Rank.KING)), (2, Pass())]
>>> [int(x) for x in recent_plies(plies, seat=1, players=4, count=2)]  # doctest: +NORMALIZE_WHITESPACE
[1, 0, 1, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0, 0, 1,
 1, 1, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0,  0, 1, 0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pegs_rules.cards import Rank
from pegs_rules.moves import Discard, Move, Play

__all__ = ["RECENT", "ply_size", "recent_plies"]

RECENT = 8
"""How many of the latest plies an observation with history holds."""


def ply_size(players: int) -> int:
    """How many entries one ply takes (see the module docstring)."""
    return 1 + players + len(Rank) + 3


def recent_plies(
    plies: list[tuple[int, Move]], seat: int, players: int, count: int = RECENT
) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The last ``count`` of ``plies`` (each the seat that moved and its move) as ``seat``
    sees them, most recent first (see the module docstring)."""
    size = ply_size(players)
    out = np.zeros(count * size, np.float32)
    for i, (mover, move) in enumerate(reversed(plies[-count:] if count else [])):
        at = i * size
        out[at] = 1.0
        out[at + 1 + (mover - seat) % players] = 1.0
        at += 1 + players
        if isinstance(move, Play | Discard):
            out[at + move.card - 1] = 1.0
        kind = 0 if isinstance(move, Play) else 1 if isinstance(move, Discard) else 2
        out[at + len(Rank) + kind] = 1.0
    return out
