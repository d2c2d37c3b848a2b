"""Hand-built tests for the ``standard`` preset and every house-rule switch.

Ruling ids covered: ``team.control``, ``turn.sequence``, ``card.joker.source`` and
``card.nine`` as the ``standard`` preset reads them, and ``variant.face-values``,
``variant.nine-split``, ``variant.home-entry-compulsory``, ``variant.wait-on-in-spot``,
``variant.in-spot-occupied``, ``variant.two-swap`` (and ``variant.two-swap.order``),
``variant.decks``, each with the switch on and off. Then properties and complete random
games under ``standard`` and a sample of switch combinations for 4, 6 and 8 players, and
the rejection of unplayable ``Rules`` values.

Every expected move list and position is derived by hand from the rulings and the
geometry (4 players unless said: track 0..71, seat s's in-spot 18s+3 and come-out 18s+8,
so seat 0: 3 and 8, seat 1: 21 and 26, seat 2: 39 and 44, seat 3: 57 and 62), with the
derivation in a comment; none is copied from the engine's output. Unlisted pegs are in
their start areas.
"""

from __future__ import annotations

import dataclasses
import random
import textwrap
from collections import Counter
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from rules_strategies import PLAYER_COUNTS, house_rules, play

from pegs_rules import (
    START,
    GameState,
    IllegalMoveError,
    Play,
    Rank,
    apply,
    apply_with_events,
    explain,
    home,
    legal_moves,
    new_game,
    parse_move,
    parse_notation,
    parse_position,
)
from pegs_rules.errors import RulesError
from pegs_rules.rules import (
    ARIZONA,
    STANDARD,
    Control,
    InSpotOccupied,
    JokerSource,
    Nine,
    Rules,
    find_preset,
    rule_text,
    with_rule,
)

NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
HOME5 = "h1 h2 h3 h4 h5"


def position(text: str) -> GameState:
    return parse_position(textwrap.dedent(text))


def legal(text: str) -> list[str]:
    """The legal moves of the position, as notation, checked to be distinct."""
    moves = [str(m) for m in legal_moves(position(text))]
    assert len(set(moves)) == len(moves), moves
    return sorted(moves)


def after(text: str, move: str) -> GameState:
    return apply(position(text), parse_notation(move))


def rule_of(text: str, move: str) -> str:
    """The rule id with which the move is rejected (fails if it is accepted)."""
    with pytest.raises(IllegalMoveError) as info:
        apply(position(text), parse_notation(move))
    return info.value.rule


def pegs(*locs: str) -> tuple[int, ...]:
    """One seat's pegs from location names; the rest are in start."""
    out = [START] * (5 - len(locs))
    for loc in locs:
        out.append(START if loc == "s" else home(int(loc[1:])) if loc[0] == "h" else int(loc))
    return tuple(sorted(out))


def with_rules(text: str, *lines: str) -> str:
    return "\n".join([*lines, textwrap.dedent(text)])


# ============================================================== legal-move sets, both sides

LEGAL = [
    # ---------------------------------------------------------------- team.control (standard)
    pytest.param(
        "rules: standard\npegs 0: 10\npegs 2: 50\nhand 0: 5",
        # own pegs only: seat 2's 50 -> 55 is not seat 0's to move
        ["5 0:10-15"],
        id="standard-control-own-pegs-only",
    ),
    pytest.param(
        "pegs 0: 10\npegs 2: 50\nhand 0: 5",
        # arizona: any team peg
        ["5 0:10-15", "5 2:50-55"],
        id="arizona-control-any-team-peg",
    ),
    pytest.param(
        "rules: standard\nhand 0: K",
        # come-out only from the controlled (own) start area
        ["K 0:s-8"],
        id="standard-come-out-own-start-only",
    ),
    pytest.param(
        "hand 0: K",
        ["K 0:s-8", "K 2:s-44"],
        id="arizona-come-out-any-team-start",
    ),
    pytest.param(
        "rules: standard\npegs 0: h1 h2 h3 h4\npegs 2: 50\nhand 0: 5 A",
        # four home, one in start: still only seat 0's pegs. 5: the start peg cannot, h1..h4
        # cannot go 5 in home -> unplayable. A: come out to 8; h4 -> h5 (h1..h3 are
        # blocked by the next peg). Seat 2's 50 is not seat 0's.
        ["A 0:h4-h5", "A 0:s-8"],
        id="standard-control-four-home-is-not-five",
    ),
    pytest.param(
        f"rules: standard\npegs 0: {HOME5}\npegs 2: 50\nhand 0: 5 K",
        # all five home: seat 0 acts for seat 2 (its pegs and its start area; the K may
        # also move 50 ten holes)
        ["5 2:50-55", "K 2:50-60", "K 2:s-44"],
        id="standard-control-passes-after-five-home",
    ),
    pytest.param(
        f"rules: standard\npegs 0: {HOME5}\nhand 0: A 5",
        # seat 2's pegs are all in start: only the ace (come-out to 44) moves one
        ["A 2:s-44"],
        id="standard-control-passes-to-teammate-in-start",
    ),
    pytest.param(
        f"rules: standard\nplayers: 6\nturn: 4\npegs 4: {HOME5}\npegs 0: 10\npegs 2: 50\nhand 4: 3",
        # 6 players: seat 4 is home; the first teammate clockwise is seat 0 (4+2 = 6 = 0),
        # before seat 2
        ["3 0:10-13"],
        id="standard-control-six-players-clockwise-wraps",
    ),
    pytest.param(
        f"rules: standard\nplayers: 6\npegs 0: {HOME5}\npegs 2: {HOME5}\npegs 4: 80\nhand 0: 3",
        # seat 2 is home too: on to seat 4 (in-spot 75, so 80 -> 83 plainly)
        ["3 4:80-83"],
        id="standard-control-six-players-skips-finished-teammate",
    ),
    pytest.param(
        f"rules: standard\nplayers: 8\nturn: 7\npegs 7: {HOME5}\npegs 1: {HOME5}\n"
        "pegs 3: 60\npegs 5: 100\nhand 7: 2",
        # 8 players: seat 7 home, seat 1 (7+2 = 9 = 1) home, so seat 3, not seat 5
        ["2 3:60-62"],
        id="standard-control-eight-players",
    ),
    pytest.param(
        "rule control: own_then_teammate\npegs 0: 10\npegs 2: 50\nhand 0: 5 K",
        # the switch alone on arizona (the K: come out, or 10 -> 20)
        ["5 0:10-15", "K 0:10-20", "K 0:s-8"],
        id="switch-control-on-arizona",
    ),
    pytest.param(
        "rules: standard\nrule control: team\npegs 0: 10\npegs 2: 50\nhand 0: 5",
        ["5 0:10-15", "5 2:50-55"],
        id="switch-control-team-on-standard",
    ),
    # ----------------------------------------------------------- card.joker.source (standard)
    pytest.param(
        "rules: standard\npegs 0: 10\npegs 1: 30\nhand 0: JK 5",
        # any own peg, from start or from the track, even while the start area holds
        # pegs; the only other colour on the track is seat 1's 30
        ["5 0:10-15", "JK 0:10-30", "JK 0:s-30"],
        id="standard-joker-from-track-while-start-holds-pegs",
    ),
    pytest.param(
        "pegs 0: 10\npegs 1: 30\nhand 0: JK 5",
        # arizona: from a team start area only; seat 2's start peg may jump onto seat 0's
        # 10 (another colour), which goes to its in-spot 3
        ["5 0:10-15", "JK 0:s-30", "JK 2:s-10", "JK 2:s-30"],
        id="arizona-joker-from-start-first",
    ),
    pytest.param(
        "rules: standard\npegs 0: 10\npegs 2: 50\nhand 0: JK 5",
        # standard: onto the teammate's peg too (another colour)
        ["5 0:10-15", "JK 0:10-50", "JK 0:s-50"],
        id="standard-joker-onto-teammate",
    ),
    pytest.param(
        f"rules: standard\npegs 0: {HOME5}\npegs 2: 50\npegs 1: 30\nhand 0: JK 3",
        # acting for seat 2: its start pegs and its 50; targets of another colour: 30
        # (the start peg may not land on its own colour at 50)
        ["3 2:50-53", "JK 2:50-30", "JK 2:s-30"],
        id="standard-joker-for-teammate",
    ),
    pytest.param(
        "rule joker_source: any\npegs 0: 10\npegs 1: 30\nhand 0: JK 5",
        # the switch on arizona: any team peg in start or on the track
        ["5 0:10-15", "JK 0:10-30", "JK 0:s-30", "JK 2:s-10", "JK 2:s-30"],
        id="switch-joker-any-on-arizona",
    ),
    pytest.param(
        "rules: standard\nrule joker_source: team_start_first\npegs 0: 10\npegs 1: 30\n"
        "hand 0: JK 5",
        # start first again: seat 0's start holds pegs, so not from 10
        ["5 0:10-15", "JK 0:s-30"],
        id="switch-joker-start-first-on-standard",
    ),
    # ------------------------------------------------------------------ card.nine (standard)
    pytest.param(
        "rules: standard\npegs 0: 10 30\nhand 0: 9",
        # plain 9: one peg 9 forward (30 -> 39 is seat 2's empty in-spot)
        ["9 0:10-19", "9 0:30-39"],
        id="standard-nine-plain",
    ),
    pytest.param(
        "pegs 0: 10 30\nhand 0: 9",
        # arizona: also split a + b = 9; the parts never meet (10+a <= 18 < 30), so both
        # orders agree and the one that sorts first (10's part) is listed
        ["9 0:10-19", "9 0:30-39"] + [f"9 0:10-{10 + a} 0:30-{39 - a}" for a in range(1, 9)],
        id="arizona-nine-splits",
    ),
    # ------------------------------------------------------------------ variant.face-values
    pytest.param(
        f"rule face_values: 11 12 13\npegs 0: 20\npegs 2: {HOME5}\nhand 0: J Q K",
        # J 11, Q 12, K 13 forward; each still comes out to 8
        ["J 0:20-31", "J 0:s-8", "K 0:20-33", "K 0:s-8", "Q 0:20-32", "Q 0:s-8"],
        id="face-values-11-12-13",
    ),
    pytest.param(
        f"pegs 0: 20\npegs 2: {HOME5}\nhand 0: J Q K",
        ["J 0:20-30", "J 0:s-8", "K 0:20-30", "K 0:s-8", "Q 0:20-30", "Q 0:s-8"],
        id="face-values-default-10",
    ),
    pytest.param(
        "rule face_values: 11 12 13\npegs 0: 63 h2 h3 h4 h5\nhand 0: K",
        # 63 -> 3 is 12 steps, so 13 ends on h1 (free) or on the track at 4; seat 2 comes out
        ["K 0:63-4", "K 0:63-h1", "K 2:s-44"],
        id="face-values-king-13-enters-home",
    ),
    pytest.param(
        "pegs 0: 63 h2 h3 h4 h5\nhand 0: K",
        # 10 steps from 63 end on 1, short of the in-spot
        ["K 0:63-1", "K 2:s-44"],
        id="face-values-king-10-stays-on-track",
    ),
    pytest.param(
        f"rule face_values: 1 5 13\npegs 0: 20\npegs 2: {HOME5}\nhand 0: J",
        ["J 0:20-21", "J 0:s-8"],
        id="face-values-jack-worth-one",
    ),
    # ------------------------------------------------------------------- variant.nine-split
    pytest.param(
        "rule nine: plain\npegs 0: 10 h1\nhand 0: 9",
        # plain: 10 -> 19; h1 cannot go 9
        ["9 0:10-19"],
        id="nine-plain",
    ),
    pytest.param(
        "pegs 0: 10 h1\nhand 0: 9",
        # forward_forward (arizona): h1 forward b <= 4 (h1 -> h(1+b)), 10 forward 9-b
        [
            *("9 0:10-19", "9 0:10-15 0:h1-h5", "9 0:10-16 0:h1-h4", "9 0:10-17 0:h1-h3"),
            "9 0:10-18 0:h1-h2",
        ],
        id="nine-forward-forward",
    ),
    pytest.param(
        "rule nine: forward_backward\npegs 0: 10 h1\nhand 0: 9",
        # forward_backward: h1 forward a <= 4, 10 backward 9-a (8..5 holes: to 2..5, over
        # its own come-out 8 and in-spot 3, never into home); the home peg cannot go back
        # and 10 forward would need h1 backward. Both orders agree; 10's step sorts first.
        [
            *("9 0:10-19", "9 0:10-2 0:h1-h2", "9 0:10-3 0:h1-h3", "9 0:10-4 0:h1-h4"),
            "9 0:10-5 0:h1-h5",
        ],
        id="nine-forward-backward",
    ),
    pytest.param(
        "rule nine: forward_backward\npegs 0: 10 12\nhand 0: 9",
        # single: 10 -> 19 passes 12 (blocked); 12 -> 21.
        # 10 forward + 12 backward: 10 forward first is blocked by 12 unless 1 step, and
        # then 12 back 8 passes 11; 12 back first passes 10 unless 1 step, and then 10
        # forward 8 passes 11. None.
        # 12 forward a + 10 backward 9-a: never meet, both orders, a = 1..8.
        ["9 0:12-21"] + [f"9 0:10-{1 + a} 0:12-{12 + a}" for a in range(1, 9)],
        id="nine-forward-backward-blocking-both-orders",
    ),
    pytest.param(
        "pegs 0: 10 12\nhand 0: 9",
        # forward_forward, same pegs: 10 first only with 1 (to 11), then 12 -> 20: both
        # orders agree. 12 first by a >= 4 then 10 by 9-a (ends before 12+a); 10 first by
        # >= 2 would pass 12, so those list 12's part first.
        [
            *("9 0:12-21", "9 0:10-11 0:12-20", "9 0:12-16 0:10-15", "9 0:12-17 0:10-14"),
            *("9 0:12-18 0:10-13", "9 0:12-19 0:10-12"),
        ],
        id="nine-forward-forward-blocking-orders",
    ),
    pytest.param(
        "rule nine: forward_backward\npegs 0: 10\nhand 0: 9",
        # a split needs two pegs; start pegs never make a part
        ["9 0:10-19"],
        id="nine-forward-backward-needs-two-track-or-home-pegs",
    ),
    # ------------------------------------------------------- variant.home-entry-compulsory
    pytest.param(
        "rule home_entry_compulsory: true\npegs 0: 70\nhand 0: 7",
        # 70 -> 71 0 1 2 3 (in-spot) h1 h2: home is possible, so the track (to 5) is not
        ["7 0:70-h2"],
        id="compulsory-enters",
    ),
    pytest.param(
        "pegs 0: 70\nhand 0: 7",
        ["7 0:70-5", "7 0:70-h2"],
        id="compulsory-off-chooses",
    ),
    pytest.param(
        "rule home_entry_compulsory: true\npegs 0: 70 h2\nhand 0: 7",
        # single: h2 is held, so no entry: 70 -> 5 stays legal.
        # splits (h2 forward b, 70 forward 7-b): b=1 h2 -> h3 and 70 by 6: h1 is free in
        # either order, so only h1 (not 4); b=2: 70 by 5 ends on the in-spot 3 (no home
        # hole reached); b=3: 70 by 4 -> 2. Both orders agree; 70's step sorts first.
        ["7 0:70-5", "7 0:70-h1 0:h2-h3", "7 0:70-3 0:h2-h4", "7 0:70-2 0:h2-h5"],
        id="compulsory-split-parts-and-blocked-entry",
    ),
    pytest.param(
        "pegs 0: 70 h2\nhand 0: 7",
        # the same without the switch: the 6-step part may also stay on the track (to 4)
        [
            *("7 0:70-5", "7 0:70-h1 0:h2-h3", "7 0:70-4 0:h2-h3", "7 0:70-3 0:h2-h4"),
            "7 0:70-2 0:h2-h5",
        ],
        id="compulsory-off-split",
    ),
    pytest.param(
        "rule home_entry_compulsory: true\npegs 0: 1 h1\nhand 0: 4",
        # entry would pass h1 (own peg): impossible, so the track 1 -> 5 is fine; h1 -> h5
        ["4 0:1-5", "4 0:h1-h5"],
        id="compulsory-only-when-entry-is-possible",
    ),
    # ---------------------------------------------------------------- variant.wait-on-in-spot
    pytest.param(
        "rule wait_on_in_spot: true\npegs 0: 3\nhand 0: 5",
        # on its own in-spot: only into home (h5), not on to 8
        ["5 0:3-h5"],
        id="wait-only-home",
    ),
    pytest.param(
        "pegs 0: 3\nhand 0: 5",
        ["5 0:3-8", "5 0:3-h5"],
        id="wait-off-either",
    ),
    pytest.param(
        "rule wait_on_in_spot: true\npegs 0: 3\nhand 0: 10 6",
        # 10 and 6 cannot end in home and may not go on: nothing plays, so discard
        ["discard 10", "discard 6"],
        id="wait-too-far-must-discard",
    ),
    pytest.param(
        "pegs 0: 3\nhand 0: 10 6",
        ["10 0:3-13", "6 0:3-9"],
        id="wait-off-goes-round",
    ),
    pytest.param(
        "rule wait_on_in_spot: true\npegs 0: 1\nhand 0: 6",
        # passing its in-spot is not standing on it: 1 -> 7 or 1 -> 2 3 h1..h4
        ["6 0:1-7", "6 0:1-h4"],
        id="wait-passing-the-in-spot-is-free",
    ),
    pytest.param(
        "rule wait_on_in_spot: true\npegs 0: 21\nhand 0: 5",
        # 21 is seat 1's in-spot, not seat 0's
        ["5 0:21-26"],
        id="wait-only-own-in-spot",
    ),
    pytest.param(
        "rule wait_on_in_spot: true\npegs 0: 3\nhand 0: 8",
        # The reading the engine and the reference share (the rulings: "may not continue
        # on the track"): waiting stops forward moves only; an 8 takes it back 3 -> 67.
        ["8 0:3-67"],
        id="wait-does-not-stop-an-eight",
    ),
    # ------------------------------------------------------------- variant.in-spot-occupied
    pytest.param(
        "pegs 0: 19\npegs 2: 21\npegs 1: 39\nhand 0: 2",
        # chain: 19 -> 21 knocks seat 2 to 39, which knocks seat 1 to start
        ["2 0:19-21", "2 2:21-23"],
        id="in-spot-chain",
    ),
    pytest.param(
        "rule in_spot_occupied: illegal\npegs 0: 19\npegs 2: 21\npegs 1: 39\nhand 0: 2",
        # illegal: seat 2's in-spot 39 is held (by anyone), so 19 -> 21 is out
        ["2 2:21-23"],
        id="in-spot-illegal",
    ),
    pytest.param(
        "rule in_spot_occupied: to_start\npegs 0: 19\npegs 2: 21\npegs 1: 39\nhand 0: 2",
        ["2 0:19-21", "2 2:21-23"],
        id="in-spot-to-start",
    ),
    pytest.param(
        "pegs 0: 37\npegs 2: 39\nhand 0: 2",
        # chain: a team peg on its own in-spot cannot be displaced
        ["2 2:39-41", "2 2:39-h2"],
        id="own-in-spot-chain",
    ),
    pytest.param(
        "rule in_spot_occupied: illegal\npegs 0: 37\npegs 2: 39\nhand 0: 2",
        ["2 2:39-41", "2 2:39-h2"],
        id="own-in-spot-illegal",
    ),
    pytest.param(
        "rule in_spot_occupied: to_start\npegs 0: 37\npegs 2: 39\nhand 0: 2",
        # to_start: its in-spot is held (it stands there), so it goes to start instead
        ["2 0:37-39", "2 2:39-41", "2 2:39-h2"],
        id="own-in-spot-to-start",
    ),
    pytest.param(
        "pegs 0: 19\npegs 2: 21 39\nhand 0: 2",
        # chain: seat 2's own colour on 39: 19 -> 21 is illegal
        ["2 2:21-23", "2 2:39-41", "2 2:39-h2"],
        id="same-colour-on-in-spot-chain",
    ),
    pytest.param(
        "rule in_spot_occupied: to_start\npegs 0: 19\npegs 2: 21 39\nhand 0: 2",
        ["2 0:19-21", "2 2:21-23", "2 2:39-41", "2 2:39-h2"],
        id="same-colour-on-in-spot-to-start",
    ),
    pytest.param(
        "rule in_spot_occupied: illegal\npegs 0: 19\npegs 2: 21\nhand 0: 2",
        # an empty in-spot: the knocked peg goes there under every policy
        ["2 0:19-21", "2 2:21-23"],
        id="empty-in-spot-illegal-policy",
    ),
    pytest.param(
        "rule in_spot_occupied: to_start\npegs 0: 30\npegs 2: 32\npegs 1: 39\nhand 0: 7",
        # singles: 30 -> 37 (passing seat 2's 32); 32 -> 39 knocks seat 1 to start.
        # splits of 30 (a) and 32 (7-a):
        #   a=1, 3..6: the parts never land on each other; both orders agree, 0's first.
        #   a=2: 30 first lands on 32: seat 2's in-spot 39 is held, so that peg goes to
        #   start and cannot make the second part (a peg in start never moves in a
        #   split); 32 first (to 37), then 30 -> 32: legal, listed in that order.
        [
            *("7 0:30-37", "7 2:32-39", "7 0:30-31 2:32-38", "7 2:32-37 0:30-32"),
            *("7 0:30-33 2:32-36", "7 0:30-34 2:32-35", "7 0:30-35 2:32-34"),
            "7 0:30-36 2:32-33",
        ],
        id="to-start-split-part-cannot-move-the-peg-sent-to-start",
    ),
    # -------------------------------------------------------------------- variant.two-swap
    pytest.param(
        "rule two_swap: true\npegs 0: 12\npegs 1: 40\nhand 0: 2",
        ["2 0:12-14", "2 0:12-40 1:40-12"],
        id="two-swap",
    ),
    pytest.param(
        "pegs 0: 12\npegs 1: 40\nhand 0: 2",
        ["2 0:12-14"],
        id="two-swap-off",
    ),
    pytest.param(
        "rule two_swap: true\npegs 0: 12 13\npegs 1: 40\nhand 0: 2",
        # 12 -> 14 passes its own 13 (blocked); a swap ignores blocking: both swap with 40
        ["2 0:13-15", "2 0:12-40 1:40-12", "2 0:13-40 1:40-13"],
        id="two-swap-ignores-blocking",
    ),
    pytest.param(
        "rule two_swap: true\npegs 0: 12 h1\npegs 1: 40 h3\nhand 0: 2",
        # pegs in home (and start) are never swapped
        ["2 0:12-14", "2 0:h1-h3", "2 0:12-40 1:40-12"],
        id="two-swap-track-pegs-only",
    ),
    pytest.param(
        "rules: standard\nrule two_swap: true\npegs 0: 12\npegs 2: 50\nhand 0: 2",
        # standard: seat 0 moves only its own pegs, but may swap with its teammate's
        # (another colour)
        ["2 0:12-14", "2 0:12-50 2:50-12"],
        id="two-swap-with-teammate-under-own-control",
    ),
    pytest.param(
        "rule two_swap: true\npegs 0: 12\npegs 2: 50\nhand 0: 2",
        # arizona: seat 0 moves both colours, so the swap could be written from either peg;
        # it is one move, listed once with its steps in order (0:12-50 sorts first):
        # variant.two-swap.order
        ["2 0:12-14", "2 0:12-50 2:50-12", "2 2:50-52"],
        id="two-swap-of-two-movable-pegs-listed-once",
    ),
]


@pytest.mark.ruling(
    "card.joker.source",
    "card.nine",
    "team.control",
    "variant.face-values",
    "variant.home-entry-compulsory",
    "variant.in-spot-occupied",
    "variant.nine-split",
    "variant.two-swap",
    "variant.wait-on-in-spot",
)
@pytest.mark.parametrize(("text", "expected"), LEGAL)
def test_legal_moves(text: str, expected: list[str]) -> None:
    assert legal(text) == sorted(expected)


# =================================================================== results of moves

RESULTS = [
    pytest.param(
        "rule nine: forward_backward\npegs 0: 10 30\npegs 1: 2\nhand 0: 9",
        "9 0:10-2 0:30-31",
        # the backward part lands on seat 1's peg at 2: knocked to its start
        {0: pegs("2", "31"), 1: pegs()},
        id="nine-backward-part-knocks",
    ),
    pytest.param(
        "pegs 0: 19\npegs 2: 21\npegs 1: 39\nhand 0: 2",
        "2 0:19-21",
        {0: pegs("21"), 1: pegs(), 2: pegs("39")},
        id="chain",
    ),
    pytest.param(
        "rule in_spot_occupied: to_start\npegs 0: 19\npegs 2: 21\npegs 1: 39\nhand 0: 2",
        "2 0:19-21",
        # seat 2's peg goes to its start, seat 1 stays on 39
        {0: pegs("21"), 1: pegs("39"), 2: pegs()},
        id="to-start",
    ),
    pytest.param(
        "rule in_spot_occupied: to_start\npegs 0: 37\npegs 2: 39\nhand 0: 2",
        "2 0:37-39",
        {0: pegs("39"), 2: pegs()},
        id="to-start-from-own-in-spot",
    ),
    pytest.param(
        "rule in_spot_occupied: to_start\npegs 0: 19\npegs 2: 21 39\nhand 0: 2",
        "2 0:19-21",
        {0: pegs("21"), 2: pegs("39")},
        id="to-start-own-colour-stays",
    ),
    pytest.param(
        "rule in_spot_occupied: illegal\npegs 0: 39\npegs 2: 41\nhand 0: 2",
        "2 0:39-41",
        # the mover leaves seat 2's in-spot 39 as it lands on 41: 39 is free again
        {0: pegs("41"), 2: pegs("39")},
        id="illegal-policy-in-spot-vacated-by-mover",
    ),
    pytest.param(
        "players: 6\npegs 0: 73\npegs 2: 75\npegs 4: 39\npegs 1: 3\nhand 0: 2",
        "2 0:73-75",
        # 6 players, chain: seat 2 to 39, seat 4 on to 75 (the mover's hole), the mover on
        # to its in-spot 3, seat 1 to start
        {0: pegs("3"), 1: pegs(), 2: pegs("39"), 4: pegs("75")},
        id="six-players-chain",
    ),
    pytest.param(
        "rule in_spot_occupied: to_start\nplayers: 6\npegs 0: 73\npegs 2: 75\npegs 4: 39\n"
        "pegs 1: 3\nhand 0: 2",
        "2 0:73-75",
        # to_start: seat 2's in-spot 39 is held by seat 4: seat 2 to start, nobody else moves
        {0: pegs("75"), 1: pegs("3"), 2: pegs(), 4: pegs("39")},
        id="six-players-to-start",
    ),
    pytest.param(
        "rule wait_on_in_spot: true\npegs 0: 30\npegs 2: 32\nhand 0: 7",
        "7 0:30-32 2:39-h5",
        # the first part knocks seat 2 to its in-spot 39, from where it may only go home
        {0: pegs("32"), 2: pegs("h5")},
        id="wait-after-knock-into-home",
    ),
    pytest.param(
        "pegs 0: 30\npegs 2: 32\nhand 0: 7",
        "7 0:30-32 2:39-44",
        {0: pegs("32"), 2: pegs("44")},
        id="no-wait-after-knock-on-track",
    ),
    pytest.param(
        "rule two_swap: true\npegs 0: 12\npegs 1: 40\nhand 0: 2",
        "2 0:12-40 1:40-12",
        {0: pegs("40"), 1: pegs("12")},
        id="two-swap-exchanges",
    ),
    pytest.param(
        "rule two_swap: true\npegs 0: 12\npegs 1: 3\npegs 2: 21\nhand 0: 2",
        "2 0:12-3 1:3-12",
        # seat 0 lands on its own in-spot holding seat 1: nobody is knocked
        {0: pegs("3"), 1: pegs("12"), 2: pegs("21")},
        id="two-swap-knocks-nobody",
    ),
    pytest.param(
        "rule nine: forward_backward\npegs 0: 10 30\npegs 1: 2\nhand 0: 9",
        "9 0:30-31 0:10-2",
        # the other order of the listed 9 0:10-2 0:30-31: 30 on to 31, then 10 back 8 onto 2,
        # knocking seat 1 to its start; the same position, so the same move (split.order)
        {0: pegs("2", "31"), 1: pegs()},
        id="nine-forward-backward-other-order",
    ),
    pytest.param(
        "rules: standard\npegs 0: 10\npegs 2: 50\nhand 0: JK",
        "JK 0:10-50",
        # standard joker from the track onto the teammate: seat 2 to its in-spot 39
        {0: pegs("50"), 2: pegs("39")},
        id="standard-joker-from-track",
    ),
]


@pytest.mark.ruling(
    "team.control",
    "variant.in-spot-occupied",
    "variant.nine-split",
    "variant.two-swap",
    "variant.wait-on-in-spot",
)
@pytest.mark.parametrize(("text", "move", "expected"), RESULTS)
def test_results(text: str, move: str, expected: dict[int, tuple[int, ...]]) -> None:
    state = position(text)
    got = after(text, move)
    for seat, locs in enumerate(state.pegs):
        assert got.pegs[seat] == expected.get(seat, locs), f"seat {seat}"


# ========================================================================== rejections

REJECTIONS = [
    pytest.param(
        "rules: standard\npegs 0: 10\npegs 2: 50\nhand 0: 5",
        "5 2:50-55",
        "team.control",
        id="standard-teammate-peg",
    ),
    pytest.param(
        "rules: standard\nhand 0: K",
        "K 2:s-44",
        "team.control",
        id="standard-teammate-start",
    ),
    pytest.param(
        f"rules: standard\npegs 0: {HOME5}\npegs 2: 50\nhand 0: 5 K\npegs 1: 10",
        "5 1:10-15",
        "team.control",
        id="standard-never-an-opponent",
    ),
    pytest.param(
        "rules: standard\npegs 0: 10 h1\npegs 1: 30\nhand 0: JK",
        "JK 0:h1-30",
        "card.joker.source",
        id="standard-joker-never-from-home",
    ),
    pytest.param(
        "rules: standard\npegs 0: 10 30\nhand 0: 9",
        "9 0:10-14 0:30-35",
        "card.nine",
        id="standard-nine-no-split",
    ),
    pytest.param(
        "rule face_values: 11 12 13\npegs 0: 20\nhand 0: J",
        "J 0:20-30",
        "card.face",
        id="face-values-jack-not-10",
    ),
    pytest.param(
        "rule nine: plain\npegs 0: 10 30\nhand 0: 9",
        "9 0:10-14 0:30-35",
        "card.nine",
        id="nine-plain-no-split",
    ),
    pytest.param(
        "rule nine: forward_backward\npegs 0: 10 30\nhand 0: 9",
        "9 0:10-14 0:30-35",
        "variant.nine-split",
        id="nine-forward-backward-not-both-forward",
    ),
    pytest.param(
        "rule nine: forward_backward\npegs 0: 5 10 30\nhand 0: 9",
        "9 0:10-2 0:30-31",
        # 10 back 8 passes its own peg on 5
        "move.blocking",
        id="nine-backward-part-blocked",
    ),
    pytest.param(
        "rule home_entry_compulsory: true\npegs 0: 70\nhand 0: 7",
        "7 0:70-5",
        "variant.home-entry-compulsory",
        id="compulsory-track-alternative",
    ),
    pytest.param(
        "rule home_entry_compulsory: true\npegs 0: 70 h2\nhand 0: 7",
        "7 0:70-4 0:h2-h3",
        # the 6-step part could end on h1
        "variant.home-entry-compulsory",
        id="compulsory-split-part",
    ),
    pytest.param(
        "rule wait_on_in_spot: true\npegs 0: 3\nhand 0: 5",
        "5 0:3-8",
        "variant.wait-on-in-spot",
        id="wait-track",
    ),
    pytest.param(
        "rule wait_on_in_spot: true\npegs 0: 30\npegs 2: 32\nhand 0: 7",
        "7 0:30-32 2:39-44",
        "variant.wait-on-in-spot",
        id="wait-after-knock",
    ),
    pytest.param(
        "rule in_spot_occupied: illegal\npegs 0: 19\npegs 2: 21\npegs 1: 39\nhand 0: 2",
        "2 0:19-21",
        "variant.in-spot-occupied",
        id="in-spot-illegal-opponent-there",
    ),
    pytest.param(
        "rule in_spot_occupied: illegal\npegs 0: 37\npegs 2: 39\nhand 0: 2",
        "2 0:37-39",
        "variant.in-spot-occupied",
        id="in-spot-illegal-own-in-spot",
    ),
    pytest.param(
        "rule in_spot_occupied: illegal\nplayers: 6\npegs 0: 73\npegs 2: 75\npegs 4: 39\nhand 0: 2",
        "2 0:73-75",
        # a teammate of a third colour on seat 2's in-spot also makes it illegal
        "variant.in-spot-occupied",
        id="in-spot-illegal-teammate-there",
    ),
    pytest.param(
        "pegs 0: 37\npegs 2: 39\nhand 0: 2",
        "2 0:37-39",
        "move.landing.in-spot",
        id="in-spot-chain-own-in-spot",
    ),
    pytest.param(
        "rule two_swap: true\npegs 0: 12 h1\npegs 1: 40 h3\nhand 0: 2",
        "2 0:h1-40 1:40-h1",
        "variant.two-swap",
        id="two-swap-not-from-home",
    ),
    pytest.param(
        "rule two_swap: true\npegs 0: 12\npegs 1: 40\nhand 0: 2",
        "2 0:12-41 1:40-12",
        "variant.two-swap",
        id="two-swap-not-a-swap",
    ),
    pytest.param(
        "pegs 0: 12\npegs 1: 40\nhand 0: 2",
        "2 0:12-40 1:40-12",
        "card.number",
        id="two-swap-off",
    ),
]


@pytest.mark.ruling(
    "card.face",
    "card.joker.source",
    "card.nine",
    "card.number",
    "card.seven.split.order",
    "move.blocking",
    "move.landing.in-spot",
    "team.control",
    "variant.face-values",
    "variant.home-entry-compulsory",
    "variant.in-spot-occupied",
    "variant.nine-split",
    "variant.two-swap",
    "variant.wait-on-in-spot",
)
@pytest.mark.parametrize(("text", "move", "rule"), REJECTIONS)
def test_rejections(text: str, move: str, rule: str) -> None:
    assert rule_of(text, move) == rule


@pytest.mark.ruling("variant.in-spot-occupied", "card.seven.split")
def test_to_start_split_never_moves_a_peg_from_start() -> None:
    """``variant.in-spot-occupied`` (to_start) with ``card.seven.split``: the first part
    (30 -> 32) sends seat 2's peg to its start area, because its in-spot 39 is held by
    seat 1. A split part never brings a peg out, so no second part can move that peg;
    in particular not 5 holes on from "start" as if it stood on hole 71 (71 + 5 = 4)."""
    text = "rule in_spot_occupied: to_start\npegs 0: 30\npegs 2: 32\npegs 1: 39\nhand 0: 7"
    state = position(text)
    from_start = [
        str(m)
        for m in legal_moves(state)
        if isinstance(m, Play) and any(s.src == START for s in m.steps)
    ]
    assert from_start == []
    with pytest.raises(IllegalMoveError):
        apply(state, parse_notation("7 0:30-32 2:s-4"))


# ================================================================ variant.two-swap.order

TEAM_SWAP = "rule two_swap: true\nturn: 2\npegs 0: 60\npegs 1: 20\npegs 2: 40\nhand 2: 2"
"""Seat 2 to act with a 2; it moves seats 0 and 2 (arizona, ``team.control``)."""


@pytest.mark.ruling("variant.two-swap.order", "variant.two-swap", "team.control")
def test_a_swap_of_two_movable_pegs_is_listed_once_lower_seat_first() -> None:
    # Track pegs: seat 0 on 60, seat 1 on 20, seat 2 on 40. Seat 2 may move seats 0 and 2.
    # Two forward: 60 -> 62 and 40 -> 42 (nothing of their colour in the way; both pegs are
    # past their in-spots 3 and 39, so no home entry).
    # Swaps (variant.two-swap): 60 with 20 and 40 with 20, each written from the movable peg
    # (seat 1's is not); 60 with 40: both movable, one move (variant.two-swap.order), listed
    # with the lower seat's step first, seat 0's, although seat 2 acts.
    # Order: plays by steps as (seat, from, to): (0,60,20) < (0,60,40) < (0,60,62)
    # < (2,40,20) < (2,40,42).
    assert [str(m) for m in legal_moves(position(TEAM_SWAP))] == [
        "2 0:60-20 1:20-60",
        "2 0:60-40 2:40-60",
        "2 0:60-62",
        "2 2:40-20 1:20-40",
        "2 2:40-42",
    ]


@pytest.mark.ruling("variant.two-swap.order")
@pytest.mark.parametrize(
    ("text", "other", "listed", "expected"),
    [
        pytest.param(
            TEAM_SWAP,
            "2 2:40-60 0:60-40",
            "2 0:60-40 2:40-60",
            # seat 0's peg goes to 40, seat 2's to 60; seat 1 stays on 20
            {0: pegs("40"), 1: pegs("20"), 2: pegs("60")},
            id="four-players-seat-2-acts",
        ),
        pytest.param(
            "rule two_swap: true\nplayers: 6\npegs 2: 50\npegs 4: 80\nhand 0: 2",
            "2 4:80-50 2:50-80",
            "2 2:50-80 4:80-50",
            # 6 players: seat 0 moves seats 0, 2 and 4, and swaps two team-mates' pegs
            {2: pegs("80"), 4: pegs("50")},
            id="six-players-two-team-mates",
        ),
    ],
)
def test_the_other_writing_of_a_swap_is_the_listed_move(
    text: str, other: str, listed: str, expected: dict[int, tuple[int, ...]]
) -> None:
    state = position(text)
    other_move, listed_move = parse_notation(other), parse_notation(listed)
    legal = legal_moves(state)
    assert listed_move in legal and other_move not in legal
    got = apply(state, other_move)
    assert got == apply(state, listed_move)
    for seat, locs in enumerate(state.pegs):
        assert got.pegs[seat] == expected.get(seat, locs), f"seat {seat}"
    assert apply_with_events(state, other_move) == apply_with_events(state, listed_move)
    assert parse_move(state, other) == listed_move
    verdict = explain(state, other_move)
    assert verdict.legal and verdict.rule is None
    assert listed in verdict.reason and "variant.two-swap.order" in verdict.reason


@pytest.mark.ruling("variant.two-swap.order", "variant.two-swap", "team.control")
@pytest.mark.parametrize(
    ("text", "move"),
    [
        # seat 2 may not move seat 1's peg: the swaps with it are written from seat 2's team
        pytest.param(TEAM_SWAP, "2 1:20-40 2:40-20", id="opponent-step-first"),
        pytest.param(TEAM_SWAP, "2 1:20-60 0:60-20", id="opponent-step-first-team-mate"),
        # standard: seat 0 moves only its own pegs; the swap with seat 2 is 2 0:12-50 2:50-12
        pytest.param(
            "rules: standard\nrule two_swap: true\npegs 0: 12\npegs 2: 50\nhand 0: 2",
            "2 2:50-12 0:12-50",
            id="standard-team-mate-step-first",
        ),
    ],
)
def test_a_swap_written_from_a_peg_the_player_may_not_move_is_rejected(
    text: str, move: str
) -> None:
    state = position(text)
    assert rule_of(text, move) == "variant.two-swap"
    verdict = explain(state, parse_notation(move))
    assert not verdict.legal and verdict.rule == "variant.two-swap"
    with pytest.raises(IllegalMoveError) as info:
        parse_move(state, move)
    assert info.value.rule == "variant.two-swap"


# ================================================================= turn.sequence (standard)


@pytest.mark.ruling("turn.sequence")
def test_standard_deal_gives_the_first_player_six() -> None:
    """``turn.sequence`` (standard): the first player draws to 6 before acting: 5 each
    dealt, then one more card for the dealer's left; 162 - 21 = 141 left."""
    for players, cards in ((4, 162), (6, 162), (8, 216)):
        state = new_game(players, seed=4, rules=STANDARD, dealer=players - 1)
        assert state.turn == 0
        assert [len(h) for h in state.hands] == [6] + [5] * (players - 1)
        assert len(state.draw_pile) == cards - 5 * players - 1


@pytest.mark.ruling("turn.sequence")
def test_standard_draw_six_sequence_over_turns() -> None:
    """Each turn starts holding 6 and ends holding 5: the next seat draws one card from
    the top of the pile when the turn ends (arizona: the seat that played draws)."""
    state = new_game(4, seed=9, rules=STANDARD)
    rng = random.Random(9)
    for _ in range(40):
        seat, following = state.turn, (state.turn + 1) % 4
        assert len(state.hands[seat]) == 6
        assert all(len(h) == 5 for s, h in enumerate(state.hands) if s != seat)
        move = rng.choice(legal_moves(state))
        nxt = apply(state, move)
        assert len(nxt.hands[seat]) == 5
        assert len(nxt.hands[following]) == 6
        assert Counter(nxt.hands[following]) - Counter(state.hands[following]) == Counter(
            state.draw_pile[:1]
        )
        assert nxt.draw_pile == state.draw_pile[1:]
        state = nxt


@pytest.mark.ruling("turn.sequence")
def test_arizona_sequence_draws_after_playing() -> None:
    state = new_game(4, seed=9)
    assert all(len(h) == 5 for h in state.hands)
    nxt = apply(state, legal_moves(state)[0])
    assert all(len(h) == 5 for h in nxt.hands)
    assert nxt.draw_pile == state.draw_pile[1:]


STANDARD_PLAY = """
rules: standard
pegs 0: 12
hand 0: 5 9 9 9 9 9
hand 1: 2 2 2 2 2
draw: A K Q
discard: 3
"""


@pytest.mark.ruling("turn.sequence")
def test_standard_play_then_the_next_seat_draws() -> None:
    # seat 0 plays the 5 (12 -> 17) from 6 cards and keeps 5; seat 1 draws the A to 6
    got = after(STANDARD_PLAY, "5 0:12-17")
    assert got.pegs[0] == pegs("17")
    assert got.hands[0] == (Rank.NINE,) * 5
    assert got.hands[1] == (Rank.ACE, *(Rank.TWO,) * 5)
    assert got.draw_pile == (Rank.KING, Rank.QUEEN)
    assert got.discard_pile == (Rank.THREE, Rank.FIVE)
    assert got.turn == 1


@pytest.mark.ruling("turn.sequence")
def test_standard_discard_then_the_next_seat_draws() -> None:
    # nothing moves (all in start, no come-out card): discard the 6; seat 1 draws the 10
    got = after("rules: standard\nhand 0: 5 6 9 9 9 9\nhand 1: 2 2 2 2 2\ndraw: 10 3", "discard 6")
    assert got.hands[0] == (Rank.FIVE, *(Rank.NINE,) * 4)
    assert got.hands[1] == (*(Rank.TWO,) * 5, Rank.TEN)
    assert got.draw_pile == (Rank.THREE,)


@pytest.mark.ruling("turn.sequence")
def test_draw_first_switch_on_arizona() -> None:
    text = STANDARD_PLAY.replace("rules: standard", "rule draw_first: true")
    got = after(text, "5 0:12-17")
    assert got.hands[0] == (Rank.NINE,) * 5 and len(got.hands[1]) == 6


@pytest.mark.ruling("turn.sequence")
def test_arizona_same_play_draws_for_the_player() -> None:
    # arizona, 5 cards: seat 0 draws the A back to 5; seat 1 draws nothing
    text = STANDARD_PLAY.replace("rules: standard", "").replace("5 9 9 9 9 9", "5 9 9 9 9")
    got = after(text, "5 0:12-17")
    assert got.hands[0] == (Rank.ACE, *(Rank.NINE,) * 4)
    assert got.hands[1] == (Rank.TWO,) * 5
    assert got.draw_pile == (Rank.KING, Rank.QUEEN)


@pytest.mark.ruling("turn.sequence")
def test_standard_winning_move_draws_nothing() -> None:
    # seat 0's last peg goes from its in-spot 3 into h1; seat 2 is home: team 0 wins, and
    # seat 1 does not draw
    text = f"""
    rules: standard
    pegs 0: 3 h2 h3 h4 h5
    pegs 2: {HOME5}
    hand 0: A 9 9 9 9 9
    hand 1: 2 2 2 2 2
    draw: K
    """
    got = after(text, "A 0:3-h1")
    assert got.winner == 0
    assert got.hands[1] == (Rank.TWO,) * 5 and got.draw_pile == (Rank.KING,)
    assert legal_moves(got) == ()


@pytest.mark.ruling("turn.sequence")
def test_standard_draw_with_reshuffle() -> None:
    # the draw pile is empty: the discard pile (3 and the 5 just played) is reshuffled and
    # seat 1 draws one of them
    text = STANDARD_PLAY.replace("draw: A K Q", "draw:")
    got = after(text, "5 0:12-17")
    assert len(got.hands[1]) == 6
    drawn = Counter(got.hands[1]) - Counter(Rank.TWO for _ in range(5))
    assert sum(drawn.values()) == 1 and set(drawn) <= {Rank.THREE, Rank.FIVE}
    assert len(got.draw_pile) + len(got.discard_pile) == 1 and got.reshuffles == 1


# ========================================================================= variant.decks


@pytest.mark.ruling("variant.decks")
@pytest.mark.parametrize(
    ("players", "table", "decks", "jokers"),
    [
        (4, ((4, 2, 4), (6, 3, 6), (8, 4, 8)), 2, 4),
        (6, ((4, 3, 6), (6, 4, 8), (8, 4, 8)), 4, 8),
        (8, ((4, 3, 6), (6, 3, 6), (8, 3, 0)), 3, 0),
    ],
)
def test_decks_switch(
    players: int, table: tuple[tuple[int, int, int], ...], decks: int, jokers: int
) -> None:
    rules = Rules(name="decks", decks=table)
    assert rules.deck_for(players) == (decks, jokers)
    state = new_game(players, seed=2, rules=rules)
    cards = Counter(state.draw_pile) + Counter(c for h in state.hands for c in h)
    want: Counter[Rank] = Counter({r: 4 * decks for r in Rank if r is not Rank.JOKER})
    want[Rank.JOKER] = jokers
    assert +cards == +want
    assert len(state.draw_pile) == 52 * decks + jokers - 5 * players


@pytest.mark.ruling("variant.decks")
def test_hand_size_switch() -> None:
    rules = Rules(name="four", hand_size=4)
    state = new_game(4, seed=2, rules=rules)
    assert [len(h) for h in state.hands] == [4] * 4
    nxt = apply(state, legal_moves(state)[0])
    assert [len(h) for h in nxt.hands] == [4] * 4
    drawing = new_game(4, seed=2, rules=dataclasses.replace(rules, draw_first=True))
    assert sorted(len(h) for h in drawing.hands) == [4, 4, 4, 5]


@pytest.mark.ruling(
    "variant.decks",
    "variant.face-values",
    "variant.nine-split",
    "variant.in-spot-occupied",
    "variant.two-swap",
)
def test_rule_lines_read_back() -> None:
    state = position(
        "rules: standard\nrule face_values: 11 12 13\nrule nine: forward_backward\n"
        "rule in_spot_occupied: to_start\nrule two_swap: true\npegs 0: 12"
    )
    assert state.rules == dataclasses.replace(
        STANDARD,
        face_values=(11, 12, 13),
        nine=Nine.FORWARD_BACKWARD,
        in_spot_occupied=InSpotOccupied.TO_START,
        two_swap=True,
    )
    assert parse_position(str(state)).rules == state.rules


# ======================================================================= Rules validation

BAD_RULES: list[dict[str, Any]] = [
    {"control": "team"},
    {"joker_source": "any"},
    {"nine": "plain"},
    {"in_spot_occupied": None},
    {"draw_first": 1},
    {"two_swap": "yes"},
    {"home_entry_compulsory": None},
    {"wait_on_in_spot": 0},
    {"name": ""},
    {"player_counts": (4, 5)},
    {"player_counts": (2, 4)},
    {"player_counts": (4, 6, 8, 10)},  # no deck row for 10
    {"player_counts": ()},  # no game can be set up
    {"decks": ((4, 3, 6), (6, 3, 6))},  # no row for 8
    {"decks": ((4, 0, 6), (6, 3, 6), (8, 4, 8))},
    {"decks": ((4, 3, -1), (6, 3, 6), (8, 4, 8))},
    {"decks": ((4, 3), (6, 3, 6), (8, 4, 8))},
    {"decks": ((4, 1, 0), (6, 1, 0), (8, 1, 0))},  # 52 cards cannot deal 8 x 5 twice
    {"hand_size": 0},
    {"hand_size": 11},
    {"hand_size": 5.0},
    {"hand_size": True},
    {"face_values": (10, 10)},
    {"face_values": (0, 10, 10)},
    {"face_values": (10, 10, 14)},
    {"face_values": (10.0, 10, 10)},
    {"face_values": (10, 10, True)},
    {"face_values": [11, 12, 13]},
]


@pytest.mark.parametrize("values", BAD_RULES, ids=lambda v: f"{next(iter(v))}={v}")
def test_rules_reject_invalid_values(values: dict[str, Any]) -> None:
    with pytest.raises(RulesError):
        Rules(**values)


@pytest.mark.ruling("variant.face-values", "variant.in-spot-occupied", "variant.decks")
def test_rules_accept_every_switch_value() -> None:
    for control in Control:
        for source in JokerSource:
            for nine in Nine:
                for policy in InSpotOccupied:
                    Rules(control=control, joker_source=source, nine=nine, in_spot_occupied=policy)
    Rules(face_values=(1, 13, 7), hand_size=10, decks=((4, 3, 6), (6, 3, 6), (8, 4, 8)))
    assert find_preset("standard") is STANDARD


@pytest.mark.ruling("variant.face-values", "variant.two-swap")
def test_with_rule_rejects_bad_text() -> None:
    for field, text in [
        ("nine", "sideways"),
        ("two_swap", "yes"),
        ("face_values", "11 twelve 13"),
        ("hand_size", "five"),
        ("no_such_rule", "true"),
        ("face_values", "11 12 14"),
        ("decks", "4,0,6 6,3,6 8,4,8"),
    ]:
        with pytest.raises(RulesError):
            with_rule(ARIZONA, field, text)
    for field in Rules.__dataclass_fields__:
        assert with_rule(STANDARD, field, rule_text(STANDARD, field)) == STANDARD


def test_standard_preset_differs_from_arizona_in_four_choices() -> None:
    differ = {
        f
        for f in Rules.__dataclass_fields__
        if getattr(STANDARD, f) != getattr(ARIZONA, f) and f != "name"
    }
    assert differ == {"draw_first", "control", "joker_source", "nine"}
    assert STANDARD.control is Control.OWN_THEN_TEAMMATE
    assert STANDARD.joker_source is JokerSource.ANY
    assert STANDARD.nine is Nine.PLAIN


# ==================================================== properties and complete random games

SWITCH_SAMPLE = [
    STANDARD,
    Rules(
        name="house-a",
        face_values=(11, 12, 13),
        nine=Nine.FORWARD_BACKWARD,
        home_entry_compulsory=True,
        in_spot_occupied=InSpotOccupied.TO_START,
        two_swap=True,
    ),
    Rules(
        name="house-b",
        control=Control.OWN_THEN_TEAMMATE,
        wait_on_in_spot=True,
        in_spot_occupied=InSpotOccupied.ILLEGAL,
        draw_first=True,
        decks=((4, 1, 8), (6, 2, 0), (8, 3, 2)),
    ),
    dataclasses.replace(
        STANDARD,
        name="standard-house",
        face_values=(1, 5, 13),
        nine=Nine.FORWARD_FORWARD,
        joker_source=JokerSource.TEAM_START_FIRST,
        home_entry_compulsory=True,
        wait_on_in_spot=True,
        two_swap=True,
        hand_size=4,
    ),
]
MAX_TURNS = 20_000


def check_state(state: GameState) -> None:
    """board.pegs, deck conservation and hand sizes for any rules."""
    rules = state.rules
    length = 18 * state.players
    taken: set[tuple[int, int]] = set()
    for seat, locs in enumerate(state.pegs):
        assert len(locs) == 5 and list(locs) == sorted(locs), state
        for loc in locs:
            assert loc == START or 0 <= loc < length or home(1) <= loc <= home(5), state
            if loc != START:
                key = (seat if loc > 1000 else -1, loc)
                assert key not in taken, f"two pegs on {loc}:\n{state}"
                taken.add(key)
    decks, jokers = rules.deck_for(state.players)
    held = Counter(c for h in state.hands for c in h)
    held.update(state.draw_pile)
    held.update(state.discard_pile)
    deck: Counter[Rank] = Counter({r: 4 * decks for r in Rank if r is not Rank.JOKER})
    deck[Rank.JOKER] = jokers
    assert +held == +deck, state
    piles_empty = not state.draw_pile and not state.discard_pile
    for seat, hand in enumerate(state.hands):
        if rules.draw_first and seat == state.turn and state.winner is None:
            assert len(hand) == rules.hand_size + 1 or piles_empty, state
        else:
            assert len(hand) <= rules.hand_size, state
    if state.winner is not None:
        team = state.winner
        assert all(loc > 1000 for s, locs in enumerate(state.pegs) if s % 2 == team for loc in locs)
        assert not all(
            loc > 1000 for s, locs in enumerate(state.pegs) if s % 2 != team for loc in locs
        )


def check_moves(state: GameState) -> None:
    """No duplicate moves; every legal move applies and leaves a sound state."""
    moves = legal_moves(state)
    assert len(set(moves)) == len(moves), state
    for move in moves:
        check_state(apply(state, move))


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("rules", SWITCH_SAMPLE, ids=lambda r: r.name)
def test_complete_random_games(rules: Rules, players: int) -> None:
    rng = random.Random(f"variants/{rules.name}/{players}")
    state = new_game(players, seed=rng.randrange(2**32), rules=rules)
    turns = 0
    while state.winner is None:
        assert turns < MAX_TURNS, f"no winner after {turns} turns:\n{state}"
        check_state(state)
        if turns % 50 == 0:
            check_moves(state)
        moves = legal_moves(state)
        assert moves, state
        state = apply(state, rng.choice(moves))
        turns += 1
    check_state(state)
    assert state.ply == turns
    assert legal_moves(state) == ()


@settings(phases=NO_SHRINK)
@given(
    house_rules(),
    st.sampled_from(PLAYER_COUNTS),
    st.integers(0, 2**32 - 1),
    st.integers(0, 400).flatmap(lambda n: st.lists(st.integers(0, 2**16), min_size=n, max_size=n)),
)
def test_properties_under_random_switches(
    rules: Rules, players: int, seed: int, choices: list[int]
) -> None:
    states, _ = play(new_game(players, seed=seed, rules=rules), choices)
    for state in states:
        check_state(state)
    check_moves(states[-1])
