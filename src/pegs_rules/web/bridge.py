"""The engine behind the browser playground, answering the page in JSON.

The page's Web Worker runs this module inside Pyodide. It keeps one
:class:`Session` and passes it each request as JSON text; :meth:`Session.handle`
returns the answer as JSON text. Everything the page shows comes from the
library's format-1 documents (:mod:`pegs_rules.serialize`): a seat's ``view``,
the legal ``moves``, the ``events`` of a move redacted for the seat watching,
an ``explanation``, plus the board drawn by :func:`pegs_rules.render.svg`.

Requests (``{"op": ..., ...}``):

* ``hello``: the presets, the house-rule switches (with their ruling ids), the
  bots and the input limits, for the setup form;
* ``new_game``: ``players``, ``preset``, ``rules`` (``{field: text}``, each a
  switch as a position's ``rule FIELD: TEXT`` line writes it), ``seats`` (one
  of ``human``, ``random``, ``greedy``, ``mcts``, ``mcts:0.5s``... per seat)
  and ``seed`` (``null``: a fresh one); answers an ``update``;
* ``advance``: a bot's move, when a bot is to act; answers an ``update`` whose
  ``thought_ms`` says how long the bot took to choose;
* ``play``: ``move``, a human's move in notation (shorthands allowed);
  answers an ``update``;
* ``record``: the game so far as a ``record`` document (``pegs replay`` reads it);
* ``leave``: forget the game;
* ``study``: ``position``, in the position text format or a state's JSON;
  answers a ``study``;
* ``explain``: ``move`` on the studied position; answers a ``ruling``;
* ``open_record``: ``record``, a ``record`` document's JSON text: replays it
  (:mod:`pegs_rules.web.viewer`) up to its first illegal move and answers a
  ``replay``: ``end`` (the last ply reached), the record's ``moves``,
  ``stopped`` (``null``, or the move that cannot be made with its ``verdict``
  and the ruling's ``summary``) and, for a finished game, its ``summary``;
* ``replay_ply``: ``ply`` of the opened record: answers a ``ply``, the move
  that led there (``move``, its ``seat`` and its ``events``, nothing hidden),
  the record's ``next_move`` and the position as ``study`` answers it, which
  becomes the studied position (so ``explain`` and ``hint`` work there);
* ``hint``: ``on`` ``"game"`` (the person to act) or ``"study"`` (the studied
  position): the move :data:`HINT_BOT` makes for the seat to act, seeing only
  that seat's view; answers a ``hint`` with the move, its ``events`` (in a
  game, with every drawn card hidden) and ``frames``, the boards of a
  ``ruling``;
* ``summary``: the game's ``summary`` so far: winner, turns, and per seat the
  cards played, discarded and passed with, pegs knocked back and knocked, and
  pegs home (see :func:`pegs_rules.web.viewer.summary`).

Answers carry ``"ok": true``; a request that cannot be met answers
``{"ok": false, "kind": ..., "error": "<a sentence>"}``, where ``kind`` is
``illegal`` (with ``verdict``, an ``explanation`` document), ``ambiguous``
(with ``candidates``, the moves the text could mean), ``notation``,
``position``, ``record``, ``setup`` or ``request``. No input makes :meth:`Session.handle`
raise: a bug in the engine answers kind ``internal``.

Bots are seeded as in ``pegs demo``: the bot at seat ``s`` of a game with seed
``n`` is ``make_bot(name, n * 100 + s)``, so a game replays exactly from its
seed and seats.

>>> import json
>>> session = Session()
>>> answer = json.loads(session.handle(json.dumps(
...     {"op": "new_game", "players": 4, "seed": 1, "seats": ["greedy"] * 4})))
>>> answer["ok"], answer["type"], answer["public"]["ply"], answer["next"]
(True, 'update', 0, 'bot')
>>> answer = json.loads(session.handle('{"op": "advance"}'))
>>> answer["public"]["ply"], answer["last_move"]
(1, 'discard 7')
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Literal, TypeGuard

from pegs_rules import __version__
from pegs_rules.board import is_track, team_of
from pegs_rules.bots import BOTS, Bot, decide, make_bot
from pegs_rules.errors import AmbiguousMoveError, IllegalMoveError, NotationError, PegsError
from pegs_rules.events import (
    CardDiscarded,
    CardPlayed,
    Event,
    Passed,
    PegDisplaced,
    PegMoved,
    apply_with_events,
)
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import Move, Play, Step, parse_notation
from pegs_rules.notation import parse_move
from pegs_rules.position import parse_position
from pegs_rules.reasons import Explanation
from pegs_rules.records import GameRecord, record_of
from pegs_rules.render import svg
from pegs_rules.rules import PRESETS, find_preset, rule_text, with_rule
from pegs_rules.rulings import RULINGS
from pegs_rules.serialize import events_to_data, from_json, moves_to_data, to_data
from pegs_rules.state import GameState, new_game
from pegs_rules.views import view
from pegs_rules.web.viewer import Replayed, replayed, summary

MAX_POSITION = 100_000
"""The longest position text (or state JSON) accepted, in characters; real ones are a few kB."""
MAX_MOVE = 300
"""The longest move text accepted, in characters."""
MAX_REQUEST = MAX_POSITION + 10_000
"""The longest request accepted, in characters."""
MAX_RECORD = MAX_POSITION
"""The longest record accepted, in characters; an 8-player game's is about 10 kB."""
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

    def __init__(self, kind: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.kind = kind
        self.extra = extra


@dataclass
class Game:
    """A game being played in the page: its start, its moves and who sits where."""

    start: GameState
    seats: tuple[str, ...]
    bots: dict[int, Bot]
    state: GameState
    moves: list[Move] = field(default_factory=list)
    viewer: int = 0

    def human(self, seat: int) -> bool:
        return self.seats[seat] == "human"


class Session:
    """One page's engine: at most one game and one studied position at a time."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.studied: GameState | None = None
        self.replay: Replayed | None = None

    def handle(self, request: str) -> str:
        """The JSON answer to one JSON request (see the module docstring); never raises."""
        try:
            answer = {"ok": True} | self.answer(_read_request(request))
        except Refused as refusal:
            answer = {"ok": False, "kind": refusal.kind, "error": str(refusal)} | refusal.extra
        except Exception as error:  # a bug: say so in the page rather than leave it blank
            answer = {"ok": False, "kind": "internal", "error": f"{type(error).__name__}: {error}"}
        return json.dumps(answer)

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        if op == "hello":
            return hello()
        if op == "new_game":
            return self.new_game(request)
        if op == "advance":
            return self.advance()
        if op == "play":
            return self.play(_text(request, "move", MAX_MOVE))
        if op == "leave":
            self.game = None
            return {"type": "left"}
        if op == "record":
            return to_data(record_of(self.playing().start, self.playing().moves))
        if op == "study":
            return self.study(_text(request, "position", MAX_POSITION))
        if op == "explain":
            return self.explain(_text(request, "move", MAX_MOVE))
        if op == "open_record":
            return self.open_record(_text(request, "record", MAX_RECORD))
        if op == "replay_ply":
            return self.replay_ply(request.get("ply"))
        if op == "hint":
            return self.hint(request.get("on"))
        if op == "summary":
            game = self.playing()
            kinds = {"kinds": list(game.seats)}
            return summary(replayed(record_of(game.start, game.moves))) | kinds
        raise Refused("request", f"unknown request {str(op)[:40]!r}")

    # -- playing a game ---------------------------------------------------------------------

    def new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        players = request.get("players", 4)
        seed = request.get("seed")
        if seed is None:
            seed = secrets.randbelow(10**9)
        switches = request.get("rules", {})
        if not (_whole(players) and _whole(seed) and isinstance(switches, dict)):
            raise Refused("setup", "players and seed are whole numbers, rules an object")
        preset = request.get("preset", "arizona")
        seats = request.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise Refused("setup", "seats is a list of names: human, random, greedy, mcts...")
        try:
            rules = find_preset(str(preset))
            for name, value in switches.items():
                rules = with_rule(rules, str(name), str(value))
        except PegsError as error:
            raise Refused("setup", str(error)) from None
        if players not in rules.player_counts:
            raise Refused("setup", f"{players} players: choose {_choices(rules.player_counts)}")
        if len(seats) != players:
            raise Refused("setup", f"name one seat kind per player: {players}, not {len(seats)}")
        bots: dict[int, Bot] = {}
        for seat, name in enumerate(seats):
            if name != "human":
                try:
                    bots[seat] = make_bot(name, seed * 100 + seat)
                except ValueError as error:
                    raise Refused("setup", f"seat {seat}: {error}") from None
                if (getattr(bots[seat], "time_limit", None) or 0) > MAX_THINKING:
                    raise Refused("setup", f"seat {seat}: a bot thinks {MAX_THINKING} s at most")
        start = new_game(players, seed=seed, rules=rules)
        game = Game(start, tuple(seats), bots, start)
        humans = [s for s in range(players) if game.human(s)]
        game.viewer = _next_viewer(game, humans[0] if humans else start.turn)
        self.game = game
        return self.update(())

    def advance(self) -> dict[str, Any]:
        game = self.playing()
        seat = game.state.turn
        if game.state.is_over or game.human(seat):
            raise Refused("request", "no bot is to act")
        started = time.perf_counter()
        move = decide(game.bots[seat], game.state)
        thought = round((time.perf_counter() - started) * 1000, 1)
        return self.make(move) | {"thought_ms": thought}

    def play(self, text: str) -> dict[str, Any]:
        game = self.playing()
        state = game.state
        if state.is_over:
            raise Refused("request", f"the game is over: team {state.winner} has won")
        if not game.human(state.turn):
            raise Refused("request", f"seat {state.turn} ({game.seats[state.turn]}) is to act")
        return self.make(_parse(state, text))

    def make(self, move: Move) -> dict[str, Any]:
        game = self.playing()
        game.state, events = apply_with_events(game.state, move)
        game.moves.append(move)
        game.viewer = _next_viewer(game, game.viewer)
        return self.update(events) | {"last_move": str(move)}

    def playing(self) -> Game:
        if self.game is None:
            raise Refused("request", "no game has been started")
        return self.game

    def update(self, events: tuple[Event, ...]) -> dict[str, Any]:
        """What the seat watching sees now: an ``update`` answer."""
        game = self.playing()
        state, seat = game.state, game.viewer
        next_actor = "over" if state.is_over else "human" if game.human(state.turn) else "bot"
        to_act = next_actor == "human" and state.turn == seat
        return {
            "type": "update",
            "seat": seat,
            "seats": list(game.seats),
            "view": to_data(view(state, seat)),
            "public": public(state),
            "moves": moves_to_data(legal_moves(state)) if to_act else None,
            "events": events_to_data(events, seat),
            "svg": svg(state, size=BOARD_SIZE),
            "next": next_actor,
            "last_move": None,
            "thought_ms": None,
        }

    # -- studying a position ----------------------------------------------------------------

    def study(self, text: str) -> dict[str, Any]:
        try:
            if text.lstrip().startswith("{"):
                state = from_json(text, "state")
            else:
                state = parse_position(text)
        except PegsError as error:
            raise Refused("position", str(error)) from None
        return self.studying(state)

    def studying(self, state: GameState) -> dict[str, Any]:
        """Make ``state`` the studied position: a ``study`` answer, every hand shown."""
        self.studied = state
        return {
            "type": "study",
            "position": str(state),
            "public": public(state),
            "hands": [[card.symbol for card in hand] for hand in state.hands],
            "moves": moves_to_data(legal_moves(state)),
            "svg": svg(state, size=BOARD_SIZE),
        }

    def explain(self, text: str) -> dict[str, Any]:
        """The verdict on a move of the studied position; for a legal one, its events."""
        state = self.studied
        if state is None:
            raise Refused("request", "no position is being studied")
        try:
            move = _parse(state, text)
        except Refused as refusal:
            if refusal.kind != "illegal":
                raise
            return _ruling(state, refusal.extra["move"], refusal.extra["verdict"])
        verdict = to_data(Explanation(True, None, f"{move} is a legal move for seat {state.turn}"))
        after, events = apply_with_events(state, move)
        answer = _ruling(state, str(move), verdict)
        answer["events"] = events_to_data(events, None)
        answer["frames"] = frames(state, move, after, events)
        return answer

    # -- a record, ply by ply ---------------------------------------------------------------

    def open_record(self, text: str) -> dict[str, Any]:
        try:
            record = from_json(text, "record")
        except PegsError as error:
            raise Refused("record", f"this is not a game record: {error}") from None
        assert isinstance(record, GameRecord)
        self.replay = game = replayed(record)
        stopped = None
        if game.stop is not None:
            stop = game.stop
            verdict = to_data(Explanation(False, stop.rule, stop.reason))
            stopped = {"turn": stop.turn, "move": stop.move, "verdict": verdict}
            stopped["summary"] = RULINGS.get(stop.rule)
        finished = game.positions[-1].is_over
        return {
            "type": "replay",
            "players": record.players,
            "preset": record.rules.name,
            "seed": record.seed,
            "moves": list(record.moves),
            "end": game.end,
            "stopped": stopped,
            "summary": summary(game) if finished else None,
        }

    def replay_ply(self, ply: object) -> dict[str, Any]:
        game = self.replay
        if game is None:
            raise Refused("request", "no record has been opened")
        if not (_whole(ply) and 0 <= ply <= game.end):
            raise Refused("request", f"ply: a whole number from 0 to {game.end}")
        moves = game.record.moves
        done = game.events[ply - 1] if ply else ()
        return {
            "type": "ply",
            "ply": ply,
            "end": game.end,
            "move": moves[ply - 1] if ply else None,
            "seat": game.positions[ply - 1].turn if ply else None,
            "events": events_to_data(done, None),
            "next_move": moves[ply] if ply < len(moves) else None,
            "study": self.studying(game.positions[ply]),
        }

    # -- a hint -----------------------------------------------------------------------------

    def hint(self, on: object) -> dict[str, Any]:
        """What :data:`HINT_BOT` plays for the seat to act, in the game or the studied position."""
        shown_to: Literal["public"] | None
        if on == "game":
            game = self.playing()
            state, shown_to = game.state, "public"
            if not state.is_over and not game.human(state.turn):
                raise Refused("request", f"seat {state.turn} is a bot: a hint is for a person")
        elif on == "study":
            if self.studied is None:
                raise Refused("request", "no position is being studied")
            state, shown_to = self.studied, None
        else:
            raise Refused("request", 'on: "game" or "study"')
        if state.is_over:
            raise Refused("request", "the game is over: there is no move to suggest")
        try:
            move = decide(make_bot(HINT_BOT, state.seed + state.ply), state)
        except PegsError as error:
            raise Refused("position", f"no hint for this position: {error}") from None
        after, events = apply_with_events(state, move)
        return {
            "type": "hint",
            "seat": state.turn,
            "bot": HINT_BOT,
            "move": str(move),
            "events": events_to_data(events, shown_to),
            "frames": frames(state, move, after, events),
        }


def warm_up() -> None:
    """Compute now what the first game on each board size computes once: the board's path
    tables and its drawing. The playground's worker calls this before it keeps a snapshot of
    the started engine, so that an engine restored from it starts its first game at full
    speed."""
    for players in PRESETS["arizona"].player_counts:
        state = new_game(players, seed=0)
        legal_moves(state)
        svg(state, size=BOARD_SIZE)


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


def public(state: GameState) -> dict[str, Any]:
    """What every seat sees of ``state``, for the page's status line."""
    return {
        "players": state.players,
        "preset": state.rules.name,
        "ply": state.ply,
        "turn": state.turn,
        "team": team_of(state.turn),
        "dealer": state.dealer,
        "winner": state.winner,
        "hand_sizes": [len(hand) for hand in state.hands],
        "draw_pile_size": len(state.draw_pile),
        "discard_top": state.discard_pile[-1].symbol if state.discard_pile else None,
    }


def frames(
    state: GameState, move: Move, after: GameState, events: tuple[Event, ...]
) -> list[dict[str, Any]]:
    """Boards to step through a move: before it (with its arrows), after each peg's
    movement (with that step's arrow) and after the whole turn. Each frame lists the
    indices of the events it shows."""
    before: dict[str, Any] = {"caption": "before", "events": [], "svg": ""}
    closing: dict[str, Any] = {"caption": "after", "events": [], "svg": ""}
    before["svg"] = svg(state, move, size=BOARD_SIZE)
    closing["svg"] = svg(after, size=BOARD_SIZE)
    out: list[dict[str, Any]] = [before]
    pegs = [list(locs) for locs in state.pegs]
    for index, event in enumerate(events):
        if isinstance(event, (PegMoved, PegDisplaced)) and isinstance(move, Play):
            pegs[event.seat].remove(event.src)
            pegs[event.seat].append(event.dst)
            shown = replace(state, pegs=tuple(tuple(sorted(locs)) for locs in pegs))
            if isinstance(event, PegMoved):  # a step of the move: its arrow
                step = Play(move.card, (Step(event.seat, event.src, event.dst),))
                drawn = svg(shown, step, size=BOARD_SIZE)
            else:  # a knocked peg: ring the holes it left and reached
                rings = [loc for loc in (event.src, event.dst) if is_track(loc)]
                drawn = svg(shown, highlight=rings, size=BOARD_SIZE)
            out.append({"caption": str(event), "events": [index], "svg": drawn})
        elif isinstance(event, (CardPlayed, CardDiscarded, Passed)):
            before["events"].append(index)
        else:
            closing["events"].append(index)
    return [*out, closing]


def _ruling(state: GameState, move: str | None, verdict: dict[str, Any]) -> dict[str, Any]:
    """A ``ruling`` answer: the verdict, and the board with the move drawn if it can be."""
    rule = verdict["rule"]
    try:
        drawn = svg(state, None if move is None else parse_notation(move), size=BOARD_SIZE)
    except PegsError:  # a move that cannot be drawn on this board: the board alone
        drawn = svg(state, size=BOARD_SIZE)
    return {
        "type": "ruling",
        "move": move,
        "verdict": verdict,
        "summary": RULINGS.get(rule) if rule else None,
        "events": None,
        "frames": [{"caption": "the move", "events": [], "svg": drawn}],
    }


def _parse(state: GameState, text: str) -> Move:
    """The legal move ``text`` names; :class:`Refused` says why there is none."""
    try:
        return parse_move(state, text)
    except AmbiguousMoveError as error:
        candidates = [str(m) for m in error.candidates]
        raise Refused("ambiguous", str(error), candidates=candidates) from None
    except IllegalMoveError as error:
        verdict = to_data(Explanation(False, error.rule, error.reason))
        written = _notation(text)
        raise Refused("illegal", str(error), verdict=verdict, move=written) from None
    except NotationError as error:
        raise Refused("notation", str(error)) from None


def _notation(text: str) -> str | None:
    """``text`` in canonical notation, if it is written out in full."""
    try:
        return str(parse_notation(text))
    except NotationError:
        return None


def _next_viewer(game: Game, current: int) -> int:
    """Whose eyes the page shows: the human to act, else whoever it showed before;
    with no human seat, the bot to act (the page looks over each bot's shoulder)."""
    turn = game.state.turn
    if game.human(turn) or not any(game.human(s) for s in range(len(game.seats))):
        return turn
    return current


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


def _text(request: dict[str, Any], key: str, limit: int) -> str:
    value = request.get(key)
    if not isinstance(value, str):
        raise Refused("request", f"{key}: expected text")
    kind = key if key in ("position", "record") else "notation"
    if len(value) > limit:
        raise Refused(
            kind, f"the {key} is {len(value):,} characters long; at most {limit:,} are read"
        )
    if not value.strip():
        raise Refused(kind, f"no {key} given")
    return value


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _choices(counts: tuple[int, ...]) -> str:
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"
