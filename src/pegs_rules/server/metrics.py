"""What a server tells its operator: Prometheus metrics (``pegs serve --metrics [HOST:]PORT``).

The metrics are :mod:`prometheus_client`'s, in its default registry, served
on a listener of their own (on the loopback address unless a host is given),
apart from the port the players use. Every name starts with ``pegs_``:

* ``pegs_games``: games this server holds in memory; ``pegs_bot_games``: games
  whose bots it runs;
* ``pegs_connections``: open connections (HTTP and WebSocket);
* ``pegs_moves_total{by}``: moves this server stored, by a ``seat`` or a ``bot``;
* ``pegs_store_seconds{call}``: how long each kind of store call took;
  ``pegs_database_up``: 1 while the database answers, 0 while it does not;
* ``pegs_bot_queue``: searching bots waiting for a worker;
  ``pegs_bot_wait_seconds``: how long they waited;
* ``pegs_refused_total{reason}``: requests and connections refused, by reason
  (``rate_limited``, ``too_many_connections``, ``head_too_large``,
  ``bad_request``, ``games_per_client``, ``unavailable``, ...);
* ``pegs_games_expired_total``: games removed because nobody played them.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram, start_http_server

GAMES = Gauge("pegs_games", "Games this server holds in memory")
BOT_GAMES = Gauge("pegs_bot_games", "Games whose bots this server runs")
CONNECTIONS = Gauge("pegs_connections", "Open connections, HTTP and WebSocket")
MOVES = Counter("pegs_moves", "Moves this server stored", ["by"])
STORE_SECONDS = Histogram(
    "pegs_store_seconds",
    "How long a store call took",
    ["call"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
DATABASE_UP = Gauge("pegs_database_up", "1 while the database answers, 0 while it does not")
BOT_QUEUE = Gauge("pegs_bot_queue", "Searching bots waiting for a worker")
BOT_WAIT = Histogram(
    "pegs_bot_wait_seconds",
    "How long a searching bot waited for a worker",
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0),
)
REFUSED = Counter("pegs_refused", "Requests and connections refused", ["reason"])
EXPIRED = Counter("pegs_games_expired", "Games removed because nobody played them")


def serve_metrics(address: str) -> None:
    """Serve the metrics at ``address`` (``PORT`` on the loopback address, or ``HOST:PORT``)."""
    host, _, port = address.rpartition(":")
    start_http_server(int(port), host.strip("[]") or "127.0.0.1")
