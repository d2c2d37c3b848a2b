"""Game records: everything needed to replay a game, and :func:`replay`.

A :class:`GameRecord` holds the rules, the seat count, the seed, the dealer
and the moves in the notation of :mod:`pegs_rules.moves`. The game starts
from the deal that :func:`~pegs_rules.new_game` makes from the seed (with
``dealer=None`` the seed also picks the dealer, as in ``new_game``); a record
may instead give the deck order, top card first, that was dealt (``deck``),
for a game shuffled elsewhere. Reshuffles always come from the seed
(``turn.reshuffle``).

>>> from pegs_rules import new_game, legal_moves, apply
>>> game = start = new_game(4, seed=1)
>>> moves = []
>>> for _ in range(3):
...     moves.append(legal_moves(game)[0])
...     game = apply(game, moves[-1])
>>> record = record_of(start, moves)
>>> record.moves
('discard 7', 'A 1:s-26', 'J 0:s-8')
>>> replay(record) == game
True

Replaying stops at the first move that cannot be made:

>>> from dataclasses import replace
>>> try:
...     replay(replace(record, moves=("discard 7", "pass")))
... except ReplayError as error:
...     print(error.turn, error.rule)
2 turn.discard
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from pegs_rules.board import START
from pegs_rules.cards import Rank, deck_counts
from pegs_rules.errors import (
    FormatError,
    IllegalMoveError,
    NotationError,
    PegsError,
    PositionError,
    ReplayError,
    shown,
)
from pegs_rules.moves import Move, parse_notation
from pegs_rules.reasons import other_writing
from pegs_rules.rules import ARIZONA, Rules
from pegs_rules.state import GameState, deal, new_game
from pegs_rules.turn import apply
from pegs_rules.validate import reraise


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRecord:
    """A replayable game: how it was dealt and every move made.

    Attributes:
        rules: the rules in force.
        players: the seat count.
        seed: the game's seed (``new_game``'s shuffle, and every reshuffle).
        dealer: the dealer, or ``None`` when the seed chose it.
        deck: the deck order dealt, top card first, or ``None`` when the
            seed shuffled it; a deck needs a dealer.
        moves: the moves in order, in the notation of ``str(move)``.

    The values are checked when the record is made: :class:`FormatError`
    lists every problem. Lists are accepted for ``moves`` and ``deck``, and
    moves are kept in canonical notation (``k 1:S-26`` becomes ``K 1:s-26``).
    """

    rules: Rules = ARIZONA
    players: int
    seed: int
    dealer: int | None = None
    deck: tuple[Rank, ...] | None = None
    moves: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        for name in ("moves", "deck"):
            value = getattr(self, name)
            if isinstance(value, list):
                object.__setattr__(self, name, tuple(value))
        problems = _problems(self)
        if problems:
            raise FormatError(problems)
        canonical = tuple(str(parse_notation(text)) for text in self.moves)
        object.__setattr__(self, "moves", canonical)

    def start(self) -> GameState:
        """The position before the first move."""
        if self.deck is None:
            return new_game(self.players, seed=self.seed, rules=self.rules, dealer=self.dealer)
        assert self.dealer is not None  # checked on creation
        return deal(self.rules, self.players, self.dealer, self.deck, self.seed)


def _problems(record: GameRecord) -> list[str]:
    if not isinstance(record.rules, Rules):
        return [f"rules: not a Rules object: {type(record.rules).__name__}"]
    problems = []
    players = record.players
    if not _is_int(players) or players not in record.rules.player_counts:
        problems.append(
            f"players: preset {shown(record.rules.name)} allows {record.rules.player_counts}, "
            f"not {shown(players)}"
        )
        players = 0
    if not _is_int(record.seed):
        problems.append(f"seed: expected a whole number, not {shown(record.seed)}")
    dealer = record.dealer
    if dealer is not None and not (_is_int(dealer) and 0 <= dealer < max(players, 1)):
        problems.append(f"dealer: expected a seat or None, not {shown(dealer)}")
    deck = record.deck
    if deck is not None:
        if dealer is None:
            problems.append("dealer: a record with a deck order names its dealer")
        if not (isinstance(deck, tuple) and all(isinstance(c, Rank) for c in deck)):
            problems.append("deck: expected a tuple of cards")
        elif players and Counter(deck) != Counter(deck_counts(*record.rules.deck_for(players))):
            problems.append(f"deck: not the deck for {players} players under these rules")
    if not isinstance(record.moves, tuple):
        problems.append(f"moves: expected a tuple of move texts, not {type(record.moves).__name__}")
        return problems
    for index, text in enumerate(record.moves):
        try:
            parse_notation(text)
        except NotationError as error:
            problems.append(f"moves[{index}]: {error}")
    return problems


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _undeal(state: GameState) -> tuple[Rank, ...] | None:
    """A deck order that :func:`~pegs_rules.state.deal` turns into ``state``'s hands and draw pile, if any."""
    players = state.players
    size = state.rules.hand_size
    order = [(state.dealer + 1 + i) % players for i in range(players)]
    if any(len(state.hands[s]) < size for s in order):
        return None
    dealt = [state.hands[order[i % players]][i // players] for i in range(size * players)]
    extra = [c for s in order for c in state.hands[s][size:]]
    return (*dealt, *extra, *state.draw_pile)


def record_of(start: GameState, moves: Iterable[Move | str]) -> GameRecord:
    """The record of the game dealt as ``start`` in which ``moves`` were made.

    ``start`` must be a fresh deal (ply 0, every peg in start, no discards).
    If the seed alone (with or without its dealer) deals it, the record says
    so; otherwise it keeps the deck order. The moves are not checked here
    (:func:`replay` does that), but a split given in its other order, or a
    swap written from its other peg, is recorded in its listed form
    (``card.seven.split.order``, ``variant.two-swap.order``).
    """
    if not isinstance(start, GameState):
        raise PegsError(f"not a game state: {type(start).__name__}")
    try:
        fresh = (
            start.ply == 0
            and start.reshuffles == 0
            and start.winner is None
            and not start.discard_pile
            and all(p == START for locs in start.pegs for p in locs)
        )
        if not fresh:
            raise PositionError(
                "a record starts from a fresh deal: ply 0, all pegs in start, no discards"
            )
        texts = _listed_texts(start, moves)

        def make(dealer: int | None, deck: tuple[Rank, ...] | None = None) -> GameRecord:
            return GameRecord(
                rules=start.rules,
                players=start.players,
                seed=start.seed,
                dealer=dealer,
                deck=deck,
                moves=texts,
            )

        for dealer in (None, start.dealer):
            try:
                dealt = new_game(start.players, seed=start.seed, rules=start.rules, dealer=dealer)
            except PegsError:
                break
            if dealt == start:
                return make(dealer)
        deck = _undeal(start)
        record = None
        if deck is not None:
            try:
                record = make(start.dealer, deck)
            except FormatError:
                record = None
        if record is None or record.start() != start:
            raise PositionError("this position is not a deal of the deck that the rules use")
        return record
    except Exception as error:
        reraise(start, error)


def _listed_texts(start: GameState, moves: Iterable[Move | str]) -> tuple[str, ...]:
    """``moves`` as text, each split or swap in its listed order, up to the first illegal move."""
    texts = []
    state: GameState | None = start
    for move in moves:
        text = move if isinstance(move, str) else str(move)
        if state is not None:
            try:
                played = parse_notation(text)
                listed = other_writing(state, played)
                if listed is not None:
                    text = str(listed[0])
                state = apply(state, played)
            except PegsError:
                state = None  # replay reports it
        texts.append(text)
    return tuple(texts)


def replay(record: GameRecord) -> GameState:
    """The position after every move of ``record``.

    Raises :class:`~pegs_rules.errors.ReplayError` at the first move that
    is not legal, with its turn number (the first move is turn 1), the rule
    id that forbids it and the position it was tried in.
    """
    if not isinstance(record, GameRecord):
        raise PegsError(f"not a game record: {type(record).__name__}")
    state = record.start()
    for turn, text in enumerate(record.moves, 1):
        try:
            state = apply(state, parse_notation(text))
        except NotationError as error:  # not possible for a checked record
            raise ReplayError(turn, text, "turn.sequence", str(error), state) from None
        except IllegalMoveError as error:
            raise ReplayError(turn, text, error.rule, error.reason, state) from None
    return state
