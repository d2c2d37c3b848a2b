"""The TypeScript engine (``js/``) agrees with this library, position for position.

A differential test: seeded games are played to the end (or 2,000 turns) by this library and by
the TypeScript engine, each on its own, over every seat count, both presets and random
combinations of every house-rule field, each move picked among the legal ones by the same
seeded generator. At every position the two must agree on the state (every field, the piles as
:func:`record` says) and on the legal moves in their order: each side hashes one record per
position, and
a game whose hashes differ is played again with every record kept, to show the first position
where they part. At every 100th position the whole state JSON, and the events of the move played
there, must be byte-identical. At every 48th position the shortest notation of the first legal
moves must be the same (``format_move(short=True)``), and the seat to act is offered altered moves (another card, another peg, a step too
long or too short, another seat, the parts of a split reordered, a swap written from the other
peg, a discard, a pass), and both engines must give the same verdict, ruling id and reason.

The seeds (from :data:`SEED_BASE`) are used by no other test. The number of positions is
``PEGS_JS_AGREEMENT_POSITIONS``: 50,000 by default, and 1,000,000 in CI's run against the compiled
build (``.ci/run``), on the core the rest of CI leaves idle. They are spread over :data:`CHUNKS`
tests, which pytest-xdist can run in parallel.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
import subprocess
from typing import Any

import pytest
from jsengine import JS, node_command

from pegs_rules import (
    Discard,
    GameState,
    Move,
    Pass,
    Play,
    Rank,
    Step,
    apply,
    apply_with_events,
    events_to_data,
    explain,
    format_move,
    legal_moves,
    new_game,
    to_json,
)
from pegs_rules.board import START, home
from pegs_rules.errors import RulesError
from pegs_rules.rules import ARIZONA, STANDARD, Control, InSpotOccupied, JokerSource, Nine, Rules
from pegs_rules.serialize import to_data

POSITIONS = int(os.environ.get("PEGS_JS_AGREEMENT_POSITIONS", "50000"))
CHUNKS = 8
SEED_BASE = 41_000_000
"""Game ``g`` is dealt from seed ``SEED_BASE + g`` and picks its moves with seed ``2 * SEED_BASE + g``."""
MAX_PLIES = 2_000
JSON_EVERY = 100
CANDIDATES_EVERY = 48
SHORTHANDS = 4
SCRIPT = JS / "scripts" / "agreement.mjs"

DECK_TABLES = (
    ((4, 3, 6), (6, 3, 6), (8, 4, 8)),
    ((4, 2, 4), (6, 3, 6), (8, 4, 8)),
    ((4, 1, 8), (6, 2, 0), (8, 3, 2)),
    ((4, 5, 0), (6, 6, 12), (8, 8, 16)),
)


def house_rules(rng: random.Random) -> Rules:
    """A preset with a random set of its fields changed, each to a random value, drawn again
    until the combination is playable."""
    while True:
        try:
            return _house_rules(rng)
        except RulesError:
            continue


def _house_rules(rng: random.Random) -> Rules:
    rules = rng.choice((ARIZONA, STANDARD))
    changes: dict[str, Any] = {
        "decks": rng.choice(DECK_TABLES),
        "hand_size": rng.choice((1, 2, 3, 4, 5, 6, 7)),
        "draw_first": rng.random() < 0.5,
        "control": rng.choice(list(Control)),
        "joker_source": rng.choice(list(JokerSource)),
        "nine": rng.choice(list(Nine)),
        "face_values": tuple(rng.randint(1, 13) for _ in range(3)),
        "home_entry_compulsory": rng.random() < 0.5,
        "wait_on_in_spot": rng.random() < 0.5,
        "in_spot_occupied": rng.choice(list(InSpotOccupied)),
        "two_swap": rng.random() < 0.5,
    }
    chosen = {k: v for k, v in changes.items() if rng.random() < 0.4}
    if chosen:
        chosen["name"] = "house"
    return dataclasses.replace(rules, **chosen)


def game_config(game: int) -> dict[str, Any]:
    """Game ``game``'s seat count, rules and seeds."""
    rng = random.Random(SEED_BASE + game)
    rules = rng.choice((ARIZONA, STANDARD)) if game % 3 == 0 else house_rules(rng)
    return {
        "game": game,
        "seed": str(SEED_BASE + game),
        "players": rng.choice((4, 6, 8)),
        "rules": {k: v for k, v in to_data(rules).items() if k not in ("format", "type")},
        "choices": str(2 * SEED_BASE + game),
        "max_plies": MAX_PLIES,
    }


def record(state: GameState, moves: tuple[Move, ...], whole: bool) -> str:
    """One position as compact JSON: the state's fields, then the legal moves.

    The piles are recorded whole when ``whole`` (the deal, and after each reshuffle), and
    otherwise by their sizes and their last cards: cards leave the draw pile only from the top
    and join the discard pile only on top, so equal sizes, hands and moves at every position and
    equal piles at the deal and at each reshuffle make the piles equal everywhere. (The whole
    state JSON is compared every :data:`JSON_EVERY` positions besides.)
    """
    encoded = [
        (-1,)
        if isinstance(move, Pass)
        else (0, move.card)
        if isinstance(move, Discard)
        else (move.card, move.steps)
        for move in moves
    ]
    draw, discard = state.draw_pile, state.discard_pile
    piles = (draw, discard) if whole else (len(draw), draw[:1], len(discard), discard[-1:])
    fields = (
        state.pegs,
        state.hands,
        piles,
        state.turn,
        state.dealer,
        state.ply,
        state.reshuffles,
        state.winner,
        encoded,
    )
    return json.dumps(fields, separators=(",", ":"))


def locations(state: GameState) -> list[int]:
    """Every location a step may name on this board, and one beyond it."""
    length = 18 * state.players
    return [START, *range(length + 1), *(home(k) for k in range(1, 6))]


def alterations(state: GameState, legal: tuple[Move, ...], rng: random.Random) -> list[Move]:
    """Moves made from the legal ones by one change each (see the module docstring)."""
    out: list[Move] = [Discard(rng.choice(list(Rank))), Pass()]
    plays = [m for m in legal if isinstance(m, Play)]
    if not plays:
        return out
    play = rng.choice(plays)
    steps = play.steps
    first = steps[0]
    rest = steps[1:]
    board = locations(state)
    out.append(Play(rng.choice(list(Rank)), steps))
    out.append(Play(play.card, (Step(first.seat, rng.choice(board), first.dst), *rest)))
    shifted = first.dst + rng.choice((-3, -2, -1, 1, 2, 3))
    if first.dst >= 1000:
        shifted = home(min(5, max(1, shifted - 1000)))
    elif shifted < 0:
        shifted += 18 * state.players
    out.append(Play(play.card, (Step(first.seat, first.src, shifted), *rest)))
    out.append(
        Play(play.card, (Step(rng.randrange(state.players + 1), first.src, first.dst), *rest))
    )
    if len(steps) == 2:
        out.append(Play(play.card, steps[::-1]))
        out.append(Play(play.card, steps[:1]))
    else:
        other = rng.choice(plays).steps[0]
        out.append(Play(play.card, (first, other)))
    return out


def reference(config: dict[str, Any]) -> dict[str, Any]:
    """This library's side of one game (as ``agreement.mjs`` answers for the TypeScript one)."""
    rules = Rules(**{**dataclasses.asdict(ARIZONA), **_rules(config["rules"])})
    state = new_game(config["players"], seed=int(config["seed"]), rules=rules)
    choices = random.Random(int(config["choices"]))
    alter = random.Random(-int(config["seed"]))
    digest = hashlib.sha256()
    samples: dict[int, str] = {}
    candidates: dict[int, list[str]] = {}
    verdicts: dict[int, list[list[Any]]] = {}
    shorthands: dict[int, list[str]] = {}
    events: dict[int, str] = {}
    reshuffles = -1
    while True:
        moves = legal_moves(state)
        digest.update((record(state, moves, state.reshuffles != reshuffles) + "\n").encode())
        reshuffles = state.reshuffles
        if state.ply % JSON_EVERY == 0:
            samples[state.ply] = to_json(state)
        if state.ply % CANDIDATES_EVERY == 0 and moves:
            tried = alterations(state, moves, alter)
            candidates[state.ply] = [str(m) for m in tried]
            verdicts[state.ply] = [_verdict(explain(state, m)) for m in tried]
            shorthands[state.ply] = [format_move(state, m, short=True) for m in moves[:SHORTHANDS]]
        if not moves or state.ply >= config["max_plies"]:
            break
        move = choices.choice(moves)
        if state.ply % JSON_EVERY == 0:
            events[state.ply] = json.dumps(events_to_data(apply_with_events(state, move)[1], None))
        state = apply(state, move)
    return {
        "plies": state.ply,
        "digest": digest.hexdigest(),
        "json": samples,
        "candidates": candidates,
        "verdicts": verdicts,
        "shorthands": shorthands,
        "events": events,
    }


def _verdict(explanation: Any) -> list[Any]:
    return [explanation.legal, explanation.rule, explanation.reason]


def _rules(data: dict[str, Any]) -> dict[str, Any]:
    from pegs_rules import from_data

    rules = from_data({"format": 1, "type": "rules", **data}, "rules")
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}


def typescript(jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The TypeScript engine's answers to ``jobs`` (see ``js/scripts/agreement.mjs``)."""
    text = "".join(json.dumps(job) + "\n" for job in jobs)
    done = subprocess.run(
        node_command(SCRIPT), input=text, capture_output=True, text=True, check=True, timeout=900
    )
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    for answer in answers:
        assert "error" not in answer, answer.get("error")
    return answers


def first_difference(config: dict[str, Any]) -> str:
    """Where a game's positions part: both engines' records at the first that differs."""
    (theirs,) = typescript([{**config, "trace": True}])
    rules = Rules(**{**dataclasses.asdict(ARIZONA), **_rules(config["rules"])})
    state = new_game(config["players"], seed=int(config["seed"]), rules=rules)
    choices = random.Random(int(config["choices"]))
    reshuffles = -1
    for ply, line in enumerate(theirs["trace"]):
        moves = legal_moves(state)
        ours = record(state, moves, state.reshuffles != reshuffles)
        reshuffles = state.reshuffles
        if ours != line:
            return (
                f"game {config} parts at ply {ply}:\nposition:\n{state}\n"
                f"reference: {ours}\ntypescript: {line}"
            )
        if not moves:
            break
        state = apply(state, choices.choice(moves))
    return f"game {config}: the TypeScript engine played {len(theirs['trace'])} positions"


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_the_typescript_engine_agrees_position_for_position(chunk: int) -> None:
    node_command(SCRIPT)  # skip (or fail in CI) before playing anything
    configs: list[dict[str, Any]] = []
    ours: list[dict[str, Any]] = []
    positions = 0
    game = chunk
    while positions < POSITIONS // CHUNKS:
        config = game_config(game)
        result = reference(config)
        configs.append(config)
        ours.append(result)
        positions += result["plies"] + 1
        game += CHUNKS
    jobs = [
        {
            **config,
            "samples": sorted(result["json"]),
            "candidates": result["candidates"],
            "shorthands": SHORTHANDS,
        }
        for config, result in zip(configs, ours, strict=True)
    ]
    theirs = typescript(jobs)
    illegal = 0
    for config, mine, other in zip(configs, ours, theirs, strict=True):
        if (mine["plies"], mine["digest"]) != (other["plies"], other["digest"]):
            pytest.fail(first_difference(config))
        for ply, text in mine["json"].items():
            assert other["json"][str(ply)] == text, (
                f"game {config['game']}, ply {ply}: JSON differs"
            )
        for ply, verdicts in mine["verdicts"].items():
            for move, expected, got in zip(
                mine["candidates"][ply], verdicts, other["verdicts"][str(ply)], strict=True
            ):
                assert got == expected, f"game {config}, ply {ply}, {move!r}: {got} != {expected}"
                illegal += not expected[0]
    print(
        f"chunk {chunk}: {len(configs)} games, {positions} positions, {illegal} illegal candidates"
    )
    assert positions >= POSITIONS // CHUNKS
    assert illegal >= POSITIONS // CHUNKS // 10, (
        "fewer illegal candidates than a tenth of the positions"
    )


def test_the_records_name_every_field_of_a_state() -> None:
    """A record holds every field a state has, so that equal records mean equal states."""
    names = {"rules", "seed"}  # equal by construction: both engines start from the same config
    fields = {f.name for f in dataclasses.fields(GameState)}
    recorded = {
        "pegs",
        "hands",
        "draw_pile",
        "discard_pile",
        "turn",
        "dealer",
        "ply",
        "reshuffles",
        "winner",
    }
    assert fields == recorded | names
