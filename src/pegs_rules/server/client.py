"""A Python client of ``pegs serve``: one seat (or a spectator) that reconnects by itself.

>>> socket_url("http://127.0.0.1:8000/play/abc#token=xyz")
('ws://127.0.0.1:8000/api/games/abc/ws', 'xyz')
>>> socket_urls("http://127.0.0.1:8000/play/abc#token=xyz", ["http://10.0.0.2:8000", "https://b.example.org"])
['ws://10.0.0.2:8000/api/games/abc/ws', 'wss://b.example.org/api/games/abc/ws']

A bot writer's loop, in full::

    client = SeatClient(*socket_url(link))
    async def choose(state: dict) -> str:
        return state["moves"]["moves"][0]["notation"]
    await client.play(choose)   # until the game ends; returns the winning team

:class:`SeatClient` keeps the latest ``state`` message, queues every message
it receives, and reconnects with backoff when the connection drops (a server
restart, a network blip), joining again with the same token; it gives up only
when the server refuses it (close codes 1008 and 4001). Given several servers
of one store (:func:`socket_urls`), it tries the next one each time a
connection fails or drops, so a server that dies costs a seat one reconnect.

:meth:`SeatClient.play` survives a drop at any moment, while it sends a move
too: it decides only on a position the current connection has sent, and sends
at most one move for a position on a connection. A move lost with its
connection is sent again once the new connection shows the seat still to act
at that ply; a move that arrived is never sent again (the server would refuse
it as ``stale`` anyway: every move names its ply). A move the server could
not store (``unavailable``: its database did not answer) is sent again after
:data:`RETRY_SECONDS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any
from urllib.parse import urlsplit

import websockets
from websockets.asyncio.client import ClientConnection, connect

DO_NOT_RECONNECT = (1008, 4001)
"""Close codes after which the server does not want this client back."""
RETRY_SECONDS = 1.0
"""How long :meth:`SeatClient.play` waits before sending again a move the server could not store."""


class Refused(ConnectionError):
    """The server closed this client's connection and does not want it back (its close code)."""

    def __init__(self, code: int) -> None:
        super().__init__(f"the server refused this connection (close code {code})")
        self.code = code


def socket_url(link: str) -> tuple[str, str]:
    """The WebSocket URL and token of a join link (``.../play/ID#token=T``)."""
    parts = urlsplit(link)
    game = parts.path.rstrip("/").rsplit("/", 1)[-1]
    token = parts.fragment.removeprefix("token=")
    scheme = "wss" if parts.scheme == "https" else "ws"
    prefix = parts.path.rstrip("/").rsplit("/play/", 1)[0]
    return f"{scheme}://{parts.netloc}{prefix}/api/games/{game}/ws", token


def socket_urls(link: str, servers: Sequence[str]) -> list[str]:
    """The WebSocket URL of a join link's game on each of ``servers`` (their base URLs)."""
    game = urlsplit(link).path.rstrip("/").rsplit("/", 1)[-1]
    return [socket_url(f"{base.rstrip('/')}/play/{game}")[0] for base in servers]


class SeatClient:
    """A connection to one game, by token, that survives the server going away.

    Args:
        url: the game's WebSocket URL, or its URLs on several servers of one
            store, tried in turn.
        token: a seat's or the spectator's token.
        board: ask for the SVG board with each state.
        keep_frames: keep every raw frame received in :attr:`frames` (for inspection).
    """

    def __init__(
        self,
        url: str | Sequence[str],
        token: str,
        *,
        board: bool = False,
        keep_frames: bool = False,
    ) -> None:
        self.urls = [url] if isinstance(url, str) else list(url)
        self.url = self.urls[0]
        """The URL connected to (or tried next)."""
        self.token = token
        self.board = board
        self.keep_frames = keep_frames
        self.frames: list[str] = []
        self.messages: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.welcome: dict[str, Any] | None = None
        self.state: dict[str, Any] | None = None
        self.connections = 0
        """Connections made so far (the current one's number)."""
        self.refused: int | None = None
        self._socket: ClientConnection | None = None
        self._ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._jitter = random.Random()

    async def start(self) -> None:
        """Connect (and keep reconnecting) in the background; return once joined."""
        self._task = asyncio.create_task(self._run())
        await self.wait_ready()

    @property
    def connected(self) -> bool:
        """Whether the client is joined and has the position (false while it reconnects)."""
        return self._ready.is_set()

    async def wait_ready(self, timeout: float = 30.0) -> None:
        """Wait until the client is connected and has its ``state``."""
        await asyncio.wait_for(self._ready.wait(), timeout)

    async def stop(self) -> None:
        """Close the connection for good."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._socket is not None:
            await self._socket.close()

    async def send(self, message: dict[str, Any]) -> bool:
        """Send ``message`` on the current connection, waiting for one if it is down.

        Returns ``False`` if the connection dropped before the message went:
        it is not sent again (decide again on the next connection's ``state``).
        """
        await self.wait_ready()
        return await self._send_now(json.dumps(message))

    async def send_move(self, move: str, ply: int | None = None) -> bool:
        """Send a ``move`` message (see :meth:`send`)."""
        return await self.send(move_message(move, ply))

    async def _send_now(self, text: str) -> bool:
        socket = self._socket
        if socket is None or not self.connected:
            return False
        try:
            await socket.send(text)
        except websockets.ConnectionClosed:
            return False
        return True

    async def next(
        self,
        kind: str,
        where: Callable[[dict[str, Any]], bool] | None = None,
        timeout: float = 30.0,
    ) -> dict[str, Any]:
        """The next message of type ``kind`` (and matching ``where``), skipping others."""

        async def find() -> dict[str, Any]:
            while True:
                message = await self.messages.get()
                if message.get("type") == kind and (where is None or where(message)):
                    return message

        return await asyncio.wait_for(find(), timeout)

    async def play(
        self, choose: Callable[[dict[str, Any]], Awaitable[str]], timeout: float = 600.0
    ) -> int:
        """Play this seat until the game ends: ``choose`` picks a move text from a ``state``.

        Returns the winning team; raises :class:`Refused` if the server refuses the seat.
        """
        if self._task is None:
            await self.start()

        async def loop() -> int:
            sent: tuple[int, int] | None = None  # (connection, ply) a move was sent for
            while True:
                await self._ready.wait()  # connected, and the state is this connection's
                state = self.state
                assert state is not None
                seen = state.get("view") or state.get("public") or {}
                if seen.get("winner") is not None:
                    return int(seen["winner"])
                here = (self.connections, state["ply"])
                if state.get("moves") and sent != here:
                    move = await choose(state)
                    if self.state is state and self.connected:  # nothing new meanwhile
                        sent = here
                        await self._send_now(json.dumps(move_message(move, here[1])))
                message = await self.messages.get()
                if message.get("type") == "closed" and self.refused is not None:
                    raise Refused(self.refused)
                if message.get("type") in ("illegal", "error"):
                    if message.get("code") in ("rate_limited", "unavailable"):
                        await asyncio.sleep(RETRY_SECONDS)
                    if message.get("code") not in ("stale", "not_your_turn"):
                        sent = None  # refused: choose again (a stale move's answer is coming)

        return await asyncio.wait_for(loop(), timeout)

    async def _run(self) -> None:
        delay = 0.1
        tried = 0
        while True:
            self.url = self.urls[tried % len(self.urls)]
            tried += 1
            try:
                async with connect(self.url, max_size=2**22) as socket:
                    self._socket = socket
                    await socket.send(
                        json.dumps({"type": "join", "token": self.token, "board": self.board})
                    )
                    self.connections += 1
                    delay = 0.1
                    async for frame in socket:
                        self._receive(frame if isinstance(frame, str) else frame.decode())
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                if code in DO_NOT_RECONNECT:
                    self.refused = code
            except (OSError, websockets.InvalidHandshake, asyncio.TimeoutError):
                pass
            self._ready.clear()
            self._socket = None
            self.messages.put_nowait({"type": "closed"})  # wakes whoever waits for a message
            if self.refused is not None:
                return
            await asyncio.sleep(delay * (1 + self._jitter.random()))
            delay = min(delay * 2, 2.0)

    def _receive(self, frame: str) -> None:
        """Keep a frame received (a ``state`` makes the client ready: decisions may use it)."""
        if self.keep_frames:
            self.frames.append(frame)
        message = json.loads(frame)
        if message.get("type") == "welcome":
            self.welcome = message
        elif message.get("type") == "state":
            self.state = message
            self._ready.set()
        self.messages.put_nowait(message)


def move_message(move: str, ply: int | None = None) -> dict[str, Any]:
    """A ``move`` message: the move's text and the ply it was chosen at."""
    message: dict[str, Any] = {"type": "move", "move": move}
    if ply is not None:
        message["ply"] = ply
    return message
