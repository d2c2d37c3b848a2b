"""Bots see only a player's view, play legal moves, and are as strong as documented."""

from __future__ import annotations

import dataclasses
import random
import time
import typing
from collections import Counter

import pytest
from played import shuffle_hidden

from pegs_rules import (
    CardsDrawn,
    Event,
    GameOver,
    GameState,
    PegsError,
    PlayerView,
    apply,
    apply_with_events,
    legal_moves,
    new_game,
    parse_notation,
    parse_position,
    redact,
    view,
)
from pegs_rules.bots import (
    BOTS,
    LEVELS,
    Bot,
    EasyBot,
    ExpertBot,
    GreedyBot,
    MctsBot,
    RandomBot,
    decide,
    evaluate,
    make_bot,
    observers,
    peg_value,
    play,
    playout_turn,
    progress,
    thinking_time,
)
from pegs_rules.bots.evaluation import after, effects_of, ranked
from pegs_rules.bots.search import slot_values
from pegs_rules.movegen import hand_plays, movable_seats, work_board
from pegs_rules.moves import Pass, Play, Step
from pegs_rules.playout import _located, every_play, in_order, playout, single_peg_plays
from pegs_rules.rules import ARIZONA, STANDARD, InSpotOccupied, Nine
from pegs_rules.simulate import SimulationConfig, simulate

BOT_SPECS = ("random", "easy", "greedy", "mcts:40", "expert:40")


def midgame(players: int = 4, seed: int = 3, plies: int = 80) -> GameState:
    """A position reached by greedy play."""
    state = new_game(players, seed=seed)
    bots = [GreedyBot(seat) for seat in range(players)]
    while state.ply < plies and not state.is_over:
        state = apply(state, decide(bots[state.turn], state))
    return state


@pytest.mark.parametrize("cls", [RandomBot, EasyBot, GreedyBot, MctsBot, ExpertBot])
def test_choose_takes_a_player_view(cls: type[Bot]) -> None:
    hints = typing.get_type_hints(cls.choose)
    assert hints["view"] is PlayerView
    assert typing.get_type_hints(Bot.choose)["view"] is PlayerView


@pytest.mark.parametrize("spec", BOT_SPECS)
def test_bots_refuse_the_full_state(spec: str) -> None:
    state = midgame()
    with pytest.raises(PegsError, match="PlayerView"):
        make_bot(spec).choose(state, legal_moves(state))  # type: ignore[arg-type]


@pytest.mark.parametrize("spec", BOT_SPECS)
def test_hidden_cards_do_not_change_the_choice(spec: str) -> None:
    rng = random.Random(11)
    for seed in (3, 4):
        state = midgame(seed=seed, plies=40 + seed)
        other = shuffle_hidden(state, state.turn, rng)
        assert other.hands != state.hands and other.draw_pile != state.draw_pile
        seat = state.turn
        assert view(other, seat) == view(state, seat)
        assert legal_moves(other) == legal_moves(state)
        first = make_bot(spec, seed=5).choose(view(state, seat), legal_moves(state))
        second = make_bot(spec, seed=5).choose(view(other, seat), legal_moves(other))
        assert first == second


@pytest.mark.parametrize("spec", BOT_SPECS)
@pytest.mark.parametrize("players", [4, 6, 8])
def test_bots_choose_legal_moves(spec: str, players: int) -> None:
    state = new_game(players, seed=players)
    bot = make_bot(spec, seed=1)
    for _ in range(3 * players):
        moves = legal_moves(state)
        move = bot.choose(view(state, state.turn), moves)
        assert move in moves
        state = apply(state, move)


def test_greedy_takes_a_knock_and_goes_home() -> None:
    # the 5 can knock seat 1's peg on 45 from 40, or move 70 -> 75 (past the in-spot 3)
    state = parse_position("""
    pegs 0: 40
    pegs 1: 45
    hand 0: 5
    """)
    move = GreedyBot(0).choose(view(state, 0), legal_moves(state))
    assert move == parse_notation("5 0:40-45")
    # a 3 from the in-spot's doorstep: home rather than along the track
    state = parse_position("""
    pegs 0: 1
    hand 0: 3
    """)
    move = GreedyBot(0).choose(view(state, 0), legal_moves(state))
    assert move == parse_notation("3 0:1-h1")


def test_greedy_moves_out_of_reach() -> None:
    # either peg can move 4; the one on 40 stands 10 holes in front of seat 1's peg on 30
    # (a 10, J, Q or K away), the one on 20 is safe and threatens the 30 itself
    state = parse_position("""
    pegs 0: 20 40
    pegs 1: 30
    hand 0: 4
    """)
    assert GreedyBot(0).choose(view(state, 0), legal_moves(state)) == parse_notation("4 0:40-44")


def test_evaluation_values() -> None:
    assert peg_value(4, 0, -1) == 0
    assert peg_value(4, 0, 8) < peg_value(4, 0, 3) < peg_value(4, 0, 1001) < peg_value(4, 0, 1005)
    start = new_game(4, seed=1).pegs
    assert evaluate(start, 0, ARIZONA) == 0
    out = ((-1, -1, -1, -1, 8), *start[1:])
    assert evaluate(out, 0, ARIZONA) > 0 > evaluate(out, 1, ARIZONA)
    # 10 holes in front of an opponent's peg (a 10 or a face card away) is worth less than
    # 11 holes (no card moves 11 in arizona), by much more than the one hole
    chased = ((-1, -1, -1, -1, 35), (-1, -1, -1, -1, 25), *start[2:])
    safe = ((-1, -1, -1, -1, 36), (-1, -1, -1, -1, 25), *start[2:])
    assert evaluate(safe, 0, ARIZONA) - evaluate(chased, 0, ARIZONA) > 5


@pytest.mark.parametrize("spec", ["easy", "mcts:5", "expert:5"])
def test_a_winning_move_is_taken(spec: str) -> None:
    state = parse_position("""
    pegs 0: h2 h3 h4 h5 1
    pegs 2: h1 h2 h3 h4 h5
    hand 0: 3 4 9
    """)
    for seed in range(5):
        move = make_bot(spec, seed).choose(view(state, 0), legal_moves(state))
        assert apply(state, move).winner == 0


def test_the_joker_threat_lowers_every_track_peg() -> None:
    start = new_game(4, seed=1).pegs
    out = ((-1, -1, -1, -1, 8), *start[1:])
    home = ((-1, -1, -1, -1, 1005), *start[1:])
    plain = evaluate(out, 0, ARIZONA)
    assert plain == progress(out, 0) == peg_value(4, 0, 8)  # no opponent on the track
    assert evaluate(out, 0, ARIZONA, joker=True) < plain  # but a joker may land on the peg on 8
    assert evaluate(home, 0, ARIZONA, joker=True) == evaluate(home, 0, ARIZONA)  # not in home
    chased = ((-1, -1, -1, -1, 35), (-1, -1, -1, -1, 25), *start[2:])
    assert progress(chased, 0) > evaluate(chased, 0, ARIZONA)  # progress weighs no danger


def test_expert_with_width_one_plays_its_evaluations_best() -> None:
    state = midgame()
    seen = view(state, state.turn)
    moves = legal_moves(state)
    effects = effects_of(seen)
    scored = {move: score for score, move in ranked(seen, moves, effects, joker=True)}
    move = ExpertBot(0, width=1).choose(seen, moves)
    assert scored[move] == max(scored.values())


def test_easy_overlooks_and_does_not_always_take_the_best() -> None:
    state = midgame(plies=60)
    seen = view(state, state.turn)
    moves = legal_moves(state)
    assert len(moves) > 3
    team = state.turn % 2
    effects = effects_of(seen)
    worth = {move: progress(after(seen.pegs, effects, move), team) for move in moves}
    chosen = [EasyBot(seed).choose(seen, moves) for seed in range(200)]
    favourite, times = Counter(chosen).most_common(1)[0]
    assert worth[favourite] == max(worth.values())  # the best by its own measure, most often
    assert times < 150 and len(set(chosen)) >= 3  # but far from always
    assert sum(worth[m] for m in chosen) / len(chosen) > sum(worth.values()) / len(worth)


def test_thinking_time_does_not_run_while_waiting() -> None:
    began = thinking_time()
    time.sleep(0.2)
    assert thinking_time() - began < 0.1


@pytest.mark.parametrize("cls", [MctsBot, ExpertBot])
def test_a_time_limit_is_kept(cls: type[MctsBot | ExpertBot]) -> None:
    state = midgame()
    bot = cls(1, time_limit=0.05)
    began = thinking_time()
    move = bot.choose(view(state, state.turn), legal_moves(state))
    assert move in legal_moves(state)
    assert thinking_time() - began < 0.5


def test_make_bot() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("greedy"), GreedyBot)
    bot = make_bot("mcts:77")
    assert isinstance(bot, MctsBot) and bot.iterations == 77 and bot.time_limit is None
    expert = make_bot("expert:0.25s")
    assert isinstance(expert, ExpertBot) and expert.time_limit == 0.25
    assert isinstance(make_bot("hard:50"), MctsBot)
    for bad in ("nobody", "greedy:3", "easy:3", "mcts:x", "mcts:0", "mcts:-1s", "mcts:nans"):
        with pytest.raises(ValueError):
            make_bot(bad)
    for bad in ("expert:0", "expert:infs", "medium:2"):
        with pytest.raises(ValueError):
            make_bot(bad)


def test_levels() -> None:
    assert [level.name for level in LEVELS] == ["easy", "medium", "hard", "expert"]
    kinds = {"easy": EasyBot, "medium": GreedyBot, "hard": MctsBot, "expert": ExpertBot}
    for level in LEVELS:
        assert level.name in BOTS and level.bot in BOTS
        assert type(make_bot(level.name)) is kinds[level.name] is type(make_bot(level.bot))
    hard, expert = make_bot("hard"), make_bot("expert")
    assert isinstance(hard, MctsBot) and hard.iterations == 300
    assert isinstance(expert, ExpertBot) and expert.iterations == 1000


def _states(rules_list: list[typing.Any]) -> list[GameState]:
    states = []
    for rules in rules_list:
        for players in (4, 6):
            rng = random.Random(players)
            state = new_game(players, seed=players + 1, rules=rules)
            while not state.is_over and state.ply < 400:
                states.append(state)
                state = apply(state, rng.choice(legal_moves(state)))
    return states


VARIANTS = [
    ARIZONA,
    STANDARD,
    dataclasses.replace(ARIZONA, name="house", nine=Nine.FORWARD_BACKWARD, two_swap=True),
    dataclasses.replace(
        ARIZONA,
        name="house2",
        face_values=(11, 12, 13),
        home_entry_compulsory=True,
        wait_on_in_spot=True,
        in_spot_occupied=InSpotOccupied.TO_START,
    ),
]


@pytest.fixture(scope="module")
def played_states() -> list[GameState]:
    return _states(VARIANTS)[::7]


def test_playout_options_are_legal_plays(played_states: list[GameState]) -> None:
    for state in played_states:
        hand = state.hands[state.turn]
        if not hand:
            continue
        legal = {play: changes for plays in hand_plays(state).values() for play, changes in plays}
        board = work_board(state.pegs, state.turn % 2, state.rules)
        seats = movable_seats(state)
        ranks = sorted(set(hand))
        found, other, _ = single_peg_plays(board, seats, ranks)
        options = in_order(found, ())
        singles = [
            (play, tuple(changes)) for play, changes in legal.items() if len(play.steps) == 1
        ]
        got = []
        for card, codes in options:
            assert card is not None
            changes = tuple(Step(*change) for change in _located(board, codes))
            got.append((Play(card, changes[:1]), changes))
        assert got == singles, state  # every one-peg play, in order, with its changes
        assert other == any(
            isinstance(m, Play) and m.card.symbol != "JK" and len(m.steps) == 1
            for m in legal_moves(state)
        )
        found, playable = every_play(board, seats, ranks)
        assert playable == any(
            isinstance(m, Play) and m.card.symbol != "JK" for m in legal_moves(state)
        )
        everything = [  # a play by its card and first step; a discard by its card
            (card, Step(*_located(board, codes)[0]) if codes else None)
            for card, codes in in_order(found, () if playable else ranks)
        ]
        assert everything == [
            (m.card, m.steps[0] if isinstance(m, Play) else None)
            for m in legal_moves(state)
            if not isinstance(m, Pass)
        ]


def test_playout_turns_are_turns_of_the_game(played_states: list[GameState]) -> None:
    rng = random.Random(4)
    for state in played_states:
        after = playout_turn(state, rng, epsilon=0.3)
        assert any(apply(state, move) == after for move in legal_moves(state)), state


def test_a_playout_is_its_turns_one_by_one(played_states: list[GameState]) -> None:
    """Many turns on one table and one board end where the turns taken one at a time do."""
    for number, state in enumerate(played_states):
        values = slot_values(len(state.pegs))
        whole = playout(state, random.Random(number), 0.3, values, 12)
        rng = random.Random(number)
        stepwise = state
        for _ in range(12):
            if stepwise.is_over:
                break
            stepwise = playout_turn(stepwise, rng, epsilon=0.3)
        assert whole == stepwise, state
        assert whole.ply == state.ply + 12 or whole.is_over


def _wins(config: SimulationConfig) -> tuple[int, int]:
    return simulate(config).summary.side_wins


def test_greedy_beats_random() -> None:
    wins = _wins(SimulationConfig(games=20, bots=("greedy", "random"), seed=1))
    assert wins[0] >= 15, wins


def test_easy_beats_random_and_loses_to_medium() -> None:
    wins = _wins(SimulationConfig(games=10, bots=("easy", "random"), seed=1))
    assert wins[0] >= 9, wins  # a beginner, not a random mover
    # medium wins about two games in three (the strength page: 137 of 200); 16 games were too
    # few to show it whatever the seeds (8 of 16 once the bots' seeds became keyed hashes)
    wins = _wins(SimulationConfig(games=40, bots=("medium", "easy"), seed=1))
    assert wins[0] >= 24, wins


class Follower(GreedyBot):
    """A greedy bot that keeps what it is told of the game."""

    def start(self, seen: PlayerView) -> None:
        self.began = seen
        self.heard: list[tuple[Event, ...]] = []

    def observe(self, events: tuple[Event, ...]) -> None:
        self.heard.append(events)


def test_observers_hear_every_turn_as_their_seat_may_see_it() -> None:
    first = new_game(4, seed=11)
    bots: list[Bot] = [Follower(0), GreedyBot(1), Follower(2), Follower(3)]
    end = play(bots, first)
    assert end.winner is not None and not hasattr(bots[1], "heard")
    followers = [(seat, bot) for seat, bot in enumerate(bots) if isinstance(bot, Follower)]
    for seat, bot in followers:
        assert bot.began == view(first, seat)
        assert len(bot.heard) == end.ply  # every seat's turns, its own too
        assert bot.heard[-1][-1] == GameOver(end.winner)
        for turn in bot.heard:
            for event in turn:
                if isinstance(event, CardsDrawn):  # only its own draws show their cards
                    assert (event.cards is None) == (event.seat != seat)
    # the game again, turn by turn: at each, one legal move does what every follower heard
    state = first
    for ply in range(end.ply):
        heard = {redact(bot.heard[ply], -1) for _, bot in followers}  # every draw hidden
        assert len(heard) == 1
        (told,) = heard
        state = next(
            after
            for after, events in (apply_with_events(state, move) for move in legal_moves(state))
            if redact(events, -1) == told
        )
    assert state == end


def test_play_needs_a_bot_a_seat() -> None:
    with pytest.raises(PegsError, match="3 bots for 4 seats"):
        play([GreedyBot(0)] * 3, new_game(4, seed=1))
    assert observers([GreedyBot(0), Follower(1)])[0][0] == 1
