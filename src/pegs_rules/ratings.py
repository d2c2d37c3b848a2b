"""Ratings on one scale from matches between many players: :func:`bradley_terry`.

A Bradley-Terry model gives each player a strength ``g`` and player ``i``
beats player ``j`` with chance ``g_i / (g_i + g_j)``. :func:`bradley_terry`
fits it to a set of match records by maximum likelihood (the
minorisation-maximisation steps of Hunter, 2004) and reports each strength on
the Elo scale, ``400 * log10(g)``, with one player fixed at a chosen rating.
Each pairing that met is first given ``prior`` wins each way, so that a clean
sweep (one side winning every game) still gives a finite gap, a lower bound
rather than a measurement. The 95% intervals come from the curvature of the
log-likelihood at its maximum (the normal approximation), the fixed player's
rating being exact.

>>> rated = bradley_terry({("a", "b"): (30, 10)}, anchor=("b", 1500.0), prior=0.0)
>>> round(rated["a"].elo - rated["b"].elo)  # 3 to 1 odds: 400 * log10(3)
191
>>> rated["b"].low == rated["b"].elo == rated["b"].high
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["Rating", "bradley_terry"]

ELO = 400 / math.log(10)
"""Elo points per unit of log-strength."""


@dataclass(frozen=True)
class Rating:
    """A player's rating on the Elo scale, its 95% interval, and the games it played."""

    elo: float
    low: float
    high: float
    games: int


def bradley_terry(
    records: Mapping[tuple[str, str], tuple[int, int]],
    anchor: tuple[str, float],
    prior: float = 0.5,
) -> dict[str, Rating]:
    """Ratings from ``records``: for each pairing ``(a, b)``, ``a``'s wins and ``b``'s.

    ``anchor`` names the player whose rating is fixed and the rating. Raises
    :class:`ValueError` if it played no game, or if the pairings do not
    connect every player to it.
    """
    players = sorted({name for pair in records for name in pair})
    if anchor[0] not in players:
        raise ValueError(f"the anchor {anchor[0]!r} played no game")
    index = {name: i for i, name in enumerate(players)}
    n = len(players)
    wins = [[0.0] * n for _ in range(n)]  # wins[i][j]: i beat j
    played = [0] * n
    for (first, second), (won, lost) in records.items():
        i, j = index[first], index[second]
        wins[i][j] += won + prior
        wins[j][i] += lost + prior
        played[i] += won + lost
        played[j] += won + lost
    fixed = index[anchor[0]]
    strength = [1.0] * n
    for _ in range(10_000):
        new = []
        for i in range(n):
            meetings = sum(
                (wins[i][j] + wins[j][i]) / (strength[i] + strength[j]) for j in range(n) if j != i
            )
            if not meetings:
                raise ValueError(f"{players[i]!r} met no other player")
            new.append(max(sum(wins[i]), 1e-300) / meetings)
        new = [g / new[fixed] for g in new]
        change = max(abs(math.log(g / h)) for g, h in zip(new, strength, strict=True))
        strength = new
        if change < 1e-12:
            break
    theta = [math.log(g) for g in strength]
    free = [i for i in range(n) if i != fixed]
    information = [[0.0] * len(free) for _ in free]
    for a, i in enumerate(free):
        for j in range(n):
            if j != i:
                p = 1 / (1 + math.exp(theta[j] - theta[i]))
                info = (wins[i][j] + wins[j][i]) * p * (1 - p)
                information[a][a] += info
                if j != fixed:
                    information[a][free.index(j)] -= info
    covariance = _inverse(information)
    ratings = {}
    for i, name in enumerate(players):
        elo = anchor[1] + ELO * theta[i]
        half = (
            0.0 if i == fixed else 1.96 * ELO * math.sqrt(covariance[free.index(i)][free.index(i)])
        )
        ratings[name] = Rating(elo, elo - half, elo + half, played[i])
    return ratings


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small positive-definite matrix (Gauss-Jordan)."""
    size = len(matrix)
    rows = [[*row, *(1.0 if i == j else 0.0 for j in range(size))] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        if not head:
            raise ValueError("the pairings do not connect every player to the anchor")
        rows[col] = [x / head for x in rows[col]]
        for r in range(size):
            if r != col:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[size:] for row in rows]
