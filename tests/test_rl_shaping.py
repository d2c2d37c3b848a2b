"""Potential-based reward shaping: the progress it counts, worked out by hand from the board's
geometry (``board.geometry``: seat ``s``'s in-spot is hole ``18 s + 3``, its come-out hole
``18 s + 8``), and the shaping reward of whole games checked against its definition."""

from __future__ import annotations

import dataclasses
import random

import pytest

from pegs_rules import new_game
from pegs_rules.board import START, home

np = pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed")

from pegs_rules.rl import TeamEnv  # noqa: E402 - after the extra's check
from pegs_rules.rl.shaping import (  # noqa: E402
    ShapedReward,
    most_progress,
    potential,
    progress,
)


def test_progress_counts_holes_from_after_the_in_spot_round_to_home() -> None:
    assert progress((START,) * 5, seat=0, players=4) == 0
    # Seat 0 at 4 players (72 holes): in-spot 3, come-out 8.
    assert progress((START, START, START, START, 8), seat=0, players=4) == 5
    assert progress((START, START, START, START, 4), seat=0, players=4) == 1
    assert progress((START, START, START, START, 3), seat=0, players=4) == 72
    assert progress((START, START, START, START, 2), seat=0, players=4) == 71
    assert progress((START, START, START, START, home(1)), seat=0, players=4) == 73
    # Seat 1 at 6 players (108 holes): in-spot 21, come-out 26; hole 0 is 87 holes past 21.
    assert progress((START, START, START, 26, 0), seat=1, players=6) == 5 + 87
    assert progress((home(5), home(4), START, START, START), seat=1, players=6) == 113 + 112


def test_most_progress_is_a_team_with_every_peg_home() -> None:
    lane = (home(1), home(2), home(3), home(4), home(5))
    # 4 players: two seats, each 5 pegs at 72 holes plus the lane's 1 + 2 + 3 + 4 + 5.
    assert most_progress(4) == 2 * (5 * 72 + 15) == 750
    for players in (4, 6, 8):
        team = players // 2
        assert most_progress(players) == team * progress(lane, 0, players)


def test_potential_is_the_lead_in_progress_and_zero_once_won() -> None:
    state = new_game(4, seed=3)
    assert potential(state, 0) == potential(state, 1) == 0.0  # every peg in start
    start = (START,) * 4
    # Seat 0 on its come-out hole (5), seat 1 in start (0), seat 2 on its in-spot, hole 39 (72),
    # seat 3 on its come-out hole, 62 (5).
    pegs = ((*start, 8), (*start, START), (*start, 39), (*start, 62))
    moved = dataclasses.replace(state, pegs=pegs)
    assert potential(moved, 0) == pytest.approx((5 + 72 - 5) / 750)
    assert potential(moved, 1) == pytest.approx(-(5 + 72 - 5) / 750)
    assert potential(dataclasses.replace(moved, winner=0), 0) == 0.0


@pytest.mark.parametrize(("deal", "team"), [(5, 0), (6, 1)])
def test_shaping_adds_gamma_times_the_next_potential_less_this_one(deal: int, team: int) -> None:
    gamma = 0.99
    plain = TeamEnv(players=4, team=team, opponents="random")
    shaped = ShapedReward(TeamEnv(players=4, team=team, opponents="random"), gamma)
    observation, _ = plain.reset(seed=deal)
    shaped.reset(seed=deal)
    first = before = potential(plain.game.game, team)
    rng = random.Random(deal)
    discounted, weight = 0.0, 1.0
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"].view(bool))))
        observation, reward, terminated, truncated, _ = plain.step(action)
        _, with_shaping, *_ = shaped.step(action)
        after = 0.0 if terminated else potential(plain.game.game, team)
        assert with_shaping == pytest.approx(reward + gamma * after - before)
        discounted += weight * (with_shaping - reward)
        weight *= gamma
        before, done = after, terminated or truncated
    assert terminated and reward in (1.0, -1.0)
    # The shaping telescopes: over a game that ends, its discounted sum is -potential(start).
    assert discounted == pytest.approx(-first, abs=1e-9)
