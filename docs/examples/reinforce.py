"""Train a seat of Pegs and Jokers with an actor-critic, numpy and Gymnasium's vector API; test it.

The agent plays one seat of a 4-player game against the library's ``random``
bots (its team-mate is one of them), through :class:`pegs_rules.rl.SingleSeatEnv`
run several at a time by ``gymnasium.vector.SyncVectorEnv``. Its policy (the
actor) is a softmax over the legal actions: action ``a`` scores
``W[a] @ x + b[a]`` for the observation vector ``x``, and only the rows of the
legal actions are ever read or changed, so the 16,115 x 349 weights cost no more
than the few actions legal in a position. The critic is a linear estimate of
how likely the agent's team is to win from an observation, ``v @ x + c``.
After every move, once the agent sees where it led (its next observation, or
the game's end: +1 for a win, -1 for a loss), the difference between that and
what the critic expected (the temporal-difference error) moves the critic
towards it and the move's chance up or down with it.

Usage: python docs/examples/reinforce.py [--minutes M] [--envs N] [--test-games G] [--seed S]
(M: CPU minutes of training, 10 by default)
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from pegs_rules.rl import ActionSpace, SingleSeatEnv, observation_size

PLAYERS = 4
Floats = npt.NDArray[np.float32]


@dataclass
class Policy:
    """A linear softmax policy over the legal actions, and a linear value baseline."""

    weights: Floats
    bias: Floats
    value: Floats
    rng: np.random.Generator

    @classmethod
    def new(cls, players: int = PLAYERS, seed: int = 0) -> Policy:
        actions, size = ActionSpace(players).size, observation_size(players)
        return cls(
            weights=np.zeros((actions, size), np.float32),
            bias=np.zeros(actions, np.float32),
            value=np.zeros(size + 1, np.float32),
            rng=np.random.default_rng(seed),
        )

    def probabilities(self, x: Floats, legal: npt.NDArray[np.intp]) -> Floats:
        """The chance of each legal action (in the order of ``legal``) in observation ``x``."""
        logits = self.weights[legal] @ x + self.bias[legal]
        logits -= logits.max()
        odds = np.exp(logits)
        result: Floats = odds / odds.sum()
        return result

    def act(self, x: Floats, mask: npt.NDArray[np.int8], greedy: bool = False) -> Step:
        """An action for observation ``x`` and action mask ``mask``, with what learning needs."""
        legal = np.flatnonzero(mask.view(np.bool_))
        chances = self.probabilities(x, legal)
        pick = int(chances.argmax()) if greedy else int(self.rng.choice(len(legal), p=chances))
        return Step(x, legal, chances, pick)

    def estimate(self, x: Floats) -> float:
        return float(self.value[:-1] @ x + self.value[-1])

    def learn(self, step: Step, surprise: float, rate: float, value_rate: float) -> None:
        """Move the critic and the chance of ``step``'s action by ``surprise``, the
        temporal-difference error of the move."""
        push = -step.chances * (rate * surprise)
        push[step.pick] += rate * surprise
        self.weights[step.legal] += np.outer(push, step.x)
        self.bias[step.legal] += push
        self.value[:-1] += value_rate * surprise * step.x
        self.value[-1] += value_rate * surprise


@dataclass
class Step:
    """One move of the agent: the observation, the legal actions, their chances, the choice."""

    x: Floats
    legal: npt.NDArray[np.intp]
    chances: Floats
    pick: int

    @property
    def action(self) -> int:
        return int(self.legal[self.pick])


@dataclass
class Training:
    """How training went: games finished, the agent's wins among them, the CPU time taken, and
    the share of the last 500 games won, every 250 games."""

    games: int = 0
    wins: int = 0
    seconds: float = 0.0
    history: list[tuple[int, float]] = field(default_factory=list)


def make_env() -> SingleSeatEnv:
    return SingleSeatEnv(players=PLAYERS, seat=0, bots="random")


def train(
    policy: Policy,
    *,
    seconds: float,
    envs: int = 8,
    seed: int = 0,
    rate: float = 0.02,
    value_rate: float = 0.005,
    discount: float = 0.99,
    max_steps: int | None = None,
) -> Training:
    """Train ``policy`` for ``seconds`` of CPU time (or ``max_steps`` vector steps) on ``envs``
    games at once."""
    vector = SyncVectorEnv([make_env] * envs, autoreset_mode=AutoresetMode.SAME_STEP)
    observations, _ = vector.reset(seed=seed)
    done = Training()
    began = time.process_time()
    steps = 0
    recent: list[float] = []
    while time.process_time() - began < seconds and (max_steps is None or steps < max_steps):
        moves = [
            policy.act(observations["observation"][i], observations["action_mask"][i])
            for i in range(envs)
        ]
        observations, rewards, terminated, truncated, _ = vector.step(
            np.array([move.action for move in moves])
        )
        steps += 1
        for i, move in enumerate(moves):
            ended = terminated[i] or truncated[i]
            later = 0.0 if ended else discount * policy.estimate(observations["observation"][i])
            surprise = float(rewards[i]) + later - policy.estimate(move.x)
            policy.learn(move, surprise, rate, value_rate)
            if ended:
                done.games += 1
                done.wins += rewards[i] > 0
                recent = [*recent[-499:], float(rewards[i] > 0)]
                if done.games % 250 == 0:
                    done.history.append((done.games, sum(recent) / len(recent)))
    vector.close()
    done.seconds = time.process_time() - began
    return done


def test(policy: Policy, games: int, seed: int = 1_000_000) -> int:
    """Games won by the agent's team out of ``games`` against random bots, the policy playing
    its most likely action; the deals come from seeds ``seed``, ``seed + 1``, ..."""
    env = gymnasium.wrappers.PassiveEnvChecker(make_env())
    wins = 0
    for game in range(games):
        observation, _ = env.reset(seed=seed + game)
        while True:
            move = policy.act(observation["observation"], observation["action_mask"], greedy=True)
            observation, reward, terminated, truncated, _ = env.step(move.action)
            if terminated or truncated:
                wins += float(reward) > 0
                break
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="training time (CPU minutes)")
    parser.add_argument("--envs", type=int, default=8, help="games stepped at once")
    parser.add_argument("--test-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    policy = Policy.new(seed=args.seed)
    wall = time.perf_counter()
    done = train(policy, seconds=args.minutes * 60, envs=args.envs, seed=args.seed)
    print(
        f"trained on {done.games} games in {done.seconds / 60:.1f} minutes of CPU "
        f"({(time.perf_counter() - wall) / 60:.1f} minutes on the clock); won {done.wins} of them"
    )
    for games, rate in done.history:
        print(f"  after {games:6d} games: won {rate:.0%} of the last {min(games, 500)}")
    wins = test(policy, args.test_games)
    print(
        f"test: won {wins} of {args.test_games} games against random bots ({wins / args.test_games:.0%})"
    )


if __name__ == "__main__":
    main()
