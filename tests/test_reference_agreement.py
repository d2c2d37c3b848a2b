"""The engine against the independent reference in ``reference.py``.

Three sources of positions:

* hand-written positions whose legal moves are worked out from the rulings by hand;
* states reached by real (random) play: hypothesis-drawn, plus whole seeded games;
* random hand-made positions (``made_positions``), which reach the corners random play
  rarely does: displacement chains through in-spots, blocked home entry, jokers, ...

Each compares ``legal_moves`` with ``reference_legal_moves`` exactly (same moves, same
order) and the pegs after every play with ``reference_result_pegs``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from reference import (
    assert_agree,
    reference_legal_moves,
    reference_other_orders,
    reference_result_pegs,
)
from rules_strategies import made_positions, rules_under_test

from pegs_rules import (
    ARIZONA,
    GameState,
    IllegalMoveError,
    Play,
    apply,
    explain,
    legal_moves,
    new_game,
    parse_move,
    parse_notation,
    parse_position,
)

PLAYER_COUNTS = (4, 6, 8)
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
"""Shrinking a random-play trace means replaying it hundreds of times, and gives little:
failures print the whole position and the move instead."""


def describe(moves: tuple[object, ...] | list[object]) -> list[str]:
    return [str(m) for m in moves]


def location(text: str) -> int:
    """``s``, ``h1``..``h5`` or a hole number, as a location code."""
    if text == "s":
        return -1
    if text.startswith("h"):
        return 1000 + int(text[1:])
    return int(text)


# --- hand-worked examples: check the reference itself, and the engine ---------------------

EXAMPLES = [
    pytest.param(
        "pegs 0: 70\nhand 0: 7",
        ["7 0:70-5", "7 0:70-h2"],
        id="home-entry-is-a-choice",
    ),
    pytest.param(
        "pegs 0: 70\npegs 2: 3\nhand 0: 7",
        # seat 2's peg on seat 0's in-spot may be passed; 70 -> 3 lands on it and sends it
        # to its own in-spot 39, from where the second part may move it
        [
            *("7 0:70-5", "7 0:70-h2", "7 2:3-10"),
            *("7 0:70-71 2:3-9", "7 0:70-0 2:3-8", "7 0:70-1 2:3-7", "7 0:70-2 2:3-6"),
            *("7 0:70-3 2:39-41", "7 0:70-3 2:39-h2", "7 0:70-4 2:3-4", "7 0:70-h1 2:3-4"),
            *("7 2:3-4 0:70-4", "7 2:3-5 0:70-3"),
        ],
        id="team-peg-passed-landed-on-and-moved-again",
    ),
    pytest.param(
        "pegs 0: 1 h2\nhand 0: 4",
        # 1 -> 2, 3 (in-spot), h1, h2: h2 is taken, so no entry; on the track 1 -> 5
        ["4 0:1-5"],
        id="home-entry-blocked-continues-on-track",
    ),
    pytest.param(
        "pegs 0: 1 h1\nhand 0: 4",
        # entry would pass h1 (own peg); the peg in home cannot move 4 (h5 is the back)
        ["4 0:1-5", "4 0:h1-h5"],
        id="home-entry-cannot-pass-home-peg",
    ),
    pytest.param(
        "pegs 0: 2 4\nhand 0: 3",
        # 2 -> 3, 4: blocked by own peg at 4 on the track, but 2 -> 3 -> h1 -> h2 is fine
        ["3 0:2-h2", "3 0:4-7"],
        id="blocking-on-track-but-not-into-home",
    ),
    pytest.param(
        "pegs 0: 37\npegs 2: 39\nhand 0: 2",
        # seat 0 landing on seat 2's peg that stands on seat 2's own in-spot: illegal
        ["2 2:39-41", "2 2:39-h2"],
        id="team-peg-on-its-own-in-spot-cannot-be-displaced",
    ),
    pytest.param(
        "pegs 0: 19\npegs 2: 21\npegs 1: 39\nhand 0: 2",
        # seat 0 lands on 21 (seat 2's peg) -> it goes to its in-spot 39, knocking seat 1
        # (an opponent) back to start; seat 2's own 2 moves 21 -> 23
        ["2 0:19-21", "2 2:21-23"],
        id="chain-to-in-spot-knocks-opponent",
    ),
    pytest.param(
        "pegs 0: 19\npegs 2: 21 39\nhand 0: 2",
        # seat 2's in-spot already holds seat 2: 19 -> 21 is illegal
        ["2 2:21-23", "2 2:39-41", "2 2:39-h2"],
        id="chain-into-same-colour-is-illegal",
    ),
    pytest.param(
        "pegs 0: 10\npegs 1: 40\nhand 0: 8 JK",
        # the joker may not come from the track while seat 0 or 2 has pegs in start; a seat 2
        # peg may jump onto seat 0's peg (another colour), sending it to its in-spot 3
        ["8 0:10-2", "JK 0:s-40", "JK 2:s-10", "JK 2:s-40"],
        id="joker-source-from-start",
    ),
    pytest.param(
        "pegs 0: 10 20 30 40 50\npegs 2: 5 15 25 35 45\npegs 1: 60\nhand 0: JK 2",
        # all team pegs out: any team track peg may jump onto seat 1's peg, or a team peg of
        # the other colour (displacing it to its in-spot: seat 0 -> 3, seat 2 -> 39)
        None,
        id="joker-from-track",
    ),
    pytest.param(
        "pegs 1: 40\nhand 0: 8 JK 5",
        # nothing but the joker is playable: joker plays, then a discard of each rank
        ["JK 0:s-40", "JK 2:s-40", "discard 5", "discard 8", "discard JK"],
        id="discard-when-only-joker-playable",
    ),
    pytest.param("hand 0: 8 5 2", ["discard 2", "discard 5", "discard 8"], id="discard-only"),
    pytest.param("hand 1: 8", ["pass"], id="empty-hand-passes"),
    pytest.param(
        "hand 0: K K A",
        ["A 0:s-8", "A 2:s-44", "K 0:s-8", "K 2:s-44"],
        id="come-out-any-team-start-and-duplicates-once",
    ),
    pytest.param(
        "pegs 0: 10 30\nhand 0: 2",
        ["2 0:10-12", "2 0:30-32"],
        id="plain-count",
    ),
    pytest.param(
        "pegs 0: 8 h1\npegs 2: 10 12 45\nhand 0: 8",
        # 8 backwards: 8 -> 0; seat 2's 10 -> 2 passes seat 0's peg on 8 (another colour);
        # 12 -> 4 would pass 10 (its own colour): blocked; 45 -> 37
        ["8 0:8-0", "8 2:10-2", "8 2:45-37"],
        id="eight-backwards-blocking",
    ),
    pytest.param(
        "pegs 0: 1 2\nhand 0: 7",
        None,
        id="split-entry-resolutions",
    ),
]


@pytest.mark.parametrize(("text", "expected"), EXAMPLES)
def test_hand_worked_examples(text: str, expected: list[str] | None) -> None:
    state = parse_position(text)
    if expected is not None:
        assert sorted(describe(reference_legal_moves(state))) == sorted(expected)
    assert_agree(state)


@pytest.mark.ruling("card.seven.split")
def test_split_resolutions_that_share_an_order_are_both_legal() -> None:
    """``card.seven.split``: with pegs of seat 0 on 1 and 2 (in-spot 3), moving the peg on
    2 three holes into h2 and then the peg on 1 four holes to 5 is a legal split: each part
    is legal on the board the previous part left. Its other order (1 first) is blocked by
    the peg on 2, so no "other order" exists to list instead. It leaves the same pegs as
    ``7 0:2-5 0:1-h2`` but is a different resolution, and must be accepted."""
    state = parse_position("pegs 0: 1 2\nhand 0: 7")
    wanted = [m for m in reference_legal_moves(state) if str(m) == "7 0:2-h2 0:1-5"]
    assert len(wanted) == 1
    move = wanted[0]
    assert isinstance(move, Play)
    assert move in legal_moves(state)
    assert apply(state, move).pegs[0] == (-1, -1, -1, 5, 1002)


RESULTS = [
    pytest.param(
        "pegs 0: 19\npegs 2: 21\npegs 1: 39\nhand 0: 2",
        "2 0:19-21",
        {0: "s s s s 21", 1: "s s s s s", 2: "s s s s 39"},
        id="chain-knocks-opponent-home",
    ),
    pytest.param(
        "pegs 0: 70\npegs 2: 3\nhand 0: 7",
        "7 2:3-4 0:70-4",
        {0: "s s s s 4", 2: "s s s s 39"},
        id="split-second-part-displaces-first",
    ),
    pytest.param(
        "pegs 0: 70\npegs 2: 3\nhand 0: 7",
        "7 0:70-4 2:3-4",
        {0: "s s s s 3", 2: "s s s s 4"},
        id="split-second-part-sends-first-to-its-in-spot",
    ),
    pytest.param(
        "players: 6\npegs 0: 73\npegs 2: 75\npegs 4: 39\npegs 1: 3\nhand 0: 2",
        # seat 0 lands on 75 (seat 4's in-spot) holding seat 2 -> seat 2 goes to 39 holding
        # seat 4 -> seat 4 goes to 75, where the mover now stands -> the mover, another team
        # colour, goes on to its own in-spot 3, knocking seat 1 to its start
        "2 0:73-75",
        {0: "s s s s 3", 1: "s s s s s", 2: "s s s s 39", 4: "s s s s 75"},
        id="six-player-chain-comes-back-to-the-mover",
    ),
]


@pytest.mark.parametrize(("text", "move_text", "pegs"), RESULTS)
def test_hand_worked_results(text: str, move_text: str, pegs: dict[int, str]) -> None:
    state = parse_position(text)
    [move] = [m for m in reference_legal_moves(state) if str(m) == move_text]
    assert isinstance(move, Play)
    want = list(state.pegs)
    for seat, locs in pegs.items():
        want[seat] = tuple(sorted(map(location, locs.split())))
    assert reference_result_pegs(state, move) == tuple(want)
    assert apply(state, move).pegs == tuple(want)


@pytest.mark.ruling("card.seven.split.order")
def test_split_listed_once_when_both_orders_agree() -> None:
    """Two independent parts: both orders leave the same position; the first is listed."""
    state = parse_position("pegs 0: 10 30\nhand 0: 7")
    moves = describe(reference_legal_moves(state))
    assert "7 0:10-12 0:30-35" in moves
    assert "7 0:30-35 0:10-12" not in moves
    assert_agree(state)


# --- states reached by real play -----------------------------------------------------------


@st.composite
def played_states(draw: st.DrawFn, max_plies: int = 800) -> GameState:
    """A state reached by random legal play, the choices drawn by hypothesis."""
    players = draw(st.sampled_from(PLAYER_COUNTS))
    seed = draw(st.integers(0, 2**32 - 1))
    plies = draw(st.integers(0, max_plies))
    choices = draw(st.lists(st.integers(0, 2**16), min_size=plies, max_size=plies))
    state = new_game(players, seed=seed)
    for choice in choices:
        if state.winner is not None:
            break
        moves = legal_moves(state)
        state = apply(state, moves[choice % len(moves)])
    return state


@settings(phases=NO_SHRINK)
@given(played_states())
def test_agree_on_played_states(state: GameState) -> None:
    assert_agree(state)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("seed", [11, 22, 33])
def test_agree_over_whole_games(players: int, seed: int) -> None:
    """A whole random game: moves every turn, the chosen play's result every turn, every
    play's result every 25th turn."""
    rng = random.Random(seed * 1000 + players)
    state = new_game(players, seed=seed)
    turns = 0
    while state.winner is None:
        assert_agree(state, results=state.ply % 25 == 0)
        move = rng.choice(legal_moves(state))
        after = apply(state, move)
        if isinstance(move, Play):
            assert after.pegs == reference_result_pegs(state, move), f"{move} in\n{state}"
        state = after
        turns += 1
    assert turns > 0
    assert reference_legal_moves(state) == legal_moves(state) == ()


# --- random hand-made positions --------------------------------------------------------------


@settings(max_examples=10 * settings().max_examples)
@given(made_positions(st.just(ARIZONA)))
def test_agree_on_made_positions(state: GameState) -> None:
    assert_agree(state)


# --- card.seven.split.order, variant.two-swap.order: a listed move written the other way --


def assert_other_orders_accepted(state: GameState) -> None:
    """The engine accepts exactly the reference's other orders, as their listed splits and
    swaps; the other order of any other listed two-step play is listed itself or rejected."""
    other_orders = reference_other_orders(state)
    legal = legal_moves(state)
    for other, listed in other_orders.items():
        assert other not in legal and listed in legal
        assert apply(state, other) == apply(state, listed), f"{other} in\n{state}"
        assert parse_move(state, str(other)) == listed
        assert explain(state, other).legal
    for play in legal:
        if isinstance(play, Play) and len(play.steps) == 2:
            other = Play(play.card, play.steps[::-1])
            if other not in legal and other not in other_orders:
                with pytest.raises(IllegalMoveError):
                    apply(state, other)


def test_other_order_of_an_independent_split_is_the_listed_move() -> None:
    state = parse_position("pegs 0: 10 30\nhand 0: 7")
    # 10 -> 12 and 30 -> 35 never meet: the order that sorts first is listed, the other
    # order maps to it
    listed, other = parse_notation("7 0:10-12 0:30-35"), parse_notation("7 0:30-35 0:10-12")
    assert isinstance(other, Play)
    assert reference_other_orders(state)[other] == listed
    assert_other_orders_accepted(state)


@pytest.mark.ruling("variant.two-swap.order")
def test_other_writing_of_a_swap_of_two_movable_pegs_is_the_listed_move() -> None:
    state = parse_position(
        "rule two_swap: true\nturn: 2\npegs 0: 60\npegs 1: 20\npegs 2: 40\nhand 2: 2"
    )
    # seat 2 moves seats 0 and 2: the swap of 60 and 40 is listed from seat 0's peg (its step
    # sorts first) and maps from seat 2's; the swaps with seat 1's 20 have no other writing
    listed, other = parse_notation("2 0:60-40 2:40-60"), parse_notation("2 2:40-60 0:60-40")
    assert reference_other_orders(state) == {other: listed}
    assert_other_orders_accepted(state)


@pytest.mark.ruling("card.seven.split.order", "variant.two-swap.order")
@settings(max_examples=3 * settings().max_examples)
@given(made_positions(st.one_of(st.just(ARIZONA), rules_under_test)))
def test_other_orders_on_made_positions(state: GameState) -> None:
    assert_other_orders_accepted(state)


@settings(phases=NO_SHRINK)
@given(played_states())
def test_other_orders_on_played_states(state: GameState) -> None:
    assert_other_orders_accepted(state)
