"""The move generator's memo never hands one seat another's moves.

:mod:`pegs_rules.movegen` remembers what the last positions offer, keyed by their pegs (by
identity), the seats to move, the ranks held and the rules. Consecutive states of a game
share their pegs when a turn moves none (a discard, a pass), so a key without the seats to
act would answer the next seat with the last seat's plays.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from played import examples, reached_states

from pegs_rules import GameState, apply, legal_moves, parse_move, parse_position
from pegs_rules.movegen import clear_memo


@pytest.mark.ruling("team.control", "turn.discard")
def test_a_discard_then_a_seat_of_the_other_team_with_the_same_ranks() -> None:
    # Seat 0 (team 0) has no peg out and holds only 5s: no play, so it discards a 5 and draws
    # the last 5. Seat 1 (team 1) then holds the same ranks on the same pegs, and its peg on
    # 30 moves 5 to 35: its only move (team.control: a seat moves its own team's pegs).
    state = parse_position("pegs 1: 30\nhand 0: 5 5 5 5 5\nhand 1: 5 5 5 5 5\ndraw: 5")
    assert [str(m) for m in legal_moves(state)] == ["discard 5"]
    after = apply(state, parse_move(state, "discard 5"))
    assert after.pegs is state.pegs  # what makes the memo's key matter
    assert (after.turn, after.hands[0], after.hands[1]) == (1, state.hands[0], state.hands[1])
    assert [str(m) for m in legal_moves(after)] == ["5 1:30-35"]


def fresh(state: GameState) -> tuple[str, ...]:
    """The legal moves of ``state`` computed with nothing remembered."""
    clear_memo()
    return tuple(str(m) for m in legal_moves(state))


@settings(max_examples=examples(0.5), phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(reached_states(), st.data())
def test_states_sharing_pegs_but_not_the_seat_to_act(state: GameState, data: st.DataObject) -> None:
    """Two states with the very same pegs and the same cards in the hand to act, but another
    seat to act, asked one after the other, get what a fresh computation gives."""
    seat = data.draw(st.sampled_from([s for s in range(state.players) if s != state.turn]))
    hands = list(state.hands)
    hands[seat] = state.hands[state.turn]
    other = dataclasses.replace(state, turn=seat, hands=tuple(hands))
    assert other.pegs is state.pegs
    want = fresh(state), fresh(other)
    clear_memo()
    got = tuple(str(m) for m in legal_moves(state)), tuple(str(m) for m in legal_moves(other))
    assert got == want
