"""What a public position is worth to a team: :func:`evaluate`, shared by every bot but ``random``.

The value is in "holes" from one team's point of view: the sum of its pegs'
values less the sum of the other team's.

* A peg in its start area is worth 0. A peg out on the track is worth
  :data:`OUT_VALUE` plus how far it has come: :data:`OUT_VALUE` on its
  come-out hole, ``OUT_VALUE + length - 5`` on its in-spot (a peg that has
  passed its in-spot has a whole lap to go, and is worth a little less than
  one on its come-out hole).
* A peg home is worth a peg on its in-spot plus :data:`HOME_VALUE` plus its
  home hole number (the deeper, the more room it leaves).
* Safety: a track peg that an opponent could land on next round loses the
  chance of that times its value, times :data:`OWN_RISK` for the evaluating
  team's pegs (the opponents move next) and :data:`OPPONENT_RISK` for the
  opponents' pegs. The chance comes from the opponents' pegs behind it
  (1..13 holes, by the ranks that move exactly that far, 7 and 9 splits
  included), 8 holes ahead of it (an 8 moves back) and, on an opponent's
  come-out hole, that opponent's pegs waiting in start; each rank is taken
  to be in a five-card hand with probability ``1 - (1 - 1/13.5) ** 5``.
* With ``joker=True`` (the expert's evaluation) a track peg also carries the
  chance that the opponents hold a joker, which can land on any peg: the same
  chance for every track peg, as if the joker were half a rank.
* Displacing an opponent sends its peg to start (its value to 0); landing on
  a team-mate's peg sends it to its in-spot, which the values reward; moving
  a team-mate's peg counts as much as moving one's own (helping the team).

:func:`progress` is the same sum without the safety terms. :func:`ranked`
scores each legal move by the position it leaves, computed from the public
position and the seat's own hand alone (the pegs a move leaves, knock-ons
included).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from pegs_rules.board import START, Location, is_home, team_of
from pegs_rules.cards import COME_OUT_RANKS, Rank
from pegs_rules.movegen import forward_steps, hand_plays, splits
from pegs_rules.moves import Discard, Move, Step
from pegs_rules.rules import Nine, Rules
from pegs_rules.sequence import moved
from pegs_rules.state import GameState, board_for
from pegs_rules.views import PlayerView

__all__ = [
    "HOME_VALUE",
    "OPPONENT_RISK",
    "OUT_VALUE",
    "OWN_RISK",
    "WIN",
    "evaluate",
    "peg_value",
    "progress",
    "ranked",
    "won",
]

OUT_VALUE = 10.0
"""What getting a peg out of its start area is worth, in holes travelled."""
HOME_VALUE = 12.0
"""What bringing a peg from its in-spot into home is worth, besides its home hole number."""
OWN_RISK = 0.6
"""Weight of the chance that one of the evaluating team's track pegs is knocked next round."""
OPPONENT_RISK = 0.3
"""Weight of the same chance for the opponents' pegs (our team moves first)."""
WIN = 1e6
"""The score :func:`ranked` gives a move that wins the game."""
_HAND = 5
_RANK_SHARE = 1 / 13.5
"""Share of the deck that each rank is (jokers are half a rank)."""
Pegs = tuple[tuple[Location, ...], ...]
"""Every seat's peg locations, as in :class:`~pegs_rules.GameState`."""
Effects = Mapping[Move, Sequence[Step]]
"""Each play of the seat to act with the peg changes it makes, knock-ons included."""


def peg_value(players: int, seat: int, location: Location) -> float:
    """The value of a peg of ``seat`` at ``location`` (see the module docstring)."""
    return values_for(players)[seat][location]


@lru_cache(maxsize=8)
def values_for(players: int) -> tuple[dict[Location, float], ...]:
    """:func:`peg_value` as a table for each seat, by location."""
    board = board_for(players)
    length = board.track_length
    home_base = OUT_VALUE + length - 5 + HOME_VALUE
    tables = []
    for seat in board.seats:
        spot = board.in_spot(seat)
        values: dict[Location, float] = {START: 0.0}
        for hole in range(length):
            values[hole] = OUT_VALUE + length - 5 - (spot - hole) % length
        for location in board.home_holes():
            values[location] = home_base + (location - 1000)
        tables.append(values)
    return tuple(tables)


def _chance(ranks: float) -> float:
    """The chance that a five-card hand holds one of ``ranks`` ranks."""
    return 1.0 - (1.0 - min(ranks * _RANK_SHARE, 1.0)) ** _HAND


@lru_cache(maxsize=32)
def _threats(rules: Rules) -> tuple[tuple[float, ...], float, float, float, dict[int, float]]:
    """Chances of a hit from ``d`` holes behind (index d), from 8 ahead, on a come-out hole and
    by a joker; and a table to fill, by pattern of the 13 holes behind a peg (bit ``13 - d``:
    an opponent ``d`` holes behind), of the chance that none of them hits it (see
    :func:`_safe_behind`)."""
    behind = [0.0]
    for d in range(1, 14):
        ranks = 0
        for rank in Rank:
            steps = forward_steps(rank, rules)
            if steps == d or (splits(rank, rules) and d < steps):
                ranks += 1
        behind.append(_chance(ranks))
    back = 1 + (rules.nine is Nine.FORWARD_BACKWARD)
    return tuple(behind), _chance(back), _chance(len(COME_OUT_RANKS)), _chance(0.5), {}


def _safe_behind(near: int, behind: tuple[float, ...], known: dict[int, float]) -> float:
    """The chance that none of the opponents behind a peg hits it, ``near`` being their
    pattern (see :func:`_threats`), remembered in ``known``."""
    safe = known.get(near)
    if safe is None:
        safe = 1.0
        for d in range(1, 14):
            if near >> (13 - d) & 1:
                safe *= 1.0 - behind[d]
        known[near] = safe
    return safe


def evaluate(pegs: Pegs, team: int, rules: Rules, *, joker: bool = False) -> float:
    """The value of a position of ``pegs`` for ``team``, in holes (see the module docstring);
    ``joker``: count the joker's threat too."""
    players = len(pegs)
    values = values_for(players)
    length = 18 * players
    behind, back, come_out, jokers, safe_behind = _threats(rules)
    anywhere = 1.0 - jokers if joker else 1.0  # the chance that no joker hits a track peg
    # the track holes each team holds, as a mask, twice round (so that a stretch may wrap);
    # and the come-out holes threatened from start
    held = [0, 0]
    for seat, locs in enumerate(pegs):
        for p in locs:
            if 0 <= p < 1000:
                held[seat & 1] |= 1 << p
    twice = [mask | mask << length for mask in held]
    out_threat: dict[int, int] = {}
    for seat, locs in enumerate(pegs):
        if locs[0] == START:
            out_threat[18 * seat + 8] = seat
    total = 0.0
    for seat, locs in enumerate(pegs):
        mine = team_of(seat) == team
        sign = 1.0 if mine else -1.0
        weight = OWN_RISK if mine else OPPONENT_RISK
        seat_team = seat & 1
        table = values[seat]
        for p in locs:
            value = table[p]
            if 0 <= p < 1000:
                rivals = twice[1 - seat_team]
                near = rivals >> (p + length - 13) & 0x1FFF  # bit 13 - d: hole p - d
                safe = anywhere * _safe_behind(near, behind, safe_behind) if near else anywhere
                if rivals >> (p + 8) & 1:
                    safe *= 1.0 - back
                other = out_threat.get(p)
                if other is not None and other & 1 != seat_team:
                    safe *= 1.0 - come_out
                value -= weight * (1.0 - safe) * value
            total += sign * value
    return total


def progress(pegs: Pegs, team: int) -> float:
    """:func:`evaluate` without the safety terms: the team's peg values less the others'."""
    total = 0.0
    for seat, (locs, table) in enumerate(zip(pegs, values_for(len(pegs)), strict=True)):
        value = sum([table[p] for p in locs])
        total += value if team_of(seat) == team else -value
    return total


def public_state(seen: PlayerView) -> GameState:
    """A state holding only what ``seen`` shows: its pegs and the seat's own hand.

    Enough for :func:`~pegs_rules.movegen.hand_plays`, which reads nothing
    else; the other hands and the draw pile are left empty.
    """
    return GameState(
        rules=seen.rules,
        pegs=seen.pegs,
        hands=tuple(seen.hand if s == seen.seat else () for s in range(seen.players)),
        draw_pile=(),
        discard_pile=seen.discard_pile,
        turn=seen.seat,
        dealer=seen.dealer,
        seed=0,
        ply=seen.ply,
    )


def effects_of(seen: PlayerView) -> dict[Move, Sequence[Step]]:
    """Each play of the seat whose view ``seen`` is, with the peg changes it makes."""
    plays = hand_plays(public_state(seen)).values()
    return {play: changes for listed in plays for play, changes in listed}


def after(pegs: Pegs, effects: Effects, move: Move) -> Pegs:
    """The pegs ``move`` leaves (``effects``: those of :func:`effects_of` for ``pegs``)."""
    changes = effects.get(move)
    return moved(pegs, changes) if changes else pegs


def discard_cost(move: Move) -> float:
    """A small tie-break between discards: keep jokers and cards that come out."""
    if not isinstance(move, Discard):
        return 0.0
    if move.card is Rank.JOKER:
        return 0.5
    return 0.25 if move.card in COME_OUT_RANKS else 0.0


def ranked(
    seen: PlayerView, moves: Sequence[Move], effects: Effects, *, joker: bool = False
) -> list[tuple[float, Move]]:
    """Each move with the :func:`evaluate` (``joker`` as there) of the position it leaves for
    the seat's team, less :func:`discard_cost` (:data:`WIN` for a move that wins)."""
    team = team_of(seen.seat)
    rules = seen.rules
    scored = []
    for move in moves:
        pegs = after(seen.pegs, effects, move)
        if won(pegs, team):
            scored.append((WIN, move))
        else:
            scored.append((evaluate(pegs, team, rules, joker=joker) - discard_cost(move), move))
    return scored


def won(pegs: Pegs, team: int) -> bool:
    """Whether every peg of ``team`` is home (``game.end``)."""
    return all(is_home(p) for locs in pegs[team::2] for p in locs)
