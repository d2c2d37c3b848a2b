"""The standard entry points: Gymnasium's registry and OpenSpiel's game (the ``openspiel`` extra)."""

from __future__ import annotations

import json
import random
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pegs_rules import ARIZONA, view
from pegs_rules.cards import build_deck
from pegs_rules.rules import STANDARD, Rules
from pegs_rules.simulate import wilson
from pegs_rules.state import GameState

DOCS = Path(__file__).parent.parent / "docs"
MATCH = DOCS / "examples" / "results" / "openspiel-ismcts.json"

pytest.importorskip("gymnasium", reason="the rl extra is not installed")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from pegs_rules.rl import SingleSeatEnv, observation  # noqa: E402


def test_gymnasium_makes_the_environment_by_module_and_id() -> None:
    made = gymnasium.make("pegs_rules.rl:PegsAndJokers-v0", players=6, bots="random")
    assert isinstance(made.unwrapped, SingleSeatEnv)
    assert made.unwrapped.game.players == 6
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker warns of what it finds wrong
        # but for a frame rate, which text rendering (render_mode "ansi") has none of
        warnings.filterwarnings("ignore", "^.*No render fps", UserWarning)
        check_env(made.unwrapped)
    plain = gymnasium.make("PegsAndJokers-v0")  # registered by importing pegs_rules.rl
    assert plain.spec is not None and plain.spec.entry_point == "pegs_rules.rl.single:SingleSeatEnv"
    first, _ = plain.reset(seed=5)
    again, _ = gymnasium.make("PegsAndJokers-v0").reset(seed=5)
    assert (first["observation"] == again["observation"]).all()


pyspiel: Any = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install 'pegs-rules[openspiel]')"
)

from pegs_rules.rl.history import ply_size, recent_plies  # noqa: E402
from pegs_rules.rl.openspiel import PegsAndJokersState, resample  # noqa: E402


def deck(rules: Rules, players: int) -> Counter[int]:
    return Counter(build_deck(*rules.deck_for(players)))


def at(state: PegsAndJokersState) -> GameState:
    """The position of a player node."""
    assert state.state is not None
    return state.state


def random_game(
    players: int, seed: int, plies: int, preset: str = "arizona"
) -> list[PegsAndJokersState]:
    """The player nodes of a game played at random for ``plies`` moves."""
    game = pyspiel.load_game("python_pegs_and_jokers", {"players": players, "preset": preset})
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen: list[PegsAndJokersState] = []
    while not state.is_terminal() and len(seen) < plies:
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            assert sum(chances) == pytest.approx(1.0)
            state.apply_action(rng.choices(outcomes, chances)[0])
        else:
            seen.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return seen


@pytest.mark.parametrize("players", [4, 6, 8])
def test_openspiel_random_simulations(players: int) -> None:
    game = pyspiel.load_game("python_pegs_and_jokers", {"players": players, "max_turns": 80})
    # OpenSpiel's own checks: legal actions, chance, returns, observations, serialization
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    assert game.num_players() == players
    assert game.max_chance_outcomes() == 14


def test_the_deal_is_chance_card_by_card() -> None:
    game = pyspiel.load_game("python_pegs_and_jokers", {"players": 4, "preset": "standard"})
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(seat, 0.25) for seat in range(4)]
    state.apply_action(3)  # seat 3 deals: seat 0 is dealt first and draws the extra card
    full = deck(STANDARD, 4)
    assert dict(state.chance_outcomes()) == {
        rank - 1: count / sum(full.values()) for rank, count in full.items()
    }
    rng = random.Random(2)
    dealt = []
    while state.is_chance_node():
        outcome = rng.choice([o for o, _ in state.chance_outcomes()])
        dealt.append(outcome + 1)
        state.apply_action(outcome)
    assert len(dealt) == 5 * 4 + 1
    position = at(state)
    assert position.turn == 0 and position.dealer == 3
    for seat in range(4):
        mine = dealt[seat:20:4] + ([dealt[20]] if seat == 0 else [])
        assert sorted(position.hands[seat]) == sorted(mine)
    left = full - Counter(dealt)
    assert Counter(position.draw_pile) == left


@pytest.mark.parametrize(
    ("players", "preset", "plies"), [(4, "arizona", 200), (6, "standard", 50), (8, "arizona", 40)]
)
def test_cards_are_conserved_and_hidden(players: int, preset: str, plies: int) -> None:
    rules = ARIZONA if preset == "arizona" else STANDARD
    states = random_game(players, seed=players, plies=plies, preset=preset)
    full = deck(rules, players)
    for state in states:
        position = at(state)
        held = sum((Counter(hand) for hand in position.hands), Counter())
        assert held + Counter(position.draw_pile) + Counter(position.discard_pile) == full
        for seat in {position.turn, (position.ply * 7) % players}:
            assert state.observation_tensor(seat) == pytest.approx(
                observation(view(position, seat)).tolist()
            )
        me = position.turn
        story = state.information_state_string(me)
        for other in range(players):
            if other != me:
                assert f"seat {other} is dealt" not in story
                assert f"seat {other} draws" not in story
    assert at(states[-1]).reshuffles > 0 or players > 4  # draws from a reshuffled pile too


def test_the_information_state_holds_the_latest_moves() -> None:
    states = random_game(4, seed=9, plies=30)
    last = states[-1]
    me = at(last).turn
    tensor = last.information_state_tensor(me)
    recent = recent_plies(last.plies, me, 4)
    assert tensor[-len(recent) :] == pytest.approx(recent.tolist())
    size = ply_size(4)
    mover, move = last.plies[-1]
    newest = recent[:size]
    assert newest[0] == 1.0 and newest[1 + (mover - me) % 4] == 1.0
    assert states[0].information_state_tensor(at(states[0]).turn)[-len(recent) :] == [0.0] * len(
        recent
    )
    assert str(move) in last.information_state_string(me).splitlines()[-1]


def test_resample_keeps_what_the_player_knows() -> None:
    state = random_game(4, seed=4, plies=25)[-1]
    me = at(state).turn
    rng = random.Random(0)
    worlds = [resample(state, me, rng) for _ in range(20)]
    for world in worlds:
        assert at(world).hands[me] == at(state).hands[me]
        assert [len(h) for h in at(world).hands] == [len(h) for h in at(state).hands]
        assert at(world).discard_pile == at(state).discard_pile
        assert world.legal_actions() == state.legal_actions()
        assert world.information_state_string(me) == state.information_state_string(me)
    assert len({at(world).hands[(me + 1) % 4] for world in worlds}) > 1


def test_ismcts_plays_through_the_game() -> None:
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

    game = pyspiel.load_game("python_pegs_and_jokers", {"players": 4, "max_turns": 12})
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        1.4,
        20,
        random_state=np.random.RandomState(0),
        allow_inconsistent_action_sets=True,
    )
    rng = random.Random(3)
    bot.set_resampler(lambda state, player: resample(state, player, rng))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, chances)[0])
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert at(state).ply == 12 and state.returns() == [0.0] * 4


def test_the_page_reports_the_recorded_ismcts_match() -> None:
    record = json.loads(MATCH.read_text(encoding="utf-8"))
    game = pyspiel.load_game("python_pegs_and_jokers", {"players": record["players"]})
    wins = 0
    for played in record["games"]:
        state = game.new_initial_state()
        for action in played["actions"]:
            assert action in (
                [o for o, _ in state.chance_outcomes()]
                if state.is_chance_node()
                else state.legal_actions()
            )
            state.apply_action(action)
        assert state.is_terminal() and at(state).winner == played["winner"]
        wins += played["winner"] == played["ismcts_team"]
    games = len(record["games"])
    assert [p["ismcts_team"] for p in record["games"]] == [g % 2 for g in range(games)]
    low, high = wilson(wins, games)
    said = (
        f"IS-MCTS won {wins} of {games} games against {record['bot']} "
        f"({wins / games:.1%}, 95% interval [{low:.1%}, {high:.1%}]) in "
        f"{record['cpu_seconds'] / 60:.0f} CPU minutes"
    )
    page = " ".join((DOCS / "rl.rst").read_text(encoding="utf-8").split())
    assert said in page
