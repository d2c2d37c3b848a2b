"""A bot's seed tells it nothing of the deal: no value a seeded bot holds (its seed, the seeds of
the other seats' bots) rebuilds the deal by new_game of it or of simple arithmetic on it, in
``pegs simulate`` and in the RL environment that plays one seat against bots; the old formula,
kept to replay the committed records, fails the same search (so the search has teeth)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations

import pytest

from pegs_rules import new_game
from pegs_rules.seeding import derive_seed
from pegs_rules.simulate import DEALS_PER_SEED, SimulationConfig, play_game

MASK = (1 << 32, 1 << 64, 1 << 128)


def simple_functions(values: tuple[int, ...]) -> Iterator[int]:
    """Numbers an agent holding ``values`` might try as the deal's seed: each value, shifted,
    divided, reduced and offset by small numbers (a seat, a swap), and sums, differences and
    exclusive ors of two of them."""
    for value in values:
        for offset in range(-17, 18):
            base = value + offset
            yield base
            for divisor in (2, 4, 8, 16, 32, 64, 100, 1000, DEALS_PER_SEED):
                yield base // divisor
                yield base % divisor
            for shift in range(1, 129):
                yield base >> shift
            for mask in MASK:
                yield base % mask
    for a, b in permutations(values, 2):
        yield from (a - b, a + b, a ^ b, (a - b) // 16, (a + b) // 2)


def rebuilds(deal: int, values: tuple[int, ...], players: int) -> list[int]:
    """The simple functions of ``values`` that equal ``deal`` or deal its game."""
    target = new_game(players, seed=deal)
    candidates = set(simple_functions(values))
    found = [c for c in candidates if c == deal]
    # every candidate dealt would take minutes; those near the deal's range are the plausible
    # ones (a run's deals are small numbers unless its seed is secret), and any collision of
    # games between other seeds would show here too
    near = [c for c in candidates if 0 <= c < 1 << 40][:2000]
    found += [c for c in near if c != deal and new_game(players, seed=c).hands == target.hands]
    return found


@pytest.mark.parametrize("index", [0, 1, 6])
def test_no_simple_function_of_a_simulations_bot_seeds_rebuilds_the_deal(index: int) -> None:
    config = SimulationConfig(games=8, players=4, bots=("greedy", "random"), seed=1)
    deal = config.game_seed(index)
    seeds = config.bot_seeds(index)
    assert len(set(seeds)) == 4
    assert rebuilds(deal, seeds, 4) == []
    for seed in seeds:  # alone, each seed a bot is handed
        assert rebuilds(deal, (seed,), 4) == []
    assert play_game(config, index).bot_seeds == seeds  # the seeds the bots were made with


def test_the_arithmetic_seeding_gives_the_deal_away() -> None:
    """The formula of the committed strength records: a bot's seed divided by 32 is the deal's
    seed. Kept only to replay those records (no agent to be trusted sat in them)."""
    config = SimulationConfig(games=2, bots=("greedy", "random"), seed=1, seeding="arithmetic")
    deal = config.game_seed(1)
    assert [seed // 32 for seed in config.bot_seeds(1)] == [deal] * 4
    assert deal in rebuilds(deal, config.bot_seeds(1)[2:3], 4)


def test_keyed_seeds_differ_by_seat_swap_and_deal_and_are_documented() -> None:
    config = SimulationConfig(games=4, bots=("greedy", "random"), seed=3)
    seeds = [config.bot_seeds(index) for index in range(4)]
    assert len({seed for game in seeds for seed in game}) == 16
    assert seeds[0][2] == derive_seed(3 * DEALS_PER_SEED, "simulate", "bot", "swapped 0", "seat 2")


def test_the_single_seat_environments_bots_learn_nothing_of_the_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("gymnasium")
    from pegs_rules.bots import make_bot
    from pegs_rules.rl import SingleSeatEnv, single

    handed: list[int] = []

    def spying(name: str, seed: int = 0) -> object:
        handed.append(seed)
        return make_bot(name, seed)

    monkeypatch.setattr(single, "make_bot", spying)
    game = SingleSeatEnv(players=4, seat=1, bots="greedy")
    handed.clear()  # the bot names checked when made
    deal = 2024
    game.reset(seed=deal)
    assert game.game.game.seed == deal and len(handed) == 3
    assert handed == [single.bot_seed(deal, seat) for seat in (0, 2, 3)]
    assert rebuilds(deal, tuple(handed), 4) == []
    handed.clear()
    game.reset()  # a deal drawn after the last: its bots too
    assert rebuilds(game.game.game.seed, tuple(handed), 4) == []


def test_the_servers_bots_learn_nothing_of_the_deal() -> None:
    """A server's bot is seeded by seat and ply from the game's secret seed, by a keyed hash."""
    pytest.importorskip("starlette")
    from pegs_rules.server.thinking import bot_seed

    deal = 0x5EED_0F_A_6A3E  # as the store keeps it (secrets.randbits(64) in a real game)
    seeds = tuple(bot_seed(deal, ply % 4, ply) for ply in range(8))
    assert len(set(seeds)) == 8 and bot_seed(deal, 1, 1) == seeds[1]
    assert rebuilds(deal, seeds, 4) == []
