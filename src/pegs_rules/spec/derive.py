"""Suite items re-judged under an engine's own rules: derived expectations.

An engine that plays fixed rules (``supports.rules`` in its ``hello``) is
checked on every item it can play: each case's position is set up under the
engine's rules and the reference engine says what the answer must be there
(the legal moves, the verdict on the move and the position after it, the
facts of a deal); a game vector is played again from its seed by the same
greedy bots under those rules; a perft position is counted again. The
results have the suite's own formats, so the harness checks them as it
checks the suite, and marks them as derived. An item that cannot be set up
under the rules (a deck too small for its cards, a draw pile that could run
out within a perft depth) raises :class:`CannotDerive`.

>>> from pegs_rules.rules import Nine, Rules
>>> case = {"id": "card.nine/x", "rules": ["card.nine"], "preset": "arizona",
...         "position": ["pegs 0: 10 30", "hand 0: 9"], "why": "a 9 splits",
...         "expect": {"legal": []}}
>>> len(derive_case(case, Rules())["expect"]["legal"]), derive_case(case, Rules(nine=Nine.PLAIN))["expect"]
(10, {'legal': ['9 0:10-19', '9 0:30-39']})
"""

from __future__ import annotations

from typing import Any

from pegs_rules.bots import GreedyBot
from pegs_rules.errors import IllegalMoveError, PegsError
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import Move, parse_notation
from pegs_rules.position import parse_position
from pegs_rules.rules import PRESETS, Rules
from pegs_rules.serialize import to_data
from pegs_rules.spec.protocol import read_test_state
from pegs_rules.spec.record import enough_cards, record_game
from pegs_rules.spec.suite import case_state, dealt_facts, line_of
from pegs_rules.spec.supports import describe, rule_lines
from pegs_rules.state import GameState, new_game
from pegs_rules.turn import apply

_NOT_COMPARED = ("rules", "rule", "players", "dealer")
"""Position lines a derived ``after`` leaves out: they never change with a move."""


FIELD_RULINGS: dict[str, tuple[str, ...]] = {
    "player_counts": ("board.sides",),
    "decks": ("deck.composition", "variant.decks"),
    "hand_size": ("deal.hands",),
    "draw_first": ("turn.sequence",),
    "control": ("team.control",),
    "joker_source": ("card.joker.source",),
    "nine": ("card.nine", "variant.nine-split"),
    "face_values": ("card.face", "variant.face-values"),
    "home_entry_compulsory": ("variant.home-entry-compulsory",),
    "wait_on_in_spot": ("variant.wait-on-in-spot",),
    "in_spot_occupied": ("move.landing.in-spot", "variant.in-spot-occupied"),
    "two_swap": ("variant.two-swap",),
}
"""The rulings that say what each field of the rules object does (``Rules``'s docstring)."""


def rulings_between(own: Rules, rules: Rules) -> tuple[str, ...]:
    """The rulings of the fields in which ``rules`` differ from ``own``: the text a derived
    expectation under ``rules`` rests on beside its case's rulings."""
    found: list[str] = []
    for name, rulings in FIELD_RULINGS.items():
        if getattr(own, name) != getattr(rules, name):
            found += [r for r in rulings if r not in found]
    return tuple(found)


class CannotDerive(PegsError):
    """An item that cannot be set up under the engine's rules."""


def marker(rules: Rules) -> str:
    """How a derived outcome is marked in the output."""
    return f"derived: the reference engine's answer under the engine's rules ({describe(rules)})"


def position_under(state: GameState, rules: Rules) -> GameState:
    """``state``'s position set up under ``rules``; :class:`CannotDerive` if it cannot be
    (a player count they do not allow, cards their deck does not have, a hand too large)."""
    lines = [line for line in str(state).splitlines() if not line.startswith(("rules:", "rule "))]
    head = [f"rules: {_preset(rules)}", *(f"rule {line}" for line in rule_lines(rules))]
    try:
        moved = parse_position("\n".join([*head, *lines]))
    except PegsError as error:
        raise CannotDerive(
            f"the position cannot be set up under the engine's rules: {error}"
        ) from None
    problem = _unreadable(moved)
    if problem is not None and _unreadable(state) is None:
        raise CannotDerive(
            f"the position is impossible under the engine's rules ({describe(rules)}): {problem}"
        )
    return moved


def derive_case(case: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """``case`` with its position under ``rules`` and the reference's expectation there,
    judging no more than the case judges (:func:`judged_lines`): the facts of a deal it
    lists, the legal moves, the verdict on its move, and of the position after it the lines
    it lists."""
    if "deal" in case:
        deal = case["deal"]
        if deal["players"] not in rules.player_counts:
            raise CannotDerive(f"the engine's rules do not deal {deal['players']} players")
        dealt = new_game(deal["players"], seed=0, rules=rules, dealer=deal["dealer"])
        derived_deal = {**deal, "rules": rule_lines(rules)}
        facts = dealt_facts(dealt)
        return {
            **case,
            "preset": _preset(rules),
            "deal": derived_deal,
            "expect": {"dealt": {k: facts[k] for k in case["expect"]["dealt"]}},
        }
    own = case_state(case)
    state = position_under(own, rules)
    derived = {**case, "preset": _preset(rules), "position": _lines(state)}
    if "legal" in case["expect"]:
        return derived | {"expect": {"legal": [str(move) for move in legal_moves(state)]}}
    try:
        move = parse_notation(case["move"])
        after = apply(state, move)
    except IllegalMoveError as error:
        return derived | {"expect": {"illegal": error.rule}}
    except PegsError as error:
        raise CannotDerive(f"the reference cannot judge the move there: {error}") from None
    listed = case["expect"].get("after", [])
    return derived | {"expect": {"after": judged_lines(own, move, state, after, listed)}}


def judged_lines(
    own: GameState, move: Move, before: GameState, after: GameState, listed: list[str]
) -> list[str]:
    """The lines of ``after`` (the position after ``move`` from ``before``, the case's position
    under the engine's rules) that a derived expectation judges: those the case lists of the
    position after its move (``listed``; none when the case's move is illegal under its own
    rules, whose verdict alone is then judged), less what :func:`after_lines` leaves to each
    engine (after a reshuffle, the draw pile and the hand that drew), and less the discard
    pile too when the move reshuffles under the engine's rules and not from the case's own
    position ``own``: the case is not about the reshuffle, the ``turn.reshuffle`` cases are."""
    keys = [line.partition(":")[0].strip() for line in listed]
    kept = {line.partition(":")[0] for line in after_lines(before, after)}
    kept |= {"winner"}  # written only once the game is over; "winner: none" until then
    if after.reshuffles != before.reshuffles and not _reshuffles(own, move):
        kept -= {"discard"}  # the draw pile and the hand that drew are out already
    return [line_of(after, key) for key in keys if key in kept]


def _reshuffles(state: GameState, move: Move) -> bool:
    """Whether ``move`` from ``state`` reshuffles the discard pile (``False`` if illegal)."""
    try:
        return apply(state, move).reshuffles != state.reshuffles
    except PegsError:
        return False


def after_lines(before: GameState, after: GameState) -> list[str]:
    """The lines of ``after`` that any engine must agree on: all but the rules, players and
    dealer, and, when the move reshuffled the discard pile (each engine's own shuffle), the
    draw pile and the hand that drew from it."""
    drop: set[str] = set()
    if after.reshuffles != before.reshuffles:
        drawer = (before.turn + 1) % before.players if before.rules.draw_first else before.turn
        drop = {"draw", f"hand {drawer}"}
    return [
        line
        for line in str(after).splitlines()
        if line.partition(":")[0] not in drop
        and line.partition(":")[0].split()[0] not in _NOT_COMPARED
    ]


def derive_game(record: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """The game vector played again from its seed by the same greedy bots under ``rules``."""
    players, seed = record["players"], record["seed"]
    if players not in rules.player_counts:
        raise CannotDerive(f"the engine's rules do not deal {players} players")
    bots = [GreedyBot(seed * 10 + s) for s in range(players)]
    return record_game(record["id"], players, seed, bots, _preset(rules), rule_lines(rules))


def derive_perft(position: dict[str, Any], rules: Rules, max_depth: int) -> dict[str, Any]:
    """The perft position under ``rules``, counted again by the reference up to its depth (at
    most ``max_depth``, and no deeper than its draw pile rules out a reshuffle)."""
    state = position_under(case_state(position), rules)
    depth = min(len(position["counts"]), max_depth)
    while depth > 0 and not enough_cards(state, depth):
        depth -= 1
    if depth == 0:
        raise CannotDerive(
            "under the engine's rules its draw pile could run out at the first move "
            "(a reshuffle is each engine's own)"
        )
    counts = [0] * depth
    _count(state, depth, counts)
    lines = _lines(state)
    return {**position, "preset": _preset(rules), "position": lines, "depth": depth} | {
        "counts": counts
    }


def _count(state: GameState, depth: int, counts: list[int]) -> None:
    """Add the sequences of each length up to ``depth`` from ``state`` to ``counts``."""
    moves = legal_moves(state)
    counts[len(counts) - depth] += len(moves)
    if depth > 1:
        for move in moves:
            _count(apply(state, move), depth - 1, counts)


def _preset(rules: Rules) -> str:
    return rules.name if rules.name in PRESETS else "arizona"


def _lines(state: GameState) -> list[str]:
    """A position's lines as a case writes them (its preset given apart)."""
    return [line for line in str(state).splitlines() if not line.startswith("rules:")]


def _unreadable(state: GameState) -> str | None:
    """Why ``state`` cannot travel as state JSON too (as a test position, short of cards),
    or ``None`` if it can."""
    try:
        read_test_state(to_data(state))
    except PegsError as error:
        return str(error).removeprefix("state: $: ")
    return None
