"""What an engine says it supports, and what each item of the suite needs.

An engine's ``hello`` answer may carry ``supports``: the presets, player
counts, house-rule fields (the fields of the rules object it can vary, or
``"all"``) and request types it serves. A key left out, or ``supports`` left
out, means everything. The harness runs only the items whose :class:`Needs`
fit and reports the others as skipped, saying why (``specs/protocol.md``).

>>> supports = Supports.from_hello({"supports": {"presets": ["arizona"], "players": [4]}})
>>> supports.refusal(Needs("standard", 4, frozenset(), frozenset({"legal"})))
'the engine does not play the preset standard (it plays arizona)'
>>> supports.refusal(Needs("arizona", 4, frozenset({"nine"}), frozenset({"apply"}))) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from pegs_rules.errors import PegsError
from pegs_rules.rules import PRESETS, Rules

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
    switches and the request types it sends."""

    preset: str
    players: int
    house_rules: frozenset[str]
    requests: frozenset[str]


@dataclass(frozen=True, slots=True)
class Supports:
    """What an engine serves; ``None`` for a key it left out (everything)."""

    presets: frozenset[str] | None = None
    players: frozenset[int] | None = None
    house_rules: frozenset[str] | None = None
    requests: frozenset[str] | None = None

    @classmethod
    def from_hello(cls, hello: dict[str, Any]) -> Supports:
        """The ``supports`` of a ``hello`` answer; :class:`SupportsError` if it is malformed.

        Keys it does not know are ignored, as unknown fields are everywhere in the protocol;
        a value that is not a list of names it knows is refused, so that a typo does not
        quietly skip items.
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
        return cls(presets, players, house, requests)

    def refusal(self, needs: Needs) -> str | None:
        """Why an item with ``needs`` cannot run on this engine, or ``None`` if it can."""
        if self.requests is not None and not needs.requests <= self.requests:
            return _why("serve {} requests", "serves", self.requests, needs.requests)
        if self.presets is not None and needs.preset not in self.presets:
            return _why("play the preset {}", "plays", self.presets, {needs.preset})
        if self.players is not None and needs.players not in self.players:
            return _why("play with {} players", "plays with", self.players, {needs.players})
        if self.house_rules is not None and not needs.house_rules <= self.house_rules:
            return _why("vary the house rules {}", "varies", self.house_rules, needs.house_rules)
        return None

    def __str__(self) -> str:
        parts = []
        for name in ("presets", "players", "house_rules", "requests"):
            value = getattr(self, name)
            listed = "all" if value is None else ", ".join(map(str, sorted(value))) or "none"
            parts.append(f"{name.replace('_', ' ')}: {listed}")
        return "; ".join(parts)


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


def needs_of_case(case: dict[str, Any]) -> Needs:
    """What a conformance case needs."""
    if "deal" in case:
        house = [line.partition(":")[0].strip() for line in case["deal"].get("rules", [])]
        return Needs(case["preset"], case["deal"]["players"], frozenset(house), frozenset({"deal"}))
    kind = "legal" if "legal" in case["expect"] else "apply"
    return _needs_of_position(case["preset"], case["position"], kind)


def needs_of_game(record: dict[str, Any]) -> Needs:
    """What a game vector needs."""
    house = frozenset(line.partition(":")[0].strip() for line in record.get("rules", []))
    return Needs(record["preset"], record["players"], house, frozenset({"apply"}))


def needs_of_perft(position: dict[str, Any]) -> Needs:
    """What a perft position needs."""
    return _needs_of_position(position["preset"], position["position"], "perft")


def _needs_of_position(preset: str, lines: list[str], request: str) -> Needs:
    players = 4
    house = set()
    for line in lines:
        key, _, value = line.partition(":")
        if key.strip() == "players":
            players = int(value)
        elif key.startswith("rule "):
            house.add(key.removeprefix("rule ").strip())
    return Needs(preset, players, frozenset(house), frozenset({request}))
