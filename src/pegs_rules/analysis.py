"""Post-game analysis: each team's chance of winning at every ply of a finished record.

After a game every card is known, so the estimate is made with full knowledge:
every hand, the draw pile's order and the seed that orders every reshuffle.
This is the definition (``js/src/analysis.ts`` implements the same, to the bit):

* **States.** State ``k`` is the position after ``k`` moves of the record,
  ``0 <= k <= n``. Team 0's *points* at state ``k`` are a whole number from 0
  to ``2 * playouts``; its chance is ``points / (2 * playouts)`` and team 1's is
  one less that.
* **A finished state** (a team has won) has ``2 * playouts`` points if team 0
  won, else 0.
* **A forced state** (the seat to act has exactly one legal move, which is
  the record's next move) has the points of state ``k + 1``: a forced move
  changes nothing.
* **Any other state** is played out ``playouts`` times to the end of the game
  by the bots' playout policy (the move gaining most peg value, a random one
  with chance 0.1; :func:`pegs_rules.playout.playout`), from the state itself,
  hands and deck as they were. Playout ``j`` draws from ``random.Random(s_j)``,
  where ``s_0, s_1, ...`` are ``random.Random(seed).getrandbits(32)`` in turn
  (the same seeds for every state). A playout that team 0 wins scores 2, one
  still going after :data:`MAX_TURNS` turns scores 1, else 0.
* **A ply** ``p`` (``1 <= p <= n``) is move ``p``: its mover's team's chance
  *before* is at state ``p - 1`` and *after* at state ``p``; its *cost* is
  before less after (negative: the move gained).
* **The costly plies** are the ``marks`` plies of greatest cost, of those that
  cost more than nothing (ties: the earlier ply first), in the order of the
  game. Each carries the move ``make_bot(f"expert:{expert}", seed=seed + p)``
  chooses at state ``p - 1`` seeing only the mover's view: what the expert
  would have played in its place, knowing what the mover knew.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from pegs_rules import playout
from pegs_rules.board import team_of
from pegs_rules.bots import decide, make_bot
from pegs_rules.bots.search import slot_values
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import parse_notation
from pegs_rules.records import GameRecord, replay
from pegs_rules.state import GameState
from pegs_rules.turn import apply

__all__ = [
    "EPSILON",
    "MAX_TURNS",
    "PLAYOUTS",
    "Analysis",
    "Costly",
    "analyze",
    "chart_svg",
    "playout_seeds",
]

PLAYOUTS = 100
"""Playouts a state, unless told otherwise: the playground's budget (docs: "Post-game analysis")."""
EXPERT = 1000
"""The expert's playouts a move, for the move it would have played at a costly ply."""
MARKS = 3
"""How many costly plies are marked."""
EPSILON = 0.1
"""The playout policy's chance of a random move (the bots')."""
MAX_TURNS = 10_000
"""Turns after which a playout that has not ended counts half a win for each team."""


@dataclass(frozen=True, slots=True)
class Costly:
    """A costly ply: its number, the move played and the move the expert would have played."""

    ply: int
    played: str
    expert: str


@dataclass(frozen=True, slots=True)
class Analysis:
    """The analysis of a record (see the module docstring for each field's meaning).

    Attributes:
        players: the seat count.
        seed: the analysis's seed (playouts and the expert).
        playouts: playouts a state.
        expert: the expert's playouts a move.
        points: team 0's points at each state, ``0..2 * playouts``.
        seats: the mover of each ply, ``seats[p - 1]`` for ply ``p``.
        moves: the record's moves.
        costly: the costly plies, in the order of the game.
    """

    players: int
    seed: int
    playouts: int
    expert: int
    points: tuple[int, ...]
    seats: tuple[int, ...]
    moves: tuple[str, ...]
    costly: tuple[Costly, ...]

    def chance(self, state: int, team: int = 0) -> float:
        """``team``'s chance of winning at state ``state``."""
        points = self.points[state] if team == 0 else 2 * self.playouts - self.points[state]
        return points / (2 * self.playouts)

    def to_json(self) -> dict[str, object]:
        """The numbers as JSON: the chances by state, and each ply's before, after and cost."""
        costly = {c.ply: c.expert for c in self.costly}
        plies = []
        for p, (seat, move) in enumerate(zip(self.seats, self.moves, strict=True), start=1):
            team = team_of(seat)
            before, after = self.chance(p - 1, team), self.chance(p, team)
            ply: dict[str, object] = {"ply": p, "seat": seat, "team": team, "move": move}
            ply |= {"before": before, "after": after, "cost": before - after}
            if p in costly:
                ply["expert"] = costly[p]
            plies.append(ply)
        return {
            "analysis": 1,
            "players": self.players,
            "seed": self.seed,
            "playouts": self.playouts,
            "expert": self.expert,
            "chances": [self.chance(k) for k in range(len(self.points))],
            "plies": plies,
            "costly": [{"ply": c.ply, "played": c.played, "expert": c.expert} for c in self.costly],
        }


def playout_seeds(seed: int, playouts: int) -> list[int]:
    """The playouts' seeds: ``random.Random(seed).getrandbits(32)``, ``playouts`` times."""
    rng = random.Random(seed)
    return [rng.getrandbits(32) for _ in range(playouts)]


def analyze(
    record: GameRecord,
    *,
    playouts: int = PLAYOUTS,
    seed: int = 0,
    expert: int = EXPERT,
    marks: int = MARKS,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """The analysis of ``record`` (see the module docstring); ``progress(done, states)`` after
    each state. Raises :class:`~pegs_rules.ReplayError` if a move cannot be made."""
    if playouts < 1 or expert < 1 or marks < 0 or seed < 0:
        raise ValueError("playouts and expert: at least 1; marks and seed: at least 0")
    states = _states(record)
    seeds = playout_seeds(seed, playouts)
    values = slot_values(record.players)
    points: list[int | None] = [None] * len(states)
    for k, state in enumerate(states):
        if state.winner is not None:
            points[k] = 2 * playouts if state.winner == 0 else 0
        elif len(legal_moves(state)) > 1 or k == len(states) - 1:
            points[k] = _points(state, seeds, values)
        if progress is not None:
            progress(k + 1, len(states))
    for k in reversed(range(len(states))):  # a forced state: the next state's points
        if points[k] is None:
            points[k] = points[k + 1]
    known = tuple(p for p in points if p is not None)
    seats = tuple(state.turn for state in states[:-1])
    costly = tuple(
        Costly(p, record.moves[p - 1], _expert_move(states[p - 1], expert, seed + p))
        for p in _costly_plies(known, seats, marks)
    )
    return Analysis(record.players, seed, playouts, expert, known, seats, record.moves, costly)


def _states(record: GameRecord) -> list[GameState]:
    """The state before the first move and after each (as :func:`~pegs_rules.replay`)."""
    replay(record)  # the checks, and the error at a move that cannot be made
    states = [record.start()]
    for text in record.moves:
        states.append(apply(states[-1], parse_notation(text)))
    return states


def _points(state: GameState, seeds: list[int], values: playout.Values) -> int:
    """Team 0's points from ``state``'s playouts (2 a win, 1 a playout cut short)."""
    points = 0
    for s in seeds:
        end = playout.playout(state, random.Random(s), EPSILON, values, MAX_TURNS)
        points += 1 if end.winner is None else 2 - 2 * end.winner
    return points


def _costly_plies(points: tuple[int, ...], seats: tuple[int, ...], marks: int) -> list[int]:
    """The ``marks`` plies of greatest cost above nothing, ties the earlier first, in order."""
    costs = []
    for p, seat in enumerate(seats, start=1):
        drop = points[p - 1] - points[p]  # what team 0 lost
        cost = -drop if team_of(seat) else drop
        if cost > 0:
            costs.append((-cost, p))
    return sorted(p for _, p in sorted(costs)[:marks])


def _expert_move(state: GameState, budget: int, seed: int) -> str:
    """What the expert would play at ``state`` for the seat to act, seeing only its view."""
    return str(decide(make_bot(f"expert:{budget}", seed), state))


WIDTH = 640
"""The chart's width, in its own units."""
HEIGHT = 200
"""The chart's height, in its own units."""


def chart_svg(analysis: Analysis) -> str:
    """The chart of team 0's chance over the game, as an SVG document: a line through every
    state, the costly plies marked (links to ``#ply-P``), a title and a description.

    Every coordinate is a whole number worked out in whole numbers, so that ``chart_svg``
    of ``js/src/analysis.ts`` writes the same text."""
    n = len(analysis.points) - 1
    full = 2 * analysis.playouts

    def x(k: int) -> int:
        return (WIDTH * k) // max(n, 1)

    def y(points: int) -> int:
        return HEIGHT - (HEIGHT * points) // full

    line = " ".join(f"{x(k)},{y(p)}" for k, p in enumerate(analysis.points))
    marks = []
    for c in analysis.costly:
        team = team_of(analysis.seats[c.ply - 1])
        label = (
            f"Ply {c.ply}: team {team} lost "
            f"{_percent(analysis, c.ply - 1, team)} to {_percent(analysis, c.ply, team)} "
            f"with {c.played}; the expert would have played {c.expert}"
        )
        marks.append(
            f'<a href="#ply-{c.ply}" class="costly" data-ply="{c.ply}" aria-label="{label}">'
            f"<title>{label}</title>"
            f'<line x1="{x(c.ply)}" y1="0" x2="{x(c.ply)}" y2="{HEIGHT}" class="mark-line" stroke="#c01c28"/>'
            f'<circle cx="{x(c.ply)}" cy="{y(analysis.points[c.ply])}" r="7" class="mark" fill="#c01c28"/></a>'
        )
    first, last = _percent(analysis, 0, 0), _percent(analysis, n, 0)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-8 -8 {WIDTH + 16} {HEIGHT + 16}" '
        f'class="analysis-chart" aria-labelledby="chart-title chart-desc">'
        f'<title id="chart-title">Team 0\'s chance of winning, ply by ply</title>'
        f'<desc id="chart-desc">{n} plies, {analysis.playouts} playouts a state: team 0 '
        f"{first} at the deal, {last} at the end; {len(analysis.costly)} costly plies marked."
        f"</desc>"
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" class="frame" fill="#fff" '
        f'stroke="#888"/>'
        f'<line x1="0" y1="{HEIGHT // 2}" x2="{WIDTH}" y2="{HEIGHT // 2}" class="even" '
        f'stroke="#888" stroke-dasharray="4 4"/>'
        f'<text x="8" y="26" class="label" font-family="sans-serif" font-size="22" fill="#57606a">team 0 wins: 100%</text>'
        f'<text x="6" y="{HEIGHT - 8}" class="label" font-family="sans-serif" font-size="22" fill="#57606a">0%</text>'
        f'<polyline points="{line}" class="chance" fill="none" stroke="#1a5fb4" '
        f'stroke-width="2"/>{"".join(marks)}</svg>\n'
    )


def _percent(analysis: Analysis, state: int, team: int) -> str:
    """``team``'s chance at ``state`` in whole percent, rounded down (the same in both languages)."""
    points = analysis.points[state] if team == 0 else 2 * analysis.playouts - analysis.points[state]
    return f"{(100 * points) // (2 * analysis.playouts)}%"
