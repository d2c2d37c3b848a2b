"""Property tests over states reached by real (random) play.

Each example plays a random game prefix whose choices hypothesis draws; cheap properties
are checked on every state along the way, costlier ones on the last state.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import re
from collections import Counter

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from reference import reference_result_pegs

from pegs_rules import (
    START,
    Discard,
    GameState,
    IllegalMoveError,
    Move,
    Pass,
    Play,
    Rank,
    Step,
    apply,
    legal_moves,
    new_game,
    parse_position,
)

PLAYER_COUNTS = (4, 6, 8)
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
"""Shrinking a random-play trace means replaying it hundreds of times; failures print the
position instead."""
RULE_ID = re.compile(r"[a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+")
FORWARD = {Rank.ACE: 1, Rank.SEVEN: 7, Rank.NINE: 9, Rank.JACK: 10, Rank.QUEEN: 10}
FORWARD |= {Rank.KING: 10, **{r: int(r) for r in Rank if 2 <= r <= 6 or r == 10}}


def home(k: int) -> int:
    return 1000 + k


def is_home(loc: int) -> bool:
    return loc > 1000


def in_spot(seat: int) -> int:
    return 18 * seat + 3


def come_out(seat: int) -> int:
    return 18 * seat + 8


# --- strategies ------------------------------------------------------------------------------


@st.composite
def game_scripts(draw: st.DrawFn, max_plies: int = 300) -> tuple[int, int, list[int]]:
    """Player count, seed and move choices of a random game prefix."""
    players = draw(st.sampled_from(PLAYER_COUNTS))
    seed = draw(st.integers(0, 2**32 - 1))
    plies = draw(st.integers(0, max_plies))
    return players, seed, draw(st.lists(st.integers(0, 2**16), min_size=plies, max_size=plies))


@st.composite
def played_games(draw: st.DrawFn, max_plies: int = 400) -> list[GameState]:
    """Every state of a random game prefix (the first is the deal)."""
    return play_out(*draw(game_scripts(max_plies)))


def play_out(players: int, seed: int, choices: list[int]) -> list[GameState]:
    state = new_game(players, seed=seed)
    states = [state]
    for choice in choices:
        if state.winner is not None:
            break
        moves = legal_moves(state)
        state = apply(state, moves[choice % len(moves)])
        states.append(state)
    return states


# --- checks on one state ---------------------------------------------------------------------


def check_invariants(state: GameState) -> None:
    players = state.players
    length = 18 * players
    assert players in PLAYER_COUNTS
    assert 0 <= state.turn < players
    # board.pegs: 5 per seat, sorted, on real holes, never two on one hole
    taken: set[tuple[int, int]] = set()
    for seat, locs in enumerate(state.pegs):
        assert len(locs) == 5, state
        assert list(locs) == sorted(locs)
        for loc in locs:
            assert loc == START or 0 <= loc < length or home(1) <= loc <= home(5), state
            if loc == START:
                continue
            key = (seat if is_home(loc) else -1, loc)  # home holes are per colour
            assert key not in taken, f"two pegs on {key} in\n{state}"
            taken.add(key)
    # deck.composition: cards are conserved
    decks, jokers = (4, 8) if players == 8 else (3, 6)
    held = Counter(card for hand in state.hands for card in hand)
    held.update(state.draw_pile)
    held.update(state.discard_pile)
    deck: Counter[Rank] = Counter({r: 4 * decks for r in Rank if r is not Rank.JOKER})
    deck[Rank.JOKER] = jokers
    assert held == deck, state
    for hand in state.hands:
        assert len(hand) <= 5
        assert list(hand) == sorted(hand)
    if state.winner is not None:
        team = state.winner
        assert all(is_home(p) for s, locs in enumerate(state.pegs) if s % 2 == team for p in locs)


def path_of(state: GameState, card: Rank, step: Step) -> list[int]:
    """The holes the step's peg passes or lands on, in order (home holes as codes)."""
    length = 18 * state.players
    seat, src, dst = step
    if card is Rank.EIGHT:
        assert 0 <= src < length
        return [(src - i) % length for i in range(1, 9)]
    if src == START:
        return [dst]
    if is_home(src):
        assert is_home(dst) and dst > src, step
        return list(range(src + 1, dst + 1))
    if not is_home(dst):
        return [(src + i) % length for i in range(1, (dst - src) % length + 1)]
    to_spot = [(src + i) % length for i in range(1, (in_spot(seat) - src) % length + 1)]
    return to_spot + [home(k) for k in range(1, dst - 1000 + 1)]


def occupied_by(pegs: tuple[tuple[int, ...], ...], seat: int, loc: int) -> bool:
    return loc in pegs[seat]


def check_blocking_and_counts(state: GameState, move: Play) -> None:
    """``move.blocking``: no step passes or lands on a peg of its own colour (jokers aside);
    each step walks as far as its card says; a come-out lands on the right hole."""
    before = state.pegs
    walked = []
    for i, step in enumerate(move.steps):
        if i:  # the board the previous part left
            before = reference_result_pegs(state, Play(move.card, move.steps[:i]))
        assert step.src in before[step.seat], f"{move}: no peg at {step.src}"
        assert step.seat % 2 == state.turn % 2, f"{move} moves an opponent's peg"
        if move.card is Rank.JOKER:
            assert 0 <= step.dst < 18 * state.players
            assert any(step.dst in locs for s, locs in enumerate(before) if s != step.seat)
            continue
        path = path_of(state, move.card, step)
        if step.src == START:
            assert move.card in (Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING)
            assert step.dst == come_out(step.seat)
        else:
            walked.append(len(path))
        assert path[-1] == step.dst
        for loc in path:
            assert not occupied_by(before, step.seat, loc), f"{move} passes own peg at {loc}"
    if move.card is Rank.EIGHT:
        assert walked == [8]
    elif move.card in FORWARD and walked:
        assert sum(walked) == FORWARD[move.card]
        assert min(walked) >= 1
    if len(move.steps) == 2:
        assert move.card in (Rank.SEVEN, Rank.NINE)
        first, second = move.steps
        assert (second.seat, second.src) != (first.seat, first.dst), "the same peg twice"


def expect_illegal(state: GameState, move: Move) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        apply(state, move)
    assert RULE_ID.fullmatch(caught.value.rule), caught.value.rule
    assert str(caught.value).startswith(f"[{caught.value.rule}]")


# --- the properties --------------------------------------------------------------------------


@settings(phases=NO_SHRINK)
@given(played_games())
def test_invariants_hold_along_play(states: list[GameState]) -> None:
    for state in states:
        check_invariants(state)
    for before, after in itertools.pairwise(states):
        assert after.ply == before.ply + 1
        if after.winner is None:
            assert after.turn == (before.turn + 1) % before.players


@settings(phases=NO_SHRINK)
@given(played_games())
def test_legal_moves_respect_blocking_and_card_counts(states: list[GameState]) -> None:
    for state in states[::7] + states[-1:]:
        for move in legal_moves(state):
            if isinstance(move, Play):
                check_blocking_and_counts(state, move)


@settings(phases=NO_SHRINK)
@given(played_games())
def test_every_legal_move_applies_and_input_is_unchanged(states: list[GameState]) -> None:
    state = states[-1]
    saved = copy.deepcopy(state)
    saved_hash, saved_text = hash(state), str(state)
    for move in legal_moves(state):
        after = apply(state, move)
        check_invariants(after)
        assert after.ply == state.ply + 1
        if isinstance(move, Pass):
            assert after.pegs == state.pegs
            assert not state.hands[state.turn]
        elif isinstance(move, Discard):
            assert after.pegs == state.pegs
        if isinstance(move, Play | Discard) and after.winner is None:
            assert after.discard_pile[-1:] == (move.card,) or after.reshuffles > state.reshuffles
    assert state == saved
    assert hash(state) == saved_hash
    assert str(state) == saved_text


@settings(phases=NO_SHRINK)
@given(played_games(), st.data())
def test_illegal_moves_are_rejected(states: list[GameState], data: st.DataObject) -> None:
    state = states[-1]
    moves = legal_moves(state)
    legal = set(moves)
    hand = state.hands[state.turn]
    length = 18 * state.players
    if state.winner is not None:
        expect_illegal(state, Pass())
        return
    if hand:
        expect_illegal(state, Pass())  # turn.reshuffle: pass only with an empty hand
    plays = [m for m in moves if isinstance(m, Play)]
    if any(p.card is not Rank.JOKER for p in plays):
        expect_illegal(state, Discard(hand[0]))  # turn.must-play
    missing = [r for r in Rank if r not in hand]
    if plays:
        play = data.draw(st.sampled_from(plays))
        # a card not in hand
        expect_illegal(state, Play(data.draw(st.sampled_from(missing)), play.steps))
        # a mutated destination
        *rest, last = play.steps
        dst = data.draw(
            st.one_of(
                st.integers(0, length - 1),
                st.integers(1, 5).map(home),
                st.just((last.dst + 1) % length if last.dst < length else last.dst),
            ).filter(lambda d: d != last.dst)
        )
        mutated = Play(play.card, (*rest, Step(last.seat, last.src, dst)))
        # (the other order of a listed split may be accepted: card.seven.split.order)
        if mutated not in legal and Play(play.card, mutated.steps[::-1]) not in legal:
            expect_illegal(state, mutated)
        # a wrong source: a peg that is not there
        ghost = Play(play.card, (Step(play.steps[0].seat, -5, play.steps[0].dst),))
        expect_illegal(state, ghost)
    for card in missing:
        expect_illegal(state, Discard(card))
    if not hand:
        assert moves == (Pass(),)


@settings(phases=NO_SHRINK)
@given(played_games())
def test_legal_moves_are_deterministic_and_distinct(states: list[GameState]) -> None:
    for state in states[::5] + states[-1:]:
        moves = legal_moves(state)
        assert len(set(moves)) == len(moves)
        assert legal_moves(copy.deepcopy(state)) == moves
        assert legal_moves(state) == moves
        passes = [m for m in moves if isinstance(m, Pass)]
        assert passes == [] or moves == (Pass(),)


@settings(phases=NO_SHRINK, max_examples=max(10, settings().max_examples // 3))
@given(game_scripts())
def test_replay_is_deterministic(script: tuple[int, int, list[int]]) -> None:
    first = play_out(*script)
    second = play_out(*script)
    assert first == second
    assert [str(s) for s in first] == [str(s) for s in second]
    assert [hash(s) for s in first] == [hash(s) for s in second]


@settings(phases=NO_SHRINK)
@given(played_games())
def test_states_and_moves_are_values(states: list[GameState]) -> None:
    state = states[-1]
    rebuilt = dataclasses.replace(
        state,
        pegs=tuple(tuple(list(locs)) for locs in state.pegs),
        hands=tuple(tuple(list(h)) for h in state.hands),
        draw_pile=tuple(list(state.draw_pile)),
    )
    assert rebuilt == state and hash(rebuilt) == hash(state)
    assert rebuilt is not state
    assert len({state, rebuilt, copy.deepcopy(state)}) == 1
    # the text form reads back as the same position (seed, ply and reshuffles aside)
    parsed = parse_position(str(state))
    restored = dataclasses.replace(
        parsed, seed=state.seed, ply=state.ply, reshuffles=state.reshuffles
    )
    assert restored == state, str(state)
    if len(states) > 1:
        assert states[0] != state  # at least the ply differs
    moves = legal_moves(state)
    for move in moves:
        if isinstance(move, Play):
            twin: Move = Play(Rank(int(move.card)), tuple(Step(*s) for s in move.steps))
        elif isinstance(move, Discard):
            twin = Discard(Rank(int(move.card)))
        else:
            twin = Pass()
        assert twin == move and hash(twin) == hash(move) and twin is not move
    assert len(set(moves) | {copy.deepcopy(m) for m in moves}) == len(moves)
