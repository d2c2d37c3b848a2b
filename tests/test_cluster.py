"""Simulations on a real Dask cluster: two worker processes on this machine, loopback only."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

from pegs_rules.cli import main
from pegs_rules.simulate import SimulationConfig, simulate

distributed = pytest.importorskip("distributed")

from pegs_rules.cluster import cluster_executor  # noqa: E402

CONFIG = SimulationConfig(games=8, players=4, bots=("greedy", "random"), seed=4)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a LocalCluster of two single-threaded worker processes, shut down after."""
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        protocol="tcp",
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def test_a_cluster_plays_the_same_games_as_one_process(scheduler: str) -> None:
    local = simulate(CONFIG)
    with cluster_executor(scheduler) as executor:
        remote = simulate(CONFIG, executor=executor)
    key = [(g.index, g.seed, g.seats, g.winner, g.plies, g.home) for g in local.games]
    assert [(g.index, g.seed, g.seats, g.winner, g.plies, g.home) for g in remote.games] == key
    assert remote.summary.side_wins == local.summary.side_wins
    with distributed.Client(scheduler) as client:  # a cluster of two worker processes
        assert len(client.scheduler_info()["workers"]) == 2


def test_pegs_simulate_scheduler(
    scheduler: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cluster.json"
    argv = ["simulate", "--games", "8", "--bots", "greedy,random", "--seed", "4", "--quiet"]
    assert main([*argv, "--scheduler", scheduler, "--json", str(out)]) == 0
    assert "8 games, 4 players" in capsys.readouterr().out
    winners = [game["winner"] for game in json.loads(out.read_text())["games"]]
    assert winners == [game.winner for game in simulate(CONFIG).games]


def test_no_scheduler_at_the_address(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(OSError), cluster_executor("tcp://127.0.0.1:9", timeout=1):
        pass
    monkeypatch.setattr("pegs_rules.cli.cluster_executor", partial(cluster_executor, timeout=1))
    assert main(["simulate", "--games", "1", "--scheduler", "tcp://127.0.0.1:9"]) == 2
    assert "pegs simulate:" in capsys.readouterr().err
