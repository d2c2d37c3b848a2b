"""A masked-PPO baseline: sb3-contrib's ``MaskablePPO`` trained to play a team against ``medium``.

The agent plays both seats of one team of a 4-player game (:class:`~pegs_rules.rl.TeamEnv`)
against two ``medium`` bots, seeing each seat's observation and the last moves (``observation``
and ``history``, concatenated) and choosing among the legal actions only (the mask). Reward: 1
for a win, -1 for a loss, at the game's end; with ``--reward shaped``, plus the potential-based
shaping of :class:`pegs_rules.rl.shaping.ShapedReward` at each decision (its discount PPO's,
``--gamma``, 0.995 unless told). Half the training environments play team 0, half team 1.

Seeds: ``--seed`` seeds torch, numpy and Python's generator (``MaskablePPO(seed=...)``);
training environment ``i`` is first dealt from seed ``TRAINING + i``, its later games from the
deals its generator draws (:func:`pegs_rules.rl.env.deals_after`); every bot's seed is a keyed
hash of its deal's seed (:func:`pegs_rules.rl.single.bot_seed`). The learning curve plays the
policy at each checkpoint on the fixed ``CURVE`` deals, the test on the ``TEST`` deals: both are
new to training, and the test deals are used once, by the final policy. In both the policy plays
its best legal action (:class:`pegs_rules.rl.mlp.MaskedMlp`, with numpy, from the weights
exported to ``--policy``), team 0 in even deals and team 1 in odd ones; the test plays the same
deals with a uniformly random legal action too, as an anchor.

Writes the results (``--json``): the commit, the versions, the command, the configuration, every
seed, the reward, the CPU time of training and of the test, the curve (each checkpoint's wins
and pegs brought home), the random anchor's games of the curve's deals, and each test game
(deal, team, winner, turns, the pegs the agent's team brought home, a digest of the agent's
actions) from which ``tests/test_rl_ppo.py`` replays games with numpy alone. ``--evaluate``
trains nothing: it plays the test again with the exported policy (the same games, or it stops)
and writes the test's part of the record anew, with the commit of the code that played it. Torch
runs on one thread; run it with ``nice``:

    nice -n 10 python tools/ppo_baseline.py --reward shaped --steps 350208 --seed 0 \
        --json docs/examples/results/ppo-shaped.json \
        --policy docs/examples/results/ppo-shaped.npz
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import random
import subprocess
import sys
import time
from functools import partial
from importlib.metadata import version
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from pegs_rules import __version__
from pegs_rules.board import is_home
from pegs_rules.rl import TeamEnv
from pegs_rules.rl.env import Observation
from pegs_rules.rl.mlp import MaskedMlp
from pegs_rules.rl.shaping import ShapedReward
from pegs_rules.rl.team import Policy
from pegs_rules.seeding import derive_seed
from pegs_rules.simulate import wilson

TRAINING = 1_000_000
"""Training environment ``i`` is first dealt from seed ``TRAINING + i``."""
CURVE = range(500_000, 500_100)
"""The deals of every checkpoint of the learning curve."""
TEST = range(400)
"""The test deals, played once, by the final policy."""
KEYS = ("observation", "history")
"""The observation entries the network reads, concatenated in this order."""
OPPONENTS = "medium"


class Flat(gymnasium.ObservationWrapper[npt.NDArray[np.float32], int, Observation]):
    """:class:`~pegs_rules.rl.TeamEnv` with the observation as one vector (:data:`KEYS`) and
    its mask kept for ``MaskablePPO`` (:meth:`action_masks`)."""

    def __init__(self, env: gymnasium.Env[Observation, int]) -> None:
        super().__init__(env)
        space = env.observation_space
        assert isinstance(space, gymnasium.spaces.Dict)
        size = sum(space[key].shape[0] for key in KEYS)
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, (size,), np.float32)
        self.mask: npt.NDArray[np.bool_] = np.zeros(space["action_mask"].shape, dtype=np.bool_)

    def observation(self, observation: Observation) -> npt.NDArray[np.float32]:
        self.mask = observation["action_mask"].astype(bool)
        return np.concatenate([observation[key] for key in KEYS])

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the observation last returned."""
        return self.mask


def environment(team: int, reward: str, gamma: float) -> Flat:
    """A training environment: ``team`` against ``medium``, rewarded as ``reward`` says."""
    env = TeamEnv(players=4, team=team, opponents=OPPONENTS)
    return Flat(env if reward == "terminal" else ShapedReward(env, gamma))


def play(deal: int, policy: Policy) -> dict[str, Any]:
    """The game dealt from ``deal``, ``policy`` playing team ``deal % 2`` against ``medium``:
    its record (see the module docstring)."""
    team = deal % 2
    env = TeamEnv(players=4, team=team, opponents=OPPONENTS)
    observation, _ = env.reset(seed=deal)
    actions = []
    done = False
    while not done:
        action = policy(observation)
        actions.append(action)
        observation, _, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
    state = env.game.game
    return {
        "deal": deal,
        "team": team,
        "winner": state.winner,
        "turns": state.ply,
        "home": sum(is_home(peg) for seat in range(team, 4, 2) for peg in state.pegs[seat]),
        "actions": digest(actions),
    }


def digest(actions: list[int]) -> str:
    """A short digest of the agent's actions in a game, in order."""
    return hashlib.sha256(" ".join(map(str, actions)).encode()).hexdigest()[:16]


def randomly(deal: int) -> Policy:
    """A uniformly random legal action, from a generator keyed by ``deal``."""
    rng = random.Random(derive_seed(deal, "ppo baseline", "random"))

    def choose(observation: Observation) -> int:
        return int(rng.choice(np.flatnonzero(observation["action_mask"].view(bool))))

    return choose


def export(model: MaskablePPO) -> MaskedMlp:
    """The acting part of ``model``'s policy (its policy layers and action head), in numpy."""
    modules = [*model.policy.mlp_extractor.policy_net, model.policy.action_net]
    layers = tuple(
        (
            linear.weight.detach().numpy().astype(np.float64),
            linear.bias.detach().numpy().astype(np.float64),
        )
        for linear in modules
        if isinstance(linear, torch.nn.Linear)
    )
    return MaskedMlp(KEYS, layers)


def save(policy: MaskedMlp, path: str) -> None:
    arrays: dict[str, Any] = {"keys": np.array(policy.keys)}
    for i, (weight, bias) in enumerate(policy.layers):
        arrays[f"weight{i}"] = weight.astype(np.float32)
        arrays[f"bias{i}"] = bias.astype(np.float32)
    np.savez_compressed(path, **arrays)


def games(records: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The games of ``records``, each as deal, team, winner, turns and actions."""
    return [
        tuple(g[key] for key in ("deal", "team", "winner", "turns", "actions")) for g in records
    ]


def won(records: list[dict[str, Any]]) -> int:
    """The games of ``records`` that the agent's team won."""
    return sum(game["winner"] == game["team"] for game in records)


class Curve:
    """The callback of ``MaskablePPO.learn``: every ``every`` steps, plays the policy on the
    :data:`CURVE` deals; counts the games trained on, and the CPU time of training apart from
    that of the checkpoints."""

    def __init__(self, model: MaskablePPO, every: int) -> None:
        self.model = model
        self.every = every
        self.points: list[dict[str, Any]] = []
        self.started = time.process_time()
        self.checking = 0.0
        self.games = 0

    def training_seconds(self) -> float:
        return time.process_time() - self.started - self.checking

    def __call__(self, seen: dict[str, Any], _: dict[str, Any]) -> bool:
        """After each step of the vector of environments (``seen``: the learner's locals)."""
        self.games += int(np.sum(seen["dones"]))
        if self.model.num_timesteps % self.every == 0:
            self.check()
        return True

    def check(self) -> None:
        began = time.process_time()
        spent = self.training_seconds()
        policy = export(self.model)
        played = [play(deal, policy) for deal in CURVE]
        wins, home = won(played), sum(game["home"] for game in played)
        steps = self.model.num_timesteps
        self.points.append(
            {
                "steps": steps,
                "games": self.games,
                "cpu_seconds": round(spent, 1),
                "wins": wins,
                "home": home,
                "deals": len(CURVE),
            }
        )
        print(
            f"{steps:8d} steps, {self.games:5d} games, {spent / 60:5.1f} CPU min: "
            f"won {wins} of {len(CURVE)}, {home / len(CURVE):.2f} pegs home a game",
            flush=True,
        )
        self.checking += time.process_time() - began


def agreement(model: MaskablePPO, policy: MaskedMlp, deals: range) -> tuple[int, int]:
    """How many of the agent's decisions in ``deals`` torch's deterministic choice and numpy's
    agree on (the policy playing them), of how many."""
    agreed = total = 0

    def both(observation: Observation) -> int:
        nonlocal agreed, total
        chosen = policy(observation)
        flat = np.concatenate([observation[key] for key in KEYS])
        mask = observation["action_mask"].astype(bool)
        action, _ = model.predict(flat, action_masks=mask, deterministic=True)
        agreed += int(action) == chosen
        total += 1
        return chosen

    for deal in deals:
        play(deal, both)
    return agreed, total


def commit() -> str:
    """The commit of the code run, with ``-dirty`` if the tree has changes."""
    return subprocess.run(
        ["git", "describe", "--always", "--dirty", "--abbrev=40"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def evaluate(policy: MaskedMlp, code: str) -> dict[str, Any]:
    """The test: ``policy`` and the random anchor on the :data:`TEST` deals, with the commit
    of the code that played them."""
    began = time.process_time()
    test = [play(deal, policy) for deal in TEST]
    testing = time.process_time() - began
    return {
        "test_commit": code,
        "test_command": command(),
        "test_cpu_seconds": round(testing, 1),
        "test": test,
        "random": anchor(TEST),
    }


def anchor(deals: range) -> list[dict[str, Any]]:
    """The games of ``deals`` played by a uniformly random legal action (:func:`randomly`)."""
    played = (play(deal, randomly(deal)) for deal in deals)
    return [{key: g[key] for key in ("deal", "team", "winner", "turns", "home")} for g in played]


def command() -> str:
    return " ".join(["python", *sys.argv])


def train(args: argparse.Namespace, code: str) -> dict[str, Any]:
    """Train, export the policy to ``args.policy``, test it: the record."""
    torch.set_num_threads(1)
    config: dict[str, Any] = {
        "n_steps": 512,
        "batch_size": 256,
        "n_epochs": 4,
        "learning_rate": 3e-4,
        "gamma": args.gamma,
        "gae_lambda": 0.95,
        "clip_range": 0.2,
        "ent_coef": 0.01,
        "vf_coef": 0.5,
        "max_grad_norm": 0.5,
        "net_arch": [64, 64],
        "activation": "tanh",
        "action_head_init": "zero",
    }
    envs = DummyVecEnv(
        [partial(environment, i % 2, args.reward, config["gamma"]) for i in range(args.envs)]
    )
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=config["n_steps"],
        batch_size=config["batch_size"],
        n_epochs=config["n_epochs"],
        learning_rate=config["learning_rate"],
        gamma=config["gamma"],
        gae_lambda=config["gae_lambda"],
        clip_range=config["clip_range"],
        ent_coef=config["ent_coef"],
        vf_coef=config["vf_coef"],
        max_grad_norm=config["max_grad_norm"],
        policy_kwargs={"net_arch": config["net_arch"], "activation_fn": torch.nn.Tanh},
        seed=args.seed,
        device="cpu",
    )
    # A zero action head: every legal action equally likely at first, and the rows of actions
    # never legal in training stay equal to one another (within 1e-9 of zero in the first run),
    # so the exported file compresses well.
    with torch.no_grad():
        for parameter in model.policy.action_net.parameters():
            parameter.zero_()
    envs.seed(TRAINING)  # environment i: TRAINING + i
    rollout = config["n_steps"] * args.envs
    every = max(rollout, args.steps // args.checkpoints // rollout * rollout)
    curve = Curve(model, every)
    curve.check()
    model.learn(total_timesteps=args.steps, callback=curve)
    if curve.points[-1]["steps"] != model.num_timesteps:
        curve.check()
    training = curve.training_seconds()
    save(export(model), args.policy)
    policy = MaskedMlp.load(args.policy)
    agreed, decisions = agreement(model, policy, range(600_000, 600_010))
    return {
        "commit": code,
        "pegs_rules": __version__,
        "versions": {
            name: version(name)
            for name in ("torch", "sb3-contrib", "stable-baselines3", "gymnasium", "numpy")
        },
        "python": platform.python_version(),
        "command": command(),
        "players": 4,
        "opponents": OPPONENTS,
        "seed": args.seed,
        "envs": args.envs,
        "training_deals": [TRAINING, TRAINING + args.envs],
        "curve_deals": [CURVE.start, CURVE.stop],
        "test_deals": [TEST.start, TEST.stop],
        "reward": args.reward,
        "curve_random": anchor(CURVE),
        "steps": model.num_timesteps,
        "games": curve.games,
        "config": config,
        "cpu_seconds": round(training, 1),
        "agreement": [agreed, decisions],
        "curve": curve.points,
        **evaluate(policy, code),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=350_208, help="training steps (decisions)")
    parser.add_argument("--checkpoints", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument(
        "--gamma",
        type=float,
        default=0.995,
        help="the discount, PPO's and the shaping's (1: undiscounted)",
    )
    parser.add_argument(
        "--reward",
        choices=("terminal", "shaped"),
        default="terminal",
        help="the game's result alone, or with potential-based shaping (pegs_rules.rl.shaping)",
    )
    parser.add_argument("--json", required=True, help="write the results here")
    parser.add_argument("--policy", required=True, help="export the policy's weights here")
    parser.add_argument(
        "--evaluate",
        action="store_true",
        help="train nothing: test the policy exported to --policy again, into the --json record",
    )
    args = parser.parse_args()
    code = commit()  # before training: the tree may change while it runs
    path = Path(args.json)
    if args.evaluate:
        record = json.loads(path.read_text(encoding="utf-8"))
        again = evaluate(MaskedMlp.load(args.policy), code)
        if games(again["test"]) != games(record["test"]):
            raise SystemExit(f"{args.policy} no longer plays the test games of {args.json}")
        record.update(again)
    else:
        record = train(args, code)
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    test = record["test"]
    wins = won(test)
    low, high = wilson(wins, len(test))
    print(
        f"trained {record['steps']} steps ({record['games']} games) in "
        f"{record['cpu_seconds'] / 60:.1f} CPU minutes; numpy and torch agreed on "
        f"{record['agreement'][0]} of {record['agreement'][1]} decisions\n"
        f"test: won {wins} of {len(test)} new deals against {OPPONENTS} "
        f"({wins / len(test):.1%}, 95% interval [{low:.1%}, {high:.1%}]); "
        f"random: won {won(record['random'])}"
    )


if __name__ == "__main__":
    main()
