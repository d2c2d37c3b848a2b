"""Bots, from a beginner to an expert, each seeing only its seat's :class:`~pegs_rules.PlayerView`.

Every bot implements :class:`Bot`: it is shown a view (every peg, its own hand,
card counts, the discard pile) and the legal moves, and picks one. It never
sees a :class:`~pegs_rules.GameState`, so it cannot peek at other hands or the
draw pile; :func:`decide` makes the view for the seat to act. All of a bot's
chance comes from its own seeded generator, so a seeded bot shown the same
view makes the same choice (a searching bot on a playout budget too; on a time
budget it plays as far as the processor lets it).

>>> from pegs_rules import new_game, apply
>>> game = new_game(4, seed=1)
>>> bots = [make_bot(level, seed) for seed, level in enumerate(["easy", "medium"] * 2)]
>>> while not game.is_over:
...     game = apply(game, decide(bots[game.turn], game))
>>> game.winner in (0, 1)
True

The levels a person chooses from (:data:`LEVELS`), weakest first:

* ``easy`` (:class:`EasyBot`): a beginner. It looks one move ahead but does not
  weigh the danger of being knocked, overlooks some moves (splits most) and does
  not always take the best of those it sees.
* ``medium`` (:class:`GreedyBot`, also ``greedy``): one move ahead, scoring the
  position each move leaves with :func:`evaluate` (progress, knocks, safety).
* ``hard`` (:class:`MctsBot`, also ``mcts``): a Monte Carlo search over deals of
  the cards it cannot see.
* ``expert`` (:class:`ExpertBot`): a search that compares its candidate moves on
  the same deals and spends its playouts on the moves still in contention.

``random`` (:class:`RandomBot`) plays any legal move, and ``td`` (:class:`TdBot`) the
move whose position a value learnt by TD(lambda) against ``medium`` likes best. The modules:
:mod:`~pegs_rules.bots.evaluation` (what a position is worth),
:mod:`~pegs_rules.bots.simple` (random, easy, greedy),
:mod:`~pegs_rules.bots.search` (mcts and what searches share),
:mod:`~pegs_rules.bots.expert`, :mod:`~pegs_rules.bots.td` (the learnt bot and its
features), :mod:`~pegs_rules.bots.levels` (names, :func:`make_bot`)
and :mod:`~pegs_rules.bots.bot` (the protocols, :func:`play`, and the clock bots think
by). A bot may also follow the game between its turns, told of every seat's moves
and of the start of each game (:class:`Observer`). The
docs' page "How strong are the bots" rates them all on one scale.
"""

from pegs_rules.bots.bot import (
    Bot,
    Observer,
    decide,
    observers,
    play,
    take_turn,
    tell_start,
    thinking_time,
)
from pegs_rules.bots.evaluation import (
    HOME_VALUE,
    OPPONENT_RISK,
    OUT_VALUE,
    OWN_RISK,
    evaluate,
    peg_value,
    progress,
)
from pegs_rules.bots.expert import ExpertBot
from pegs_rules.bots.levels import BOTS, LEVELS, Level, make_bot
from pegs_rules.bots.search import MctsBot, playout_turn
from pegs_rules.bots.simple import EasyBot, GreedyBot, RandomBot
from pegs_rules.bots.td import TdBot

__all__ = [
    "BOTS",
    "HOME_VALUE",
    "LEVELS",
    "OPPONENT_RISK",
    "OUT_VALUE",
    "OWN_RISK",
    "Bot",
    "EasyBot",
    "ExpertBot",
    "GreedyBot",
    "Level",
    "MctsBot",
    "Observer",
    "RandomBot",
    "TdBot",
    "decide",
    "evaluate",
    "make_bot",
    "observers",
    "peg_value",
    "play",
    "playout_turn",
    "progress",
    "take_turn",
    "tell_start",
    "thinking_time",
]
