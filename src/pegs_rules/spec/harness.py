"""Checking an engine against the suite, over the protocol: one :class:`Outcome` per item.

:func:`run_case` sends a case's request (``legal``, ``apply`` or ``deal``)
and compares the answer with the case's expectation; :func:`run_game`
replays a game vector turn by turn (each turn's position as the harness's
own replay of the vector has it, with the reshuffled pile whenever the turn
reshuffles), compares digests and, after a difference, goes on from the
vector's own position; :func:`run_perft` compares perft counts. An engine
failure (no answer in time, a crash, garbage) fails that item only. An item
the engine's ``hello`` does not cover is skipped, unsent; an item it covers
but declines while running (an ``unsupported`` answer) is declined, which
fails the run unless declines are allowed (:class:`Scoring`). An engine that
plays fixed rules is checked on each item under them, against the reference
engine's answer there (:mod:`pegs_rules.spec.derive`).
:mod:`pegs_rules.spec.report` prints the outcomes.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pegs_rules.cards import parse_cards
from pegs_rules.errors import PegsError
from pegs_rules.moves import parse_notation
from pegs_rules.position import parse_position
from pegs_rules.rules import Rules
from pegs_rules.serialize import from_data, to_data, to_json
from pegs_rules.spec.derive import (
    CannotDerive,
    derive_case,
    derive_game,
    derive_perft,
    marker,
    rulings_between,
)
from pegs_rules.spec.engine import Engine, EngineFailure, EngineUnusable, ReferenceEngine
from pegs_rules.spec.perft import divide
from pegs_rules.spec.probe import ruling_of_lines, ruling_of_move
from pegs_rules.spec.protocol import apply_with_pile, read_test_state
from pegs_rules.spec.suite import (
    case_state,
    dealt_facts,
    digest,
    digest_of,
    holds,
    line_of,
    rules_of,
)
from pegs_rules.spec.supports import (
    Needs,
    Supports,
    needs_of_case,
    needs_of_game,
    needs_of_perft,
)
from pegs_rules.state import GameState
from pegs_rules.turn import apply

DEAL_SEEDS = (0, 1, 2)
"""The seeds a ``deal`` case is tried with (its expectation holds for any seed)."""

GAMES = "game vectors"
PERFT = "perft"
NO_MOVES = "(no moves)"
"""How an empty list of moves is shown."""


@dataclass(frozen=True, slots=True)
class Scoring:
    """How outcomes count towards a run's verdict.

    Attributes:
        ids: ``"strict"`` (the default): a rejection naming another ruling than the suite's
            fails; ``"lenient"``: it passes (it is counted apart either way).
        allow_declines: whether an item the engine declined while running (an
            ``unsupported`` answer to an item its ``hello`` covers) passes as skipped;
            by default it fails (it is counted apart either way).
    """

    ids: str = "strict"
    allow_declines: bool = False


STRICT = Scoring()
"""The default scoring: ruling ids compared strictly, and every decline a failure."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How an engine did on one case, game vector or perft position.

    Attributes:
        id: the case id, ``game/ID`` or ``perft/ID``.
        group: the case's main ruling, or ``game vectors`` or ``perft``.
        problem: what went wrong, ``None`` if it passed or was not judged.
        diff: expected (``-``) and received (``+``) lines.
        seconds: the time it took.
        skipped: why the item was not sent (the engine's ``hello`` does not cover it), or
            ``None``.
        declined: the engine's reason for declining the item while running (it answered
            ``unsupported``), or ``None``.
        not_run: why the item was not run (the engine became unusable), or ``None``.
        other_ruling: the engine rejected the move as expected, naming another ruling
            (``problem`` says which); ``--ids lenient`` counts it as passed.
        position: the position text of the request that went wrong.
        move: that request's move, if it had one.
        expected: what the suite expected, in full.
        received: what the engine answered, in full.
        reason: the engine's reason for a rejection, or its error message.
        detail: for a game vector, how many turns were compared and agreed.
        rerun: the arguments of ``python -m pegs_rules.spec`` (after the command, before
            ``--engine``) that run this item again: ``("check", "--only", ID)``.
        why: the case's ``why``: the reason its expectation holds.
        derived: how the expectation was derived, if it is not the suite's own (the engine
            plays fixed rules: :mod:`pegs_rules.spec.derive`).
        read: the rulings an engine author reads to fix a failure: a case's rulings (its
            main one first); for a game vector or a perft position, the ruling the first
            difference touches.
        rests_on: for a derived expectation, the rulings of the rule fields in which the
            engine's rules differ from the item's own: the expectation is the reference
            engine's reading of them.
    """

    id: str
    group: str
    problem: str | None = None
    diff: tuple[str, ...] = ()
    seconds: float = 0.0
    skipped: str | None = None
    declined: str | None = None
    not_run: str | None = None
    other_ruling: bool = False
    position: str = ""
    move: str = ""
    expected: tuple[str, ...] = ()
    received: tuple[str, ...] = ()
    reason: str = ""
    detail: str = ""
    rerun: tuple[str, ...] = ()
    why: str = ""
    derived: str | None = None
    read: tuple[str, ...] = ()
    rests_on: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        """Whether the engine got it right (ruling ids compared strictly)."""
        return self.judged and self.problem is None

    @property
    def judged(self) -> bool:
        """Whether the engine answered for this item (it was neither skipped, declined nor
        left unrun)."""
        return self.skipped is None and self.declined is None and self.not_run is None

    def fails(self, scoring: Scoring = STRICT) -> bool:
        """Whether this outcome fails the run under ``scoring``: a wrong answer (a rejection
        naming another ruling only under strict ids), or a decline unless declines are
        allowed."""
        if self.declined is not None:
            return not scoring.allow_declines
        if self.problem is None or not self.judged:
            return False
        return not (self.other_ruling and scoring.ids == "lenient")


class _Wrong(Exception):
    """The engine's answer differs from the expectation (see :class:`Outcome` for the fields)."""

    def __init__(
        self,
        problem: str,
        diff: Iterable[str] = (),
        *,
        request: dict[str, Any] | None = None,
        expected: Iterable[str] = (),
        received: Iterable[str] = (),
        reason: str = "",
        other_ruling: bool = False,
        detail: str = "",
        rerun: tuple[str, ...] = (),
        engine_failure: bool = False,
        read: tuple[str, ...] = (),
    ) -> None:
        super().__init__(problem)
        self.problem = problem
        self.diff = tuple(diff)
        self.request = request or {}
        self.expected = tuple(expected)
        self.received = tuple(received)
        self.reason = reason
        self.other_ruling = other_ruling
        self.detail = detail
        self.rerun = rerun
        self.engine_failure = engine_failure
        """The engine gave no answer (a timeout, an exit, garbage)."""
        self.read = read
        """The ruling the difference touches, when the item has no rulings of its own."""


class _Declined(Exception):
    """The engine answered ``unsupported``; ``detail`` says what was compared before."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True, slots=True)
class _Item:
    """What an outcome says of its item besides the verdict."""

    id: str
    group: str
    rerun: tuple[str, ...]
    why: str = ""
    derived: str | None = None
    read: tuple[str, ...] = ()
    rests_on: tuple[str, ...] = ()


def _timed(item: _Item, judge: Callable[[], str]) -> Outcome:
    """Run ``judge`` (which returns a detail line); an engine failure, a wrong answer or an
    ``unsupported`` answer settles this item only."""
    start = time.perf_counter()
    common: dict[str, Any] = {"why": item.why, "derived": item.derived, "rests_on": item.rests_on}
    try:
        detail = judge()
    except _Wrong as wrong:
        request = wrong.request
        return Outcome(
            item.id,
            item.group,
            wrong.problem,
            wrong.diff,
            time.perf_counter() - start,
            other_ruling=wrong.other_ruling,
            position=str(request.get("position", "")),
            move=str(request.get("move", "")),
            expected=wrong.expected,
            received=wrong.received,
            reason=wrong.reason,
            detail=wrong.detail,
            rerun=wrong.rerun or item.rerun,
            read=_unique(wrong.read + item.read),
            **common,
        )
    except _Declined as declined:
        return Outcome(
            item.id,
            item.group,
            seconds=time.perf_counter() - start,
            declined=declined.reason,
            detail=declined.detail,
            rerun=item.rerun,
            **common,
        )
    seconds = time.perf_counter() - start
    return Outcome(item.id, item.group, seconds=seconds, detail=detail, rerun=item.rerun, **common)


def _unique(rulings: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(rulings))


# --- asking -------------------------------------------------------------------------------------


def position_fields(state: GameState, *, made: bool = False) -> dict[str, Any]:
    """A position as a request carries it: position text and state JSON.

    A position ``made`` by hand goes without its state JSON if no game can
    reach it (it breaks a rule of the state format beyond holding fewer
    cards than the deck). The text ends with a ``seed`` line unless the seed is 0
    (``str(state)`` leaves the seed out), so that an engine reading the text reshuffles alike.
    """
    text = f"{state}\nseed: {state.seed}" if state.seed else str(state)
    fields: dict[str, Any] = {"position": text, "state": to_data(state)}
    if made:
        try:
            read_test_state(fields["state"])
        except PegsError:
            del fields["state"]
    return fields


def _ask(
    engine: Engine, request: dict[str, Any], *results: str, expected: Iterable[str] = ()
) -> dict[str, Any]:
    """The engine's answer, which must hold one of ``results``; a :class:`_Wrong` says what
    went wrong otherwise, with ``expected`` and what came instead."""
    expected = tuple(expected)
    try:
        answer = engine.ask(request)
    except EngineUnusable:
        raise
    except EngineFailure as error:
        first = str(error).splitlines()[0]
        raise _Wrong(
            f"engine failure: {error}",
            request=request,
            expected=expected,
            received=[f"no answer: {first}"],
            engine_failure=True,
        ) from None
    if any(r in answer for r in results):
        return answer
    if "unsupported" in answer:
        raise _Declined(f"the engine: {answer['unsupported']}")
    if "error" in answer:
        raise _Wrong(
            f"the engine answered with an error: {answer['error']}",
            request=request,
            expected=expected,
            received=[f"error: {answer['error']}"],
            reason=str(answer["error"]),
        )
    raise _Wrong(
        f"the answer has none of {', '.join(results)}: {sorted(answer)}",
        request=request,
        expected=expected,
        received=[_clip(answer)],
    )


def _answered_state(
    answer: dict[str, Any], request: dict[str, Any], expected: Iterable[str] = ()
) -> GameState:
    """The position in an answer: its position text if it has one, else its state JSON."""
    try:
        if isinstance(answer.get("position"), str):
            return parse_position(answer["position"])
        return from_data(answer["state"], "state")
    except (PegsError, KeyError) as error:
        if isinstance(answer.get("position"), str):
            sent = answer["position"].splitlines()
        else:
            sent = [_clip(answer.get("state"))]
        raise _Wrong(
            f"the answer's position cannot be read: {error}",
            request=request,
            expected=expected,
            received=["a position that cannot be read:", *sent],
        ) from None


def _clip(value: object, size: int = 300) -> str:
    """A JSON value on one line, cut at ``size`` characters."""
    text = json.dumps(value)
    return text if len(text) <= size else text[:size] + "..."


def _moves_text(moves: list[str]) -> tuple[str, ...]:
    """A list of moves for a report, as one line: how many, then the moves (or
    :data:`NO_MOVES`)."""
    if not moves:
        return (NO_MOVES,)
    return (f"{len(moves)} move{'s' if len(moves) != 1 else ''}: {', '.join(moves)}",)


# --- cases --------------------------------------------------------------------------------------


def run_case(
    engine: Engine,
    case: dict[str, Any],
    derived: str | None = None,
    rests_on: tuple[str, ...] = (),
) -> Outcome:
    """Check ``engine`` on one conformance case (``derived``: how its expectation was derived,
    if it is not the suite's own, and ``rests_on`` the rulings of the rule fields that made it
    differ)."""
    rerun = ("check", "--only", case["id"])
    read = tuple(case["rules"])
    item = _Item(case["id"], case["rules"][0], rerun, case["why"], derived, read, rests_on)
    return _timed(item, lambda: _judge_case(engine, case))


def _judge_case(engine: Engine, case: dict[str, Any]) -> str:
    expect = case["expect"]
    if "deal" in case:
        _judge_deal(engine, case["preset"], case["deal"], expect["dealt"])
        return ""
    state = case_state(case)
    if "legal" in expect:
        request = {"type": "legal", **position_fields(state, made=True)}
        expected = _moves_text(expect["legal"])
        moves = _ask(engine, request, "moves", expected=expected)["moves"]
        _judge_moves(moves, expect["legal"], request)
        return ""
    request = {"type": "apply", **position_fields(state, made=True), "move": case["move"]}
    if "illegal" in expect:
        expected = (f"illegal: {expect['illegal']}",)
    else:
        expected = ("legal; afterwards:", *expect["after"])
    answer = _ask(engine, request, "illegal", "position", "state", expected=expected)
    reason = str(answer.get("reason", ""))
    if "illegal" in expect:
        if answer.get("illegal") == expect["illegal"]:
            return ""
        if "illegal" in answer:
            raise _Wrong(
                f"the move is illegal, but for {expect['illegal']}, not {answer['illegal']}",
                request=request,
                expected=expected,
                received=[f"illegal: {answer['illegal']}"],
                reason=reason,
                other_ruling=True,
            )
        after = _answered_state(answer, request, expected)
        raise _Wrong(
            "the move should be illegal",
            request=request,
            expected=expected,
            received=["accepted; the position after it:", *str(after).splitlines()],
        )
    if "illegal" in answer:
        raise _Wrong(
            f"the move should be legal; rejected with {answer['illegal']} {reason}".rstrip(),
            request=request,
            expected=expected,
            received=[f"illegal: {answer['illegal']}"],
            reason=reason,
        )
    after = _answered_state(answer, request, expected)
    wrong = [line for line in expect["after"] if not holds(after, line)]
    if wrong:
        raise _Wrong(
            "after the move the position differs",
            [f"- {line}" for line in wrong] + [f"+ {line_of(after, line)}" for line in wrong],
            request=request,
            expected=expected,
            received=["the position after it:", *str(after).splitlines()],
        )
    return ""


def _judge_moves(got: object, expected: list[str], request: dict[str, Any]) -> None:
    """``moves`` compared as a set of move texts, each listed once (``specs/protocol.md``)."""
    if not isinstance(got, list) or not all(isinstance(m, str) for m in got):
        raise _Wrong(
            f"moves: expected a list of move texts, got {got!r:.100}",
            request=request,
            expected=_moves_text(expected),
            received=[_clip(got)],
        )
    missing = sorted(set(expected) - set(got))
    unexpected = sorted(set(got) - set(expected))
    twice = sorted(m for m, n in Counter(got).items() if n > 1)
    if missing or unexpected or twice:
        raise _Wrong(
            "the legal moves differ" + ("; the engine answered no moves" if not got else ""),
            [f"- {m}" for m in missing]
            + [f"+ {m}" for m in unexpected]
            + [f"+ {m}   (listed twice)" for m in twice],
            request=request,
            expected=_moves_text(expected),
            received=_moves_text(got),
        )


def _judge_deal(engine: Engine, preset: str, deal: dict[str, Any], dealt: dict[str, Any]) -> None:
    house = deal.get("rules", [])
    rules = to_data(rules_of(preset, house))
    del rules["format"], rules["type"]
    expected = [f"{k}: {dealt[k]}" for k in dealt]
    for seed in DEAL_SEEDS:
        request = {
            "type": "deal",
            "players": deal["players"],
            "dealer": deal["dealer"],
            "seed": seed,
            "preset": preset,
            "house_rules": house,
            "rules": rules,
        }
        shown = {
            "position": f"deal: players {deal['players']}, dealer {deal['dealer']}, "
            f"seed {seed}, preset {preset}" + "".join(f", {r}" for r in house)
        }
        try:
            answer = _ask(engine, request, "position", "state", expected=expected)
            state = _answered_state(answer, request, expected)
        except _Wrong as unanswered:
            unanswered.request = shown
            raise
        facts = dealt_facts(state)
        differ = [k for k in dealt if dealt[k] != facts[k]]
        if differ:
            raise _Wrong(
                f"seed {seed}: the deal differs",
                [f"- {k}: {dealt[k]}" for k in differ] + [f"+ {k}: {facts[k]}" for k in differ],
                request=shown,
                expected=expected,
                received=[f"{k}: {facts[k]}" for k in dealt],
            )


# --- game vectors -------------------------------------------------------------------------------


def run_game(
    engine: Engine,
    record: dict[str, Any],
    derived: str | None = None,
    rests_on: tuple[str, ...] = (),
) -> Outcome:
    """Check ``engine`` on every turn of a game vector."""
    game_id = f"game/{record['id']}"
    item = _Item(game_id, GAMES, ("check", "--only", game_id), derived=derived, rests_on=rests_on)
    return _timed(item, lambda: _judge_game(engine, record))


@dataclass
class _Difference:
    """The first turn of a game vector on which the engine differs."""

    turn: int
    wrong: _Wrong


def _judge_game(engine: Engine, record: dict[str, Any]) -> str:
    """Every turn, going on from the vector's own position after a difference; a decline
    ends the vector, the turns before it scored."""
    state = parse_position("\n".join(record["start"]))
    if state.rules != rules_of(record["preset"], record.get("rules", [])):
        raise _Wrong("the start position's rules are not the vector's preset and rules")
    piles = iter(record["reshuffles"])
    compared = agreed = 0
    first: _Difference | None = None
    for number, (text, expected) in enumerate(record["turns"], 1):
        request = {"type": "apply", **position_fields(state), "move": text}
        try:  # the harness's own replay: the next position, and whether this turn reshuffles
            move = parse_notation(text)
            after = apply(state, move)
            if after.reshuffles != state.reshuffles:
                request["reshuffle"] = next(piles, "")
                after = apply_with_pile(state, move, parse_cards(request["reshuffle"]))
        except PegsError as error:
            raise _Wrong(
                f"turn {number}: the vector's {text} cannot be replayed: {error}"
            ) from None
        try:
            wrong = _judge_turn(engine, request, state, after, expected)
        except _Declined as declined:
            raise _declined_turn(number, declined, compared, agreed, first) from None
        if wrong is not None and wrong.engine_failure:  # no use asking again turn after turn
            wrong.problem = f"turn {number}: {wrong.problem}"
            wrong.detail = _turns(compared, agreed, first) + f"; stopped at turn {number}"
            raise wrong
        compared += 1
        if wrong is None:
            agreed += 1
        elif first is None:
            first = _Difference(number, wrong)
        state = after
    detail = _turns(compared, agreed, first)
    if first is not None:
        raise _first_difference(first, compared, agreed, detail)
    if state.winner != record["winner"]:
        raise _Wrong(
            f"the game ends with winner {state.winner}, not {record['winner']}",
            read=("game.end",),
        )
    return detail


def _declined_turn(
    number: int, declined: _Declined, compared: int, agreed: int, first: _Difference | None
) -> _Wrong | _Declined:
    """How a vector ends at a declined turn: a failure if a turn before it differed, else a
    decline."""
    detail = _turns(compared, agreed, first) + f"; the engine declined turn {number}"
    if first is not None:
        return _first_difference(first, compared, agreed, detail)
    return _Declined(declined.reason, detail)


def _first_difference(first: _Difference, compared: int, agreed: int, detail: str) -> _Wrong:
    wrong = first.wrong
    return _Wrong(
        f"{compared - agreed} of {compared} turns differ; the first, turn {first.turn}: "
        + wrong.problem,
        wrong.diff,
        request=wrong.request,
        expected=wrong.expected,
        received=wrong.received,
        reason=wrong.reason,
        detail=detail,
        read=wrong.read,
    )


def _turns(compared: int, agreed: int, first: _Difference | None) -> str:
    where = "" if first is None else f"; first difference at turn {first.turn}"
    return f"{compared} turns compared, {agreed} agreed{where}"


def _judge_turn(
    engine: Engine, request: dict[str, Any], state: GameState, after: GameState, expected: str
) -> _Wrong | None:
    """How the engine's answer to one turn of a vector differs, if it does, with the ruling
    the difference touches."""
    wrong = _turn_difference(engine, request, after, expected)
    if wrong is not None:
        text = request["move"]
        if wrong.diff:  # the position after the move differs: the ruling of those lines
            keys = tuple(sorted({x[2:].partition(":")[0].split()[0] for x in wrong.diff}))
            wrong.read = (ruling_of_lines(state, text, keys, "reshuffle" in request),)
        else:  # rejected, or no answer: the ruling that lets the move do what it does
            wrong.read = (ruling_of_move(state, text),)
    return wrong


def _turn_difference(
    engine: Engine, request: dict[str, Any], after: GameState, expected: str
) -> _Wrong | None:
    """How the engine's answer to one turn of a vector differs, if it does."""
    text = request["move"]
    want = ("legal; the position after it:", *str(after).splitlines())
    try:
        answer = _ask(engine, request, "illegal", "position", "state", expected=want)
        if "illegal" in answer:
            reason = str(answer.get("reason", ""))
            return _Wrong(
                f"{text} rejected with {answer['illegal']} {reason}".rstrip(),
                request=request,
                expected=want,
                received=[f"illegal: {answer['illegal']}"],
                reason=reason,
            )
        if "state" in answer:
            wrong = _judge_document(json.dumps(answer["state"]), to_json(after))
            if wrong:
                return _Wrong(
                    f"{text}: the state JSON is not the reference's, byte for byte",
                    wrong,
                    request=request,
                    expected=want,
                    received=[_clip(answer["state"])],
                )
        if answer.get("position") and digest_of(str(answer["position"])) == expected:
            return None  # the usual case: the engine's text is the recorded one
        got = _answered_state(answer, request, want)
    except _Wrong as wrong:
        if not wrong.engine_failure:
            wrong.problem = f"{text}: {wrong.problem}"
        return wrong
    if digest(got) == expected:
        return None
    lines = set(str(after).splitlines()) ^ set(str(got).splitlines())
    return _Wrong(
        f"{text} leads to a different position",
        [f"- {x}" for x in str(after).splitlines() if x in lines]
        + [f"+ {x}" for x in str(got).splitlines() if x in lines],
        request=request,
        expected=str(after).splitlines(),
        received=str(got).splitlines(),
    )


def _judge_document(got: str, want: str, around: int = 60) -> list[str]:
    """Where the JSON text ``got`` first differs from ``want``, as a diff of the text around
    it (nothing if they are the same text)."""
    if got == want:
        return []
    at = next(
        (i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b),
        min(len(got), len(want)),
    )
    start = max(0, at - around)
    return [
        f"- character {at}: ...{want[start : at + around]}...",
        f"+ character {at}: ...{got[start : at + around]}...",
    ]


# --- perft --------------------------------------------------------------------------------------


def run_perft(
    engine: Engine,
    position: dict[str, Any],
    max_depth: int,
    derived: str | None = None,
    rests_on: tuple[str, ...] = (),
) -> Outcome:
    """Check ``engine``'s perft counts for one position, up to ``max_depth``."""
    item_id = f"perft/{position['id']}"
    item = _Item(item_id, PERFT, ("check", "--only", item_id), derived=derived, rests_on=rests_on)
    return _timed(item, lambda: _judge_perft(engine, position, max_depth))


def _judge_perft(engine: Engine, position: dict[str, Any], max_depth: int) -> str:
    state = case_state(position)
    for depth, expected in enumerate(position["counts"][:max_depth], 1):
        request = {"type": "perft", **position_fields(state, made=True), "depth": depth}
        want = [f"nodes: {expected}"]
        try:
            nodes = _ask(engine, request, "nodes", expected=want)["nodes"]
        except _Declined as declined:
            if depth == 1:
                raise
            agreed = "depth 1" if depth == 2 else f"depths 1 to {depth - 1}"
            raise _Declined(declined.reason, f"{agreed} agreed; declined depth {depth}") from None
        if nodes != expected:
            raise _miscount(engine, state, request, position["id"], nodes, expected)
    return ""


def _miscount(
    engine: Engine,
    state: GameState,
    request: dict[str, Any],
    position_id: str,
    nodes: object,
    expected: int,
) -> _Wrong:
    """A wrong perft count, with the engine's ``divide`` beside the reference's where the
    engine gives one: the count is wrong whatever the engine answers to the ``divide``
    (a decline, an error or no answer only say so in the failure)."""
    depth = request["depth"]
    want = [f"nodes: {expected}"]
    split = divide(state, depth)
    try:
        answer = _ask(engine, {**request, "divide": True}, "nodes", expected=want)
        got = answer.get("divide") or {}
        followed = "" if got else "; the engine's answer to divide has no divide"
    except _Declined as declined:
        got, followed = {}, f"; the engine declined the divide ({declined.reason})"
    except _Wrong as wrong:
        got, followed = {}, f"; the divide went wrong: {wrong.problem}"
    if not isinstance(got, dict):
        got, followed = {}, f"; the engine's divide is not an object: {_clip(got)}"
    differ = [m for m in {**split, **got} if split.get(m) != got.get(m)] if got else []
    first = next((m for m in differ if m in split), differ[0] if differ else None)
    return _Wrong(
        f"depth {depth}: {nodes} nodes, expected {expected}{followed}",
        [f"- {m}: {split[m]}" for m in differ if m in split]
        + [f"+ {m}: {got[m]}" for m in differ if m in got],
        request=request,
        expected=want,
        received=[f"nodes: {nodes}"],
        rerun=("perft", position_id, "--depth", str(depth), "--against-reference"),
        read=(ruling_of_move(state, first) if first is not None else "turn.sequence",),
    )


# --- the whole suite ----------------------------------------------------------------------------

CASE, GAME, POSITION = "case", "game", "perft"


def run_suite(
    engine: Engine,
    cases: Iterable[dict[str, Any]],
    games: Iterable[dict[str, Any]] = (),
    perft_positions: Iterable[dict[str, Any]] = (),
    perft_depth: int = 99,
    progress: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Every case, game vector and perft position, in that order.

    Items the engine's ``hello`` does not cover are skipped; with fixed
    rules in it, each item is judged under them. An engine that becomes
    unusable (it no longer answers the handshake, or its ``supports``
    cannot be read) leaves everything not yet run unrun.
    """
    items: list[tuple[str, str, str, dict[str, Any], Needs]] = []
    for case in cases:
        items.append((CASE, case["id"], case["rules"][0], case, needs_of_case(case)))
    for record in games:
        items.append((GAME, f"game/{record['id']}", GAMES, record, needs_of_game(record)))
    if perft_depth > 0:
        for pos in perft_positions:
            items.append((POSITION, f"perft/{pos['id']}", PERFT, pos, needs_of_perft(pos)))
    outcomes: list[Outcome] = []
    broken: str | None = None
    supports = Supports()
    if items:
        try:
            supports = Supports.from_hello(engine.handshake())
        except PegsError as error:
            broken = f"the engine is unusable: {error}"
    games_played: dict[tuple[int, int, Rules], str] = {}  # derived vectors: the first of each
    for kind, item_id, group, item, needs in items:
        outcome = Outcome(item_id, group, not_run=broken)
        if broken is None:
            refusal = supports.refusal(needs)
            if refusal is None and kind == GAME:
                game = (item["players"], item["seed"], supports.judged_rules(needs))
                if games_played.setdefault(game, item_id) != item_id:
                    refusal = f"under the engine's rules it is the game of {games_played[game]}"
            if refusal is not None:
                outcome = Outcome(item_id, group, skipped=refusal)
            else:
                try:
                    outcome = _run_item(engine, supports, kind, item, needs, perft_depth)
                except CannotDerive as error:
                    outcome = Outcome(item_id, group, skipped=str(error))
                except EngineUnusable as error:
                    broken = f"the engine is unusable: {error}"
                    outcome = Outcome(item_id, group, not_run=broken)
        outcomes.append(outcome)
        if progress is not None:
            progress(outcome)
    return outcomes


def _run_item(
    engine: Engine,
    supports: Supports,
    kind: str,
    item: dict[str, Any],
    needs: Needs,
    perft_depth: int,
) -> Outcome:
    """One item's outcome on ``engine``, judged under the rules the engine plays (derived
    from the reference engine when they are not the item's own)."""
    rules = supports.judged_rules(needs)
    derived = None if rules == needs.rules else marker(rules)
    rests_on = rulings_between(needs.rules, rules)
    if kind == CASE:
        case = item if derived is None else derive_case(item, rules)
        return run_case(engine, case, derived, rests_on)
    if kind == GAME:
        record = item if derived is None else derive_game(item, rules)
        return run_game(engine, record, derived, rests_on)
    if derived is not None:
        item = derive_perft(item, rules, perft_depth)
    return run_perft(engine, item, perft_depth, derived, rests_on)


def check_case(case: dict[str, Any], engine: Engine | None = None) -> str | None:
    """One case against ``engine`` (this library by default): ``None``, or what went wrong."""
    return _problem(run_case(engine or ReferenceEngine(), case))


def check_game(record: dict[str, Any], engine: Engine | None = None) -> str | None:
    """One game vector against ``engine`` (this library by default): ``None``, or what went wrong."""
    return _problem(run_game(engine or ReferenceEngine(), record))


def _problem(outcome: Outcome) -> str | None:
    if outcome.passed:
        return None
    return "\n".join([outcome.problem or outcome.declined or "", *outcome.diff])
