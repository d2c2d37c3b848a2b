"""Game records: they replay to the same state, and a corrupted one stops at its first bad move."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from played import check_schema, examples, full_game, game_prefixes

from pegs_rules import (
    ARIZONA,
    FormatError,
    GameRecord,
    GameState,
    IllegalMoveError,
    Move,
    PegsError,
    Play,
    PositionError,
    Rank,
    ReplayError,
    apply,
    explain,
    from_json,
    legal_moves,
    new_game,
    parse_notation,
    record_of,
    replay,
    to_data,
    to_json,
)
from pegs_rules.rulings import RULINGS
from pegs_rules.spec import load_games
from pegs_rules.spec.suite import rules_of

Prefix = tuple[list[GameState], list[Move]]


@settings(max_examples=examples(0.5))
@given(game_prefixes(max_plies=150))
def test_a_record_replays_to_the_same_state(prefix: Prefix) -> None:
    states, moves = prefix
    record = record_of(states[0], moves)
    assert record.deck is None and record.dealer is None
    assert record.moves == tuple(map(str, moves))
    assert replay(record) == states[-1]
    data = to_data(record)
    check_schema("record", data)
    assert from_json(json.dumps(data)) == record
    assert from_json(to_json(record), "record") == record


def play_written_the_other_way(
    start: GameState, seed: int, *, swaps: bool
) -> tuple[GameState, list[Move], list[str]]:
    """Random play from ``start`` in which every two-step play (the 2's swaps if ``swaps``, else
    the splits) that is legal written the other way round is made that way. Returns the end
    state, the moves as made and the moves as listed; fails if none was made the other way."""
    state = start
    rng = random.Random(seed)
    made: list[Move] = []
    listed: list[str] = []
    while not state.is_over and len(made) < 400:
        move = rng.choice(legal_moves(state))
        listed.append(str(move))
        if isinstance(move, Play) and len(move.steps) == 2 and (move.card is Rank.TWO) == swaps:
            other = Play(move.card, move.steps[::-1])
            if other not in legal_moves(state) and explain(state, other).legal:
                move = other
        made.append(move)
        state = apply(state, move)
    assert list(map(str, made)) != listed, "no play written the other way round"
    return state, made, listed


def test_a_record_keeps_the_listed_order_of_a_split() -> None:
    """card.seven.split.order: a split made in its other order is recorded as listed."""
    start = new_game(4, seed=3)
    state, made, listed = play_written_the_other_way(start, 3, swaps=False)
    record = record_of(start, made)
    assert record.moves == tuple(listed)
    assert replay(record) == state


@pytest.mark.ruling("variant.two-swap.order")
def test_a_record_keeps_the_listed_writing_of_a_swap() -> None:
    """variant.two-swap.order: a swap of two team pegs written from the other peg is recorded
    as listed; a record that keeps the other writing replays to the same game too."""
    rules = dataclasses.replace(ARIZONA, two_swap=True)
    start = new_game(4, seed=5, rules=rules)
    state, made, listed = play_written_the_other_way(start, 5, swaps=True)
    record = record_of(start, made)
    assert record.moves == tuple(listed)
    assert replay(record) == state
    written = GameRecord(rules=rules, players=4, seed=5, moves=tuple(map(str, made)))
    assert written.moves != record.moves
    assert replay(from_json(to_json(written), "record")) == state


def test_full_games_replay_from_their_records() -> None:
    for preset in ("arizona", "standard"):
        states, moves = full_game(preset, 6)
        record = from_json(to_json(record_of(states[0], moves)), "record")
        assert replay(record) == states[-1]


def test_the_conformance_game_vectors_replay() -> None:
    for vector in load_games():
        record = GameRecord(
            rules=rules_of(vector["preset"], vector.get("rules", [])),
            players=vector["players"],
            seed=vector["seed"],
            moves=tuple(text for text, _ in vector["turns"]),
        )
        assert replay(record).winner == vector["winner"]


def first_failure(start: GameState, texts: list[str]) -> tuple[int, str] | None:
    """The turn number and rule of the first move that cannot be made, found move by move."""
    state = start
    for turn, text in enumerate(texts, 1):
        try:
            state = apply(state, parse_notation(text))
        except IllegalMoveError as error:
            return turn, error.rule
    return None


@settings(max_examples=examples(0.5))
@given(game_prefixes(max_plies=80), st.data())
def test_a_corrupted_record_stops_at_its_first_illegal_move(
    prefix: Prefix, data: st.DataObject
) -> None:
    states, moves = prefix
    if not moves:
        return
    texts = [str(m) for m in moves]
    index = data.draw(st.integers(0, len(texts) - 1))
    how = data.draw(st.sampled_from(["replace", "swap", "drop", "illegal"]))
    if how == "replace":  # any move text, legal or not, from the list of seen moves
        texts[index] = data.draw(st.sampled_from(texts))
    elif how == "swap" and index + 1 < len(texts):
        texts[index], texts[index + 1] = texts[index + 1], texts[index]
    elif how == "drop":
        del texts[index]
    else:
        texts[index] = "pass" if states[index].hands[states[index].turn] else "discard JK"
    record = dataclasses.replace(record_of(states[0], moves), moves=tuple(texts))
    expected = first_failure(states[0], texts)
    if how == "illegal":
        assert expected is not None and expected[0] == index + 1
    if expected is None:
        replay(record)  # the corruption happened to be legal
        return
    with pytest.raises(ReplayError) as caught:
        replay(record)
    error = caught.value
    assert (error.turn, error.rule) == expected
    assert error.rule in RULINGS and error.move == texts[error.turn - 1]
    assert error.state.ply == error.turn - 1
    if error.turn - 1 <= index:  # the moves before the corruption are the game's own
        assert error.state == states[error.turn - 1]
    assert str(error).startswith(f"[{error.rule}] turn {error.turn}, ")


@pytest.mark.ruling("game.end")
def test_a_move_after_the_end_is_refused_with_game_end() -> None:
    states, moves = full_game("arizona", 4)
    record = record_of(states[0], [*moves, moves[-1]])
    with pytest.raises(ReplayError) as caught:
        replay(record)
    assert (caught.value.turn, caught.value.rule) == (len(moves) + 1, "game.end")
    assert isinstance(caught.value, IllegalMoveError)


def test_a_given_dealer_is_kept() -> None:
    start = new_game(6, seed=9, dealer=2)
    record = record_of(start, [])
    assert record.dealer == 2 and record.deck is None
    assert record.start() == start


@pytest.mark.parametrize("preset", ["arizona", "standard"])
def test_a_deal_the_seed_did_not_make_is_recorded_by_its_deck(preset: str) -> None:
    from pegs_rules.rules import PRESETS

    dealt = new_game(4, seed=3, rules=PRESETS[preset])
    pile = list(dealt.draw_pile)
    random.Random(0).shuffle(pile)
    hands = list(dealt.hands)
    a, b = [s for s in range(4) if s != dealt.turn][:2]  # the first seat may hold more
    hands[a], hands[b] = hands[b], hands[a]
    start = dataclasses.replace(dealt, draw_pile=tuple(pile), hands=tuple(hands))
    rng = random.Random(1)
    state, moves = start, []
    for _ in range(30):
        moves.append(rng.choice(legal_moves(state)))
        state = apply(state, moves[-1])
    record = record_of(start, moves)
    assert record.deck is not None and record.dealer == start.dealer
    assert record.start() == start
    assert replay(record) == state
    data = to_data(record)
    check_schema("record", data)
    assert from_json(json.dumps(data)) == record


def test_a_deck_is_dealt_as_new_game_deals() -> None:
    for players in (4, 6, 8):
        start = new_game(players, seed=players, dealer=1)
        record = record_of(start, [])
        deck = record_of(dataclasses.replace(start, seed=start.seed + 1), []).deck
        assert deck is not None
        assert dataclasses.replace(record, deck=deck).start() == start


def test_only_a_fresh_deal_can_start_a_record() -> None:
    states, moves = full_game("arizona", 4)
    with pytest.raises(PositionError, match="fresh deal"):
        record_of(states[5], moves[5:])
    short = dataclasses.replace(states[0], hands=((), *states[0].hands[1:]))
    with pytest.raises(PositionError, match="not a deal"):
        record_of(short, [])
    with pytest.raises(PegsError):
        record_of("start", [])  # type: ignore[arg-type]
    with pytest.raises(PegsError):
        replay("record")  # type: ignore[arg-type]


def test_a_bad_record_lists_every_problem() -> None:
    with pytest.raises(FormatError) as caught:
        GameRecord(
            players=5,
            seed="x",  # type: ignore[arg-type]
            dealer=9,
            deck=(Rank.ACE,) * 3,
            moves=("K 1:s-26", "jump", "7 0:1"),
        )
    problems = caught.value.problems
    assert len(problems) == 5, problems
    assert problems[0].startswith("players:") and problems[-1].startswith("moves[2]:")
    with pytest.raises(FormatError, match="names its dealer"):
        GameRecord(players=4, seed=1, deck=tuple(new_game(4, seed=1).draw_pile))
    with pytest.raises(FormatError, match="not the deck"):
        GameRecord(players=4, seed=1, dealer=0, deck=(Rank.ACE,) * 162)


def test_moves_are_kept_in_canonical_notation() -> None:
    record = GameRecord(players=4, seed=1, moves=("discard  7", "a   1:S-026"))
    assert record.moves == ("discard 7", "A 1:s-26")
    check_schema("record", to_data(record))


def test_a_record_document_with_bad_moves_is_refused() -> None:
    data = to_data(GameRecord(rules=ARIZONA, players=4, seed=1, moves=("discard 7",)))
    data["moves"] = ["discard 7", "hop", 3]
    with pytest.raises(FormatError) as caught:
        from_json(json.dumps(data))
    assert any("$.moves[2]: expected a string" in p for p in caught.value.problems)
    data["moves"] = ["discard 7", "hop"]
    with pytest.raises(FormatError, match=r"invalid record: moves\[1\]"):
        from_json(json.dumps(data))
