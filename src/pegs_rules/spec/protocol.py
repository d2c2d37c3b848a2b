"""The engine protocol, the reference engine's side: :func:`handle` and :func:`serve`.

An engine reads requests from its standard input and writes answers to its
standard output, one JSON object per line (``specs/protocol.md`` describes
every message; ``specs/schema/protocol/`` has a JSON Schema for each). Every
request carries an ``id``, which the answer repeats, and a ``type``:

* ``hello``: answered with the engine's name, version and protocol number;
* ``legal``: a position, answered with its legal moves in notation;
* ``apply``: a position and a move, answered with the position after it or
  the id of the ruling that forbids it;
* ``deal``: players, dealer, rules and a seed (or a deck order), answered
  with the dealt position;
* ``perft``: a position and a depth, answered with the number of move
  sequences of that length (and, with ``divide``, per first move);
* ``quit``: not answered; the engine exits.

Positions travel both as position text and as state JSON; an engine reads
whichever it likes. A request the engine cannot serve is answered with
``{"id": ..., "error": "..."}``. A request line may be :data:`MAX_REQUEST` bytes long at
most, and an error's message :data:`MAX_ERROR` characters, so that junk of any size costs
the engine little and comes back short.

>>> answer = handle({"id": 1, "type": "legal", "position": "pegs 0: 70\\nhand 0: 7"})
>>> answer
{'id': 1, 'moves': ['7 0:70-5', '7 0:70-h2']}
>>> handle({"id": 2, "type": "apply", "position": "pegs 0: 70\\nhand 0: 7", "move": "7 0:70-6"})
{'id': 2, 'illegal': 'card.seven', 'reason': 'a 7 moves a peg exactly 7 holes forward'}
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import replace
from functools import lru_cache
from typing import IO, Any, TextIO

from pegs_rules import __version__
from pegs_rules.cards import Rank, build_deck, parse_cards
from pegs_rules.errors import FormatError, IllegalMoveError, PegsError
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import Discard, Move, Play, parse_notation
from pegs_rules.position import parse_position
from pegs_rules.serialize import from_data, to_data
from pegs_rules.spec.perft import divide, perft
from pegs_rules.spec.suite import rules_of
from pegs_rules.state import GameState, deal, new_game, reshuffled
from pegs_rules.turn import apply

PROTOCOL = 1
"""The protocol version this module speaks."""

ENGINE = "pegs-rules"
"""The name the reference engine gives in its ``hello`` answer."""

MAX_PERFT_DEPTH = 6
"""The deepest perft the reference engine accepts (deeper would run for hours)."""

MAX_REQUEST = 1 << 20
"""The longest request line served, in bytes (1 MiB, its line end aside): a longer one is
answered with an error, unread beyond this length (the suite's largest request is some 4 KB)."""

MAX_ERROR = 1000
"""The longest error message answered, in characters: a longer one (quoting a long piece of
the request) is cut there and ends with ``...``."""

_SKIP = 1 << 16
"""The piece in which the rest of a request line longer than :data:`MAX_REQUEST` is read and
dropped."""


class ProtocolError(PegsError):
    """A request that is not a valid message of the protocol."""


def handle(request: object) -> dict[str, Any] | None:
    """The answer to one request (already decoded from JSON); ``None`` for ``quit``.

    Never raises: a request it cannot serve gets an ``error`` answer.
    """
    ident = request.get("id") if isinstance(request, dict) else None
    if not isinstance(ident, (int, str)) or isinstance(ident, bool):
        ident = None
    try:
        if not isinstance(request, dict):
            raise ProtocolError("a request is a JSON object")
        kind = request.get("type")
        if kind == "quit":
            return None
        if not isinstance(kind, str) or kind not in _ANSWERS:
            raise ProtocolError(f"unknown request type {kind!r}; known: {', '.join(_ANSWERS)}")
        answer = _ANSWERS[kind](request)
    except PegsError as error:
        return {"id": ident, "error": _clipped(str(error))}
    return {"id": ident, **answer}


def serve(source: IO[bytes] = sys.stdin.buffer, sink: TextIO = sys.stdout) -> int:
    """Answer requests from ``source`` (UTF-8 bytes; those that are not UTF-8 make errors) on
    ``sink``, a line each, until ``quit`` or the end.

    A line longer than :data:`MAX_REQUEST` bytes is answered with an error, and the rest of it
    read and dropped in pieces, never held whole.
    """
    while line := source.readline(MAX_REQUEST + 1):
        answer: dict[str, Any] | None
        if len(line) > MAX_REQUEST and not line.endswith(b"\n"):
            while (rest := source.readline(_SKIP)) and not rest.endswith(b"\n"):
                pass
            answer = {"id": None, "error": f"a request line longer than {MAX_REQUEST:,} bytes"}
        elif not line.strip():
            continue
        else:
            try:
                request = json.loads(line.decode("utf-8", errors="replace"))
            except (ValueError, RecursionError) as error:
                answer = {"id": None, "error": _clipped(f"not JSON: {error}")}
            else:
                answer = handle(request)
        if answer is None:
            break
        sink.write(json.dumps(answer) + "\n")
        sink.flush()
    return 0


def _clipped(message: str) -> str:
    """``message`` cut after :data:`MAX_ERROR` characters, ending with ``...`` if cut."""
    return message if len(message) <= MAX_ERROR else message[:MAX_ERROR] + "..."


# --- the answers --------------------------------------------------------------------------------


def _hello(request: dict[str, Any]) -> dict[str, Any]:
    return {"engine": ENGINE, "version": __version__, "protocol": PROTOCOL}


def _legal(request: dict[str, Any]) -> dict[str, Any]:
    return {"moves": [str(move) for move in legal_moves(_position(request))]}


def _apply(request: dict[str, Any]) -> dict[str, Any]:
    state = _position(request)
    move = parse_notation(_field(request, "move", str))
    pile = _cards(request, "reshuffle") if "reshuffle" in request else None
    try:
        after = apply_with_pile(state, move, pile)
    except IllegalMoveError as error:
        return {"illegal": error.rule, "reason": error.reason}
    return _answer_position(after)


def _deal(request: dict[str, Any]) -> dict[str, Any]:
    players = _field(request, "players", int)
    dealer = _field(request, "dealer", int)
    seed = _field(request, "seed", int)
    if "preset" in request:
        house = _field(request, "house_rules", list, [])
        if not all(isinstance(line, str) for line in house):
            raise ProtocolError("house_rules: a list of 'FIELD: VALUE' strings")
        rules = rules_of(_field(request, "preset", str), house)
    else:
        rules = from_data({"format": 1, "type": "rules", **_field(request, "rules", dict)}, "rules")
    if "deck" not in request:
        return _answer_position(new_game(players, seed=seed, rules=rules, dealer=dealer))
    if players not in rules.player_counts or not 0 <= dealer < players:
        raise ProtocolError(f"no {players}-player game with dealer {dealer} under these rules")
    deck = _cards(request, "deck")
    if Counter(deck) != Counter(build_deck(*rules.deck_for(players))):
        raise ProtocolError(f"deck: not the {players}-player deck of these rules")
    return _answer_position(deal(rules, players, dealer, deck, seed))


def _perft(request: dict[str, Any]) -> dict[str, Any]:
    state = _position(request)
    depth = _field(request, "depth", int)
    if not 0 <= depth <= MAX_PERFT_DEPTH:
        raise ProtocolError(f"depth: 0..{MAX_PERFT_DEPTH}, not {depth}")
    if not _field(request, "divide", bool, False) or depth == 0:
        return {"nodes": perft(state, depth)}
    counts = divide(state, depth)
    return {"nodes": sum(counts.values()), "divide": counts}


_ANSWERS = {"hello": _hello, "legal": _legal, "apply": _apply, "deal": _deal, "perft": _perft}


# --- reading requests ---------------------------------------------------------------------------


_REQUIRED: Any = object()


def _field(request: dict[str, Any], name: str, kind: type, default: Any = _REQUIRED) -> Any:
    """``request[name]``, which must be of type ``kind``; ``default`` if it may be missing."""
    if name not in request:
        if default is _REQUIRED:
            raise ProtocolError(f"a {request.get('type')} request needs {name!r}")
        return default
    value = request[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ProtocolError(f"{name}: expected {kind.__name__}, not {type(value).__name__}")
    return value


def _cards(request: dict[str, Any], name: str) -> tuple[Rank, ...]:
    """A list of cards written as one string, top card first."""
    try:
        return parse_cards(_field(request, name, str))
    except ValueError as error:
        if isinstance(error, PegsError):
            raise
        raise ProtocolError(f"{name}: {error}") from None


def _position(request: dict[str, Any]) -> GameState:
    """The request's position: its state JSON if it has one, else its position text.

    A client asks many questions about one position (the fuzzer asks about every move of
    it): the last few positions read are kept, by their JSON, and not read again.
    """
    if "state" in request:
        return _read_state(json.dumps(_field(request, "state", dict)))
    return parse_position(_field(request, "position", str))


@lru_cache(maxsize=8)
def _read_state(text: str) -> GameState:
    """:func:`read_test_state` of a state JSON text (states are immutable: one can be kept)."""
    return read_test_state(json.loads(text))


def read_test_state(data: dict[str, Any]) -> GameState:
    """A state JSON document whose cards may fall short of the deck.

    A test position lists only the cards that matter; the rest of the deck
    is out of play. Everything else is checked as :func:`~pegs_rules.from_json`
    checks it.
    """
    try:
        return from_data(data, "state")
    except FormatError as error:
        out = _out_of_play(data)
        if not out:
            raise ProtocolError(f"state: {error}") from None
    whole = {**data, "discard_pile": [c.symbol for c in out] + list(data["discard_pile"])}
    try:
        state = from_data(whole, "state")
    except FormatError as error:
        raise ProtocolError(f"state: {error}") from None
    return replace(state, discard_pile=state.discard_pile[len(out) :])


def _out_of_play(data: dict[str, Any]) -> tuple[Rank, ...]:
    """The cards of the deck that ``data`` does not hold, if its cards are all of the deck's."""
    try:
        rules = from_data({"format": 1, "type": "rules", **data["rules"]}, "rules")
        held = Counter(
            Rank.parse(c)
            for pile in [*data["hands"], data["draw_pile"], data["discard_pile"]]
            for c in pile
        )
        deck = Counter(build_deck(*rules.deck_for(len(data["pegs"]))))
    except (PegsError, AttributeError, KeyError, TypeError, ValueError):
        return ()
    if held - deck:
        return ()
    return tuple(sorted((deck - held).elements()))


def _answer_position(state: GameState) -> dict[str, Any]:
    return {"position": str(state), "state": to_data(state)}


def apply_with_pile(state: GameState, move: Move, pile: tuple[Rank, ...] | None) -> GameState:
    """:func:`~pegs_rules.apply`, except that a reshuffle during the move makes ``pile``.

    ``turn.reshuffle`` shuffles the discard pile into a new draw pile; an
    engine's shuffle is its own, so a game vector gives the pile each
    reshuffle made (top card first), and the engine must use it.
    """
    after = apply(state, move)
    if pile is None or after.reshuffles == state.reshuffles:
        return after
    ours = reshuffle_pile(state, move)
    if Counter(pile) != Counter(ours):
        raise ProtocolError("reshuffle: not the cards of the discard pile")
    taken = len(ours) - len(after.draw_pile)
    drawer = (state.turn + 1) % state.players if state.rules.draw_first else state.turn
    hand = Counter(after.hands[drawer])
    hand.subtract(ours[:taken])
    hand.update(pile[:taken])
    hands = list(after.hands)
    hands[drawer] = tuple(sorted(hand.elements()))
    return replace(after, hands=tuple(hands), draw_pile=pile[taken:])


def reshuffle_pile(state: GameState, move: Move) -> tuple[Rank, ...]:
    """The draw pile this engine makes when ``move`` reshuffles the discard pile."""
    played = (move.card,) if isinstance(move, (Play, Discard)) else ()
    return reshuffled(state.seed, state.reshuffles, state.discard_pile + played)
