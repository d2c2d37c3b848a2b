"""Check that a game state could occur in a real game: :func:`validate`.

A :class:`~pegs_rules.GameState` can be built with any values; the engine
trusts that its states are possible. :func:`validate` lists every way a state
breaks that trust, so that data from outside (JSON, a database, another
program) can be checked before use. It checks:

* the seat count is one the rules allow (``board.sides``);
* every seat has 5 pegs (``board.pegs``) on holes of this board
  (``board.geometry``), sorted, and no two pegs share a hole;
* every hand holds at most the hand size (one more for the seat to act when
  the rules draw first), in rank order (``deal.hands``);
* hands, draw pile and discard pile together hold exactly the deck for this
  many players (``deck.composition``);
* ``turn`` and ``dealer`` are seats; ``ply`` and ``reshuffles`` are counts;
* ``winner`` is set exactly when one team has every peg home, and the seat
  that brought the last one home is still to act (``game.end``).

The functions that take a state do not call it up front (that would slow
the engine down at every turn), but one that runs into a state it cannot work
on raises :class:`~pegs_rules.errors.PositionError` naming every problem it
finds (:func:`reraise`), never a bare ``TypeError`` or ``IndexError``.

>>> from pegs_rules import new_game
>>> validate(new_game(4, seed=1))
[]
>>> from dataclasses import replace
>>> for problem in validate(replace(new_game(4, seed=1), pegs=((-1,) * 5,) * 3, turn=7)):
...     print(problem)
players: 3 seats, but preset 'arizona' allows 4, 6 or 8
turn: 7 is not a seat (0..2)
hands: 4 hands for 3 seats
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import NoReturn

from pegs_rules.board import (
    MAX_PLAYERS,
    PEGS_PER_SEAT,
    START,
    Board,
    is_home,
    location_name,
    team_of,
)
from pegs_rules.cards import Rank, deck_counts
from pegs_rules.errors import PegsError, PositionError, shown
from pegs_rules.rules import Rules
from pegs_rules.state import GameState


def validate(state: object) -> list[str]:
    """Every problem that makes ``state`` impossible, one sentence each; ``[]`` if none."""
    if not isinstance(state, GameState):
        return [f"not a game state: {type(state).__name__}"]
    rules = state.rules
    if not isinstance(rules, Rules):
        return [f"rules: not a Rules object: {type(rules).__name__}"]
    problems: list[str] = []
    pegs_ok = _is_rows(state.pegs, _is_location)
    if not pegs_ok:
        problems.append("pegs: expected a tuple of tuples of locations, one per seat")
    players = len(state.pegs) if isinstance(state.pegs, tuple) else 0
    if players not in rules.player_counts:
        allowed = _or(list(map(str, rules.player_counts)))
        problems.append(
            f"players: {players} seats, but preset {shown(rules.name)} allows {allowed}"
        )
    board_ok = 4 <= players <= MAX_PLAYERS and players % 2 == 0
    if pegs_ok and board_ok:
        problems += _peg_problems(state.pegs, Board(players))
    turn_ok = _seat_problem(problems, "turn", state.turn, players)
    _seat_problem(problems, "dealer", state.dealer, players)
    for name in ("reshuffles", "ply"):
        value = getattr(state, name)
        if not _is_int(value) or value < 0:
            problems.append(f"{name}: expected a count (0 or more), not {shown(value)}")
    if not _is_int(state.seed):
        problems.append(f"seed: expected a whole number, not {shown(state.seed)}")
    winner_ok = state.winner is None or (_is_int(state.winner) and state.winner in (0, 1))
    if not winner_ok:
        problems.append(f"winner: expected team 0, team 1 or None, not {shown(state.winner)}")
    cards_ok = _card_problems(problems, state, players)
    if cards_ok and turn_ok and winner_ok:
        problems += _hand_size_problems(state, rules)
    if pegs_ok and winner_ok and turn_ok and players:
        problems += _winner_problems(state)
    return problems


def malformed(problems: list[str]) -> PositionError:
    """The error for a state the engine cannot work on, naming its ``problems``."""
    return PositionError("malformed game state: " + "; ".join(problems))


def reraise(state: object, error: Exception) -> NoReturn:
    """Raise ``error``, caught while working on ``state``, as the caller should see it.

    The library's own errors pass unchanged. Any other error comes from a state
    the engine cannot work on (a hand-built one with a field of the wrong type
    or length, a seat out of range, ...): it is raised as
    :class:`~pegs_rules.errors.PositionError` naming every problem
    :func:`validate` finds, from the original error. If it finds none, the
    state is sound and the error has another cause (a bug, or another bad
    argument): it is raised as it is, not blamed on the state.

    >>> from dataclasses import replace
    >>> from pegs_rules import new_game, legal_moves
    >>> legal_moves(replace(new_game(4, seed=1), turn=9))
    Traceback (most recent call last):
    ...
    pegs_rules.errors.PositionError: malformed game state: turn: 9 is not a seat (0..3)
    """
    problems = [] if isinstance(error, PegsError) else validate(state)
    if not problems:
        raise error
    raise malformed(problems) from error


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_location(value: object) -> bool:
    """A plain int: the engine takes no subclass (a bool, a card) for a location."""
    return type(value) is int


def _is_rows(rows: object, item: Callable[[object], bool]) -> bool:
    """``rows`` is a tuple of tuples whose items pass ``item``."""
    return isinstance(rows, tuple) and all(
        isinstance(row, tuple) and all(item(x) for x in row) for row in rows
    )


def _is_rank(value: object) -> bool:
    return isinstance(value, Rank)


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _seat_problem(problems: list[str], name: str, value: object, players: int) -> bool:
    if _is_int(value) and 0 <= value < players:  # type: ignore[operator]
        return True
    problems.append(f"{name}: {shown(value)} is not a seat (0..{players - 1})")
    return False


def _peg_problems(pegs: tuple[tuple[int, ...], ...], board: Board) -> list[str]:
    problems = []
    holders: dict[tuple[int, int], list[int]] = {}
    for seat, locs in enumerate(pegs):
        if len(locs) != PEGS_PER_SEAT:
            problems.append(f"pegs {seat}: {len(locs)} pegs, not {PEGS_PER_SEAT}")
        bad = [p for p in locs if not board.is_valid_location(p)]
        if bad:
            holes = ", ".join(map(shown, bad))
            problems.append(
                f"pegs {seat}: no such location on a {board.players}-seat board: {holes}"
            )
        if list(locs) != sorted(locs):
            problems.append(f"pegs {seat}: not in sorted order")
        for p in locs:
            if p != START and board.is_valid_location(p):
                holders.setdefault((seat if is_home(p) else -1, p), []).append(seat)
    for (_, hole), seats in holders.items():
        if len(seats) > 1:
            who = " and ".join(map(str, sorted(set(seats))))
            problems.append(
                f"pegs: {len(seats)} pegs share hole {location_name(hole)} (seat {who})"
            )
    return problems


def _card_problems(problems: list[str], state: GameState, players: int) -> bool:
    """Check the hands and piles hold cards, and exactly the deck's; False if not cards."""
    ok = True
    if not _is_rows(state.hands, _is_rank):
        problems.append("hands: expected a tuple of tuples of cards, one per seat")
        ok = False
    elif len(state.hands) != players:
        problems.append(f"hands: {len(state.hands)} hands for {players} seats")
        ok = False
    else:
        for seat, hand in enumerate(state.hands):
            if list(hand) != sorted(hand):
                problems.append(f"hand {seat}: not in rank order")
    for name in ("draw_pile", "discard_pile"):
        pile = getattr(state, name)
        if not (isinstance(pile, tuple) and all(_is_rank(c) for c in pile)):
            problems.append(f"{name}: expected a tuple of cards")
            ok = False
    if not ok or players not in state.rules.player_counts:
        return ok
    held: Counter[Rank] = Counter(c for hand in state.hands for c in hand)
    held.update(state.draw_pile)
    held.update(state.discard_pile)
    deck = Counter(deck_counts(*state.rules.deck_for(players)))
    if held != deck:
        missing = _count_text(deck - held)
        extra = _count_text(held - deck)
        detail = "; ".join(
            part for part in (missing and f"missing {missing}", extra and f"extra {extra}") if part
        )
        problems.append(
            f"cards: hands and piles hold {held.total()} cards, not the {deck.total()}-card deck "
            f"for {players} players ({detail})"
        )
    return ok


def _count_text(cards: Counter[Rank]) -> str:
    return " ".join(
        rank.symbol + (f" x{cards[rank]}" if cards[rank] > 1 else "") for rank in sorted(cards)
    )


def _hand_size_problems(state: GameState, rules: Rules) -> list[str]:
    problems = []
    for seat, hand in enumerate(state.hands):
        # turn.sequence: with draw_first the seat to act has drawn one card more
        extra = rules.draw_first and seat == state.turn and state.winner is None
        limit = rules.hand_size + extra
        if len(hand) > limit:
            problems.append(f"hand {seat}: {len(hand)} cards, more than {limit}")
    return problems


def _winner_problems(state: GameState) -> list[str]:
    done = [
        team
        for team in (0, 1)
        if all(is_home(p) for s, locs in enumerate(state.pegs) if team_of(s) == team for p in locs)
    ]
    if len(done) == 2:
        return ["winner: both teams have every peg home, but the game ends when the first does"]
    if state.winner is None:
        return [f"winner: team {done[0]} has every peg home, so it has won"] if done else []
    if done != [state.winner]:
        return [f"winner: team {state.winner} has won, but not all its pegs are home"]
    if team_of(state.turn) != state.winner:
        return [
            f"turn: the game is over and stays with the seat that won it, not seat {state.turn} "
            f"of team {team_of(state.turn)}"
        ]
    return []
