"""Events: what a move did, in order, enough to animate it without comparing states."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from played import examples, full_game, reached_states

from pegs_rules import (
    START,
    CardDiscarded,
    CardPlayed,
    CardsDrawn,
    Event,
    GameOver,
    GameState,
    IllegalMoveError,
    Move,
    Passed,
    PegDisplaced,
    PegMoved,
    Play,
    Rank,
    Reshuffled,
    apply,
    apply_with_events,
    legal_moves,
    parse_notation,
    parse_position,
    redact,
)


def animate(before: GameState, events: tuple[Event, ...]) -> GameState:
    """Carry ``events`` out on ``before`` the way a frontend would, knowing only the events."""
    pegs = [list(locs) for locs in before.pegs]
    hands = [Counter(hand) for hand in before.hands]
    draw = len(before.draw_pile)
    discard = list(before.discard_pile)
    winner = None
    for event in events:
        assert winner is None, "nothing happens after the game is over"
        if isinstance(event, (CardPlayed, CardDiscarded)):
            assert event.seat == before.turn and hands[event.seat][event.card] > 0
            hands[event.seat][event.card] -= 1
            discard.append(event.card)
        elif isinstance(event, Passed):
            assert not before.hands[event.seat]
        elif isinstance(event, (PegMoved, PegDisplaced)):
            pegs[event.seat].remove(event.src)
            pegs[event.seat].append(event.dst)
        elif isinstance(event, CardsDrawn):
            assert event.cards is not None and event.count == len(event.cards) <= draw
            hands[event.seat].update(event.cards)
            draw -= event.count
        elif isinstance(event, Reshuffled):
            assert draw == 0, "a reshuffle only when the draw pile is empty"
            assert event.cards == len(discard) and event.number == before.reshuffles + 1
            draw, discard = event.cards, []
        else:
            assert isinstance(event, GameOver)
            winner = event.winner
    return GameState(
        rules=before.rules,
        pegs=tuple(tuple(sorted(locs)) for locs in pegs),
        hands=tuple(tuple(sorted(hand.elements())) for hand in hands),
        draw_pile=(Rank.ACE,) * draw,  # only its size is public
        discard_pile=tuple(discard),
        turn=before.turn,
        dealer=before.dealer,
        seed=before.seed,
        winner=winner,
    )


def check_events(before: GameState, move: Move) -> tuple[GameState, tuple[Event, ...]]:
    after, events = apply_with_events(before, move)
    assert after == apply(before, move)
    shown = animate(before, events)
    assert shown.pegs == after.pegs
    assert shown.hands == after.hands
    assert len(shown.draw_pile) == len(after.draw_pile)
    assert shown.discard_pile == after.discard_pile
    assert shown.winner == after.winner
    if isinstance(move, Play):
        moved = [(e.seat, e.src, e.dst) for e in events if isinstance(e, PegMoved)]
        assert moved == [tuple(step) for step in move.steps]
    assert all(str(e) for e in events)
    return after, events


@settings(max_examples=examples(1.5))
@given(reached_states(), st.data())
def test_events_replay_every_move_exactly(state: GameState, data: st.DataObject) -> None:
    moves = legal_moves(state)
    if not moves:
        return
    check_events(state, data.draw(st.sampled_from(moves)))


def test_a_knock_to_start_and_a_bump_to_the_in_spot() -> None:
    state = parse_position("""
    pegs 0: 30
    pegs 1: 35
    pegs 2: 40
    hand 0: 5 10 2 2 2
    draw: 9 9
    """)
    _, events = check_events(state, parse_notation("5 0:30-35"))
    assert events[:3] == (
        CardPlayed(0, Rank.FIVE),
        PegMoved(0, 30, 35),
        PegDisplaced(1, 35, START),
    )
    assert str(events[2]) == "seat 1's peg is knocked from 35 back to its start"
    _, events = check_events(state, parse_notation("10 0:30-40"))
    assert PegDisplaced(2, 40, 39) in events
    assert str(PegDisplaced(2, 40, 39)) == "seat 2's peg is knocked from 40 to its in-spot 39"


def test_a_split_in_its_other_order_reports_the_listed_move() -> None:
    # card.seven.split.order: 30 -> 35 then 10 -> 12 is the listed 7 0:10-12 0:30-35
    state = parse_position("pegs 0: 10 30\nhand 0: 7 2 2 2 2\ndraw: 9")
    after, events = apply_with_events(state, parse_notation("7 0:30-35 0:10-12"))
    assert after == apply(state, parse_notation("7 0:10-12 0:30-35"))
    assert events[:3] == (CardPlayed(0, Rank.SEVEN), PegMoved(0, 10, 12), PegMoved(0, 30, 35))


def test_a_knock_in_real_play() -> None:
    states, moves = full_game("arizona", 4)
    knocks = 0
    for before, move in zip(states[:400], moves[:400], strict=False):
        _, events = check_events(before, move)
        knocks += sum(isinstance(e, PegDisplaced) for e in events)
    assert knocks > 0


def test_a_reshuffle_in_real_play() -> None:
    states, moves = full_game("arizona", 4)
    index = next(i for i, s in enumerate(states) if s.reshuffles)
    _, events = check_events(states[index - 1], moves[index - 1])
    kinds = [type(e) for e in events]
    assert Reshuffled in kinds
    assert kinds.index(Reshuffled) < kinds.index(CardsDrawn)
    reshuffle = events[kinds.index(Reshuffled)]
    assert isinstance(reshuffle, Reshuffled) and reshuffle.number == 1
    assert reshuffle.cards == len(states[index - 1].discard_pile) + 1


def test_a_reshuffle_in_the_middle_of_a_draw() -> None:
    state = parse_position("""
    pegs 0: 30
    hand 0: 5 5
    draw: 9
    discard: 2 3
    """)
    after, events = check_events(state, parse_notation("5 0:30-35"))
    assert events[2:] == (
        CardsDrawn(0, 1, (Rank.NINE,)),
        Reshuffled(3, 1),
        CardsDrawn(0, 3, (Rank.TWO, Rank.THREE, Rank.FIVE)),
    )
    assert after.draw_pile == () and after.discard_pile == ()
    assert str(events[3]) == "the discard pile (3 cards) is shuffled into a new draw pile"


def test_a_win_ends_the_events() -> None:
    state = parse_position("""
    pegs 0: 70 h2 h3 h4 h5
    pegs 2: h1 h2 h3 h4 h5
    hand 0: 6 2
    draw: 9
    """)
    after, events = check_events(state, parse_notation("6 0:70-h1"))
    assert events == (CardPlayed(0, Rank.SIX), PegMoved(0, 70, 1001), GameOver(0))
    assert after.winner == 0 and str(events[-1]) == "team 0 wins"


def test_the_win_in_real_play() -> None:
    for preset in ("arizona", "standard"):
        states, moves = full_game(preset, 6)
        _, events = check_events(states[-2], moves[-1])
        assert events[-1] == GameOver(states[-1].winner)  # type: ignore[arg-type]
        assert not any(isinstance(e, CardsDrawn) for e in events)


def test_a_discard_and_a_pass() -> None:
    stuck = parse_position("hand 0: 5 5 5 5 JK\ndraw: 4")
    _, events = check_events(stuck, parse_notation("discard 5"))
    assert events == (CardDiscarded(0, Rank.FIVE), CardsDrawn(0, 1, (Rank.FOUR,)))
    assert [str(e) for e in events] == ["seat 0 discards 5", "seat 0 draws 4"]
    empty = parse_position("hand 0:\ndiscard: 4")
    _, events = check_events(empty, parse_notation("pass"))
    assert events == (Passed(0), Reshuffled(1, 1), CardsDrawn(0, 1, (Rank.FOUR,)))
    assert str(events[0]) == "seat 0 passes"


def test_redact_hides_the_cards_others_drew() -> None:
    state = parse_position("pegs 0: 30\nhand 0: 2 2 2 5\ndraw: 9 8")
    _, events = apply_with_events(state, parse_notation("5 0:30-35"))
    assert redact(events, 0) == events
    hidden = redact(events, 1)
    assert hidden[-1] == CardsDrawn(0, 2, None)
    assert str(hidden[-1]) == "seat 0 draws 2 cards"
    assert hidden[:-1] == events[:-1]


def test_an_illegal_move_raises_as_apply_does() -> None:
    state = parse_position("pegs 0: 30\nhand 0: 5")
    with pytest.raises(IllegalMoveError, match=r"\[card.number\]"):
        apply_with_events(state, parse_notation("5 0:30-36"))
