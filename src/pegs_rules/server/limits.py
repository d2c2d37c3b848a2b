"""Rate limits: a token bucket (:class:`RateLimit`), one per client for HTTP (:class:`ClientLimits`),
and a log of clients' mistakes that a flood of them cannot fill (:class:`Mistakes`, a
:class:`Budget` of lines a minute per client).

A client is its address as the trusted proxy reports it, an IPv6 address
counting by its /64 network, which one household or machine is given
(:func:`client_key`). Every HTTP request and WebSocket handshake of a client
takes a token from that client's bucket; an empty bucket is answered ``429``
with a ``Retry-After`` header (a WebSocket handshake too, before it is
accepted). The limits are per server process.

>>> limit = RateLimit(rate=1.0, burst=2)
>>> [limit.allow() for _ in range(3)]
[True, True, False]
>>> client_key("2001:db8:1:2:aaaa::1"), client_key("192.0.2.7")
('2001:db8:1:2::/64', '192.0.2.7')
"""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import json
import logging
import time

from starlette.types import ASGIApp, Receive, Scope, Send

from pegs_rules.server import metrics

log = logging.getLogger("pegs_rules.server")

HTTP_RATE = 20.0
"""HTTP requests a second a client may make on average ..."""
HTTP_BURST = 100
"""... and at most this many at once (a page load takes about 20)."""
MAX_CLIENTS = 10_000
"""Clients whose buckets are kept; the least recently seen is forgotten first."""
MISTAKE_WINDOW = 60.0
"""Seconds over which :class:`Mistakes` counts a client's logged mistakes ..."""
MISTAKES_PER_CLIENT = 10
"""... logging at most this many of one client's in full ..."""
MISTAKES_LOGGED = 100
"""... and this many of all clients'; the rest in one summary line at the window's end."""


def client_key(address: str) -> str:
    """Who a client is, for its limits: its IPv4 address, or its IPv6 address's /64 network."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv4Address):
        return str(parsed)
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(ipaddress.IPv6Network((parsed, 64), strict=False))


class Budget:
    """Lines of the log about clients, so many a client a minute: the rest counted, summed up.

    In each window of :data:`MISTAKE_WINDOW` seconds the first ``per_client``
    lines about each client, and the first ``total`` in all (``None``: no bound
    but the clients'), may be written (:meth:`allow`); the others are counted
    and summed up in one line, ``what`` they were, when the window closes.
    """

    def __init__(self, per_client: int, total: int | None, what: str, level: int) -> None:
        self.per_client = per_client
        self.total = total
        self.what = what
        self.level = level
        self.started = time.monotonic()
        self.logged: collections.Counter[str] = collections.Counter()
        self.unlogged: collections.Counter[str] = collections.Counter()
        self.summing: asyncio.TimerHandle | None = None

    def allow(self, client: str) -> bool:
        """Whether one more line about ``client`` (a :func:`client_key`) may be written now."""
        if time.monotonic() - self.started >= MISTAKE_WINDOW:
            self.sum_up()
        if self.logged[client] < self.per_client and (
            self.total is None or self.logged.total() < self.total
        ):
            self.logged[client] += 1
            return True
        self.unlogged[client] += 1
        if self.summing is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return False  # summed up with the next line
            left = MISTAKE_WINDOW - (time.monotonic() - self.started)
            self.summing = loop.call_later(max(0.0, left), self.sum_up)
        return False

    def sum_up(self) -> None:
        """Close the window: one line for what it did not write."""
        if self.summing is not None:
            self.summing.cancel()
            self.summing = None
        if self.unlogged:
            worst, most = self.unlogged.most_common(1)[0]
            log.log(
                self.level,
                "%d more %s in the last %.0f s, not logged one by one"
                " (clients: %d; the most, %d, from %s)",
                self.unlogged.total(),
                self.what,
                time.monotonic() - self.started,
                len(self.unlogged),
                most,
                worst,
            )
        self.started = time.monotonic()
        self.logged.clear()
        self.unlogged.clear()


class Mistakes(Budget):
    """Clients' mistakes in the log, at WARNING, one line each, but only so many.

    In each window of :data:`MISTAKE_WINDOW` seconds the first
    :data:`MISTAKES_PER_CLIENT` mistakes of each client, and the first
    :data:`MISTAKES_LOGGED` in all, are logged in full; the others are
    counted and summed up in one line when the window closes.
    """

    def __init__(self) -> None:
        super().__init__(MISTAKES_PER_CLIENT, MISTAKES_LOGGED, "client mistakes", logging.WARNING)

    def warn(self, client: str, message: str, *args: object) -> None:
        """Log ``message % args``, a mistake of ``client`` (a :func:`client_key`), if it may be."""
        if self.allow(client):
            log.warning(message, *args)


MISTAKES = Mistakes()
"""The server process's log of clients' mistakes."""
FAILURES_PER_CLIENT = 3
"""Requests of one client a minute whose failure (a damaged game, a bug) is logged in full ..."""
FAILURES = Budget(FAILURES_PER_CLIENT, 30, "failed requests", logging.ERROR)
"""... in :data:`FAILURES` (30 a minute in all); the rest summed up. A failure is the server's
fault, not the client's, but the client may ask again and again."""


class RateLimit:
    """A token bucket: ``rate`` a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic()
        self.refused = 0

    def allow(self) -> bool:
        """Whether one more may go now."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False

    def wait(self) -> float:
        """Seconds until one more may go."""
        return max(0.0, (1 - self.tokens) / self.rate)


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class Blocked:
    """The addresses and networks the operator blocked (``pegs admin block``): their requests
    and WebSocket handshakes are refused ``403`` (:class:`ClientLimits`).

    >>> blocked = Blocked()
    >>> blocked.set(["203.0.113.0/24", "2001:db8::/48"])
    >>> "203.0.113.9" in blocked, "2001:db8::7" in blocked, "198.51.100.1" in blocked
    (True, True, False)
    >>> "2001:db8:0:1::/64" in blocked  # a client key: an IPv6 client's /64
    True
    """

    def __init__(self) -> None:
        self.networks: list[Network] = []

    def set(self, networks: list[str]) -> None:
        """Block exactly ``networks`` (addresses or networks) from now on."""
        self.networks = [ipaddress.ip_network(n, strict=False) for n in networks]

    def __contains__(self, address: str) -> bool:
        """Whether ``address`` (an address, or a :func:`client_key` network) is blocked."""
        if not self.networks:
            return False
        try:
            network = ipaddress.ip_network(address, strict=False)
        except ValueError:
            return False
        if isinstance(network, ipaddress.IPv6Network) and network.network_address.ipv4_mapped:
            network = ipaddress.ip_network(network.network_address.ipv4_mapped)
        return any(network.version == b.version and network.overlaps(b) for b in self.networks)


BLOCKED = Blocked()
"""The server process's blocked addresses (kept up to date from the store)."""


class ClientLimits:
    """ASGI middleware: :data:`HTTP_RATE` requests a second per client, bursts of
    :data:`HTTP_BURST`; a client the operator blocked (:data:`BLOCKED`) is refused ``403``."""

    def __init__(
        self,
        app: ASGIApp,
        rate: float = HTTP_RATE,
        burst: int = HTTP_BURST,
        blocked: Blocked = BLOCKED,
    ) -> None:
        self.app = app
        self.rate = rate
        self.burst = burst
        self.blocked = blocked
        self.clients: collections.OrderedDict[str, RateLimit] = collections.OrderedDict()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client_key(client[0]) if client else "unknown"
        if client and client[0] in self.blocked:
            metrics.REFUSED.labels("blocked").inc()
            MISTAKES.warn(address, "client %s: blocked by the operator: refused (403)", address)
            await refuse(scope, receive, send, 0, 403)
            return
        bucket = self.clients.pop(address, None) or RateLimit(self.rate, self.burst)
        self.clients[address] = bucket  # the most recently seen last
        if len(self.clients) > MAX_CLIENTS:
            self.clients.popitem(last=False)
        if bucket.allow():
            bucket.refused = 0
            await self.app(scope, receive, send)
            return
        metrics.REFUSED.labels("rate_limited").inc()
        if bucket.refused == 1:  # one line when a client starts being refused
            MISTAKES.warn(
                address, "client %s: over %g requests a second: refused (429)", address, self.rate
            )
        await refuse(scope, receive, send, bucket.wait())


async def refuse(
    scope: Scope, receive: Receive, send: Send, wait: float, status: int = 429
) -> None:
    """Answer ``429`` (or ``403``: blocked) to a request or a WebSocket handshake (as its HTTP
    response)."""
    if status == 403:
        answer = {
            "error": "blocked",
            "problems": ["this address is blocked by the server's operator"],
        }
    else:
        answer = {"error": "rate_limited", "problems": ["too many requests: slow down"]}
    body = json.dumps(answer).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if status == 429:
        headers.append((b"retry-after", str(max(1, round(wait))).encode()))
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        if "websocket.http.response" not in scope.get("extensions", {}):
            await send({"type": "websocket.close", "code": 1013})
            return
        start, body_type = "websocket.http.response.start", "websocket.http.response.body"
    else:
        start, body_type = "http.response.start", "http.response.body"
    await send({"type": start, "status": status, "headers": headers})
    await send({"type": body_type, "body": body})
