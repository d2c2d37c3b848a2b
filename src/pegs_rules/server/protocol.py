"""The WebSocket protocol: the messages, their limits, and reading a client's frames.

Every message is one JSON object in a text frame, with a ``"type"``. The
documents inside them (``view``, ``moves``, ``events``, ``explanation``) are
the format-1 documents of :mod:`pegs_rules.serialize`; the JSON Schema of
every message is in ``specs/schema/server/``.

A client sends:

* ``{"type": "join", "token": T}`` first (a seat's or the spectator's token,
  from the fragment of its link); ``"board": false`` asks for no SVG boards;
* ``{"type": "move", "move": "7 70-h2 33-37"}`` on its turn, in move notation
  (printable ASCII), shorthands allowed; ``"ply"`` (optional) is the ply the move was chosen at,
  and a move for another ply is refused as stale;
* ``{"type": "ping"}``, answered by ``{"type": "pong"}``.

The server sends ``welcome`` once after a join, ``state`` then and after every
move, ``illegal`` for a move the rules forbid and ``error`` for anything else
it refuses (see :data:`ERRORS`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pegs_rules.events import Event
from pegs_rules.moves import Move
from pegs_rules.reasons import Explanation
from pegs_rules.serialize import FORMAT, events_to_data, moves_to_data, to_data
from pegs_rules.state import GameState
from pegs_rules.views import view

PROTOCOL = 1
"""The protocol version, sent in ``welcome``."""

MAX_FRAME = 4096
"""The longest text frame a client may send, in characters; longer ones are refused."""
MAX_MOVE_TEXT = 200
"""The longest move text read."""
RATE = 50.0
"""Frames a second a connection may send on average (a seat needs one a turn) ..."""
BURST = 100
"""... and at most this many at once."""
MAX_REFUSED = 100
"""A connection that sends this many frames over its rate is closed."""
JOIN_TIMEOUT = 10.0
"""Seconds a new connection has to send its ``join``."""

ERRORS = {
    "bad_json": "the frame is not a JSON object",
    "bad_message": "the message lacks a field or has one of the wrong type",
    "unknown_type": "the message type is not one the server knows",
    "too_large": "the frame is longer than the server reads",
    "rate_limited": "too many frames: slow down",
    "not_joined": "send a join message first",
    "already_joined": "this connection has joined already",
    "bad_token": "no such game, or the token is not one of its tokens",
    "spectator": "a spectator cannot make moves",
    "not_your_turn": "it is another seat's turn",
    "stale": "the move was chosen at another ply",
    "notation": "the text is not a move",
    "ambiguous": "the shorthand names several legal moves",
    "game_over": "the game is over",
    "unavailable": "the game cannot be played now",
    "replaced": "the seat was joined from another connection",
    "server_error": "the server could not carry out the request; nothing was changed",
}
"""Every error code, with what it means."""


class ProtocolError(Exception):
    """A client frame the server refuses: ``code`` (one of :data:`ERRORS`) and a message.

    ``candidates`` lists the moves an ``ambiguous`` shorthand could be.
    """

    def __init__(
        self, code: str, message: str | None = None, candidates: list[str] | None = None
    ) -> None:
        super().__init__(message or ERRORS[code])
        self.code = code
        self.message = message or ERRORS[code]
        self.candidates = candidates

    def answer(self) -> str:
        """The ``error`` message that tells the client."""
        if self.candidates is None:
            return error(self.code, self.message)
        return error(self.code, self.message, candidates=self.candidates)


@dataclass(frozen=True, slots=True)
class Join:
    """``join``: the token, and whether boards are wanted."""

    token: str
    board: bool = True


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """``move``: the move text and, optionally, the ply it was chosen at."""

    move: str
    ply: int | None = None


@dataclass(frozen=True, slots=True)
class Ping:
    """``ping``."""


ClientMessage = Join | MoveRequest | Ping


def read_frame(text: str | bytes) -> ClientMessage:
    """The message a client frame holds; :class:`ProtocolError` for anything else."""
    if len(text) > MAX_FRAME:
        raise ProtocolError("too_large", f"a frame holds at most {MAX_FRAME} characters")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json")
    kind = data.get("type")
    if kind == "join":
        token = _field(data, "token", str)
        board = data.get("board", True)
        if not isinstance(board, bool):
            raise ProtocolError("bad_message", "'board' is true or false")
        return Join(token, board)
    if kind == "move":
        move = _field(data, "move", str)
        if len(move) > MAX_MOVE_TEXT:
            raise ProtocolError("bad_message", f"a move is at most {MAX_MOVE_TEXT} characters")
        if not (move.isascii() and move.isprintable()):
            raise ProtocolError("notation", "a move is written in printable ASCII (digits 0-9)")
        ply = data.get("ply")
        if ply is not None and (isinstance(ply, bool) or not isinstance(ply, int)):
            raise ProtocolError("bad_message", "'ply' is a whole number")
        return MoveRequest(move, ply)
    if kind == "ping":
        return Ping()
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message has a 'type' string")
    raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r}")


def _field(data: dict[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind):
        raise ProtocolError("bad_message", f"'{data.get('type')}' needs a '{name}' {kind.__name__}")
    return value


# --- server messages -----------------------------------------------------------------------------


def public_data(state: GameState) -> dict[str, Any]:
    """What anyone may know of ``state``: a ``view`` document without ``seat`` and ``hand``."""
    data = to_data(view(state, 0))
    del data["seat"], data["hand"]
    return {"format": FORMAT, "type": "public"} | {
        k: v for k, v in data.items() if k not in ("format", "type")
    }


def welcome(game_id: str, seat: int | None, seats: tuple[str, ...], rules: str) -> str:
    """The ``welcome`` message: who this connection is in which game."""
    return json.dumps(
        {
            "type": "welcome",
            "protocol": PROTOCOL,
            "game": game_id,
            "role": "spectator" if seat is None else "seat",
            "seat": seat,
            "players": len(seats),
            "seats": list(seats),
            "rules": rules,
        }
    )


def state_message(
    state: GameState,
    seat: int | None,
    last: tuple[str, tuple[Event, ...]] | None,
    legal: tuple[Move, ...],
    board: str | None,
) -> str:
    """The ``state`` message for ``seat`` (``None``: a spectator).

    ``last`` is the move that led to ``state`` (in notation) and its events
    (redacted for the reader), ``legal`` the legal moves (listed only to the
    seat to act) and ``board`` the public SVG board, if wanted.
    """
    move, events = last if last is not None else (None, None)
    message: dict[str, Any] = {"type": "state", "ply": state.ply, "move": move}
    if seat is None:
        message["public"] = public_data(state)
        message["events"] = None if events is None else events_to_data(events, "public")
    else:
        message["view"] = to_data(view(state, seat))
        message["events"] = None if events is None else events_to_data(events, seat)
    mine = seat is not None and seat == state.turn and state.winner is None
    message["moves"] = moves_to_data(legal) if mine else None
    if board is not None:
        message["board"] = board
    return json.dumps(message)


def illegal(move: str, rule: str, reason: str) -> str:
    """The ``illegal`` message: the move, and the ruling that forbids it."""
    verdict = to_data(Explanation(legal=False, rule=rule, reason=reason))
    return json.dumps({"type": "illegal", "move": move, "explanation": verdict})


def error(code: str, message: str | None = None, **extra: Any) -> str:
    """An ``error`` message with ``code`` (one of :data:`ERRORS`)."""
    return json.dumps({"type": "error", "code": code, "message": message or ERRORS[code]} | extra)


PONG = json.dumps({"type": "pong"})
