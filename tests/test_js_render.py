"""The TypeScript board drawing (``js/src/render.ts``, entry point ``pegs-rules/render``) draws
what :func:`pegs_rules.render.svg` draws, byte for byte.

A differential test: positions reached by seeded random play at 4, 6 and 8 seats, under both
presets and random house rules, and finished games, are drawn by both engines, each with a move
to show or none (single steps, splits, swaps, discards, passes), with and without highlighted
holes and hole numbers, at sizes from the smallest allowed to the playground's and a huge one.
The TypeScript side (``js/scripts/render.mjs``) reads each state from its JSON document and the
move from its notation. At the huge size (2**50 pixels) a coordinate is written with about
eighteen significant digits, enough to show its last bit: so the two engines must compute the
same floating-point numbers, not just the same rounded pixels. It is also where many values fall
exactly halfway between two hundredths (which Python rounds to even and JavaScript's ``toFixed``
would round up); the test counts them, to be sure it meets them.
Boards that cannot be drawn (a highlight off the track, a size too small, a step off the board)
must fail with the same error and message in both.

The seeds (from :data:`SEED_BASE`) are used by no other test.
"""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
from typing import Any

import pytest
from jsengine import JS, node_command
from test_js_agreement import house_rules

import pegs_rules.render as render
from pegs_rules import (
    Discard,
    GameState,
    Move,
    Pass,
    Play,
    PositionError,
    apply,
    legal_moves,
    new_game,
    parse_notation,
    to_json,
)
from pegs_rules.board import home
from pegs_rules.rules import ARIZONA, STANDARD, Rules

SCRIPT = JS / "scripts" / "render.mjs"
SEED_BASE = 43_000_000
"""Game ``g`` is dealt from seed ``SEED_BASE + g``; its moves and drawings are picked with it too."""
GAMES = 24
POSITIONS_PER_GAME = 12
PLIES = (60, 300)
"""Each game is played for a number of turns in this range, and sampled along the way."""
HUGE = 2**50
SIZES = (50, 137, 320, 520, 640, 1001, HUGE)
"""The smallest size allowed, odd ones, the default, the playground's (``BOARD_SIZE``) and a
huge one, at which a unit in the last place of any coordinate past a sixteenth of the picture
is more than a hundredth of a pixel: its text shows every bit of it."""


def game_rules(game: int, rng: random.Random) -> Rules:
    return (ARIZONA, STANDARD)[game % 2] if game % 5 < 2 else house_rules(rng)


def positions(game: int) -> list[GameState]:
    """Positions of game ``game``: a prefix of random play, sampled, and its last position as
    if the seat to act had just won the game."""
    rng = random.Random(SEED_BASE + game)
    players = (4, 6, 8)[game % 3]
    state = new_game(players, seed=SEED_BASE + game, rules=game_rules(game, rng))
    length = rng.randint(*PLIES)
    plies = set(rng.sample(range(length + 1), POSITIONS_PER_GAME - 1))
    out = [state] if 0 in plies else []
    while state.ply < length and state.winner is None:
        state = apply(state, rng.choice(legal_moves(state)))
        if state.ply in plies:
            out.append(state)
    out.append(finished(state))
    return out


def finished(state: GameState) -> GameState:
    """``state`` as if the seat to act had just won: its team's pegs all home, and its hand
    without the card it would have played."""
    team = state.turn % 2
    lane = tuple(home(k) for k in range(1, 6))
    pegs = tuple(lane if seat % 2 == team else locs for seat, locs in enumerate(state.pegs))
    hand = state.hands[state.turn]
    hands = tuple(hand[:-1] if seat == state.turn else h for seat, h in enumerate(state.hands))
    discard = (*state.discard_pile, *hand[-1:])
    return dataclasses.replace(state, pegs=pegs, hands=hands, discard_pile=discard, winner=team)


def shown_move(state: GameState, rng: random.Random) -> Move | None:
    """A move to draw: mostly a legal play (splits and swaps when there are), sometimes a
    discard of a card in hand (or a pass, the hand empty), or none."""
    moves = legal_moves(state)
    roll = rng.random()
    if not moves or roll < 0.2:
        return None
    if roll < 0.3:
        hand = state.hands[state.turn]
        return Discard(rng.choice(hand)) if hand else Pass()
    plays: list[Move] = [m for m in moves if isinstance(m, Play)] or list(moves)
    doubles = [m for m in plays if isinstance(m, Play) and len(m.steps) == 2]
    return rng.choice(doubles if doubles and rng.random() < 0.4 else plays)


def jobs() -> list[tuple[GameState, Move | None, list[int], bool, int]]:
    """Every drawing the test compares: state, move, highlight, labels, size."""
    out = []
    for game in range(GAMES):
        rng = random.Random(-SEED_BASE - game)
        for state in positions(game):
            move = None if state.winner is not None else shown_move(state, rng)
            track = 18 * state.players
            highlight = [] if rng.random() < 0.5 else rng.choices(range(track), k=rng.randint(1, 4))
            out.append((state, move, highlight, rng.random() < 0.8, rng.choice(SIZES)))
    return out


def typescript(drawings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The TypeScript engine's answers (see ``js/scripts/render.mjs``)."""
    text = "".join(json.dumps(job) + "\n" for job in drawings)
    done = subprocess.run(
        node_command(SCRIPT), input=text, capture_output=True, text=True, check=True, timeout=300
    )
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def job(
    state: GameState, move: Move | None, highlight: list[int], labels: bool, size: int
) -> dict[str, Any]:
    """A drawing as ``render.mjs`` reads it: the state as JSON, the move in notation."""
    notation = None if move is None else str(move)
    return {
        "state": to_json(state),
        "move": notation,
        "highlight": highlight,
        "labels": labels,
        "size": size,
    }


def first_difference(ours: str, theirs: str) -> str:
    """The first line where two drawings part, with its number."""
    mine, other = ours.splitlines(), theirs.splitlines()
    for number, (a, b) in enumerate(zip(mine, other, strict=False), 1):
        if a != b:
            return f"line {number}:\n  python:     {a}\n  typescript: {b}"
    return f"one drawing is longer: {len(mine)} lines against {len(other)}"


def test_the_typescript_drawing_is_byte_identical(monkeypatch: pytest.MonkeyPatch) -> None:
    node_command(SCRIPT)  # skip (or fail in CI) before drawing anything
    halves = 0
    number = render._num

    def counted(value: float) -> str:
        nonlocal halves
        halves += (value * 8).is_integer() and int(value * 8) % 2 == 1
        return number(value)

    monkeypatch.setattr(render, "_num", counted)
    monkeypatch.setattr(render, "_HOLE_LINES", {})  # draw every hole, to count them all
    drawings = jobs()
    ours = [
        render.svg(state, move, highlight=marked, labels=labels, size=size)
        for state, move, marked, labels, size in drawings
    ]
    theirs = typescript([job(*drawing) for drawing in drawings])
    assert len(theirs) == len(drawings)
    for drawing, mine, answer in zip(drawings, ours, theirs, strict=True):
        state, move, marked, labels, size = drawing
        assert "error" not in answer, f"{answer}\nposition:\n{state}\nmove: {move}"
        if answer["svg"] != mine:
            pytest.fail(
                f"the drawings differ at {state.players} seats, ply {state.ply}, move {move}, "
                f"highlight {marked}, labels {labels}, size {size}\nposition:\n{state}\n"
                + first_difference(mine, answer["svg"])
            )
    seen = {
        "seat counts": {s.players for s, *_ in drawings},
        "sizes": {size for *_, size in drawings},
        "splits or swaps": sum(isinstance(m, Play) and len(m.steps) == 2 for _, m, *_ in drawings),
        "single steps": sum(isinstance(m, Play) and len(m.steps) == 1 for _, m, *_ in drawings),
        "discards or passes": sum(isinstance(m, (Discard, Pass)) for _, m, *_ in drawings),
        "no move": sum(m is None for _, m, *_ in drawings),
        "highlights": sum(bool(h) for _, _, h, *_ in drawings),
        "no hole numbers": sum(not labels for *_, labels, _ in drawings),
        "finished games": sum(s.winner is not None for s, *_ in drawings),
        "halfway values": halves,
    }
    print(f"{len(drawings)} drawings identical: {seen}")
    assert seen["seat counts"] == {4, 6, 8} and seen["sizes"] == set(SIZES)
    assert min(v for v in seen.values() if isinstance(v, int)) >= 10, seen


BAD: list[tuple[str | None, list[int], int]] = [
    (None, [72], 520),  # a highlight off the track
    (None, [-1], 520),  # a highlight that is no hole
    (None, [], 49),  # too small
    ("5 0:12-80", [], 520),  # a step off the board
    ("5 4:12-17", [], 520),  # a step of no seat
]
"""Boards that cannot be drawn on 4 seats: the move in notation, the highlight, the size."""


def test_a_board_that_cannot_be_drawn_fails_alike() -> None:
    node_command(SCRIPT)
    state = new_game(4, seed=SEED_BASE)
    expected = []
    for move, highlight, size in BAD:
        shown = None if move is None else parse_notation(move)
        with pytest.raises(PositionError) as raised:
            render.svg(state, shown, highlight=highlight, size=size)
        expected.append({"error": "PositionError", "message": str(raised.value)})
    answers = typescript(
        [
            {"state": to_json(state), "move": m, "highlight": h, "labels": True, "size": z}
            for m, h, z in BAD
        ]
    )
    assert answers == expected
