"""Hypothesis strategies shared by the variant tests: house-rule combinations, positions
made under them, and random play.

:func:`house_rules` draws every field of :class:`~pegs_rules.rules.Rules` independently
(the card pool and hand size from a few playable choices), so that any switch may meet
any other.
"""

from __future__ import annotations

import dataclasses

from hypothesis import strategies as st

from pegs_rules import GameState, Move, Rank, apply, legal_moves, parse_position
from pegs_rules.rules import STANDARD, Control, InSpotOccupied, JokerSource, Nine, Rules

PLAYER_COUNTS = (4, 6, 8)

DECK_TABLES = (
    ((4, 3, 6), (6, 3, 6), (8, 4, 8)),  # the presets' table
    ((4, 2, 4), (6, 3, 6), (8, 4, 8)),  # 2 decks for 4 players
    ((4, 1, 8), (6, 2, 0), (8, 3, 2)),  # small pools: reshuffles come early
)
"""Playable ``decks`` tables (``variant.decks``) for hand sizes up to 6, drawing first."""


@st.composite
def house_rules(draw: st.DrawFn) -> Rules:
    """Any combination of the switches, each field drawn on its own."""
    return Rules(
        name="house",
        decks=draw(st.sampled_from(DECK_TABLES)),
        hand_size=draw(st.sampled_from((5, 5, 4, 6))),
        draw_first=draw(st.booleans()),
        control=draw(st.sampled_from(Control)),
        joker_source=draw(st.sampled_from(JokerSource)),
        nine=draw(st.sampled_from(Nine)),
        face_values=draw(
            st.one_of(
                st.just((10, 10, 10)),
                st.just((11, 12, 13)),
                st.tuples(*[st.integers(1, 13)] * 3),
            )
        ),
        home_entry_compulsory=draw(st.booleans()),
        wait_on_in_spot=draw(st.booleans()),
        in_spot_occupied=draw(st.sampled_from(InSpotOccupied)),
        two_swap=draw(st.booleans()),
    )


rules_under_test = st.one_of(st.just(STANDARD), house_rules())
"""The standard preset or a random combination of switches."""


@st.composite
def made_positions(
    draw: st.DrawFn, rules: st.SearchStrategy[Rules] = rules_under_test
) -> GameState:
    """A random legal placement of pegs and a small hand for the seat to act, under
    ``rules``.

    Track holes are biased to in-spots, come-out holes and the holes just before a peg's
    own in-spot (chains, waiting, compulsory entry, swaps onto in-spots); some seats have
    all five pegs home, so that ``own_then_teammate`` hands control on. A hole already
    taken leaves the peg in start.
    """
    players = draw(st.sampled_from(PLAYER_COUNTS))
    length = 18 * players
    special = [18 * s + 3 for s in range(players)] + [18 * s + 8 for s in range(players)]
    used: set[int] = set()
    lines = [f"players: {players}"]
    for seat in range(players):
        homes = iter(draw(st.permutations(range(1, 6))))
        approach = [(18 * seat + 3 - back) % length for back in range(14)]
        locs = []
        kinds = draw(
            st.one_of(
                st.lists(st.sampled_from("sttth"), min_size=5, max_size=5),
                st.just("hhhhh"),
            )
        )
        for kind in kinds:
            if kind == "h":
                locs.append(f"h{next(homes)}")
            elif kind == "t":
                hole = draw(
                    st.one_of(
                        st.sampled_from(approach),
                        st.sampled_from(special),
                        st.integers(0, length - 1),
                    )
                )
                if hole not in used:
                    used.add(hole)
                    locs.append(str(hole))
        lines.append(f"pegs {seat}: {' '.join(locs)}")
    turn = draw(st.integers(0, players - 1))
    cards = [*Rank, Rank.TWO, Rank.SEVEN, Rank.NINE, Rank.EIGHT, Rank.JOKER]
    hand = draw(st.lists(st.sampled_from(cards), min_size=0, max_size=6))
    lines.append(f"turn: {turn}")
    lines.append(f"hand {turn}: {' '.join(r.symbol for r in hand)}")
    state = parse_position("\n".join(lines))
    return dataclasses.replace(state, rules=draw(rules))


def play(state: GameState, choices: list[int]) -> tuple[list[GameState], list[Move]]:
    """The game prefix that picks ``choices[i] % len(moves)`` each turn: every state (the
    first is ``state``) and the move made in each but the last."""
    states = [state]
    made: list[Move] = []
    for choice in choices:
        if state.winner is not None:
            break
        moves = legal_moves(state)
        made.append(moves[choice % len(moves)])
        state = apply(state, made[-1])
        states.append(state)
    return states, made
