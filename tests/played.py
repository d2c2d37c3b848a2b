"""States reached by real play, for the property tests of serialisation, views, events,
records and notation.

A state is either a random prefix of a fresh game (random preset, seat count, seed and
legal moves) or a state of one of a few complete random games played once per session, so
that late positions (pegs home, reshuffles, a winner) come up as well as early ones.
"""

from __future__ import annotations

import dataclasses
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from pegs_rules import GameState, Move, Rules, apply, legal_moves, new_game
from pegs_rules.bots import decide, make_bot
from pegs_rules.records import GameRecord, record_of
from pegs_rules.rules import PRESETS

PLAYER_COUNTS = (4, 6, 8)
PRESET_NAMES = tuple(sorted(PRESETS))
SCHEMAS = Path(__file__).resolve().parents[1] / "specs" / "schema"


def play(
    players: int, seed: int, move_seed: int, plies: int, rules: Rules | None = None
) -> tuple[list[GameState], list[Move]]:
    """The states and moves of a random game prefix of at most ``plies`` turns."""
    rng = random.Random(move_seed)
    state = new_game(players, seed=seed, rules=rules or PRESETS["arizona"])
    states: list[GameState] = [state]
    moves: list[Move] = []
    while len(moves) < plies and state.winner is None:
        move = rng.choice(legal_moves(state))
        state = apply(state, move)
        states.append(state)
        moves.append(move)
    return states, moves


@cache
def bots_game(players: int, seed: int, bot: str = "greedy") -> GameRecord:
    """The record of a whole game between seeded bots (as ``pegs demo`` seeds them)."""
    state = start = new_game(players, seed=seed)
    bots = [make_bot(bot, seed * 100 + seat) for seat in range(players)]
    moves = []
    while not state.is_over:
        moves.append(decide(bots[state.turn], state))
        state = apply(state, moves[-1])
    return record_of(start, moves)


def full_game(preset: str, players: int) -> tuple[tuple[GameState, ...], tuple[Move, ...]]:
    """A complete random game (played once per session)."""
    states, moves = play(
        players, seed=players * 7 + 1, move_seed=players, plies=10**6, rules=PRESETS[preset]
    )
    assert states[-1].winner is not None
    return tuple(states), tuple(moves)


FULL_GAMES = [(preset, players) for preset in PRESET_NAMES for players in PLAYER_COUNTS]


@st.composite
def game_prefixes(draw: st.DrawFn, max_plies: int = 120) -> tuple[list[GameState], list[Move]]:
    """The states and moves of a random game prefix."""
    preset = draw(st.sampled_from(PRESET_NAMES))
    players = draw(st.sampled_from(PLAYER_COUNTS))
    seed = draw(st.integers(0, 2**32 - 1))
    plies = draw(st.integers(0, max_plies))
    return play(players, seed, draw(st.integers(0, 2**32 - 1)), plies, PRESETS[preset])


@st.composite
def reached_states(draw: st.DrawFn, max_plies: int = 120) -> GameState:
    """A state reached by real play: early (a fresh prefix) or anywhere in a full game."""
    if draw(st.booleans()):
        full, _ = full_game(*draw(st.sampled_from(FULL_GAMES)))
        return full[draw(st.integers(0, len(full) - 1))]
    prefix, _ = draw(game_prefixes(max_plies))
    return prefix[-1]


def examples(factor: float) -> int:
    """``factor`` times the active profile's example budget (so that ``thorough`` scales it)."""
    budget: int = settings().max_examples  # typed Any by the hypothesis releases for 3.10
    return max(5, round(budget * factor))


@cache
def schema_validator(name: str) -> Draft202012Validator:
    """A validator for ``specs/schema/<name>.schema.json`` that resolves the other schemas."""
    resources = []
    for path in SCHEMAS.glob("*.schema.json"):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    registry: Registry[Any] = Registry().with_resources(resources)
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=registry)


def check_schema(name: str, document: object) -> None:
    """Fail with every schema error if ``document`` does not match ``<name>.schema.json``."""
    errors = [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in schema_validator(name).iter_errors(document)
    ]
    assert not errors, errors


def shuffle_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """``state`` with every card ``seat`` cannot see (other hands, the draw pile) dealt anew,
    each hand and the pile keeping its size, and another seed."""
    hidden = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
    hidden += state.draw_pile
    rng.shuffle(hidden)
    hands = []
    for s, hand in enumerate(state.hands):
        if s == seat:
            hands.append(hand)
        else:
            hands.append(tuple(sorted(hidden[: len(hand)])))
            del hidden[: len(hand)]
    return dataclasses.replace(
        state, hands=tuple(hands), draw_pile=tuple(hidden), seed=rng.getrandbits(64)
    )
