/**
 * A working copy of the pegs, changed in place to try moves and undo them: what the move
 * generator and the verdict run on. Nothing here is public.
 *
 * Inside, a location is a *slot*: 0 for a start area, `t + 1` for track hole `t`, `L + k` for
 * home hole `k` (`L` the track length). A *change* is one peg of colour `seat` going from slot
 * `from` to slot `to`, coded `(seat * S + from) * S + to` for `S` slots, so that codes sort as the
 * steps `(seat, from, to)` they stand for: a start area before track holes, track holes before
 * home holes (the order of `legalMoves`).
 *
 * @module
 */
import { HOME_BASE, SIDE_HOLES, START, type Location } from "./board.js";
import type { InSpotOccupied } from "./rules.js";

/** Where a knocked team peg goes when its in-spot is held: see `variant.in-spot-occupied`. */
const CHAIN = 0;
const ILLEGAL = 1;
const TO_START = 2;
const POLICIES: Record<InSpotOccupied, number> = { chain: CHAIN, illegal: ILLEGAL, to_start: TO_START };

/** The geometry of a board size in slots. */
export class Geometry {
  readonly players: number;
  /** Track holes. */
  readonly length: number;
  /** Slots: a start area, the track, a home lane. */
  readonly slots: number;
  /** One more than any change code: a two-step play's key is `first * key + second + 1`. */
  readonly key: number;
  /** The slot of each seat's in-spot. */
  readonly inSpot: Int32Array;
  /** The slot of each seat's come-out hole. */
  readonly comeOut: Int32Array;

  constructor(players: number) {
    this.players = players;
    this.length = SIDE_HOLES * players;
    this.slots = this.length + 6;
    this.key = players * this.slots * this.slots + 1;
    this.inSpot = Int32Array.from({ length: players }, (_, s) => SIDE_HOLES * s + 4);
    this.comeOut = Int32Array.from({ length: players }, (_, s) => SIDE_HOLES * s + 9);
    this.singles = new Array<undefined>(players * this.slots).fill(undefined);
  }

  /** The slot of a location (`-1` if the board has no such location). */
  slotOf(location: Location): number {
    if (!Number.isInteger(location)) return -1;
    if (location === START) return 0;
    if (location >= 0 && location < this.length) return location + 1;
    if (location > HOME_BASE && location <= HOME_BASE + 5) return location - HOME_BASE + this.length;
    return -1;
  }

  /** The location of a slot. */
  locationOf(slot: number): Location {
    if (slot === 0) return START;
    return slot > this.length ? slot - this.length + HOME_BASE : slot - 1;
  }

  /** The code of a change. */
  code(seat: number, from: number, to: number): number {
    return (seat * this.slots + from) * this.slots + to;
  }

  /** By peg (seat and slot), then by slot it goes to; the inner lists made as first needed. */
  private readonly singles: ((readonly number[] | undefined)[] | undefined)[];

  /** The changes of a one-step play that knocks nothing away: `[code]`, made once and shared. */
  single(code: number): readonly number[] {
    const peg = Math.floor(code / this.slots);
    let row = this.singles[peg];
    if (row === undefined) {
      row = new Array<undefined>(this.slots).fill(undefined);
      this.singles[peg] = row;
    }
    const to = code - peg * this.slots;
    let changes = row[to];
    if (changes === undefined) {
      changes = [code];
      row[to] = changes;
    }
    return changes;
  }
}

const GEOMETRIES = new Map<number, Geometry>();
const SCRATCH: (WorkBoard | undefined)[] = [];

/** The (shared) geometry of a board of `players` seats. */
export function geometryFor(players: number): Geometry {
  let found = GEOMETRIES.get(players);
  if (found === undefined) {
    found = new Geometry(players);
    GEOMETRIES.set(players, found);
  }
  return found;
}

/** The switches the move rules read, besides the cards. */
export interface Switches {
  readonly homeEntryCompulsory: boolean;
  readonly waitOnInSpot: boolean;
  readonly inSpotOccupied: InSpotOccupied;
}

/**
 * The pegs of a position, in slots, for `team` to move: changed in place by {@link perform}
 * and restored by {@link undo}.
 */
export class WorkBoard {
  readonly g: Geometry;
  team = 0;
  compulsory = false;
  wait = false;
  policy = CHAIN;
  /** The colour on each slot of the track (`-1`: empty; slot 0 unused). */
  readonly at: Int8Array;
  /** Each seat's five pegs, as slots: seat `s`'s are `pegs[5s .. 5s + 4]`. */
  readonly pegs: Int16Array;
  /** How many of each seat's pegs are in its start area. */
  readonly start: Int8Array;
  /** Each seat's home holes held: bit `k - 1` for `hk`. */
  readonly home: Int8Array;

  /** A new board of `pegs` (locations); `undefined` when a peg is not on this board. */
  static of(pegs: readonly (readonly Location[])[], team: number, switches: Switches): WorkBoard | undefined {
    const board = new WorkBoard(geometryFor(pegs.length));
    return board.load(pegs, team, switches) ? board : undefined;
  }

  /**
   * The move generator's board for `pegs`, reused from one position to the next (the generator
   * never works on two positions at once); `undefined` when a peg is not on this board.
   */
  static scratch(pegs: readonly (readonly Location[])[], team: number, switches: Switches): WorkBoard | undefined {
    const players = pegs.length;
    let board = SCRATCH[players];
    if (board === undefined) {
      board = new WorkBoard(geometryFor(players));
      SCRATCH[players] = board;
    }
    return board.load(pegs, team, switches) ? board : undefined;
  }

  private constructor(g: Geometry) {
    this.g = g;
    this.at = new Int8Array(g.length + 1);
    this.pegs = new Int16Array(5 * g.players);
    this.start = new Int8Array(g.players);
    this.home = new Int8Array(g.players);
  }

  /** Set the board to `pegs`; false when a peg is not on it. */
  private load(pegs: readonly (readonly Location[])[], team: number, switches: Switches): boolean {
    const g = this.g;
    if (pegs.length !== g.players) return false;
    this.team = team;
    this.compulsory = switches.homeEntryCompulsory;
    this.wait = switches.waitOnInSpot;
    this.policy = POLICIES[switches.inSpotOccupied];
    this.at.fill(-1);
    this.start.fill(0);
    this.home.fill(0);
    const length = g.length;
    for (let seat = 0; seat < pegs.length; seat++) {
      const row = pegs[seat] as readonly Location[];
      if (row.length !== 5) return false;
      for (let i = 0; i < 5; i++) {
        const location = row[i] as Location;
        let slot: number;
        if (location === START) {
          slot = 0;
          this.start[seat] = (this.start[seat] as number) + 1;
        } else if (location >= 0 && location < length && Number.isInteger(location)) {
          slot = location + 1;
          this.at[slot] = seat;
        } else if (location > HOME_BASE && location <= HOME_BASE + 5 && Number.isInteger(location)) {
          slot = location - HOME_BASE + length;
          this.home[seat] = (this.home[seat] as number) | (1 << (slot - length - 1));
        } else {
          return false;
        }
        this.pegs[5 * seat + i] = slot;
      }
    }
    return true;
  }

  /**
   * How far ahead (1..L-1) the nearest other peg of `seat` on the track stands from track slot
   * `from`, going forward; `L` if none (only the own colour blocks, `move.blocking`).
   */
  nearestAhead(seat: number, from: number): number {
    const length = this.g.length;
    let nearest = length;
    const pegs = this.pegs;
    for (let i = 5 * seat, end = i + 5; i < end; i++) {
      const p = pegs[i] as number;
      if (p === 0 || p > length || p === from) continue;
      const d = p > from ? p - from : p - from + length;
      if (d < nearest) nearest = d;
    }
    return nearest;
  }

  /** The same going backward (`card.eight`). */
  nearestBehind(seat: number, from: number): number {
    const length = this.g.length;
    let nearest = length;
    const pegs = this.pegs;
    for (let i = 5 * seat, end = i + 5; i < end; i++) {
      const p = pegs[i] as number;
      if (p === 0 || p > length || p === from) continue;
      const d = p < from ? from - p : from - p + length;
      if (d < nearest) nearest = d;
    }
    return nearest;
  }

  /**
   * The destinations of an unblocked `n`-step forward move of a peg of `seat` on slot `from`,
   * into `out` (track first, then home); returns how many (`move.forward`,
   * `move.home-entry`, `move.in-home`, `move.blocking`, and the switches
   * `variant.home-entry-compulsory` and `variant.wait-on-in-spot`).
   */
  forward(seat: number, from: number, n: number, out: Int32Array): number {
    const length = this.g.length;
    const own = this.home[seat] as number;
    if (from > length) {
      const k = from - length;
      if (k + n > 5) return 0;
      const passed = ((1 << n) - 1) << k; // bits k .. k+n-1: holes h(k+1) .. h(k+n)
      if (own & passed) return 0;
      out[0] = from + n;
      return 1;
    }
    const spot = this.g.inSpot[seat] as number;
    const toSpot = spot >= from ? spot - from : spot - from + length;
    const nearest = this.nearestAhead(seat, from);
    const k = n - toSpot;
    const intoHome = k >= 1 && k <= 5 && nearest > toSpot && (own & ((1 << k) - 1)) === 0;
    let count = 0;
    if (nearest > n && !(this.compulsory && intoHome) && !(this.wait && from === spot)) {
      const to = from + n;
      out[count++] = to > length ? to - length : to;
    }
    if (intoHome) out[count++] = length + k;
    return count;
  }

  /** The destination of an unblocked `n`-step backward move of a track peg, or 0. */
  backward(seat: number, from: number, n: number): number {
    const length = this.g.length;
    if (from === 0 || from > length) return 0;
    if (this.nearestBehind(seat, from) <= n) return 0;
    const to = from - n;
    return to >= 1 ? to : to + length;
  }

  /**
   * The changes of a peg of `seat` going from slot `from` to slot `to`, its landing settled
   * (`move.landing`, `move.landing.in-spot`, `variant.in-spot-occupied`), or `null` when the
   * landing makes the move illegal. Blocking is the caller's; the board is not changed.
   */
  resolve(seat: number, from: number, to: number): number[] | null {
    const g = this.g;
    const first = g.code(seat, from, to);
    if (to > g.length) return [first];
    let victim = this.at[to] as number;
    if (victim < 0) return [first];
    const changes = [first];
    // holes this move has filled (with a colour) or emptied (-1) so far
    const holes = [to, from];
    const colours = [seat, -1];
    let hole = to;
    while (victim >= 0) {
      if ((victim & 1) !== this.team) {
        changes.push(g.code(victim, hole, 0));
        return changes;
      }
      const spot = g.inSpot[victim] as number;
      const index = holes.indexOf(spot);
      const after = index >= 0 ? (colours[index] as number) : (this.at[spot] as number);
      const held = spot === hole || after >= 0;
      if (held && this.policy !== CHAIN) {
        if (this.policy === ILLEGAL) return null;
        changes.push(g.code(victim, hole, 0));
        return changes;
      }
      if (spot === hole || after === victim) return null;
      changes.push(g.code(victim, hole, spot));
      holes.push(spot);
      colours.push(victim);
      victim = after;
      hole = spot;
    }
    return changes;
  }

  /** Carry out `changes` in order. */
  perform(changes: readonly number[]): void {
    for (let c = 0; c < changes.length; c++) this.change(changes[c] as number, false);
  }

  /** Reverse {@link perform}. */
  undo(changes: readonly number[]): void {
    for (let c = changes.length - 1; c >= 0; c--) this.change(changes[c] as number, true);
  }

  private change(code: number, back: boolean): void {
    const g = this.g;
    const size = g.slots;
    const seat = Math.floor(code / (size * size));
    let from = Math.floor(code / size) % size;
    let to = code % size;
    if (back) [from, to] = [to, from];
    const pegs = this.pegs;
    for (let i = 5 * seat, end = i + 5; i < end; i++) {
      if (pegs[i] === from) {
        pegs[i] = to;
        break;
      }
    }
    const length = g.length;
    if (from === 0) this.start[seat] = (this.start[seat] as number) - 1;
    else if (from <= length) {
      if (this.at[from] === seat) this.at[from] = -1;
    } else this.home[seat] = (this.home[seat] as number) & ~(1 << (from - length - 1));
    if (to === 0) this.start[seat] = (this.start[seat] as number) + 1;
    else if (to <= length) this.at[to] = seat;
    else this.home[seat] = (this.home[seat] as number) | (1 << (to - length - 1));
  }
}

/** Whether two boards' pegs stand on the same holes, each seat's as a set (pegs of one colour
 * are alike). */
export function samePosition(a: Int16Array, b: Int16Array): boolean {
  for (let base = 0; base < a.length; base += 5) {
    let same = true;
    for (let k = base; k < base + 5; k++) if (a[k] !== b[k]) same = false;
    if (same) continue;
    const x = a.slice(base, base + 5).sort();
    const y = b.slice(base, base + 5).sort();
    for (let k = 0; k < 5; k++) if (x[k] !== y[k]) return false;
  }
  return true;
}

