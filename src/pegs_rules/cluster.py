"""Games on a Dask cluster: :func:`cluster_executor` (the ``pegs-rules[cluster]`` extra).

:func:`~pegs_rules.simulate.simulate` plays its games on any
:class:`concurrent.futures.Executor`; a Dask ``distributed`` client offers
one whose tasks run on the cluster's workers. Each game is one task, and the
results are the same games and winners as on one process, since every game
depends only on the config and its number.

The workers need ``pegs-rules`` installed (the same version as the client).
``pegs simulate --scheduler ADDRESS`` uses this module. From Python::

    from pegs_rules.cluster import cluster_executor
    from pegs_rules.simulate import SimulationConfig, simulate

    with cluster_executor("tcp://scheduler.example:8786") as executor:
        result = simulate(SimulationConfig(games=10_000), executor=executor)

``distributed`` is imported only when this function is called, so the core
library stays free of it.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager

__all__ = ["cluster_executor"]

MISSING = "the Dask cluster support needs the 'cluster' extra: pip install 'pegs-rules[cluster]'"


@contextmanager
def cluster_executor(address: str, *, timeout: float = 30.0) -> Iterator[Executor]:
    """An executor that runs tasks on the Dask cluster whose scheduler is at ``address``.

    Connects a ``distributed.Client`` (waiting up to ``timeout`` seconds),
    yields its executor and closes the client on leaving. Raises
    :class:`ModuleNotFoundError` naming the extra when ``distributed`` is not
    installed, and :class:`OSError` when no scheduler answers at ``address``.
    """
    try:
        from distributed import Client
    except ModuleNotFoundError as error:
        raise ModuleNotFoundError(MISSING, name=error.name) from None
    client = Client(address, timeout=timeout, set_as_default=False)  # type: ignore[no-untyped-call]
    with client:
        executor: Executor = client.get_executor()  # type: ignore[no-untyped-call]
        yield executor
