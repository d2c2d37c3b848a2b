"""One WebSocket connection: join by token, then read moves and pass them to the registry.

Messages out go through a bounded queue drained by a writer task, so a slow
reader never holds up a game's other seats, and what waits for it is bounded:
a connection that falls :data:`MAX_QUEUED` messages (or
:data:`MAX_QUEUED_CHARS` characters) behind, or whose peer has not taken a
message for ``send_timeout`` seconds, is closed with ``1013`` at once, its
backlog dropped (its client reconnects and gets the position afresh). Close
codes: ``1008`` when the server refuses the connection (bad token, no join in
time, too many frames over the rate, a damaged game, a game removed for want
of play), ``4001`` when the seat was joined from another connection; after
either a client should not reconnect by itself. On any other close it should:
``1013`` (try again later) also closes a join the server cannot serve now (its
database does not answer, the game has as many spectators as it may).

Every ``error`` sent is logged at WARNING in one line, so many a minute
(:data:`~pegs_rules.server.limits.MISTAKES`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from pegs_rules.errors import IllegalMoveError
from pegs_rules.server import metrics, protocol
from pegs_rules.server.games import (
    DAMAGED,
    REMOVED,
    REMOVED_BOTS,
    REMOVED_BY_OPERATOR,
    LiveGame,
)
from pegs_rules.server.limits import FAILURES, MISTAKES, RateLimit, client_key
from pegs_rules.server.protocol import Join, MoveRequest, Ping, ProtocolError
from pegs_rules.server.registry import Registry

log = logging.getLogger("pegs_rules.server")

MAX_QUEUED = 256
"""Messages that may wait for a slow reader before its connection is closed ..."""
MAX_QUEUED_CHARS = 1 << 20
"""... or characters of them."""
SEND_TIMEOUT = 10.0
"""Seconds a message may take to go out before the connection is closed (the peer is not reading)."""
REFUSED = 1008
"""Close code: the server refuses this connection; do not reconnect."""
REPLACED = 4001
"""Close code: the seat was joined from another connection; do not reconnect."""
TRY_LATER = 1013
"""Close code: the client fell behind, or the server cannot serve it now; reconnect."""

_CLOSE = object()


class Session:
    """A WebSocket client of one game (a :class:`~pegs_rules.server.games.Connection`)."""

    def __init__(
        self,
        socket: WebSocket,
        registry: Registry,
        game_id: str,
        send_timeout: float = SEND_TIMEOUT,
    ) -> None:
        self.socket = socket
        self.registry = registry
        self.game_id = game_id
        self.send_timeout = send_timeout
        self.seat: int | None = None
        self.joined = 0
        self.board = True
        self.queue: asyncio.Queue[object] = asyncio.Queue()
        self.queued = 0
        """Characters waiting in :attr:`queue`."""
        self.closing = False
        self.stuck = False
        """A message did not go out within ``send_timeout``."""
        self.close_code = 1000
        self.writer: asyncio.Task[None] | None = None
        self.rate = RateLimit(protocol.RATE, protocol.BURST)
        client = socket.client
        self.client = client_key(client.host) if client else "unknown"
        self.who = f"client {self.client}, game {game_id[:20]!r}"

    def send(self, text: str) -> None:
        if self.closing:
            return
        if self.queue.qsize() >= MAX_QUEUED or self.queued + len(text) > MAX_QUEUED_CHARS:
            metrics.REFUSED.labels("slow_reader").inc()
            MISTAKES.warn(
                self.client,
                "%s: %d messages behind: closed (%d)",
                self.who,
                self.queue.qsize(),
                TRY_LATER,
            )
            while not self.queue.empty():  # nobody will read them
                self.queue.get_nowait()
            self.queued = 0
            self._finish(TRY_LATER)
            return
        self.queued += len(text)
        self.queue.put_nowait(text)

    def close(self, code: str, message: str | None = None) -> None:
        self.refuse(ProtocolError(code, message))
        self._finish(REPLACED if code == "replaced" else REFUSED)

    def refuse(self, error: ProtocolError) -> None:
        """Send ``error`` to the client, and log its mistake."""
        metrics.REFUSED.labels(error.code).inc()
        MISTAKES.warn(
            self.client,
            "%s, seat %s: %s: %s",
            self.who,
            self.seat,
            error.code,
            error.message[:200],
        )
        self.send(error.answer())

    def _finish(self, code: int) -> None:
        if not self.closing:
            self.closing = True
            self.close_code = code
            self.queue.put_nowait(_CLOSE)

    async def run(self) -> None:
        """Serve the connection until either side closes it."""
        await self.socket.accept()
        writer = self.writer = asyncio.create_task(self._write())
        game: LiveGame | None = None
        try:
            game = await self._join()
            if game is not None:
                await self._read(game)
        except WebSocketDisconnect:
            pass
        finally:
            if game is not None:
                self.registry.leave(game, self)
            self._finish(self.close_code)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(writer, self.send_timeout + 1)

    async def _join(self) -> LiveGame | None:
        try:
            join = await asyncio.wait_for(self._first_join(), protocol.JOIN_TIMEOUT)
            self.board = join.board
            return await self.registry.join(self.game_id, join.token, self)
        except asyncio.TimeoutError:
            self.close("not_joined")
        except ProtocolError as error:
            self.refuse(error)
            final = error.code == "bad_token" or error.message in (
                DAMAGED,
                REMOVED,
                REMOVED_BOTS,
                REMOVED_BY_OPERATOR,
            )
            self._finish(REFUSED if final else TRY_LATER)
        return None

    async def _first_join(self) -> Join:
        while True:
            message = await self._next()
            if isinstance(message, Join):
                return message
            if message is not None:
                self.refuse(ProtocolError("not_joined"))

    async def _read(self, game: LiveGame) -> None:
        while not self.closing:
            message = await self._next()
            try:
                if isinstance(message, Join):
                    raise ProtocolError("already_joined")
                if isinstance(message, Ping):
                    self.send(protocol.PONG)
                elif isinstance(message, MoveRequest):
                    await self.registry.play(game, self.seat, message)
            except IllegalMoveError as error:
                assert isinstance(message, MoveRequest)
                self.send(protocol.illegal(message.move, error.rule, error.reason))
            except ProtocolError as error:
                self.refuse(error)
            except Exception:  # a bug: this request fails, the server and its games go on
                if FAILURES.allow(self.client):
                    log.exception("game %s: request %r failed", self.game_id, message)
                self.send(protocol.error("server_error"))

    async def _next(self) -> Join | MoveRequest | Ping | None:
        """The next message read, or ``None`` after answering a frame that is refused."""
        frame = await self.socket.receive()
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code", 1000))
        if not self.rate.allow():
            if self.rate.refused >= protocol.MAX_REFUSED:
                self.close("rate_limited")
            elif self.rate.refused == 1:
                self.refuse(ProtocolError("rate_limited"))
            else:
                metrics.REFUSED.labels("rate_limited").inc()
                self.send(protocol.error("rate_limited"))
            return None
        text = frame.get("text")
        if text is None:
            self.refuse(ProtocolError("bad_json", "send JSON in text frames"))
            return None
        try:
            return protocol.read_frame(text)
        except ProtocolError as error:
            self.refuse(error)
            return None

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                item = await self.queue.get()
                if item is _CLOSE:
                    break
                assert isinstance(item, str)
                self.queued -= len(item)
                timer = loop.call_later(self.send_timeout, self._stuck)  # not a task a message
                try:
                    await self.socket.send_text(item)
                finally:
                    timer.cancel()
        except asyncio.CancelledError:
            if not self.stuck:
                raise
        except Exception as error:  # the peer went away mid-send: nothing left to tell it
            log.debug("connection to game %s closed while sending: %r", self.game_id, error)
            return
        try:
            if self.socket.application_state == WebSocketState.CONNECTED:
                await asyncio.wait_for(self.socket.close(self.close_code), self.send_timeout)
        except Exception as error:
            log.debug("connection to game %s closed while closing: %r", self.game_id, error)

    def _stuck(self) -> None:
        """A message has not gone out in time: the peer is not reading; close it."""
        if not self.closing:
            metrics.REFUSED.labels("slow_reader").inc()
            MISTAKES.warn(
                self.client,
                "%s: not reading for %g s: closed (%d)",
                self.who,
                self.send_timeout,
                TRY_LATER,
            )
        self.stuck = True
        self.closing, self.close_code = True, TRY_LATER
        if self.writer is not None:
            self.writer.cancel()
