"""The RL action space: every legal move has exactly one number, and the number gives the move back."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings

from pegs_rules import (
    ARIZONA,
    Discard,
    GameState,
    Pass,
    Play,
    Rank,
    Step,
    apply,
    legal_moves,
    new_game,
    parse_move,
    parse_position,
    view,
)
from pegs_rules.rules import STANDARD, InSpotOccupied, Nine, Rules

pytest.importorskip("pettingzoo")

from played import examples
from rules_strategies import house_rules, made_positions

from pegs_rules.rl.actions import ActionError, ActionSpace, peg_slots

CONFIGS = [
    pytest.param(ARIZONA, 4, id="arizona-4"),
    pytest.param(ARIZONA, 6, id="arizona-6"),
    pytest.param(ARIZONA, 8, id="arizona-8"),
    pytest.param(STANDARD, 4, id="standard-4"),
    pytest.param(STANDARD, 6, id="standard-6"),
    pytest.param(STANDARD, 8, id="standard-8"),
    pytest.param(replace(ARIZONA, nine=Nine.PLAIN), 4, id="nine-plain"),
    pytest.param(replace(ARIZONA, nine=Nine.FORWARD_BACKWARD), 6, id="nine-forward-backward"),
    pytest.param(replace(STANDARD, nine=Nine.FORWARD_BACKWARD), 4, id="standard-nine-fb"),
    pytest.param(replace(ARIZONA, two_swap=True), 4, id="two-swap"),
    pytest.param(replace(STANDARD, two_swap=True), 6, id="standard-two-swap"),
    pytest.param(
        replace(ARIZONA, two_swap=True, nine=Nine.FORWARD_BACKWARD), 8, id="two-swap-nine-fb-8"
    ),
    pytest.param(
        replace(ARIZONA, in_spot_occupied=InSpotOccupied.TO_START), 4, id="in-spot-to-start"
    ),
]


def check_round_trip(space: ActionSpace, state: GameState) -> Counter[str]:
    """Every legal move of ``state`` encodes to its own number, which decodes to it; the blocks used."""
    seen = view(state, state.turn)
    moves = legal_moves(state)
    numbers = [space.encode(seen, move) for move in moves]
    assert len(set(numbers)) == len(numbers), "two legal moves share a number"
    blocks: Counter[str] = Counter()
    for move, number in zip(moves, numbers, strict=True):
        assert 0 <= number < space.size
        assert space.decode(seen, number) == move, (str(state), str(move), space.describe(number))
        blocks[space.block(number)] += 1
    assert space.legal(seen, moves) == dict(zip(numbers, moves, strict=True))
    return blocks


@pytest.mark.parametrize(("rules", "players"), CONFIGS)
def test_every_legal_move_of_a_real_game_has_one_number(rules: Rules, players: int) -> None:
    space = ActionSpace(players)
    rng = random.Random(players)
    state = new_game(players, seed=14, rules=rules)
    blocks: Counter[str] = Counter()
    while state.winner is None:
        if state.ply % 3 == 0:  # every third state keeps the run short
            blocks += check_round_trip(space, state)
        state = apply(state, rng.choice(legal_moves(state)))
    assert {"play", "joker"} <= set(blocks)
    assert blocks["split"] > 0  # the 7 splits in every preset
    if rules.two_swap:
        assert blocks["swap"] > 0


@settings(max_examples=examples(1))
@given(made_positions(house_rules()))
def test_every_legal_move_under_any_house_rules_has_one_number(state: GameState) -> None:
    check_round_trip(ActionSpace(state.players), state)


def test_a_split_whose_second_peg_the_first_part_knocked_on() -> None:
    # The 9's first part lands on a team-mate (seat 1) at 62, who goes to its in-spot 21 and
    # knocks seat 3's peg there on to seat 3's in-spot 57, just left by the first part; the
    # second part then moves that peg 4 on from 57.
    state = parse_position(
        """
        turn: 3
        pegs 0: s h2 h3 h4 h5
        pegs 1: s 18 62 h4 h5
        pegs 2: s s 22 h4 h5
        pegs 3: s 3 21 57 h5
        hand 3: 9
        """
    )
    move = Play(Rank.NINE, (Step(3, 57, 62), Step(3, 57, 61)))
    assert move in legal_moves(state)
    space = ActionSpace(4)
    seen = view(state, 3)
    number = space.encode(seen, move)
    # Seat 3's pegs in slot order: start, 3 (far from its in-spot 57), 21, 57; h5.
    assert peg_slots(state.pegs[3], 3, 4) == (-1, 3, 21, 57, 1005)
    assert space.describe(number) == "split 9: peg 3 forward 5, then peg 2 forward 4"
    assert space.decode(seen, number) == move
    check_round_trip(space, state)


def test_numbers_are_relative_to_the_seat_to_act() -> None:
    # The same position turned by one seat: the same move has the same number.
    space = ActionSpace(4)
    first = parse_position("turn: 0\npegs 0: s s s s 10\nhand 0: 5")
    turned = parse_position("turn: 1\npegs 1: s s s s 28\nhand 1: 5")
    a = space.encode(view(first, 0), parse_move(first, "5 10-15"))
    b = space.encode(view(turned, 1), parse_move(turned, "5 28-33"))
    assert a == b
    assert space.describe(a) == "play 5: peg 4 along the track (or out of start)"


def test_blocks_discards_and_pass() -> None:
    space = ActionSpace(6)
    assert list(space.blocks) == ["play", "joker", "swap", "split", "discard", "pass"]
    offsets = [offset for offset, _ in space.blocks.values()]
    sizes = [size for _, size in space.blocks.values()]
    assert offsets == [sum(sizes[:i]) for i in range(6)] and space.size == sum(sizes)
    assert space.pegs == 15 and space.holes == 108
    empty = parse_position("turn: 0\npegs 0: s s s s 10\nhand 0:")
    seen = view(empty, 0)
    assert legal_moves(empty) == (Pass(),)
    assert space.encode(seen, Pass()) == space.size - 1
    assert space.decode(seen, space.size - 1) == Pass()
    assert space.decode(seen, space.blocks["discard"][0] + 13) == Discard(Rank.JOKER)


def test_bad_numbers_and_moves() -> None:
    space = ActionSpace(4)
    state = new_game(4, seed=3)
    seen = view(state, state.turn)
    for bad in (-1, space.size, 2.5, True, "1"):
        with pytest.raises(ActionError):
            space.decode(seen, bad)  # type: ignore[arg-type]
        with pytest.raises(ActionError):
            space.describe(bad)  # type: ignore[arg-type]
    opponent = (state.turn + 1) % 4
    with pytest.raises(ActionError, match="not a colour"):
        space.encode(seen, Play(Rank.KING, (Step(opponent, -1, 18 * opponent + 8),)))
    with pytest.raises(ActionError):
        space.encode(seen, "pass")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ActionSpace(5)


def test_sizes() -> None:
    assert [ActionSpace(n).size for n in (4, 6, 8)] == [16115, 36045, 63895]
