"""Python's part of the browser playground: the searching bots and the hint.

The page plays on the TypeScript engine (``js/pegs-rules.js``, see
:mod:`pegs_rules.web.build`). What only this library has, the searching bots
(``hard``, ``expert``, ``mcts``) and the hint (:data:`HINT_BOT`'s move), the page
asks of Python, which it loads for them (Pyodide, in a Web Worker: ``js/worker.js``)
the first time one is needed. The worker keeps one :class:`Session` and passes it
each request as JSON text; :meth:`Session.handle` returns the answer as JSON text.
Positions travel as the library's format-1 ``state`` documents, which both engines
write byte for byte alike.

Requests (``{"op": ..., ...}``):

* ``bots``: ``seed`` and ``seats`` (``human`` or a bot's name per seat) of the game
  the page starts: its bots, seeded as in ``pegs demo`` (the bot at seat ``s`` is
  ``make_bot(name, seed * 100 + s)``, so that a game replays exactly from its seed
  and seats); answers ``{"type": "bots"}``;
* ``decide``: ``seat`` and ``state`` (a ``state`` document's JSON text): the move
  that seat's bot makes, seeing only its view; answers ``move`` (notation) and
  ``thought_ms``, how long the bot took to choose it;
* ``hint``: ``state``: the move :data:`HINT_BOT` makes for the seat to act; answers
  ``bot`` and ``move``.

Answers carry ``"ok": true``; a request that cannot be met answers
``{"ok": false, "kind": ..., "error": "<a sentence>"}``, where ``kind`` is
``setup``, ``position`` or ``request``. No input makes :meth:`Session.handle`
raise: a bug in the engine answers kind ``internal``.

:func:`hello` is what the page's set-up form offers; ``pegs web build`` writes it
into the page's ``config.json``.

>>> import json
>>> from pegs_rules import new_game, to_json
>>> session = Session()
>>> json.loads(session.handle(json.dumps({"op": "bots", "seed": 1, "seats": ["greedy"] * 4})))
{'ok': True, 'type': 'bots'}
>>> state = new_game(4, seed=1)
>>> request = {"op": "decide", "seat": state.turn, "state": to_json(state)}
>>> json.loads(session.handle(json.dumps(request)))["move"]
'discard 7'
"""

from __future__ import annotations

import json
import time
from enum import Enum
from typing import Any, TypeGuard

from pegs_rules import __version__
from pegs_rules.bots import BOTS, Bot, decide, make_bot
from pegs_rules.errors import PegsError
from pegs_rules.rules import PRESETS, rule_text
from pegs_rules.rulings import RULINGS
from pegs_rules.serialize import from_json
from pegs_rules.state import GameState

MAX_POSITION = 100_000
"""The longest position text (or state JSON) accepted, in characters; real ones are a few kB."""
MAX_MOVE = 300
"""The longest move text accepted, in characters."""
MAX_REQUEST = MAX_POSITION + 10_000
"""The longest request accepted, in characters."""
MAX_THINKING = 30
"""The longest time budget a bot may have for one move, in seconds."""
HINT_BOT = "expert"
"""The bot whose move a hint shows: the strongest in :mod:`pegs_rules.bots` (any name
:func:`~pegs_rules.bots.make_bot` takes). It plays the seat to act seeing only that
seat's view, seeded from the position (its seed plus its ply), so a hint repeats."""
BOARD_SIZE = 640
"""Width of the board pictures, in pixels (the page scales them)."""

SWITCHES: tuple[tuple[str, str, str], ...] = (
    ("nine", "What a 9 may do", "variant.nine-split"),
    ("face_values", "Holes a J, Q and K move", "variant.face-values"),
    ("two_swap", "A 2 may swap two pegs", "variant.two-swap"),
    ("home_entry_compulsory", "A peg that can enter home must", "variant.home-entry-compulsory"),
    ("wait_on_in_spot", "A peg on its in-spot waits to go home", "variant.wait-on-in-spot"),
    ("in_spot_occupied", "A knocked team peg whose in-spot is held", "variant.in-spot-occupied"),
    ("decks", "Decks and jokers (players,decks,jokers)", "variant.decks"),
    ("control", "Whose pegs a seat moves", "team.control"),
    ("joker_source", "Which pegs a joker moves", "card.joker.source"),
    ("draw_first", "Draw a sixth card before playing", "turn.sequence"),
    ("hand_size", "Cards in a hand", "deal.hands"),
)
"""The house-rule switches the setup form offers: a field of
:class:`~pegs_rules.Rules`, its label and the ruling that defines it."""


class Refused(Exception):
    """A request the session cannot meet; becomes an ``"ok": false`` answer."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class Session:
    """One page's Python: the bots of the game being played, and hints."""

    def __init__(self) -> None:
        self.bots: dict[int, Bot] = {}

    def handle(self, request: str) -> str:
        """The JSON answer to one JSON request (see the module docstring); never raises."""
        try:
            answer = {"ok": True} | self.answer(_read_request(request))
        except Refused as refusal:
            answer = {"ok": False, "kind": refusal.kind, "error": str(refusal)}
        except Exception as error:  # a bug: say so in the page rather than leave it blank
            answer = {"ok": False, "kind": "internal", "error": f"{type(error).__name__}: {error}"}
        return json.dumps(answer)

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        if op == "bots":
            self.bots = _bots(request.get("seed"), request.get("seats"))
            return {"type": "bots"}
        if op == "decide":
            seat = request.get("seat")
            if not (_whole(seat) and seat in self.bots):
                raise Refused("request", f"no bot sits at seat {str(seat)[:20]}")
            state = _state(request, seat)
            started = time.perf_counter()
            move = decide(self.bots[seat], state)
            thought = round((time.perf_counter() - started) * 1000, 1)
            return {"type": "move", "move": str(move), "thought_ms": thought}
        if op == "hint":
            state = _state(request, None)
            try:
                move = decide(make_bot(HINT_BOT, state.seed + state.ply), state)
            except PegsError as error:
                raise Refused("position", f"no hint for this position: {error}") from None
            return {"type": "hint", "bot": HINT_BOT, "move": str(move)}
        raise Refused("request", f"unknown request {str(op)[:40]!r}")


def _bots(seed: object, seats: object) -> dict[int, Bot]:
    """The bots of a game dealt from ``seed``, one for each seat not named ``human``."""
    if not _whole(seed):
        raise Refused("setup", "seed is a whole number")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise Refused("setup", "seats is a list of names: human, random, greedy, mcts...")
    bots: dict[int, Bot] = {}
    for seat, name in enumerate(seats):
        if name == "human":
            continue
        try:
            bots[seat] = make_bot(name, seed * 100 + seat)
        except ValueError as error:
            raise Refused("setup", f"seat {seat}: {error}") from None
        if (getattr(bots[seat], "time_limit", None) or 0) > MAX_THINKING:
            raise Refused("setup", f"seat {seat}: a bot thinks {MAX_THINKING} s at most")
    return bots


def _state(request: dict[str, Any], seat: int | None) -> GameState:
    """The request's ``state``: a game going on, with ``seat`` (if given) to act."""
    text = request.get("state")
    if not isinstance(text, str) or len(text) > MAX_POSITION:
        raise Refused("request", f"state: a state document, at most {MAX_POSITION:,} characters")
    try:
        state = from_json(text, "state")
    except PegsError as error:
        wanted = "hint" if request.get("op") == "hint" else "move"
        raise Refused("position", f"no {wanted} for this position: {error}") from None
    assert isinstance(state, GameState)
    if state.is_over:
        raise Refused("request", "the game is over: there is no move to make")
    if seat is not None and state.turn != seat:
        raise Refused("request", f"seat {state.turn} is to act, not seat {seat}")
    return state


def hello() -> dict[str, Any]:
    """What the setup form offers: presets with their switches, bots, limits."""
    switches = []
    for name, label, ruling in SWITCHES:
        value = getattr(PRESETS["arizona"], name)
        entry: dict[str, Any] = {"name": name, "label": label, "ruling": ruling, "kind": "text"}
        if isinstance(value, bool):
            entry["kind"] = "bool"
        elif isinstance(value, Enum):
            entry |= {"kind": "choice", "choices": [str(m.value) for m in type(value)]}
        switches.append(entry)
    return {
        "type": "hello",
        "version": __version__,
        "presets": {
            preset.name: {
                "players": list(preset.player_counts),
                "rules": {name: rule_text(preset, name) for name, _, _ in SWITCHES},
            }
            for preset in PRESETS.values()
        },
        "switches": switches,
        "bots": list(BOTS),
        "rulings": RULINGS,
        "limits": {"position": MAX_POSITION, "move": MAX_MOVE},
    }


def _read_request(text: object) -> dict[str, Any]:
    if not isinstance(text, str):
        raise Refused("request", "a request is JSON text")
    if len(text) > MAX_REQUEST:
        raise Refused("request", f"a request is at most {MAX_REQUEST} characters")
    try:
        request = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused("request", "a request is a JSON object") from None
    if not isinstance(request, dict):
        raise Refused("request", "a request is a JSON object")
    return request


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
