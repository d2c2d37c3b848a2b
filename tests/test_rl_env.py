"""The PettingZoo and Gymnasium environments: PettingZoo's own tests, seeding, rewards, hidden cards."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace
from functools import partial
from typing import Any

import pytest

from pegs_rules import (
    ARIZONA,
    CardDiscarded,
    CardPlayed,
    CardsDrawn,
    Event,
    Passed,
    Rank,
    apply_with_events,
    new_game,
    redact,
    view,
)
from pegs_rules.rules import STANDARD, Nine

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]  # noqa: E402
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]  # noqa: E402
from played import shuffle_hidden  # noqa: E402

from pegs_rules.rl import ActionError, SingleSeatEnv, env, observation, raw_env  # noqa: E402
from pegs_rules.rl.env import deals_after  # noqa: E402


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # a dict is PettingZoo's own
@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 4},
        {"players": 6, "rules": "standard"},
        {"players": 8, "rules": replace(ARIZONA, two_swap=True, nine=Nine.FORWARD_BACKWARD)},
    ],
)
def test_pettingzoo_api(kwargs: dict[str, object]) -> None:
    api_test(env(**kwargs), num_cycles=60)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(players=4), num_cycles=100)


def test_seeded_games_ignore_the_global_generators() -> None:
    def run() -> list[tuple[str, bytes, float]]:
        game = raw_env(players=6)
        game.reset(seed=7)
        rng = random.Random(1)
        trace = []
        for agent in game.agent_iter(300):
            obs, reward, terminated, truncated, _ = game.last()
            trace.append((agent, obs["observation"].tobytes(), reward))
            if terminated or truncated:
                game.step(None)
                continue
            game.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        return trace

    first = run()
    random.seed(99)
    np.random.seed(99)
    random.random()
    np.random.random()
    assert run() == first
    game = raw_env(players=4, rules="standard")
    game.reset(seed=7)
    assert game.game == new_game(4, seed=7, rules=STANDARD)
    game.reset()  # the next deal, drawn from seed 7
    assert game.game == new_game(4, seed=deals_after(7).getrandbits(64), rules=STANDARD)


def test_parallel_environments_never_replay_each_others_deals() -> None:
    """A vector of 8 games seeded 0..7, each dealt 100 times (by the vector's own autoreset
    when a game ends): 800 different deals, and the same 800 when run again."""

    def deals() -> list[tuple[object, ...]]:
        games = SyncVectorEnv(
            [lambda: SingleSeatEnv(players=4, bots="random", max_turns=4)] * 8,
            autoreset_mode=AutoresetMode.SAME_STEP,
        )
        seen: list[list[tuple[object, ...]]] = [[] for _ in range(8)]

        def note() -> None:
            for i, single in enumerate(games.envs):
                state = single.unwrapped.game.game  # type: ignore[attr-defined]
                if not seen[i] or seen[i][-1][0] != state.seed:
                    seen[i].append((state.seed, state.dealer, state.hands))

        masks = games.reset(seed=0)[0]["action_mask"]
        note()
        while min(map(len, seen)) < 100:  # a game is truncated after its 4th turn
            masks = games.step(masks.view(bool).argmax(axis=1))[0]["action_mask"]
            note()
        games.close()
        return [deal for dealt in seen for deal in dealt[:100]]

    first = deals()
    assert len(first) == 800 and len({deal[1:] for deal in first}) == 800
    assert deals() == first


def test_pettingzoo_environments_seeded_apart_never_meet() -> None:
    seeds = set()
    for start in range(8):
        game = raw_env(players=4)
        game.reset(seed=start)
        for _ in range(100):
            seeds.add(game.game_seed)
            game.reset()
    assert len(seeds) == 800


def test_a_whole_game_rewards_the_winning_team() -> None:
    game = raw_env(players=4)
    game.reset(seed=3)
    rng = random.Random(3)
    total = dict.fromkeys(game.possible_agents, 0.0)
    turns = 0
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, _ = game.last()
        total[agent] += reward
        if terminated or truncated:
            game.step(None)
            continue
        mask = obs["action_mask"]
        legal = game.legal_moves()
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(legal)
        for other in game.possible_agents:
            if other != agent:
                assert not game.observe(other)["action_mask"].any()
        game.step(rng.choice(sorted(legal)))
        turns += 1
    assert not game.agents
    winner = game.game.winner
    assert winner is not None and turns == game.game.ply
    assert total == {f"player_{s}": 1.0 if s % 2 == winner else -1.0 for s in range(4)}


def test_truncation() -> None:
    game = raw_env(players=4, max_turns=10)
    game.reset(seed=1)
    for _agent in game.agent_iter():
        obs, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            assert truncated and not terminated and game.game.ply == 10
            game.step(None)
            continue
        game.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert not game.agents and game.rewards == {}


def test_observations_hold_nothing_hidden() -> None:
    rng = random.Random(5)
    for players in (4, 6, 8):
        for preset in (ARIZONA, STANDARD):
            game = raw_env(players=players, rules=preset)
            game.reset(seed=players)
            for _ in range(40):  # some way into the game
                game.step(rng.choice(sorted(game.legal_moves())))
            state = game.game
            for seat, agent in enumerate(game.possible_agents):
                mine = game.observe(agent)
                np.testing.assert_array_equal(mine["observation"], observation(view(state, seat)))
                other = shuffle_hidden(state, seat, rng)
                assert other.hands != state.hands or other.draw_pile != state.draw_pile
                game.game = other
                theirs = game.observe(agent)
                game.game = state
                np.testing.assert_array_equal(mine["observation"], theirs["observation"])
                np.testing.assert_array_equal(mine["action_mask"], theirs["action_mask"])


def test_observation_values() -> None:
    state = new_game(4, seed=1)
    seat = state.turn
    vector = observation(view(state, seat))
    assert vector.dtype == np.float32 and vector.min() >= 0 and vector.max() <= 1
    starts = 4 * 72 + 4 * 5
    assert vector[starts : starts + 4].tolist() == [1.0] * 4  # every peg in start
    hand = vector[starts + 4 : starts + 4 + 14]
    for rank in Rank:
        assert hand[rank - 1] == pytest.approx(state.hands[seat].count(rank) / 6)
    assert vector[-4:].tolist() == [1.0, 0.0, 0.0, 0.0]  # the observer is to act


def test_an_illegal_action() -> None:
    game = raw_env(players=4)
    game.reset(seed=2)
    legal = game.legal_moves()
    bad = next(a for a in range(game.actions.size) if a not in legal)
    with pytest.raises(ActionError, match=f"action {bad}"):
        game.step(bad)
    with pytest.raises(ActionError, match="None is no action"):
        game.step(None)
    for junk in ("7", 1.5, [3]):
        with pytest.raises(ActionError, match="not an action"):
            game.step(junk)  # type: ignore[arg-type]
    wrapped = env(players=4)
    wrapped.reset(seed=2)
    agent = wrapped.agent_selection
    with pytest.raises(ActionError, match="not an action"):
        wrapped.step(game.actions.size)
    wrapped.step(bad)  # the game ends, the agent that chose loses
    assert wrapped.terminations[agent] and wrapped.rewards[agent] == -1
    assert f"action {bad}" in wrapped.infos[agent]["illegal_action"]


def ends_after_an_illegal_action(game: Any) -> list[tuple[str, float, bool, bool]]:
    """What each agent is told, from an illegal action at the 5th turn to the end."""
    game.reset(seed=4)
    told = []
    for turn, agent in enumerate(game.agent_iter()):
        obs, reward, terminated, truncated, _ = game.last()
        if turn >= 4:
            told.append((agent, reward, terminated, truncated))
        if terminated or truncated:
            game.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            game.step(
                int(legal[0]) if turn != 4 else int(np.flatnonzero(obs["action_mask"] == 0)[0])
            )
    return told


@pytest.mark.filterwarnings("ignore:.*[Ii]llegal move")
def test_env_ends_a_game_as_pettingzoos_wrappers_do() -> None:
    """env() checks actions itself, for speed; what the agents are told is what PettingZoo's
    own wrappers would tell them."""
    theirs = wrappers.OrderEnforcingWrapper(
        wrappers.AssertOutOfBoundsWrapper(
            wrappers.TerminateIllegalWrapper(raw_env(players=4), illegal_reward=-1)
        )
    )
    told = ends_after_an_illegal_action(env(players=4))
    assert told == ends_after_an_illegal_action(theirs)
    chooser = told[0][0]
    assert sorted(told[1:]) == [
        (f"player_{seat}", -1.0 if f"player_{seat}" == chooser else 0.0, True, True)
        for seat in range(4)
    ]


def test_render_and_bad_arguments() -> None:
    game = raw_env(players=4, render_mode="ansi")
    game.reset(seed=1)
    board = game.render()
    assert board is not None and "seat 0" in board
    assert raw_env(players=4).render() is None
    with pytest.raises(ValueError):
        raw_env(players=5)
    with pytest.raises(ValueError):
        raw_env(players=4, render_mode="human")
    with pytest.raises(ValueError):
        raw_env(players=4, rules="chess")


def test_single_seat_against_bots() -> None:
    game = SingleSeatEnv(players=4, seat=1, bots="greedy,random")
    check_env(game, skip_render_check=True)
    outcomes = []
    for seed in (1, 2):
        obs, _ = game.reset(seed=seed)
        assert game.game.game.turn == 1
        rng = random.Random(seed)
        done = False
        reward = 0.0
        steps = 0
        while not done:
            action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            obs, reward, terminated, truncated, _ = game.step(action)
            done = terminated or truncated
            steps += 1
        state = game.game.game
        assert terminated and reward == (1.0 if state.winner == 1 else -1.0)
        outcomes.append((steps, state.ply, state.winner))
    again = []
    for seed in (1, 2):
        obs, _ = game.reset(seed=seed)
        rng = random.Random(seed)
        steps = 0
        while True:
            action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            obs, reward, terminated, truncated, _ = game.step(action)
            steps += 1
            if terminated or truncated:
                break
        again.append((steps, game.game.game.ply, game.game.game.winner))
    assert again == outcomes
    obs, _ = game.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = game.step(bad)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert f"action {bad}" in info["illegal_action"]
    with pytest.raises(ValueError):
        SingleSeatEnv(seat=4)
    with pytest.raises(ValueError):
        SingleSeatEnv(bots="clever")


def test_the_core_imports_no_optional_dependency() -> None:
    code = (
        "import sys, pegs_rules, pegs_rules.cli, pegs_rules.simulate, pegs_rules.cluster\n"
        "extra = {'numpy', 'pettingzoo', 'gymnasium', 'dask', 'distributed', 'matplotlib'}\n"
        "print(sorted(extra & {name.split('.')[0] for name in sys.modules}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"


def test_history_tells_each_agent_every_turn_as_its_seat_sees_it() -> None:
    plain, game = raw_env(players=4), raw_env(players=4, history=True)
    plain.reset(seed=6)
    game.reset(seed=6)
    since: dict[str, list[Event]] = {agent: [] for agent in game.possible_agents}
    acted: set[str] = set()
    rng = random.Random(6)
    while not game.game.is_over and game.game.ply < 200:
        agent = game.agent_selection
        assert game.infos[agent]["events"] == since[agent]
        for name in game.possible_agents:  # from the deal until its first turn
            assert game.infos[name]["new_game"] is (name not in acted)
        action = rng.choice(sorted(game.legal_moves()))
        events = apply_with_events(game.game, game.legal_moves()[action])[1]
        game.step(action)
        plain.step(action)
        assert game.game == plain.game  # the same game, told or not
        since[agent] = []  # from its own turn on
        acted.add(agent)
        for seat, name in enumerate(game.possible_agents):
            since[name] += redact(events, seat)
    for seat, agent in enumerate(game.possible_agents):
        heard = game.infos[agent]["events"]
        assert heard == since[agent]
        turns = [e.seat for e in heard if isinstance(e, (CardPlayed, CardDiscarded, Passed))]
        assert turns == [(seat + k) % 4 for k in range(len(turns))]  # its own, then the next
        for event in heard:
            if isinstance(event, CardsDrawn):  # only its own draws show their cards
                assert (event.cards is None) == (event.seat != seat)


def test_history_starts_again_with_each_game() -> None:
    game = raw_env(players=4, history=True)
    for seed in (3, None):  # a seed given, then the next deal of its own
        game.reset(seed=seed)
        assert all(
            game.infos[agent] == {"events": [], "new_game": True} for agent in game.possible_agents
        )
        for _ in range(6):  # every agent acts, and hears of more than its own turns
            game.step(min(game.legal_moves()))
        assert all(game.infos[agent]["new_game"] is False for agent in game.possible_agents)
        assert all(game.infos[agent]["events"] for agent in game.possible_agents)


def test_one_seat_is_told_when_a_game_begins() -> None:
    """In a vector that deals again as soon as a game ends, a row's info says that a game begins
    exactly when its last one ended (and after the first reset): when the agent should forget."""
    games = SyncVectorEnv(
        [
            partial(SingleSeatEnv, players=4, seat=0, bots="random", max_turns=10, history=True)
            for _ in range(4)
        ],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    observations, infos = games.reset(seed=11)
    assert infos["new_game"].tolist() == [True] * 4
    ended = 0
    for _ in range(12):
        actions = [int(np.flatnonzero(mask)[0]) for mask in observations["action_mask"]]
        observations, _, terminated, truncated, infos = games.step(np.array(actions))
        assert infos["new_game"].tolist() == (terminated | truncated).tolist()
        ended += int((terminated | truncated).sum())
    games.close()
    assert ended >= 8  # each row's games end after 10 turns: at least two a row


def test_one_seat_hears_the_bots_turns() -> None:
    single = SingleSeatEnv(players=4, seat=0, bots="greedy", history=True)
    observation, info = single.reset(seed=5)
    state = single.game.game
    played = [e for e in info["events"] if isinstance(e, (CardPlayed, CardDiscarded, Passed))]
    assert [e.seat for e in played] == [(state.dealer + 1 + k) % 4 for k in range(state.ply)]
    action = int(np.flatnonzero(observation["action_mask"])[0])
    _, _, _, _, info = single.step(action)
    assert (
        isinstance(info["events"][0], (CardPlayed, CardDiscarded)) and info["events"][0].seat == 0
    )
    assert SingleSeatEnv(players=4, bots="greedy").reset(seed=5)[1] == {}
