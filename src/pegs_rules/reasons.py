"""Why a move is illegal: the rule id that forbids it and a sentence.

:func:`explain` gives the verdict on any move; :func:`why_illegal` replays a
move step by step on a working copy of the board and reports the first rule
it breaks. The legal-move list stays the one authority on legality; the
reasons are the ones :class:`~pegs_rules.errors.IllegalMoveError` carries.

>>> from pegs_rules import parse_position, parse_notation
>>> state = parse_position('''
... pegs 0: 70
... hand 0: 7
... ''')
>>> print(explain(state, parse_notation("7 0:70-6")))
[card.seven] a 7 moves a peg exactly 7 holes forward
>>> explain(state, parse_notation("7 0:70-h2")).legal
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pegs_rules.board import START, Location, is_home, is_track, location_name, team_of
from pegs_rules.cards import COME_OUT_RANKS, Rank
from pegs_rules.errors import PegsError
from pegs_rules.movegen import forward_steps, hand_plays, legal_moves, movable_seats, splits
from pegs_rules.moves import Discard, Pass, Play, Step
from pegs_rules.rules import InSpotOccupied, JokerSource, Nine
from pegs_rules.state import GameState
from pegs_rules.validate import reraise
from pegs_rules.workboard import Tables, WorkBoard, tables

_CARD_RULE = {Rank.ACE: "card.ace", Rank.SEVEN: "card.seven", Rank.EIGHT: "card.eight"}
_CARD_RULE |= {Rank.NINE: "card.nine", Rank.JOKER: "card.joker"}
_CARD_RULE |= {r: "card.face" for r in (Rank.JACK, Rank.QUEEN, Rank.KING)}

Reason = tuple[str, str]
"""A rule id and a sentence."""


def card_rule(rank: Rank) -> str:
    """The rule id that gives ``rank`` its meaning."""
    return _CARD_RULE.get(rank, "card.number")


def split_rule(rank: Rank) -> str:
    """The rule id of splitting ``rank``."""
    return "card.seven.split" if rank is Rank.SEVEN else card_rule(rank)


def why_illegal(state: GameState, move: object) -> Reason:
    """The first rule ``move`` breaks in ``state``, as ``(rule id, sentence)``."""
    if not isinstance(move, (Play, Discard, Pass)):
        return "turn.sequence", f"not a move: {move!r}"
    if state.winner is not None:
        return "game.end", f"the game is over: team {state.winner} has won"
    seat = state.turn
    hand = state.hands[seat]
    if isinstance(move, Pass):
        return "turn.discard", f"seat {seat} holds cards, so it must play or discard, not pass"
    if not isinstance(move.card, Rank):
        return "turn.sequence", f"not a card: {move.card!r}"
    if move.card not in hand:
        return "turn.sequence", f"seat {seat} holds no {move.card.symbol}"
    if isinstance(move, Discard):
        playable = [r for r, plays in hand_plays(state).items() if plays and r is not Rank.JOKER]
        cards = ", ".join(r.symbol for r in playable)
        return (
            "turn.must-play",
            f"seat {seat} must play a card that can move ({cards}), not discard",
        )
    steps = move.steps
    if not isinstance(steps, tuple) or not all(_is_step(s) for s in steps):
        return "turn.sequence", f"steps must be a tuple of (seat, from, to) integers, not {steps!r}"
    return _why_play(state, move.card, tuple(Step(*s) for s in steps))


def _is_step(step: object) -> bool:
    return (
        isinstance(step, tuple)
        and len(step) == 3
        and all(isinstance(x, int) and not isinstance(x, bool) for x in step)
    )


def _why_play(state: GameState, rank: Rank, steps: tuple[Step, ...]) -> Reason:
    work = WorkBoard(tables(state.players), state.pegs, team_of(state.turn), state.rules)
    if rank is Rank.TWO and state.rules.two_swap and len(steps) == 2:
        return _why_swap(state, work, steps)
    reason = _carry_out_parts(state, work, rank, steps)
    if reason is not None:
        return reason
    return (
        "turn.sequence",
        "not a legal move",
    )  # pragma: no cover - a play whose parts are all legal is listed, or is the other order


def _carry_out_parts(
    state: GameState, work: WorkBoard, rank: Rank, steps: tuple[Step, ...]
) -> Reason | None:
    """Judge the steps of a play one after the other on ``work``, carrying each out.

    The first rule a step breaks, or ``None`` once every step is carried out.
    """
    seat = state.turn
    board = state.board
    t = work.t
    rules = state.rules
    split = splits(rank, rules)
    if not steps or len(steps) > 2 or (len(steps) == 2 and not split):
        return card_rule(rank), f"a {rank.symbol} moves one peg" + (
            " or splits over two" if split else ""
        )
    total = forward_steps(rank, rules)
    counts: list[int] = []
    backward: list[bool] = []
    movable = movable_seats(state)
    for index, (mover, src, dst) in enumerate(steps):
        if not 0 <= mover < state.players:
            return "board.sides", f"there is no seat {mover}"
        if not (board.is_valid_location(src) and board.is_valid_location(dst)):
            return "board.geometry", f"no such hole on a {state.players}-seat board"
        if mover not in movable:
            seats = ", ".join(map(str, movable))
            return "team.control", f"seat {seat} may move only the pegs of seat(s) {seats}"
        if src == START and not work.start[mover]:
            return "board.pegs", f"seat {mover} has no peg in its start area"
        if src != START and not work.mask[mover] & t.bit[src]:
            return "board.pegs", f"no peg of seat {mover} on {location_name(src)}"
        if len(steps) == 2:
            if src == START:
                return split_rule(rank), "a split part cannot bring a peg out"
            if index == 1 and steps[0].seat == mover and steps[0].dst == src:
                return split_rule(rank), "a split moves two different pegs"
        step = Step(mover, src, dst)
        reason = _why_step(state, work, rank, step, total, len(steps), counts, backward)
        if reason is not None:
            return reason
        if work.move(mover, src, dst) is None:
            if rules.in_spot_occupied is InSpotOccupied.ILLEGAL:
                return (
                    "variant.in-spot-occupied",
                    "the team peg knocked off would go to its in-spot, which is held",
                )
            return (
                "move.landing.in-spot",
                "the team peg knocked off would go to its in-spot, where a peg of its colour stands",
            )
    return None


def other_writing(state: GameState, move: object) -> tuple[Play, Sequence[Step]] | None:
    """The listed move that ``move`` writes the other way round, with its changes.

    ``card.seven.split.order``: a split whose two orders leave the same
    position is one move, listed once; the other order is accepted as that
    move. ``variant.two-swap.order``: a swap of two pegs the player may both
    move is one move, listed once with the step of the lower seat's peg
    first; written from the other peg it is accepted as that move. Returns
    the listed play and its changes, or ``None`` when ``move`` is no such
    other writing. Not on the hot path: callers ask only about a move they
    did not find listed.

    >>> from pegs_rules import parse_position, parse_notation
    >>> state = parse_position('''
    ... pegs 0: 10 30
    ... hand 0: 7
    ... ''')
    >>> listed, changes = other_writing(state, parse_notation("7 0:30-34 0:10-13"))
    >>> str(listed)
    '7 0:10-13 0:30-34'
    >>> state = parse_position('''
    ... rule two_swap: true
    ... pegs 0: 10
    ... pegs 2: 30
    ... hand 0: 2
    ... ''')
    >>> listed, changes = other_writing(state, parse_notation("2 2:30-10 0:10-30"))
    >>> str(listed)
    '2 0:10-30 2:30-10'
    """
    if not (isinstance(move, Play) and isinstance(move.steps, tuple) and len(move.steps) == 2):
        return None
    rank = move.card
    if state.winner is not None or not isinstance(rank, Rank):
        return None
    swap = rank is Rank.TWO and state.rules.two_swap
    if not (swap or splits(rank, state.rules)):
        return None
    if rank not in state.hands[state.turn] or not all(_is_step(s) for s in move.steps):
        return None
    first, second = (Step(*s) for s in move.steps)
    listed = Play(rank, (second, first))
    changes = next((c for p, c in hand_plays(state)[rank] if p == listed), None)
    if changes is None:
        return None
    if swap:  # the same two pegs trade holes: what matters is who may write the first step
        return (listed, changes) if first.seat in movable_seats(state) else None
    team = team_of(state.turn)
    work = WorkBoard(tables(state.players), state.pegs, team, state.rules)
    if _carry_out_parts(state, work, rank, (first, second)) is not None:
        return None
    listed_result = WorkBoard(work.t, state.pegs, team, state.rules)
    listed_result.perform(changes)
    if (listed_result.mask, listed_result.start) != (work.mask, work.start):
        return None  # pragma: no cover - an order with a result of its own is listed itself
    return listed, changes


def _why_step(
    state: GameState,
    work: WorkBoard,
    rank: Rank,
    step: Step,
    total: int,
    parts: int,
    counts: list[int],
    backward: list[bool],
) -> Reason | None:
    """The rule one step breaks on the working board, or ``None``."""
    t = tables(state.players)
    rules = state.rules
    mover, src, dst = step
    seats = movable_seats(state)
    where = location_name(dst)
    if rank is Rank.JOKER:
        if is_home(src):
            return "card.joker.source", "a joker never moves a peg that is home"
        restricted = rules.joker_source is JokerSource.TEAM_START_FIRST
        if restricted and src != START and any(work.start[s] for s in seats):
            return (
                "card.joker.source",
                "while a team start area holds a peg, a joker moves a peg from one",
            )
        target = work.at.get(dst) if not is_home(dst) and dst != START else None
        if target is None:
            return "card.joker", "a joker lands only on a track hole held by another peg"
        if target == mover:
            return "card.joker", "a joker cannot land on a peg of the moving peg's colour"
        return None
    if rank is Rank.EIGHT and src == START:
        return "card.eight", "an 8 cannot move a peg in a start area"
    if src == START:
        if rank not in COME_OUT_RANKS:
            return "card.come-out", "only an A, J, Q, K or a joker brings a peg out of a start area"
        if dst != t.come_out[mover]:
            return (
                "card.come-out",
                f"a peg coming out goes to its come-out hole {t.come_out[mover]}",
            )
        if work.at.get(dst) == mover:
            return "move.blocking", f"a peg of the same colour already stands on {where}"
        return None
    if rank is Rank.EIGHT:
        if is_home(src):
            return "card.eight", "an 8 cannot move a peg in home"
        target, passed = t.back[src][8]
        if dst != target:
            return "card.eight", f"an 8 moves a track peg exactly 8 holes back, to {target}"
        if passed & work.mask[mover]:
            return "move.blocking", "a peg may not pass or land on a peg of its own colour"
        return None
    paths = _forward_paths(t, mover, src)
    if parts == 2:
        want = total - counts[0] if counts else None
        if rank is Rank.NINE and rules.nine is Nine.FORWARD_BACKWARD and not any(backward):
            reach = [n for n in range(1, total) if is_track(src) and t.back[src][n][0] == dst]
            if reach and (want is None or want in reach):
                count = want if want is not None else reach[0]
                counts.append(count)
                backward.append(True)
                if t.back[src][count][1] & work.mask[mover]:
                    return "move.blocking", "a peg may not pass or land on a peg of its own colour"
                return None
            if counts and not any(backward):
                return "variant.nine-split", "one part of this 9 split goes forward, one backward"
        fits = [n for n in range(1, total) if _path_to(paths, n, dst)]
        if not fits or (want is not None and want not in fits):
            return split_rule(rank), f"the two parts of a split are moves totalling {total}"
        count = want if want is not None else fits[0]
        counts.append(count)
        backward.append(False)
    else:
        count = total
    path = _path_to(paths, count, dst)
    if path is None:
        if is_home(src):
            return (
                "move.in-home",
                f"a peg in home moves exactly {count} holes forward, never out of home",
            )
        if is_home(dst):
            return (
                "move.home-entry",
                "a peg enters home only if the count ends exactly on a home hole",
            )
        return card_rule(rank), f"a {rank.symbol} moves a peg exactly {count} holes forward"
    blockers = path[1] & work.mask[mover]
    if blockers:
        if is_home(src):
            return "move.in-home", "a peg in home may not pass or land on another peg"
        if blockers >> t.length:
            return "move.home-entry", "a peg enters home only past and onto empty home holes"
        return "move.blocking", "a peg may not pass or land on a peg of its own colour"
    if is_track(dst) and dst not in work.forward(mover, src, count):
        if rules.wait_on_in_spot and src == t.in_spot[mover]:
            return "variant.wait-on-in-spot", "a peg on its own in-spot may only go into home"
        return "variant.home-entry-compulsory", "a peg that can enter home must"
    return None


def _why_swap(state: GameState, work: WorkBoard, steps: tuple[Step, ...]) -> Reason:
    """``variant.two-swap``: a 2 may swap a movable track peg with a track peg of another colour."""
    (mover, src, dst), (other, back_src, back_dst) = steps
    if mover not in movable_seats(state) and other in movable_seats(state):
        return "variant.two-swap", "write the step of the peg the player moves first"
    if mover not in movable_seats(state):
        return "team.control", f"seat {state.turn} may not move seat {mover}'s pegs"
    fits = (
        is_track(src)
        and is_track(dst)
        and work.at.get(src) == mover
        and work.at.get(dst) == other != mover
        and (back_src, back_dst) == (dst, src)
    )
    if not fits:
        return (
            "variant.two-swap",
            "a 2 swaps a movable track peg with a track peg of another colour",
        )
    return (
        "turn.sequence",
        "not a legal move",
    )  # pragma: no cover - a fitting swap is listed, or is a listed one written the other way


def _forward_paths(
    t: Tables, mover: int, src: Location
) -> list[tuple[tuple[Location, int] | None, ...]]:
    """Forward paths of a peg by count: its home lane, or the track and the way home."""
    if is_home(src):
        return [t.lane[src]]
    return [t.track[src], t.entry[mover][src]]


def _path_to(
    paths: list[tuple[tuple[Location, int] | None, ...]], n: int, dst: Location
) -> tuple[Location, int] | None:
    """The ``n``-step path among ``paths`` that ends on ``dst``, if any."""
    for row in paths:
        path = row[n]
        if path is not None and path[0] == dst:
            return path
    return None


@dataclass(frozen=True, slots=True)
class Explanation:
    """The verdict on one move.

    Attributes:
        legal: whether the move is among :func:`~pegs_rules.legal_moves`.
        rule: the id of the ruling that forbids it, ``None`` when legal.
        reason: one sentence.
    """

    legal: bool
    rule: str | None
    reason: str

    def __str__(self) -> str:
        return self.reason if self.rule is None else f"[{self.rule}] {self.reason}"


def explain(state: GameState, move: object) -> Explanation:
    """Whether the seat to act may make ``move`` in ``state``, and if not, why.

    ``move`` may be any object; anything that is not a legal move gets the
    rule that :func:`~pegs_rules.apply` would reject it with. A listed move
    written the other way round is legal: it is that move (a split in its
    other order with the same result, ``card.seven.split.order``; a swap of
    two movable pegs written from the other peg, ``variant.two-swap.order``).
    A state the engine cannot work on raises
    :class:`~pegs_rules.errors.PositionError` (see :func:`~pegs_rules.validate`).
    """
    if not isinstance(state, GameState):
        raise PegsError(f"not a game state: {type(state).__name__}")
    moves = legal_moves(state)
    try:
        legal = move in moves
    except TypeError:  # an object whose comparison fails is no move
        legal = False
    if legal:
        return Explanation(True, None, f"{move} is a legal move for seat {state.turn}")
    try:
        same = other_writing(state, move)
        if same is not None:
            listed = same[0]
            if listed.card is Rank.TWO:
                how = "written from the other peg (variant.two-swap.order)"
            else:
                how = "in the other order, with the same result (card.seven.split.order)"
            return Explanation(True, None, f"{move} is the legal move {listed} {how}")
        rule, reason = why_illegal(state, move)
    except Exception as error:
        reraise(state, error)
    return Explanation(False, rule, reason)
