"""Hostile input is bounded and answered with the library's documented errors.

Regression tests for what a probe once found (huge seat and deck counts, numbers too long to
print, files that are not UTF-8, views with wrong field types), a property test that the
loaders let nothing but :class:`~pegs_rules.errors.PegsError` escape, whatever they are given,
and one that every function taking a state answers a hand-built state with any field, seat's
pegs or hand, peg or card replaced by junk, or raises a PegsError (a PositionError naming what
:func:`~pegs_rules.validate` finds, where the state is what it cannot work on).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from played import examples, reached_states

from pegs_rules import (
    ARIZONA,
    FormatError,
    GameState,
    IllegalMoveError,
    Pass,
    PegsError,
    PositionError,
    Rules,
    apply,
    apply_with_events,
    determinize,
    explain,
    format_move,
    from_data,
    from_json,
    legal_moves,
    new_game,
    parse_move,
    parse_notation,
    parse_position,
    record_of,
    to_json,
    validate,
    view,
)
from pegs_rules.board import MAX_PLAYERS, START, Board
from pegs_rules.bots import RandomBot, decide
from pegs_rules.cards import Rank, build_deck, deck_counts
from pegs_rules.errors import RulesError
from pegs_rules.paths import paths_for
from pegs_rules.render import svg, text
from pegs_rules.rules import MAX_DECKS, MAX_JOKERS, STANDARD, with_rule
from pegs_rules.validate import reraise
from pegs_rules.workboard import tables

HUGE = 10**5000
"""A whole number too long for Python to print (over 4,300 digits)."""
GAME = new_game(4, seed=3)


def record_json(rules: dict[str, Any], players: int = 4) -> str:
    return json.dumps(
        {"format": 1, "type": "record", "rules": rules, "players": players, "seed": 1, "moves": []}
    )


# --- Rules: bounded seats, decks and jokers ------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        {"player_counts": [200], "decks": [[200, 3, 6]]},
        {"player_counts": [10], "decks": [[10, 4, 8]]},
        {"decks": [[4, 1_000_000, 6], [6, 3, 6], [8, 4, 8]]},
        {"decks": [[4, 3, MAX_JOKERS + 1], [6, 3, 6], [8, 4, 8]]},
        {"decks": [[4, 3, 6], [4, 4, 8], [6, 3, 6], [8, 4, 8]]},
        {"hand_size": 11},
    ],
)
def test_a_record_with_rules_beyond_the_limits_is_refused(rules: dict[str, Any]) -> None:
    with pytest.raises(FormatError, match="unplayable rules"):
        from_json(record_json(rules))


def test_the_limits_themselves_are_playable() -> None:
    rows = tuple((n, MAX_DECKS, MAX_JOKERS) for n in (4, 6, 8))
    rules = Rules(name="big", decks=rows, hand_size=10)
    game = new_game(8, seed=1, rules=rules)
    assert validate(game) == [] and len(game.draw_pile) == 52 * MAX_DECKS + MAX_JOKERS - 80
    assert Counter(deck_counts(MAX_DECKS, MAX_JOKERS)) == Counter(build_deck(MAX_DECKS, MAX_JOKERS))


@pytest.mark.parametrize("players", [2, 5, 10, 12, 200])
def test_seat_counts_are_4_6_or_8(players: int) -> None:
    with pytest.raises(RulesError):
        Rules(player_counts=(players,), decks=((players, 4, 8),))
    with pytest.raises(PositionError):
        Board(players)


@pytest.mark.ruling("deck.composition")
def test_decks_listed_out_of_order_still_give_each_count_its_row() -> None:
    """``deck.composition``: the row for a count is the one naming it, wherever it stands."""
    rules = Rules(name="descending", decks=((8, 4, 8), (6, 2, 4), (4, 1, 2)))
    assert [rules.deck_for(n) for n in (4, 6, 8)] == [(1, 2), (2, 4), (4, 8)]
    assert len(new_game(6, seed=1, rules=rules).draw_pile) == 52 * 2 + 4 - 30


def test_the_move_tables_are_cached_for_a_bounded_number_of_boards() -> None:
    assert paths_for.cache_info().maxsize is not None
    assert tables.cache_info().maxsize == MAX_PLAYERS
    ten_seats = dataclasses.replace(GAME, pegs=(GAME.pegs * 3)[:10], hands=(GAME.hands * 3)[:10])
    with pytest.raises(PegsError):
        legal_moves(ten_seats)


@pytest.mark.parametrize("players", range(4, MAX_PLAYERS + 1, 2))
def test_every_allowed_seat_count_can_be_drawn(players: int) -> None:
    game = new_game(players, seed=1)
    for _ in range(30):
        game = apply(game, legal_moves(game)[-1])
    picture = svg(game, legal_moves(game)[0], labels=True)
    assert picture.count('class="peg seat-') == 5 * players
    assert len(text(game).splitlines()) == players + 3


def test_a_move_for_a_negative_seat_is_not_a_move() -> None:
    document = {"format": 1, "type": "move", "action": "play", "card": "5"}
    document["steps"] = [{"seat": -1, "from": "s", "to": "3"}]
    with pytest.raises(FormatError, match=r"\$\.steps\[0\]\.seat: a seat is 0 or more, not -1"):
        from_data(document)


@pytest.mark.ruling("turn.sequence", "deal.hands")
def test_only_the_seat_to_act_may_hold_six_cards_in_standard() -> None:
    """``turn.sequence`` (standard): the seat to act has drawn its sixth card; no one else has."""
    game = new_game(4, seed=5, rules=STANDARD)
    assert validate(game) == [] and len(game.hands[game.turn]) == 6
    other = (game.turn + 1) % 4
    hands = list(game.hands)
    hands[other], hands[game.turn] = (*hands[other], hands[game.turn][-1]), hands[game.turn][:-1]
    moved = dataclasses.replace(game, hands=tuple(tuple(sorted(h)) for h in hands))
    assert validate(moved) == [f"hand {other}: 6 cards, more than 5"]


# --- numbers too long to print --------------------------------------------------------------------


@pytest.mark.parametrize("field", ["turn", "dealer", "reshuffles", "ply", "winner"])
def test_a_hand_built_state_with_a_huge_number_gets_library_errors(field: str) -> None:
    state = dataclasses.replace(GAME, **{field: HUGE})  # type: ignore[arg-type]
    problems = validate(state)
    if field in ("turn", "dealer", "winner"):  # a huge count of plies or reshuffles is possible
        assert "whole number of 16610 bits" in " ".join(problems)
    assert str(state) and repr(state)
    with pytest.raises(FormatError):
        to_json(state)
    calls = (
        lambda: str(view(state, 0)),
        lambda: record_of(state, []),
        lambda: svg(state),
        lambda: text(state),
    )
    for call in calls:
        with contextlib.suppress(PegsError):
            call()


def test_a_peg_on_a_huge_hole_gets_library_errors() -> None:
    state = dataclasses.replace(GAME, pegs=((HUGE,) * 5, *GAME.pegs[1:]))
    assert any("no such location" in p for p in validate(state))
    assert "pegs 0: h<a whole number of 16610 bits>" in str(state)
    with pytest.raises(FormatError):
        from_json(to_json(state))  # written as its description, which no reader takes
    with pytest.raises(PegsError):
        svg(state)


@pytest.mark.parametrize(
    "document",
    [
        '{"format": 1, "type": "state", "turn": ' + "9" * 5000 + "}",
        '{"format": ' + "1" * 4301 + ', "type": "move", "action": "pass"}',
        '{"format": 1, "type": "rules", "hand_size": ' + "9" * 4000 + "}",
        '{"format": 1, "type": "move", "action": "play", "card": "5", "steps": '
        '[{"seat": ' + "1" * 5000 + ', "from": "s", "to": "3"}]}',
    ],
    ids=["state", "format", "rules", "move"],
)
def test_huge_numbers_in_json_are_format_errors(document: str) -> None:
    with pytest.raises(FormatError):
        from_json(document)


@pytest.mark.parametrize(
    "position",
    [
        "turn: " + "1" * 5000,
        "seed: " + "7" * 5000,
        "pegs 0: " + "1" * 5000,
        "players: -" + "4" * 5000,
    ],
)
def test_huge_numbers_in_position_text_are_position_errors(position: str) -> None:
    with pytest.raises(PositionError):
        parse_position(position)


def test_huge_numbers_in_move_text_are_library_errors() -> None:
    for text_ in ("5 0:" + "1" * 5000 + "-3", "5 " + "9" * 5000 + ":s-8"):
        with pytest.raises(PegsError):
            parse_notation(text_)
        with pytest.raises(PegsError):
            parse_move(GAME, text_)


# --- seeds -----------------------------------------------------------------------------------------


def test_a_seed_of_any_size_deals_reshuffles_and_writes() -> None:
    game = new_game(4, seed=HUGE)
    while game.reshuffles == 0:
        game = apply(game, legal_moves(game)[0])
    assert validate(game) == []
    written = to_json(game)
    assert f'"seed": 1{"0" * 5000}' in written
    with pytest.raises(FormatError, match="5001 digits"):
        from_json(written)  # documented: readers take whole numbers of at most 4,300 digits


def test_a_long_but_readable_seed_round_trips() -> None:
    game = new_game(6, seed=-(7**5000))  # 4,226 digits
    while game.reshuffles == 0:
        game = apply(game, legal_moves(game)[0])
    assert from_json(to_json(game)) == game


def test_seeds_n_and_minus_n_deal_different_games() -> None:
    for n in (1, 2, 12345, 2**64 + 1):
        assert new_game(4, seed=n).hands != new_game(4, seed=-n).hands


def test_without_a_seed_a_secret_128_bit_one_is_drawn() -> None:
    seeds = {new_game(4).seed for _ in range(8)}
    assert len(seeds) == 8 and all(0 <= s < 2**128 for s in seeds)


# --- determinize on malformed views ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("hand_sizes", (5, "5", 5, 5)),
        ("hand_sizes", None),
        ("discard_pile", "7 8"),
        ("pegs", None),
        ("pegs", ((0.5,) * 5,) * 4),
        ("rules", "arizona"),
        ("draw_pile_size", "142"),
        ("seat", "0"),
        ("hand", (7, 8)),
        ("winner", "nobody"),
        ("ply", 1.5),
    ],
)
def test_determinize_refuses_a_view_with_wrong_types(field: str, value: object) -> None:
    seen = dataclasses.replace(view(GAME, 0), **{field: value})  # type: ignore[arg-type]
    with pytest.raises(PositionError):
        determinize(seen, random.Random(0))


def test_determinize_draws_each_sample_its_own_seed() -> None:
    """A fixed seed would make every sampled game reshuffle the same way."""
    seen = view(GAME, 1)
    seeds = [determinize(seen, random.Random(n)).seed for n in range(20)]
    assert len(set(seeds)) == 20
    again = [determinize(seen, random.Random(n)).seed for n in range(20)]
    assert again == seeds


# --- hand-built states, however malformed --------------------------------------------------------

junk: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 200),
    st.integers(995, 1010),  # around the home holes
    st.just(HUGE),
    st.floats(),
    st.text(max_size=3),
    st.sampled_from(Rank),
    st.builds(object),
    st.lists(st.integers(-2, 200), max_size=6),
    st.lists(st.integers(-2, 200), max_size=6).map(tuple),
    st.lists(st.sampled_from(Rank), max_size=7).map(tuple),
    st.lists(st.lists(st.integers(-2, 200), max_size=6).map(tuple), max_size=9).map(tuple),
    st.lists(st.lists(st.sampled_from(Rank), max_size=7).map(tuple), max_size=9).map(tuple),
)
"""Values of the wrong type, length or range for any field, row or item of a state."""
STATE_FIELDS = [field.name for field in dataclasses.fields(GameState)]


@st.composite
def spoiled_states(draw: st.DrawFn) -> tuple[GameState, GameState]:
    """A state reached by real play (4, 6 or 8 seats, either preset), and that state with one
    field, one seat's pegs or hand, or one peg or card of it (or one added) replaced by junk."""
    state = draw(reached_states())
    value: Any = draw(junk)
    part = draw(st.sampled_from(["field", "seat", "item"]))
    if part == "field":
        field = draw(st.sampled_from(STATE_FIELDS))
        return state, dataclasses.replace(state, **{field: value})
    field = draw(st.sampled_from(["pegs", "hands"]))
    rows: list[Any] = list(getattr(state, field))
    seat = draw(st.integers(0, len(rows) - 1))
    if part == "seat":
        rows[seat] = value
    else:
        row = list(rows[seat])
        at = draw(st.integers(0, len(row)))  # len(row): one more item
        row[at : at + 1] = [value]
        rows[seat] = tuple(row)
    spoiled: Any = tuple(rows)
    return state, dataclasses.replace(state, **{field: spoiled})


@settings(max_examples=examples(3))
@given(spoiled_states(), st.integers(0, 1000))
def test_a_hand_built_state_however_malformed_gets_only_library_errors(
    states: tuple[GameState, GameState], pick: int
) -> None:
    original, state = states
    problems = validate(state)
    assert all(isinstance(problem, str) and problem for problem in problems)
    assert repr(state).startswith("<GameState")
    moves = legal_moves(original)
    move = moves[pick % len(moves)] if moves else Pass()
    # each call, and the errors it may raise besides PositionError for what it is given
    calls: list[tuple[Any, tuple[type[PegsError], ...]]] = [
        (lambda: legal_moves(state), ()),
        (lambda: view(state, original.turn), ()),
        (lambda: str(state), ()),
        (lambda: svg(state, move), ()),
        (lambda: text(state, move, compact=True), ()),
        (lambda: to_json(state), (FormatError,)),  # a whole number too long to write
        (lambda: record_of(state, [move]), ()),
        (lambda: explain(state, move), ()),
        (lambda: apply(state, move), (IllegalMoveError,)),
        (lambda: apply_with_events(state, move), (IllegalMoveError,)),
        (lambda: parse_move(state, str(move)), (IllegalMoveError,)),
        (lambda: format_move(state, move, short=True), (IllegalMoveError,)),
        (lambda: decide(RandomBot(0), state), (PegsError,)),  # no move to choose from
    ]
    for call, also in calls:
        try:
            call()
        except PegsError as error:
            assert isinstance(error, (PositionError, *also)), repr(error)
            if str(error).startswith("malformed game state"):
                assert str(error) == "malformed game state: " + "; ".join(problems)
                assert not isinstance(error.__cause__, PegsError)
    huge = HUGE in (state.seed, state.ply, state.reshuffles)  # possible, but not readable or drawn
    if not problems and not huge:  # still a possible state: everything works on it
        assert from_json(to_json(state)) == state
        assert legal_moves(state) and str(view(state, state.turn)) and svg(state) and text(state)


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("turn", 99, "turn: 99 is not a seat (0..3)"),
        ("hands", None, "hands: expected a tuple of tuples of cards, one per seat"),
        ("rules", None, "rules: not a Rules object: NoneType"),
        ("pegs", ((START,) * 5, None, *GAME.pegs[2:]), "pegs: expected a tuple of tuples"),
    ],
)
def test_a_malformed_state_is_a_position_error_naming_its_problems(
    field: str, value: object, problem: str
) -> None:
    state = dataclasses.replace(GAME, **{field: value})  # type: ignore[arg-type]
    move = legal_moves(GAME)[0]
    for call in (legal_moves, lambda s: apply(s, move), lambda s: explain(s, move)):
        with pytest.raises(PositionError, match=r"^malformed game state: ") as caught:
            call(state)
        assert problem in str(caught.value)
        assert isinstance(caught.value.__cause__, (TypeError, IndexError, AttributeError))


def test_the_library_s_own_errors_pass_unchanged() -> None:
    broken = dataclasses.replace(GAME, turn=9)
    illegal = IllegalMoveError("card.seven", "a 7 moves seven holes")
    with pytest.raises(IllegalMoveError) as caught:
        reraise(broken, illegal)
    assert caught.value is illegal
    bug = KeyError("a sound state: an error of the library's own, shown as it is")
    with pytest.raises(KeyError) as raised:
        reraise(GAME, bug)
    assert raised.value is bug
    with pytest.raises(PositionError) as converted:
        reraise(broken, bug)
    assert str(converted.value) == "malformed game state: turn: 9 is not a seat (0..3)"
    assert converted.value.__cause__ is bug
    seven = parse_position("pegs 0: 70\nhand 0: 7")
    with pytest.raises(IllegalMoveError, match=r"^\[card\.seven\] ") as rejected:
        apply(seven, parse_notation("7 0:70-6"))
    assert rejected.value.rule == "card.seven" and rejected.value.__cause__ is None


# --- every loader, any input ----------------------------------------------------------------------

huge_ints = st.sampled_from([5000, -5000, 4299, 20]).map(lambda d: (d // abs(d)) * 10 ** abs(d))
"""Whole numbers of 5,000 digits (too long to print), 4,300 (just short enough) and 21."""
json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(), huge_ints, st.floats(), st.text(max_size=8)
)
json_like: st.SearchStrategy[Any] = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)
VALID = [
    json.loads(to_json(GAME)),
    json.loads(to_json(record_of(GAME, legal_moves(GAME)[:1]))),
    json.loads(to_json(ARIZONA)),
    json.loads(to_json(legal_moves(GAME)[0])),
]


def spoiled(document: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """``document`` with one field (at the top or one level down) replaced by ``value``."""
    copy: dict[str, Any] = json.loads(json.dumps(document))
    keys = sorted(copy)
    top = keys[hash(key) % len(keys)]
    inner = copy[top]
    if isinstance(inner, dict) and inner and len(key) % 2:
        inner[sorted(inner)[len(key) % len(inner)]] = value
    else:
        copy[top] = value
    return copy


@given(
    st.one_of(
        json_like,
        st.builds(spoiled, st.sampled_from(VALID), st.text(min_size=1, max_size=4), json_like),
    )
)
def test_from_data_and_from_json_raise_nothing_but_format_errors(data: Any) -> None:
    for load in (from_data, lambda d: from_json(json.dumps(d)) if _printable(d) else None):
        try:
            load(data)
        except FormatError as error:
            assert error.problems
        except PegsError:
            pytest.fail("a loader raised a PegsError that is not a FormatError")


def _printable(data: Any) -> bool:
    try:
        json.dumps(data)
    except ValueError:
        return False
    return True


@given(st.binary(max_size=60) | st.text(max_size=60).map(lambda t: "{" + t))
def test_from_json_of_any_bytes_or_text_raises_only_format_errors(raw: str | bytes) -> None:
    with contextlib.suppress(FormatError):
        from_json(raw)


line_keys = st.sampled_from(
    ["rules", "rule nine", "rule decks", "players", "turn", "dealer", "seed", "pegs 0", "hand 1"]
)
line_values = st.one_of(
    st.text(max_size=12), st.sampled_from(["1" * 5000, "-" + "9" * 4400, "4,3,6 6,3,6 8,99999,8"])
)


@given(st.lists(st.tuples(line_keys, line_values), max_size=5))
def test_position_text_raises_only_position_errors(items: list[tuple[str, str]]) -> None:
    text_ = "\n".join(f"{key}: {value}" for key, value in items)
    try:
        state = parse_position(text_)
    except PegsError:
        return
    assert isinstance(state, GameState)


@given(st.text(max_size=30) | st.sampled_from(["7 0:" + "9" * 4500 + "-1 2:3-4", "K " * 3000]))
def test_move_text_raises_only_library_errors(text_: str) -> None:
    for parse in (parse_notation, lambda t: parse_move(GAME, t)):
        with contextlib.suppress(PegsError):
            parse(text_)


@given(st.sampled_from(sorted(Rules.__dataclass_fields__)), line_values)
def test_rule_lines_raise_only_rules_errors(field: str, value: str) -> None:
    with contextlib.suppress(RulesError):
        with_rule(ARIZONA, field, value)


def test_cards_arithmetic_matches_the_deck() -> None:
    for decks, jokers in ((1, 0), (3, 6), (4, 8), (MAX_DECKS, MAX_JOKERS)):
        assert Counter(deck_counts(decks, jokers)) == Counter(build_deck(decks, jokers))
    assert deck_counts(2, 0)[Rank.JOKER] == 0


@pytest.mark.ruling("variant.face-values", "card.face")
@pytest.mark.parametrize(("card", "count"), [("J", 11), ("Q", 12), ("K", 13)])
def test_explanations_count_each_face_card_by_its_own_value(card: str, count: int) -> None:
    """``variant.face-values``: with 11 12 13, a wrong count is explained with the card's own."""
    state = parse_position(f"rule face_values: 11 12 13\npegs 0: 20\nhand 0: {card}")
    wrong = explain(state, parse_notation(f"{card} 0:20-{20 + count - 1}"))
    assert (wrong.rule, wrong.reason) == (
        "card.face",
        f"a {card} moves a peg exactly {count} holes forward",
    )
