"""What uvicorn leaves to the application: read timeouts, and closing on a peer that stopped reading.

* HTTP (:func:`http_protocol`): a connection that has not sent a request's
  headers within ``header`` seconds of connecting (or of its last response),
  or the body they declare within ``body`` seconds more, is answered ``408``
  and closed. uvicorn itself waits for both for ever.
* WebSocket (:class:`WebSocketProtocol`): uvicorn writes no frame, the
  closing one included, while the connection's write buffer is over its
  high-water mark, and a closed transport waits for that buffer to drain: a
  peer that never reads would hold the connection, and what is buffered for
  it, for ever. Here a close frame is written at once, behind what the peer
  has not read, and the connection is dropped :data:`CLOSE_GRACE` seconds
  later if it has not closed by then. The kernel's send buffer of a
  WebSocket is capped at :data:`SEND_BUFFER` (left alone, Linux lets it grow
  to megabytes for a peer that does not read).

Both are uvicorn's own protocols (``httptools`` and ``websockets``), extended.
"""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

HEADER_TIMEOUT = 10.0
"""Seconds a client has to send a request's headers."""
BODY_TIMEOUT = 30.0
"""Seconds a client has to send the body its headers declare, once they are in."""
CLOSE_GRACE = 10.0
"""Seconds a closed WebSocket may take to go before it is dropped."""
SEND_BUFFER = 128 * 1024
"""Bytes the kernel may hold for a WebSocket peer (Linux doubles it): a few board states."""

_TIMEOUT_BODY = json.dumps(
    {"error": "timeout", "problems": ["the request did not arrive in time"]}
).encode()
TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
    b"connection: close\r\ncontent-length: " + str(len(_TIMEOUT_BODY)).encode() + b"\r\n\r\n"
) + _TIMEOUT_BODY
"""The answer to a request that did not arrive in time."""


class ReadTimeouts(HttpToolsProtocol):
    """uvicorn's HTTP protocol, closing a connection whose request does not arrive in time."""

    header_timeout = HEADER_TIMEOUT
    body_timeout = BODY_TIMEOUT
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._read_by(self.header_timeout)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._read_by(self.body_timeout)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._read_by(None)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._deadline is None and not self.transport.is_closing():
            self._read_by(self.header_timeout)  # the next request on this connection

    def connection_lost(self, exc: Exception | None) -> None:
        self._read_by(None)
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


def http_protocol(header: float, body: float) -> type[ReadTimeouts]:
    """:class:`ReadTimeouts` with ``header`` and ``body`` seconds (uvicorn's ``http``)."""

    class Configured(ReadTimeouts):
        header_timeout = header
        body_timeout = body

    return Configured


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, whose close never waits for the peer to read."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)

    async def send(self, message: Any) -> None:
        if message["type"] == "websocket.close" and self.handshake_complete:
            self.writable.set()  # the close frame is queued behind what the peer has not read
            self.loop.call_later(CLOSE_GRACE, self._drop)
        await super().send(message)

    def _drop(self) -> None:
        if not self.disconnected:
            self.transport.abort()
