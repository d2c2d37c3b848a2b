"""Unit tests for the board, deal, turn, team and end-of-game rulings.

Ruling ids covered (specs/rulings.md, arizona preset): ``board.sides``,
``board.geometry``, ``board.pegs``, ``deck.composition``, ``deal.dealer``,
``deal.hands``, ``turn.sequence``, ``turn.must-play``, ``turn.discard``,
``turn.reshuffle``, ``turn.order``, ``team.control``, ``game.end``.

Every expected move list and resulting position below is derived by hand from
the rulings and the geometry (track of 18N holes, seat s's in-spot 18s+3 and
come-out 18s+8, home lane h1..h5), with the derivation in a comment; none is
copied from the engine's output.
"""

from __future__ import annotations

from collections import Counter

import pytest

from pegs_rules import (
    START,
    Board,
    Discard,
    GameState,
    IllegalMoveError,
    Move,
    Pass,
    Play,
    PositionError,
    Rank,
    Step,
    apply,
    home,
    legal_moves,
    new_game,
    parse_position,
)

NON_JOKERS = [r for r in Rank if r is not Rank.JOKER]


def notation(state: GameState) -> tuple[str, ...]:
    """The legal moves of ``state`` in the engine's order, as notation strings."""
    return tuple(str(m) for m in legal_moves(state))


def rule_of(state: GameState, move: Move) -> str:
    """The rule id with which ``apply`` rejects ``move`` (fails if it is accepted)."""
    with pytest.raises(IllegalMoveError) as info:
        apply(state, move)
    return info.value.rule


def all_cards(state: GameState) -> Counter[Rank]:
    """Every card in the game: all hands, the draw pile and the discard pile."""
    cards: Counter[Rank] = Counter(state.draw_pile)
    cards.update(state.discard_pile)
    for hand in state.hands:
        cards.update(hand)
    return cards


def expected_deck(players: int) -> Counter[Rank]:
    """deck.composition: 3 decks + 6 jokers for 4/6 players, 4 decks + 8 jokers for 8."""
    decks, jokers = (4, 8) if players == 8 else (3, 6)
    deck: Counter[Rank] = Counter({r: 4 * decks for r in NON_JOKERS})
    deck[Rank.JOKER] = jokers
    return deck


def h(*ks: int) -> tuple[int, ...]:
    """Home locations h<k> for each k."""
    return tuple(home(k) for k in ks)


# --------------------------------------------------------------------------- board.sides


@pytest.mark.ruling("board.sides")
@pytest.mark.parametrize("players", [4, 6, 8])
def test_board_sides__presets_allow_4_6_8_players(players: int) -> None:
    """board.sides: one identical side per player; the arizona preset allows 4, 6 and 8."""
    game = new_game(players, seed=3)
    assert game.players == players
    assert len(game.pegs) == players
    assert len(game.hands) == players
    # one 18-hole side per seat
    assert game.board.track_length == 18 * players


@pytest.mark.ruling("board.sides")
@pytest.mark.parametrize("players", [2, 3, 5, 7, 10])
def test_board_sides__other_player_counts_rejected(players: int) -> None:
    """board.sides: the presets allow only 4/6/8 players; anything else is refused."""
    with pytest.raises(PositionError):
        new_game(players, seed=1)
    with pytest.raises(PositionError):
        parse_position(f"players: {players}")


@pytest.mark.ruling("board.sides")
@pytest.mark.parametrize("players", [2, 3, 5])
def test_board_sides__board_needs_even_count_of_at_least_4(players: int) -> None:
    """board.sides: a board has an even number of seats, at least 4 (two alternating teams)."""
    with pytest.raises(ValueError):
        Board(players)


@pytest.mark.ruling("board.sides", "team.control")
def test_board_sides__teams_alternate_in_six_player_game() -> None:
    """board.sides + team.control: team = seat % 2, so seat 0 partners seats 2 and 4 (6 players).

    All pegs in start, seat 0 holds a K: it may come out from each team start area to that
    seat's come-out hole 18s+8: seat 0 -> 8, seat 2 -> 44, seat 4 -> 80. Odd seats never.
    """
    state = parse_position("players: 6\nturn: 0\nhand 0: K")
    assert notation(state) == ("K 0:s-8", "K 2:s-44", "K 4:s-80")
    # seat 1's come-out hole is 26, seat 3's 62, seat 5's 98: all the other team
    for seat, hole in ((1, 26), (3, 62), (5, 98)):
        assert rule_of(state, Play(Rank.KING, (Step(seat, START, hole),))) == "team.control"


@pytest.mark.ruling("board.sides")
def test_board_sides__step_for_nonexistent_seat_rejected() -> None:
    """board.sides: a 4-player board has seats 0..3 only; a step for seat 4 is refused."""
    state = parse_position("pegs 0: 12\nhand 0: 5")
    assert rule_of(state, Play(Rank.FIVE, (Step(4, 12, 17),))) == "board.sides"


# --------------------------------------------------------------------------- board.geometry


@pytest.mark.ruling("board.geometry")
@pytest.mark.parametrize("players", [4, 6, 8])
def test_board_geometry__in_spot_and_come_out_holes(players: int) -> None:
    """board.geometry: ring of 18N holes; seat s's in-spot is 18s+3, its come-out 18s+8."""
    board = Board(players)
    assert board.track_length == 18 * players
    for seat in range(players):
        assert board.in_spot(seat) == 18 * seat + 3
        assert board.come_out(seat) == 18 * seat + 8
    assert board.home_holes() == h(1, 2, 3, 4, 5)


@pytest.mark.ruling("board.geometry")
def test_board_geometry__track_wraps_and_home_entry_only_past_own_in_spot() -> None:
    """board.geometry: the ring wraps 71 -> 0 (4 players); home 1 is next after the in-spot.

    Seat 0's peg on 70, in-spot 3. A 5: 71, 0, 1, 2, 3 ends exactly on the in-spot, so no
    home entry: only 70 -> 3. A 6: the 6th step is 4 on the track or h1 in home.
    Seat 2's pegs are all in start, so neither card moves them.
    """
    state = parse_position("pegs 0: 70\nhand 0: 5 6")
    assert notation(state) == ("5 0:70-3", "6 0:70-4", "6 0:70-h1")


@pytest.mark.ruling("board.geometry")
def test_board_geometry__another_seats_in_spot_is_plain_track() -> None:
    """board.geometry: seat 1's in-spot (21) leads only to seat 1's home, not seat 0's.

    Seat 0's peg on 18 with a 5 passes 19..23, including 21: it just stays on the track.
    """
    state = parse_position("pegs 0: 18\nhand 0: 5")
    assert notation(state) == ("5 0:18-23",)


@pytest.mark.ruling("board.geometry")
def test_board_geometry__home_lane_has_five_holes() -> None:
    """board.geometry: the home lane is h1..h5 beyond the in-spot; never beyond h5.

    Seat 0's peg on its in-spot 3. A 5 goes to 8 on the track or h1..h5 -> h5 exactly.
    A 6 would need a 6th home hole, so it only goes along the track to 9.
    """
    state = parse_position("pegs 0: 3\nhand 0: 5 6")
    assert notation(state) == ("5 0:3-8", "5 0:3-h5", "6 0:3-9")
    # home(6) does not exist: 1006 is no hole at all
    assert rule_of(state, Play(Rank.SIX, (Step(0, 3, 1006),))) == "board.geometry"
    with pytest.raises(ValueError):
        home(6)


@pytest.mark.ruling("board.geometry")
def test_board_geometry__ace_from_in_spot_enters_home_1() -> None:
    """board.geometry: home 1 is entered first, next to the in-spot.

    Seat 0's peg on its in-spot 3, hand A. Forward 1: 4 on the track or h1. Come-outs (A):
    seat 0's start -> 8, seat 2's start -> 44. Order by (seat, from, to), start (-1) first.
    """
    state = parse_position("pegs 0: 3\nhand 0: A")
    assert notation(state) == ("A 0:s-8", "A 0:3-4", "A 0:3-h1", "A 2:s-44")


@pytest.mark.ruling("board.geometry")
def test_board_geometry__holes_outside_the_ring_rejected() -> None:
    """board.geometry: a 4-player ring has holes 0..71; 72 does not exist."""
    state = parse_position("pegs 0: 67\nhand 0: 5")
    # 67 + 5 = 72 wraps to hole 0
    assert notation(state) == ("5 0:67-0",)
    assert rule_of(state, Play(Rank.FIVE, (Step(0, 67, 72),))) == "board.geometry"


@pytest.mark.ruling("board.geometry")
def test_board_geometry__six_player_ring_wraps_at_108() -> None:
    """board.geometry: 6 players, ring of 108 holes; seat 5's in-spot is 93.

    Seat 5's peg on 106 with a 5: 107, 0, 1, 2, 3. Hole 3 is seat 0's in-spot, not seat 5's,
    so there is no home entry. Seats 1 and 3 (team 1) have all pegs in start.
    """
    state = parse_position("players: 6\nturn: 5\npegs 5: 106\nhand 5: 5")
    assert notation(state) == ("5 5:106-3",)


# --------------------------------------------------------------------------- board.pegs


@pytest.mark.ruling("board.pegs")
@pytest.mark.parametrize("players", [4, 6, 8])
def test_board_pegs__five_pegs_per_seat_all_in_start(players: int) -> None:
    """board.pegs: 5 pegs per seat, all in that seat's start area at the beginning."""
    game = new_game(players, seed=11)
    assert game.pegs == ((START,) * 5,) * players


@pytest.mark.ruling("board.pegs")
def test_board_pegs__unlisted_pegs_are_in_start_and_at_most_five() -> None:
    """board.pegs: a seat has exactly 5 pegs; a position with 6 for one seat is refused."""
    state = parse_position("pegs 0: 12 h2")
    assert state.pegs[0] == (START, START, START, 12, home(2))
    with pytest.raises(PositionError):
        parse_position("pegs 0: 1 2 3 4 5 6")


@pytest.mark.ruling("board.pegs")
def test_board_pegs__cannot_move_a_peg_that_is_not_there() -> None:
    """board.pegs: a move must name a peg that exists.

    Seat 0 has all pegs in start: "5 0:12-17" names no peg. Seat 0's pegs all on the track
    (start empty) while seat 2's are in start: a K may come out only from seat 2's start.
    """
    empty = parse_position("hand 0: 5")
    assert rule_of(empty, Play(Rank.FIVE, (Step(0, 12, 17),))) == "board.pegs"

    out = parse_position("pegs 0: 10 20 30 40 50\nhand 0: K")
    # K 10 forward: 10, 20, 30 and 40 would each land on the next seat-0 peg (blocked);
    # 50 -> 60 is free. Come-out only from seat 2's start, to 18*2+8 = 44.
    assert notation(out) == ("K 0:50-60", "K 2:s-44")
    assert rule_of(out, Play(Rank.KING, (Step(0, START, 8),))) == "board.pegs"


# --------------------------------------------------------------------------- deck.composition


@pytest.mark.ruling("deck.composition")
@pytest.mark.parametrize(("players", "seed"), [(4, 1), (4, 99), (6, 5), (8, 2), (8, 77)])
def test_deck_composition__new_game_holds_the_full_deck(players: int, seed: int) -> None:
    """deck.composition: 4/6 players 3 x 52 + 6 jokers = 162; 8 players 4 x 52 + 8 = 216."""
    game = new_game(players, seed=seed)
    cards = all_cards(game)
    assert cards == expected_deck(players)
    assert sum(cards.values()) == (216 if players == 8 else 162)


@pytest.mark.ruling("deck.composition")
def test_deck_composition__cards_conserved_through_play() -> None:
    """deck.composition: playing, discarding and drawing never create or lose a card."""
    game = new_game(4, seed=21)
    deck = expected_deck(4)
    for ply in range(60):
        moves = legal_moves(game)
        game = apply(game, moves[ply % len(moves)])
        assert all_cards(game) == deck


# --------------------------------------------------------------------------- deal.dealer


@pytest.mark.ruling("deal.dealer")
def test_deal_dealer__reproducible_from_seed() -> None:
    """deal.dealer: the dealer (and the whole deal) comes from the seed: same seed, same game."""
    for seed in range(20):
        assert new_game(4, seed=seed) == new_game(4, seed=seed)


@pytest.mark.ruling("deal.dealer")
def test_deal_dealer__random_dealer_varies_with_seed() -> None:
    """deal.dealer: the dealer is chosen at random; over 100 seeds every seat deals."""
    assert {new_game(4, seed=s).dealer for s in range(100)} == {0, 1, 2, 3}
    assert {new_game(6, seed=s).dealer for s in range(100)} == set(range(6))


@pytest.mark.ruling("deal.dealer")
@pytest.mark.parametrize(("players", "dealer"), [(4, 0), (4, 2), (4, 3), (6, 5), (8, 7), (8, 3)])
def test_deal_dealer__first_turn_is_dealers_left(players: int, dealer: int) -> None:
    """deal.dealer: a given dealer is kept; the first turn is seat dealer+1 (clockwise, wraps)."""
    game = new_game(players, seed=4, dealer=dealer)
    assert game.dealer == dealer
    assert game.turn == (dealer + 1) % players
    assert game.ply == 0


@pytest.mark.ruling("deal.dealer")
def test_deal_dealer__first_turn_follows_random_dealer() -> None:
    """deal.dealer: with a random dealer, the first turn is still the dealer's left."""
    for seed in range(30):
        game = new_game(4, seed=seed)
        assert game.turn == (game.dealer + 1) % 4


@pytest.mark.ruling("deal.dealer")
@pytest.mark.parametrize("dealer", [-1, 4, 9])
def test_deal_dealer__dealer_must_be_a_seat(dealer: int) -> None:
    """deal.dealer: the dealer is one of the seats 0..N-1; anything else is refused."""
    with pytest.raises(PositionError):
        new_game(4, seed=1, dealer=dealer)


# --------------------------------------------------------------------------- deal.hands


@pytest.mark.ruling("deal.hands")
@pytest.mark.parametrize(("players", "pile"), [(4, 162 - 20), (6, 162 - 30), (8, 216 - 40)])
def test_deal_hands__five_cards_each_rest_is_draw_pile(players: int, pile: int) -> None:
    """deal.hands: 5 cards to each player; the rest (deck minus 5N) is the draw pile."""
    game = new_game(players, seed=8)
    assert [len(hand) for hand in game.hands] == [5] * players
    assert game.draw_pile_size == pile
    assert len(game.draw_pile) == pile
    assert game.discard_pile == ()


# --------------------------------------------------------------------------- turn.sequence


@pytest.mark.ruling("turn.sequence")
def test_turn_sequence__play_one_card_move_then_draw_to_five() -> None:
    """turn.sequence: play exactly one card, carry out the move, then draw back to 5.

    Seat 0's peg on 12 plays a 5 -> 17. One 5 (of two) leaves the hand, goes on the discard
    pile; the top card of the draw pile (K) is drawn; the turn passes to seat 1.
    """
    state = parse_position("pegs 0: 12\nhand 0: 5 5 6 7 9\ndraw: K Q J\ndiscard: 2")
    after = apply(state, Play(Rank.FIVE, (Step(0, 12, 17),)))
    assert after.pegs[0] == (START, START, START, START, 17)
    assert after.pegs[1:] == state.pegs[1:]
    assert after.hands[0] == (Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.NINE, Rank.KING)
    assert after.hands[1:] == state.hands[1:]
    assert after.draw_pile == (Rank.QUEEN, Rank.JACK)
    assert after.discard_pile == (Rank.TWO, Rank.FIVE)
    assert after.turn == 1
    assert after.ply == 1
    # apply returns a new state; the old one is unchanged
    assert state.hands[0] == (Rank.FIVE, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.NINE)
    assert state.pegs[0] == (START, START, START, START, 12)


@pytest.mark.ruling("turn.sequence")
def test_turn_sequence__a_split_is_still_one_card() -> None:
    """turn.sequence: a split 7 moving two pegs uses one card and draws one.

    Seat 0's peg on 12 moves 3 -> 15 and seat 2's peg on 40 moves 4 -> 44.
    """
    state = parse_position("pegs 0: 12\npegs 2: 40\nhand 0: 7 2 3 4 6\ndraw: A 10")
    after = apply(state, Play(Rank.SEVEN, (Step(0, 12, 15), Step(2, 40, 44))))
    assert after.pegs[0] == (START, START, START, START, 15)
    assert after.pegs[2] == (START, START, START, START, 44)
    assert after.hands[0] == (Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.SIX)
    assert after.draw_pile == (Rank.TEN,)
    assert after.discard_pile == (Rank.SEVEN,)


@pytest.mark.ruling("turn.sequence")
def test_turn_sequence__card_not_held_is_rejected() -> None:
    """turn.sequence: the player plays a card from their own hand, nothing else.

    Seat 0 holds only a 5; a 6 (held by seat 1) would move 12 -> 18 but is not seat 0's.
    """
    state = parse_position("pegs 0: 12\nhand 0: 5\nhand 1: 6")
    assert rule_of(state, Play(Rank.SIX, (Step(0, 12, 18),))) == "turn.sequence"
    assert rule_of(state, Discard(Rank.SIX)) == "turn.sequence"
    assert notation(state) == ("5 0:12-17",)


# --------------------------------------------------------------------------- turn.must-play


@pytest.mark.ruling("turn.must-play", "card.joker.source")
def test_turn_must_play__playable_cards_forbid_discard() -> None:
    """turn.must-play: a non-joker card can move, so only plays are legal; no discard.

    Seat 0's peg on 12, hand 2 5 JK: 2 -> 14, 5 -> 17. The joker must come from a team
    start area (card.joker.source) onto a peg of another colour: the only track peg is seat
    0's on 12, so only seat 2's peg may jump there (seat 0's peg is displaced to its
    in-spot 3, which is empty). Any playable card may be played, the joker included.
    """
    state = parse_position("pegs 0: 12\nhand 0: 2 5 JK")
    assert notation(state) == ("2 0:12-14", "5 0:12-17", "JK 2:s-12")
    for card in (Rank.TWO, Rank.FIVE, Rank.JOKER):
        assert rule_of(state, Discard(card)) == "turn.must-play"
    # the joker may be played instead of a non-joker card
    after = apply(state, Play(Rank.JOKER, (Step(2, START, 12),)))
    assert after.pegs[0] == (START, START, START, START, 3)
    assert after.pegs[2] == (START, START, START, START, 12)


@pytest.mark.ruling("turn.must-play")
def test_turn_must_play__even_a_bad_move_must_be_played() -> None:
    """turn.must-play: the only playable card must be played even if it hurts.

    Seat 0's peg on 20 holds only an 8: 8 back is 20 -> 12 (away from home). No discard.
    """
    state = parse_position("pegs 0: 20\nhand 0: 8")
    assert notation(state) == ("8 0:20-12",)
    assert rule_of(state, Discard(Rank.EIGHT)) == "turn.must-play"


@pytest.mark.ruling("turn.must-play")
def test_turn_must_play__dead_card_cannot_be_discarded_when_another_moves() -> None:
    """turn.must-play: one playable non-joker card forbids discarding any card, dead ones too.

    Seat 0's only peg out is on h1; the rest of team 0 is in start. An 8 moves only track
    pegs: dead. A 3 moves h1 -> h4 inside home. So the 3 must be played.
    """
    state = parse_position("pegs 0: h1\nhand 0: 3 8")
    assert notation(state) == ("3 0:h1-h4",)
    assert rule_of(state, Discard(Rank.EIGHT)) == "turn.must-play"
    assert rule_of(state, Discard(Rank.THREE)) == "turn.must-play"
    assert rule_of(state, Play(Rank.EIGHT, (Step(0, home(1), home(1)),))) == "card.eight"


# --------------------------------------------------------------------------- turn.discard


@pytest.mark.ruling("turn.discard")
def test_turn_discard__only_joker_playable_allows_discard_of_any_card() -> None:
    """turn.discard: no non-joker card is playable; play the joker or discard any one card.

    All team-0 pegs in start, seat 1's peg on 30. Hand 5 6 9 10 JK: the number cards have no
    peg to move. The joker moves a peg from seat 0's or seat 2's start onto 30 (seat 1's colour).
    Then a discard of each rank held, jokers included.
    """
    state = parse_position("pegs 1: 30\nhand 0: 5 6 9 10 JK\ndraw: Q K")
    assert notation(state) == (
        "JK 0:s-30",
        "JK 2:s-30",
        "discard 5",
        "discard 6",
        "discard 9",
        "discard 10",
        "discard JK",
    )
    # discarding the joker: one card leaves, nothing moves, one card is drawn
    after = apply(state, Discard(Rank.JOKER))
    assert after.pegs == state.pegs
    assert after.hands[0] == (Rank.FIVE, Rank.SIX, Rank.NINE, Rank.TEN, Rank.QUEEN)
    assert after.discard_pile == (Rank.JOKER,)
    assert after.draw_pile == (Rank.KING,)
    assert after.turn == 1


@pytest.mark.ruling("turn.discard")
def test_turn_discard__nothing_playable_discards_only() -> None:
    """turn.discard: nothing playable -> one discard per rank held; pass is not allowed.

    All pegs in start and no A/J/Q/K/JK: nothing can move. Duplicate ranks give one discard.
    """
    state = parse_position("hand 0: 5 5 6 6 9\ndraw: 2")
    assert notation(state) == ("discard 5", "discard 6", "discard 9")
    assert rule_of(state, Pass()) == "turn.discard"
    after = apply(state, Discard(Rank.SIX))
    assert after.hands[0] == (Rank.TWO, Rank.FIVE, Rank.FIVE, Rank.SIX, Rank.NINE)
    assert after.discard_pile == (Rank.SIX,)
    assert after.pegs == state.pegs


@pytest.mark.ruling("turn.discard")
def test_turn_discard__pass_illegal_while_holding_cards() -> None:
    """turn.discard: passing without discarding is never allowed while holding cards."""
    must_play = parse_position("pegs 0: 12\nhand 0: 5")
    assert rule_of(must_play, Pass()) == "turn.discard"
    only_joker = parse_position("pegs 1: 30\nhand 0: JK")
    assert notation(only_joker) == ("JK 0:s-30", "JK 2:s-30", "discard JK")
    assert rule_of(only_joker, Pass()) == "turn.discard"


@pytest.mark.ruling("turn.discard", "turn.reshuffle", "turn.pass")
def test_turn_discard__empty_hand_passes() -> None:
    """turn.discard / turn.reshuffle: a player with no cards passes, and only passes."""
    state = parse_position("pegs 0: 12\nturn: 0")
    assert notation(state) == ("pass",)
    assert rule_of(state, Discard(Rank.FIVE)) == "turn.sequence"
    after = apply(state, Pass())
    assert after.pegs == state.pegs
    assert after.hands == state.hands
    assert after.turn == 1
    assert after.ply == 1


# --------------------------------------------------------------------------- turn.reshuffle


@pytest.mark.ruling("turn.reshuffle")
def test_turn_reshuffle__empty_draw_pile_reshuffles_discards() -> None:
    """turn.reshuffle: draw due, draw pile empty -> the whole discard pile becomes the draw pile.

    After the 5 is played the discard pile is 2 3 4 5; those 4 cards are shuffled, one is
    drawn, three stay in the draw pile and the discard pile is empty.
    """
    state = parse_position("pegs 0: 12\nhand 0: 5 6 7 9 10\ndiscard: 2 3 4")
    move = Play(Rank.FIVE, (Step(0, 12, 17),))
    after = apply(state, move)
    assert after.reshuffles == 1
    assert after.discard_pile == ()
    assert len(after.hands[0]) == 5
    assert len(after.draw_pile) == 3
    drawn = Counter(after.hands[0]) - Counter([Rank.SIX, Rank.SEVEN, Rank.NINE, Rank.TEN])
    assert sum(drawn.values()) == 1
    assert drawn + Counter(after.draw_pile) == Counter([Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE])
    # seeded: the same move on the same state reshuffles the same way
    assert apply(state, move) == after


@pytest.mark.ruling("turn.reshuffle")
def test_turn_reshuffle__not_before_the_draw_pile_is_empty() -> None:
    """turn.reshuffle: while the draw pile has a card, it is drawn and nothing is reshuffled."""
    state = parse_position("pegs 0: 12\nhand 0: 5 6 7 9 10\ndraw: K\ndiscard: 2 3 4")
    after = apply(state, Play(Rank.FIVE, (Step(0, 12, 17),)))
    assert after.reshuffles == 0
    assert after.hands[0] == (Rank.SIX, Rank.SEVEN, Rank.NINE, Rank.TEN, Rank.KING)
    assert after.draw_pile == ()
    assert after.discard_pile == (Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE)


@pytest.mark.ruling("turn.reshuffle")
def test_turn_reshuffle__mid_draw_when_pile_runs_out() -> None:
    """turn.reshuffle: a short hand draws the draw pile dry, then the reshuffled discards.

    Seat 0 holds only a 5 (an earlier shortage). After playing it, 5 cards are due: K from
    the draw pile, then the discard pile 2 3 5 is reshuffled and all three drawn: 4 cards,
    both piles empty.
    """
    state = parse_position("pegs 0: 12\nhand 0: 5\ndraw: K\ndiscard: 2 3")
    after = apply(state, Play(Rank.FIVE, (Step(0, 12, 17),)))
    assert after.hands[0] == (Rank.TWO, Rank.THREE, Rank.FIVE, Rank.KING)
    assert after.draw_pile == ()
    assert after.discard_pile == ()
    assert after.reshuffles == 1


@pytest.mark.ruling("turn.reshuffle")
def test_turn_reshuffle__both_piles_nearly_empty_holds_fewer() -> None:
    """turn.reshuffle: with too few cards left, the player holds fewer than 5.

    Draw and discard piles empty, seat 0 holds 5 6 and plays the 5 (12 -> 17). The discard
    pile is then just that 5: it is reshuffled and drawn, and seat 0 holds 2 cards.
    """
    state = parse_position("pegs 0: 12\nhand 0: 5 6\nhand 1: 9")
    after = apply(state, Play(Rank.FIVE, (Step(0, 12, 17),)))
    assert after.hands[0] == (Rank.FIVE, Rank.SIX)
    assert after.draw_pile == ()
    assert after.discard_pile == ()
    assert after.reshuffles == 1
    assert after.turn == 1


@pytest.mark.ruling("turn.reshuffle")
def test_turn_reshuffle__long_game_conserves_cards_and_replays_identically() -> None:
    """turn.reshuffle: the draw pile runs out and is rebuilt; counts conserved; replay identical.

    4 players: 142 cards in the draw pile, one drawn per ply, so a reshuffle is due around
    ply 143 unless the game ends first.
    """

    def play(seed: int, plies: int) -> list[GameState]:
        game = new_game(4, seed=seed)
        history = [game]
        for ply in range(plies):
            if game.is_over:
                break
            moves = legal_moves(game)
            game = apply(game, moves[(ply * 7) % len(moves)])
            history.append(game)
        return history

    first = play(5, 250)
    deck = expected_deck(4)
    for state in first:
        assert all_cards(state) == deck
    assert first[-1].reshuffles >= 1
    assert play(5, 250) == first


# --------------------------------------------------------------------------- turn.order


@pytest.mark.ruling("turn.order")
def test_turn_order__turn_passes_clockwise_and_wraps() -> None:
    """turn.order: the next turn is always the next seat clockwise, 3 -> 0 on four seats."""
    state = parse_position("turn: 3\npegs 3: 60\nhand 3: 5")
    # seat 3 (team 1) on 60 plays a 5 -> 65
    after = apply(state, Play(Rank.FIVE, (Step(3, 60, 65),)))
    assert after.turn == 0
    assert after.ply == 1


@pytest.mark.ruling("turn.order")
@pytest.mark.parametrize("players", [4, 6, 8])
def test_turn_order__every_kind_of_move_passes_turn_clockwise(players: int) -> None:
    """turn.order: plays, discards and passes alike give the turn to seat+1; no extra turns."""
    game = new_game(players, seed=13)
    for _ in range(3 * players):
        moves = legal_moves(game)
        after = apply(game, moves[-1])
        assert after.turn == (game.turn + 1) % players
        assert after.ply == game.ply + 1
        game = after


@pytest.mark.ruling("turn.order")
def test_turn_order__no_extra_turn_for_knocking_out_or_king() -> None:
    """turn.order: capturing and coming out earn nothing extra; the next seat acts.

    Seat 0's peg on 12 plays a K 10 forward -> 22, landing on seat 1's peg (sent to start).
    Seat 1 then acts: its K brings a peg out of seat 1's start (26) or seat 3's (62).
    """
    state = parse_position("pegs 0: 12\npegs 1: 22\nhand 0: K\nhand 1: K\ndraw: 2 3")
    after = apply(state, Play(Rank.KING, (Step(0, 12, 22),)))
    assert after.pegs[1] == (START,) * 5
    assert after.turn == 1
    assert notation(after) == ("K 1:s-26", "K 3:s-62")


# --------------------------------------------------------------------------- team.control


@pytest.mark.ruling("team.control")
def test_team_control__come_out_from_teammate_start_to_its_come_out_hole() -> None:
    """team.control: come-outs may use any teammate's start area, to that colour's come-out.

    Seat 0, K, all in start: seat 0 -> 8, seat 2 -> 44 (18*2+8). Never 2 -> 8, never seat 1.
    """
    state = parse_position("hand 0: K")
    assert notation(state) == ("K 0:s-8", "K 2:s-44")
    assert rule_of(state, Play(Rank.KING, (Step(2, START, 8),))) == "card.come-out"
    assert rule_of(state, Play(Rank.KING, (Step(1, START, 26),))) == "team.control"
    after = apply(state, Play(Rank.KING, (Step(2, START, 44),)))
    assert after.pegs[2] == (START, START, START, START, 44)
    assert after.pegs[0] == (START,) * 5


@pytest.mark.ruling("team.control")
def test_team_control__odd_seat_controls_odd_seats() -> None:
    """team.control: seat 1 (team 1) may bring out seat 1 (26) or seat 3 (62), not seat 0/2."""
    state = parse_position("turn: 1\nhand 1: A")
    assert notation(state) == ("A 1:s-26", "A 3:s-62")
    assert rule_of(state, Play(Rank.ACE, (Step(0, START, 8),))) == "team.control"
    assert rule_of(state, Play(Rank.ACE, (Step(2, START, 44),))) == "team.control"


@pytest.mark.ruling("team.control")
def test_team_control__move_teammates_track_peg_but_never_opponents() -> None:
    """team.control: seat 0 moves seat 2's peg (40 -> 45 with a 5) but never seat 1's (20).

    Seat 2's in-spot is 39, behind 40, so no home entry for it.
    """
    state = parse_position("pegs 1: 20\npegs 2: 40\nhand 0: 5")
    assert notation(state) == ("5 2:40-45",)
    assert rule_of(state, Play(Rank.FIVE, (Step(1, 20, 25),))) == "team.control"
    assert rule_of(state, Play(Rank.FIVE, (Step(3, START, 62),))) == "team.control"


@pytest.mark.ruling("team.control")
def test_team_control__teammate_peg_enters_its_own_home() -> None:
    """team.control: a teammate's peg turns into its own home at its own in-spot.

    Seat 0 moves seat 2's peg on 37 with a 5: 38, 39 (seat 2's in-spot), then h1, h2, h3;
    or stays on the track to 42.
    """
    state = parse_position("pegs 2: 37\nhand 0: 5")
    assert notation(state) == ("5 2:37-42", "5 2:37-h3")
    after = apply(state, Play(Rank.FIVE, (Step(2, 37, home(3)),)))
    assert after.pegs[2] == (START, START, START, START, home(3))


@pytest.mark.ruling("team.control")
def test_team_control__split_between_own_and_teammate_peg() -> None:
    """team.control: a 7 may be split between seat 0's peg and seat 2's peg.

    Seat 0's peg on 12 (in-spot 3 far ahead), seat 2's on 40 (in-spot 39 behind): no home
    entry. Singles: 12 -> 19, 40 -> 47. Splits a + b = 7: 12 -> 12+a and 40 -> 47-a for
    a = 1..6 (paths 13..18 and 41..46 never meet, so both orders give one position, listed
    with seat 0's part first). Sorted by steps: the splits starting (0,12,13..18) come before
    the single (0,12,19), and seat 2's single is last.
    """
    state = parse_position("pegs 0: 12\npegs 2: 40\nhand 0: 7")
    assert notation(state) == (
        "7 0:12-13 2:40-46",
        "7 0:12-14 2:40-45",
        "7 0:12-15 2:40-44",
        "7 0:12-16 2:40-43",
        "7 0:12-17 2:40-42",
        "7 0:12-18 2:40-41",
        "7 0:12-19",
        "7 2:40-47",
    )


@pytest.mark.ruling("team.control")
def test_team_control__all_game_long_after_own_pegs_home() -> None:
    """team.control (arizona): with all its own pegs home, seat 0 still moves seat 2's pegs.

    Seat 0's pegs fill h1..h5 (none can move); seat 2's peg on 40 -> 45 with a 5.
    """
    state = parse_position("pegs 0: h1 h2 h3 h4 h5\npegs 2: 40\nhand 0: 5")
    assert notation(state) == ("5 2:40-45",)


@pytest.mark.ruling("team.control", "card.joker.source")
def test_team_control__joker_from_teammate_start_area() -> None:
    """team.control: a joker may take its peg from a teammate's start area.

    Seat 0's pegs all on the track (start empty), seat 2's all in start, seat 1's peg on 30:
    the joker must come from seat 2's start (card.joker.source). Targets: track pegs of
    another colour than seat 2: seat 0's on 10, 20, 40, 50, 60 and seat 1's on 30. Landing on
    a seat 0 peg sends it to its in-spot 3 (empty). The 2 moves each seat 0 peg two holes
    (none reaches another seat 0 peg); it is playable, so there is no discard.
    """
    state = parse_position("pegs 0: 10 20 40 50 60\npegs 1: 30\nhand 0: 2 JK")
    assert notation(state) == (
        "2 0:10-12",
        "2 0:20-22",
        "2 0:40-42",
        "2 0:50-52",
        "2 0:60-62",
        "JK 2:s-10",
        "JK 2:s-20",
        "JK 2:s-30",
        "JK 2:s-40",
        "JK 2:s-50",
        "JK 2:s-60",
    )


# --------------------------------------------------------------------------- game.end


@pytest.mark.ruling("game.end")
def test_game_end__last_team_peg_home_ends_at_once_without_draw() -> None:
    """game.end: the move that leaves every team peg home ends the game; nothing is drawn.

    Seat 2 is all home; seat 0 has h2..h5 and a peg on 70. A 6: 71, 0, 1, 2, 3 (in-spot),
    then h1 (empty) -> all ten team-0 pegs home. The hand stays at 4 cards.
    """
    state = parse_position(
        "pegs 0: h2 h3 h4 h5 70\npegs 2: h1 h2 h3 h4 h5\nhand 0: 5 6 7 9 10\ndraw: K Q\ndiscard: 2"
    )
    assert state.winner is None
    win = Play(Rank.SIX, (Step(0, 70, home(1)),))
    assert win in legal_moves(state)
    after = apply(state, win)
    assert after.winner == 0
    assert after.is_over
    assert after.pegs[0] == h(1, 2, 3, 4, 5)
    assert after.hands[0] == (Rank.FIVE, Rank.SEVEN, Rank.NINE, Rank.TEN)
    assert after.draw_pile == (Rank.KING, Rank.QUEEN)
    assert after.discard_pile == (Rank.TWO, Rank.SIX)
    # nothing more can be played
    assert legal_moves(after) == ()
    assert rule_of(after, Play(Rank.FIVE, (Step(1, START, 26),))) == "game.end"
    assert rule_of(after, Discard(Rank.FIVE)) == "game.end"
    assert rule_of(after, Pass()) == "game.end"
    # the finished position's text (with its winner line) reads back
    assert str(after).endswith("\nwinner: 0")
    assert str(parse_position(str(after))) == str(after)
    with pytest.raises(PositionError):
        parse_position(str(after).replace("winner: 0", "winner: 1"))


@pytest.mark.ruling("game.end")
def test_game_end__own_pegs_home_is_not_enough() -> None:
    """game.end: one seat all home while its teammate has a peg out -> the game goes on.

    Same move as above, but seat 2 still has a peg on 30: no winner, the card is drawn.
    """
    state = parse_position(
        "pegs 0: h2 h3 h4 h5 70\npegs 2: h2 h3 h4 h5 30\nhand 0: 5 6 7 9 10\ndraw: K Q"
    )
    after = apply(state, Play(Rank.SIX, (Step(0, 70, home(1)),)))
    assert after.winner is None
    assert not after.is_over
    assert after.hands[0] == (Rank.FIVE, Rank.SEVEN, Rank.NINE, Rank.TEN, Rank.KING)
    assert after.turn == 1
    assert legal_moves(after) != ()


@pytest.mark.ruling("game.end", "team.control")
def test_game_end__moving_teammates_last_peg_home_wins() -> None:
    """game.end + team.control: seat 0 brings seat 2's last peg home and team 0 wins.

    Seat 2's peg on 34: 35..39 (in-spot 39) is 5 steps, the 6th is h1 (empty); or 40.
    """
    state = parse_position("pegs 0: h1 h2 h3 h4 h5\npegs 2: h2 h3 h4 h5 34\nhand 0: 6\ndraw: 3")
    assert notation(state) == ("6 2:34-40", "6 2:34-h1")
    after = apply(state, Play(Rank.SIX, (Step(2, 34, home(1)),)))
    assert after.winner == 0
    assert after.hands[0] == ()
    assert after.draw_pile == (Rank.THREE,)


@pytest.mark.ruling("game.end")
def test_game_end__odd_team_can_win() -> None:
    """game.end: team 1 wins when seats 1 and 3 are all home.

    Seat 3's peg on 56 (in-spot 57): one step to 57, the 2nd is h1 -> a 2 wins, or 58.
    """
    state = parse_position("turn: 3\npegs 1: h1 h2 h3 h4 h5\npegs 3: h2 h3 h4 h5 56\nhand 3: 2")
    assert notation(state) == ("2 3:56-58", "2 3:56-h1")
    after = apply(state, Play(Rank.TWO, (Step(3, 56, home(1)),)))
    assert after.winner == 1


@pytest.mark.ruling("game.end")
def test_game_end__split_completes_both_parts_first() -> None:
    """game.end: a split that brings the last two pegs home wins after both parts.

    Seat 0: h3 h4 h5 and pegs on 0 and 2; seat 2 all home (nothing there can move; h3, h4, h5
    are each blocked by the peg in front). Peg on 2: 1 -> 3 (in-spot), 2 -> 4/h1,
    3 -> 5/h2, 4 -> 6 (h3 taken), 5 -> 7, 6 -> 8, 7 -> 9. Peg on 0 passes hole 2 for any
    count >= 2, so it moves second unless it moves 1.
      single: 2 -> 9 (0 -> 7 passes 2: blocked)
      2 first, then 0 with 7-a: a=1 (2->3): 0 by 6 passes 3: blocked on track; h3 taken;
      a=2: 2->4, 0 by 5: track passes 4 (blocked), home h2 ok; 2->h1, 0 by 5: track 5 ok,
      home passes h1 (blocked); a=3: 2->5, 0 by 4 -> 4 or h1; 2->h2, 0 by 4 -> 4 or h1;
      a=4: 2->6, 0 by 3 -> 3; a=5: 2->7, 0 by 2 -> 2 (now empty); a=6: 2->8, 0 by 1 -> 1,
      which is also legal the other way round and is listed with the smaller step first.
    """
    state = parse_position("pegs 0: h3 h4 h5 0 2\npegs 2: h1 h2 h3 h4 h5\nhand 0: 7\ndraw: 4")
    assert set(notation(state)) == {
        "7 0:2-9",
        "7 0:0-1 0:2-8",
        "7 0:2-4 0:0-h2",
        "7 0:2-h1 0:0-5",
        "7 0:2-5 0:0-4",
        "7 0:2-5 0:0-h1",
        "7 0:2-h2 0:0-4",
        "7 0:2-h2 0:0-h1",
        "7 0:2-6 0:0-3",
        "7 0:2-7 0:0-2",
    }
    win = Play(Rank.SEVEN, (Step(0, 2, home(2)), Step(0, 0, home(1))))
    after = apply(state, win)
    assert after.pegs[0] == h(1, 2, 3, 4, 5)
    assert after.winner == 0
    assert after.hands[0] == ()
    assert after.draw_pile == (Rank.FOUR,)
    # the other order: the peg on 0 would pass its own peg on 2 first
    reverse = Play(Rank.SEVEN, (Step(0, 0, home(1)), Step(0, 2, home(2))))
    assert rule_of(state, reverse) == "move.blocking"


@pytest.mark.ruling("game.end")
def test_game_end__position_already_won_has_no_moves() -> None:
    """game.end: in a finished position nothing may be played."""
    state = parse_position("pegs 0: h1 h2 h3 h4 h5\npegs 2: h1 h2 h3 h4 h5\nhand 0: K")
    assert state.winner == 0
    assert legal_moves(state) == ()
    assert rule_of(state, Play(Rank.KING, (Step(0, home(1), home(2)),))) == "game.end"
