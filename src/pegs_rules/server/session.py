"""One WebSocket connection: join by token, then read moves and pass them to the registry.

Messages out go through a bounded queue drained by a writer task, so a slow
reader never holds up a game's other seats: a connection that falls
:data:`MAX_QUEUED` messages behind is closed (its client reconnects and gets
the position afresh). Close codes: ``1008`` when the server refuses the
connection (bad token, no join in time, too many frames over the rate),
``4001`` when the seat was joined from another connection; after either a
client should not reconnect by itself. On any other close it should.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from pegs_rules.errors import IllegalMoveError
from pegs_rules.server import protocol
from pegs_rules.server.games import LiveGame, Registry
from pegs_rules.server.protocol import Join, MoveRequest, Ping, ProtocolError

log = logging.getLogger("pegs_rules.server")

MAX_QUEUED = 256
"""Messages that may wait for a slow reader before its connection is closed."""
REFUSED = 1008
"""Close code: the server refuses this connection; do not reconnect."""
REPLACED = 4001
"""Close code: the seat was joined from another connection; do not reconnect."""

_CLOSE = object()


class Session:
    """A WebSocket client of one game (a :class:`~pegs_rules.server.games.Connection`)."""

    def __init__(self, socket: WebSocket, registry: Registry, game_id: str) -> None:
        self.socket = socket
        self.registry = registry
        self.game_id = game_id
        self.seat: int | None = None
        self.board = True
        self.queue: asyncio.Queue[object] = asyncio.Queue()
        self.close_code = 1000
        self.rate = protocol.RateLimit()

    def send(self, text: str) -> None:
        if self.queue.qsize() >= MAX_QUEUED:
            self._finish(1013)  # try again later: the client reconnects and catches up
            return
        self.queue.put_nowait(text)

    def close(self, code: str) -> None:
        self.send(protocol.error(code))
        self._finish(REPLACED if code == "replaced" else REFUSED)

    def _finish(self, code: int) -> None:
        self.close_code = code
        self.queue.put_nowait(_CLOSE)

    async def run(self) -> None:
        """Serve the connection until either side closes it."""
        await self.socket.accept()
        writer = asyncio.create_task(self._write())
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
                await asyncio.wait_for(writer, 5.0)

    async def _join(self) -> LiveGame | None:
        try:
            join = await asyncio.wait_for(self._first_join(), protocol.JOIN_TIMEOUT)
            self.board = join.board
            return await self.registry.join(self.game_id, join.token, self)
        except asyncio.TimeoutError:
            self.close("not_joined")
        except ProtocolError as error:
            self.send(error.answer())
            self._finish(REFUSED)
        return None

    async def _first_join(self) -> Join:
        while True:
            message = await self._next()
            if isinstance(message, Join):
                return message
            if message is not None:
                self.send(protocol.error("not_joined"))

    async def _read(self, game: LiveGame) -> None:
        while self.close_code == 1000:
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
                self.send(error.answer())
            except Exception:  # a bug: this request fails, the server and its games go on
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
            else:
                self.send(protocol.error("rate_limited"))
            return None
        text = frame.get("text")
        if text is None:
            self.send(protocol.error("bad_json", "send JSON in text frames"))
            return None
        try:
            return protocol.read_frame(text)
        except ProtocolError as error:
            self.send(error.answer())
            return None

    async def _write(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if item is _CLOSE:
                    break
                assert isinstance(item, str)
                await self.socket.send_text(item)
            if self.socket.client_state == WebSocketState.CONNECTED:
                await self.socket.close(self.close_code)
        except Exception as error:  # the peer went away mid-send: nothing left to tell it
            log.debug("connection to game %s closed while sending: %r", self.game_id, error)
