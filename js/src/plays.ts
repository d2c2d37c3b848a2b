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
import { samePosition, type WorkBoard } from "./workboard.js";

/** Plays as they are found: each play's key and its changes, in no order. */
export class PlayList {
  readonly keys: number[] = [];
  readonly changes: (readonly number[])[] = [];

  add(key: number, changes: readonly number[]): number {
    this.keys.push(key);
    return this.changes.push(changes) - 1;
  }
}

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
function addSingle(board: WorkBoard, seat: number, from: number, to: number, out: PlayList): void {
  const g = board.g;
  if (to > g.length || (board.at[to] as number) < 0) {
    const code = g.code(seat, from, to);
    out.add(code * g.key, g.single(code));
    return;
  }
  const changes = board.resolve(seat, from, to);
  if (changes !== null) out.add((changes[0] as number) * g.key, changes);
}

/**
 * Every legal play of a card of `rank` that moves pegs of `seats` (the seats the player may
 * move, `team.control`), each once, in no order; `pairs: false` leaves out splits and swaps.
 */
export function cardPlays(
  board: WorkBoard,
  seats: readonly number[],
  rank: Rank,
  rules: Rules,
  pairs = true,
): PlayList {
  const out = new PlayList();
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
function jokers(board: WorkBoard, seats: readonly number[], any: boolean, out: PlayList): void {
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
function swaps(board: WorkBoard, seats: readonly number[], out: PlayList): void {
  const g = board.g;
  for (const seat of seats) {
    for (let i = 5 * seat; i < 5 * seat + 5; i++) {
      const from = board.pegs[i] as number;
      if (from === 0 || from > g.length) continue;
      for (let to = 1; to <= g.length; to++) {
        const colour = board.at[to] as number;
        if (colour < 0 || colour === seat) continue;
        const a = g.code(seat, from, to);
        const b = g.code(colour, to, from);
        if (seats.includes(colour) && b < a) continue; // found from the other peg, sorted
        out.add(a * g.key + b + 1, [a, b]);
      }
    }
  }
}

/** A part of a split legal on the unchanged board: its changes. */
type Part = readonly number[];

/**
 * What a part of a split reads besides the changes it makes: the peg's colour and slot, how
 * far it goes and which way, the track hole it would land on (0: none), the home holes on its
 * way (bits, its own colour) and whether it would land on a team peg (then the team's in-spots
 * matter too).
 */
interface Reads {
  readonly seat: number;
  readonly from: number;
  readonly n: number;
  readonly forward: boolean;
  readonly land: number;
  readonly homeReach: number;
  readonly teamLanding: boolean;
}

/**
 * `card.seven.split` (and the 9's, `card.nine`, `variant.nine-split`): two different pegs move
 * by parts `a + b = total`, in the order the player chooses, the second judged on the board the
 * first left. When the two orders leave the same position along the same routes they are one
 * play, listed in the order that sorts first (`card.seven.split.order`).
 *
 * Most pairs of parts do not interact: neither changes anything the other reads (see
 * {@link Reads}). Such a pair is built from the parts found on the unchanged board, once. Pairs
 * that interact are carried out in both orders, and an order that leaves the same position
 * along the same routes as the other, but sorts after it, is dropped.
 */
class Splits {
  private readonly movers: number[] = []; // pairs of seat and slot
  private readonly parts: Part[][][] = []; // by mover and count (forward)
  private readonly reads: Reads[][] = [];
  private readonly backParts: Part[][][] = []; // by mover and count (backward, 9 only)
  private readonly backReads: Reads[][] = [];
  /** Kept plays of interacting pairs, by pegs, counts and routes: where each is in the list, and
   * the position it leaves. */
  private readonly seen = new Map<number, { index: number; pegs: Int16Array }[]>();

  constructor(
    private readonly board: WorkBoard,
    seats: readonly number[],
    private readonly total: number,
    private readonly backward: boolean,
    private readonly out: PlayList,
  ) {
    const length = board.g.length;
    for (const seat of seats) {
      const home = board.home[seat] as number;
      for (let i = 5 * seat; i < 5 * seat + 5; i++) {
        const from = board.pegs[i] as number;
        if (from === 0) continue;
        if (from > length && home >> (from - length) === (1 << (length + 5 - from)) - 1) {
          continue; // packed at the back of its home lane: it cannot move
        }
        this.movers.push(seat, from);
      }
    }
    for (let m = 0; m < this.movers.length; m += 2) {
      const seat = this.movers[m] as number;
      const from = this.movers[m + 1] as number;
      const parts: Part[][] = [[]];
      const reads: Reads[] = [];
      const backParts: Part[][] = [[]];
      const backReads: Reads[] = [];
      for (let n = 0; n < total; n++) {
        reads.push(this.readsOf(seat, from, n, true));
        if (n) parts.push(this.partsOf(seat, from, n, true));
        if (backward) {
          backReads.push(this.readsOf(seat, from, n, false));
          if (n) backParts.push(this.partsOf(seat, from, n, false));
        }
      }
      this.parts.push(parts);
      this.reads.push(reads);
      this.backParts.push(backParts);
      this.backReads.push(backReads);
    }
  }

  private readsOf(seat: number, from: number, n: number, forward: boolean): Reads {
    const board = this.board;
    const g = board.g;
    const length = g.length;
    let land = 0;
    let homeReach = 0;
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
    return { seat, from, n, forward, land, homeReach, teamLanding };
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
        if (this.backward) {
          for (let j = 0; j < movers; j++) if (j !== i) this.pair(i, j, a, b);
        } else {
          for (let j = i + 1; j < movers; j++) this.pair(i, j, a, b);
        }
      }
    }
  }

  /** Peg `i` by `a` (forward) and peg `j` by `b` (backward for a forward-backward 9). */
  private pair(i: number, j: number, a: number, b: number): void {
    const partsA = (this.parts[i] as Part[][])[a] as Part[];
    const partsB = ((this.backward ? this.backParts : this.parts)[j] as Part[][])[b] as Part[];
    if (partsA.length === 0 && partsB.length === 0) return;
    const readsA = (this.reads[i] as Reads[])[a] as Reads;
    const readsB = ((this.backward ? this.backReads : this.reads)[j] as Reads[])[b] as Reads;
    const key = this.board.g.key;
    let clash = partsA.length === 0;
    for (const x of partsA) {
      if (this.affects(x, readsB)) {
        clash = true;
        this.after(i, j, a, true, x, readsB);
        continue;
      }
      for (const y of partsB) {
        if (this.affects(y, readsA)) {
          clash = true;
          this.both(i, j, a, true, x, y);
        } else if ((x[0] as number) < (y[0] as number)) {
          this.out.add((x[0] as number) * key + (y[0] as number) + 1, joined(x, y));
        } else {
          this.out.add((y[0] as number) * key + (x[0] as number) + 1, joined(y, x));
        }
      }
    }
    if (!clash) return; // every pair independent: peg j first gives the same plays
    for (const y of partsB) {
      if (this.affects(y, readsA)) {
        this.after(i, j, a, false, y, readsA);
        continue;
      }
      for (const x of partsA) if (this.affects(x, readsB)) this.both(i, j, a, false, y, x);
    }
  }

  /** Whether `changes` touch anything a part reads (see {@link Reads}). */
  private affects(changes: Part, reads: Reads): boolean {
    const size = this.board.g.slots;
    for (let c = 0; c < changes.length; c++) {
      const code = changes[c] as number;
      const colour = Math.floor(code / (size * size));
      if (this.touches(Math.floor(code / size) % size, colour, reads)) return true;
      if (this.touches(code % size, colour, reads)) return true;
    }
    return false;
  }

  /** Whether a peg of `colour` arriving on or leaving `slot` changes what a part reads. */
  private touches(slot: number, colour: number, reads: Reads): boolean {
    if (slot === 0) return false;
    const g = this.board.g;
    const length = g.length;
    if (slot > length) return colour === reads.seat && (reads.homeReach & (1 << (slot - length - 1))) !== 0;
    if (slot === reads.land) return true;
    if (colour === reads.seat) {
      const from = reads.from;
      if (slot === from) return true;
      if (from <= length) {
        const d = reads.forward
          ? slot > from ? slot - from : slot - from + length
          : slot < from ? from - slot : from - slot + length;
        if (d <= reads.n) return true;
      }
    }
    return reads.teamLanding && isTeamInSpot(g.inSpot, slot, this.board.team);
  }

  /** Keep `changes` (its second part at index `second`) unless the other order of the same
   * parts leaves the same position along the same routes and sorts first. The board holds the
   * position after it. */
  private keep(i: number, j: number, a: number, iFirst: boolean, changes: readonly number[], second: number): void {
    const board = this.board;
    const g = board.g;
    const size = g.slots;
    const firstHome = (changes[0] as number) % size > g.length ? 1 : 0;
    const secondHome = (changes[second] as number) % size > g.length ? 1 : 0;
    const routes = iFirst ? 2 * firstHome + secondHome : 2 * secondHome + firstHome;
    const id = ((i * 64 + j) * 16 + a) * 4 + routes;
    const play = (changes[0] as number) * g.key + (changes[second] as number) + 1;
    let kept = this.seen.get(id);
    if (kept === undefined) {
      kept = [];
      this.seen.set(id, kept);
    }
    for (const other of kept) {
      if (!samePosition(other.pegs, board.pegs)) continue;
      if (play < (this.out.keys[other.index] as number)) {
        this.out.keys[other.index] = play;
        this.out.changes[other.index] = changes;
      }
      return;
    }
    kept.push({ index: this.out.add(play, changes), pegs: board.pegs.slice() });
  }

  /** Two parts, the second unaffected by the first: carry both out and keep. */
  private both(i: number, j: number, a: number, iFirst: boolean, first: Part, second: Part): void {
    const board = this.board;
    board.perform(first);
    board.perform(second);
    this.keep(i, j, a, iFirst, joined(first, second), first.length);
    board.undo(second);
    board.undo(first);
  }

  /** Carry out the first part, then try every part the other peg (`reads`) makes from where it
   * is then. */
  private after(i: number, j: number, a: number, iFirst: boolean, first: Part, reads: Reads): void {
    const board = this.board;
    const size = board.g.slots;
    const seat = reads.seat;
    let from = reads.from;
    board.perform(first);
    for (let c = 1; c < first.length; c++) {
      const code = first[c] as number; // knocked away by the first part?
      if (Math.floor(code / (size * size)) === seat && Math.floor(code / size) % size === from) {
        from = code % size;
      }
    }
    if (from !== 0) {
      for (const more of this.partsOf(seat, from, reads.n, reads.forward)) {
        board.perform(more);
        this.keep(i, j, a, iFirst, joined(first, more), first.length);
        board.undo(more);
      }
    }
    board.undo(first);
  }
}

/** The changes of two parts, one after the other (faster than `concat`). */
function joined(first: Part, second: Part): number[] {
  if (first.length === 1 && second.length === 1) return [first[0] as number, second[0] as number];
  const out = first.slice();
  for (let i = 0; i < second.length; i++) out.push(second[i] as number);
  return out;
}

function isTeamInSpot(inSpot: Int32Array, slot: number, team: number): boolean {
  for (let seat = team; seat < inSpot.length; seat += 2) if (inSpot[seat] === slot) return true;
  return false;
}
