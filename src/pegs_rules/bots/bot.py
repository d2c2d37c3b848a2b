"""What a bot is: :class:`Bot`, :func:`decide`, and the clock bots think by.

Every bot is shown a :class:`~pegs_rules.PlayerView` (what its seat may know:
every peg, its own hand, card counts, the discard pile) and the legal moves,
and picks one. It never sees a :class:`~pegs_rules.GameState`, so it cannot
peek at other hands or the draw pile; :func:`decide` makes the view for the
seat to act.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from pegs_rules.errors import PegsError
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import Move
from pegs_rules.state import GameState
from pegs_rules.validate import reraise
from pegs_rules.views import PlayerView, view

__all__ = ["Bot", "checked", "decide", "thinking_time"]


class Bot(Protocol):
    """Anything that picks one of the legal moves, seeing only its seat's view."""

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        """One of ``moves``, the legal moves of the seat whose ``view`` this is."""
        ...


def decide(bot: Bot, state: GameState) -> Move:
    """The move ``bot`` makes for the seat to act in ``state``, shown only that seat's view."""
    seen, moves = view(state, state.turn), legal_moves(state)
    try:
        return bot.choose(seen, moves)
    except Exception as error:  # what a malformed state makes a bot fail with is a PositionError
        reraise(state, error)


def checked(seen: object, moves: tuple[Move, ...]) -> PlayerView:
    """``seen``, if it is a view and there is a move to choose; :class:`PegsError` if not."""
    if not isinstance(seen, PlayerView):
        raise PegsError(
            f"a bot sees a PlayerView (pegs_rules.view(state, seat)), not {type(seen).__name__}"
        )
    if not moves:
        raise PegsError("a bot needs at least one legal move to choose from")
    return seen


def _thread_clock() -> Callable[[], float]:
    """The CPU time of the calling thread, where the platform measures it; else wall time."""
    try:
        time.thread_time()
    except (AttributeError, OSError):  # pragma: no cover - a platform without the clock
        return time.perf_counter
    return time.thread_time


thinking_time = _thread_clock()
"""The clock a bot's time budget is counted on: the CPU time of the thread it thinks in.

Unlike wall time, it does not run while the machine serves other work, so two
bots given the same seconds think as much as each other however busy the
machine is, and a bot on an iteration budget reaches its cap only on a slower
processor, not on a busier one."""
