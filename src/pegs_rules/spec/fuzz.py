"""Differential fuzzing: an engine against the reference, position by position of random games.

:class:`Fuzzer` plays random games under the rules the engine plays (its
``hello``'s presets or fixed rules, house rules drawn at random for each game
among the fields it varies: :func:`random_rules`). At every position it asks
the engine for the legal moves, and for the result of every legal move and
of a few altered ones (:mod:`~pegs_rules.spec.altered`), and compares each
answer with this library's, judged in this process
(:mod:`~pegs_rules.spec.probe`). It keeps many requests in flight, so that
the engine never waits for the next one. The first divergence is shrunk
(:mod:`~pegs_rules.spec.shrink`) and printed with a suite case, a perft
position and the command that finds it again
(:mod:`~pegs_rules.spec.finding`); with ``keep_going`` it goes on, shrinking
the first divergence of each kind, and groups them by the ruling they touch.
It says how many positions and requests it checked a second.
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from pegs_rules.cards import format_cards
from pegs_rules.errors import PegsError
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import Move
from pegs_rules.rules import Rules
from pegs_rules.serialize import to_data
from pegs_rules.spec.altered import altered_moves
from pegs_rules.spec.engine import Engine, EngineFailure, EngineUnusable, Shared
from pegs_rules.spec.finding import (
    case_text,
    perft_position,
    perft_text,
    repro_command,
    suite_case,
)
from pegs_rules.spec.harness import position_fields, run_case
from pegs_rules.spec.plan import Plan, engine_plays, plan_for, random_rules
from pegs_rules.spec.probe import (
    Divergence,
    Texts,
    Verdict,
    apply_divergence,
    legal_divergences,
    reference_verdict,
)
from pegs_rules.spec.protocol import reshuffle_pile
from pegs_rules.spec.shrink import Shrunk, shrink
from pegs_rules.spec.suite import case_state
from pegs_rules.spec.supports import (
    Supports,
    describe,
)
from pegs_rules.state import GameState, new_game
from pegs_rules.turn import apply

PROGRESS_SECONDS = 10.0
"""How often a long run says how far it is."""


@dataclass(frozen=True, slots=True)
class Options:
    """What to fuzz and how.

    Attributes:
        positions: how many positions to check.
        seed: the seed of every game, every move chosen and every alteration.
        players: the player counts to play (empty: every count the engine plays).
        rules: rules to play, each game one of them (empty: the engine's presets or fixed
            rules, with the house rules it varies drawn at random for each game).
        altered: altered moves to send at each position.
        keep_going: go on after a divergence (each kind shrunk once).
        same_order: also require the legal moves in the reference's order.
        allow_declines: let ``unsupported`` answers pass (counted) instead of diverging.
        shrink_requests: the most requests spent shrinking one divergence.
        window: the most requests in flight.
    """

    positions: int = 10_000
    seed: int = 1
    players: tuple[int, ...] = ()
    rules: tuple[Rules, ...] = ()
    altered: int = 4
    keep_going: bool = False
    same_order: bool = False
    allow_declines: bool = False
    shrink_requests: int = 2_000
    window: int = 400


@dataclass
class Tally:
    """What a run has checked so far: positions and requests whose answers were compared
    (besides the requests answered while shrinking)."""

    sent: int = 0
    positions: int = 0
    games: int = 0
    requests: int = 0
    legal: int = 0
    listed: int = 0
    altered: int = 0
    illegal: int = 0
    declined: int = 0
    shrinking: int = 0
    started: float = field(default_factory=time.perf_counter)

    def rates(self) -> str:
        seconds = max(time.perf_counter() - self.started, 1e-9)
        return (
            f"in {seconds:.1f} s: {self.positions / seconds:,.0f} positions/s, "
            f"{self.requests / seconds:,.0f} requests/s"
        )

    def __str__(self) -> str:
        shrinking = f"; {self.shrinking:,} more while shrinking" if self.shrinking else ""
        return (
            f"checked {_many(self.positions, 'position')} of {_many(self.games, 'game')} "
            f"({_many(self.requests, 'request')}: {self.legal:,} legal, {self.listed:,} apply "
            f"of listed moves, {self.altered:,} of altered moves, {self.illegal:,} of them "
            f"illegal{shrinking}) " + self.rates()
        )


@dataclass(frozen=True, slots=True)
class _Check:
    """A request sent about a position: ``legal``, or ``apply`` of a move (a legal one, or
    an ``altered`` one) with the reference's verdict on it."""

    request: str
    move: str | None = None
    verdict: Verdict | None = None
    altered: bool = False


@dataclass
class _Sent:
    """A position whose requests are in flight."""

    number: int
    game: int
    ply: int
    state: GameState
    texts: Texts
    legal: list[str]
    checks: list[_Check]


@dataclass
class Finding:
    """A kind of divergence: the first found (and where), shrunk, and how often it came."""

    found: Divergence
    sent: _Sent
    shrunk: Shrunk | None = None
    count: int = 1


class Fuzzer:
    """One run of the fuzzer against ``engine``; :meth:`run` returns the exit status."""

    def __init__(
        self,
        engine: Engine,
        options: Options,
        out: TextIO,
        progress: TextIO | None = None,
        rerun: Callable[[int], str] | None = None,
        command: str | None = None,
    ) -> None:
        self.engine = engine
        self.command = command
        """The engine's command line, for the request to send by hand (``None``: not known)."""
        self.options = options
        self.out = out
        self.progress = progress
        self.rerun = rerun
        self.tally = Tally()
        self.findings: dict[tuple[str, ...], Finding] = {}
        self.failures: list[str] = []
        self._in_flight: deque[_Sent] = deque()
        self._requests_in_flight = 0
        self._new: list[Finding] = []
        self._said = time.perf_counter()
        self.counts_perft = False
        self._supports = Supports()

    def run(self) -> int:
        """Fuzz until the positions are checked or, unless keeping going, a divergence is
        found: 0 when none was, 1 when one was, 2 when the engine became unusable."""
        options = self.options
        try:
            supports = Supports.from_hello(self.engine.handshake())
        except EngineUnusable as error:
            self._say(f"the engine is unusable: {error}")
            return 2
        plan = plan_for(supports, options.players, options.rules)
        self._supports = supports
        self.counts_perft = supports.requests is None or "perft" in supports.requests
        self._say(f"fuzzing {self.engine.name}: seed {options.seed}, {plan.describe()}")
        rng = random.Random(options.seed)
        try:
            while self.tally.sent < options.positions and self._going():
                self._play_game(rng, plan)
            self._drain()
            self._settle()
        except EngineUnusable as error:
            self._say(f"the engine is unusable: {error}")
            return 2
        return self._close()

    # --- playing ---------------------------------------------------------------------------------

    def _going(self) -> bool:
        return self.options.keep_going or not (self.findings or self.failures)

    def _play_game(self, rng: random.Random, plan: Plan) -> None:
        rules = random_rules(rng, rng.choice(plan.bases), plan.varied)
        players = rng.choice([n for n in plan.players if n in rules.player_counts])
        state = new_game(players, seed=rng.getrandbits(64), rules=rules)
        chooser = random.Random(rng.getrandbits(64))
        alterer = random.Random(rng.getrandbits(64))
        self.tally.games += 1
        text = str(state)
        ply = 0
        while self.tally.sent < self.options.positions and self._going():
            sent, verdicts = self._send(self.tally.games, ply, state, text, plan, alterer)
            self._in_flight.append(sent)
            while self._requests_in_flight > self.options.window:
                self._receive(self._in_flight.popleft())
            self._settle()
            if state.is_over:
                return
            chosen = chooser.choice(sent.legal)
            after = verdicts[chosen]
            assert after.after is not None
            state, text = after.after, after.text
            ply += 1

    def _send(
        self,
        game: int,
        ply: int,
        state: GameState,
        text: str,
        plan: Plan,
        alterer: random.Random,
    ) -> tuple[_Sent, dict[str, Verdict]]:
        """Send every request about one position; the reference's verdict on each legal move."""
        self.tally.sent += 1
        texts = Texts(state, text)
        moves = legal_moves(state)
        listed = [str(move) for move in moves]
        verdicts = {
            written: self._verdict(state, move, texts)
            for written, move in zip(listed, moves, strict=True)
        }
        shared = Shared.of({"position": text, "state": to_data(state)})
        checks = []
        if plan.legal:
            checks.append(_Check("legal"))
        if plan.apply:
            checks += [_Check("apply", move, verdicts[move]) for move in listed]
            for move in altered_moves(state, moves, alterer, self.options.altered):
                try:
                    verdict = reference_verdict(state, move, texts)
                except PegsError:  # pragma: no cover - an alteration the reference cannot read
                    continue
                checks.append(_Check("apply", move, verdict, altered=True))
        for check in checks:
            request: dict[str, Any] = {"type": check.request}
            if check.move is not None:
                request["move"] = check.move
            if check.verdict is not None and check.verdict.reshuffle is not None:
                request["reshuffle"] = check.verdict.reshuffle
            self.engine.send(request, shared)
        self._requests_in_flight += len(checks)
        sent = _Sent(self.tally.sent, game, ply, state, texts, listed, checks)
        self._tell_progress()
        return sent, verdicts

    @staticmethod
    def _verdict(state: GameState, move: Move, texts: Texts) -> Verdict:
        after = apply(state, move)
        pile = None
        if after.reshuffles != state.reshuffles:
            pile = format_cards(reshuffle_pile(state, move))
        return Verdict(None, after=after, text=texts.after(after, move), reshuffle=pile)

    def _receive(self, sent: _Sent) -> None:
        """Read the answers about one position and compare them with the reference's."""
        self._requests_in_flight -= len(sent.checks)
        state = sent.state
        for index, check in enumerate(sent.checks):
            try:
                answer = self.engine.receive()
            except EngineUnusable:
                raise
            except EngineFailure as error:
                self._failed(sent, check, str(error), len(sent.checks) - index - 1)
                return
            self._count(check)
            if check.request == "legal":

                def judge(move: str, sent: _Sent = sent) -> Verdict:
                    return reference_verdict(sent.state, move, sent.texts)

                found = legal_divergences(
                    state, sent.legal, answer, judge, same_order=self.options.same_order
                )
            else:
                assert check.move is not None and check.verdict is not None
                one = apply_divergence(state, check.move, check.verdict, answer)
                found = [] if one is None else [one]
            for divergence in found:
                self._note(sent, divergence)
        self.tally.positions += 1

    def _count(self, check: _Check) -> None:
        tally = self.tally
        tally.requests += 1
        if check.request == "legal":
            tally.legal += 1
        elif not check.altered:
            tally.listed += 1
        else:
            tally.altered += 1
            assert check.verdict is not None
            tally.illegal += check.verdict.rule is not None

    def _note(self, sent: _Sent, divergence: Divergence) -> None:
        if divergence.kind == "declined" and self.options.allow_declines:
            self.tally.declined += 1
            return
        known = self.findings.get(divergence.signature)
        if known is not None:
            known.count += 1
            return
        finding = Finding(divergence, sent)
        self.findings[divergence.signature] = finding
        self._new.append(finding)

    def _failed(self, sent: _Sent, check: _Check, error: str, lost: int) -> None:
        """The engine gave no answer: every request in flight is lost."""
        lost += sum(len(s.checks) for s in self._in_flight)
        self._in_flight.clear()
        self._requests_in_flight = 0
        what = "legal" if check.move is None else f"apply {check.move}"
        lines = [
            f"engine failure at position {sent.number:,} (game {sent.game}, ply {sent.ply}), "
            f"on the request {what}: {error}",
            "  position:",
            *(f"    {x}" for x in sent.texts.text.splitlines()),
            f"  ({lost} requests in flight were lost)",
        ]
        if self.rerun is not None:
            lines.append(f"  rerun: {self.rerun(sent.number)}")
        self.failures.append(lines[0])
        self._say("\n".join(lines))

    def _drain(self) -> None:
        while self._in_flight:
            self._receive(self._in_flight.popleft())

    def _settle(self) -> None:
        """Shrink and print the divergences found since the last time (the requests in flight
        answered first: shrinking asks one request at a time)."""
        if not self._new:
            return
        if self.options.keep_going:
            self._drain()
        else:
            self._discard_in_flight()
        while self._new:
            finding = self._new.pop(0)
            finding.shrunk = shrink(
                finding.found,
                self._again(finding),
                self.options.shrink_requests,
                self._rules_ok,
            )
            self._say(self._block(finding))
            if not self.options.keep_going:
                self._new.clear()

    def _discard_in_flight(self) -> None:
        """Read and drop every answer in flight (the run stops at its first divergence)."""
        for sent in self._in_flight:
            for _ in sent.checks:
                try:
                    self.engine.receive()
                except EngineFailure:
                    break
        self._in_flight.clear()
        self._requests_in_flight = 0

    def _rules_ok(self, rules: Rules) -> bool:
        """Whether a shrunk position may have ``rules``: the engine plays them."""
        return engine_plays(self._supports, rules)

    def _again(self, finding: Finding) -> Callable[[GameState, str | None], Divergence | None]:
        """Ask the engine about a smaller position as about the one ``finding`` is about."""
        signature = finding.found.signature
        same_order = self.options.same_order

        def again(state: GameState, move: str | None) -> Divergence | None:
            texts = Texts(state)
            request: dict[str, Any] = {
                "type": finding.found.request,
                **position_fields(state, made=True),
            }
            try:
                if finding.found.request == "legal":
                    answer = self.engine.ask(request)
                    self.tally.shrinking += 1

                    def judge(move: str) -> Verdict:
                        return reference_verdict(state, move, texts)

                    listed = [str(m) for m in legal_moves(state)]
                    found = legal_divergences(state, listed, answer, judge, same_order=same_order)
                    return next((d for d in found if d.signature == signature), None)
                assert move is not None
                verdict = reference_verdict(state, move, texts)
                request["move"] = move
                if verdict.reshuffle is not None:
                    request["reshuffle"] = verdict.reshuffle
                answer = self.engine.ask(request)
                self.tally.shrinking += 1
            except EngineUnusable:
                raise
            except (EngineFailure, PegsError):
                return None
            return apply_divergence(state, move, verdict, answer)

        return again

    # --- saying ---------------------------------------------------------------------------------

    def _say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _tell_progress(self) -> None:
        now = time.perf_counter()
        if self.progress is None or now - self._said < PROGRESS_SECONDS:
            return
        self._said = now
        tally = self.tally
        print(
            f"  {tally.positions:,} positions, {tally.requests:,} requests {tally.rates()}",
            file=self.progress,
            flush=True,
        )

    def _block(self, finding: Finding) -> str:
        """A divergence as a reader sees it: where it was found, the shrunk position, what
        each side says, a suite case, a perft position and the command to find it again."""
        found, sent = finding.found, finding.sent
        assert finding.shrunk is not None
        shrunk = finding.shrunk.divergence
        number = len([f for f in self.findings.values() if f.shrunk is not None])
        rules = describe(sent.state.rules)
        lines = [
            f"divergence {number} at position {sent.number:,} (game {sent.game}, ply "
            f"{sent.ply}: {rules}, {sent.state.players} players): {found.sentence} "
            f"[{shrunk.ruling}]",
            f"  as found: {_size(found.state)}" + (f"; move {found.move}" if found.move else ""),
            f"  shrunk in {len(finding.shrunk.steps)} steps ({finding.shrunk.tried} positions "
            f"tried) to {_size(shrunk.state)}:",
            "  position:",
            *(f"    {x}" for x in str(shrunk.state).splitlines()),
        ]
        if shrunk.move is not None:
            lines.append(f"  move: {shrunk.move}")
        if shrunk.reshuffle is not None:
            lines.append(f"  reshuffle: {shrunk.reshuffle}")
        lines += [f"  reference: {shrunk.reference}", f"  engine: {shrunk.engine}"]
        lines += [f"    {x}" for x in shrunk.lines or self._lists_compared(shrunk)]
        lines += [
            f"  the {shrunk.request} request that diverged, to send by hand (after a hello):",
            f"    {repro_command(shrunk, self.command)}",
        ]
        source = f"seed {self.options.seed}, position {sent.number}"
        case = suite_case(shrunk, source)
        if case is None:
            lines.append("  (a case compares the legal moves as a set: this one cannot be a case)")
        else:
            lines += [
                "  a case for specs/cases/ (the expectation is the reference engine's; "
                f"{self._case_on_engine(case)}):"
            ]
            lines += [f"  {x}" for x in case_text(case).splitlines()]
        perft = perft_position(shrunk, source)
        said, shows = self._engine_count(perft)
        if shows:
            lines += [f"  a perft position for specs/perft.json ({said}):"]
            lines += [f"  {x}" for x in perft_text(perft).splitlines()]
        else:
            lines.append(f"  no perft position: it would not show the divergence ({said})")
        if self.rerun is not None:
            lines.append(f"  rerun: {self.rerun(sent.number)}")
        return "\n".join(lines)

    def _case_on_engine(self, case: dict[str, Any]) -> str:
        """Whether ``case`` catches the engine: it fails there, or why it cannot."""
        outcome = run_case(self.engine, case)
        if outcome.declined is not None:
            return f"the engine declines it: {outcome.declined}"
        if outcome.problem is not None:
            return "the engine fails it"
        return (
            "the engine passes it: the difference does not show in a case (in a case a "
            "reshuffle is each engine's own, say)"
        )

    def _lists_compared(self, shrunk: Divergence) -> list[str]:
        """For a difference in the legal moves: every move the reference lists and the engine
        does not (``-``), and the other way round (``+``), in the shrunk position."""
        if shrunk.request != "legal":
            return []
        state = shrunk.state
        try:
            answer = self.engine.ask({"type": "legal", **position_fields(state, made=True)})
        except EngineUnusable:
            raise
        except EngineFailure:
            return []
        got = answer.get("moves")
        if not isinstance(got, list):
            return []
        listed = [str(m) for m in legal_moves(state)]
        return [f"- {m}" for m in listed if m not in got] + [
            f"+ {m}" for m in dict.fromkeys(got) if m not in listed
        ]

    def _engine_count(self, perft: dict[str, Any]) -> tuple[str, bool]:
        """What the engine counts for a perft entry, if it serves perft, and whether the entry
        shows the divergence: the engine counts otherwise, or does not count (it may still show
        it to an engine that counts)."""
        if not self.counts_perft:
            return "the engine does not serve perft", True
        state = case_state(perft)
        depth = perft["depth"]
        request = {"type": "perft", **position_fields(state, made=True), "depth": depth}
        try:
            answer = self.engine.ask(request)
        except EngineUnusable:
            raise
        except EngineFailure as error:
            return f"the engine gave no count: {str(error).splitlines()[0]}", True
        if "nodes" not in answer:
            return "the engine gave no count: " + _said(answer), True
        counts = perft["counts"][-1]
        if answer["nodes"] == counts:
            return f"at depth {depth} the engine counts {counts}, as the reference does", False
        return f"at depth {depth} the engine counts {answer['nodes']}, not {counts}", True

    def _close(self) -> int:
        """The summary, the divergences by ruling, and the exit status."""
        self._say(str(self.tally))
        if self.tally.declined:
            self._say(f"{self.tally.declined:,} requests declined (allowed: --allow-declines)")
        if not self.findings and not self.failures:
            self._say("no divergence found")
            return 0
        self._say_by_ruling()
        if self.failures:
            self._say(_many(len(self.failures), "engine failure"))
        return 1

    def _say_by_ruling(self) -> None:
        """Each kind of divergence found, how often, grouped by the ruling it touches."""
        if not self.findings:
            return
        by_ruling: dict[str, list[Finding]] = {}
        for finding in self.findings.values():
            by_ruling.setdefault(finding.found.ruling, []).append(finding)
        total = sum(f.count for f in self.findings.values())
        kinds = _many(len(self.findings), "kind")
        self._say(f"{_many(total, 'divergence')} of {kinds}, by the ruling they touch:")
        for ruling, group in sorted(by_ruling.items()):
            said = ", ".join(f"{' '.join(f.found.signature)} x{f.count}" for f in group)
            first = min(f.sent.number for f in group)
            count = sum(f.count for f in group)
            self._say(f"  {ruling}: {count} ({said}); first at position {first:,}")


def _said(answer: dict[str, Any]) -> str:
    text = str(answer.get("unsupported") or answer.get("error") or sorted(answer))
    return text.splitlines()[0] if text else "nothing"


def _many(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def _size(state: GameState) -> str:
    """How big a position is: its players, pegs out of start and cards."""
    pegs = sum(p != -1 for locs in state.pegs for p in locs)
    cards = sum(len(h) for h in state.hands) + len(state.draw_pile) + len(state.discard_pile)
    return f"{state.players} players, {_many(pegs, 'peg')} out of start, {_many(cards, 'card')}"
