"""Carrying out a turn: :func:`apply`.

``turn.sequence``: the seat to act plays one card (or discards it), the move
is carried out, then the seat draws back up to its hand size (arizona; with
``draw_first``, as in standard, the next seat instead draws up to one more
than the hand size before it acts), reshuffling the discard pile into a new
draw pile when the draw pile runs out (``turn.reshuffle``). The next turn belongs to the next seat clockwise
(``turn.order``). The move that brings a team's last peg home ends the game
at once, with no draw (``game.end``). A seat with no cards passes and then
draws as usual (``turn.pass``).
"""

from __future__ import annotations

from pegs_rules.cards import Rank
from pegs_rules.errors import IllegalMoveError, PegsError
from pegs_rules.movegen import has_playable_card, play_effects
from pegs_rules.moves import Discard, Move, Pass, Play
from pegs_rules.reasons import other_writing, why_illegal
from pegs_rules.sequence import carry_out
from pegs_rules.state import GameState
from pegs_rules.validate import reraise


def apply(state: GameState, move: Move) -> GameState:
    """The state after the seat to act makes ``move``; ``state`` is unchanged.

    Raises :class:`~pegs_rules.errors.IllegalMoveError`, naming the rule id
    that forbids it, for any move not in :func:`~pegs_rules.legal_moves`,
    except that a listed split may be given in its other order when that
    leaves the same position (``card.seven.split.order``), and a listed swap
    of two movable pegs written from the other peg (``variant.two-swap.order``):
    each is the same move. A state the engine cannot work on raises
    :class:`~pegs_rules.errors.PositionError` (see :func:`~pegs_rules.validate`).

    >>> from pegs_rules import new_game, legal_moves
    >>> game = new_game(4, seed=1)
    >>> after = apply(game, legal_moves(game)[0])
    >>> after.turn == (game.turn + 1) % 4, after.ply
    (True, 1)
    """
    if not isinstance(state, GameState):
        raise PegsError(f"not a game state: {type(state).__name__}")
    try:
        if state.winner is None:
            hand = state.hands[state.turn]
            if isinstance(move, Play) and isinstance(move.card, Rank) and move.card in hand:
                effects = play_effects(state, move)
                if effects is not None:
                    return carry_out(state, move.card, effects)
                same = other_writing(state, move)  # card.seven.split.order, variant.two-swap.order
                if same is not None:
                    return carry_out(state, move.card, same[1])
            elif isinstance(move, Discard) and isinstance(move.card, Rank) and move.card in hand:
                if not has_playable_card(state):
                    return carry_out(state, move.card, [])
            elif isinstance(move, Pass) and not hand:
                return carry_out(state, None, [])
        rule, reason = why_illegal(state, move)
    except Exception as error:
        reraise(state, error)
    raise IllegalMoveError(rule, reason)
