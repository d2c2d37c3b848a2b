"""JSON for states, moves, rules, records and what a client sees: format 1.

Every document is a JSON object with ``"format": 1`` and a ``"type"``:
``"state"``, ``"move"``, ``"rules"``, ``"record"``, and for clients
``"view"``, ``"moves"``, ``"events"`` and ``"explanation"``. The JSON
Schemas in ``specs/schema/`` (``<type>.schema.json``) describe each one. A
reader that meets another ``format`` number must refuse the document; a later
format may add fields.

Values are written the same way everywhere:

* a card is its symbol: ``"A"``, ``"2"`` .. ``"10"``, ``"J"``, ``"Q"``,
  ``"K"``, ``"JK"``;
* a location is its name as a string: ``"s"`` (start area), ``"h1"`` ..
  ``"h5"`` (the peg's own home lane) or a track hole number such as ``"40"``;
* a step is ``{"seat": 0, "from": "70", "to": "h2"}``.

Documents:

* ``move``: ``"action"`` is ``"play"`` (with ``"card"`` and one or two
  ``"steps"``), ``"discard"`` (with ``"card"``) or ``"pass"``;
* ``rules``: one field per field of :class:`~pegs_rules.Rules`, under the
  same name, converted by its type: numbers, booleans, strings and ``None``
  as themselves, tuples and frozensets as arrays, cards as symbols, other
  enum members as their values (their names if the value is not a string or
  a whole number). A missing field takes its default; an unknown one is an
  error. Inside a state or a record the rules object has no ``format`` or
  ``type``;
* ``state``: ``rules``, ``pegs`` (per seat, its five locations), ``hands``
  (per seat, its cards), ``draw_pile`` (top card first), ``discard_pile``
  (most recent last), ``turn``, ``dealer``, ``seed``, ``reshuffles``,
  ``ply`` and ``winner`` (``0``, ``1`` or ``null``), as in
  :class:`~pegs_rules.GameState`. It includes every hidden card;
* ``record``: ``rules``, ``players``, ``seed``, ``dealer`` (``null``: drawn
  from the seed), ``deck`` (``null``: shuffled from the seed) and ``moves``
  (strings in move notation), as in :class:`~pegs_rules.records.GameRecord`;
* ``view``: what one seat may know, as in :class:`~pegs_rules.PlayerView`:
  ``seat``, ``rules``, ``pegs``, ``hand``, ``hand_sizes``,
  ``draw_pile_size``, ``discard_pile``, ``turn``, ``dealer``,
  ``reshuffles``, ``ply`` and ``winner``. It holds no hidden card and no
  seed;
* ``moves``: a list of moves (``legal_moves`` in its order), each a move
  object as above (without ``format`` and ``type``) plus its
  ``"notation"``, e.g. ``{"notation": "5 0:12-17", "action": "play", ...}``;
* ``events``: what moves did (:mod:`pegs_rules.events`), in order, as seat
  ``seat`` may see them (``"public"``: every drawn card hidden, for
  spectators; ``null``: nothing hidden). Each event is an object
  whose ``"event"`` names its kind (``card_played``, ``card_discarded``,
  ``passed``, ``peg_moved``, ``peg_displaced``, ``cards_drawn``,
  ``reshuffled``, ``game_over``) with the event's fields under their names
  (``from`` and ``to`` for locations; ``cards`` is ``null`` for cards
  another seat drew) and ``"text"``, the event as an English sentence;
* ``explanation``: the verdict on a move (:func:`~pegs_rules.explain`):
  ``legal``, ``rule`` (the ruling id, ``null`` when legal) and ``reason``.

Whole numbers may be large (a seed is any integer); a reader whose numbers
are doubles should expect seeds up to 2**53 only. :func:`to_json` writes a
seed of any size exactly, but :func:`from_json` reads whole numbers of at
most 4,300 digits (the limit Python itself sets on converting text to
numbers, which keeps a hostile document from costing minutes to read), so a
longer seed cannot be read back. :func:`~pegs_rules.new_game` draws 128-bit
seeds.

:func:`from_json` accepts only documents that describe something possible:
a state must pass :func:`~pegs_rules.validate.validate`, rules must be
playable, a record's moves must be move notation. Anything else, from text
that is not JSON to a state with two pegs on one hole, raises
:class:`~pegs_rules.errors.FormatError`, whose ``problems`` list everything
found.

>>> from pegs_rules import new_game, parse_notation, view
>>> game = new_game(4, seed=1)
>>> from_json(to_json(game)) == game
True
>>> from_json(to_json(view(game, 0))) == view(game, 0)
True
>>> print(to_json(parse_notation("7 0:70-h2 2:33-37")))
{"format": 1, "type": "move", "action": "play", "card": "7", "steps": [{"seat": 0, "from": "70", "to": "h2"}, {"seat": 2, "from": "33", "to": "37"}]}
>>> from_json('{"format": 1, "type": "move", "action": "discard", "card": "JK"}')
Discard(card=<Rank.JOKER: 14>)
>>> from_json('{"format": 1, "type": "move", "action": "discard", "card": "joker"}')
Traceback (most recent call last):
...
pegs_rules.errors.FormatError: $.card: expected a card (A 2..10 J Q K JK), not 'joker'
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from enum import Enum
from functools import cache
from typing import Any, Literal, NoReturn, TypeVar, Union, overload

from pegs_rules.board import Location, location_name, parse_location
from pegs_rules.cards import Rank
from pegs_rules.errors import FormatError, PositionError, shown
from pegs_rules.events import (
    CardDiscarded,
    CardPlayed,
    CardsDrawn,
    Event,
    GameOver,
    Passed,
    PegDisplaced,
    PegMoved,
    Reshuffled,
    redact,
)
from pegs_rules.moves import Discard, Move, Pass, Play, Step
from pegs_rules.reasons import Explanation
from pegs_rules.records import GameRecord
from pegs_rules.rules import Rules
from pegs_rules.rulings import RULINGS
from pegs_rules.state import GameState
from pegs_rules.validate import reraise, validate
from pegs_rules.views import PlayerView, determinize

FORMAT = 1
"""The format number this library writes and reads."""

Document = GameState | Play | Discard | Pass | Rules | GameRecord | PlayerView | Explanation
"""Anything :func:`to_json` writes."""
Kind = Literal["state", "move", "rules", "record", "view", "explanation", "moves", "events"]
"""The ``type`` of a document."""
Loaded = Document | tuple[Move, ...] | tuple[Event, ...]
"""Anything :func:`from_json` reads: a ``moves`` or ``events`` document gives a tuple."""

_MAX_PROBLEMS = 50
_LOCATION = re.compile(r"s|h[1-5]|0|[1-9][0-9]{0,5}")
_CARDS = {rank.symbol: rank for rank in Rank}
T = TypeVar("T")


# --- writing -----------------------------------------------------------------------------------


def to_json(value: Document, *, indent: int | None = None) -> str:
    """``value`` as a JSON document (see the module docstring).

    A number that Python cannot write as text (a hand-built state holding a
    whole number of over 4,300 digits anywhere but in its seed) raises
    :class:`~pegs_rules.errors.FormatError`; so does any other value JSON has
    no form for, except in a state, which raises
    :class:`~pegs_rules.errors.PositionError` naming its problems.
    """
    data = to_data(value)
    try:
        return json.dumps(data, indent=indent)
    except ValueError:  # a whole number too long for Python to write as text
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise FormatError(["$: a whole number in this value is too long to write"]) from None
    except TypeError as error:
        _unwritable(value, error)
    data["seed"] = float("nan")  # a placeholder no string can imitate: written bare as NaN
    return _dumps(value, data, indent).replace('"seed": NaN', f'"seed": {_digits(seed)}', 1)


def _dumps(value: Document, data: dict[str, Any], indent: int | None) -> str:
    try:
        return json.dumps(data, indent=indent)
    except ValueError:  # a whole number too long to write as text
        raise FormatError(["$: a whole number in this value is too long to write"]) from None
    except TypeError as error:
        _unwritable(value, error)


def _unwritable(value: Document, error: TypeError) -> NoReturn:
    """Raise for a hand-built ``value`` holding something JSON has no form for."""
    if isinstance(value, GameState):
        reraise(value, error)
    raise FormatError(
        [f"$: this {type(value).__name__} holds a value JSON cannot write"]
    ) from error


def _digits(number: int) -> str:
    """The decimal digits of ``number``, however long (Python's text limit does not apply)."""
    return str(Decimal(number))


def to_data(value: Document) -> dict[str, Any]:
    """``value`` as the JSON-ready dict that :func:`to_json` writes.

    A state that cannot be written raises :class:`~pegs_rules.errors.PositionError`
    naming its problems (see :func:`~pegs_rules.validate`).
    """
    head: dict[str, Any] = {"format": FORMAT}
    if isinstance(value, GameState):
        try:
            return head | {"type": "state"} | _state_data(value)
        except Exception as error:
            reraise(value, error)
    if isinstance(value, (Play, Discard, Pass)):
        return head | {"type": "move"} | _move_data(value)
    if isinstance(value, Rules):
        return head | {"type": "rules"} | _rules_data(value)
    if isinstance(value, GameRecord):
        return head | {"type": "record"} | _record_data(value)
    if isinstance(value, PlayerView):
        return head | {"type": "view"} | _view_data(value)
    if isinstance(value, Explanation):
        return head | {"type": "explanation"} | _explanation_data(value)
    raise FormatError([f"cannot write a {type(value).__name__} as a JSON document"])


def moves_to_data(moves: Iterable[Move]) -> dict[str, Any]:
    """A ``moves`` document listing ``moves`` in the order given, each with its notation.

    >>> from pegs_rules import parse_position, legal_moves
    >>> data = moves_to_data(legal_moves(parse_position("pegs 0: 70\\nhand 0: 7")))
    >>> [move["notation"] for move in data["moves"]]
    ['7 0:70-5', '7 0:70-h2']
    """
    return {
        "format": FORMAT,
        "type": "moves",
        "moves": [{"notation": str(move)} | _move_data(move) for move in moves],
    }


def events_to_data(events: Iterable[Event], seat: int | Literal["public"] | None) -> dict[str, Any]:
    """An ``events`` document: ``events`` as ``seat`` may see them (:func:`redact`).

    With ``seat="public"`` every drawn card is hidden (for spectators); with
    ``seat=None`` nothing is: only for a trusted reader.
    """
    shown = tuple(events) if seat is None else _redact(tuple(events), seat)
    return {
        "format": FORMAT,
        "type": "events",
        "seat": seat,
        "events": [_event_data(event) for event in shown],
    }


def _redact(events: tuple[Event, ...], seat: int | Literal["public"]) -> tuple[Event, ...]:
    return redact(events, -1 if seat == "public" else seat)


def _state_data(state: GameState) -> dict[str, Any]:
    return {
        "rules": _rules_data(state.rules),
        "pegs": [[location_name(p) for p in locs] for locs in state.pegs],
        "hands": [[c.symbol for c in hand] for hand in state.hands],
        "draw_pile": [c.symbol for c in state.draw_pile],
        "discard_pile": [c.symbol for c in state.discard_pile],
        "turn": state.turn,
        "dealer": state.dealer,
        "seed": state.seed,
        "reshuffles": state.reshuffles,
        "ply": state.ply,
        "winner": state.winner,
    }


def _move_data(move: Move) -> dict[str, Any]:
    if isinstance(move, Pass):
        return {"action": "pass"}
    if isinstance(move, Discard):
        return {"action": "discard", "card": move.card.symbol}
    steps = [
        {"seat": s.seat, "from": location_name(s.src), "to": location_name(s.dst)}
        for s in move.steps
    ]
    return {"action": "play", "card": move.card.symbol, "steps": steps}


def _view_data(seen: PlayerView) -> dict[str, Any]:
    return {
        "seat": seen.seat,
        "rules": _rules_data(seen.rules),
        "pegs": [[location_name(p) for p in locs] for locs in seen.pegs],
        "hand": [c.symbol for c in seen.hand],
        "hand_sizes": list(seen.hand_sizes),
        "draw_pile_size": seen.draw_pile_size,
        "discard_pile": [c.symbol for c in seen.discard_pile],
        "turn": seen.turn,
        "dealer": seen.dealer,
        "reshuffles": seen.reshuffles,
        "ply": seen.ply,
        "winner": seen.winner,
    }


def _explanation_data(verdict: Explanation) -> dict[str, Any]:
    return {"legal": verdict.legal, "rule": verdict.rule, "reason": verdict.reason}


_EVENTS: dict[str, type[Event]] = {
    "card_played": CardPlayed,
    "card_discarded": CardDiscarded,
    "passed": Passed,
    "peg_moved": PegMoved,
    "peg_displaced": PegDisplaced,
    "cards_drawn": CardsDrawn,
    "reshuffled": Reshuffled,
    "game_over": GameOver,
}
_EVENT_NAMES = {kind: name for name, kind in _EVENTS.items()}
_JSON_KEY = {"src": "from", "dst": "to"}


def _event_data(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"event": _EVENT_NAMES[type(event)]}
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        if isinstance(value, Rank):
            value = value.symbol
        elif field.name in _JSON_KEY:
            value = location_name(value)
        elif isinstance(value, tuple):
            value = [c.symbol for c in value]
        out[_JSON_KEY.get(field.name, field.name)] = value
    return out | {"text": str(event)}


def _rules_data(rules: Rules) -> dict[str, Any]:
    return {name: _encode(kind, getattr(rules, name)) for name, kind, _ in _rule_fields()}


def _record_data(record: GameRecord) -> dict[str, Any]:
    return {
        "rules": _rules_data(record.rules),
        "players": record.players,
        "seed": record.seed,
        "dealer": record.dealer,
        "deck": None if record.deck is None else [c.symbol for c in record.deck],
        "moves": list(record.moves),
    }


@cache
def _rule_fields() -> tuple[tuple[str, Any, bool], ...]:
    """Each field of :class:`Rules`: its name, its type and whether it has a default."""
    hints = typing.get_type_hints(Rules)
    return tuple(
        (
            f.name,
            hints[f.name],
            f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING,
        )
        for f in dataclasses.fields(Rules)
    )


def _encode(kind: Any, value: Any) -> Any:
    """``value`` of type ``kind`` as JSON data (type-directed, for :class:`Rules` fields)."""
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if kind is Rank:
        return value.symbol
    if isinstance(kind, type) and issubclass(kind, Enum):
        return _enum_data(value)
    if kind in (bool, int, float, str, type(None)):
        return value
    if origin is tuple or origin is frozenset:
        items = args[:1] * len(value) if origin is frozenset or args[-1:] == (...,) else args
        out = [_encode(item, v) for item, v in zip(items, value, strict=True)]
        return sorted(out, key=json.dumps) if origin is frozenset else out
    if origin is Literal:
        return value
    if origin in (Union, types.UnionType):
        for arg in args:
            if _is_instance(value, arg):
                return _encode(arg, value)
    raise FormatError([f"cannot write {value!r} of type {kind!r} as JSON"])


def _enum_data(member: Enum) -> Any:
    value = member.value
    return value if isinstance(value, (str, int)) and not isinstance(value, bool) else member.name


def _is_instance(value: object, kind: Any) -> bool:
    origin = typing.get_origin(kind)
    if kind is type(None):
        return value is None
    if origin is Literal:
        return value in typing.get_args(kind)
    return isinstance(value, origin or kind)


# --- reading -----------------------------------------------------------------------------------


class _Invalid(Exception):
    """Raised inside the reader once a problem has been recorded."""


class _Reader:
    """Collects problems, each with the path of the value at fault."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def bad(self, path: str, message: str) -> _Invalid:
        if len(self.problems) < _MAX_PROBLEMS:
            self.problems.append(f"{path}: {message}")
        elif len(self.problems) == _MAX_PROBLEMS:
            self.problems.append("... and more problems")
        return _Invalid()

    def error(self) -> FormatError:
        return FormatError(self.problems or ["invalid document"])


def _describe(data: object) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    if data is None:
        return "null"
    if isinstance(data, (int, float)) and not isinstance(data, bool):
        return "a number"
    return names.get(type(data), type(data).__name__)


def _int(r: _Reader, data: object, path: str) -> int:
    if isinstance(data, int) and not isinstance(data, bool):
        return data
    raise r.bad(path, f"expected a whole number, not {_describe(data)}")


def _str(r: _Reader, data: object, path: str) -> str:
    if isinstance(data, str):
        return data
    raise r.bad(path, f"expected a string, not {_describe(data)}")


def _card(r: _Reader, data: object, path: str) -> Rank:
    if isinstance(data, str) and data in _CARDS:
        return _CARDS[data]
    raise r.bad(path, f"expected a card (A 2..10 J Q K JK), not {_short(data)}")


def _location(r: _Reader, data: object, path: str) -> Location:
    if isinstance(data, str) and _LOCATION.fullmatch(data):
        return parse_location(data)
    raise r.bad(path, f"expected a location ('s', 'h1'..'h5' or a hole number), not {_short(data)}")


def _short(data: object) -> str:
    """``data`` itself if short, else what kind of value it is."""
    if isinstance(data, str) and len(data) <= 20:
        return repr(data)
    if data is None or isinstance(data, (bool, int, float)):
        text = (
            shown(data)
            if isinstance(data, int) and not isinstance(data, bool)
            else json.dumps(data)
        )
        return text if len(text) <= 20 else _describe(data)
    return _describe(data)


def _list(
    r: _Reader,
    data: object,
    path: str,
    item: Callable[[_Reader, object, str], T],
    *,
    size: tuple[int, int] | None = None,
) -> list[T]:
    if not isinstance(data, list):
        raise r.bad(path, f"expected an array, not {_describe(data)}")
    if size is not None and not size[0] <= len(data) <= size[1]:
        want = str(size[0]) if size[0] == size[1] else f"{size[0]} to {size[1]}"
        raise r.bad(path, f"expected {want} items, not {len(data)}")
    out = []
    failed = False
    for i, x in enumerate(data):
        try:
            out.append(item(r, x, f"{path}[{i}]"))
        except _Invalid:
            failed = True
    if failed:
        raise _Invalid
    return out


def _object(
    r: _Reader,
    data: object,
    path: str,
    fields: Mapping[str, Callable[[_Reader, object, str], Any]],
    optional: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The fields of a JSON object, each read by its reader; unknown keys are problems."""
    if not isinstance(data, dict):
        raise r.bad(path, f"expected an object, not {_describe(data)}")
    failed = False
    for key in data:
        if key not in fields:
            failed = True
            r.bad(path, f"unknown field {_short(key)}")
    out: dict[str, Any] = {}
    for key, read in fields.items():
        if key not in data:
            if key not in optional:
                failed = True
                r.bad(path, f"missing field {key!r}")
            continue
        try:
            out[key] = read(r, data[key], f"{path}.{key}")
        except _Invalid:
            failed = True
    if failed:
        raise _Invalid
    return out


def _nullable(
    read: Callable[[_Reader, object, str], T],
) -> Callable[[_Reader, object, str], T | None]:
    def read_or_null(r: _Reader, data: object, path: str) -> T | None:
        return None if data is None else read(r, data, path)

    return read_or_null


def _head(r: _Reader, data: object, kind: str | None) -> tuple[str, dict[str, Any]]:
    """Check ``format`` and ``type``; return the type and the other fields."""
    if not isinstance(data, dict):
        raise r.bad("$", f"expected a JSON object, not {_describe(data)}")
    if "format" not in data:
        raise r.bad("$", "missing field 'format' (this library reads format 1)")
    if type(data["format"]) is not int or data["format"] != FORMAT:
        raise r.bad("$.format", f"format {_short(data['format'])} is not supported (only 1)")
    if "type" not in data:
        raise r.bad("$", f"missing field 'type' ({', '.join(map(repr, _READERS))})")
    found = data["type"]
    if not isinstance(found, str) or found not in _READERS:
        raise r.bad(
            "$.type", f"expected one of {', '.join(map(repr, _READERS))}, not {_short(found)}"
        )
    if kind is not None and found != kind:
        raise r.bad("$.type", f"expected a {kind} document, not a {found}")
    return found, {k: v for k, v in data.items() if k not in ("format", "type")}


def _read_rules(r: _Reader, data: object, path: str) -> Rules:
    fields = {name: _typed(kind) for name, kind, _ in _rule_fields()}
    optional = tuple(name for name, _, default in _rule_fields() if default)
    values = _object(r, data, path, fields, optional)
    try:
        return Rules(**values)
    except (ValueError, TypeError) as error:  # RulesError, or a type the checks missed
        raise r.bad(path, f"unplayable rules: {error}") from None


def _typed(kind: Any) -> Callable[[_Reader, object, str], Any]:
    """A reader for a value of type ``kind`` (the inverse of :func:`_encode`)."""

    def read(r: _Reader, data: object, path: str) -> Any:
        return _decode(r, kind, data, path)

    return read


def _decode(r: _Reader, kind: Any, data: object, path: str) -> Any:
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if kind is Rank:
        return _card(r, data, path)
    if isinstance(kind, type) and issubclass(kind, Enum):
        for member in kind:
            if _enum_data(member) == data and type(_enum_data(member)) is type(data):
                return member
        choices = ", ".join(json.dumps(_enum_data(m)) for m in kind)
        raise r.bad(path, f"expected one of {choices}, not {_short(data)}")
    if kind is bool:
        if isinstance(data, bool):
            return data
        raise r.bad(path, f"expected true or false, not {_describe(data)}")
    if kind is int:
        return _int(r, data, path)
    if kind is float:
        if isinstance(data, (int, float)) and not isinstance(data, bool):
            return float(data)
        raise r.bad(path, f"expected a number, not {_describe(data)}")
    if kind is str:
        return _str(r, data, path)
    if kind is type(None):
        if data is None:
            return None
        raise r.bad(path, f"expected null, not {_describe(data)}")
    if origin is tuple and args[-1:] == (...,):
        return tuple(_list(r, data, path, _typed(args[0])))
    if origin is tuple:
        if not isinstance(data, list) or len(data) != len(args):
            raise r.bad(path, f"expected an array of {len(args)} items, not {_short(data)}")
        out = []
        for i, (arg, item) in enumerate(zip(args, data, strict=True)):
            with contextlib.suppress(_Invalid):
                out.append(_decode(r, arg, item, f"{path}[{i}]"))
        if len(out) < len(args):
            raise _Invalid
        return tuple(out)
    if origin is frozenset:
        return frozenset(_list(r, data, path, _typed(args[0])))
    if origin is Literal:
        for arg in args:
            if arg == data and type(arg) is type(data):
                return arg
        raise r.bad(path, f"expected one of {', '.join(map(json.dumps, args))}, not {_short(data)}")
    if origin in (Union, types.UnionType):
        for arg in args:
            trial = _Reader()
            try:
                return _decode(trial, arg, data, path)
            except _Invalid:
                continue
        raise r.bad(path, f"expected a value of type {kind}, not {_short(data)}")
    raise r.bad(path, f"cannot read a value of type {kind!r}")


def _read_step(r: _Reader, data: object, path: str) -> Step:
    fields = {"seat": _int, "from": _location, "to": _location}
    values = _object(r, data, path, fields)
    if values["seat"] < 0:
        raise r.bad(f"{path}.seat", f"a seat is 0 or more, not {values['seat']}")
    return Step(values["seat"], values["from"], values["to"])


def _read_move(r: _Reader, data: dict[str, Any], path: str) -> Move:
    action = data.get("action")
    if action == "pass":
        _object(r, data, path, {"action": _str})
        return Pass()
    if action == "discard":
        return Discard(_object(r, data, path, {"action": _str, "card": _card})["card"])
    if action == "play":
        fields = {
            "action": _str,
            "card": _card,
            "steps": lambda r, x, p: _list(r, x, p, _read_step, size=(1, 2)),
        }
        values = _object(r, data, path, fields)
        return Play(values["card"], tuple(values["steps"]))
    raise r.bad(f"{path}.action", f"expected 'play', 'discard' or 'pass', not {_short(action)}")


def _cards(r: _Reader, data: object, path: str) -> tuple[Rank, ...]:
    return tuple(_list(r, data, path, _card))


def _read_state(r: _Reader, data: dict[str, Any], path: str) -> GameState:
    fields = {
        "rules": _read_rules,
        "pegs": lambda r, x, p: _list(r, x, p, lambda r, y, q: _list(r, y, q, _location)),
        "hands": lambda r, x, p: _list(r, x, p, _cards),
        "draw_pile": _cards,
        "discard_pile": _cards,
        "turn": _int,
        "dealer": _int,
        "seed": _int,
        "reshuffles": _int,
        "ply": _int,
        "winner": _nullable(_int),
    }
    values = _object(r, data, path, fields)
    state = GameState(
        rules=values["rules"],
        pegs=tuple(tuple(sorted(locs)) for locs in values["pegs"]),
        hands=tuple(tuple(sorted(hand)) for hand in values["hands"]),
        draw_pile=values["draw_pile"],
        discard_pile=values["discard_pile"],
        turn=values["turn"],
        dealer=values["dealer"],
        seed=values["seed"],
        reshuffles=values["reshuffles"],
        ply=values["ply"],
        winner=values["winner"],
    )
    problems = validate(state)
    if problems:
        for problem in problems:
            r.bad(path, f"impossible state: {problem}")
        raise _Invalid
    return state


def _read_record(r: _Reader, data: dict[str, Any], path: str) -> GameRecord:
    fields = {
        "rules": _read_rules,
        "players": _int,
        "seed": _int,
        "dealer": _nullable(_int),
        "deck": _nullable(_cards),
        "moves": lambda r, x, p: tuple(_list(r, x, p, _str)),
    }
    values = _object(r, data, path, fields, optional=("dealer", "deck"))
    try:
        return GameRecord(**values)
    except FormatError as error:
        for problem in error.problems:
            r.bad(path, f"invalid record: {problem}")
        raise _Invalid from None


def _read_view(r: _Reader, data: dict[str, Any], path: str) -> PlayerView:
    fields = {
        "seat": _int,
        "rules": _read_rules,
        "pegs": lambda r, x, p: _list(r, x, p, lambda r, y, q: _list(r, y, q, _location)),
        "hand": _cards,
        "hand_sizes": lambda r, x, p: _list(r, x, p, _int),
        "draw_pile_size": _int,
        "discard_pile": _cards,
        "turn": _int,
        "dealer": _int,
        "reshuffles": _int,
        "ply": _int,
        "winner": _nullable(_int),
    }
    values = _object(r, data, path, fields)
    seen = PlayerView(
        **values
        | {
            "pegs": tuple(tuple(sorted(locs)) for locs in values["pegs"]),
            "hand": tuple(sorted(values["hand"])),
            "hand_sizes": tuple(values["hand_sizes"]),
        }
    )
    try:  # a view is possible exactly when some full state agrees with it
        determinize(seen, random.Random(0))
    except PositionError as error:
        raise r.bad(path, f"impossible view: {error}") from None
    return seen


def _read_explanation(r: _Reader, data: dict[str, Any], path: str) -> Explanation:
    fields = {"legal": _typed(bool), "rule": _nullable(_str), "reason": _str}
    values = _object(r, data, path, fields)
    verdict = Explanation(**values)
    if verdict.legal != (verdict.rule is None):
        raise r.bad(path, "a legal move has no rule id, and an illegal one has one")
    if verdict.rule is not None and verdict.rule not in RULINGS:
        raise r.bad(f"{path}.rule", f"no ruling {_short(verdict.rule)}")
    return verdict


def _read_moves(r: _Reader, data: dict[str, Any], path: str) -> tuple[Move, ...]:
    def entry(r: _Reader, item: object, where: str) -> Move:
        if not isinstance(item, dict):
            raise r.bad(where, f"expected an object, not {_describe(item)}")
        notation = _str(r, item.get("notation"), f"{where}.notation")
        move = _read_move(r, {k: v for k, v in item.items() if k != "notation"}, where)
        if str(move) != notation:
            raise r.bad(f"{where}.notation", f"{_short(notation)} does not match the move {move}")
        return move

    moves = tuple(_object(r, data, path, {"moves": lambda r, x, p: _list(r, x, p, entry)})["moves"])
    if len(set(moves)) != len(moves):
        raise r.bad(f"{path}.moves", "a move is listed twice")
    return moves


_EVENT_FIELDS: dict[str, Callable[[_Reader, object, str], Any]] = {  # but Reshuffled: all ints
    "seat": _int,
    "card": _card,
    "src": _location,
    "dst": _location,
    "count": _int,
    "cards": _nullable(_cards),
    "winner": _int,
}


def _read_event(r: _Reader, data: object, path: str) -> Event:
    if not isinstance(data, dict):
        raise r.bad(path, f"expected an object, not {_describe(data)}")
    name = data.get("event")
    if not isinstance(name, str) or name not in _EVENTS:
        raise r.bad(f"{path}.event", f"expected one of {', '.join(_EVENTS)}, not {_short(name)}")
    kind = _EVENTS[name]
    names = [field.name for field in dataclasses.fields(kind)]
    fields = {"event": _str, "text": _str} | {
        _JSON_KEY.get(n, n): _int if kind is Reshuffled else _EVENT_FIELDS[n] for n in names
    }
    values = _object(r, data, path, fields, optional=("text",))
    event = kind(**{n: values[_JSON_KEY.get(n, n)] for n in names})
    problem = _event_problem(event)
    if problem:
        raise r.bad(path, problem)
    if values.get("text", str(event)) != str(event):
        raise r.bad(f"{path}.text", f"expected {str(event)!r}, the event's own sentence")
    return event


def _event_problem(event: Event) -> str | None:
    """What makes ``event`` impossible on its own, if anything."""
    if isinstance(event, Reshuffled):
        if event.cards < 1 or event.number < 1:
            return "a reshuffle takes at least one card and is numbered from 1"
        return None
    if any(getattr(event, n, 0) < 0 for n in ("seat", "count")):
        return "seats and counts are 0 or more"
    if isinstance(event, CardsDrawn):
        if event.count < 1:
            return "a draw takes at least one card"
        if event.cards is not None and len(event.cards) != event.count:
            return f"count {event.count} does not match the {len(event.cards)} cards drawn"
    if isinstance(event, GameOver) and event.winner not in (0, 1):
        return f"the winner is team 0 or 1, not {event.winner}"
    return None


def _read_events(r: _Reader, data: dict[str, Any], path: str) -> tuple[Event, ...]:
    def seat_or_public(r: _Reader, data: object, path: str) -> int | str:
        return "public" if data == "public" else _int(r, data, path)

    fields = {
        "seat": _nullable(seat_or_public),
        "events": lambda r, x, p: _list(r, x, p, _read_event),
    }
    values = _object(r, data, path, fields)
    seat, events = values["seat"], tuple(values["events"])
    for i, event in enumerate(events):
        if not isinstance(event, CardsDrawn):
            continue
        secret = seat is not None and event.seat != seat
        if secret and event.cards is not None:
            reader = "spectators" if seat == "public" else f"seat {seat}"
            message = f"the cards seat {event.seat} drew must be hidden from {reader}"
            raise r.bad(f"{path}.events[{i}].cards", message)
        if not secret and event.cards is None:
            reader = "an unredacted document" if seat is None else f"seat {seat}"
            message = f"the cards seat {event.seat} drew are hidden, but not from {reader}"
            raise r.bad(f"{path}.events[{i}].cards", message)
    return events


_READERS: dict[str, Callable[[_Reader, dict[str, Any], str], Loaded]] = {
    "state": _read_state,
    "move": _read_move,
    "rules": _read_rules,
    "record": _read_record,
    "view": _read_view,
    "explanation": _read_explanation,
    "moves": _read_moves,
    "events": _read_events,
}


@overload
def from_data(data: object, kind: Literal["state"]) -> GameState: ...
@overload
def from_data(data: object, kind: Literal["move"]) -> Move: ...
@overload
def from_data(data: object, kind: Literal["rules"]) -> Rules: ...
@overload
def from_data(data: object, kind: Literal["record"]) -> GameRecord: ...
@overload
def from_data(data: object, kind: Literal["view"]) -> PlayerView: ...
@overload
def from_data(data: object, kind: Literal["explanation"]) -> Explanation: ...
@overload
def from_data(data: object, kind: Literal["moves"]) -> tuple[Move, ...]: ...
@overload
def from_data(data: object, kind: Literal["events"]) -> tuple[Event, ...]: ...
@overload
def from_data(data: object, kind: None = None) -> Loaded: ...
def from_data(data: object, kind: Kind | None = None) -> Loaded:
    """The value that the JSON data ``data`` (as :func:`json.loads` gives it) describes.

    With ``kind``, only a document of that ``type`` is accepted.
    """
    r = _Reader()
    try:
        found, body = _head(r, data, kind)
        return _READERS[found](r, body, "$")
    except _Invalid:
        raise r.error() from None


@overload
def from_json(text: str | bytes, kind: Literal["state"]) -> GameState: ...
@overload
def from_json(text: str | bytes, kind: Literal["move"]) -> Move: ...
@overload
def from_json(text: str | bytes, kind: Literal["rules"]) -> Rules: ...
@overload
def from_json(text: str | bytes, kind: Literal["record"]) -> GameRecord: ...
@overload
def from_json(text: str | bytes, kind: Literal["view"]) -> PlayerView: ...
@overload
def from_json(text: str | bytes, kind: Literal["explanation"]) -> Explanation: ...
@overload
def from_json(text: str | bytes, kind: Literal["moves"]) -> tuple[Move, ...]: ...
@overload
def from_json(text: str | bytes, kind: Literal["events"]) -> tuple[Event, ...]: ...
@overload
def from_json(text: str | bytes, kind: None = None) -> Loaded: ...
def from_json(text: str | bytes, kind: Kind | None = None) -> Loaded:
    """The value that the JSON document ``text`` describes (see the module docstring).

    With ``kind`` (``"state"``, ``"move"``, ``"rules"``, ``"record"``,
    ``"view"``, ``"explanation"``, ``"moves"`` or ``"events"``), only a
    document of that ``type`` is accepted. Raises
    :class:`~pegs_rules.errors.FormatError` listing every problem found.
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise FormatError([f"$: a JSON document is text, not {type(text).__name__}"])
    try:
        data = json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_constant=_no_constant,
            parse_int=_whole_number,
        )
    except RecursionError:
        raise FormatError(["$: nested too deeply"]) from None
    except ValueError as error:  # JSONDecodeError, bad UTF-8, a number too long
        raise FormatError([f"$: not JSON: {error}"]) from None
    try:
        return from_data(data, kind)
    except RecursionError:  # pragma: no cover - json.loads fails first
        raise FormatError(["$: nested too deeply"]) from None


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"field {key!r} given twice")
        out[key] = value
    return out


_MAX_DIGITS = 4300
"""The longest whole number a document may hold, as Python's own default limit."""


def _whole_number(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        raise ValueError(f"a whole number of {len(text)} digits (at most {_MAX_DIGITS})")
    return int(text)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")
