"""What one seat may know: :func:`view`, and :func:`determinize` to guess the rest.

A :class:`PlayerView` holds everything public (the rules, every peg, how
many cards each hand and the draw pile hold, the face-up discard pile, whose
turn it is, the dealer, the ply, reshuffles so far, the winner) and the
seat's own hand. It holds nothing else: not the other hands, not the order of
the draw pile, and not the seed, from which every hidden card could be
worked out.

A view is an API boundary, not a sandbox: it is what to send to a client or
give to a bot, but it cannot keep code running in the same process from the
full state. Run untrusted code in another process and send it views only.

:func:`determinize` deals the cards the seat cannot see at random, giving a
full :class:`~pegs_rules.GameState` that agrees with the view: a bot can
search such samples as if it saw everything.

>>> import random
>>> from pegs_rules import new_game
>>> game = new_game(4, seed=1)
>>> mine = view(game, 2)
>>> mine.hand == game.hands[2], mine.hand_sizes, mine.draw_pile_size
(True, (5, 5, 5, 5), 142)
>>> guess = determinize(mine, random.Random(0))
>>> view(guess, 2) == mine, guess.hands[2] == game.hands[2]
(True, True)
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from pegs_rules.board import Location, location_name
from pegs_rules.cards import Rank, deck_counts, format_cards
from pegs_rules.errors import PegsError, PositionError, shown
from pegs_rules.rules import Rules
from pegs_rules.state import GameState
from pegs_rules.validate import malformed, reraise, validate


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything ``seat`` may know about a game, and nothing more.

    Attributes:
        seat: whose view this is.
        rules: the rules in force.
        pegs: every seat's peg locations, as in :class:`~pegs_rules.GameState`.
        hand: the seat's own cards, in rank order.
        hand_sizes: how many cards each seat holds.
        draw_pile_size: how many cards the draw pile holds.
        discard_pile: the face-up discard pile, most recent card last.
        turn: the seat to act.
        dealer: the seat that dealt.
        reshuffles: how many times the discard pile has been reshuffled.
        ply: how many turns have been taken.
        winner: the winning team, or ``None`` while the game goes on.
    """

    seat: int
    rules: Rules
    pegs: tuple[tuple[Location, ...], ...]
    hand: tuple[Rank, ...]
    hand_sizes: tuple[int, ...]
    draw_pile_size: int
    discard_pile: tuple[Rank, ...]
    turn: int
    dealer: int
    reshuffles: int
    ply: int
    winner: int | None

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.pegs)

    @property
    def is_over(self) -> bool:
        """True once a team has won."""
        return self.winner is not None

    def __str__(self) -> str:
        lines = [f"view of seat {shown(self.seat)}", f"rules: {self.rules.name}"]
        lines += [f"players: {self.players}", f"turn: {shown(self.turn)}"]
        lines.append(f"dealer: {shown(self.dealer)}")
        for seat, locs in enumerate(self.pegs):
            lines.append(f"pegs {seat}: " + " ".join(location_name(p) for p in locs))
        for seat, size in enumerate(self.hand_sizes):
            cards = format_cards(self.hand) if seat == self.seat else f"({shown(size)} cards)"
            lines.append(f"hand {seat}: {cards}".rstrip())
        lines.append(f"draw: ({shown(self.draw_pile_size)} cards)")
        lines.append(f"discard: {format_cards(self.discard_pile)}".rstrip())
        if self.winner is not None:
            lines.append(f"winner: {shown(self.winner)}")
        return "\n".join(lines)


def view(state: GameState, seat: int) -> PlayerView:
    """What ``seat`` may know of ``state``.

    A state whose fields do not hold values of their documented types, or that
    the view cannot be made of, raises :class:`~pegs_rules.errors.PositionError`
    naming its problems (see :func:`~pegs_rules.validate`).
    """
    if not isinstance(state, GameState):
        raise PegsError(f"not a game state: {type(state).__name__}")
    try:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
            raise PositionError(f"no seat {shown(seat)} among {state.players}")
        seen = PlayerView(
            seat=seat,
            rules=state.rules,
            pegs=state.pegs,
            hand=state.hands[seat],
            hand_sizes=tuple(len(hand) for hand in state.hands),
            draw_pile_size=len(state.draw_pile),
            discard_pile=state.discard_pile,
            turn=state.turn,
            dealer=state.dealer,
            reshuffles=state.reshuffles,
            ply=state.ply,
            winner=state.winner,
        )
    except Exception as error:
        reraise(state, error)
    if _wrong_types(seen):  # a view goes to clients and bots: never one of the wrong types
        raise malformed(validate(state))
    return seen


def determinize(seen: PlayerView, rng: random.Random) -> GameState:
    """A full state that agrees with ``seen``, the unseen cards dealt at random by ``rng``.

    The unseen cards are the deck for this many players less the seat's hand
    and the discard pile; they are shuffled and dealt into the other hands
    (each of its known size) and the draw pile. The seed, which decides
    future reshuffles, is drawn from ``rng`` too. A view that no game could
    give, or whose fields have the wrong types, raises
    :class:`~pegs_rules.errors.PositionError`.
    """
    if not isinstance(seen, PlayerView):
        raise PegsError(f"not a player view: {type(seen).__name__}")
    wrong = _wrong_types(seen)
    if wrong:
        raise PositionError(f"not a possible view: {', '.join(wrong)} of the wrong type")
    players = seen.players
    if len(seen.hand_sizes) != players or not 0 <= seen.seat < players:
        raise PositionError("the view's seat, pegs and hand sizes do not agree")
    if seen.hand_sizes[seen.seat] != len(seen.hand):
        raise PositionError("the view's hand size does not match its hand")
    if players not in seen.rules.player_counts:
        raise PositionError(f"the rules do not allow {players} players")
    deck = Counter(deck_counts(*seen.rules.deck_for(players)))
    known = Counter(seen.hand) + Counter(seen.discard_pile)
    if known - deck:
        raise PositionError("the view shows cards that the deck does not hold")
    unseen = sorted((deck - known).elements())
    sizes = [n for s, n in enumerate(seen.hand_sizes) if s != seen.seat]
    if min(sizes, default=0) < 0 or seen.draw_pile_size < 0:
        raise PositionError("the view has a negative card count")
    if sum(sizes) + seen.draw_pile_size != len(unseen):
        raise PositionError(
            f"the view hides {sum(sizes) + seen.draw_pile_size} cards, "
            f"but {len(unseen)} are unaccounted for"
        )
    rng.shuffle(unseen)
    hands = []
    dealt = 0
    for seat, size in enumerate(seen.hand_sizes):
        if seat == seen.seat:
            hands.append(seen.hand)
        else:
            hands.append(tuple(sorted(unseen[dealt : dealt + size])))
            dealt += size
    state = GameState(
        rules=seen.rules,
        pegs=seen.pegs,
        hands=tuple(hands),
        draw_pile=tuple(unseen[dealt:]),
        discard_pile=seen.discard_pile,
        turn=seen.turn,
        dealer=seen.dealer,
        seed=rng.getrandbits(32),
        reshuffles=seen.reshuffles,
        ply=seen.ply,
        winner=seen.winner,
    )
    problems = validate(state)
    if problems:
        raise PositionError("the view cannot come from a real game: " + "; ".join(problems))
    return state


def _wrong_types(seen: PlayerView) -> list[str]:
    """The fields of ``seen`` that do not hold values of their documented types."""

    def whole(value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    def rows(value: object, item: type) -> bool:
        return isinstance(value, tuple) and all(
            isinstance(row, tuple) and all(isinstance(x, item) for x in row) for row in value
        )

    def cards(value: object) -> bool:
        return isinstance(value, tuple) and all(isinstance(c, Rank) for c in value)

    checks = {
        "seat": whole(seen.seat),
        "rules": isinstance(seen.rules, Rules),
        "pegs": rows(seen.pegs, int),
        "hand": cards(seen.hand),
        "hand_sizes": isinstance(seen.hand_sizes, tuple) and all(map(whole, seen.hand_sizes)),
        "draw_pile_size": whole(seen.draw_pile_size),
        "discard_pile": cards(seen.discard_pile),
        "turn": whole(seen.turn),
        "dealer": whole(seen.dealer),
        "reshuffles": whole(seen.reshuffles),
        "ply": whole(seen.ply),
        "winner": seen.winner is None or whole(seen.winner),
    }
    return [name for name, ok in checks.items() if not ok]
