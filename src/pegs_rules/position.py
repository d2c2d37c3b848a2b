"""Build a position from a readable text description (and check it).

The text has one ``key: values`` item per line; blank lines and ``#``
comments are ignored, and every item is optional::

    rules: arizona        # preset name (default arizona)
    rule nine: plain      # a house-rule switch: any field of Rules, as text
    players: 4            # 4, 6 or 8 (default 4)
    turn: 0               # seat to act (default 0)
    dealer: 3             # default: the seat before `turn`
    pegs 0: 12 15 h2      # seat 0's pegs; unlisted pegs are in start (s)
    hand 0: 7 5 K         # seat 0's cards (A 2..10 J Q K JK); default none
    draw: 5 6 7           # draw pile, top card first; default empty
    discard: 9            # discard pile, most recent last; default empty
    winner: 0             # the winning team, 0, 1 or none; must agree with the pegs

Locations are track hole numbers, ``h1``..``h5`` (the seat's own home lane)
or ``s`` (start). ``str(state)`` writes this same form.

>>> state = parse_position('''
... pegs 0: 12 h2
... hand 0: 7 K
... ''')
>>> state.pegs[0], state.hands[0]
((-1, -1, -1, 12, 1002), (<Rank.SEVEN: 7>, <Rank.KING: 13>))
"""

from __future__ import annotations

from pegs_rules.board import PEGS_PER_SEAT, START, Location, is_home, parse_location, team_of
from pegs_rules.cards import Rank, parse_cards
from pegs_rules.errors import PositionError
from pegs_rules.rules import find_preset, with_rule
from pegs_rules.state import GameState, board_for


def parse_position(text: str) -> GameState:
    """The position described by ``text``; :class:`PositionError` says what is wrong."""
    if not isinstance(text, str):
        raise PositionError(f"a position is text, not {type(text).__name__}")
    items: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, value = line.partition(":")
        key = " ".join(key.split())
        if not colon or not key:
            raise PositionError(f"line {number}: expected 'key: values', got {raw.strip()!r}")
        if key in items:
            raise PositionError(f"line {number}: {key!r} given twice")
        items[key] = value.strip()
    try:
        return _build(items)
    except ValueError as error:
        if isinstance(error, PositionError):
            raise
        raise PositionError(str(error)) from None


def _int(items: dict[str, str], key: str, default: int) -> int:
    value = items.pop(key, None)
    if value is None:
        return default
    if not value.lstrip("-").isdigit():
        raise PositionError(f"{key}: expected a whole number, got {value!r}")
    return int(value)


def _build(items: dict[str, str]) -> GameState:
    rules = find_preset(items.pop("rules", "arizona"))
    for key in [k for k in items if k.startswith("rule ")]:
        rules = with_rule(rules, key.removeprefix("rule "), items.pop(key))
    players = _int(items, "players", 4)
    if players not in rules.player_counts:
        raise PositionError(
            f"players: preset {rules.name!r} allows {rules.player_counts}, not {players}"
        )
    turn = _int(items, "turn", 0)
    if not 0 <= turn < players:
        raise PositionError(f"turn: no seat {turn} among {players}")
    dealer = _int(items, "dealer", (turn - 1) % players)
    if not 0 <= dealer < players:
        raise PositionError(f"dealer: no seat {dealer} among {players}")
    seed = _int(items, "seed", 0)
    board = board_for(players)
    pegs: list[tuple[Location, ...]] = []
    hands: list[tuple[Rank, ...]] = []
    for seat in board.seats:
        locs = [parse_location(x) for x in items.pop(f"pegs {seat}", "").split()]
        if len(locs) > PEGS_PER_SEAT:
            raise PositionError(f"pegs {seat}: a seat has {PEGS_PER_SEAT} pegs, not {len(locs)}")
        locs += [START] * (PEGS_PER_SEAT - len(locs))
        pegs.append(tuple(sorted(locs)))
        hands.append(tuple(sorted(parse_cards(items.pop(f"hand {seat}", "")))))
    draw = parse_cards(items.pop("draw", ""))
    discard = parse_cards(items.pop("discard", ""))
    winner = _winner(tuple(pegs))
    said = items.pop("winner", None)
    if said is not None and said != str(winner).lower():
        raise PositionError(f"winner: the pegs say {str(winner).lower()}, not {said!r}")
    if items:
        raise PositionError(f"unknown item(s): {', '.join(sorted(items))}")
    state = GameState(
        rules=rules,
        pegs=tuple(pegs),
        hands=tuple(hands),
        draw_pile=draw,
        discard_pile=discard,
        turn=turn,
        dealer=dealer,
        seed=seed,
        winner=winner,
    )
    check_pegs(state)
    return state


def _winner(pegs: tuple[tuple[Location, ...], ...]) -> int | None:
    for team in (0, 1):
        if all(is_home(p) for s, locs in enumerate(pegs) if team_of(s) == team for p in locs):
            return team
    return None


def check_pegs(state: GameState) -> None:
    """Raise :class:`PositionError` unless every peg stands on a real, unshared hole."""
    board = state.board
    seen: dict[tuple[int, Location], int] = {}
    for seat, locs in enumerate(state.pegs):
        if len(locs) != PEGS_PER_SEAT:
            raise PositionError(f"seat {seat} has {len(locs)} pegs, not {PEGS_PER_SEAT}")
        for p in locs:
            if not board.is_valid_location(p):
                raise PositionError(f"seat {seat}: no hole {p} on a {board.players}-seat board")
            if p == START:
                continue
            key = (seat if is_home(p) else -1, p)
            if key in seen:
                raise PositionError(f"two pegs on hole {p} (seats {seen[key]} and {seat})")
            seen[key] = seat
