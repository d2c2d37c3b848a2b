"""Checking an engine against the suite, over the protocol: one :class:`Outcome` per item.

:func:`run_case` sends a case's request (``legal``, ``apply`` or ``deal``)
and compares the answer with the case's expectation; :func:`run_game`
replays a game vector turn by turn (each turn's position as the harness's
own replay of the vector has it, with the reshuffled pile whenever the turn
reshuffles) and compares digests; :func:`run_perft` compares perft counts.
An engine failure (no answer in time, a crash, garbage) fails that item
only. :func:`report` prints the per-ruling table and the failures with a
diff; :func:`junit_xml` writes the outcomes for CI systems.
"""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

from pegs_rules.cards import parse_cards
from pegs_rules.errors import PegsError
from pegs_rules.moves import parse_notation
from pegs_rules.position import parse_position
from pegs_rules.serialize import from_data, to_data
from pegs_rules.spec.engine import Engine, EngineFailure, EngineUnusable, ReferenceEngine
from pegs_rules.spec.perft import divide
from pegs_rules.spec.protocol import apply_with_pile, read_test_state
from pegs_rules.spec.suite import case_state, digest, digest_of, holds, line_of, rules_of
from pegs_rules.state import GameState
from pegs_rules.turn import apply

DEAL_SEEDS = (0, 1, 2)
"""The seeds a ``deal`` case is tried with (its expectation holds for any seed)."""

GAMES = "game vectors"
PERFT = "perft"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How an engine did on one case, game vector or perft position.

    Attributes:
        id: the case id, ``game/ID`` or ``perft/ID``.
        group: the case's main ruling, or ``game vectors`` or ``perft``.
        problem: what went wrong, ``None`` if it passed.
        diff: expected (``-``) and received (``+``) lines.
        seconds: the time it took.
    """

    id: str
    group: str
    problem: str | None = None
    diff: tuple[str, ...] = ()
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        """Whether the engine got it right."""
        return self.problem is None


class _Wrong(Exception):
    """The engine's answer differs from the expectation."""

    def __init__(self, problem: str, diff: Iterable[str] = ()) -> None:
        super().__init__(problem)
        self.problem = problem
        self.diff = tuple(diff)


def _timed(item: str, group: str, judge: Callable[[], None]) -> Outcome:
    """Run ``judge``; an engine failure or a wrong answer fails this item only."""
    start = time.perf_counter()
    problem: str | None = None
    diff: tuple[str, ...] = ()
    try:
        judge()
    except _Wrong as wrong:
        problem, diff = wrong.problem, wrong.diff
    except EngineUnusable:
        raise
    except EngineFailure as error:
        problem = f"engine failure: {error}"
    return Outcome(item, group, problem, diff, time.perf_counter() - start)


# --- asking -------------------------------------------------------------------------------------


def _position_fields(state: GameState, *, made: bool = False) -> dict[str, Any]:
    """A position as a request carries it: position text and state JSON.

    A position ``made`` by hand goes without its state JSON if no game can
    reach it (it breaks a rule of the state format beyond holding fewer
    cards than the deck).
    """
    fields: dict[str, Any] = {"position": str(state), "state": to_data(state)}
    if made:
        try:
            read_test_state(fields["state"])
        except PegsError:
            del fields["state"]
    return fields


def _ask(engine: Engine, request: dict[str, Any], *results: str) -> dict[str, Any]:
    """The engine's answer, which must hold one of ``results``."""
    answer = engine.ask(request)
    if "error" in answer and not any(r in answer for r in results):
        raise _Wrong(f"the engine answered with an error: {answer['error']}")
    if not any(r in answer for r in results):
        raise _Wrong(f"the answer has none of {', '.join(results)}: {sorted(answer)}")
    return answer


def _answered_state(answer: dict[str, Any]) -> GameState:
    """The position in an answer: its position text if it has one, else its state JSON."""
    try:
        if isinstance(answer.get("position"), str):
            return parse_position(answer["position"])
        return from_data(answer["state"], "state")
    except PegsError as error:
        raise _Wrong(f"the answer's position cannot be read: {error}") from None


# --- cases --------------------------------------------------------------------------------------


def run_case(engine: Engine, case: dict[str, Any]) -> Outcome:
    """Check ``engine`` on one conformance case."""
    return _timed(case["id"], case["rules"][0], lambda: _judge_case(engine, case))


def _judge_case(engine: Engine, case: dict[str, Any]) -> None:
    expect = case["expect"]
    if "deal" in case:
        _judge_deal(engine, case["preset"], case["deal"], expect["dealt"])
        return
    state = case_state(case)
    if "legal" in expect:
        answer = _ask(engine, {"type": "legal", **_position_fields(state, made=True)}, "moves")
        _judge_moves(answer["moves"], expect["legal"])
        return
    request = {"type": "apply", **_position_fields(state, made=True), "move": case["move"]}
    answer = _ask(engine, request, "illegal", "position", "state")
    if "illegal" in expect:
        if answer.get("illegal") != expect["illegal"]:
            got = f"illegal: {answer['illegal']}" if "illegal" in answer else "accepted"
            raise _Wrong(
                "the move should be illegal", [f"- illegal: {expect['illegal']}", f"+ {got}"]
            )
        return
    if "illegal" in answer:
        reason = answer.get("reason", "")
        raise _Wrong(
            f"the move should be legal; rejected with {answer['illegal']} {reason}".rstrip(),
            [f"- {line}" for line in expect["after"]] + [f"+ illegal: {answer['illegal']}"],
        )
    after = _answered_state(answer)
    wrong = [line for line in expect["after"] if not holds(after, line)]
    if wrong:
        raise _Wrong(
            "after the move the position differs",
            [f"- {line}" for line in wrong] + [f"+ {line_of(after, line)}" for line in wrong],
        )


def _judge_moves(got: object, expected: list[str]) -> None:
    if not isinstance(got, list) or not all(isinstance(m, str) for m in got):
        raise _Wrong(f"moves: expected a list of move texts, got {got!r:.100}")
    missing = sorted(set(expected) - set(got))
    unexpected = sorted(set(got) - set(expected))
    twice = sorted(m for m, n in Counter(got).items() if n > 1)
    if missing or unexpected or twice:
        raise _Wrong(
            "the legal moves differ",
            [f"- {m}" for m in missing]
            + [f"+ {m}" for m in unexpected]
            + [f"+ {m}   (listed twice)" for m in twice],
        )


def _judge_deal(engine: Engine, preset: str, deal: dict[str, Any], dealt: dict[str, Any]) -> None:
    house = deal.get("rules", [])
    rules = to_data(rules_of(preset, house))
    del rules["format"], rules["type"]
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
        state = _answered_state(_ask(engine, request, "position", "state"))
        cards = Counter(c.symbol for c in state.draw_pile + sum(state.hands, ()))
        facts = {
            "hand_sizes": [len(h) for h in state.hands],
            "draw_pile": len(state.draw_pile),
            "first_turn": state.turn,
            "cards": dict(cards),
        }
        wrong = [k for k in dealt if dealt[k] != facts[k]]
        if wrong:
            raise _Wrong(
                f"seed {seed}: the deal differs",
                [f"- {k}: {dealt[k]}" for k in wrong] + [f"+ {k}: {facts[k]}" for k in wrong],
            )


# --- game vectors -------------------------------------------------------------------------------


def run_game(engine: Engine, record: dict[str, Any]) -> Outcome:
    """Check ``engine`` on every turn of a game vector."""
    return _timed(f"game/{record['id']}", GAMES, lambda: _judge_game(engine, record))


def _judge_game(engine: Engine, record: dict[str, Any]) -> None:
    state = parse_position("\n".join(record["start"]))
    if state.rules != rules_of(record["preset"], record.get("rules", [])):
        raise _Wrong("the start position's rules are not the vector's preset and rules")
    piles = iter(record["reshuffles"])
    for number, (text, expected) in enumerate(record["turns"], 1):
        request = {"type": "apply", **_position_fields(state), "move": text}
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
        answer = _ask(engine, request, "illegal", "position", "state")
        if "illegal" in answer:
            raise _Wrong(f"turn {number}: {text} rejected with {answer['illegal']}")
        if answer.get("position") and digest_of(str(answer["position"])) == expected:
            state = after  # the usual case: the engine's text is the recorded one
            continue
        got = _answered_state(answer)
        if digest(got) != expected:
            lines = set(str(after).splitlines()) ^ set(str(got).splitlines())
            raise _Wrong(
                f"turn {number}: {text} leads to a different position",
                [f"- {x}" for x in str(after).splitlines() if x in lines]
                + [f"+ {x}" for x in str(got).splitlines() if x in lines],
            )
        state = after
    if state.winner != record["winner"]:
        raise _Wrong(f"the game ends with winner {state.winner}, not {record['winner']}")


# --- perft --------------------------------------------------------------------------------------


def run_perft(engine: Engine, position: dict[str, Any], max_depth: int) -> Outcome:
    """Check ``engine``'s perft counts for one position, up to ``max_depth``."""
    return _timed(
        f"perft/{position['id']}", PERFT, lambda: _judge_perft(engine, position, max_depth)
    )


def _judge_perft(engine: Engine, position: dict[str, Any], max_depth: int) -> None:
    state = case_state(position)
    for depth, expected in enumerate(position["counts"][:max_depth], 1):
        request = {"type": "perft", **_position_fields(state, made=True), "depth": depth}
        nodes = _ask(engine, request, "nodes")["nodes"]
        if nodes != expected:
            answer = _ask(engine, {**request, "divide": True}, "nodes")
            got = answer.get("divide") or {}
            want = divide(state, depth)
            differ = [m for m in {**want, **got} if want.get(m) != got.get(m)]
            raise _Wrong(
                f"depth {depth}: {nodes} nodes, expected {expected}",
                [f"- {m}: {want[m]}" for m in differ if m in want]
                + [f"+ {m}: {got[m]}" for m in differ if m in got],
            )


# --- the whole suite ----------------------------------------------------------------------------


def run_suite(
    engine: Engine,
    cases: Iterable[dict[str, Any]],
    games: Iterable[dict[str, Any]] = (),
    perft_positions: Iterable[dict[str, Any]] = (),
    perft_depth: int = 99,
    progress: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Every case, game vector and perft position, in that order.

    An engine that becomes unusable (it no longer answers the handshake)
    fails everything not yet run.
    """
    jobs: list[tuple[str, str, Callable[[], Outcome]]] = []
    for case in cases:
        jobs.append((case["id"], case["rules"][0], partial(run_case, engine, case)))
    for record in games:
        jobs.append((f"game/{record['id']}", GAMES, partial(run_game, engine, record)))
    if perft_depth > 0:
        for pos in perft_positions:
            perft_job = partial(run_perft, engine, pos, perft_depth)
            jobs.append((f"perft/{pos['id']}", PERFT, perft_job))
    outcomes: list[Outcome] = []
    broken: str | None = None
    for item, group, job in jobs:
        if broken is None:
            try:
                outcome = job()
            except EngineUnusable as error:
                broken = f"not run: the engine is unusable: {error}"
        if broken is not None:
            outcome = Outcome(item, group, broken)
        outcomes.append(outcome)
        if progress is not None:
            progress(outcome)
    return outcomes


def check_case(case: dict[str, Any], engine: Engine | None = None) -> str | None:
    """One case against ``engine`` (this library by default): ``None``, or what went wrong."""
    return _problem(run_case(engine or ReferenceEngine(), case))


def check_game(record: dict[str, Any], engine: Engine | None = None) -> str | None:
    """One game vector against ``engine`` (this library by default): ``None``, or what went wrong."""
    return _problem(run_game(engine or ReferenceEngine(), record))


def _problem(outcome: Outcome) -> str | None:
    if outcome.passed:
        return None
    return "\n".join([outcome.problem or "", *outcome.diff])


# --- reports ------------------------------------------------------------------------------------


def report(outcomes: list[Outcome]) -> str:
    """The per-ruling table (passed, failed, the failed ids), then each failure with its diff."""
    groups: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        groups.setdefault(outcome.group, []).append(outcome)
    order = sorted(g for g in groups if g not in (GAMES, PERFT))
    order += [g for g in (GAMES, PERFT) if g in groups]
    width = max([len(g) for g in order] + [len("ruling")])
    lines = [f"{'ruling':<{width}}  passed  failed"]
    for group in order:
        failed = [o.id for o in groups[group] if not o.passed]
        passed = len(groups[group]) - len(failed)
        lines.append(
            f"{group:<{width}}  {passed:>6}  {len(failed):>6}  {' '.join(failed)}".rstrip()
        )
    failures = [o for o in outcomes if not o.passed]
    lines.append(f"{'all':<{width}}  {len(outcomes) - len(failures):>6}  {len(failures):>6}")
    for outcome in failures:
        lines += ["", f"FAIL {outcome.id} [{outcome.group}]: {outcome.problem}"]
        lines += [f"  {line}" for line in outcome.diff]
    return "\n".join(lines)


def junit_xml(outcomes: list[Outcome], name: str = "pegs-rules conformance") -> str:
    """The outcomes as JUnit XML: one test suite per ruling, one test case per item."""
    root = ET.Element("testsuites", name=name)
    groups: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        groups.setdefault(outcome.group, []).append(outcome)
    for group, members in groups.items():
        suite = ET.SubElement(
            root,
            "testsuite",
            name=group,
            tests=str(len(members)),
            failures=str(sum(not o.passed for o in members)),
            errors="0",
            skipped="0",
            time=f"{sum(o.seconds for o in members):.3f}",
        )
        for outcome in members:
            test = ET.SubElement(
                suite, "testcase", classname=group, name=outcome.id, time=f"{outcome.seconds:.3f}"
            )
            if not outcome.passed:
                failure = ET.SubElement(test, "failure", message=outcome.problem or "")
                failure.text = "\n".join(outcome.diff) or outcome.problem
    root.set("tests", str(len(outcomes)))
    root.set("failures", str(sum(not o.passed for o in outcomes)))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
