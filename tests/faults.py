"""A TCP proxy for fault tests: it cuts every connection through it at a random moment.

A connection is cut (both sides reset) when its random lifetime runs out, or
at a client frame after the first two (the handshake and the ``join``): some
frames are passed on and the connection cut at once (the server has the move,
the client never hears back), some are cut off before they are passed on (the
server never has it). With ``only_websockets``, plain HTTP requests (a page
and its files) pass untouched. It listens on 127.0.0.1 and talks to 127.0.0.1
only; :class:`Background` runs it beside a synchronous test (a browser's).
"""

from __future__ import annotations

import asyncio
import random
import threading
from dataclasses import dataclass, field


@dataclass
class DroppingProxy:
    """Cuts the connections to the server on ``port`` (see the module docstring)."""

    target: int
    rng: random.Random
    lifetime: tuple[float, float] = (0.1, 0.8)
    cut_after: float = 0.15
    """The chance that a client frame is passed on and the connection cut at once ..."""
    cut_before: float = 0.15
    """... and that it is cut off instead, never passed on."""
    only_websockets: bool = False
    port: int = 0
    cuts: dict[str, int] = field(
        default_factory=lambda: {"time": 0, "after": 0, "before": 0, "closed": 0}
    )
    """How many connections were cut, by the moment: when their time ran out, just after or
    just before a client frame, or closed by one side."""

    async def start(self) -> asyncio.Server:
        listening = await asyncio.start_server(self._connect, "127.0.0.1", 0)
        self.port = listening.sockets[0].getsockname()[1]
        return listening

    async def _connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.transport.abort()
            return
        cut = asyncio.Event()
        why = "time"

        plain = False

        async def client_to_server() -> None:
            nonlocal why, plain
            frames = 0
            while data := await reader.read(1 << 16):
                frames += 1
                if frames == 1 and self.only_websockets:
                    plain = b"upgrade: websocket" not in data.lower()
                if plain:
                    up_writer.write(data)
                    await up_writer.drain()
                    continue
                chance = self.rng.random() if frames > 2 else 1.0
                if chance < self.cut_before:
                    why = "before"
                    cut.set()
                    return
                up_writer.write(data)
                await up_writer.drain()
                if chance < self.cut_before + self.cut_after:
                    why = "after"
                    cut.set()
                    return
            why = "closed"
            cut.set()

        async def server_to_client() -> None:
            nonlocal why
            while data := await up_reader.read(1 << 16):
                writer.write(data)
                await writer.drain()
            why = "closed"
            cut.set()

        pipes = [asyncio.create_task(client_to_server()), asyncio.create_task(server_to_client())]
        lifetime = self.rng.uniform(*self.lifetime)
        try:
            await asyncio.wait_for(cut.wait(), lifetime)
        except asyncio.TimeoutError:
            why = "time"
            if plain:  # a page's request: let it finish
                await cut.wait()
                why = "closed"
        finally:
            self.cuts[why] += 1
            for pipe in pipes:
                pipe.cancel()
            writer.transport.abort()
            up_writer.transport.abort()


class Background:
    """A :class:`DroppingProxy` on an event loop of its own, in a thread, until :meth:`stop`."""

    def __init__(self, proxy: DroppingProxy) -> None:
        self.proxy = proxy
        self.loop = asyncio.new_event_loop()
        started = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            self.listening = self.loop.run_until_complete(proxy.start())
            started.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True, name="dropping-proxy")
        self.thread.start()
        started.wait(10)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.listening.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
