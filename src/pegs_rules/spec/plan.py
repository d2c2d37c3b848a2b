"""What the fuzzer plays on an engine: the rules of each game and its player count.

:func:`plan_for` reads what an engine's ``hello`` says it plays (its presets,
or its fixed rules, and the house-rule fields it varies) into a
:class:`Plan`; :func:`random_rules` draws a game's rules from it: each field
the engine varies changed at random half of the time, within values that can
be played.

>>> import random
>>> from pegs_rules.rules import ARIZONA
>>> rules = random_rules(random.Random(1), ARIZONA, frozenset({"nine", "two_swap"}))
>>> rules.nine, rules.two_swap, rules.face_values
(<Nine.PLAIN: 'plain'>, True, (10, 10, 10))
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from pegs_rules.errors import PegsError, RulesError
from pegs_rules.rules import PRESETS, Control, InSpotOccupied, JokerSource, Nine, Rules
from pegs_rules.spec.supports import (
    PLAYER_COUNTS,
    Needs,
    Supports,
    describe,
    needs_of_position,
    rule_lines,
)

DECK_TABLES = (
    ((4, 3, 6), (6, 3, 6), (8, 4, 8)),
    ((4, 2, 4), (6, 3, 6), (8, 4, 8)),
    ((4, 1, 8), (6, 2, 0), (8, 3, 2)),
)
"""The ``decks`` tables a random game may use: the presets', fewer decks, small pools (early
reshuffles); each deals hands of up to 6 cards, drawing first."""


@dataclass(frozen=True, slots=True)
class Plan:
    """What the fuzzer plays on an engine: the rules each game starts from, the fields drawn
    at random (``None``: all), the player counts, and the requests the engine serves."""

    bases: tuple[Rules, ...]
    varied: frozenset[str] | None
    players: tuple[int, ...]
    legal: bool
    apply: bool

    def describe(self) -> str:
        rules = " or ".join(describe(r) for r in self.bases)
        if self.varied is None:
            varied = "every house rule drawn at random"
        elif self.varied:
            varied = f"house rules {', '.join(sorted(self.varied))} drawn at random"
        else:
            varied = "no house rule drawn"
        players = ", ".join(map(str, self.players))
        asked = " and ".join(x for x, on in (("legal", self.legal), ("apply", self.apply)) if on)
        return f"rules {rules} ({varied}); {players} players; {asked} requests"


def plan_for(
    supports: Supports, players: tuple[int, ...] = (), rules: tuple[Rules, ...] = ()
) -> Plan:
    """The plan for an engine with these ``supports``, playing only the ``players`` counts
    and the ``rules`` given (if any); :class:`PegsError` if nothing can be fuzzed (no player
    count in common, neither ``legal`` nor ``apply`` served, rules it does not play)."""
    requests = supports.requests
    legal = requests is None or "legal" in requests
    applied = requests is None or "apply" in requests
    if not (legal or applied):
        raise PegsError("the engine serves neither legal nor apply requests: nothing to fuzz")
    varied = supports.house_rules
    if rules:
        for asked in rules:
            refusal = supports.refusal(_needs(asked))
            if refusal is None and supports.judged_rules(_needs(asked)) != asked:
                refusal = "they are not the rules the engine plays"
            if refusal is not None:
                raise PegsError(f"--rules {describe(asked)}: {refusal}")
        bases, varied = rules, frozenset()
    elif supports.rules is not None:
        bases = (supports.rules,)
    else:
        presets = sorted(supports.presets) if supports.presets is not None else list(PRESETS)
        bases = tuple(PRESETS[name] for name in presets)
    counts = tuple(
        n
        for n in PLAYER_COUNTS
        if (supports.players is None or n in supports.players)
        and (not players or n in players)
        and any(n in base.player_counts for base in bases)
    )
    if not counts:
        raise PegsError("no player count is both asked for and played by the engine")
    bases = tuple(base for base in bases if set(counts) & set(base.player_counts))
    return Plan(bases, varied, counts, legal, applied)


def engine_plays(supports: Supports, rules: Rules) -> bool:
    """Whether an engine with these ``supports`` plays ``rules`` as they are (not judged under
    rules of its own): the rules a shrunk position may have."""
    needs = _needs(rules)
    return supports.refusal(needs) is None and supports.judged_rules(needs) == rules


def _needs(rules: Rules) -> Needs:
    """What a game under ``rules`` (a preset's, with house rules) needs of an engine, as an
    item of the suite would."""
    lines = [f"rule {line}" for line in rule_lines(rules)]
    return needs_of_position(rules.name, lines, "legal")


def random_rules(rng: random.Random, base: Rules, varied: frozenset[str] | None) -> Rules:
    """``base`` with each field of ``varied`` (``None``: every field but the player counts)
    drawn at random half of the time, as long as the result can be played."""
    drawers: dict[str, Callable[[], Any]] = {
        "decks": lambda: rng.choice(DECK_TABLES),
        "hand_size": lambda: rng.choice((4, 5, 6)),
        "draw_first": lambda: rng.random() < 0.5,
        "control": lambda: rng.choice(list(Control)),
        "joker_source": lambda: rng.choice(list(JokerSource)),
        "nine": lambda: rng.choice(list(Nine)),
        "face_values": lambda: rng.choice(
            ((10, 10, 10), (11, 12, 13), tuple(rng.randint(1, 13) for _ in range(3)))
        ),
        "home_entry_compulsory": lambda: rng.random() < 0.5,
        "wait_on_in_spot": lambda: rng.random() < 0.5,
        "in_spot_occupied": lambda: rng.choice(list(InSpotOccupied)),
        "two_swap": lambda: rng.random() < 0.5,
    }
    changes: dict[str, Any] = {
        name: draw()
        for name, draw in drawers.items()
        if (varied is None or name in varied) and rng.random() < 0.5
    }
    try:
        return replace(base, **changes)
    except RulesError:  # decks too few for the hands drawn: the base's decks and hands
        for name in ("decks", "hand_size", "draw_first"):
            changes.pop(name, None)
        return replace(base, **changes)
