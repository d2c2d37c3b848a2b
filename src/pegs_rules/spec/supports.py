"""What an engine says it supports, and what each item of the suite needs.

An engine's ``hello`` answer may carry ``supports``: the presets, player
counts, house-rule fields (the fields of the rules object it can vary, or
``"all"``) and request types it serves, or instead of the presets the one
set of ``rules`` it plays (a preset and fixed values for any fields, as a
rules object of the state JSON). A key left out, or ``supports`` left out,
means everything (except that beside ``rules`` a left-out ``house_rules``
means none: the engine plays its rules as they are). The harness runs only
the items whose :class:`Needs` fit and reports the others as skipped, saying
why (``specs/protocol.md``); with fixed ``rules`` it re-judges each item
under them (:func:`judged_rules`, :mod:`pegs_rules.spec.derive`).

>>> supports = Supports.from_hello({"supports": {"presets": ["arizona"], "players": [4]}})
>>> supports.refusal(needs_of_position("standard", [], "legal"))
'the engine does not play the preset standard (it plays arizona)'
>>> supports.refusal(needs_of_position("arizona", ["rule nine: plain"], "apply")) is None
True
>>> honest = Supports.from_hello({"supports": {"house_rules": ["two_swap"]}})
>>> honest.refusal(needs_of_position("arizona", ["rule nine: plain"], "apply"))
'the item sets the house rule nine, which the engine does not vary (it varies two_swap)'
>>> fixed = Supports.from_hello({"supports": {"rules": {"name": "arizona", "nine": "plain"}}})
>>> fixed.judged_rules(needs_of_position("standard", [], "legal")).nine
<Nine.PLAIN: 'plain'>
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from typing import Any

from pegs_rules.errors import PegsError
from pegs_rules.rules import PRESETS, Rules, rule_text
from pegs_rules.serialize import from_data, to_data
from pegs_rules.spec.suite import rules_of

REQUESTS = ("legal", "apply", "deal", "perft")
"""The request types the harness sends for items (besides ``hello`` and ``quit``)."""

PLAYER_COUNTS = (4, 6, 8)
"""The player counts of the game (``board.sides``)."""

HOUSE_RULES = tuple(f.name for f in fields(Rules) if f.name != "name")
"""The fields of the rules object a position or a deal may switch."""


class SupportsError(PegsError):
    """A ``supports`` object that does not say what the protocol lets it say."""


@dataclass(frozen=True, slots=True)
class Needs:
    """What running one item takes: a preset, a player count, the house-rule fields it
    sets to another value than its preset's, the request types it sends, and its rules
    (the preset with those values)."""

    preset: str
    players: int
    house_rules: frozenset[str]
    requests: frozenset[str]
    rules: Rules


@dataclass(frozen=True, slots=True)
class Supports:
    """What an engine serves; ``None`` for a key it left out (everything).

    ``rules`` holds the fixed rules the engine plays, if it names them; ``house_rules``
    then lists the fields a position may still set to other values.
    """

    presets: frozenset[str] | None = None
    players: frozenset[int] | None = None
    house_rules: frozenset[str] | None = None
    requests: frozenset[str] | None = None
    rules: Rules | None = None

    @classmethod
    def from_hello(cls, hello: dict[str, Any]) -> Supports:
        """The ``supports`` of a ``hello`` answer; :class:`SupportsError` if it is malformed.

        Keys it does not know are ignored, as unknown fields are everywhere in the protocol;
        a value that is not a list of names it knows is refused, so that a typo does not
        quietly skip items, and so are fixed ``rules`` beside ``presets``.
        """
        data = hello.get("supports")
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise SupportsError(f"hello: supports must be an object, not {data!r:.60}")
        presets = _names(data, "presets", str)
        players = _names(data, "players", int)
        house = None if data.get("house_rules") == "all" else _names(data, "house_rules", str)
        requests = _names(data, "requests", str)
        for key, named, known in (
            ("presets", presets, tuple(PRESETS)),
            ("players", players, PLAYER_COUNTS),
            ("house_rules", house, HOUSE_RULES),
            ("requests", requests, REQUESTS),
        ):
            strange = sorted((named or frozenset()) - set(known))
            if strange:
                raise SupportsError(
                    f"hello: supports.{key} names {', '.join(map(str, strange))}; known: "
                    + ", ".join(map(str, known))
                )
        rules = None
        if "rules" in data:
            if presets is not None:
                raise SupportsError(
                    "hello: supports.rules names the preset; leave out supports.presets"
                )
            rules = fixed_rules(data["rules"])
            if "house_rules" not in data:
                house = frozenset()
        return cls(presets, players, house, requests, rules)

    def refusal(self, needs: Needs) -> str | None:
        """Why an item with ``needs`` cannot run on this engine, or ``None`` if it can."""
        if self.requests is not None and not needs.requests <= self.requests:
            return _why("serve {} requests", "serves", self.requests, needs.requests)
        if self.presets is not None and needs.preset not in self.presets:
            return _why("play the preset {}", "plays", self.presets, {needs.preset})
        if self.players is not None and needs.players not in self.players:
            return _why("play with {} players", "plays with", self.players, {needs.players})
        if self.rules is not None:
            rules = self.judged_rules(needs)
            if needs.players not in rules.player_counts:
                counts = ", ".join(map(str, rules.player_counts))
                return (
                    f"the engine's rules ({describe(rules)}) allow {counts} players, "
                    f"not {needs.players}"
                )
        elif self.house_rules is not None and not needs.house_rules <= self.house_rules:
            missing = sorted(needs.house_rules - self.house_rules)
            varied = ", ".join(sorted(self.house_rules)) or "none"
            return (
                f"the item sets the house rule{'s' if len(missing) > 1 else ''} "
                f"{', '.join(missing)}, which the engine does not vary (it varies {varied})"
            )
        return None

    def judged_rules(self, needs: Needs) -> Rules:
        """The rules an item is judged under on this engine: its own, or with fixed ``rules``
        those rules, each field the engine varies taking the item's value."""
        if self.rules is None:
            return needs.rules
        if self.house_rules is None:
            return replace(needs.rules, name=self.rules.name)
        varied: dict[str, Any] = {name: getattr(needs.rules, name) for name in self.house_rules}
        return replace(self.rules, **varied)

    def __str__(self) -> str:
        parts = []
        if self.rules is not None:
            parts.append(f"rules: {describe(self.rules)}")
        for name in ("presets", "players", "house_rules", "requests"):
            value = getattr(self, name)
            if name == "presets" and self.rules is not None:
                continue
            listed = "all" if value is None else ", ".join(map(str, sorted(value))) or "none"
            parts.append(f"{name.replace('_', ' ')}: {listed}")
        return "; ".join(parts)


def fixed_rules(data: object) -> Rules:
    """The rules of ``supports.rules``: a rules object of the state JSON whose ``name`` is a
    preset, each field it gives fixed, the others the preset's."""
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise SupportsError(
            "hello: supports.rules must be a rules object (as in the state JSON) naming a preset"
        )
    if data["name"] not in PRESETS:
        raise SupportsError(
            f"hello: supports.rules names the preset {data['name']!r}; known: " + ", ".join(PRESETS)
        )
    base = to_data(PRESETS[data["name"]])
    try:
        return from_data({**base, **data, "format": 1, "type": "rules"}, "rules")
    except PegsError as error:
        raise SupportsError(f"hello: supports.rules: {error}") from None


def describe(rules: Rules) -> str:
    """The rules in a few words: the preset, then each value that differs from it.

    >>> from pegs_rules.rules import Nine
    >>> describe(Rules(nine=Nine.PLAIN, two_swap=True))
    'arizona with nine: plain, two_swap: true'
    """
    lines = rule_lines(rules)
    base = rules.name if rules.name in PRESETS else "arizona"
    return base + (f" with {', '.join(lines)}" if lines else "")


def rule_lines(rules: Rules) -> list[str]:
    """``FIELD: VALUE`` for each field of ``rules`` that differs from its preset (as a deal's
    ``house_rules`` and a game vector's ``rules`` write them)."""
    base = PRESETS.get(rules.name, PRESETS["arizona"])
    return [
        f"{name}: {rule_text(rules, name)}"
        for name in Rules.__dataclass_fields__
        if getattr(rules, name) != getattr(base, name)
    ]


def _names(data: dict[str, Any], key: str, kind: type) -> frozenset[Any] | None:
    if key not in data:
        return None
    value = data[key]
    if not isinstance(value, list) or not all(
        isinstance(x, kind) and not isinstance(x, bool) for x in value
    ):
        raise SupportsError(f"hello: supports.{key} must be a list of {kind.__name__}s")
    return frozenset(value)


def _why(does: str, did: str, supported: frozenset[Any], needed: Iterable[Any]) -> str:
    """``the engine does not DOES (it DID ...)``, naming what is needed and not supported."""
    missing = ", ".join(str(x) for x in sorted(set(needed) - supported))
    have = ", ".join(map(str, sorted(supported))) or "none"
    return f"the engine does not {does.format(missing)} (it {did} {have})"


def _needs(preset: str, players: int, house: list[str], request: str) -> Needs:
    rules = rules_of(preset, house)
    base = PRESETS[preset]
    switched = frozenset(
        name for name in HOUSE_RULES if getattr(rules, name) != getattr(base, name)
    )
    return Needs(preset, players, switched, frozenset({request}), rules)


def needs_of_case(case: dict[str, Any]) -> Needs:
    """What a conformance case needs."""
    if "deal" in case:
        deal = case["deal"]
        return _needs(case["preset"], deal["players"], deal.get("rules", []), "deal")
    kind = "legal" if "legal" in case["expect"] else "apply"
    return needs_of_position(case["preset"], case["position"], kind)


def needs_of_game(record: dict[str, Any]) -> Needs:
    """What a game vector needs."""
    return _needs(record["preset"], record["players"], record.get("rules", []), "apply")


def needs_of_perft(position: dict[str, Any]) -> Needs:
    """What a perft position needs."""
    return needs_of_position(position["preset"], position["position"], "perft")


def needs_of_position(preset: str, lines: list[str], request: str) -> Needs:
    """What an item needs that sends ``request`` about a position written as ``lines``."""
    players = 4
    house = []
    for line in lines:
        key, _, value = line.partition(":")
        if key.strip() == "players":
            players = int(value)
        elif key.startswith("rule "):
            house.append(f"{key.removeprefix('rule ').strip()}: {value}")
    return _needs(preset, players, house, request)
