"""Unit tests for the movement rulings of specs/rulings.md.

Ruling ids covered: ``move.forward``, ``move.home-entry``, ``move.in-home``,
``move.blocking``, ``move.safe-holes``, ``move.landing`` and
``move.landing.in-spot``.

Every expected move set and resulting position below is derived by hand from
the rulings and the board geometry (``board.geometry``): the track has
``18 * N`` holes numbered clockwise, seat ``s``'s in-spot is ``18s + 3`` and
its come-out hole ``18s + 8``; teams are ``seat % 2``; in the ``arizona``
preset a player may move any peg of their team (``team.control``).

Quick reference:

* 4 players, holes 0..71: in-spots 3, 21, 39, 57; come-outs 8, 26, 44, 62.
* 6 players, holes 0..107: in-spots 3, 21, 39, 57, 75, 93; come-outs 8, 26,
  44, 62, 80, 98.
* 8 players, holes 0..143: in-spots 3, 21, 39, 57, 75, 93, 111, 129;
  come-outs 8, 26, 44, 62, 80, 98, 116, 134.

Hands hold one card (no 7 or 9 with two movable pegs), so no split moves
appear, and a card that can move is always a must-play, so no discards
appear unless stated.
"""

from __future__ import annotations

import pytest

from pegs_rules import (
    START,
    Discard,
    GameState,
    IllegalMoveError,
    Play,
    Rank,
    Step,
    apply,
    home,
    legal_moves,
    parse_position,
)

S = START
H1, H2, H3, H4, H5 = (home(k) for k in range(1, 6))

Pegs = tuple[tuple[int, ...], ...]


# --------------------------------------------------------------------------- helpers


def listed(state: GameState) -> set[str]:
    """The legal moves of ``state`` in notation, checking there are no duplicates."""
    names = [str(m) for m in legal_moves(state)]
    assert len(names) == len(set(names)), names
    return set(names)


def play(card: Rank, *steps: tuple[int, int, int]) -> Play:
    """A play of ``card`` made of ``(seat, from, to)`` steps."""
    return Play(card, tuple(Step(*s) for s in steps))


def seat_pegs(*locations: int) -> tuple[int, ...]:
    """A seat's five pegs in canonical order: the given ones, the rest in start."""
    assert len(locations) <= 5
    return tuple(sorted([*locations, *([START] * (5 - len(locations)))]))


def pegs_of(players: int, placed: dict[int, tuple[int, ...]]) -> Pegs:
    """Every seat's pegs: ``placed`` for the seats given, all in start otherwise."""
    return tuple(seat_pegs(*placed.get(seat, ())) for seat in range(players))


def after(state: GameState, move: Play) -> Pegs:
    """The pegs once ``move`` is applied; the move must be listed as legal."""
    assert move in legal_moves(state), str(move)
    return apply(state, move).pegs


def assert_illegal(state: GameState, move: Play, rule: str | set[str]) -> None:
    """``move`` is not listed and ``apply`` rejects it, citing ``rule``."""
    assert move not in legal_moves(state), str(move)
    with pytest.raises(IllegalMoveError) as info:
        apply(state, move)
    if isinstance(rule, str):
        assert info.value.rule == rule, str(info.value)
    else:
        assert info.value.rule in rule, str(info.value)


# --------------------------------------------------------------------------- move.forward


@pytest.mark.ruling("move.forward")
def test_forward_plain_count() -> None:
    # 12 + 5 = 17; nothing in the way; seat 2 (teammate) has only start pegs.
    state = parse_position("pegs 0: 12\nhand 0: 5")
    assert listed(state) == {"5 0:12-17"}
    assert after(state, play(Rank.FIVE, (0, 12, 17))) == pegs_of(4, {0: (17,)})


@pytest.mark.ruling("move.forward")
def test_forward_wraps_past_hole_zero_4p() -> None:
    # Seat 1 at 70 with a 5: 71, 0, 1, 2, 3 -> hole 3 (seat 0's in-spot, an
    # ordinary hole for seat 1, whose own in-spot 21 is not on the path).
    state = parse_position("turn: 1\npegs 1: 70\nhand 1: 5")
    assert listed(state) == {"5 1:70-3"}
    assert after(state, play(Rank.FIVE, (1, 70, 3))) == pegs_of(4, {1: (3,)})


@pytest.mark.ruling("move.forward")
def test_forward_wraps_past_hole_zero_6p() -> None:
    # 6 players, 108 holes.  Seat 5 at 106 with a 6: 107, 0, 1, 2, 3, 4 -> 4.
    # Seat 5's in-spot 93 is behind it, so no way home.
    state = parse_position("players: 6\nturn: 5\npegs 5: 106\nhand 5: 6")
    assert listed(state) == {"6 5:106-4"}
    assert after(state, play(Rank.SIX, (5, 106, 4))) == pegs_of(6, {5: (4,)})


@pytest.mark.ruling("move.forward")
def test_forward_wraps_past_hole_zero_8p() -> None:
    # 8 players, 144 holes.  Seat 3 at 140 with a 10: 140 + 10 - 144 = 6.
    state = parse_position("players: 8\nturn: 3\npegs 3: 140\nhand 3: 10")
    assert listed(state) == {"10 3:140-6"}
    assert after(state, play(Rank.TEN, (3, 140, 6))) == pegs_of(8, {3: (6,)})


@pytest.mark.ruling("move.forward")
@pytest.mark.parametrize(("players", "seat", "spot"), [(4, 0, 3), (6, 5, 93), (8, 7, 129)])
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_forward_from_own_in_spot_next_step_is_home_1(
    players: int, seat: int, spot: int, n: int
) -> None:
    # A peg on its own in-spot (18s + 3): the next step is home 1, so n steps
    # end on home n; or it stays on the track at spot + n (no wrap for these).
    state = parse_position(
        f"players: {players}\nturn: {seat}\npegs {seat}: {spot}\nhand {seat}: {n}"
    )
    assert listed(state) == {f"{n} {seat}:{spot}-{spot + n}", f"{n} {seat}:{spot}-h{n}"}
    assert after(state, play(Rank(n), (seat, spot, home(n)))) == pegs_of(
        players, {seat: (home(n),)}
    )
    assert after(state, play(Rank(n), (seat, spot, spot + n))) == pegs_of(
        players, {seat: (spot + n,)}
    )


@pytest.mark.ruling("move.forward")
def test_forward_ace_from_own_in_spot_enters_home_1() -> None:
    # Ace: come out (seat 0 -> 8, seat 2 -> 44, both start areas hold pegs) or
    # 1 forward from the in-spot 3: track 4, or home 1.
    state = parse_position("pegs 0: 3\nhand 0: A")
    assert listed(state) == {"A 0:s-8", "A 0:3-4", "A 0:3-h1", "A 2:s-44"}
    assert after(state, play(Rank.ACE, (0, 3, H1))) == pegs_of(4, {0: (H1,)})


@pytest.mark.ruling("move.forward")
def test_forward_no_full_lap_required() -> None:
    # Seat 1 at 18 (e.g. knocked back by an 8 from its come-out 26) with a 5:
    # 19, 20, 21 (its in-spot), h1, h2 -> home 2; or track 23.
    state = parse_position("turn: 1\npegs 1: 18\nhand 1: 5")
    assert listed(state) == {"5 1:18-23", "5 1:18-h2"}
    assert after(state, play(Rank.FIVE, (1, 18, H2))) == pegs_of(4, {1: (H2,)})


@pytest.mark.ruling("move.forward")
def test_forward_other_in_spots_lead_nowhere() -> None:
    # Seat 0 at 19 passes seat 1's in-spot 21 (-> 24), at 36 passes its
    # teammate seat 2's in-spot 39 (-> 41): only its own in-spot (3) turns home.
    state = parse_position("pegs 0: 19 36\nhand 0: 5")
    assert listed(state) == {"5 0:19-24", "5 0:36-41"}


@pytest.mark.ruling("move.forward")
def test_forward_peg_just_past_its_in_spot_must_go_round() -> None:
    # Seat 0 at 4 is one hole past its in-spot: its home is 71 steps away.
    state = parse_position("pegs 0: 4\nhand 0: 5")
    assert listed(state) == {"5 0:4-9"}
    assert_illegal(state, play(Rank.FIVE, (0, 4, H5)), "move.home-entry")
    assert_illegal(state, play(Rank.FIVE, (0, 4, H1)), "move.home-entry")


@pytest.mark.ruling("move.forward")
def test_forward_count_is_exact_and_clockwise() -> None:
    # A 5 from 12 goes to 17 only: not 16 (short), not 7 (backwards).
    state = parse_position("pegs 0: 12\nhand 0: 5")
    assert_illegal(state, play(Rank.FIVE, (0, 12, 16)), "card.number")
    assert_illegal(state, play(Rank.FIVE, (0, 12, 7)), "card.number")


# --------------------------------------------------------------------------- move.home-entry


@pytest.mark.ruling("move.home-entry")
def test_home_entry_choice_after_wrapping_4p() -> None:
    # Seat 0 at 70 with a 6: 71, 0, 1, 2, 3 (in-spot, 5 steps), h1 -> home 1;
    # or track 70 + 6 - 72 = 4.  Both are listed.
    state = parse_position("pegs 0: 70\nhand 0: 6")
    assert listed(state) == {"6 0:70-4", "6 0:70-h1"}
    assert after(state, play(Rank.SIX, (0, 70, H1))) == pegs_of(4, {0: (H1,)})
    assert after(state, play(Rank.SIX, (0, 70, 4))) == pegs_of(4, {0: (4,)})


@pytest.mark.ruling("move.home-entry")
def test_home_entry_choice_after_wrapping_6p() -> None:
    # 108 holes.  Seat 0 at 104 with a 10: 105, 106, 107, 0, 1, 2, 3 (7
    # steps), h1, h2, h3 -> home 3; or track 104 + 10 - 108 = 6.
    state = parse_position("players: 6\npegs 0: 104\nhand 0: 10")
    assert listed(state) == {"10 0:104-6", "10 0:104-h3"}
    assert after(state, play(Rank.TEN, (0, 104, H3))) == pegs_of(6, {0: (H3,)})


@pytest.mark.ruling("move.home-entry")
def test_home_entry_choice_after_wrapping_8p() -> None:
    # 144 holes.  Seat 0 at 140 with a 10: 7 steps to hole 3, then h1..h3;
    # or track 140 + 10 - 144 = 6.
    state = parse_position("players: 8\npegs 0: 140\nhand 0: 10")
    assert listed(state) == {"10 0:140-6", "10 0:140-h3"}


@pytest.mark.ruling("move.home-entry")
def test_home_entry_choice_last_seat_8p() -> None:
    # Seat 7 (in-spot 129) at 125 with a 6: 126..129 is 4 steps, then h1, h2;
    # or track 131.  Team 1 = seats 1, 3, 5, 7; the others are in start.
    state = parse_position("players: 8\nturn: 7\npegs 7: 125\nhand 7: 6")
    assert listed(state) == {"6 7:125-131", "6 7:125-h2"}
    assert after(state, play(Rank.SIX, (7, 125, H2))) == pegs_of(8, {7: (H2,)})


@pytest.mark.ruling("move.home-entry")
def test_home_entry_exactly_home_5() -> None:
    # Seat 0 at 70 with a 10: 5 steps to hole 3, 5 more -> home 5 exactly;
    # or track 70 + 10 - 72 = 8 (its own come-out hole, empty).
    state = parse_position("pegs 0: 70\nhand 0: 10")
    assert listed(state) == {"10 0:70-8", "10 0:70-h5"}
    assert after(state, play(Rank.TEN, (0, 70, H5))) == pegs_of(4, {0: (H5,)})


@pytest.mark.ruling("move.home-entry")
def test_home_entry_overshoot_continues_on_track() -> None:
    # Seat 0 at 71 with a 10: 0, 1, 2, 3 is 4 steps to the in-spot, and the 6
    # left would need home 6, beyond home 5: impossible, so only the track,
    # 71 + 10 - 72 = 9.
    state = parse_position("pegs 0: 71\nhand 0: 10")
    assert listed(state) == {"10 0:71-9"}
    assert after(state, play(Rank.TEN, (0, 71, 9))) == pegs_of(4, {0: (9,)})
    assert_illegal(state, play(Rank.TEN, (0, 71, H5)), "move.home-entry")


@pytest.mark.ruling("move.home-entry")
def test_home_entry_one_short_of_in_spot_plus_ten() -> None:
    # Seat 0 at 69 with a 10: 70, 71, 0, 1, 2, 3 is 6 steps, 4 more -> home 4;
    # or track 69 + 10 - 72 = 7.
    state = parse_position("pegs 0: 69\nhand 0: 10")
    assert listed(state) == {"10 0:69-7", "10 0:69-h4"}
    assert after(state, play(Rank.TEN, (0, 69, H4))) == pegs_of(4, {0: (H4,)})
    assert_illegal(state, play(Rank.TEN, (0, 69, H5)), "move.home-entry")


@pytest.mark.ruling("move.home-entry")
def test_home_entry_count_ending_on_in_spot_stays_on_track() -> None:
    # Seat 0 at 65 with a 10 ends exactly on its in-spot 3 (0 home steps);
    # at 66 it is one step further: home 1, or track 4.
    state = parse_position("pegs 0: 65\nhand 0: 10")
    assert listed(state) == {"10 0:65-3"}
    state = parse_position("pegs 0: 66\nhand 0: 10")
    assert listed(state) == {"10 0:66-4", "10 0:66-h1"}


@pytest.mark.ruling("move.home-entry")
@pytest.mark.parametrize(
    ("players", "seat", "spot", "n"), [(4, 0, 3, 6), (4, 0, 3, 10), (8, 7, 129, 10)]
)
def test_home_entry_from_in_spot_beyond_home_5_impossible(
    players: int, seat: int, spot: int, n: int
) -> None:
    # From the in-spot, n > 5 would need home n: only the track, spot + n.
    state = parse_position(
        f"players: {players}\nturn: {seat}\npegs {seat}: {spot}\nhand {seat}: {n}"
    )
    assert listed(state) == {f"{Rank(n).symbol} {seat}:{spot}-{spot + n}"}
    assert_illegal(state, play(Rank(n), (seat, spot, H5)), "move.home-entry")


@pytest.mark.ruling("move.home-entry")
def test_home_entry_cannot_land_on_home_peg() -> None:
    # Seat 0 at 1 with a 5: 2, 3, h1, h2, h3 -> home 3 is taken: no entry.
    # Track 6 is fine; the home-3 peg would need home 8.
    state = parse_position("pegs 0: 1 h3\nhand 0: 5")
    assert listed(state) == {"5 0:1-6"}
    assert_illegal(state, play(Rank.FIVE, (0, 1, H3)), "move.home-entry")


@pytest.mark.ruling("move.home-entry")
def test_home_entry_cannot_pass_home_peg() -> None:
    # Same path to home 3, passing the peg on home 2: no entry.
    state = parse_position("pegs 0: 1 h2\nhand 0: 5")
    assert listed(state) == {"5 0:1-6"}
    assert_illegal(state, play(Rank.FIVE, (0, 1, H3)), "move.home-entry")


@pytest.mark.ruling("move.home-entry")
def test_home_entry_short_of_home_peg_allowed() -> None:
    # A 3: seat 0 at 1 -> 2, 3, h1 (home 1, before the home-2 peg) or track 4;
    # the home-2 peg -> home 5.
    state = parse_position("pegs 0: 1 h2\nhand 0: 3")
    assert listed(state) == {"3 0:1-4", "3 0:1-h1", "3 0:h2-h5"}
    assert after(state, play(Rank.THREE, (0, 1, H1))) == pegs_of(4, {0: (H1, H2)})


@pytest.mark.ruling("move.home-entry")
def test_home_entry_from_in_spot_blocked_by_home_1() -> None:
    # A 2 from the in-spot 3: home 2 would pass the peg on home 1; track 5 is
    # open; the home-1 peg -> home 3.
    state = parse_position("pegs 0: 3 h1\nhand 0: 2")
    assert listed(state) == {"2 0:3-5", "2 0:h1-h3"}
    assert_illegal(state, play(Rank.TWO, (0, 3, H2)), "move.home-entry")


@pytest.mark.ruling("move.home-entry")
def test_home_entry_blocked_by_own_peg_on_track_before_in_spot() -> None:
    # Seat 0 at 70 with a 6 passes its own peg on 2 both ways (track 4, home 1):
    # blocked.  The peg on 2: 3, 4, .., 8 (track 8) or 3, h1..h5 (home 5).
    state = parse_position("pegs 0: 70 2\nhand 0: 6")
    assert listed(state) == {"6 0:2-8", "6 0:2-h5"}
    assert_illegal(state, play(Rank.SIX, (0, 70, H1)), "move.blocking")
    assert_illegal(state, play(Rank.SIX, (0, 70, 4)), "move.blocking")


@pytest.mark.ruling("move.home-entry")
def test_home_entry_own_peg_on_in_spot_blocks_entry() -> None:
    # Seat 0 at 1 with a 5 passes its own peg on the in-spot 3 (home 3 and
    # track 6 alike); the in-spot peg: track 8 or home 5.
    state = parse_position("pegs 0: 1 3\nhand 0: 5")
    assert listed(state) == {"5 0:3-8", "5 0:3-h5"}
    assert_illegal(state, play(Rank.FIVE, (0, 1, H3)), "move.blocking")


@pytest.mark.ruling("move.home-entry")
def test_home_entry_when_track_landing_is_blocked() -> None:
    # Seat 0 at 1 with a 5: track 6 holds its own peg (blocked), home 3 is
    # free; the peg on 6 -> 11.
    state = parse_position("pegs 0: 1 6\nhand 0: 5")
    assert listed(state) == {"5 0:1-h3", "5 0:6-11"}


@pytest.mark.ruling("move.home-entry")
def test_home_entry_choice_spares_or_takes_opponent() -> None:
    # Seat 0 at 1 with a 5: track 6 (seat 1's peg there goes to start) or
    # home 3 (seat 1's peg stays).
    state = parse_position("pegs 0: 1\npegs 1: 6\nhand 0: 5")
    assert listed(state) == {"5 0:1-6", "5 0:1-h3"}
    assert after(state, play(Rank.FIVE, (0, 1, H3))) == pegs_of(4, {0: (H3,), 1: (6,)})
    assert after(state, play(Rank.FIVE, (0, 1, 6))) == pegs_of(4, {0: (6,)})


@pytest.mark.ruling("move.home-entry")
def test_home_entry_passes_opponent_on_own_in_spot() -> None:
    # Seat 1's peg on seat 0's in-spot 3 does not block (other colour): seat 0
    # at 70 with a 6 may still go home 1 or track 4, passing it untouched.
    state = parse_position("pegs 0: 70\npegs 1: 3\nhand 0: 6")
    assert listed(state) == {"6 0:70-4", "6 0:70-h1"}
    assert after(state, play(Rank.SIX, (0, 70, H1))) == pegs_of(4, {0: (H1,), 1: (3,)})
    assert after(state, play(Rank.SIX, (0, 70, 4))) == pegs_of(4, {0: (4,), 1: (3,)})


@pytest.mark.ruling("move.home-entry")
def test_home_entry_teammate_peg_uses_its_own_in_spot() -> None:
    # Seat 0 acts.  Its peg at 1: track 6 or home 3.  Seat 2's peg at 37:
    # 38, 39 (seat 2's in-spot), h1, h2, h3 -> seat 2's home 3; or track 42.
    state = parse_position("pegs 0: 1\npegs 2: 37\nhand 0: 5")
    assert listed(state) == {"5 0:1-6", "5 0:1-h3", "5 2:37-42", "5 2:37-h3"}
    assert after(state, play(Rank.FIVE, (2, 37, H3))) == pegs_of(4, {0: (1,), 2: (H3,)})


@pytest.mark.ruling("move.home-entry")
def test_home_entry_not_through_teammates_in_spot() -> None:
    # Seat 2's peg at 70 passing seat 0's in-spot 3 cannot turn into a home
    # lane there: only track 70 + 6 - 72 = 4.
    state = parse_position("pegs 2: 70\nhand 0: 6")
    assert listed(state) == {"6 2:70-4"}
    assert_illegal(state, play(Rank.SIX, (2, 70, H1)), "move.home-entry")


@pytest.mark.ruling("move.home-entry")
def test_home_entry_lanes_are_per_colour() -> None:
    # Seat 2's pegs on its home 1..3 do not touch seat 0's lane: seat 0 at 1
    # with a 3 -> home 1 or track 4.  Seat 2's home pegs: h1->h4 passes h2, h3;
    # h2->h5 passes h3; h3 would need h6.  None moves.
    state = parse_position("pegs 0: 1\npegs 2: h1 h2 h3\nhand 0: 3")
    assert listed(state) == {"3 0:1-4", "3 0:1-h1"}


@pytest.mark.ruling("move.home-entry")
def test_home_entry_blocked_by_home_1_6p() -> None:
    # 6 players, seat 4 (in-spot 75) at 72 with a 5: home would be 73, 74, 75,
    # h1, h2, passing its own peg on home 1: blocked.  Track 77 is open.
    state = parse_position("players: 6\nturn: 4\npegs 4: 72 h1\nhand 4: 5")
    assert listed(state) == {"5 4:72-77"}
    assert_illegal(state, play(Rank.FIVE, (4, 72, H2)), "move.home-entry")


# --------------------------------------------------------------------------- move.in-home


@pytest.mark.ruling("move.in-home")
def test_in_home_exact_count() -> None:
    # Home 1 + 3 = home 4.
    state = parse_position("pegs 0: h1\nhand 0: 3")
    assert listed(state) == {"3 0:h1-h4"}
    assert after(state, play(Rank.THREE, (0, H1, H4))) == pegs_of(4, {0: (H4,)})


@pytest.mark.ruling("move.in-home")
def test_in_home_to_the_back() -> None:
    # Home 2 + 3 = home 5; home 2 + 2 would be wrong.
    state = parse_position("pegs 0: h2\nhand 0: 3")
    assert listed(state) == {"3 0:h2-h5"}
    assert_illegal(state, play(Rank.THREE, (0, H2, H4)), "move.in-home")


@pytest.mark.ruling("move.in-home")
def test_in_home_never_beyond_home_5() -> None:
    # Home 4 + 2 = home 6 does not exist: the 2 cannot move anything, so the
    # only moves are discards (turn.discard).
    state = parse_position("pegs 0: h4\nhand 0: 2")
    assert legal_moves(state) == (Discard(Rank.TWO),)
    assert_illegal(state, play(Rank.TWO, (0, H4, H5)), "move.in-home")


@pytest.mark.ruling("move.in-home")
def test_in_home_never_out_of_home() -> None:
    # A home peg may not leave its lane (back to its in-spot or anywhere on
    # the track): the ruling that forbids it is move.in-home.
    state = parse_position("pegs 0: h4\nhand 0: 2")
    assert_illegal(state, play(Rank.TWO, (0, H4, 3)), "move.in-home")
    assert_illegal(state, play(Rank.TWO, (0, H4, 5)), "move.in-home")


@pytest.mark.ruling("move.in-home")
def test_in_home_cannot_pass_a_peg() -> None:
    # A 3: home 1 -> home 4 passes home 3; home 3 -> home 6 does not exist.
    state = parse_position("pegs 0: h1 h3\nhand 0: 3")
    assert legal_moves(state) == (Discard(Rank.THREE),)
    assert_illegal(state, play(Rank.THREE, (0, H1, H4)), "move.in-home")


@pytest.mark.ruling("move.in-home")
def test_in_home_cannot_land_on_a_peg() -> None:
    # A 2: home 1 -> home 3 is taken; home 3 -> home 5 is free.
    state = parse_position("pegs 0: h1 h3\nhand 0: 2")
    assert listed(state) == {"2 0:h3-h5"}
    assert_illegal(state, play(Rank.TWO, (0, H1, H3)), "move.in-home")
    assert after(state, play(Rank.TWO, (0, H3, H5))) == pegs_of(4, {0: (H1, H5)})


@pytest.mark.ruling("move.in-home")
def test_in_home_never_backwards() -> None:
    # A 2 moves home 3 forward to home 5, never back to home 1.
    state = parse_position("pegs 0: h3\nhand 0: 2")
    assert listed(state) == {"2 0:h3-h5"}
    assert_illegal(state, play(Rank.TWO, (0, H3, H1)), "move.in-home")


@pytest.mark.ruling("move.in-home")
def test_in_home_eight_cannot_move_home_peg() -> None:
    # An 8 moves only track pegs (card.eight; move.in-home says the same).
    state = parse_position("pegs 0: h3\nhand 0: 8")
    assert legal_moves(state) == (Discard(Rank.EIGHT),)
    assert_illegal(state, play(Rank.EIGHT, (0, H3, H1)), {"card.eight", "move.in-home"})


@pytest.mark.ruling("move.in-home")
def test_in_home_teammate_lane_independent() -> None:
    # Seat 0 acts; seat 2's home 1 -> home 4 with a 3 (seat 0's peg on its own
    # home 3 is in another lane); seat 0's home 3 would need home 6.
    state = parse_position("pegs 0: h3\npegs 2: h1\nhand 0: 3")
    assert listed(state) == {"3 2:h1-h4"}
    assert after(state, play(Rank.THREE, (2, H1, H4))) == pegs_of(4, {0: (H3,), 2: (H4,)})


@pytest.mark.ruling("move.in-home")
def test_in_home_pegs_cannot_be_jokered() -> None:
    # Seat 1 holds a joker; its team's start areas hold pegs, so the joker
    # brings out a peg of seat 1 or 3 onto a track peg of another colour: only
    # seat 0's peg on 10.  Seat 0's pegs on home 1 and 2 are no targets.
    # A joker is the only card, so discarding it is legal too (turn.discard).
    state = parse_position("turn: 1\npegs 0: h1 h2 10\nhand 1: JK")
    assert listed(state) == {"JK 1:s-10", "JK 3:s-10", "discard JK"}


# --------------------------------------------------------------------------- move.blocking


@pytest.mark.ruling("move.blocking")
def test_blocking_cannot_land_on_own_colour() -> None:
    # A 5: 10 -> 15 lands on its own peg; 15 -> 20 is free.
    state = parse_position("pegs 0: 10 15\nhand 0: 5")
    assert listed(state) == {"5 0:15-20"}
    assert_illegal(state, play(Rank.FIVE, (0, 10, 15)), "move.blocking")


@pytest.mark.ruling("move.blocking")
def test_blocking_cannot_pass_own_colour() -> None:
    # A 5: 10 -> 15 passes its own peg on 12; 12 -> 17 is free.
    state = parse_position("pegs 0: 10 12\nhand 0: 5")
    assert listed(state) == {"5 0:12-17"}
    assert_illegal(state, play(Rank.FIVE, (0, 10, 15)), "move.blocking")


@pytest.mark.ruling("move.blocking")
def test_blocking_across_hole_zero() -> None:
    # A 5: 68 -> 1 passes its own peg on 70 (69, 70, 71, 0, 1): blocked.
    # 70 -> 71, 0, 1, 2, 3: lands on the in-spot (0 home steps, no entry).
    state = parse_position("pegs 0: 68 70\nhand 0: 5")
    assert listed(state) == {"5 0:70-3"}
    assert_illegal(state, play(Rank.FIVE, (0, 68, 1)), "move.blocking")


@pytest.mark.ruling("move.blocking")
def test_blocking_eight_cannot_pass_own_colour() -> None:
    # An 8: 20 -> 12 passes its own peg on 15; 15 -> 7 is free.
    state = parse_position("pegs 0: 15 20\nhand 0: 8")
    assert listed(state) == {"8 0:15-7"}
    assert_illegal(state, play(Rank.EIGHT, (0, 20, 12)), "move.blocking")


@pytest.mark.ruling("move.blocking")
def test_blocking_eight_cannot_land_on_own_colour() -> None:
    # An 8: 20 -> 12 lands on its own peg; 12 -> 4 is free.
    state = parse_position("pegs 0: 12 20\nhand 0: 8")
    assert listed(state) == {"8 0:12-4"}
    assert_illegal(state, play(Rank.EIGHT, (0, 20, 12)), "move.blocking")


@pytest.mark.ruling("move.blocking")
def test_blocking_eight_backwards_across_hole_zero() -> None:
    # An 8: 3 -> 2, 1, 0, 71, 70, ... 67 passes its own peg on 70: blocked.
    # 70 -> 62 (69..62) is free.
    state = parse_position("pegs 0: 3 70\nhand 0: 8")
    assert listed(state) == {"8 0:70-62"}
    assert_illegal(state, play(Rank.EIGHT, (0, 3, 67)), "move.blocking")


@pytest.mark.ruling("move.blocking")
def test_blocking_teammate_colour_does_not_block() -> None:
    # Seat 0's peg at 10 passes seat 2's peg on 12 (another colour): 15.
    # Seat 2's peg 12 -> 17.
    state = parse_position("pegs 0: 10\npegs 2: 12\nhand 0: 5")
    assert listed(state) == {"5 0:10-15", "5 2:12-17"}
    assert after(state, play(Rank.FIVE, (0, 10, 15))) == pegs_of(4, {0: (15,), 2: (12,)})


@pytest.mark.ruling("move.blocking")
def test_blocking_is_by_moving_pegs_colour_not_players() -> None:
    # Seat 0 acts and moves seat 2's peg 12 -> 17 past seat 0's own pegs on 13
    # and 14: allowed.  Seat 0's 13 -> 18 passes its own 14: blocked; 14 -> 19.
    state = parse_position("pegs 0: 13 14\npegs 2: 12\nhand 0: 5")
    assert listed(state) == {"5 0:14-19", "5 2:12-17"}
    assert after(state, play(Rank.FIVE, (2, 12, 17))) == pegs_of(4, {0: (13, 14), 2: (17,)})
    assert_illegal(state, play(Rank.FIVE, (0, 13, 18)), "move.blocking")


@pytest.mark.ruling("move.blocking")
def test_blocking_teammates_peg_blocked_by_its_own_colour() -> None:
    # Seat 0 acts; seat 2's peg 12 -> 17 passes seat 2's peg on 14: blocked.
    state = parse_position("pegs 2: 12 14\nhand 0: 5")
    assert listed(state) == {"5 2:14-19"}
    assert_illegal(state, play(Rank.FIVE, (2, 12, 17)), "move.blocking")


@pytest.mark.ruling("move.blocking")
def test_blocking_eight_teammate_colour_does_not_block() -> None:
    # An 8: seat 0's 20 -> 12 passes seat 2's peg on 15; seat 2's 15 -> 7.
    state = parse_position("pegs 0: 20\npegs 2: 15\nhand 0: 8")
    assert listed(state) == {"8 0:20-12", "8 2:15-7"}
    assert after(state, play(Rank.EIGHT, (0, 20, 12))) == pegs_of(4, {0: (12,), 2: (15,)})


@pytest.mark.ruling("move.blocking")
def test_blocking_opponents_passed_freely() -> None:
    # Seat 0 at 10 passes seat 1's pegs on 11..14 and lands on the empty 15;
    # passing displaces nobody.
    state = parse_position("pegs 0: 10\npegs 1: 11 12 13 14\nhand 0: 5")
    assert listed(state) == {"5 0:10-15"}
    assert after(state, play(Rank.FIVE, (0, 10, 15))) == pegs_of(4, {0: (15,), 1: (11, 12, 13, 14)})


@pytest.mark.ruling("move.blocking")
def test_blocking_8p() -> None:
    # 8 players, seat 5 acts (team 1 = 1, 3, 5, 7).  A 6: seat 5's 100 -> 106
    # passes its own 104: blocked; 104 -> 110 free.  Seat 7's 102 -> 108
    # passes seat 5's 104 (another colour): free.  In-spots 93 and 129 are
    # not on these paths.
    state = parse_position("players: 8\nturn: 5\npegs 5: 100 104\npegs 7: 102\nhand 5: 6")
    assert listed(state) == {"6 5:104-110", "6 7:102-108"}
    assert_illegal(state, play(Rank.SIX, (5, 100, 106)), "move.blocking")


@pytest.mark.ruling("move.blocking")
def test_blocking_does_not_apply_to_jokers() -> None:
    # Seat 2 is all home, seat 0 has no start pegs: the joker may move any of
    # seat 0's track pegs onto the only other-colour track peg, seat 1's on
    # 20, jumping over seat 0's own pegs.  A lone joker may also be discarded
    # (turn.discard).
    state = parse_position("pegs 0: 10 11 12 13 14\npegs 2: h1 h2 h3 h4 h5\npegs 1: 20\nhand 0: JK")
    assert listed(state) == {f"JK 0:{src}-20" for src in (10, 11, 12, 13, 14)} | {"discard JK"}
    assert after(state, play(Rank.JOKER, (0, 10, 20))) == pegs_of(
        4, {0: (11, 12, 13, 14, 20), 2: (H1, H2, H3, H4, H5)}
    )


# --------------------------------------------------------------------------- move.safe-holes


@pytest.mark.ruling("move.safe-holes")
def test_safe_holes_opponent_on_its_come_out_hole() -> None:
    # Seat 1's peg on its come-out 26 is hit by seat 0's 22 + 4: to start.
    state = parse_position("pegs 0: 22\npegs 1: 26\nhand 0: 4")
    assert listed(state) == {"4 0:22-26"}
    assert after(state, play(Rank.FOUR, (0, 22, 26))) == pegs_of(4, {0: (26,)})


@pytest.mark.ruling("move.safe-holes")
def test_safe_holes_opponent_on_its_in_spot() -> None:
    # Seat 1's peg on its in-spot 21 is hit by seat 0's 18 + 3: to start.
    state = parse_position("pegs 0: 18\npegs 1: 21\nhand 0: 3")
    assert listed(state) == {"3 0:18-21"}
    assert after(state, play(Rank.THREE, (0, 18, 21))) == pegs_of(4, {0: (21,)})


@pytest.mark.ruling("move.safe-holes")
def test_safe_holes_opponent_on_movers_in_spot() -> None:
    # Seat 0 at 70 with a 5 lands on its own in-spot 3, held by seat 1: hit.
    state = parse_position("pegs 0: 70\npegs 1: 3\nhand 0: 5")
    assert listed(state) == {"5 0:70-3"}
    assert after(state, play(Rank.FIVE, (0, 70, 3))) == pegs_of(4, {0: (3,)})


@pytest.mark.ruling("move.safe-holes")
def test_safe_holes_come_out_onto_opponent() -> None:
    # A king: seat 0 comes out on 8, hitting seat 1's peg there; or seat 2
    # comes out on 44.  No team peg is on the track to move 10.
    state = parse_position("pegs 1: 8\nhand 0: K")
    assert listed(state) == {"K 0:s-8", "K 2:s-44"}
    assert after(state, play(Rank.KING, (0, START, 8))) == pegs_of(4, {0: (8,)})


@pytest.mark.ruling("move.safe-holes")
def test_safe_holes_opponent_on_in_spot_8p() -> None:
    # 8 players, seat 4 acts: 125 + 4 = 129, seat 7's in-spot, held by seat 7.
    state = parse_position("players: 8\nturn: 4\npegs 4: 125\npegs 7: 129\nhand 4: 4")
    assert listed(state) == {"4 4:125-129"}
    assert after(state, play(Rank.FOUR, (4, 125, 129))) == pegs_of(8, {4: (129,)})


@pytest.mark.ruling("move.safe-holes")
def test_safe_holes_teammate_on_its_come_out_8p() -> None:
    # 8 players: seat 0's 40 + 4 lands on seat 2's peg on its come-out 44;
    # the teammate goes to its in-spot 39.  Or seat 2's 44 -> 48.
    state = parse_position("players: 8\npegs 0: 40\npegs 2: 44\nhand 0: 4")
    assert listed(state) == {"4 0:40-44", "4 2:44-48"}
    assert after(state, play(Rank.FOUR, (0, 40, 44))) == pegs_of(8, {0: (44,), 2: (39,)})


@pytest.mark.ruling("move.safe-holes")
def test_safe_holes_eight_onto_in_spot_6p() -> None:
    # 6 players, seat 1 acts: an 8 takes 47 back to 39, seat 2's in-spot, held
    # by seat 2 (an opponent of seat 1): to start.
    state = parse_position("players: 6\nturn: 1\npegs 1: 47\npegs 2: 39\nhand 1: 8")
    assert listed(state) == {"8 1:47-39"}
    assert after(state, play(Rank.EIGHT, (1, 47, 39))) == pegs_of(6, {1: (39,)})


# --------------------------------------------------------------------------- move.landing


@pytest.mark.ruling("move.landing")
def test_landing_opponent_goes_to_start() -> None:
    # 10 + 5 = 15 hits seat 1; seat 1's other peg on 30 stays.
    state = parse_position("pegs 0: 10\npegs 1: 15 30\nhand 0: 5")
    assert listed(state) == {"5 0:10-15"}
    assert after(state, play(Rank.FIVE, (0, 10, 15))) == pegs_of(4, {0: (15,), 1: (30,)})


@pytest.mark.ruling("move.landing")
def test_landing_opponent_goes_to_start_6p() -> None:
    # 6 players, seat 1 acts: 50 + 5 = 55 hits seat 4 (team 0); its 60 stays.
    state = parse_position("players: 6\nturn: 1\npegs 1: 50\npegs 4: 55 60\nhand 1: 5")
    assert listed(state) == {"5 1:50-55"}
    assert after(state, play(Rank.FIVE, (1, 50, 55))) == pegs_of(6, {1: (55,), 4: (60,)})


@pytest.mark.ruling("move.landing")
def test_landing_backwards_opponent_goes_to_start() -> None:
    # An 8 takes 30 back to 22, hitting seat 1.
    state = parse_position("pegs 0: 30\npegs 1: 22\nhand 0: 8")
    assert listed(state) == {"8 0:30-22"}
    assert after(state, play(Rank.EIGHT, (0, 30, 22))) == pegs_of(4, {0: (22,)})


@pytest.mark.ruling("move.landing")
def test_landing_teammate_goes_to_its_in_spot() -> None:
    # Seat 0's 10 + 5 hits seat 2's peg on 15: it goes to seat 2's in-spot 39.
    # Or seat 2's 15 -> 20.
    state = parse_position("pegs 0: 10\npegs 2: 15\nhand 0: 5")
    assert listed(state) == {"5 0:10-15", "5 2:15-20"}
    assert after(state, play(Rank.FIVE, (0, 10, 15))) == pegs_of(4, {0: (15,), 2: (39,)})


@pytest.mark.ruling("move.landing")
def test_landing_teammates_peg_onto_players_own_peg() -> None:
    # Seat 0 moves seat 2's 15 -> 20, hitting seat 0's own peg there (another
    # colour than the mover): seat 0's peg goes to its in-spot 3.
    state = parse_position("pegs 0: 20\npegs 2: 15\nhand 0: 5")
    assert listed(state) == {"5 0:20-25", "5 2:15-20"}
    assert after(state, play(Rank.FIVE, (2, 15, 20))) == pegs_of(4, {0: (3,), 2: (20,)})


@pytest.mark.ruling("move.landing")
def test_landing_come_out_onto_teammate() -> None:
    # A queen: seat 0 comes out on 8, hitting seat 2's peg there (-> 39);
    # seat 2 comes out on 44; or seat 2's peg 8 + 10 = 18.
    state = parse_position("pegs 2: 8\nhand 0: Q")
    assert listed(state) == {"Q 0:s-8", "Q 2:s-44", "Q 2:8-18"}
    assert after(state, play(Rank.QUEEN, (0, START, 8))) == pegs_of(4, {0: (8,), 2: (39,)})


@pytest.mark.ruling("move.landing")
def test_landing_teammate_8p() -> None:
    # 8 players, seat 6 acts (team 0 = 0, 2, 4, 6): seat 6's 100 + 5 hits
    # seat 4's peg, which goes to seat 4's in-spot 75.  Or seat 4's 105 -> 110.
    state = parse_position("players: 8\nturn: 6\npegs 6: 100\npegs 4: 105\nhand 6: 5")
    assert listed(state) == {"5 4:105-110", "5 6:100-105"}
    assert after(state, play(Rank.FIVE, (6, 100, 105))) == pegs_of(8, {4: (75,), 6: (105,)})


@pytest.mark.ruling("move.landing")
def test_landing_backwards_on_teammate() -> None:
    # An 8: seat 0's 30 -> 22 hits seat 2's peg (-> 39); seat 2's 22 -> 14.
    state = parse_position("pegs 0: 30\npegs 2: 22\nhand 0: 8")
    assert listed(state) == {"8 0:30-22", "8 2:22-14"}
    assert after(state, play(Rank.EIGHT, (0, 30, 22))) == pegs_of(4, {0: (22,), 2: (39,)})


# --------------------------------------------------------------------------- move.landing.in-spot


@pytest.mark.ruling("move.landing.in-spot")
def test_in_spot_held_by_opponent_goes_to_start() -> None:
    # Seat 0's 10 + 5 hits seat 2 (-> in-spot 39); seat 3's peg on 39 is an
    # opponent: to start.
    state = parse_position("pegs 0: 10\npegs 2: 15\npegs 3: 39\nhand 0: 5")
    assert listed(state) == {"5 0:10-15", "5 2:15-20"}
    assert after(state, play(Rank.FIVE, (0, 10, 15))) == pegs_of(4, {0: (15,), 2: (39,)})


@pytest.mark.ruling("move.landing.in-spot")
def test_in_spot_chain_third_team_colour_6p() -> None:
    # 6 players (team 0 = 0, 2, 4).  Seat 0's 10 + 5 hits seat 2 (-> 39);
    # seat 4's peg on 39 goes on to its own in-spot 75 (empty).
    # Other moves: seat 2's 15 -> 20, seat 4's 39 -> 44.
    state = parse_position("players: 6\npegs 0: 10\npegs 2: 15\npegs 4: 39\nhand 0: 5")
    assert listed(state) == {"5 0:10-15", "5 2:15-20", "5 4:39-44"}
    assert after(state, play(Rank.FIVE, (0, 10, 15))) == pegs_of(6, {0: (15,), 2: (39,), 4: (75,)})


@pytest.mark.ruling("move.landing.in-spot")
def test_in_spot_chain_ends_on_opponent_6p() -> None:
    # As above, and seat 5's peg on seat 4's in-spot 75 then goes to start.
    state = parse_position("players: 6\npegs 0: 10\npegs 2: 15\npegs 4: 39\npegs 5: 75\nhand 0: 5")
    assert listed(state) == {"5 0:10-15", "5 2:15-20", "5 4:39-44"}
    assert after(state, play(Rank.FIVE, (0, 10, 15))) == pegs_of(6, {0: (15,), 2: (39,), 4: (75,)})


@pytest.mark.ruling("move.landing.in-spot")
def test_in_spot_chain_ends_on_own_colour_6p_is_illegal() -> None:
    # Seat 0's 10 + 5 hits seat 2 (-> 39), seat 4's peg on 39 must go to 75,
    # where a seat 4 peg stands: the whole move is illegal.
    # Others: seat 2's 15 -> 20; seat 4's 39 -> 44; seat 4's 75 (its in-spot)
    # -> 80 or home 5.
    state = parse_position("players: 6\npegs 0: 10\npegs 2: 15\npegs 4: 39 75\nhand 0: 5")
    assert listed(state) == {"5 2:15-20", "5 4:39-44", "5 4:75-80", "5 4:75-h5"}
    assert_illegal(state, play(Rank.FIVE, (0, 10, 15)), "move.landing.in-spot")


@pytest.mark.ruling("move.landing.in-spot")
def test_in_spot_chain_through_movers_colour_4p() -> None:
    # Seat 0's 10 + 5 hits seat 2 (-> 39), where seat 0's other peg stands:
    # a team colour other than seat 2's, so it goes on to seat 0's in-spot 3.
    # Others: seat 0's 39 -> 44 (no home: its in-spot is 3); seat 2's 15 -> 20.
    state = parse_position("pegs 0: 10 39\npegs 2: 15\nhand 0: 5")
    assert listed(state) == {"5 0:10-15", "5 0:39-44", "5 2:15-20"}
    assert after(state, play(Rank.FIVE, (0, 10, 15))) == pegs_of(4, {0: (3, 15), 2: (39,)})


@pytest.mark.ruling("move.landing.in-spot")
def test_in_spot_chain_back_to_own_colour_4p_is_illegal() -> None:
    # Seat 0's 10 + 5 hits seat 2's 15 (-> 39); seat 0's peg there goes on to
    # 3, where seat 2's other peg stands; that goes on to 39, now held by
    # seat 2's first peg: illegal.  Others: 0:39 -> 44, 2:3 -> 8, 2:15 -> 20.
    state = parse_position("pegs 0: 10 39\npegs 2: 3 15\nhand 0: 5")
    assert listed(state) == {"5 0:39-44", "5 2:3-8", "5 2:15-20"}
    assert_illegal(state, play(Rank.FIVE, (0, 10, 15)), "move.landing.in-spot")


@pytest.mark.ruling("move.landing.in-spot")
def test_in_spot_own_colour_there_is_illegal() -> None:
    # Seat 0's 10 + 5 hits seat 2's 15, whose in-spot 39 holds another seat 2
    # peg: illegal.  Others: seat 2's 15 -> 20; 39 -> 44 or home 5.
    state = parse_position("pegs 0: 10\npegs 2: 15 39\nhand 0: 5")
    assert listed(state) == {"5 2:15-20", "5 2:39-44", "5 2:39-h5"}
    assert_illegal(state, play(Rank.FIVE, (0, 10, 15)), "move.landing.in-spot")


@pytest.mark.ruling("move.landing.in-spot")
def test_in_spot_team_peg_on_own_in_spot_cannot_be_landed_on() -> None:
    # Seat 0's 34 + 5 = 39 lands on seat 2's peg on its own in-spot: illegal.
    # Seat 2's 39 -> 44 or home 5.
    state = parse_position("pegs 0: 34\npegs 2: 39\nhand 0: 5")
    assert listed(state) == {"5 2:39-44", "5 2:39-h5"}
    assert_illegal(state, play(Rank.FIVE, (0, 34, 39)), "move.landing.in-spot")


@pytest.mark.ruling("move.landing.in-spot")
def test_in_spot_players_own_peg_on_its_in_spot_cannot_be_landed_on() -> None:
    # Seat 0 moves seat 2's 70 + 5 = 3 (wrapping) onto seat 0's peg on its
    # in-spot 3: illegal.  Seat 0's 3 -> 8 or home 5.
    state = parse_position("pegs 0: 3\npegs 2: 70\nhand 0: 5")
    assert listed(state) == {"5 0:3-8", "5 0:3-h5"}
    assert_illegal(state, play(Rank.FIVE, (2, 70, 3)), "move.landing.in-spot")


@pytest.mark.ruling("move.landing.in-spot")
def test_in_spot_eight_onto_team_peg_on_its_in_spot_is_illegal() -> None:
    # An 8: seat 0's 47 -> 39 lands on seat 2's peg on its in-spot: illegal.
    # Seat 2's 39 -> 31 is free.
    state = parse_position("pegs 0: 47\npegs 2: 39\nhand 0: 8")
    assert listed(state) == {"8 2:39-31"}
    assert_illegal(state, play(Rank.EIGHT, (0, 47, 39)), "move.landing.in-spot")


@pytest.mark.ruling("move.landing.in-spot")
def test_in_spot_vacated_by_the_moving_peg() -> None:
    # Seat 0's peg leaves 39 (seat 2's in-spot) and hits seat 2's peg on 44:
    # that peg goes to 39, which the mover has just left, so it is free.
    # Or seat 2's 44 -> 49.
    state = parse_position("pegs 0: 39\npegs 2: 44\nhand 0: 5")
    assert listed(state) == {"5 0:39-44", "5 2:44-49"}
    assert after(state, play(Rank.FIVE, (0, 39, 44))) == pegs_of(4, {0: (44,), 2: (39,)})


@pytest.mark.ruling("move.landing.in-spot")
def test_in_spot_chain_reaches_the_moving_peg_6p() -> None:
    # 6 players.  Seat 0's 70 + 5 lands on seat 2's peg on 75 (seat 4's
    # in-spot): seat 2's peg -> 39, where seat 4's peg stands -> 75, where the
    # mover (seat 0's colour, another team colour) now stands -> 3 (empty).
    # Others: seat 2's 75 -> 80, seat 4's 39 -> 44 (no home on those paths).
    state = parse_position("players: 6\npegs 0: 70\npegs 2: 75\npegs 4: 39\nhand 0: 5")
    assert listed(state) == {"5 0:70-75", "5 2:75-80", "5 4:39-44"}
    assert after(state, play(Rank.FIVE, (0, 70, 75))) == pegs_of(6, {0: (3,), 2: (39,), 4: (75,)})


@pytest.mark.ruling("move.landing.in-spot")
def test_in_spot_chain_through_three_colours_8p() -> None:
    # 8 players (team 0 = 0, 2, 4, 6; in-spots 3, 39, 75, 111).  Seat 0's
    # 10 + 5 hits seat 2 (-> 39), seat 4 there (-> 75), seat 6 there (-> 111),
    # seat 1 (an opponent) there -> start.
    state = parse_position(
        "players: 8\npegs 0: 10\npegs 2: 15\npegs 4: 39\npegs 6: 75\npegs 1: 111\nhand 0: 5"
    )
    assert listed(state) == {"5 0:10-15", "5 2:15-20", "5 4:39-44", "5 6:75-80"}
    assert after(state, play(Rank.FIVE, (0, 10, 15))) == pegs_of(
        8, {0: (15,), 2: (39,), 4: (75,), 6: (111,)}
    )


@pytest.mark.ruling("move.landing.in-spot")
def test_in_spot_chain_loops_to_own_colour_8p_is_illegal() -> None:
    # As above but seat 2's second peg stands on 111: it would go on to 39,
    # already holding the first seat 2 peg: illegal.
    # Others: 2:15 -> 20, 2:111 -> 116, 4:39 -> 44, 6:75 -> 80.
    state = parse_position(
        "players: 8\npegs 0: 10\npegs 2: 15 111\npegs 4: 39\npegs 6: 75\nhand 0: 5"
    )
    assert listed(state) == {"5 2:15-20", "5 2:111-116", "5 4:39-44", "5 6:75-80"}
    assert_illegal(state, play(Rank.FIVE, (0, 10, 15)), "move.landing.in-spot")
