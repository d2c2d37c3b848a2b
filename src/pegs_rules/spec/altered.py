"""Altered moves: the legal moves of a position changed a little, mostly into illegal ones.

An engine that lists the right moves may still judge wrongly a move it is
sent; the fuzzer therefore also sends moves made from the legal ones by one
change each: another card, another peg (moved as far), a step one hole too
long or too short, a split in the other order or with its parts shifted by
one, a swap written from the other peg, a step of another seat's colour (or
of a seat the board does not have), a discard or a pass while a card
plays, and, where the seat may only discard or pass, a play. Most are
illegal (the reference names the ruling that forbids each); some are legal
(a split whose two orders leave the same position), which is as useful.

>>> import random
>>> from pegs_rules import legal_moves, parse_position
>>> state = parse_position("pegs 0: 10 30\\nhand 0: 5")
>>> altered_moves(state, legal_moves(state), random.Random(1), 4)  # the legal: 5 0:10-15, 5 0:30-35
['discard 5', '8 0:30-35', 'K 0:30-35', 'Q 0:10-15']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from pegs_rules.board import HOME_HOLES, START, home, home_index, is_home, is_track
from pegs_rules.cards import Rank
from pegs_rules.moves import Discard, Move, Pass, Play, Step
from pegs_rules.state import GameState

Alteration = Callable[[GameState, Move, random.Random], Move | None]


def altered_moves(
    state: GameState, legal: Sequence[Move], rng: random.Random, count: int
) -> list[str]:
    """Up to ``count`` distinct moves made from ``legal`` by one change each, none of them
    written as a listed move is."""
    if state.winner is not None or count <= 0:
        return []
    listed = {str(move) for move in legal}
    sources = list(legal) or [Pass()]
    found: dict[str, None] = {}
    for _ in range(4 * count):
        if len(found) >= count:
            break
        move = rng.choice(sources)
        change = rng.choice(_ALTERATIONS)
        made = change(state, move, rng)
        if made is not None and str(made) not in listed:
            found[str(made)] = None
    return list(found)


def _another_card(state: GameState, move: Move, rng: random.Random) -> Move | None:
    if isinstance(move, Play):
        return Play(rng.choice([r for r in Rank if r is not move.card]), move.steps)
    if isinstance(move, Discard):
        return Discard(rng.choice([r for r in Rank if r is not move.card]))
    return _a_play(state, move, rng)


def _another_peg(state: GameState, move: Move, rng: random.Random) -> Move | None:
    if not isinstance(move, Play):
        return None
    pegs = [(seat, p) for seat, locs in enumerate(state.pegs) for p in set(locs)]
    index = rng.randrange(len(move.steps))
    step = move.steps[index]
    seat, src = rng.choice(pegs)
    if (seat, src) == (step.seat, step.src):
        return None
    length = 18 * state.players
    dst = step.dst
    if is_track(step.src) and is_track(step.dst) and is_track(src):
        dst = (src + step.dst - step.src) % length
    elif src == START and step.src != START:
        dst = 18 * seat + 8  # its come-out hole
    steps = list(move.steps)
    steps[index] = Step(seat, src, dst)
    return Play(move.card, tuple(steps))


def _one_hole_off(state: GameState, move: Move, rng: random.Random) -> Move | None:
    if not isinstance(move, Play):
        return None
    index = rng.randrange(len(move.steps))
    step = move.steps[index]
    off = rng.choice((-1, 1))
    if is_track(step.dst):
        dst = (step.dst + off) % (18 * state.players)
    elif is_home(step.dst) and 1 <= home_index(step.dst) + off <= HOME_HOLES:
        dst = home(home_index(step.dst) + off)
    else:
        return None
    steps = list(move.steps)
    steps[index] = Step(step.seat, step.src, dst)
    return Play(move.card, tuple(steps))


def _other_order(state: GameState, move: Move, rng: random.Random) -> Move | None:
    """A split, or a swap, written in the other order."""
    if not isinstance(move, Play) or len(move.steps) != 2:
        return None
    return Play(move.card, move.steps[::-1])


def _parts_shifted(state: GameState, move: Move, rng: random.Random) -> Move | None:
    """A split whose first part goes one hole further and second one hole less."""
    if not isinstance(move, Play) or len(move.steps) != 2:
        return None
    first, second = move.steps
    if not (is_track(first.dst) and is_track(second.dst)):
        return None
    length = 18 * state.players
    return Play(
        move.card,
        (
            Step(first.seat, first.src, (first.dst + 1) % length),
            Step(second.seat, second.src, (second.dst - 1) % length),
        ),
    )


def _another_seat(state: GameState, move: Move, rng: random.Random) -> Move | None:
    """A step of another colour's peg from the same hole, now and then of a seat the board
    does not have."""
    if not isinstance(move, Play):
        return None
    index = rng.randrange(len(move.steps))
    step = move.steps[index]
    seat = state.players if rng.random() < 0.1 else rng.randrange(state.players)
    if seat == step.seat:
        return None
    steps = list(move.steps)
    steps[index] = Step(seat, step.src, step.dst)
    return Play(move.card, tuple(steps))


def _discard_or_pass(state: GameState, move: Move, rng: random.Random) -> Move | None:
    hand = state.hands[state.turn]
    if hand and rng.random() < 0.8:
        return Discard(rng.choice(hand))
    return Pass()


def _a_play(state: GameState, move: Move, rng: random.Random) -> Move | None:
    """A play of a card of the hand (or any card) by its count, where only a discard or a
    pass is legal."""
    if isinstance(move, Play):
        return None
    pegs = [(seat, p) for seat, locs in enumerate(state.pegs) for p in locs if is_track(p)]
    if not pegs:
        return None
    hand = state.hands[state.turn]
    card = rng.choice(hand) if hand else rng.choice(list(Rank))
    seat, src = rng.choice(pegs)
    count = int(card) if card <= Rank.TEN else 10
    return Play(card, (Step(seat, src, (src + count) % (18 * state.players)),))


_ALTERATIONS: tuple[Alteration, ...] = (
    _another_card,
    _another_peg,
    _one_hole_off,
    _other_order,
    _parts_shifted,
    _another_seat,
    _discard_or_pass,
    _a_play,
)
