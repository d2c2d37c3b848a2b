"""What a bot is: :class:`Bot`, :func:`decide`, :class:`Observer`, and the clock bots think by.

Every bot is shown a :class:`~pegs_rules.PlayerView` (what its seat may know:
every peg, its own hand, card counts, the discard pile) and the legal moves,
and picks one. It never sees a :class:`~pegs_rules.GameState`, so it cannot
peek at other hands or the draw pile; :func:`decide` makes the view for the
seat to act.

A bot that wants to follow the game between its turns (to remember what each
seat played, or to learn from how the game ends) is also an :class:`Observer`:
whatever runs the game (:func:`play`, or :func:`~pegs_rules.simulate.play_game`)
tells it when a game starts and, after every turn of every seat, what the turn did, in
:mod:`~pegs_rules.events` as its seat may see them (:func:`~pegs_rules.redact`:
no card another seat drew). Give each seat a bot object of its own.

>>> from pegs_rules import new_game, CardPlayed, GameOver
>>> from pegs_rules.bots import GreedyBot
>>> class Tally(GreedyBot):  # plays as the greedy bot does, and counts the cards played
...     def start(self, seen):
...         self.seat, self.played = seen.seat, {}
...     def observe(self, events):
...         for event in events:
...             if isinstance(event, CardPlayed):
...                 self.played[event.seat] = self.played.get(event.seat, 0) + 1
...             if isinstance(event, GameOver):
...                 self.won = event.winner == self.seat % 2
>>> bots = [Tally(seat) for seat in range(4)]
>>> end = play(bots, new_game(4, seed=2))
>>> bots[0].played == bots[3].played and sum(bots[0].played.values()) <= end.ply
True
>>> bots[0].won == (end.winner == 0)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from pegs_rules.errors import PegsError
from pegs_rules.events import Event, apply_with_events, redact
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import Move
from pegs_rules.state import GameState
from pegs_rules.turn import apply
from pegs_rules.validate import reraise
from pegs_rules.views import PlayerView, view

__all__ = [
    "Bot",
    "Observer",
    "checked",
    "decide",
    "observers",
    "play",
    "take_turn",
    "tell_start",
    "thinking_time",
]


class Bot(Protocol):
    """Anything that picks one of the legal moves, seeing only its seat's view."""

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        """One of ``moves``, the legal moves of the seat whose ``view`` this is."""
        ...


@runtime_checkable
class Observer(Protocol):
    """A bot told of the game between its turns (see the module docstring)."""

    def start(self, view: PlayerView) -> None:
        """A game begins: ``view`` is the bot's seat's view of it as dealt."""
        ...

    def observe(self, events: tuple[Event, ...]) -> None:
        """A turn was taken, by any seat: what it did, as the bot's seat may see it."""
        ...


Watching = tuple[tuple[int, Observer], ...]
"""The observers among a game's bots, each with its seat (see :func:`observers`)."""


def observers(bots: Sequence[Bot]) -> Watching:
    """Each :class:`Observer` among ``bots`` (the bot of each seat, in seat order), with its
    seat: found once a game, as telling a bot from an observer takes a while."""
    return tuple((seat, bot) for seat, bot in enumerate(bots) if isinstance(bot, Observer))


def tell_start(watching: Watching, state: GameState) -> None:
    """Tell each of ``watching`` (see :func:`observers`) that the game of ``state`` begins."""
    for seat, bot in watching:
        bot.start(view(state, seat))


def take_turn(watching: Watching, state: GameState, move: Move) -> GameState:
    """``apply(state, move)``, telling each of ``watching`` (see :func:`observers`) what the
    turn did, as its seat may see it."""
    if not watching:
        return apply(state, move)
    after, events = apply_with_events(state, move)
    for seat, bot in watching:
        bot.observe(redact(events, seat))
    return after


def play(bots: Sequence[Bot], state: GameState, max_turns: int | None = None) -> GameState:
    """Play ``state`` on to the end (or for ``max_turns`` turns), each seat's move chosen by
    its bot in ``bots`` (in seat order), telling the observers among them from the start."""
    if len(bots) != state.players:
        raise PegsError(f"{len(bots)} bots for {state.players} seats")
    watching = observers(bots)
    tell_start(watching, state)
    limit = None if max_turns is None else state.ply + max_turns
    while state.winner is None and (limit is None or state.ply < limit):
        state = take_turn(watching, state, decide(bots[state.turn], state))
    return state


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
