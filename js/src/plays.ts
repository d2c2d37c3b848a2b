/**
 * Every legal play of a card, found on a {@link WorkBoard}: the move generator's engine room.
 *
 * Plays are keyed so that keys sort as `legalMoves` lists plays: a one-step play of change `c`
 * is `c * K`, a two-step play of `c` then `d` is `c * K + d + 1` (`K` one more than any change
 * code). Each play maps to its changes in the order they happen, landings included (the first
 * change of each part is the step the player writes).
 *
 * @module
 */
import { ACE, EIGHT, JACK, JOKER, KING, NINE, SEVEN, TWO, type Rank } from "./cards.js";
import type { Rules } from "./rules.js";
import type { WorkBoard } from "./workboard.js";

/** Plays by key, each with its changes. */
export type PlayMap = Map<number, number[]>;

/** How far `rank` moves a peg forward: 0 for the 8 and the joker (`card.*`). */
export function forwardSteps(rank: Rank, rules: Rules): number {
  if (rank >= JACK && rank <= KING) return rules.faceValues[rank - JACK] as number;
  return rank === EIGHT || rank === JOKER ? 0 : rank;
}

/** Whether `rank` may be split over two pegs (`card.seven.split`, `card.nine`). */
export function splits(rank: Rank, rules: Rules): boolean {
  return rank === SEVEN || (rank === NINE && rules.nine !== "plain");
}

const scratch = new Int32Array(2);

/** Add the one-step play of a peg of `seat` from `from` to `to`, if its landing allows. */
function addSingle(board: WorkBoard, seat: number, from: number, to: number, out: PlayMap): void {
  const g = board.g;
  if (to > g.length || (board.at[to] as number) < 0) {
    const code = g.code(seat, from, to);
    out.set(code * g.key, [code]);
    return;
  }
  const changes = board.resolve(seat, from, to);
  if (changes !== null) out.set((changes[0] as number) * g.key, changes);
}

/**
 * Every legal play of a card of `rank` that moves pegs of `seats` (the seats the player may
 * move, `team.control`), by key; `pairs: false` leaves out splits and swaps.
 */
export function cardPlays(
  board: WorkBoard,
  seats: readonly number[],
  rank: Rank,
  rules: Rules,
  pairs = true,
): PlayMap {
  const out: PlayMap = new Map();
  const g = board.g;
  const pegs = board.pegs;
  if (rank === ACE || (rank >= JACK && rank <= KING)) {
    for (const seat of seats) {
      const spot = g.comeOut[seat] as number; // card.come-out
      if ((board.start[seat] as number) > 0 && board.at[spot] !== seat) {
        addSingle(board, seat, 0, spot, out);
      }
    }
  }
  const steps = forwardSteps(rank, rules);
  if (steps > 0) {
    for (const seat of seats) {
      for (let i = 5 * seat; i < 5 * seat + 5; i++) {
        const from = pegs[i] as number;
        if (from === 0) continue;
        const count = board.forward(seat, from, steps, scratch);
        const first = scratch[0] as number;
        const second = scratch[1] as number;
        if (count > 0) addSingle(board, seat, from, first, out);
        if (count > 1) addSingle(board, seat, from, second, out);
      }
    }
    if (pairs && splits(rank, rules)) {
      new Splits(board, seats, steps, rank === NINE && rules.nine === "forward_backward", out).run();
    }
    if (pairs && rank === TWO && rules.twoSwap) swaps(board, seats, out);
  } else if (rank === EIGHT) {
    for (const seat of seats) {
      for (let i = 5 * seat; i < 5 * seat + 5; i++) {
        const from = pegs[i] as number;
        const to = board.backward(seat, from, 8);
        if (to) addSingle(board, seat, from, to, out);
      }
    }
  } else if (rank === JOKER) {
    jokers(board, seats, rules.jokerSource === "any", out);
  }
  return out;
}

/** `card.joker`, `card.joker.source`: a peg jumps onto a track hole held by another colour. */
function jokers(board: WorkBoard, seats: readonly number[], any: boolean, out: PlayMap): void {
  const length = board.g.length;
  const sources: number[] = []; // pairs of seat and slot
  for (const seat of seats) if ((board.start[seat] as number) > 0) sources.push(seat, 0);
  if (any || sources.length === 0) {
    for (const seat of seats) {
      for (let i = 5 * seat; i < 5 * seat + 5; i++) {
        const from = board.pegs[i] as number;
        if (from > 0 && from <= length) sources.push(seat, from);
      }
    }
  }
  for (let s = 0; s < sources.length; s += 2) {
    const seat = sources[s] as number;
    const from = sources[s + 1] as number;
    for (let to = 1; to <= length; to++) {
      const colour = board.at[to] as number;
      if (colour >= 0 && colour !== seat) addSingle(board, seat, from, to, out);
    }
  }
}

/**
 * `variant.two-swap`: a movable track peg trades holes with a track peg of another colour. A swap
 * of two pegs the player may both move is one play, its steps in sorted order
 * (`variant.two-swap.order`).
 */
function swaps(board: WorkBoard, seats: readonly number[], out: PlayMap): void {
  const g = board.g;
  for (const seat of seats) {
    for (let i = 5 * seat; i < 5 * seat + 5; i++) {
      const from = board.pegs[i] as number;
      if (from === 0 || from > g.length) continue;
      for (let to = 1; to <= g.length; to++) {
        const colour = board.at[to] as number;
        if (colour < 0 || colour === seat) continue;
        let a = g.code(seat, from, to);
        let b = g.code(colour, to, from);
        if (seats.includes(colour) && b < a) [a, b] = [b, a];
        out.set(a * g.key + b + 1, [a, b]);
      }
    }
  }
}

/** A part of a split legal on the unchanged board: its changes. */
type Part = number[];

/**
 * `card.seven.split` (and the 9's, `card.nine`, `variant.nine-split`): two different pegs move
 * by parts `a + b = total`, in the order the player chooses, the second judged on the board the
 * first left. When the two orders leave the same position along the same routes they are one
 * play, listed in the order that sorts first (`card.seven.split.order`).
 *
 * Most pairs of parts do not interact: neither changes anything the other's legality or
 * landing reads (its own colour along its paths, its landing hole, its team's in-spots when it
 * lands on a team peg, the peg itself). Such a pair is built from the parts found on the
 * unchanged board, once. Pairs that interact are carried out in both orders.
 */
class Splits {
  private readonly movers: number[] = []; // pairs of seat and slot
  private readonly parts: Part[][][] = []; // by mover and count (forward)
  private readonly backParts: Part[][][] = []; // by mover and count (backward, 9 only)
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly board: WorkBoard,
    seats: readonly number[],
    private readonly total: number,
    private readonly backward: boolean,
    private readonly out: PlayMap,
  ) {
    const length = board.g.length;
    for (const seat of seats) {
      const home = board.home[seat] as number;
      for (let i = 5 * seat; i < 5 * seat + 5; i++) {
        const from = board.pegs[i] as number;
        if (from === 0) continue;
        if (from > length && (home >> (from - length)) === (1 << (length + 5 - from)) - 1) {
          continue; // packed at the back of its home lane: it cannot move
        }
        this.movers.push(seat, from);
      }
    }
    for (let m = 0; m < this.movers.length; m += 2) {
      this.parts.push(this.table(m, true));
      if (backward) this.backParts.push(this.table(m, false));
    }
  }

  /** The legal parts of mover `m` by count, on the unchanged board. */
  private table(m: number, forward: boolean): Part[][] {
    const seat = this.movers[m] as number;
    const from = this.movers[m + 1] as number;
    const byCount: Part[][] = [[]];
    for (let n = 1; n < this.total; n++) byCount.push(this.partsOf(seat, from, n, forward));
    return byCount;
  }

  private partsOf(seat: number, from: number, n: number, forward: boolean): Part[] {
    const board = this.board;
    const found: Part[] = [];
    if (forward) {
      const count = board.forward(seat, from, n, scratch);
      const first = scratch[0] as number;
      const second = scratch[1] as number;
      for (let d = 0; d < count; d++) {
        const changes = board.resolve(seat, from, d === 0 ? first : second);
        if (changes !== null) found.push(changes);
      }
    } else {
      const to = board.backward(seat, from, n);
      const changes = to ? board.resolve(seat, from, to) : null;
      if (changes !== null) found.push(changes);
    }
    return found;
  }

  run(): void {
    const movers = this.movers.length / 2;
    for (let a = 1; a < this.total; a++) {
      const b = this.total - a;
      for (let i = 0; i < movers; i++) {
        for (let j = this.backward ? 0 : i + 1; j < movers; j++) {
          if (j !== i) this.pair(i, j, a, b);
        }
      }
    }
  }

  /** Peg `i` by `a` (forward) and peg `j` by `b` (backward for a forward-backward 9). */
  private pair(i: number, j: number, a: number, b: number): void {
    const partsA = this.parts[i]?.[a] as Part[];
    const partsB = (this.backward ? this.backParts : this.parts)[j]?.[b] as Part[];
    if (partsA.length === 0 && partsB.length === 0) return;
    const key = this.board.g.key;
    let clash = partsA.length === 0;
    for (const x of partsA) {
      if (this.affects(x, j, b, !this.backward)) {
        clash = true;
        this.after(i, j, a, true, x, j, b, !this.backward);
        continue;
      }
      for (const y of partsB) {
        if (this.affects(y, i, a, true)) {
          clash = true;
          this.both(i, j, a, true, x, y);
        } else if ((x[0] as number) < (y[0] as number)) {
          this.out.set((x[0] as number) * key + (y[0] as number) + 1, [...x, ...y]);
        } else {
          this.out.set((y[0] as number) * key + (x[0] as number) + 1, [...y, ...x]);
        }
      }
    }
    if (!clash) return; // every pair independent: peg j first gives the same plays
    for (const y of partsB) {
      if (this.affects(y, i, a, true)) {
        this.after(i, j, a, false, y, i, a, true);
        continue;
      }
      for (const x of partsA) {
        if (this.affects(x, j, b, !this.backward)) this.both(i, j, a, false, y, x);
      }
    }
  }

  /**
   * Whether `changes` touch anything the `n`-step part of mover `m` reads: a peg of its colour
   * on its paths or the peg itself, any peg on the track hole it would land on, or, when it
   * would land on a team peg, any peg on its team's in-spots.
   */
  private affects(changes: readonly number[], m: number, n: number, forward: boolean): boolean {
    const board = this.board;
    const g = board.g;
    const length = g.length;
    const size = g.slots;
    const seat = this.movers[2 * m] as number;
    const from = this.movers[2 * m + 1] as number;
    // the part's landing hole on the track (0: none) and its own-colour reach
    let land = 0;
    let homeReach = 0; // home holes h1..hk on its way in (bits), or within home
    if (from > length) {
      const k = from - length;
      homeReach = k + n <= 5 ? (((1 << n) - 1) << k) | (1 << (k - 1)) : 1 << (k - 1);
    } else if (forward) {
      land = from + n > length ? from + n - length : from + n;
      const spot = g.inSpot[seat] as number;
      const toSpot = spot >= from ? spot - from : spot - from + length;
      const k = n - toSpot;
      if (k >= 1 && k <= 5) homeReach = (1 << k) - 1;
    } else {
      land = from - n >= 1 ? from - n : from - n + length;
    }
    const victim = land ? (board.at[land] as number) : -1;
    const teamLanding = victim >= 0 && (victim & 1) === board.team;
    for (let c = 0; c < changes.length; c++) {
      const code = changes[c] as number;
      const colour = Math.floor(code / (size * size));
      const src = Math.floor(code / size) % size;
      const dst = code % size;
      for (const slot of [src, dst]) {
        if (slot === 0) continue;
        if (slot > length) {
          if (colour === seat && homeReach & (1 << (slot - length - 1))) return true;
          continue;
        }
        if (slot === land) return true;
        if (colour === seat) {
          if (slot === from) return true;
          if (from <= length) {
            const d = forward
              ? slot > from ? slot - from : slot - from + length
              : slot < from ? from - slot : from - slot + length;
            if (d <= n) return true;
          }
        }
        if (teamLanding && isTeamInSpot(g.inSpot, slot, board.team)) return true;
      }
    }
    return false;
  }

  /** Keep `changes` (its second part at index `second`) unless the other order of the same
   * parts leaves the same position along the same routes and sorts first. The board holds the
   * position after it. */
  private keep(i: number, j: number, a: number, iFirst: boolean, changes: number[], second: number): void {
    const g = this.board.g;
    const size = g.slots;
    const firstHome = (changes[0] as number) % size > g.length;
    const secondHome = (changes[second] as number) % size > g.length;
    const routes = iFirst ? `${+firstHome}${+secondHome}` : `${+secondHome}${+firstHome}`;
    const play = (changes[0] as number) * g.key + (changes[second] as number) + 1;
    const same = `${i},${j},${a},${routes}:${this.board.positionKey()}`;
    const other = this.seen.get(same);
    if (other === undefined || play < other) {
      if (other !== undefined) this.out.delete(other);
      this.seen.set(same, play);
      this.out.set(play, changes);
    }
  }

  /** Two parts, the second unaffected by the first: carry both out and keep. */
  private both(i: number, j: number, a: number, iFirst: boolean, first: Part, second: Part): void {
    const board = this.board;
    board.perform(first);
    board.perform(second);
    this.keep(i, j, a, iFirst, [...first, ...second], first.length);
    board.undo(second);
    board.undo(first);
  }

  /** Carry out the first part, then try every `n`-step part of mover `m` from where it is. */
  private after(
    i: number,
    j: number,
    a: number,
    iFirst: boolean,
    first: Part,
    m: number,
    n: number,
    forward: boolean,
  ): void {
    const board = this.board;
    const size = board.g.slots;
    const seat = this.movers[2 * m] as number;
    let from = this.movers[2 * m + 1] as number;
    board.perform(first);
    for (let c = 1; c < first.length; c++) {
      const code = first[c] as number; // knocked away by the first part?
      if (Math.floor(code / (size * size)) === seat && Math.floor(code / size) % size === from) {
        from = code % size;
      }
    }
    if (from !== 0) {
      for (const more of this.partsOf(seat, from, n, forward)) {
        board.perform(more);
        this.keep(i, j, a, iFirst, [...first, ...more], first.length);
        board.undo(more);
      }
    }
    board.undo(first);
  }
}

function isTeamInSpot(inSpot: Int32Array, slot: number, team: number): boolean {
  for (let seat = team; seat < inSpot.length; seat += 2) if (inSpot[seat] === slot) return true;
  return false;
}
