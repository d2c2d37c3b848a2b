"""An independent, deliberately simple reference for legal-move generation (arizona preset).

Written straight from ``shared/design/rulings.md`` for clarity, not speed, and without
looking at the engine's move generator: paths are walked hole by hole, moves are tried on
plain copies of the board, and the parts of a split are carried out one after the other.
The tests compare the engine with it move for move (:func:`reference_legal_moves`) and
position for position (:func:`reference_result_pegs`).

Only the engine's value types (``GameState``, ``Play``, ``Step``, ...) are borrowed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pegs_rules import Discard, GameState, Move, Pass, Play, Rank, Step

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


FORWARD = {
    Rank.ACE: 1,
    Rank.TWO: 2,
    Rank.THREE: 3,
    Rank.FOUR: 4,
    Rank.FIVE: 5,
    Rank.SIX: 6,
    Rank.SEVEN: 7,
    Rank.NINE: 9,
    Rank.TEN: 10,
    Rank.JACK: 10,
    Rank.QUEEN: 10,
    Rank.KING: 10,
}
"""How far each card moves a peg forward (card.ace, card.number, card.face, 7, 9)."""
COME_OUT = (Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING)
SPLIT = (Rank.SEVEN, Rank.NINE)


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


# --- landing (move.landing, move.landing.in-spot) -----------------------------------------


def land(board: Board, peg: int, hole: int) -> bool:
    """Put the picked-up ``peg`` on track ``hole``, displacing as the rulings say.

    Returns False if the landing (and so the whole move) is illegal. The peg is put down
    first and the displaced peg relocated after, so a chain of team pegs that comes back
    to ``hole`` finds the mover there (another team colour: it goes on to its own
    in-spot). The one exception the ruling names: a team peg displaced from its own
    in-spot makes the move illegal.
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
    # a team peg goes to its own in-spot, which is itself a landing
    if in_spot(other_colour) == hole:
        return False  # it stands on its own in-spot: the whole move is illegal
    return land(board, other, in_spot(other_colour))


# --- where a peg can go -------------------------------------------------------------------


def home_lane_free(board: Board, seat: int, k: int) -> bool:
    """True if home 1..k of ``seat`` exist (k <= 5) and are all empty."""
    return k <= HOME_HOLES and all((seat, home(j)) not in board.homes for j in range(1, k + 1))


def forward_targets(board: Board, peg: int, n: int) -> list[int]:
    """Every hole the peg may end on moving ``n`` forward, before landing (move.forward).

    Checks blocking (own colour passed or landed on) and home entry; landing
    displacements are left to :func:`try_step`.
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
    out = []
    hole = loc
    left = n
    while left > 0:
        # move.home-entry: from the in-spot the next step is home 1; enter only if the
        # move ends in home and passes no peg there
        if hole == in_spot(seat) and home_lane_free(board, seat, left):
            out.append(home(left))
        hole = (hole + 1) % board.length
        left -= 1
        other = board.track.get(hole)
        if other is not None and board.colour[other] == seat:
            return out  # move.blocking: cannot pass or land here
    out.append(hole)
    return out


def backward_target(board: Board, peg: int) -> int | None:
    """Where an 8 takes the peg (card.eight), or None."""
    seat = board.colour[peg]
    loc = board.loc[peg]
    if not is_track(loc):
        return None
    hole = loc
    for _ in range(8):
        hole = (hole - 1) % board.length
        other = board.track.get(hole)
        if other is not None and board.colour[other] == seat:
            return None
    return hole


def try_step(board: Board, peg: int, dst: int) -> Board | None:
    """A copy of ``board`` with ``peg`` moved to ``dst`` (landing included), or None."""
    new = board.copy()
    new.take(peg)
    if is_home(dst):
        if (new.colour[peg], dst) in new.homes:
            return None
        new.put(peg, dst)
        return new
    if not land(new, peg, dst):
        return None
    return new


# --- plays ---------------------------------------------------------------------------------


def team_pegs(board: Board, seat_to_act: int) -> list[int]:
    """Every peg the seat to act may move (team.control, arizona)."""
    return [p for p in range(len(board.loc)) if team(board.colour[p]) == team(seat_to_act)]


def one_start_peg_per_colour(board: Board, pegs: list[int]) -> list[int]:
    """One representative peg (the lowest id) of each colour that has pegs in start."""
    seen: dict[int, int] = {}
    for p in pegs:
        if board.loc[p] == START and board.colour[p] not in seen:
            seen[board.colour[p]] = p
    return list(seen.values())


def plays_of(state: GameState, rank: Rank) -> dict[Play, tuple[tuple[int, ...], ...]]:
    """Every legal play of ``rank`` (ignoring must-play), with the pegs it leaves."""
    board = Board.from_state(state)
    mine = team_pegs(board, state.turn)
    found: dict[Play, tuple[tuple[int, ...], ...]] = {}

    def record(steps: tuple[Step, ...], after: Board) -> None:
        play = Play(rank, steps)
        assert play not in found or found[play] == after.pegs()
        found[play] = after.pegs()

    if rank in COME_OUT:  # card.come-out
        for p in one_start_peg_per_colour(board, mine):
            seat = board.colour[p]
            after = try_step(board, p, come_out(seat))
            if after is not None:
                record((Step(seat, START, come_out(seat)),), after)

    if rank in FORWARD:
        n = FORWARD[rank]
        for p in mine:
            for dst in forward_targets(board, p, n):
                after = try_step(board, p, dst)
                if after is not None:
                    record((Step(board.colour[p], board.loc[p], dst),), after)

    if rank in SPLIT:  # card.seven.split, card.nine
        total = FORWARD[rank]
        for a in range(1, total):
            for p1 in mine:
                for dst1 in forward_targets(board, p1, a):
                    mid = try_step(board, p1, dst1)
                    if mid is None:
                        continue
                    first = Step(board.colour[p1], board.loc[p1], dst1)
                    for p2 in mine:
                        if p2 == p1:
                            continue  # two distinct pegs
                        for dst2 in forward_targets(mid, p2, total - a):
                            after = try_step(mid, p2, dst2)
                            if after is not None:
                                second = Step(mid.colour[p2], mid.loc[p2], dst2)
                                record((first, second), after)

    if rank is Rank.EIGHT:
        for p in mine:
            dst8 = backward_target(board, p)
            if dst8 is not None:
                after = try_step(board, p, dst8)
                if after is not None:
                    record((Step(board.colour[p], board.loc[p], dst8),), after)

    if rank is Rank.JOKER:
        # card.joker.source (arizona): from a team start area while any holds a peg,
        # otherwise any team peg on the track
        starters = one_start_peg_per_colour(board, mine)
        sources = starters or [p for p in mine if is_track(board.loc[p])]
        for p in sources:
            for hole in sorted(board.track):
                if board.colour[board.track[hole]] == board.colour[p]:
                    continue  # the target must be another colour
                after = try_step(board, p, hole)
                if after is not None:
                    record((Step(board.colour[p], board.loc[p], hole),), after)

    # A split whose two orders leave the same position is listed once: the order that
    # sorts first.
    kept: dict[Play, tuple[tuple[int, ...], ...]] = {}
    for play, pegs in found.items():
        if len(play.steps) == 2:
            swapped = Play(rank, (play.steps[1], play.steps[0]))
            if found.get(swapped) == pegs and swapped.steps < play.steps:
                continue
        kept[play] = pegs
    return kept


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


def reference_result_pegs(state: GameState, move: Play) -> tuple[tuple[int, ...], ...]:
    """The pegs after carrying out ``move``'s steps in order, displacements included.

    Does not check that the move is legal beyond each single landing; raises
    ``ValueError`` if a step names no peg or a landing is impossible.
    """
    board = Board.from_state(state)
    for step in move.steps:
        candidates = [
            p
            for p in range(len(board.loc))
            if board.colour[p] == step.seat and board.loc[p] == step.src
        ]
        if not candidates:
            raise ValueError(f"no peg of seat {step.seat} at {step.src}")
        after = try_step(board, candidates[0], step.dst)
        if after is None:
            raise ValueError(f"step {step} cannot be carried out")
        board = after
    return board.pegs()
