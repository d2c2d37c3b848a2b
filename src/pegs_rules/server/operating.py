"""How a server follows what its operator does with ``pegs admin`` (:mod:`~pegs_rules.server.admin`).

The operator's actions are rows in the store (:meth:`~pegs_rules.server.store.Store.actions`),
numbered in order; every server reads the new ones every :data:`OPERATOR_POLL`
seconds (an SQLite file is changed by the ``pegs admin`` process, which cannot
tell the server otherwise; on PostgreSQL a removed game is also announced at once):

* ``block`` and ``unblock``: the server reads the blocked addresses again
  (:data:`~pegs_rules.server.limits.BLOCKED`); a request or WebSocket handshake
  from one is refused ``403``, and the connections already open from one are
  closed, told :data:`~pegs_rules.server.games.BLOCKED`;
* ``remove``: the game is forgotten, its connections told
  :data:`~pegs_rules.server.games.REMOVED_BY_OPERATOR` and closed.

Each action is logged, one line, as the server takes it up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from pegs_rules.server.games import BLOCKED as BLOCKED_MESSAGE
from pegs_rules.server.games import REMOVED_BY_OPERATOR
from pegs_rules.server.limits import BLOCKED, Blocked
from pegs_rules.server.registry import Registry
from pegs_rules.server.store import Action, StoreError

log = logging.getLogger("pegs_rules.server")

OPERATOR_POLL = 2.0
"""Seconds between a server's readings of the operator's new actions."""
BATCH = 1000
"""The most actions read at once."""


class Operator:
    """Follows the operator's actions in ``registry``'s store, keeping ``blocked`` up to date."""

    def __init__(self, registry: Registry, blocked: Blocked = BLOCKED) -> None:
        self.registry = registry
        self.blocked = blocked
        self.since = 0
        self.started = False
        """Whether the actions done before this server started are skipped (the database
        may be down when it starts)."""
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Read the blocks, skip the actions already done, and follow the new ones."""
        with contextlib.suppress(StoreError):  # the database is down: done once it is back
            await self._catch_up()
        self.task = asyncio.create_task(self._follow())

    async def _catch_up(self) -> None:
        """Read the blocks and skip the actions done before this server started."""
        await self._read_blocks()
        since = 0
        while done := await asyncio.to_thread(self.registry.store.actions, since, BATCH):
            since = done[-1].seq
        self.since = since
        self.started = True

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _follow(self) -> None:
        while True:
            await asyncio.sleep(OPERATOR_POLL)
            with contextlib.suppress(StoreError):
                await self.poll()

    async def poll(self) -> None:
        """Take up the operator's new actions."""
        if not self.started:
            await self._catch_up()
            return
        actions = await self._actions()
        blocks = False
        for action in actions:
            self.since = action.seq
            log.info(
                "operator: %s %s%s",
                {"remove": "removed game"}.get(action.action, action.action + "ed"),
                action.target,
                f" ({action.note})" if action.note else "",
            )
            if action.action == "remove":
                self.registry.removed(action.target, REMOVED_BY_OPERATOR)
                # moves stored here meanwhile, seats held in this process: gone too
                await asyncio.to_thread(self.registry.store.remove, action.target)
            else:
                blocks = True
        if blocks:
            await self._read_blocks()
            self._close_blocked()

    async def _actions(self) -> list[Action]:
        return await asyncio.to_thread(self.registry.store.actions, self.since, BATCH)

    async def _read_blocks(self) -> None:
        blocks = await asyncio.to_thread(self.registry.store.blocks)
        self.blocked.set([block.network for block in blocks])

    def _close_blocked(self) -> None:
        """Close the connections open from an address now blocked."""
        for game in list(self.registry.games.values()):
            for connection in list(game.connections):
                if getattr(connection, "client", "") in self.blocked:
                    connection.close("unavailable", BLOCKED_MESSAGE)
