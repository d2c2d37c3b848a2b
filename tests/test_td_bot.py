"""The ``td`` bot: made by name with the shipped weights, the same given its seed, sees only its
seat's view, its weights are what their recorded training makes, and it beats ``medium`` where
zero weights do not."""

from __future__ import annotations

import json
import math
import random
import re
import subprocess
from pathlib import Path
from types import ModuleType

import pytest
from played import shuffle_hidden
from scripts import load_script

from pegs_rules import apply, legal_moves, new_game, view
from pegs_rules.bots import BOTS, GreedyBot, TdBot, decide, make_bot, play
from pegs_rules.bots.evaluation import after, effects_of
from pegs_rules.bots.td import SIZE, features, shipped_weights
from pegs_rules.simulate import DEALS_PER_SEED, SimulationConfig, play_game

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "examples" / "td_learner.py"
RUN = ROOT / "docs" / "examples" / "results" / "td-learner.json"


def example() -> ModuleType:
    return load_script(EXAMPLE, "td_learner_for_bot")


def test_td_is_a_named_bot_with_the_shipped_weights() -> None:
    assert "td" in BOTS
    bot = make_bot("td", seed=4)
    assert isinstance(bot, TdBot) and bot.weights == shipped_weights().weights
    assert len(bot.weights) == SIZE and any(bot.weights)
    with pytest.raises(ValueError):
        make_bot("td:100")
    with pytest.raises(ValueError, match="100 weights"):
        TdBot(weights=[1.0] * 3)


def test_a_seeded_td_bot_plays_a_game_the_same_way_twice() -> None:
    config = SimulationConfig(games=2, bots=("td", "medium"), seed=7)
    first, again = play_game(config, 1), play_game(config, 1)
    assert first.moves_sha256 == again.moves_sha256 and first.winner == again.winner


def test_the_td_bot_sees_only_its_seats_view() -> None:
    """The same move from the same seed whatever the cards it cannot see, over a game."""
    state, rng, checked = new_game(4, seed=11), random.Random(11), 0
    while not state.is_over and state.ply < 200:
        if len(legal_moves(state)) > 1:
            other = shuffle_hidden(state, state.turn, rng)
            assert other.hands != state.hands
            assert decide(TdBot(seed=state.ply), state) == decide(TdBot(seed=state.ply), other)
            checked += 1
        state = apply(state, rng.choice(legal_moves(state)))
    assert checked > 50


def test_the_features_use_only_what_the_seat_may_see() -> None:
    state = new_game(4, seed=3)
    rng = random.Random(3)
    while state.ply < 60:
        state = apply(state, rng.choice(legal_moves(state)))
    seat = state.turn
    other = shuffle_hidden(state, seat, rng)
    assert other.hands != state.hands
    rows = []
    for game in (state, other):
        seen = view(game, seat)
        effects = effects_of(seen)
        rows.append(
            [
                features(after(seen.pegs, effects, move), list(seen.hand), seen, [False] * 4)
                for move in legal_moves(game)
            ]
        )
    assert rows[0] == rows[1]
    assert len(rows[0][0]) == SIZE


def wins_against_medium(weights: tuple[float, ...], deals: range) -> int:
    """Games the td bot's team won against two ``medium`` bots on ``deals``, one team's seats in
    even deals and the other's in odd ones."""
    won = 0
    for deal in deals:
        side = deal % 2
        seats = [
            TdBot(deal * 16 + s, weights) if s % 2 == side else GreedyBot(deal * 16 + s)
            for s in range(4)
        ]
        won += play(seats, new_game(4, seed=deal)).winner == side
    return won


def test_the_shipped_weights_beat_medium_where_zero_weights_do_not() -> None:
    """Twelve deals no training game saw (seeds from 9,000,000; training deals from
    1,000,000 on): the learnt weights win most, the untrained (zero) weights, which leave
    every move the same value and so pick at random, none."""
    deals = range(9 * DEALS_PER_SEED, 9 * DEALS_PER_SEED + 12)
    assert wins_against_medium(shipped_weights().weights, deals) >= 8
    assert wins_against_medium((0.0,) * SIZE, deals) <= 1


def test_the_weights_file_says_how_its_weights_were_learnt() -> None:
    """The recorded command is the example with the recorded seed and games, its deals are
    the ones that seed and those games train on, the code that trained was a commit (no
    uncommitted changes) of this repository, and its test result is a share of its deals."""
    training = shipped_weights().training
    seed, games = training["seed"], training["games"]
    command = training["command"].split()
    assert command[:2] == ["python", "docs/examples/td_learner.py"]
    assert command[command.index("--seed") + 1] == str(seed)
    assert command[command.index("--games") + 1] == str(games)
    assert command[command.index("--weights") + 1] == "src/pegs_rules/bots/td-weights.json"
    assert "--minutes" not in command  # CPU minutes would not replay
    assert training["deals"] == [1_000_000 * (seed + 1), 1_000_000 * (seed + 1) + games - 1]
    assert training["players"] == 4 and training["opponent"] == "medium"
    made = re.fullmatch(r"pegs-rules [\w.]+ commit ([0-9a-f]{40})", training["trained_by"])
    assert made, training["trained_by"]
    if (ROOT / ".git").exists():  # a checkout (not an unpacked sdist): the commit is in it
        subprocess.run(
            ["git", "-C", str(ROOT), "cat-file", "-e", f"{made[1]}^{{commit}}"], check=True
        )
    test = training["test"]
    assert test["deals"] >= 400 and 0 <= test["won"] <= test["deals"]


def test_the_recorded_training_starts_as_the_command_trains() -> None:
    """The example, trained with the recorded seed for the games the file kept the weights
    after, learns exactly those weights: the command and seed recorded are the ones used, and
    the learner, the features and the games are as they were (a change to any fails here,
    and the shipped weights must then be learnt again)."""
    pytest.importorskip("numpy")
    learner = example()
    training = shipped_weights().training
    early = training["early"]
    value = learner.Value()
    learner.train(value, seconds=math.inf, seed=training["seed"], max_games=early["games"])
    assert [float(w) for w in value.weights] == pytest.approx(early["weights"], rel=1e-9, abs=1e-12)
    assert early["games"] == learner.EARLY


def test_the_shipped_weights_are_those_of_the_run_the_learning_page_reports() -> None:
    """As docs/rl.rst says: the run it reports (trained for CPU minutes) played as many games
    from the same seed, learnt the same weights (to the six places its record keeps) and won
    the same test games."""
    run = json.loads(RUN.read_text(encoding="utf-8"))
    shipped = shipped_weights()
    training = shipped.training
    assert [round(w, 6) for w in shipped.weights] == run["weights"]
    assert (run["games"], run["seed"]) == (training["games"], training["seed"])
    assert (sum(run["test"]), len(run["test"])) == (
        training["test"]["won"],
        training["test"]["deals"],
    )


@pytest.mark.parametrize("players", [6, 8])
def test_the_td_bot_plays_six_and_eight_players_with_the_same_weights(players: int) -> None:
    """Weights learnt at 4 players, features counted for any seat count: it plays to the end,
    and beats a random team."""
    config = SimulationConfig(games=2, players=players, bots=("td", "random"), seed=5)
    for index in range(2):
        game = play_game(config, index)
        assert game.winner_side == 0
