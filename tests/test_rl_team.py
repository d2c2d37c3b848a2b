"""Teams as one agent: whose turns it is asked for, the latest moves it is told, self-play."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

from pegs_rules import Discard, Move, Play, new_game, view
from pegs_rules.turn import apply

np = pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from played import shuffle_hidden  # noqa: E402

from pegs_rules.rl import SelfPlayEnv, TeamEnv, observation  # noqa: E402
from pegs_rules.rl.history import RECENT  # noqa: E402


def legal(seen: dict[str, Any]) -> list[int]:
    return [int(a) for a in np.flatnonzero(seen["action_mask"])]


def decoded(history: Any, me: int, players: int) -> list[tuple[int, int | None, str]]:
    """The plies a history vector names, most recent first: (seat, card, kind), read by the
    layout the docs give (1, the mover relative to ``me``, the card, the kind)."""
    size = 1 + players + 14 + 3
    out = []
    for i in range(RECENT):
        ply = history[i * size : (i + 1) * size]
        if not ply[0]:
            assert not ply.any()
            continue
        (relative,) = np.flatnonzero(ply[1 : 1 + players])
        cards = np.flatnonzero(ply[1 + players : 1 + players + 14])
        (kind,) = np.flatnonzero(ply[1 + players + 14 :])
        card = int(cards[0]) + 1 if len(cards) else None
        out.append(((me + int(relative)) % players, card, ("play", "discard", "pass")[kind]))
    return out


def described(seat: int, move: Move) -> tuple[int, int | None, str]:
    if isinstance(move, Play):
        return seat, int(move.card), "play"
    if isinstance(move, Discard):
        return seat, int(move.card), "discard"
    return seat, None, "pass"


@pytest.mark.parametrize(("players", "team", "opponents"), [(4, 0, "greedy"), (6, 1, "random")])
def test_the_agent_plays_its_own_team_and_sees_the_real_last_moves(
    players: int, team: int, opponents: str
) -> None:
    game = TeamEnv(players=players, team=team, opponents=opponents, max_turns=300)
    rng = random.Random(players)
    seen, info = game.reset(seed=11)
    asked = 0
    done = False
    while not done:
        state = game.game.game
        seat = info["seat"]
        assert seat == state.turn and seat % 2 == team  # never another team's seat
        # what it sees: that seat's view, whatever the hidden cards are
        hidden = shuffle_hidden(state, seat, rng)
        assert (seen["observation"] == observation(view(hidden, seat))).all()
        # the moves it is told are the game's: replayed from the deal, they make this state
        replayed = new_game(players, seed=11)
        for _, move in game.plies:
            replayed = apply(replayed, move)
        assert replayed == state
        told = decoded(seen["history"], seat, players)
        assert told == [described(s, m) for s, m in reversed(game.plies[-RECENT:])]
        asked += 1
        seen, reward, terminated, truncated, info = game.step(rng.choice(legal(seen)))
        done = terminated or truncated
    assert asked > 20
    assert (reward == (1.0 if game.game.game.winner == team else -1.0)) or truncated


def test_the_team_environment_passes_gymnasiums_checker() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", "^.*No render fps", UserWarning)
        made = gymnasium.make("pegs_rules.rl:PegsAndJokersTeam-v0", team=1, opponents="random")
        assert isinstance(made.unwrapped, TeamEnv) and made.unwrapped.team == 1
        check_env(made.unwrapped)


def test_an_illegal_action_ends_the_episode() -> None:
    game = TeamEnv(players=4)
    seen, _ = game.reset(seed=3)
    bad = int(np.flatnonzero(seen["action_mask"] == 0)[0])
    _, reward, terminated, _, info = game.step(bad)
    assert (reward, terminated) == (-1.0, True) and f"action {bad}" in info["illegal_action"]
    with pytest.raises(ValueError):
        TeamEnv(team=2)


def test_self_play_draws_a_frozen_opponent_for_each_game() -> None:
    calls: list[tuple[str, int]] = []

    def frozen(name: str, pick: int) -> Any:
        def policy(seen: dict[str, Any]) -> int:
            calls.append((name, game.game.game.turn))
            return legal(seen)[pick]

        return policy

    first, last = frozen("first", 0), frozen("last", -1)
    game = SelfPlayEnv([first], keep=2, players=4, team=0, max_turns=40)
    game.freeze(last)
    game.freeze(last)
    assert game.pool == [last, last]  # the oldest dropped beyond keep
    game.pool = [first, last]
    drawn = []
    for episode in range(12):
        calls.clear()
        seen, info = game.reset(seed=7 if episode == 0 else None)
        done = False
        while not done:
            assert info["seat"] % 2 == 0
            seen, _, terminated, truncated, info = game.step(legal(seen)[0])
            done = terminated or truncated
        names = {name for name, _ in calls}
        assert len(names) == 1 and all(seat % 2 == 1 for _, seat in calls)
        drawn.append(names.pop())
    assert set(drawn) == {"first", "last"}
    again = SelfPlayEnv([first, last], players=4, max_turns=1)
    assert [again.reset(seed=7 if i == 0 else None) and again.opponent for i in range(12)] == [
        first if name == "first" else last for name in drawn
    ]
