"""Tests for the board pictures of ``pegs_rules.render``: the SVG board and the text board.

The SVG is parsed with ``xml.etree`` and checked by its element classes
(``hole track``, ``hole home seat-S``, ``hole start seat-S``, ``peg seat-S``,
``move-arrow``, ``highlight``, ``hole-number``) and by the geometry of the
hole centres: the track is a closed clockwise ring of evenly spaced holes,
home lanes run inwards from the in-spots and start areas sit by the come-out
holes (``board.geometry``).
"""

from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET

import pytest

from pegs_rules import (
    Discard,
    GameState,
    Pass,
    Play,
    PositionError,
    Rank,
    Step,
    apply,
    legal_moves,
    new_game,
    parse_notation,
    parse_position,
)
from pegs_rules.board import location_name
from pegs_rules.render import SEAT_COLOURS, svg, text

NS = "{http://www.w3.org/2000/svg}"
Point = tuple[float, float]


def midgame(players: int, seed: int, plies: int) -> GameState:
    """A position reached by ``plies`` random legal moves (plays preferred)."""
    state = new_game(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over:
            break
        moves = legal_moves(state)
        plays = [m for m in moves if isinstance(m, Play)]
        state = apply(state, rng.choice(plays or moves))
    return state


SPLIT = parse_position("""
players: 4
turn: 0
pegs 0: 70 h2 h5 30
pegs 1: 21 26 h1
pegs 2: 33 h3 8
pegs 3: 3 60
hand 0: 7
""")
SPLIT_MOVE = parse_notation("7 0:70-h1 2:33-37")


def root(document: str) -> ET.Element:
    return ET.fromstring(document.encode())


def with_class(tree: ET.Element, *classes: str) -> list[ET.Element]:
    """Elements whose class attribute holds every one of ``classes``."""
    return [e for e in tree.iter() if set(classes) <= set(e.get("class", "").split())]


def centre(element: ET.Element) -> Point:
    return float(element.get("cx", "nan")), float(element.get("cy", "nan"))


def dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


# --------------------------------------------------------------------------
# SVG: document structure
# --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 6, 8])
def test_svg_parses_and_has_every_hole(players: int) -> None:
    tree = root(svg(midgame(players, seed=players, plies=40)))
    assert tree.tag == f"{NS}svg"
    holes = with_class(tree, "hole")
    assert all(h.tag == f"{NS}circle" for h in holes)
    assert len(holes) == 18 * players + 5 * players + 5 * players
    assert len(with_class(tree, "hole", "track")) == 18 * players
    for seat in range(players):
        assert len(with_class(tree, "hole", "home", f"seat-{seat}")) == 5
        assert len(with_class(tree, "hole", "start", f"seat-{seat}")) == 5


@pytest.mark.parametrize("players", [4, 6, 8])
def test_svg_draws_one_peg_per_peg_in_its_seat_colour(players: int) -> None:
    state = midgame(players, seed=10 + players, plies=60)
    tree = root(svg(state))
    assert len(with_class(tree, "peg")) == 5 * players
    for seat in range(players):
        pegs = with_class(tree, "peg", f"seat-{seat}")
        assert len(pegs) == 5
        assert {p.get("fill") for p in pegs} == {SEAT_COLOURS[seat]}
    # Every peg carries its seat number, so colour is not the only cue.
    numbers = sorted(e.text or "" for e in with_class(tree, "peg-label"))
    assert numbers == sorted(str(s) for s in range(players) for _ in range(5))


def test_seat_colours_are_distinct_hex_colours() -> None:
    assert len(SEAT_COLOURS) == 8
    assert len({c.upper() for c in SEAT_COLOURS}) == 8
    assert all(len(c) == 7 and c[0] == "#" and int(c[1:], 16) >= 0 for c in SEAT_COLOURS)


def test_svg_title_describes_the_position() -> None:
    tree = root(svg(SPLIT, SPLIT_MOVE))
    title = tree.find(f"{NS}title")
    assert title is not None and title.text is not None
    assert "4 players" in title.text
    assert "seat 0 to act" in title.text
    assert "seat 0 (blue): s 30 70 h2 h5;" in title.text
    assert "7 0:70-h1 2:33-37" in title.text


def test_svg_size_sets_the_width() -> None:
    for size in (300, 520, 1000):
        tree = root(svg(SPLIT, size=size))
        assert tree.get("width") == str(size)
        assert tree.get("viewBox", "").startswith(f"0 0 {size} ")


@pytest.mark.parametrize("players", [4, 6, 8])
def test_svg_is_deterministic(players: int) -> None:
    first = svg(midgame(players, seed=3, plies=30), highlight=[5, 1, 5])
    again = svg(midgame(players, seed=3, plies=30), highlight=(1, 5))
    assert first == again
    assert text(midgame(players, seed=3, plies=30)) == text(midgame(players, seed=3, plies=30))


# --------------------------------------------------------------------------
# SVG: geometry
# --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 6, 8])
def test_track_is_an_evenly_spaced_clockwise_ring(players: int) -> None:
    tree = root(svg(new_game(players, seed=1)))
    ring = [centre(h) for h in with_class(tree, "hole", "track")]
    gaps = [dist(ring[i], ring[(i + 1) % len(ring)]) for i in range(len(ring))]
    assert max(gaps) - min(gaps) < 0.05 * min(gaps)
    # Shoelace sum in screen coordinates (y down): positive means clockwise.
    area = sum(
        ring[i][0] * ring[(i + 1) % len(ring)][1] - ring[(i + 1) % len(ring)][0] * ring[i][1]
        for i in range(len(ring))
    )
    assert area > 0
    # Corners turn, holes within a side are collinear.
    for hole in range(len(ring)):
        a, b, c = ring[hole - 1], ring[hole], ring[(hole + 1) % len(ring)]
        cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        assert (abs(cross) > 1.0) == (hole % 18 == 0), hole


@pytest.mark.parametrize("players", [4, 6, 8])
def test_home_lanes_run_inwards_from_the_in_spot(players: int) -> None:
    tree = root(svg(new_game(players, seed=1)))
    ring = [centre(h) for h in with_class(tree, "hole", "track")]
    gap = dist(ring[0], ring[1])
    middle = (sum(p[0] for p in ring) / len(ring), sum(p[1] for p in ring) / len(ring))
    for seat in range(players):
        lane = [centre(h) for h in with_class(tree, "hole", "home", f"seat-{seat}")]
        in_spot = ring[18 * seat + 3]
        assert dist(lane[0], in_spot) == pytest.approx(gap, rel=0.05)
        assert min(range(len(ring)), key=lambda i: dist(ring[i], lane[0])) == 18 * seat + 3
        depths = [dist(p, middle) for p in [in_spot, *lane]]
        assert depths == sorted(depths, reverse=True)


@pytest.mark.parametrize("players", [4, 6, 8])
def test_start_areas_sit_outside_their_come_out_hole(players: int) -> None:
    tree = root(svg(new_game(players, seed=1)))
    ring = [centre(h) for h in with_class(tree, "hole", "track")]
    gap = dist(ring[0], ring[1])
    middle = (sum(p[0] for p in ring) / len(ring), sum(p[1] for p in ring) / len(ring))
    for seat in range(players):
        come_out = ring[18 * seat + 8]
        area = [centre(h) for h in with_class(tree, "hole", "start", f"seat-{seat}")]
        mean = (sum(p[0] for p in area) / 5, sum(p[1] for p in area) / 5)
        assert min(range(len(ring)), key=lambda i: dist(ring[i], mean)) == 18 * seat + 8
        for p in area:
            assert dist(p, come_out) < 3.5 * gap
            assert dist(p, middle) > dist(come_out, middle) + gap


def test_pegs_stand_on_their_holes() -> None:
    tree = root(svg(SPLIT))
    track = [centre(h) for h in with_class(tree, "hole", "track")]
    lanes = {
        s: [centre(h) for h in with_class(tree, "hole", "home", f"seat-{s}")] for s in range(4)
    }
    starts = {
        s: [centre(h) for h in with_class(tree, "hole", "start", f"seat-{s}")] for s in range(4)
    }
    for seat, locs in enumerate(SPLIT.pegs):
        drawn = sorted(centre(p) for p in with_class(tree, "peg", f"seat-{seat}"))
        expected = []
        waiting = 0
        for loc in locs:
            if loc == -1:
                expected.append(starts[seat][waiting])
                waiting += 1
            elif loc > 1000:
                expected.append(lanes[seat][loc - 1001])
            else:
                expected.append(track[loc])
        assert drawn == sorted(expected)


@pytest.mark.parametrize("players", [4, 6, 8])
def test_holes_and_pegs_name_their_location(players: int) -> None:
    """``data-loc``/``data-seat`` agree with the geometry and with the state (for clients)."""
    state = midgame(players, seed=20 + players, plies=50)
    tree = root(svg(state))
    by_place: dict[tuple[str | None, str | None], Point] = {}
    for hole in with_class(tree, "hole"):
        kind = "track" if "track" in hole.get("class", "") else "own"
        assert (kind == "own") == ("data-seat" in hole.attrib)
        by_place[hole.get("data-seat"), hole.get("data-loc")] = centre(hole)
    assert [by_place[None, str(k)] for k in range(18 * players)] == [
        centre(h) for h in with_class(tree, "hole", "track")
    ]
    assert len(by_place) == 18 * players + 6 * players  # the five start holes share "s"
    drawn = sorted((p.get("data-seat"), p.get("data-loc")) for p in with_class(tree, "peg"))
    expected = sorted(
        (str(seat), location_name(loc)) for seat, locs in enumerate(state.pegs) for loc in locs
    )
    assert drawn == expected
    for peg in with_class(tree, "peg"):
        seat, loc = peg.get("data-seat"), peg.get("data-loc", "")
        if loc != "s":  # on the hole that carries the same name
            assert centre(peg) == by_place[None if loc[0].isdigit() else seat, loc]


# --------------------------------------------------------------------------
# SVG: labels, highlights and moves
# --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 6, 8])
def test_labels_number_the_corners_in_spots_and_come_outs(players: int) -> None:
    tree = root(svg(new_game(players, seed=1)))
    numbers = sorted(int(e.text or "") for e in with_class(tree, "hole-number"))
    assert numbers == sorted(18 * s + k for s in range(players) for k in (0, 3, 8))
    seat_labels = " ".join(e.text or "" for e in with_class(tree, "seat-label"))
    for seat in range(players):
        assert f"seat {seat} \u00b7 team {seat % 2}" in seat_labels
    bare = root(svg(new_game(players, seed=1), labels=False))
    assert with_class(bare, "hole-number") == []
    assert len(with_class(bare, "hole")) == 28 * players


def test_in_spots_and_come_outs_are_marked_in_the_seat_colour() -> None:
    tree = root(svg(new_game(6, seed=1)))
    assert [e.get("stroke") for e in with_class(tree, "come-out-mark")] == list(SEAT_COLOURS[:6])
    assert [e.get("stroke") for e in with_class(tree, "in-spot-mark")] == list(SEAT_COLOURS[:6])


def test_highlight_rings_each_hole_once() -> None:
    tree = root(svg(SPLIT, highlight=[12, 5, 12, 71]))
    rings = with_class(tree, "highlight")
    assert len(rings) == 3
    track = [centre(h) for h in with_class(tree, "hole", "track")]
    assert sorted(track.index(centre(r)) for r in rings) == [5, 12, 71]
    assert with_class(root(svg(SPLIT)), "highlight") == []


@pytest.mark.parametrize("bad", [[72], [-1], ["3"], [True], [1.5]])
def test_highlight_outside_the_track_is_rejected(bad: list[object]) -> None:
    with pytest.raises(PositionError):
        svg(SPLIT, highlight=bad)  # type: ignore[arg-type]


def test_split_move_draws_two_numbered_arrows() -> None:
    tree = root(svg(SPLIT, SPLIT_MOVE))
    arrows = with_class(tree, "move-arrow")
    assert len(arrows) == 2
    assert [a.get("class") for a in arrows] == ["move-arrow step-1", "move-arrow step-2"]
    for number, arrow in enumerate(arrows, 1):
        assert arrow.findall(f"{NS}path"), "an arrow has a shaft"
        assert arrow.findall(f"{NS}polygon"), "an arrow has a head"
        assert [t.text for t in arrow.iter(f"{NS}text")] == [str(number)]
    # The landing ring of each part is on its destination: h1 of seat 0, hole 37.
    lane = [centre(h) for h in with_class(tree, "hole", "home", "seat-0")]
    track = [centre(h) for h in with_class(tree, "hole", "track")]
    landings = [centre(e) for e in with_class(tree, "landing")]
    assert landings == [lane[0], track[37]]


def test_the_two_arrows_of_a_swap_bow_apart() -> None:
    """A 2-swap's steps join the same two holes; each arrow curves to its own side."""
    state = parse_position("rule two_swap: true\nturn: 2\npegs 0: 60\npegs 2: 40\nhand 2: 2")
    arrows = with_class(root(svg(state, parse_notation("2 0:60-40 2:40-60"))), "move-arrow")
    controls = []
    for arrow in arrows:
        shaft = arrow.findall(f"{NS}path")[0].get("d", "")
        x, y = shaft.split("Q")[1].split()[0].split(",")
        controls.append((float(x), float(y)))
    assert len(controls) == 2
    assert math.dist(*controls) > 1.0


def test_single_step_move_draws_one_unnumbered_arrow() -> None:
    state = new_game(4, seed=2)
    move = next(m for m in legal_moves(state) if isinstance(m, Play))
    tree = root(svg(state, move))
    arrows = with_class(tree, "move-arrow")
    assert len(arrows) == 1
    assert list(arrows[0].iter(f"{NS}text")) == []


@pytest.mark.parametrize("move", [Discard(Rank.FIVE), Pass(), None])
def test_moves_without_steps_draw_no_arrow(move: Discard | Pass | None) -> None:
    assert with_class(root(svg(SPLIT, move)), "move-arrow") == []


@pytest.mark.parametrize(
    "move",
    [
        Play(Rank.FIVE, (Step(4, 1, 6),)),
        Play(Rank.FIVE, (Step(0, 1, 72),)),
        Play(Rank.FIVE, ((0, 1, 6),)),  # type: ignore[arg-type]
        "5 0:1-6",
    ],
)
def test_moves_that_do_not_fit_the_board_are_rejected(move: object) -> None:
    with pytest.raises(PositionError):
        svg(SPLIT, move)  # type: ignore[arg-type]
    with pytest.raises(PositionError):
        text(SPLIT, move)  # type: ignore[arg-type]


def test_not_a_state_is_rejected() -> None:
    with pytest.raises(PositionError):
        svg("pegs 0: 3")  # type: ignore[arg-type]
    with pytest.raises(PositionError):
        text(None)  # type: ignore[arg-type]


def test_every_move_of_random_games_can_be_drawn() -> None:
    for players in (4, 6, 8):
        state = new_game(players, seed=players * 7)
        rng = random.Random(players)
        for _ in range(25):
            moves = legal_moves(state)
            move = rng.choice(moves)
            tree = root(svg(state, move))
            steps = len(move.steps) if isinstance(move, Play) else 0
            assert len(with_class(tree, "move-arrow")) == steps
            assert len(with_class(tree, "peg")) == 5 * players
            assert len(text(state, move).splitlines()) == 4 + players  # head, move, key, ruler
            state = apply(state, move)


# --------------------------------------------------------------------------
# Text
# --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 6, 8])
def test_text_has_one_line_per_side(players: int) -> None:
    state = midgame(players, seed=players, plies=50)
    lines = text(state).splitlines()
    sides = [line for line in lines if line.startswith("seat ")]
    assert len(sides) == players
    width = len(str(players - 1))
    for seat, line in enumerate(sides):
        assert line.startswith(f"seat {seat:<{width}}: ")
        assert f"start {state.pegs[seat].count(-1)}" in line
        # 18 hole cells between the side's first and last hole numbers.
        body = line.split(": ", 1)[1]
        assert body.split()[0] == str(18 * seat)
        assert str(18 * seat + 17) in body
    assert all(len(line) == len(sides[0]) for line in sides)


def side_cells(line: str) -> list[str]:
    """The 18 three-character hole cells of a side line."""
    body = line.split(": ", 1)[1].lstrip()
    first = body.split()[0]
    cells = body[len(first) + 1 :][: 18 * 3]
    return [cells[3 * k : 3 * k + 3] for k in range(18)]


def test_text_shows_every_peg() -> None:
    for players in (4, 6, 8):
        state = midgame(players, seed=20 + players, plies=80)
        sides = [line for line in text(state).splitlines() if line.startswith("seat ")]
        marks = [cell[1] for line in sides for cell in side_cells(line)]
        assert len(marks) == 18 * players
        for hole, mark in enumerate(marks):
            owners = [s for s, locs in enumerate(state.pegs) if hole in locs]
            assert mark == (str(owners[0]) if owners else "."), hole
        for seat, locs in enumerate(state.pegs):
            lane = sides[seat].split("[")[-1].rstrip("]").split()
            assert lane == [str(seat) if 1000 + k in locs else "." for k in range(1, 6)]


def test_text_marks_in_spot_and_come_out() -> None:
    state = parse_position("pegs 1: 21 26\npegs 0: 22")
    line = text(state).splitlines()[4]
    assert line.startswith("seat 1: 18 ")
    cells = side_cells(line)
    assert (cells[3], cells[4], cells[8]) == ("<1>", " 0 ", "[1]")
    assert [k for k, c in enumerate(cells) if c[0] != " "] == [3, 8]


def test_text_shows_the_move_and_is_plain_ascii() -> None:
    out = text(SPLIT, SPLIT_MOVE)
    assert "move: 7 0:70-h1 2:33-37 = (1) seat 0 peg 70 -> h1, then (2) seat 2 peg 33 -> 37" in out
    assert out.isascii() and "\x1b" not in out
    assert all(line == line.rstrip() for line in out.splitlines())
    assert "move: discard 5" in text(SPLIT, Discard(Rank.FIVE))
    assert "move: pass" in text(SPLIT, Pass())
    assert "move" not in text(SPLIT).splitlines()[1]


def test_text_reports_a_winner() -> None:
    state = parse_position("pegs 0: h1 h2 h3 h4 h5\npegs 2: h1 h2 h3 h4 h5")
    assert state.winner == 0
    assert "team 0 has won" in text(state).splitlines()[0]
    assert "team 0 has won" in svg(state)
