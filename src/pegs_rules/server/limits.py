"""Rate limits: a token bucket (:class:`RateLimit`), and one per client for HTTP (:class:`ClientLimits`).

Every HTTP request and WebSocket handshake of a client (its address, as the
trusted proxy reports it) takes a token from that client's bucket; an empty
bucket is answered ``429`` with a ``Retry-After`` header (a WebSocket
handshake too, before it is accepted). The limits are per server process.

>>> limit = RateLimit(rate=1.0, burst=2)
>>> [limit.allow() for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import collections
import json
import logging
import time

from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger("pegs_rules.server")

HTTP_RATE = 20.0
"""HTTP requests a second a client may make on average ..."""
HTTP_BURST = 100
"""... and at most this many at once (a page load takes about 20)."""
MAX_CLIENTS = 10_000
"""Clients whose buckets are kept; the least recently seen is forgotten first."""


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


class ClientLimits:
    """ASGI middleware: :data:`HTTP_RATE` requests a second per client, bursts of :data:`HTTP_BURST`."""

    def __init__(self, app: ASGIApp, rate: float = HTTP_RATE, burst: int = HTTP_BURST) -> None:
        self.app = app
        self.rate = rate
        self.burst = burst
        self.clients: collections.OrderedDict[str, RateLimit] = collections.OrderedDict()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "unknown"
        bucket = self.clients.pop(address, None) or RateLimit(self.rate, self.burst)
        self.clients[address] = bucket  # the most recently seen last
        if len(self.clients) > MAX_CLIENTS:
            self.clients.popitem(last=False)
        if bucket.allow():
            bucket.refused = 0
            await self.app(scope, receive, send)
            return
        if bucket.refused == 1:  # one line when a client starts being refused
            log.warning("client %s: over %g requests a second: refused (429)", address, self.rate)
        await refuse(scope, receive, send, bucket.wait())


async def refuse(scope: Scope, receive: Receive, send: Send, wait: float) -> None:
    """Answer ``429`` (to a WebSocket handshake too, as its HTTP response)."""
    body = json.dumps(
        {"error": "rate_limited", "problems": ["too many requests: slow down"]}
    ).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(max(1, round(wait))).encode()),
    ]
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        if "websocket.http.response" not in scope.get("extensions", {}):
            await send({"type": "websocket.close", "code": 1013})
            return
        start, body_type = "websocket.http.response.start", "websocket.http.response.body"
    else:
        start, body_type = "http.response.start", "http.response.body"
    await send({"type": start, "status": 429, "headers": headers})
    await send({"type": body_type, "body": body})
