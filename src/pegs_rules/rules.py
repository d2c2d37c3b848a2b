"""Rules as data: a frozen :class:`Rules` object naming every choice the engine reads.

Two presets follow the rulings in ``specs/rulings.md``: :data:`ARIZONA` (the default)
and :data:`STANDARD`. House rules are switches on the same object, usable
with either preset; each switch cites the rule id that defines it::

    from dataclasses import replace
    house = replace(ARIZONA, name="arizona+13", face_values=(11, 12, 13))

>>> ARIZONA.deck_for(8)
(4, 8)
>>> find_preset("standard").control
<Control.OWN_THEN_TEAMMATE: 'own_then_teammate'>
>>> Rules(nine=Nine.PLAIN, face_values=(11, 12, 14))
Traceback (most recent call last):
...
pegs_rules.errors.RulesError: face_values: a face card moves 1..13 holes, not (11, 12, 14)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from pegs_rules.board import MAX_PLAYERS
from pegs_rules.errors import RulesError, shown

MAX_DECKS = 16
"""The most 52-card decks a rules object may shuffle together (``variant.decks``)."""
MAX_JOKERS = 64
"""The most jokers a rules object may add (``variant.decks``)."""
MAX_HAND = 10
"""The largest hand size (``deal.hands``)."""


class Control(Enum):
    """Whose pegs a player moves (``team.control``)."""

    TEAM = "team"
    """Any peg of the team, all game long (arizona)."""
    OWN_THEN_TEAMMATE = "own_then_teammate"
    """Own pegs until all five are home, then the first teammate clockwise with a peg out."""


class Nine(Enum):
    """What a 9 may do (``card.nine``, ``variant.nine-split``)."""

    PLAIN = "plain"
    """9 forward with one peg only (standard)."""
    FORWARD_FORWARD = "forward_forward"
    """9 forward, or split over two pegs like a 7 (arizona)."""
    FORWARD_BACKWARD = "forward_backward"
    """9 forward, or split over two pegs: one part forward, the other backward."""


class JokerSource(Enum):
    """Which pegs a joker may move (``card.joker.source``)."""

    TEAM_START_FIRST = "team_start_first"
    """From a team start area while one holds a peg, else any team track peg (arizona)."""
    ANY = "any"
    """Any peg the player may move, in start or on the track (standard)."""


class InSpotOccupied(Enum):
    """Where a knocked team peg goes when its in-spot is held (``variant.in-spot-occupied``)."""

    CHAIN = "chain"
    """The relocation is a landing: same colour there is illegal, others are knocked on."""
    ILLEGAL = "illegal"
    """Any peg on that in-spot makes the move illegal."""
    TO_START = "to_start"
    """The knocked team peg goes to its start area instead; the occupant stays."""


@dataclass(frozen=True, slots=True)
class Rules:
    """A rules preset with its house-rule switches.

    Every value is checked when the object is made; :class:`RulesError` says
    what is wrong. The limits keep every game small and drawable: seat counts
    are 4, 6 or 8 (:data:`~pegs_rules.board.MAX_PLAYERS`), each with one row
    of 1 to 16 decks (:data:`MAX_DECKS`) and 0 to 64 jokers
    (:data:`MAX_JOKERS`) that can deal every hand twice over; hands hold 1 to
    10 cards and face cards move 1 to 13 holes (``variant.decks``).

    Attributes:
        name: the preset's name.
        player_counts: seat counts allowed (``board.sides``).
        decks: ``(players, decks, jokers)`` rows (``deck.composition``, ``variant.decks``).
        hand_size: cards held between turns (``deal.hands``).
        draw_first: draw one extra card before playing, as in standard
            (``turn.sequence``).
        control: whose pegs a player moves (``team.control``).
        joker_source: which pegs a joker may move (``card.joker.source``).
        nine: what a 9 may do (``card.nine``, ``variant.nine-split``).
        face_values: steps a J, Q and K move forward (``card.face``,
            ``variant.face-values``).
        home_entry_compulsory: a peg that can enter home must
            (``variant.home-entry-compulsory``).
        wait_on_in_spot: a peg on its own in-spot may not go on along the
            track, only into home; an 8, a joker or a swap may still move it
            (``variant.wait-on-in-spot``).
        in_spot_occupied: where a knocked team peg goes when its in-spot is
            held (``move.landing.in-spot``, ``variant.in-spot-occupied``).
        two_swap: a 2 may instead swap two pegs (``variant.two-swap``).
    """

    name: str = "arizona"
    player_counts: tuple[int, ...] = (4, 6, 8)
    decks: tuple[tuple[int, int, int], ...] = ((4, 3, 6), (6, 3, 6), (8, 4, 8))
    hand_size: int = 5
    draw_first: bool = False
    control: Control = Control.TEAM
    joker_source: JokerSource = JokerSource.TEAM_START_FIRST
    nine: Nine = Nine.FORWARD_FORWARD
    face_values: tuple[int, int, int] = (10, 10, 10)
    home_entry_compulsory: bool = False
    wait_on_in_spot: bool = False
    in_spot_occupied: InSpotOccupied = InSpotOccupied.CHAIN
    two_swap: bool = False

    def __post_init__(self) -> None:
        _check(self)

    def deck_for(self, players: int) -> tuple[int, int]:
        """``(decks, jokers)`` used with ``players`` seats (``deck.composition``)."""
        for count, decks, jokers in self.decks:
            if count == players:
                return decks, jokers
        raise RulesError(f"preset {shown(self.name)} has no deck for {shown(players)} players")


def _check(rules: Rules) -> None:
    """Reject values and combinations that cannot be played."""
    enums = {
        "control": Control,
        "joker_source": JokerSource,
        "nine": Nine,
        "in_spot_occupied": InSpotOccupied,
    }
    for field, kind in enums.items():
        if not isinstance(getattr(rules, field), kind):
            raise RulesError(
                f"{field}: expected a {kind.__name__}, not {shown(getattr(rules, field))}"
            )
    flags = ("draw_first", "home_entry_compulsory", "wait_on_in_spot", "two_swap")
    for field in flags:
        if not isinstance(getattr(rules, field), bool):
            raise RulesError(f"{field}: expected True or False, not {shown(getattr(rules, field))}")
    if not isinstance(rules.name, str) or not rules.name:
        raise RulesError("name: a preset needs a name")
    counts = rules.player_counts
    seat_counts = range(4, MAX_PLAYERS + 1, 2)
    if not counts or not _ints(counts) or any(n not in seat_counts for n in counts):
        raise RulesError(f"player_counts: some of 4, 6 and 8, not {shown(counts)}")
    rows = rules.decks
    if not (
        isinstance(rows, tuple)
        and all(isinstance(r, tuple) and len(r) == 3 and _ints(r) for r in rows)
    ):
        raise RulesError(f"decks: rows of (players, decks, jokers), not {shown(rows)}")
    if len({row[0] for row in rows}) != len(rows) or any(row[0] not in seat_counts for row in rows):
        raise RulesError("decks: one row for each of some of 4, 6 and 8 players")
    if any(
        not 1 <= decks <= MAX_DECKS or not 0 <= jokers <= MAX_JOKERS for _, decks, jokers in rows
    ):
        raise RulesError(f"decks: 1 to {MAX_DECKS} decks and 0 to {MAX_JOKERS} jokers per row")
    if not set(rules.player_counts) <= {row[0] for row in rows}:
        raise RulesError("decks: every allowed player count needs a row")
    if not _ints((rules.hand_size,)) or not 1 <= rules.hand_size <= MAX_HAND:
        raise RulesError(f"hand_size: 1..{MAX_HAND} cards, not {shown(rules.hand_size)}")
    values = rules.face_values
    if not (isinstance(values, tuple) and len(values) == 3 and _ints(values)) or not all(
        1 <= v <= 13 for v in values
    ):
        raise RulesError(f"face_values: a face card moves 1..13 holes, not {shown(values)}")
    for count, decks, jokers in rows:
        hands = count * (rules.hand_size + rules.draw_first)
        if 52 * decks + jokers < 2 * hands:
            raise RulesError(f"decks: {decks} deck(s) are too few to deal {count} players")


def _ints(values: object) -> bool:
    return isinstance(values, tuple) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    )


ARIZONA = Rules()
"""The default preset: Arizona Pegs and Jokers (the Gaelic, Welsh and Sindhi seeds)."""

STANDARD = Rules(
    name="standard",
    draw_first=True,
    control=Control.OWN_THEN_TEAMMATE,
    joker_source=JokerSource.ANY,
    nine=Nine.PLAIN,
)
"""The sister rules, Pegs and Jokers (the Macedonian seed)."""

PRESETS: dict[str, Rules] = {ARIZONA.name: ARIZONA, STANDARD.name: STANDARD}


def rule_text(rules: Rules, field: str) -> str:
    """The value of one field as text, as position descriptions write it.

    >>> rule_text(ARIZONA, "decks"), rule_text(ARIZONA, "nine"), rule_text(ARIZONA, "two_swap")
    ('4,3,6 6,3,6 8,4,8', 'forward_forward', 'false')
    """
    value = getattr(rules, field)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return " ".join(",".join(map(str, v)) if isinstance(v, tuple) else str(v) for v in value)
    return str(value)


def with_rule(rules: Rules, field: str, text: str) -> Rules:
    """``rules`` with one field read from its text form (see :func:`rule_text`).

    >>> with_rule(ARIZONA, "face_values", "11 12 13").face_values
    (11, 12, 13)
    """
    if field not in Rules.__dataclass_fields__:
        raise RulesError(f"no rule called {shown(field)}")
    current = getattr(rules, field)
    text = text.strip()
    value: object
    try:
        if isinstance(current, bool):
            if text not in ("true", "false"):
                raise ValueError
            value = text == "true"
        elif isinstance(current, Enum):
            value = type(current)(text)
        elif isinstance(current, tuple):
            rows = [tuple(int(x) for x in word.split(",")) for word in text.split()]
            value = tuple(rows) if "," in text else tuple(r[0] for r in rows)
        elif isinstance(current, int):
            value = int(text)
        else:
            value = text
    except ValueError:
        raise RulesError(
            f"{field}: cannot read {shown(text)} (now {rule_text(rules, field)!r})"
        ) from None
    changed: dict[str, Any] = {field: value}
    return replace(rules, **changed)


def find_preset(name: str) -> Rules:
    """The preset called ``name``; ``ValueError`` lists the known names."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise RulesError(
            f"unknown preset {shown(name)}; known: {', '.join(sorted(PRESETS))}"
        ) from None
