"""What uvicorn leaves to the application: read timeouts, request-head limits, a bound on
connections, and closing on a peer that stopped reading.

* **Read timeouts** (HTTP): a connection that has not sent a request's headers
  within ``header`` seconds of connecting (or of its last response), or the
  body they declare within ``body`` seconds more, is answered ``408`` and
  closed. uvicorn itself waits for both for ever.
* **Request heads** (HTTP, WebSocket handshakes included): a request line
  longer than :data:`MAX_REQUEST_LINE` bytes is answered ``414``, a head
  (request line and headers) longer than :data:`MAX_HEAD` bytes ``431``, as
  soon as that much has arrived. The parser (``httptools``) and uvicorn
  join the pieces of a long header or line as they come, at a cost that grows
  with the square of its length: cut off there, no head costs more than an
  ordinary request.
* **Connections** (:class:`Gate`): at most ``limit`` open at once, set below
  the process's open-file limit (:func:`connection_limit`), and at most
  :data:`MAX_CLIENT_CONNECTIONS` from one client address (the trusted
  proxies aside: every player comes through them). A connection over either
  is answered ``503`` with ``Retry-After`` at once and closed: it waits for
  nothing, holds nothing, and the server says so in one log line when it
  fills up and one when it accepts again.
* **Peers that stop reading** (:class:`WebSocketProtocol`): uvicorn writes no
  frame, the closing one included, while the connection's write buffer is
  over its high-water mark, and a closed transport waits for that buffer to
  drain: a peer that never reads would hold the connection, and what is
  buffered for it, for ever. Here a close frame is written at once, behind
  what the peer has not read, and the connection is dropped
  :data:`CLOSE_GRACE` seconds later if it has not closed by then. The
  kernel's send buffer of a WebSocket is capped at :data:`SEND_BUFFER` (left
  alone, Linux lets it grow to megabytes for a peer that does not read).

The protocols are uvicorn's own (``httptools`` and ``websockets``), extended;
:func:`protocols` makes the pair that shares one :class:`Gate`.
"""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import json
import logging
import socket
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from pegs_rules.server import metrics
from pegs_rules.server.limits import MISTAKES, client_key

log = logging.getLogger("pegs_rules.server")

HEADER_TIMEOUT = 10.0
"""Seconds a client has to send a request's headers."""
BODY_TIMEOUT = 30.0
"""Seconds a client has to send the body its headers declare, once they are in."""
CLOSE_GRACE = 10.0
"""Seconds a closed WebSocket may take to go before it is dropped."""
SEND_BUFFER = 128 * 1024
"""Bytes the kernel may hold for a WebSocket peer (Linux doubles it): a few board states."""
MAX_REQUEST_LINE = 8 * 1024
"""The longest request line read, in bytes (``414`` beyond)."""
MAX_HEAD = 32 * 1024
"""The longest request head (request line and headers) read, in bytes (``431`` beyond)."""
RESERVED_FILES = 100
"""Open files kept back from connections: the database's, the bot workers' pipes, logs, pages."""
MAX_CLIENT_CONNECTIONS = 100
"""Connections one client address may have open at once (a trusted proxy's are not counted)."""
RETRY_AFTER = 5
"""Seconds a client refused for want of room is told to wait."""
LINGER = 1.0
"""Seconds a refused connection is kept to read what its client sends before the answer."""


def http_error(
    status: int, reason: str, code: str, problem: str, retry_after: int | None = None
) -> bytes:
    """A whole HTTP error response, JSON as every error of the server, that closes the connection."""
    body = json.dumps({"error": code, "problems": [problem]})
    head = [f"HTTP/1.1 {status} {reason}", "content-type: application/json", "connection: close"]
    if retry_after is not None:
        head.append(f"retry-after: {retry_after}")
    head.append(f"content-length: {len(body)}")
    return ("\r\n".join(head) + "\r\n\r\n" + body).encode()


TIMED_OUT = http_error(408, "Request Timeout", "timeout", "the request did not arrive in time")
"""The answer to a request that did not arrive in time."""
LINE_TOO_LONG = http_error(
    414, "URI Too Long", "too_large", f"the request line is longer than {MAX_REQUEST_LINE} bytes"
)
HEAD_TOO_LARGE = http_error(
    431,
    "Request Header Fields Too Large",
    "too_large",
    f"the request's head is longer than {MAX_HEAD} bytes",
)
FULL = http_error(
    503,
    "Service Unavailable",
    "unavailable",
    "the server has as many connections as it takes: try again shortly",
    RETRY_AFTER,
)


def connection_limit(files: int) -> int:
    """The most connections a process allowed ``files`` open files may hold."""
    return max(16, files - RESERVED_FILES)


class Trusted:
    """The proxies whose ``X-Forwarded-For`` is believed (uvicorn's ``forwarded_allow_ips``):
    addresses or networks, comma-separated, or ``*`` for any."""

    def __init__(self, addresses: str) -> None:
        entries = [entry.strip() for entry in addresses.split(",") if entry.strip()]
        self.anyone = "*" in entries
        self.networks = []
        for entry in entries:
            try:
                self.networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                continue  # a name (a Unix socket's, say): no TCP peer is it

    def __contains__(self, address: str) -> bool:
        if self.anyone:
            return True
        try:
            parsed = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(parsed in network for network in self.networks)


class Gate:
    """The connections a server holds: at most ``limit``, and :data:`MAX_CLIENT_CONNECTIONS`
    a client address (``trusted`` proxies aside)."""

    def __init__(
        self,
        limit: int,
        trusted: Trusted | None = None,
        per_client: int = MAX_CLIENT_CONNECTIONS,
    ) -> None:
        self.limit = limit
        self.per_client = per_client
        self.trusted = trusted or Trusted("")
        self.open: dict[object, str] = {}
        self.clients: collections.Counter[str] = collections.Counter()
        self.refused = 0
        """Connections refused since the server filled up (0 while it has room)."""
        metrics.CONNECTIONS.set_function(lambda: len(self.open))

    def admit(self, transport: object, address: str) -> bool:
        """Whether a new connection from ``address`` may stay open; it is counted if so."""
        client = client_key(address)
        if len(self.open) >= self.limit:
            metrics.REFUSED.labels("too_many_connections").inc()
            if not self.refused:
                log.warning(
                    "connections: %d open, the most this server takes: new ones are refused"
                    " (503) until some close",
                    self.limit,
                )
            self.refused += 1
            return False
        if self.clients[client] >= self.per_client and address not in self.trusted:
            metrics.REFUSED.labels("connections_per_client").inc()
            MISTAKES.warn(
                client,
                "client %s: %d connections open, the most one client may have: refused (503)",
                client,
                self.per_client,
            )
            return False
        self.open[transport] = client
        self.clients[client] += 1
        return True

    def leave(self, transport: object) -> None:
        """A connection closed (each is counted out once, whichever protocol held it last)."""
        client = self.open.pop(transport, None)
        if client is None:
            return
        self.clients[client] -= 1
        if not self.clients[client]:
            del self.clients[client]
        if self.refused and len(self.open) < self.limit:
            log.warning("connections: accepting again (%d refused while full)", self.refused)
            self.refused = 0


class ReadTimeouts(HttpToolsProtocol):
    """uvicorn's HTTP protocol with read timeouts, head limits and the connection gate."""

    header_timeout = HEADER_TIMEOUT
    body_timeout = BODY_TIMEOUT
    gate: Gate
    _deadline: asyncio.TimerHandle | None = None
    _head: int | None = 0
    """Bytes of the request head read so far (``None`` once the headers are in)."""
    _refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.gate.admit(transport, self.client[0] if self.client else ""):
            self._refused = True
            transport.write(FULL)
            if transport.can_write_eof():
                transport.write_eof()  # the answer first, then the client's close ends it
            self.loop.call_later(LINGER, transport.abort)
            return
        self._read_by(self.header_timeout)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # read and dropped, so that the client gets the answer, not a reset
        if self._head is not None:
            self._head += len(data)
        super().data_received(data)
        if self._head is None or self.transport.is_closing():
            return
        if len(getattr(self, "url", b"") or b"") > MAX_REQUEST_LINE:
            self._too_large(LINE_TOO_LONG, "request line", 414)
        elif self._head > MAX_HEAD:
            self._too_large(HEAD_TOO_LARGE, "request head", 431)

    def on_headers_complete(self) -> None:
        self._head = None
        super().on_headers_complete()
        self._read_by(self.body_timeout)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._head = 0
        self._read_by(None)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._deadline is None and not self.transport.is_closing():
            self._read_by(self.header_timeout)  # the next request on this connection

    def connection_lost(self, exc: Exception | None) -> None:
        self._read_by(None)
        self.gate.leave(self.transport)
        super().connection_lost(exc)

    def _read_by(self, seconds: float | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = None if seconds is None else self.loop.call_later(seconds, self._late)

    def _late(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return  # closed already, or a WebSocket now
        cycle = self.cycle
        if cycle is None or not cycle.response_started:
            self.transport.write(TIMED_OUT)
        self.transport.close()

    def _too_large(self, answer: bytes, what: str, status: int) -> None:
        client = client_key(self.client[0]) if self.client else "unknown"
        metrics.REFUSED.labels("head_too_large").inc()
        MISTAKES.warn(client, "client %s: %s too long: refused (%d)", client, what, status)
        self._read_by(None)
        self.transport.write(answer)
        self.transport.close()


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, whose close never waits for the peer to read."""

    gate: Gate

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)

    def connection_lost(self, exc: Exception | None) -> None:
        self.gate.leave(self.transport)
        super().connection_lost(exc)

    async def send(self, message: Any) -> None:
        if message["type"] == "websocket.close" and self.handshake_complete:
            self.writable.set()  # the close frame is queued behind what the peer has not read
            self.loop.call_later(CLOSE_GRACE, self._drop)
        await super().send(message)

    def _drop(self) -> None:
        if not self.disconnected:
            self.transport.abort()


def protocols(
    header: float, body: float, gate: Gate
) -> tuple[type[ReadTimeouts], type[WebSocketProtocol]]:
    """uvicorn's ``http`` and ``ws`` protocols, with ``header`` and ``body`` seconds to read
    a request and ``gate`` to count the connections."""

    class Http(ReadTimeouts):
        header_timeout = header
        body_timeout = body

    class WebSocket(WebSocketProtocol):
        pass

    Http.gate = WebSocket.gate = gate
    return Http, WebSocket
