"""An independent, deliberately simple reference for legal-move generation and turns.

Written straight from ``specs/rulings.md`` (both presets, ``arizona`` and
``standard``) and from the house-rule switches as the ruling ids ``variant.*`` describe
them, for clarity, not speed, and without looking at the engine's move generator: paths
are walked hole by hole, moves are tried on plain copies of the board, and the parts of a
split are carried out one after the other. The tests compare the engine with it move for
move (:func:`reference_legal_moves`), position for position (:func:`reference_result_pegs`)
and turn for turn (:func:`reference_turn`).

Only the engine's value types (``GameState``, ``Play``, ``Step``, the ``Rules`` object and
its enums) are borrowed. Every rule the reference reads from ``state.rules``:

* ``control`` (``team.control``): ``team`` - any team peg; ``own_then_teammate`` - the
  seat's own pegs until all five are home, then the first teammate clockwise (seat+2,
  seat+4, ...) with a peg outside home; come-outs only from the controlled start areas.
* ``joker_source`` (``card.joker.source``): ``team_start_first`` - from a start area the
  player may use while one holds a peg, else any movable track peg; ``any`` - any movable
  peg in start or on the track. Never a peg in home.
* ``nine`` (``card.nine``, ``variant.nine-split``): ``plain``; ``forward_forward`` (split
  like a 7); ``forward_backward`` (split: one part forward, the other backward like an 8 -
  a track peg, never into home; both orders).
* ``face_values`` (``variant.face-values``): J, Q, K forward counts.
* ``home_entry_compulsory``: a forward move of a peg by n that can end in home may not
  stay on the track (split parts too).
* ``wait_on_in_spot``: a peg standing on its own in-spot makes no forward move along the
  track, only into home. (Read as the rulings word it, "may not continue on the track":
  an 8, a backward 9 part, a joker or a swap may still take it away.)
* ``in_spot_occupied`` (``move.landing.in-spot``, ``variant.in-spot-occupied``): where a
  knocked team peg goes when its in-spot is held.
* ``two_swap``: a 2 may instead swap a movable track peg with a track peg of another
  colour (no blocking, nobody knocked), written ``2 c:p-q d:q-p``. A swap of two movable
  pegs could be written from either peg; it is one move, listed once with its steps in
  sorted order (like a split whose two orders leave the same position).
* ``draw_first``, ``hand_size`` (``turn.sequence``): in :func:`reference_turn`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pegs_rules import Discard, GameState, Move, Pass, Play, Rank, Step
from pegs_rules.rules import Control, InSpotOccupied, JokerSource, Nine, Rules

# --- geometry (board.geometry) -------------------------------------------------------------

SIDE = 18
PEGS = 5
HOME_HOLES = 5
START = -1
LIMBO = -2  # a peg picked up and not yet put down again (only inside a landing)


def home(k: int) -> int:
    """Location code of home hole ``k`` (1..5) of the peg's own colour."""
    assert 1 <= k <= HOME_HOLES
    return 1000 + k


def is_home(loc: int) -> bool:
    return 1001 <= loc <= 1000 + HOME_HOLES


def is_track(loc: int) -> bool:
    return 0 <= loc < 1000


def in_spot(seat: int) -> int:
    return SIDE * seat + 3


def come_out(seat: int) -> int:
    return SIDE * seat + 8


def team(seat: int) -> int:
    return seat % 2


NUMBERS = {
    Rank.ACE: 1,
    Rank.TWO: 2,
    Rank.THREE: 3,
    Rank.FOUR: 4,
    Rank.FIVE: 5,
    Rank.SIX: 6,
    Rank.SEVEN: 7,
    Rank.NINE: 9,
    Rank.TEN: 10,
}
"""How far the non-face cards move a peg forward (card.ace, card.number, 7, 9)."""
FACES = (Rank.JACK, Rank.QUEEN, Rank.KING)
COME_OUT = (Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING)


def forward_count(rank: Rank, rules: Rules) -> int | None:
    """How far ``rank`` moves one peg forward (card.face, variant.face-values), or None."""
    if rank in FACES:
        return rules.face_values[FACES.index(rank)]
    return NUMBERS.get(rank)


FWD = "forward"
BACK = "backward"


def split_kinds(rank: Rank, rules: Rules) -> list[tuple[str, str]]:
    """The directions (first part, second part) a split of ``rank`` may take."""
    if rank is Rank.SEVEN or (rank is Rank.NINE and rules.nine is Nine.FORWARD_FORWARD):
        return [(FWD, FWD)]
    if rank is Rank.NINE and rules.nine is Nine.FORWARD_BACKWARD:
        return [(FWD, BACK), (BACK, FWD)]
    return []


# --- the board: every peg has an id, a fixed colour and a location ----------------------


@dataclass
class Board:
    players: int
    colour: list[int]  # peg id -> seat (never changes)
    loc: list[int]  # peg id -> location
    track: dict[int, int] = field(default_factory=dict)  # track hole -> peg id
    homes: dict[tuple[int, int], int] = field(default_factory=dict)  # (seat, loc) -> peg id

    @staticmethod
    def from_state(state: GameState) -> Board:
        board = Board(len(state.pegs), [], [])
        for seat, locs in enumerate(state.pegs):
            for loc in locs:
                board.colour.append(seat)
                board.loc.append(LIMBO)
                board.put(len(board.loc) - 1, loc)
        return board

    @property
    def length(self) -> int:
        return SIDE * self.players

    def copy(self) -> Board:
        return Board(self.players, self.colour, list(self.loc), dict(self.track), dict(self.homes))

    def take(self, peg: int) -> None:
        """Pick ``peg`` up off whatever hole it is on."""
        loc = self.loc[peg]
        if is_track(loc):
            assert self.track[loc] == peg
            del self.track[loc]
        elif is_home(loc):
            assert self.homes[(self.colour[peg], loc)] == peg
            del self.homes[(self.colour[peg], loc)]
        self.loc[peg] = LIMBO

    def put(self, peg: int, loc: int) -> None:
        """Put a picked-up ``peg`` on an empty hole (or in its start area)."""
        assert self.loc[peg] == LIMBO
        if is_track(loc):
            assert loc not in self.track
            self.track[loc] = peg
        elif is_home(loc):
            assert (self.colour[peg], loc) not in self.homes
            self.homes[(self.colour[peg], loc)] = peg
        else:
            assert loc == START
        self.loc[peg] = loc

    def pegs(self) -> tuple[tuple[int, ...], ...]:
        """In the engine's form: for each seat, its sorted locations."""
        out: list[list[int]] = [[] for _ in range(self.players)]
        for peg, loc in enumerate(self.loc):
            assert loc != LIMBO
            out[self.colour[peg]].append(loc)
        return tuple(tuple(sorted(locs)) for locs in out)


# --- landing (move.landing, move.landing.in-spot, variant.in-spot-occupied) ---------------


def land(board: Board, peg: int, hole: int, policy: InSpotOccupied) -> bool:
    """Put the picked-up ``peg`` on track ``hole``, displacing as the rules say.

    Returns False if the landing (and so the whole move) is illegal. The peg is put down
    first and the displaced peg relocated after, so a chain of team pegs that comes back
    to ``hole`` finds the mover there.

    ``chain`` (the rulings): the knocked team peg lands on its own in-spot by the same
    rule (its own colour there - or it stood on that in-spot - is illegal; an opponent
    there goes to start; another team colour goes on). ``illegal``: any peg on that
    in-spot, or the knocked peg standing on it, makes the move illegal. ``to_start``: then
    the knocked peg goes to its start area and the occupant stays.
    """
    colour = board.colour[peg]
    other = board.track.get(hole)
    if other is None:
        board.put(peg, hole)
        return True
    other_colour = board.colour[other]
    if other_colour == colour:
        return False  # move.blocking: never land on your own colour
    board.take(other)
    board.put(peg, hole)
    if team(other_colour) != team(colour):
        board.put(other, START)  # an opponent goes back to its start area
        return True
    spot = in_spot(other_colour)  # a team peg goes to its own in-spot
    if policy is InSpotOccupied.CHAIN:
        if spot == hole:
            return False  # it stood on its own in-spot: the whole move is illegal
        return land(board, other, spot, policy)
    if spot != hole and spot not in board.track:
        board.put(other, spot)
        return True
    if policy is InSpotOccupied.ILLEGAL:
        return False
    board.put(other, START)  # to_start: the occupant stays
    return True


# --- where a peg can go -------------------------------------------------------------------


def home_lane_free(board: Board, seat: int, k: int) -> bool:
    """True if home 1..k of ``seat`` exist (k <= 5) and are all empty."""
    return k <= HOME_HOLES and all((seat, home(j)) not in board.homes for j in range(1, k + 1))


def forward_targets(board: Board, peg: int, n: int, rules: Rules) -> list[int]:
    """Every hole the peg may end on moving ``n`` forward, before landing (move.forward).

    Checks blocking (own colour passed or landed on), home entry, and the switches
    ``home_entry_compulsory`` and ``wait_on_in_spot``; landing displacements are left to
    :func:`try_step`.
    """
    seat = board.colour[peg]
    loc = board.loc[peg]
    if loc == START:
        return []
    if is_home(loc):  # move.in-home
        k = loc - 1000
        if k + n > HOME_HOLES:
            return []
        for j in range(k + 1, k + n + 1):
            if (seat, home(j)) in board.homes:
                return []
        return [home(k + n)]
    homes: list[int] = []
    track: list[int] = []
    hole = loc
    left = n
    while True:
        # move.home-entry: from the in-spot the next step is home 1; enter only if the
        # move ends in home and passes no peg there
        if hole == in_spot(seat) and left > 0 and home_lane_free(board, seat, left):
            homes.append(home(left))
        if left == 0:
            track.append(hole)
            break
        hole = (hole + 1) % board.length
        left -= 1
        other = board.track.get(hole)
        if other is not None and board.colour[other] == seat:
            break  # move.blocking: cannot pass or land here
    if rules.wait_on_in_spot and loc == in_spot(seat):
        track = []  # variant.wait-on-in-spot: only into home
    if rules.home_entry_compulsory and homes:
        track = []  # variant.home-entry-compulsory
    return track + homes


def backward_target(board: Board, peg: int, n: int) -> int | None:
    """Where ``n`` holes backwards take a track peg (card.eight, 9 split backward), or None."""
    seat = board.colour[peg]
    loc = board.loc[peg]
    if not is_track(loc):
        return None
    hole = loc
    for _ in range(n):
        hole = (hole - 1) % board.length
        other = board.track.get(hole)
        if other is not None and board.colour[other] == seat:
            return None
    return hole


def targets(board: Board, peg: int, n: int, direction: str, rules: Rules) -> list[int]:
    if direction == FWD:
        return forward_targets(board, peg, n, rules)
    back = backward_target(board, peg, n)
    return [] if back is None else [back]


def try_step(board: Board, peg: int, dst: int, rules: Rules) -> Board | None:
    """A copy of ``board`` with ``peg`` moved to ``dst`` (landing included), or None."""
    new = board.copy()
    new.take(peg)
    if is_home(dst):
        if (new.colour[peg], dst) in new.homes:
            return None
        new.put(peg, dst)
        return new
    if not land(new, peg, dst, rules.in_spot_occupied):
        return None
    return new


def swapped(board: Board, peg: int, other: int) -> Board:
    """A copy of ``board`` with two track pegs exchanged (variant.two-swap)."""
    new = board.copy()
    a, b = new.loc[peg], new.loc[other]
    new.take(peg)
    new.take(other)
    new.put(peg, b)
    new.put(other, a)
    return new


# --- plays ---------------------------------------------------------------------------------


def controlled_seats(state: GameState) -> list[int]:
    """The seats whose pegs the seat to act may move (team.control)."""
    seat, players = state.turn, len(state.pegs)
    if state.rules.control is Control.TEAM:
        return [s for s in range(players) if team(s) == team(seat)]
    for k in range(players // 2):  # own_then_teammate: seat, seat+2, seat+4, ...
        candidate = (seat + 2 * k) % players
        if any(not is_home(loc) for loc in state.pegs[candidate]):
            return [candidate]
    return [seat]


def movable_pegs(board: Board, state: GameState) -> list[int]:
    seats = controlled_seats(state)
    return [p for p in range(len(board.loc)) if board.colour[p] in seats]


def one_start_peg_per_colour(board: Board, pegs: list[int]) -> list[int]:
    """One representative peg (the lowest id) of each colour that has pegs in start."""
    seen: dict[int, int] = {}
    for p in pegs:
        if board.loc[p] == START and board.colour[p] not in seen:
            seen[board.colour[p]] = p
    return list(seen.values())


def plays_of(state: GameState, rank: Rank) -> dict[Play, tuple[tuple[int, ...], ...]]:
    """Every legal play of ``rank`` (ignoring must-play), with the pegs it leaves."""
    return plays_and_other_orders(state, rank)[0]


def plays_and_other_orders(
    state: GameState, rank: Rank
) -> tuple[dict[Play, tuple[tuple[int, ...], ...]], dict[Play, Play]]:
    """:func:`plays_of`, and each two-step play left out as the other order of a listed one
    (with the same result), mapped to that listed play."""
    rules = state.rules
    board = Board.from_state(state)
    mine = movable_pegs(board, state)
    found: dict[Play, tuple[tuple[int, ...], ...]] = {}

    def record(steps: tuple[Step, ...], after: Board) -> None:
        play = Play(rank, steps)
        assert play not in found or found[play] == after.pegs()
        found[play] = after.pegs()

    def step_of(b: Board, peg: int, dst: int) -> Step:
        return Step(b.colour[peg], b.loc[peg], dst)

    if rank in COME_OUT:  # card.come-out
        for p in one_start_peg_per_colour(board, mine):
            seat = board.colour[p]
            after = try_step(board, p, come_out(seat), rules)
            if after is not None:
                record((Step(seat, START, come_out(seat)),), after)

    n = forward_count(rank, rules)
    if n is not None:
        for p in mine:
            for dst in forward_targets(board, p, n, rules):
                after = try_step(board, p, dst, rules)
                if after is not None:
                    record((step_of(board, p, dst),), after)

        # card.seven.split, card.nine, variant.nine-split
        for first_way, second_way in split_kinds(rank, rules):
            for a in range(1, n):
                for p1 in mine:
                    for dst1 in targets(board, p1, a, first_way, rules):
                        mid = try_step(board, p1, dst1, rules)
                        if mid is None:
                            continue
                        first = step_of(board, p1, dst1)
                        for p2 in mine:
                            if p2 == p1:
                                continue  # two distinct pegs
                            for dst2 in targets(mid, p2, n - a, second_way, rules):
                                after = try_step(mid, p2, dst2, rules)
                                if after is not None:
                                    record((first, step_of(mid, p2, dst2)), after)

    if rank is Rank.TWO and rules.two_swap:  # variant.two-swap
        for p in mine:
            if not is_track(board.loc[p]):
                continue
            for q in range(len(board.loc)):
                if is_track(board.loc[q]) and board.colour[q] != board.colour[p]:
                    record(
                        (step_of(board, p, board.loc[q]), step_of(board, q, board.loc[p])),
                        swapped(board, p, q),
                    )

    if rank is Rank.EIGHT:  # card.eight
        for p in mine:
            dst8 = backward_target(board, p, 8)
            if dst8 is not None:
                after = try_step(board, p, dst8, rules)
                if after is not None:
                    record((step_of(board, p, dst8),), after)

    if rank is Rank.JOKER:  # card.joker, card.joker.source
        starters = one_start_peg_per_colour(board, mine)
        on_track = [p for p in mine if is_track(board.loc[p])]
        if rules.joker_source is JokerSource.ANY:
            sources = starters + on_track
        else:  # from a start area while one holds a peg, else from the track
            sources = starters or on_track
        for p in sources:
            for hole in sorted(board.track):
                if board.colour[board.track[hole]] == board.colour[p]:
                    continue  # the target must be another colour
                after = try_step(board, p, hole, rules)
                if after is not None:
                    record((step_of(board, p, hole),), after)

    # A split whose two orders leave the same position is one move, listed in the order
    # that sorts first; so is a swap of two movable pegs, written from either peg.
    kept: dict[Play, tuple[tuple[int, ...], ...]] = {}
    dropped: dict[Play, Play] = {}
    for play, pegs in found.items():
        if len(play.steps) == 2:
            other = Play(rank, (play.steps[1], play.steps[0]))
            if found.get(other) == pegs and other.steps < play.steps:
                dropped[play] = other
                continue
        kept[play] = pegs
    return kept, dropped


def reference_other_orders(state: GameState) -> dict[Play, Play]:
    """Every play left out as a listed play written the other way round, mapped to it: a split
    in its other order with the same result (``card.seven.split.order``), a swap of two movable
    pegs written from the other peg (``variant.two-swap.order``)."""
    if state.winner is not None:
        return {}
    out: dict[Play, Play] = {}
    for rank in sorted(set(state.hands[state.turn])):
        out |= plays_and_other_orders(state, rank)[1]
    return out


def reference_legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every legal move of the seat to act, in the engine's documented order."""
    if state.winner is not None:
        return ()
    hand = state.hands[state.turn]
    if not hand:
        return (Pass(),)
    ranks = sorted(set(hand))
    plays: list[Play] = []
    playable_non_joker = False
    for rank in ranks:
        mine = sorted(plays_of(state, rank), key=lambda play: play.steps)
        plays += mine
        if mine and rank is not Rank.JOKER:
            playable_non_joker = True
    if playable_non_joker:  # turn.must-play
        return tuple(plays)
    # turn.discard: only joker plays can be left here
    assert all(p.card is Rank.JOKER for p in plays)
    return (*plays, *(Discard(rank) for rank in ranks))


def is_swap(state: GameState, move: Play) -> bool:
    """A two-step 2 under ``two_swap`` is a swap (a 2 never splits)."""
    return move.card is Rank.TWO and state.rules.two_swap and len(move.steps) == 2


def reference_result_pegs(state: GameState, move: Play) -> tuple[tuple[int, ...], ...]:
    """The pegs after carrying out ``move``'s steps in order, displacements included.

    Does not check that the move is legal beyond each single landing; raises
    ``ValueError`` if a step names no peg or a landing is impossible.
    """
    board = Board.from_state(state)

    def peg_at(seat: int, loc: int) -> int:
        for p in range(len(board.loc)):
            if board.colour[p] == seat and board.loc[p] == loc:
                return p
        raise ValueError(f"no peg of seat {seat} at {loc}")

    if is_swap(state, move):
        first, second = move.steps
        return swapped(board, peg_at(first.seat, first.src), peg_at(second.seat, second.src)).pegs()
    for step in move.steps:
        after = try_step(board, peg_at(step.seat, step.src), step.dst, state.rules)
        if after is None:
            raise ValueError(f"step {step} cannot be carried out")
        board = after
    return board.pegs()


# --- a whole turn (turn.sequence, turn.reshuffle, game.end) -------------------------------


@dataclass(frozen=True)
class Turn:
    """What a turn leaves. ``hands``, ``draw_pile`` and ``discard_pile`` are None when a
    reshuffle was due (its order is the engine's business); ``hand_sizes`` always holds."""

    pegs: tuple[tuple[int, ...], ...]
    turn: int | None  # None once the game is won (no next turn)
    winner: int | None
    hand_sizes: tuple[int, ...]
    hands: tuple[tuple[Rank, ...], ...] | None
    draw_pile: tuple[Rank, ...] | None
    discard_pile: tuple[Rank, ...] | None
    cards: Counter[Rank]


def reference_turn(state: GameState, move: Move) -> Turn:
    """The turn after the (legal) ``move``: play or discard, then the draw.

    Arizona: the seat that acted draws back up to ``hand_size``. ``draw_first``
    (standard): nobody draws at the end of the turn; the next seat draws up to
    ``hand_size + 1`` before it acts. The move that leaves a team all home ends the
    game at once: nothing is drawn.
    """
    seat = state.turn
    players = len(state.pegs)
    rules = state.rules
    pegs = reference_result_pegs(state, move) if isinstance(move, Play) else state.pegs
    hands = [list(h) for h in state.hands]
    draw = list(state.draw_pile)
    discard = list(state.discard_pile)
    cards = Counter(c for h in state.hands for c in h) + Counter(draw) + Counter(discard)
    if isinstance(move, Play | Discard):
        hands[seat].remove(move.card)
        discard.append(move.card)
    winner = None
    if isinstance(move, Play) and all(
        is_home(loc) for s in range(players) if team(s) == team(seat) for loc in pegs[s]
    ):
        winner = team(seat)
    exact = True
    if winner is None:
        drawer = (seat + 1) % players if rules.draw_first else seat
        want = rules.hand_size + (1 if rules.draw_first else 0)
        need = max(0, want - len(hands[drawer]))
        if need <= len(draw):
            hands[drawer] += draw[:need]
            draw = draw[need:]
        else:  # turn.reshuffle: the whole discard pile becomes the draw pile
            exact = False
            got = min(need, len(draw) + len(discard))
            hands[drawer] += [Rank.JOKER] * got  # placeholders: only the size is known
    sizes = tuple(len(h) for h in hands)
    return Turn(
        pegs=pegs,
        turn=None if winner is not None else (seat + 1) % players,
        winner=winner,
        hand_sizes=sizes,
        hands=tuple(tuple(sorted(h)) for h in hands) if exact else None,
        draw_pile=tuple(draw) if exact else None,
        discard_pile=tuple(discard) if exact else None,
        cards=cards,
    )


def check_turn(state: GameState, move: Move, after: GameState) -> None:
    """Assert that the engine's ``after`` is what :func:`reference_turn` says."""
    want = reference_turn(state, move)
    where = f"{move} in\n{state}\nengine gave\n{after}"
    assert after.pegs == want.pegs, where
    assert after.winner == want.winner, where
    if want.turn is not None:
        assert after.turn == want.turn, where
    assert tuple(len(h) for h in after.hands) == want.hand_sizes, where
    if want.hands is not None:
        assert after.hands == want.hands, where
        assert after.draw_pile == want.draw_pile, where
        assert after.discard_pile == want.discard_pile, where
    held = Counter(c for h in after.hands for c in h)
    assert held + Counter(after.draw_pile) + Counter(after.discard_pile) == want.cards, where


# --- comparing the engine with the reference -----------------------------------------------


def assert_agree(state: GameState, *, results: bool = True) -> None:
    """Engine and reference list the same moves in the same order (and, if ``results``,
    every play leaves the same pegs)."""
    from pegs_rules import apply, legal_moves  # the engine under test (only here)

    engine = legal_moves(state)
    reference = reference_legal_moves(state)
    if engine != reference:
        only_engine = [str(m) for m in engine if m not in reference]
        only_reference = [str(m) for m in reference if m not in engine]
        pairs = enumerate(zip(engine, reference, strict=False))
        first = next((i for i, (a, b) in pairs if a != b), min(len(engine), len(reference)))
        raise AssertionError(
            f"legal moves differ in\n{state}\n"
            f"engine only: {only_engine}\nreference only: {only_reference}\n"
            f"{len(engine)} engine moves, {len(reference)} reference moves; first difference "
            f"at index {first}: engine {[str(m) for m in engine[first : first + 3]]}, "
            f"reference {[str(m) for m in reference[first : first + 3]]}"
        )
    if results:
        for move in engine:
            if isinstance(move, Play):
                got = apply(state, move).pegs
                want = reference_result_pegs(state, move)
                assert got == want, f"{move} in\n{state}\nengine: {got}\nreference: {want}"
