"""Unit tests for the card rulings of specs/rulings.md (arizona preset).

Covers ``card.come-out``, ``card.ace``, ``card.face``, ``card.number``, ``card.seven``,
``card.seven.split``, ``card.eight``, ``card.nine``, ``card.joker``, ``card.joker.source``
and ``card.joker.optional``.

Every expected move list and resulting position below is worked out by hand from the
rulings and the geometry (comments give the derivation), never copied from the engine.

Geometry of the 4-seat board (track of 72 holes, numbered clockwise)::

    seat  corner  in-spot  come-out   team
      0      0       3         8        0
      1     18      21        26        1
      2     36      39        44        0
      3     54      57        62        1

Unlisted pegs of a seat are in its start area. ``ALL_HOME`` parks a seat's five pegs in
its home lane, where none can move (h5 is at the back, each other is blocked by the next),
so that seat neither comes out nor offers a split part.
"""

from __future__ import annotations

import pytest

from pegs_rules import (
    START,
    Discard,
    GameState,
    IllegalMoveError,
    Move,
    Play,
    Rank,
    Step,
    apply,
    explain,
    home,
    legal_moves,
    parse_move,
    parse_position,
)
from pegs_rules.board import parse_location

ALL_HOME = "h1 h2 h3 h4 h5"
S = START


def pos(text: str) -> GameState:
    """A position from its text form."""
    return parse_position(text)


def moves(state: GameState) -> list[str]:
    """The legal moves of the seat to act, in notation, in the engine's order."""
    return [str(m) for m in legal_moves(state)]


def mv(text: str) -> Move:
    """A move from its notation: ``7 0:70-h2 2:33-37`` or ``discard 7``."""
    head, *rest = text.split()
    if head == "discard":
        return Discard(Rank.parse(rest[0]))
    steps = []
    for part in rest:
        seat, span = part.split(":")
        src, dst = span.split("-")
        steps.append(Step(int(seat), parse_location(src), parse_location(dst)))
    return Play(Rank.parse(head), tuple(steps))


def rule_of(state: GameState, move: Move | str) -> str:
    """The rule id that ``apply`` cites when it rejects ``move``."""
    if isinstance(move, str):
        move = mv(move)
    with pytest.raises(IllegalMoveError) as excinfo:
        apply(state, move)
    return excinfo.value.rule


def expect_illegal(state: GameState, move: Move | str, *rules: str) -> None:
    """``apply`` rejects ``move``, citing one of ``rules`` or a finer id under one of them
    (rulings.md allows finer ids such as ``card.seven.split.order``)."""
    rule = rule_of(state, move)
    assert any(rule == r or rule.startswith(r + ".") for r in rules), (rule, rules)


def expect_same_move(state: GameState, other: str, listed: str) -> None:
    """``other``, the other order of the listed split ``listed``, is accepted as that move
    (``card.seven.split.order``): same state after it, read and explained as ``listed``."""
    assert other not in moves(state) and listed in moves(state)
    assert apply(state, mv(other)) == apply(state, mv(listed))
    assert str(parse_move(state, other)) == listed
    verdict = explain(state, mv(other))
    assert verdict.legal and listed in verdict.reason


def pegs_after(state: GameState, move: str) -> tuple[tuple[int, ...], ...]:
    """The pegs after the seat to act plays ``move``."""
    return apply(state, mv(move)).pegs


# --- card.come-out ---------------------------------------------------------------------------


@pytest.mark.ruling("card.come-out")
@pytest.mark.parametrize("card", ["A", "J", "Q", "K"])
def test_come_out_from_own_and_teammate_start(card: str) -> None:
    # Everyone in start. Seat 0's team is seats 0 and 2; each start area brings a peg out to
    # its own come-out hole: 18*0+8 = 8 and 18*2+8 = 44. No peg is on the board, so the card's
    # forward count has nothing to move.
    state = pos(f"hand 0: {card}")
    assert moves(state) == [f"{card} 0:s-8", f"{card} 2:s-44"]


@pytest.mark.ruling("card.come-out")
def test_come_out_from_teammate_start_goes_to_that_colours_hole() -> None:
    state = pos("hand 0: K")
    after = pegs_after(state, "K 2:s-44")
    assert after[2] == (S, S, S, S, 44)
    assert after[0] == (S,) * 5


@pytest.mark.ruling("card.come-out")
def test_come_out_to_the_wrong_hole_is_illegal() -> None:
    state = pos("hand 0: K")
    # seat 2's peg must go to 44 (its own come-out), seat 0's to 8 - not each other's.
    expect_illegal(state, "K 2:s-8", "card.come-out")
    expect_illegal(state, "K 0:s-44", "card.come-out")
    # nor anywhere else
    expect_illegal(state, "K 0:s-18", "card.come-out")


@pytest.mark.ruling("card.come-out")
def test_come_out_in_six_seat_game_uses_every_teammate_start() -> None:
    # 6 seats: team 0 is seats 0, 2, 4; come-out holes 8, 44, 18*4+8 = 80.
    state = pos("players: 6\nhand 0: J")
    assert moves(state) == ["J 0:s-8", "J 2:s-44", "J 4:s-80"]


@pytest.mark.ruling("card.come-out")
def test_come_out_blocked_by_same_colour_on_come_out_hole() -> None:
    # Seat 0 has a peg on its come-out hole 8 and four in start; seat 2 all home.
    # The come-out would land on its own colour: not allowed. The ace's 1 forward: 8 -> 9.
    state = pos(f"pegs 0: 8\npegs 2: {ALL_HOME}\nhand 0: A")
    assert moves(state) == ["A 0:8-9"]
    # move.blocking: no move may land on a peg of the same colour.
    expect_illegal(state, "A 0:s-8", "move.blocking")


@pytest.mark.ruling("card.come-out")
def test_come_out_onto_opponent_sends_it_to_start() -> None:
    # A seat-1 peg sits on seat 0's come-out hole 8; coming out lands there and knocks it home
    # to seat 1's start area.
    state = pos(f"pegs 1: 8\npegs 2: {ALL_HOME}\nhand 0: A")
    # the ace could also move... nothing: seat 0 has no peg on the board.
    assert moves(state) == ["A 0:s-8"]
    after = pegs_after(state, "A 0:s-8")
    assert after[0] == (S, S, S, S, 8)
    assert after[1] == (S,) * 5


@pytest.mark.ruling("card.come-out")
def test_come_out_onto_teammate_sends_it_to_its_in_spot() -> None:
    # Seat 2 (teammate) has a peg on 8 and four in home (h1..h4), none in start.
    # Q: come out 0:s-8 (knocks the seat-2 peg to seat 2's in-spot 39, empty);
    # or 10 forward: seat 2's peg 8 -> 18 (seat 2's in-spot 39 is 31 holes away: no entry);
    # h4 + 10 is beyond h5; h1..h3 are blocked by the next home peg.
    state = pos("pegs 2: 8 h1 h2 h3 h4\nhand 0: Q")
    assert moves(state) == ["Q 0:s-8", "Q 2:8-18"]
    after = pegs_after(state, "Q 0:s-8")
    assert after[0] == (S, S, S, S, 8)
    assert after[2] == (39, home(1), home(2), home(3), home(4))


@pytest.mark.ruling("card.come-out")
def test_come_out_onto_teammate_whose_in_spot_is_taken_is_illegal() -> None:
    # As above, but seat 2 also stands on its own in-spot 39: the knocked peg cannot go there.
    # K: seat 2 peg 8 -> 18; seat 2 peg 39 -> 49 (from its in-spot, 10 steps would be h10: no);
    # h1..h3 cannot move 10.
    state = pos("pegs 2: 8 39 h1 h2 h3\nhand 0: K")
    assert moves(state) == ["K 2:8-18", "K 2:39-49"]
    expect_illegal(state, "K 0:s-8", "move.landing.in-spot")


@pytest.mark.ruling("card.come-out")
@pytest.mark.parametrize("card", ["2", "3", "4", "5", "6", "7", "9", "10"])
def test_only_come_out_cards_bring_a_peg_out(card: str) -> None:
    # Everyone in start: a number card (and the 7, 9) cannot move anything, so the only legal
    # move is to discard it (turn.discard).
    state = pos(f"hand 0: {card}")
    assert moves(state) == [f"discard {card}"]
    expect_illegal(state, f"{card} 0:s-8", "card.come-out")


# --- card.ace ----------------------------------------------------------------------------------


@pytest.mark.ruling("card.ace")
def test_ace_comes_out_or_moves_one() -> None:
    # Seat 0: peg on 12, four in start; seat 2 all home. A: come out to 8, or 12 -> 13.
    state = pos(f"pegs 0: 12\npegs 2: {ALL_HOME}\nhand 0: A")
    assert moves(state) == ["A 0:s-8", "A 0:12-13"]


@pytest.mark.ruling("card.ace")
def test_ace_from_in_spot_may_enter_home_or_stay_on_track() -> None:
    # Seat 0 on its in-spot 3, other four pegs in h2..h5 (h1 empty). From the in-spot one step
    # is h1; or it stays on the track: 4. The home pegs are all blocked.
    state = pos(f"pegs 0: 3 h2 h3 h4 h5\npegs 2: {ALL_HOME}\nhand 0: A")
    assert moves(state) == ["A 0:3-4", "A 0:3-h1"]
    after = apply(state, mv("A 0:3-h1"))
    assert after.pegs[0] == tuple(home(k) for k in range(1, 6))
    assert after.winner == 0  # and seat 2 is all home too


@pytest.mark.ruling("card.ace")
def test_ace_wraps_from_last_hole_to_zero() -> None:
    # 71 + 1 = 72 = 0 (mod 72). The in-spot 3 is 4 steps away: no home entry with 1.
    state = pos(f"pegs 0: 71 h2 h3 h4 h5\npegs 2: {ALL_HOME}\nhand 0: A")
    assert moves(state) == ["A 0:71-0"]


@pytest.mark.ruling("card.ace")
def test_ace_moves_exactly_one_forward() -> None:
    state = pos(f"pegs 0: 12\npegs 2: {ALL_HOME}\nhand 0: A")
    expect_illegal(state, "A 0:12-14", "card.ace")
    expect_illegal(state, "A 0:12-11", "card.ace")
    expect_illegal(state, "A 0:12-22", "card.ace")


@pytest.mark.ruling("card.ace")
def test_ace_blocked_by_own_peg() -> None:
    # Pegs on 12 and 13: 12 -> 13 lands on its own colour. Come out to 8, or 13 -> 14.
    state = pos(f"pegs 0: 12 13\npegs 2: {ALL_HOME}\nhand 0: A")
    assert moves(state) == ["A 0:s-8", "A 0:13-14"]
    expect_illegal(state, "A 0:12-13", "move.blocking")


# --- card.face ---------------------------------------------------------------------------------


@pytest.mark.ruling("card.face")
@pytest.mark.parametrize("card", ["J", "Q", "K"])
def test_face_card_moves_ten(card: str) -> None:
    # No peg of seat 0 in start, seat 2 all home: no come-out. 12 + 10 = 22.
    # The home pegs h2..h5 cannot move 10.
    state = pos(f"pegs 0: 12 h2 h3 h4 h5\npegs 2: {ALL_HOME}\nhand 0: {card}")
    assert moves(state) == [f"{card} 0:12-22"]


@pytest.mark.ruling("card.face", "card.come-out")
def test_face_card_come_out_track_and_home_entry() -> None:
    # Seat 0: peg on 70, four in start. J: come out (s-8); 70 + 10 = 80 = 8 (mod 72) on the
    # track; or home: 70 -> 3 is 5 steps (71, 0, 1, 2, 3), 5 more = h5.
    state = pos(f"pegs 0: 70\npegs 2: {ALL_HOME}\nhand 0: J")
    assert moves(state) == ["J 0:s-8", "J 0:70-8", "J 0:70-h5"]


@pytest.mark.ruling("card.face")
def test_face_card_moves_exactly_ten() -> None:
    state = pos(f"pegs 0: 12 h2 h3 h4 h5\npegs 2: {ALL_HOME}\nhand 0: K")
    # arizona face cards are worth 10, not 11/12/13, and not 1
    expect_illegal(state, "K 0:12-25", "card.face")
    expect_illegal(state, "K 0:12-23", "card.face")
    expect_illegal(state, "K 0:12-13", "card.face")


# --- card.number -------------------------------------------------------------------------------


@pytest.mark.ruling("card.number")
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 10])
def test_number_card_moves_its_count(n: int) -> None:
    # One peg on 12 (rest in start: number cards cannot come out), seat 2 all home.
    state = pos(f"pegs 0: 12\npegs 2: {ALL_HOME}\nhand 0: {n}")
    assert moves(state) == [f"{n} 0:12-{12 + n}"]


@pytest.mark.ruling("card.number")
def test_number_card_may_enter_home_or_stay() -> None:
    # From 1 the in-spot 3 is 2 steps away; 4 = 2 + 2 -> h2, or track 5.
    state = pos(f"pegs 0: 1\npegs 2: {ALL_HOME}\nhand 0: 4")
    assert moves(state) == ["4 0:1-5", "4 0:1-h2"]


@pytest.mark.ruling("card.number")
def test_number_card_cannot_overshoot_home() -> None:
    # From 1, 10 = 2 + 8: h8 does not exist, so only the track: 11.
    state = pos(f"pegs 0: 1\npegs 2: {ALL_HOME}\nhand 0: 10")
    assert moves(state) == ["10 0:1-11"]
    expect_illegal(state, "10 0:1-h5", "move.home-entry")


@pytest.mark.ruling("card.number")
def test_number_card_wraps_the_track() -> None:
    # 68 + 6 = 74 = 2 (mod 72); the in-spot is 7 steps away, beyond the count.
    state = pos(f"pegs 0: 68\npegs 2: {ALL_HOME}\nhand 0: 6")
    assert moves(state) == ["6 0:68-2"]


@pytest.mark.ruling("card.number")
def test_number_card_moves_within_home() -> None:
    # h1 + 3 = h4. A 5 from h1 would be h6: nothing else can move, so only discard.
    state = pos(f"pegs 0: h1\npegs 2: {ALL_HOME}\nhand 0: 3")
    assert moves(state) == ["3 0:h1-h4"]
    state5 = pos(f"pegs 0: h1\npegs 2: {ALL_HOME}\nhand 0: 5")
    assert moves(state5) == ["discard 5"]


@pytest.mark.ruling("card.number")
def test_number_card_moves_teammate_into_its_own_home() -> None:
    # Seat 0 all in start; seat 2 has a peg on 37 (others in start). Seat 2's in-spot is 39,
    # 2 steps away; 4 = 2 + 2 -> seat 2's h2, or track 41.
    state = pos("pegs 2: 37\nhand 0: 4")
    assert moves(state) == ["4 2:37-41", "4 2:37-h2"]
    after = pegs_after(state, "4 2:37-h2")
    assert after[2] == (S, S, S, S, home(2))


@pytest.mark.ruling("card.number")
def test_number_card_moves_exactly_its_count() -> None:
    state = pos(f"pegs 0: 12\npegs 2: {ALL_HOME}\nhand 0: 5")
    expect_illegal(state, "5 0:12-16", "card.number")
    expect_illegal(state, "5 0:12-18", "card.number")
    expect_illegal(state, "5 0:12-7", "card.number")


# --- card.seven --------------------------------------------------------------------------------


@pytest.mark.ruling("card.seven")
def test_seven_single_peg() -> None:
    # One movable peg (12), seat 2's home pegs cannot move: no split is possible. 12 + 7 = 19.
    state = pos(f"pegs 0: 12\npegs 2: {ALL_HOME}\nhand 0: 7")
    assert moves(state) == ["7 0:12-19"]


@pytest.mark.ruling("card.seven")
def test_seven_single_peg_enters_home() -> None:
    # From 70: 5 steps to the in-spot 3, 2 more = h2; or track 77 = 5 (mod 72).
    state = pos(f"pegs 0: 70\npegs 2: {ALL_HOME}\nhand 0: 7")
    assert moves(state) == ["7 0:70-5", "7 0:70-h2"]
    assert pegs_after(state, "7 0:70-h2")[0] == (S, S, S, S, home(2))


@pytest.mark.ruling("card.seven")
def test_seven_moves_exactly_seven() -> None:
    state = pos(f"pegs 0: 12\npegs 2: {ALL_HOME}\nhand 0: 7")
    expect_illegal(state, "7 0:12-18", "card.seven")
    expect_illegal(state, "7 0:12-20", "card.seven")
    expect_illegal(state, "7 0:s-8", "card.come-out")


# --- card.seven.split --------------------------------------------------------------------------


@pytest.mark.ruling("card.seven.split", "card.seven.split.order")
def test_seven_split_independent_pegs_listed_once_each() -> None:
    # Pegs on 10 and 30 never meet: 10 + a <= 16 < 30 and 30 + b <= 36. Both orders of each
    # split give the same position, so each is listed once, in the order that sorts first:
    # the peg on 10 first. a = 1..6, b = 7 - a. Then the two single moves.
    state = pos(f"pegs 0: 10 30\npegs 2: {ALL_HOME}\nhand 0: 7")
    assert moves(state) == [
        "7 0:10-11 0:30-36",
        "7 0:10-12 0:30-35",
        "7 0:10-13 0:30-34",
        "7 0:10-14 0:30-33",
        "7 0:10-15 0:30-32",
        "7 0:10-16 0:30-31",
        "7 0:10-17",
        "7 0:30-37",
    ]
    # the same split in the other order is not a separate move, but it is accepted as this one
    expect_same_move(state, "7 0:30-36 0:10-11", "7 0:10-11 0:30-36")


@pytest.mark.ruling("card.seven.split.order", "move.landing")
def test_seven_split_other_order_knocks_a_teammate_into_the_in_spot_just_left() -> None:
    # Seat 0 on 10 and on 39 (seat 2's in-spot), seat 2 on 44. Listed: 0:10-12 (2), then
    # 0:39-44 (5) lands on seat 2's peg, which goes to its in-spot 39, just left by the mover.
    # The other order does the same: 0:39-44 first leaves 39 before the knocked peg is sent
    # there, then 0:10-12. Both end with seat 0 on 12 and 44, seat 2 on 39: one move.
    state = pos("pegs 0: 10 39\npegs 2: 44\nhand 0: 7")
    expect_same_move(state, "7 0:39-44 0:10-12", "7 0:10-12 0:39-44")
    after = pegs_after(state, "7 0:39-44 0:10-12")
    assert (after[0], after[2]) == ((START, START, START, 12, 44), (START, START, START, START, 39))


@pytest.mark.ruling("card.seven.split")
def test_seven_split_first_part_unblocks_the_second() -> None:
    # Pegs A on 10 and B on 12 (same colour).
    # Singles: A 10 -> 17 passes B: blocked; B 12 -> 19.
    # A first: A may move only 1 (2+ passes or lands on 12), then B 12 -> 18.
    # B first by b, then A by 7 - b to 17 - b: blocked while 12 + b <= 17 - b (b <= 2);
    #   b = 3: B 15, A 14; b = 4: B 16, A 13; b = 5: B 17, A 12 (where B stood);
    #   b = 6: B 18, A 11 - the same result as A-first (A 11, B 18), which sorts first.
    state = pos(f"pegs 0: 10 12\npegs 2: {ALL_HOME}\nhand 0: 7")
    assert moves(state) == [
        "7 0:10-11 0:12-18",
        "7 0:12-15 0:10-14",
        "7 0:12-16 0:10-13",
        "7 0:12-17 0:10-12",
        "7 0:12-19",
    ]
    assert pegs_after(state, "7 0:12-17 0:10-12")[0] == (S, S, S, 12, 17)
    # the same two parts in the other order: A 10 -> 14 passes B on 12
    expect_illegal(state, "7 0:10-14 0:12-15", "move.blocking")
    expect_illegal(state, "7 0:10-12 0:12-17", "move.blocking")
    # the other order of the listed split (B 12 -> 18, then A 10 -> 11) leaves A 11, B 18 too:
    # not listed again, but accepted as the listed move
    expect_same_move(state, "7 0:12-18 0:10-11", "7 0:10-11 0:12-18")


@pytest.mark.ruling("card.seven.split")
def test_seven_split_first_part_knocks_teammate_which_then_moves_from_its_in_spot() -> None:
    # Seat 0 peg A on 10, seat 2 (teammate) peg C on 15; all other pegs in start.
    # Singles: A 10 -> 17 (passing C is fine); C 15 -> 22. No home entry (in-spots 3 and 39
    # are far).
    # A first, a + b = 7:
    #   a = 1..4: A to 11..14, then C 15 -> 21..18;
    #   a = 5: A lands on C at 15, C goes to seat 2's in-spot 39; C then moves 2 from 39:
    #          track 41 or (from its in-spot) h2;
    #   a = 6: A 10 -> 16, then C 15 -> 16 lands on A, which goes to seat 0's in-spot 3.
    # C first:
    #   b = 1: C 16, then A 10 -> 16 lands on C, which goes to 39 (new result);
    #   b = 2: C 17, then A 10 -> 15 (new result: C was gone);
    #   b = 3..6: C 18..21 with A 14..11 - same results as A-first, which sorts first.
    state = pos("pegs 0: 10\npegs 2: 15\nhand 0: 7")
    assert moves(state) == [
        "7 0:10-11 2:15-21",
        "7 0:10-12 2:15-20",
        "7 0:10-13 2:15-19",
        "7 0:10-14 2:15-18",
        "7 0:10-15 2:39-41",
        "7 0:10-15 2:39-h2",
        "7 0:10-16 2:15-16",
        "7 0:10-17",
        "7 2:15-16 0:10-16",
        "7 2:15-17 0:10-15",
        "7 2:15-22",
    ]
    after = pegs_after(state, "7 0:10-15 2:39-h2")
    assert after[0] == (S, S, S, S, 15)
    assert after[2] == (S, S, S, S, home(2))
    after = pegs_after(state, "7 0:10-16 2:15-16")
    assert after[0] == (S, S, S, S, 3)
    assert after[2] == (S, S, S, S, 16)
    after = pegs_after(state, "7 2:15-16 0:10-16")
    assert after[0] == (S, S, S, S, 16)
    assert after[2] == (S, S, S, S, 39)


@pytest.mark.ruling("card.seven.split")
def test_seven_split_second_part_judged_on_board_left_by_first() -> None:
    state = pos("pegs 0: 10\npegs 2: 15\nhand 0: 7")
    # After A lands on 15, C is on 39, not 15: the second part cannot start from 15.
    # (card.seven.split: "each part is judged on the board the previous part left"; the
    # engine cites board.pegs - no peg of seat 2 on 15 - which is defensible.)
    expect_illegal(state, "7 0:10-15 2:15-17", "board.pegs", "card.seven.split")
    # From 39 the part of 2 goes to 41 or h2, not 40.
    expect_illegal(state, "7 0:10-15 2:39-40", "card.seven.split")


@pytest.mark.ruling("card.seven.split")
def test_seven_split_parts_enter_and_move_within_home() -> None:
    # Seat 0: P on 1, H on h1, three in start; seat 2 all home. From 1 the in-spot is 2 away.
    # Singles: P 1 -> 8 (track); 1 -> h5 passes h1: blocked. H cannot move 7.
    # H can move b = 1..4 (to h5 at most), so P moves a = 3..6.
    # P first: P to the track 4..7 (any home entry passes h1), then H to h5..h2.
    # H first to h(1+b), then P: track (same results, listed P-first), or home h(a-2):
    #   a = 3: H h5, P h1; a = 4: H h4, P h2; a = 5: P onto H at h3: blocked; a = 6: passes h2.
    state = pos(f"pegs 0: 1 h1\npegs 2: {ALL_HOME}\nhand 0: 7")
    assert moves(state) == [
        "7 0:1-4 0:h1-h5",
        "7 0:1-5 0:h1-h4",
        "7 0:1-6 0:h1-h3",
        "7 0:1-7 0:h1-h2",
        "7 0:1-8",
        "7 0:h1-h4 0:1-h2",
        "7 0:h1-h5 0:1-h1",
    ]
    assert pegs_after(state, "7 0:h1-h5 0:1-h1")[0] == (S, S, S, home(1), home(5))
    # entering first would land on the occupied h1 (move.home-entry)
    expect_illegal(state, "7 0:1-h1 0:h1-h5", "move.home-entry")
    # H first to h3, then P into home by 5 would land on h3
    expect_illegal(state, "7 0:h1-h3 0:1-h3", "move.home-entry")


@pytest.mark.ruling("card.seven.split")
def test_seven_split_cannot_use_a_come_out() -> None:
    # Only one peg (12) can move forward; a come-out is never a split part.
    state = pos(f"pegs 0: 12\npegs 2: {ALL_HOME}\nhand 0: 7")
    assert moves(state) == ["7 0:12-19"]
    come_out_first = Play(Rank.SEVEN, (Step(0, START, 8), Step(0, 12, 18)))
    come_out_second = Play(Rank.SEVEN, (Step(0, 12, 18), Step(0, START, 8)))
    expect_illegal(state, come_out_first, "card.seven.split")
    expect_illegal(state, come_out_second, "card.seven.split")


@pytest.mark.ruling("card.seven.split")
def test_seven_split_needs_two_pegs_and_a_total_of_seven() -> None:
    state = pos(f"pegs 0: 10 30\npegs 2: {ALL_HOME}\nhand 0: 7")
    # the same peg twice
    expect_illegal(state, "7 0:10-13 0:13-17", "card.seven.split")
    # parts totalling 5 or 9
    expect_illegal(state, "7 0:10-12 0:30-33", "card.seven.split")
    expect_illegal(state, "7 0:10-14 0:30-35", "card.seven.split")
    # a part of 7 leaves nothing for the other
    expect_illegal(state, "7 0:10-17 0:30-31", "card.seven.split")
    # a backward part
    expect_illegal(state, "7 0:10-8 0:30-39", "card.seven.split")


# --- card.eight --------------------------------------------------------------------------------


@pytest.mark.ruling("card.eight")
@pytest.mark.parametrize(
    ("src", "dst"),
    [
        (20, 12),  # plain
        (8, 0),  # from the come-out hole 18*0+8 to the corner 0
        (10, 2),  # passes the come-out hole 8 and the in-spot 3, stays on the track
        (5, 69),  # wraps below hole 0: 5 - 8 = -3 = 69 (mod 72), passing the in-spot
        (3, 67),  # from the in-spot: 3 - 8 = -5 = 67
        (0, 64),
    ],
)
def test_eight_moves_eight_back(src: int, dst: int) -> None:
    # One peg on the track, four in start (an 8 cannot move them), seat 2 all home.
    state = pos(f"pegs 0: {src}\npegs 2: {ALL_HOME}\nhand 0: 8")
    assert moves(state) == [f"8 0:{src}-{dst}"]
    assert pegs_after(state, f"8 0:{src}-{dst}")[0] == (S, S, S, S, dst)


@pytest.mark.ruling("card.eight")
@pytest.mark.parametrize(
    ("card", "expected"),
    [
        ("3", ["3 0:0-3"]),  # lands on the in-spot: no home hole reached
        ("4", ["4 0:0-4", "4 0:0-h1"]),  # 3 steps to the in-spot, 1 more
        ("5", ["5 0:0-5", "5 0:0-h2"]),
        ("6", ["6 0:0-6", "6 0:0-h3"]),
        ("7", ["7 0:0-7", "7 0:0-h4"]),
        ("10", ["10 0:0-10"]),  # 3 + 7: beyond h5
    ],
)
def test_after_eight_from_come_out_peg_may_enter_home(card: str, expected: list[str]) -> None:
    # 8 from the come-out hole lands on the corner 0, three steps short of the in-spot 3,
    # so a count of 4..8 takes it into home (8 is covered by the 9 split test below).
    before = pos(f"pegs 0: 8\npegs 2: {ALL_HOME}\nhand 0: 8")
    assert pegs_after(before, "8 0:8-0")[0] == (S, S, S, S, 0)
    state = pos(f"pegs 0: 0\npegs 2: {ALL_HOME}\nhand 0: {card}")
    assert moves(state) == expected


@pytest.mark.ruling("card.eight")
def test_eight_cannot_move_pegs_in_start_or_home() -> None:
    # Seat 0: h1 and h3 in home, three in start; seat 2 all home: an 8 has nothing to move.
    state = pos(f"pegs 0: h1 h3\npegs 2: {ALL_HOME}\nhand 0: 8")
    assert moves(state) == ["discard 8"]
    expect_illegal(state, Play(Rank.EIGHT, (Step(0, home(3), 70),)), "card.eight")
    expect_illegal(state, Play(Rank.EIGHT, (Step(0, home(3), home(1)),)), "card.eight")
    # card.eight says an 8 cannot move a peg in start; card.come-out (only A/J/Q/K come out)
    # is an equally defensible citation.
    start_rule = rule_of(state, Play(Rank.EIGHT, (Step(0, START, 0),)))
    assert start_rule in {"card.eight", "card.come-out"}


@pytest.mark.ruling("card.eight")
def test_eight_never_enters_home_and_moves_exactly_eight_back() -> None:
    # From 11 eight back is 3, the in-spot: it stays on the track, never turning into home.
    state = pos(f"pegs 0: 11\npegs 2: {ALL_HOME}\nhand 0: 8")
    assert moves(state) == ["8 0:11-3"]
    expect_illegal(state, "8 0:11-h1", "card.eight")
    expect_illegal(state, "8 0:11-4", "card.eight")
    expect_illegal(state, "8 0:11-19", "card.eight")
    expect_illegal(state, "8 0:11-s", "card.eight")


@pytest.mark.ruling("card.eight")
def test_eight_blocked_by_own_peg() -> None:
    # Pegs on 15 and 20: 20 -> 12 passes 15: blocked. 15 -> 7 is free.
    state = pos(f"pegs 0: 15 20\npegs 2: {ALL_HOME}\nhand 0: 8")
    assert moves(state) == ["8 0:15-7"]
    expect_illegal(state, "8 0:20-12", "move.blocking")


@pytest.mark.ruling("card.eight")
def test_eight_passes_other_colours_and_displaces() -> None:
    # Seat 1 pegs on 15 (passed) and 12 (landed on: back to seat 1's start).
    state = pos(f"pegs 0: 20\npegs 1: 12 15\npegs 2: {ALL_HOME}\nhand 0: 8")
    assert moves(state) == ["8 0:20-12"]
    after = pegs_after(state, "8 0:20-12")
    assert after[0] == (S, S, S, S, 12)
    assert after[1] == (S, S, S, S, 15)


@pytest.mark.ruling("card.eight")
def test_eight_moves_teammate_peg() -> None:
    # Seat 0 all in start; seat 2 on 50 and h1..h4: 50 -> 42.
    state = pos("pegs 2: 50 h1 h2 h3 h4\nhand 0: 8")
    assert moves(state) == ["8 2:50-42"]


# --- card.nine ---------------------------------------------------------------------------------


@pytest.mark.ruling("card.nine")
def test_nine_single_peg() -> None:
    state = pos(f"pegs 0: 12\npegs 2: {ALL_HOME}\nhand 0: 9")
    assert moves(state) == ["9 0:12-21"]


@pytest.mark.ruling("card.nine", "card.seven.split.order")
def test_nine_split_independent_pegs() -> None:
    # 10 + a <= 18 < 30, 30 + b <= 38: no interaction, each split listed once (peg 10 first).
    state = pos(f"pegs 0: 10 30\npegs 2: {ALL_HOME}\nhand 0: 9")
    assert moves(state) == [f"9 0:10-{10 + a} 0:30-{39 - a}" for a in range(1, 9)] + [
        "9 0:10-19",
        "9 0:30-39",
    ]


@pytest.mark.ruling("card.nine")
def test_nine_split_first_part_unblocks_the_second() -> None:
    # A on 10, B on 12. Singles: A passes B (blocked); B 12 -> 21.
    # A first: only a = 1 (A 11), then B 12 -> 20.
    # B first by b, A by 9 - b to 19 - b: blocked while 12 + b <= 19 - b (b <= 3);
    #   b = 4: B 16, A 15; 5: B 17, A 14; 6: B 18, A 13; 7: B 19, A 12;
    #   b = 8: B 20, A 11 = the A-first result, listed A-first.
    state = pos(f"pegs 0: 10 12\npegs 2: {ALL_HOME}\nhand 0: 9")
    assert moves(state) == [
        "9 0:10-11 0:12-20",
        "9 0:12-16 0:10-15",
        "9 0:12-17 0:10-14",
        "9 0:12-18 0:10-13",
        "9 0:12-19 0:10-12",
        "9 0:12-21",
    ]
    expect_illegal(state, "9 0:10-15 0:12-16", "move.blocking")


@pytest.mark.ruling("card.nine")
def test_nine_split_knocked_peg_moves_from_its_in_spot_into_home() -> None:
    # Seat 2's peg C on 14 moves 6 to 20 and lands on seat 0's peg A, which goes to seat 0's
    # in-spot 3; A then moves 3 from its in-spot: track 6 or h3.
    state = pos("pegs 0: 20\npegs 2: 14\nhand 0: 9")
    legal = moves(state)
    assert "9 2:14-20 0:3-6" in legal
    assert "9 2:14-20 0:3-h3" in legal
    after = pegs_after(state, "9 2:14-20 0:3-h3")
    assert after[0] == (S, S, S, S, home(3))
    assert after[2] == (S, S, S, S, 20)
    # A is no longer on 20 when the second part starts
    expect_illegal(state, "9 2:14-20 0:20-23", "board.pegs", "card.nine")


@pytest.mark.ruling("card.nine")
def test_nine_split_part_of_eight_enters_home_from_corner() -> None:
    # Pegs on 0 and 30. From 0 the in-spot 3 is 3 steps away: a part a = 4..8 may enter home
    # as h(a-3), or stay on the track. The other peg moves 9 - a from 30 (never near 3 or 0).
    # The pegs never interact, so each split is listed once, the peg on 0 first.
    state = pos(f"pegs 0: 0 30\npegs 2: {ALL_HOME}\nhand 0: 9")
    assert moves(state) == [
        "9 0:0-1 0:30-38",
        "9 0:0-2 0:30-37",
        "9 0:0-3 0:30-36",
        "9 0:0-4 0:30-35",
        "9 0:0-5 0:30-34",
        "9 0:0-6 0:30-33",
        "9 0:0-7 0:30-32",
        "9 0:0-8 0:30-31",
        "9 0:0-9",  # 0 + 9 = 3 + 6: beyond h5, so only the track
        "9 0:0-h1 0:30-35",
        "9 0:0-h2 0:30-34",
        "9 0:0-h3 0:30-33",
        "9 0:0-h4 0:30-32",
        "9 0:0-h5 0:30-31",
        "9 0:30-39",
    ]


@pytest.mark.ruling("card.nine")
def test_nine_forbidden_moves() -> None:
    state = pos(f"pegs 0: 10 30\npegs 2: {ALL_HOME}\nhand 0: 9")
    expect_illegal(state, "9 0:10-18", "card.nine")  # single of 8
    expect_illegal(state, "9 0:10-12 0:30-35", "card.nine")  # 2 + 5 = 7
    expect_illegal(state, "9 0:10-13 0:13-19", "card.nine")  # same peg twice
    expect_illegal(state, "9 0:30-39 0:10-11", "card.nine")  # 9 + 1
    # the other order of a listed split: 30 -> 38 then 10 -> 11 leaves 11 and 38 as the listed
    # order does, so it is accepted as that move (card.seven.split.order)
    expect_same_move(state, "9 0:30-38 0:10-11", "9 0:10-11 0:30-38")
    split_come_out = Play(Rank.NINE, (Step(0, START, 8), Step(0, 10, 11)))
    expect_illegal(state, split_come_out, "card.nine")


# --- card.joker --------------------------------------------------------------------------------


@pytest.mark.ruling("card.joker")
def test_joker_lands_only_on_other_colours() -> None:
    # Everyone of team 0 in start; seat 1 on 30, seat 3 on 50. The joker must come from a team
    # start area (seats 0 and 2) and land on an occupied track hole: 30 or 50. Nothing but the
    # joker can move, so discards are legal too.
    state = pos("pegs 1: 30\npegs 3: 50\nhand 0: JK")
    assert moves(state) == [
        "JK 0:s-30",
        "JK 0:s-50",
        "JK 2:s-30",
        "JK 2:s-50",
        "discard JK",
    ]
    after = pegs_after(state, "JK 2:s-50")
    assert after[2] == (S, S, S, S, 50)
    assert after[3] == (S,) * 5


@pytest.mark.ruling("card.joker")
def test_joker_onto_teammate_sends_it_to_its_in_spot() -> None:
    # Seat 2 has a peg on 30 (four in start). A seat-0 peg may jump onto it (different colour);
    # a seat-2 peg may not (same colour). The knocked seat-2 peg goes to its in-spot 39.
    state = pos("pegs 2: 30\nhand 0: JK")
    assert moves(state) == ["JK 0:s-30", "discard JK"]
    after = pegs_after(state, "JK 0:s-30")
    assert after[0] == (S, S, S, S, 30)
    assert after[2] == (S, S, S, S, 39)


@pytest.mark.ruling("card.joker")
def test_joker_forbidden_targets() -> None:
    # Seat 0: 30 and four in start; seat 1 on 50; seat 2 all home.
    state = pos(f"pegs 0: 30\npegs 1: 50\npegs 2: {ALL_HOME}\nhand 0: JK")
    assert moves(state) == ["JK 0:s-50", "discard JK"]
    expect_illegal(state, "JK 0:s-40", "card.joker")  # empty hole
    expect_illegal(state, "JK 0:s-30", "card.joker")  # own colour
    expect_illegal(state, "JK 0:s-h1", "card.joker")  # home hole
    expect_illegal(state, "JK 0:s-s", "card.joker")  # start area
    expect_illegal(state, "JK 0:s-8", "card.joker")  # its come-out hole, empty


@pytest.mark.ruling("card.joker")
def test_joker_ignores_blocking_and_may_go_backwards() -> None:
    # Team starts empty: seat 0 on 10, 12, h1..h3; seat 2 all home. Seat 3 on 5, seat 1 on 14.
    # Sources: 10 and 12. Targets: 5 and 14. 10 -> 14 jumps over seat 0's own 12.
    state = pos(f"pegs 0: 10 12 h1 h2 h3\npegs 1: 14\npegs 2: {ALL_HOME}\npegs 3: 5\nhand 0: JK")
    assert moves(state) == [
        "JK 0:10-5",
        "JK 0:10-14",
        "JK 0:12-5",
        "JK 0:12-14",
        "discard JK",
    ]
    after = pegs_after(state, "JK 0:10-14")
    assert after[0] == (12, 14, home(1), home(2), home(3))
    assert after[1] == (S,) * 5


@pytest.mark.ruling("card.joker")
def test_joker_onto_teammate_whose_in_spot_is_taken_is_illegal() -> None:
    # Seat 2 on 30 and on its in-spot 39: jumping onto 30 would send that peg to 39, where its
    # own colour stands. The only other target, 39, is seat 2's too: fine for seat 0's peg,
    # but then the knocked peg would land on its own in-spot - where it already is.
    state = pos("pegs 2: 30 39\nhand 0: JK")
    assert moves(state) == ["discard JK"]
    expect_illegal(state, "JK 0:s-30", "move.landing.in-spot")
    expect_illegal(state, "JK 0:s-39", "move.landing.in-spot")


# --- card.joker.source -------------------------------------------------------------------------


@pytest.mark.ruling("card.joker.source")
def test_joker_must_come_from_own_start_while_it_holds_pegs() -> None:
    # Seat 0: 10 and four in start; seat 2 all home; seat 1 on 20.
    state = pos(f"pegs 0: 10\npegs 1: 20\npegs 2: {ALL_HOME}\nhand 0: JK")
    assert moves(state) == ["JK 0:s-20", "discard JK"]
    expect_illegal(state, "JK 0:10-20", "card.joker.source")


@pytest.mark.ruling("card.joker.source")
def test_joker_must_come_from_teammate_start_while_it_holds_pegs() -> None:
    # Seat 0 (10, h1..h4) has no peg in start, but seat 2 (h1..h4) has one: the joker must
    # bring that one out, onto seat 1's peg on 20 or onto seat 0's peg on 10 (a different
    # colour from the seat-2 mover; it goes to seat 0's in-spot 3, which is empty).
    state = pos("pegs 0: 10 h1 h2 h3 h4\npegs 1: 20\npegs 2: h1 h2 h3 h4\nhand 0: JK")
    assert moves(state) == ["JK 2:s-10", "JK 2:s-20", "discard JK"]
    after = pegs_after(state, "JK 2:s-10")
    assert after[0] == (3, home(1), home(2), home(3), home(4))
    assert after[2] == (10, home(1), home(2), home(3), home(4))
    expect_illegal(state, "JK 0:10-20", "card.joker.source")


@pytest.mark.ruling("card.joker.source")
def test_joker_any_team_track_peg_once_team_starts_are_empty() -> None:
    # Seat 0: 10, h1..h4; seat 2: 40, h1..h4; seat 1 on 20. Sources: 0:10 and 2:40.
    # Targets (other colour than the mover): 0:10 -> 20, 40 (seat 2's peg to its in-spot 39);
    # 2:40 -> 10 (seat 0's peg to its in-spot 3), 20.
    state = pos("pegs 0: 10 h1 h2 h3 h4\npegs 1: 20\npegs 2: 40 h1 h2 h3 h4\nhand 0: JK")
    assert moves(state) == [
        "JK 0:10-20",
        "JK 0:10-40",
        "JK 2:40-10",
        "JK 2:40-20",
        "discard JK",
    ]
    after = pegs_after(state, "JK 2:40-10")
    assert after[0] == (3, home(1), home(2), home(3), home(4))
    assert after[2] == (10, home(1), home(2), home(3), home(4))
    # never a peg in home
    expect_illegal(state, "JK 0:h1-20", "card.joker.source")
    expect_illegal(state, "JK 2:h4-20", "card.joker.source")


@pytest.mark.ruling("card.joker.source")
def test_joker_source_is_checked_afresh_each_turn() -> None:
    # Team 0's start areas are empty. Seat 1 jokers onto seat 0's peg on 10, sending it back
    # to seat 0's start; on seat 2's turn the joker must therefore bring that peg out again.
    state = pos(
        "turn: 1\npegs 0: 10 h1 h2 h3 h4\npegs 2: 40 h1 h2 h3 h4\nhand 1: JK\nhand 2: JK\n"
        "draw: 2 3 4 5 6"
    )
    after = apply(state, mv("JK 1:s-10"))
    assert after.turn == 2
    assert after.pegs[0] == (S, home(1), home(2), home(3), home(4))
    # seat 0's peg from start onto seat 1's peg on 10, or onto seat 2's peg on 40 (-> 39)
    assert moves(after) == ["JK 0:s-10", "JK 0:s-40", "discard JK"]
    expect_illegal(after, "JK 2:40-10", "card.joker.source")


# --- card.joker.optional -----------------------------------------------------------------------


@pytest.mark.ruling("card.joker.optional")
def test_joker_need_not_be_played_but_may_be() -> None:
    # A playable 5 forces a play (turn.must-play) - either the 5 or the joker, no discard.
    state = pos(f"pegs 0: 12\npegs 1: 30\npegs 2: {ALL_HOME}\nhand 0: 5 JK")
    assert moves(state) == ["5 0:12-17", "JK 0:s-30"]
    expect_illegal(state, "discard 5", "turn.must-play")
    expect_illegal(state, "discard JK", "turn.must-play")


@pytest.mark.ruling("card.joker.optional")
def test_playable_joker_does_not_make_discard_illegal() -> None:
    # The 8 cannot move (all of team 0 in start or home); the joker can. Both discards are
    # legal, as is the joker.
    state = pos(f"pegs 1: 30\npegs 2: {ALL_HOME}\nhand 0: 8 JK\ndraw: 2 3 4 5 6")
    assert moves(state) == ["JK 0:s-30", "discard 8", "discard JK"]
    for card in ("8", "JK"):
        after = apply(state, mv(f"discard {card}"))
        assert after.pegs == state.pegs
        assert after.discard_pile == (Rank.parse(card),)
        assert after.turn == 1


@pytest.mark.ruling("card.joker.optional")
def test_lone_playable_joker_may_be_discarded() -> None:
    state = pos(f"pegs 1: 30\npegs 2: {ALL_HOME}\nhand 0: JK\ndraw: 2 3 4 5 6")
    assert moves(state) == ["JK 0:s-30", "discard JK"]
    after = apply(state, mv("discard JK"))
    assert after.pegs == state.pegs
    assert after.discard_pile == (Rank.JOKER,)
    assert after.hands[0] == (Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX)


@pytest.mark.ruling("card.joker.optional")
def test_unplayable_joker_is_discarded() -> None:
    # No peg of another colour on the track: no target.
    state = pos(f"pegs 2: {ALL_HOME}\nhand 0: JK")
    assert moves(state) == ["discard JK"]
