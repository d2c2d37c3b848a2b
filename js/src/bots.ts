/**
 * Bots that look one move ahead or none, choosing exactly as the reference engine's bots of the
 * same names do from the same seed: {@link RandomBot}, {@link EasyBot} (the level "easy") and
 * {@link GreedyBot} (the level "medium"). A bot sees a seat's {@link PlayerView} and the legal
 * moves, never the full state: {@link decide} makes the view.
 *
 * The greedy bot plays the move whose resulting position scores best by {@link evaluate}: each
 * peg's value (in holes: out of start is worth {@link OUT_VALUE}, then every hole it has come,
 * home {@link HOME_VALUE} more and its hole number), less the chance that an opponent lands on
 * it next round (from the opponents' pegs 1 to 13 holes behind, 8 ahead, and on their come-out
 * holes), for both teams; ties are broken at random. The easy bot scores progress alone,
 * overlooks some of its moves and picks among the rest with weight `exp(score / 3)`.
 *
 * @module
 */
import { HOME_BASE, isHome, START, teamOf, type Location } from "./board.js";
import { JOKER, RANKS } from "./cards.js";
import { PegsError } from "./errors.js";
import { found, legalMoves, listedPlays, stepOf } from "./movegen.js";
import { checkedMove, type Move } from "./moves.js";
import { forwardSteps, splits } from "./plays.js";
import { Twister } from "./random.js";
import { checkedRules, type Rules } from "./rules.js";
import type { GameState } from "./state.js";
import { repr } from "./text.js";
import { guarded } from "./validate.js";
import { viewError } from "./serialize.js";
import { view, type PlayerView } from "./views.js";
import { geometryFor } from "./workboard.js";

/** Anything that picks one of the legal moves, seeing only its seat's view. */
export interface Bot {
  /** One of `moves`, the legal moves of the seat whose `view` this is. */
  choose(view: PlayerView, moves: readonly Move[]): Move;
}

/** The move `bot` makes for the seat to act in `state`, shown only that seat's view. */
export function decide(bot: Bot, state: GameState): Move {
  if (typeof (bot as Partial<Bot> | null)?.choose !== "function") {
    throw new PegsError(`expected a bot (an object with a choose method), not ${repr(bot)}`);
  }
  return guarded(state, () => bot.choose(view(state, state.turn), legalMoves(state)));
}

/** What getting a peg out of its start area is worth, in holes travelled. */
export const OUT_VALUE = 10.0;
/** What bringing a peg from its in-spot into home is worth, besides its home hole number. */
export const HOME_VALUE = 12.0;
/** Weight of the chance that one of the evaluating team's track pegs is knocked next round. */
export const OWN_RISK = 0.6;
/** Weight of the same chance for the opponents' pegs (the evaluating team moves first). */
export const OPPONENT_RISK = 0.3;
/** The score a move that wins the game gets. */
export const WIN = 1e6;
const HAND = 5;
const RANK_SHARE = 1 / 13.5;

/** Every seat's peg locations, as in a {@link GameState}. */
export type Pegs = readonly (readonly Location[])[];

/** The value of each location for each seat, by board size: `values[seat][location + 1]`, home
 * holes at `length + k`. */
const VALUES = new Map<number, Float64Array[]>();

export function valuesFor(players: number): Float64Array[] {
  let tables = VALUES.get(players);
  if (tables === undefined) {
    const length = 18 * players;
    const homeBase = OUT_VALUE + length - 5 + HOME_VALUE;
    tables = [];
    for (let seat = 0; seat < players; seat++) {
      const spot = 18 * seat + 3;
      const table = new Float64Array(length + 6);
      for (let hole = 0; hole < length; hole++) table[hole + 1] = OUT_VALUE + length - 5 - ((spot - hole + length) % length);
      for (let k = 1; k <= 5; k++) table[length + k] = homeBase + k;
      tables.push(table);
    }
    VALUES.set(players, tables);
  }
  return tables;
}

export function valueOf(table: Float64Array, location: Location, length: number): number {
  if (location === START) return 0;
  return table[location > HOME_BASE ? location - HOME_BASE + length : location + 1] as number;
}

/** The chance that a five-card hand holds one of `ranks` ranks. */
function chance(ranks: number): number {
  return 1.0 - (1.0 - Math.min(ranks * RANK_SHARE, 1.0)) ** HAND;
}

interface Threats {
  /** The chance of a hit from `d` holes behind, by `d`. */
  readonly behind: readonly number[];
  readonly back: number;
  readonly comeOut: number;
  readonly joker: number;
  /** The chance that none of the opponents behind a peg hits it, by their pattern. */
  readonly safe: Map<number, number>;
}

/** The threats of each rules object the package made (a caller cannot change those). */
const THREATS = new WeakMap<Rules, Threats>();

function threats(rules: Rules): Threats {
  let found = THREATS.get(rules);
  if (found === undefined) {
    const behind = [0.0];
    for (let d = 1; d < 14; d++) {
      let ranks = 0;
      for (const rank of RANKS) {
        const steps = forwardSteps(rank, rules);
        if (steps === d || (splits(rank, rules) && d < steps)) ranks += 1;
      }
      behind.push(chance(ranks));
    }
    found = {
      behind,
      back: chance(rules.nine === "forward_backward" ? 2 : 1),
      comeOut: chance(4),
      joker: chance(0.5),
      safe: new Map(),
    };
    if (checkedRules(rules) === rules) THREATS.set(rules, found); // only rules no caller can change
  }
  return found;
}

function safeBehind(near: number, t: Threats): number {
  let safe = t.safe.get(near);
  if (safe === undefined) {
    safe = 1.0;
    for (let d = 1; d < 14; d++) if ((near >> (13 - d)) & 1) safe *= 1.0 - (t.behind[d] as number);
    t.safe.set(near, safe);
  }
  return safe;
}

/**
 * The value of a position of `pegs` for `team`, in holes (the reference's page *Contracts*,
 * "Bots"); `joker`: count the joker's threat too (the reference's expert counts it).
 */
export function evaluate(pegs: Pegs, team: number, rules: Rules, joker = false): number {
  const players = pegs.length;
  const values = valuesFor(players);
  const length = 18 * players;
  const t = threats(rules);
  const anywhere = joker ? 1.0 - t.joker : 1.0;
  // which team holds each track hole, and the come-out holes threatened from start
  const held = new Int8Array(length).fill(-1);
  const outThreat = new Int8Array(length).fill(-1);
  for (let seat = 0; seat < players; seat++) {
    const locs = pegs[seat] as readonly Location[];
    for (const p of locs) if (p >= 0 && p < HOME_BASE) held[p] = seat & 1;
    if (locs[0] === START) outThreat[18 * seat + 8] = seat;
  }
  let total = 0.0;
  for (let seat = 0; seat < players; seat++) {
    const mine = teamOf(seat) === team;
    const sign = mine ? 1.0 : -1.0;
    const weight = mine ? OWN_RISK : OPPONENT_RISK;
    const seatTeam = seat & 1;
    const rival = 1 - seatTeam;
    const table = values[seat] as Float64Array;
    for (const p of pegs[seat] as readonly Location[]) {
      let value = valueOf(table, p, length);
      if (p >= 0 && p < HOME_BASE) {
        let near = 0;
        for (let d = 1; d < 14; d++) if (held[(p - d + length) % length] === rival) near |= 1 << (13 - d);
        let safe = near ? anywhere * safeBehind(near, t) : anywhere;
        if (held[(p + 8) % length] === rival) safe *= 1.0 - t.back;
        const other = outThreat[p] as number;
        if (other >= 0 && (other & 1) !== seatTeam) safe *= 1.0 - t.comeOut;
        value -= weight * (1.0 - safe) * value;
      }
      total += sign * value;
    }
  }
  return total;
}

/** {@link evaluate} without the safety terms: the team's peg values less the others'. */
export function progress(pegs: Pegs, team: number): number {
  const values = valuesFor(pegs.length);
  const length = 18 * pegs.length;
  let total = 0.0;
  pegs.forEach((locs, seat) => {
    let value = 0;
    for (const p of locs) value += valueOf(values[seat] as Float64Array, p, length);
    total += teamOf(seat) === team ? value : -value;
  });
  return total;
}

/** Whether every peg of `team` is home (`game.end`). */
export function won(pegs: Pegs, team: number): boolean {
  for (let seat = team; seat < pegs.length; seat += 2) if (!(pegs[seat] as readonly Location[]).every(isHome)) return false;
  return true;
}

/** What a play of the seat to act does: the pegs it leaves and its change codes, landings included. */
export interface Effect {
  readonly pegs: Pegs;
  readonly changes: readonly number[];
}

/**
 * Each play of the seat whose view `seen` is, and each discard it may make, by its canonical text
 * ({@link moveKey}), with its effect: its legal moves but a pass.
 */
export function effectsOf(seen: PlayerView): Map<string, Effect> {
  const hands = seen.pegs.map((_, seat) => (seat === seen.seat ? seen.hand : []));
  const state: GameState = {
    rules: seen.rules,
    pegs: seen.pegs,
    hands,
    drawPile: [],
    discardPile: seen.discardPile,
    turn: seen.seat,
    dealer: seen.dealer,
    seed: 0n,
    reshuffles: 0,
    ply: seen.ply,
    winner: null,
  };
  const g = geometryFor(seen.pegs.length);
  const byText = new Map<string, Effect>();
  const offered = found(state);
  if (!offered.playable) for (const { rank } of offered.cards) byText.set(`discard ${rank}`, { pegs: seen.pegs, changes: [] });
  for (const card of offered.cards) {
    listedPlays(g, card).forEach((play, i) => {
      const pegs = seen.pegs.map((row) => [...row]);
      const changes = card.changes[i] as readonly number[];
      for (const code of changes) {
        const { seat, from, to } = stepOf(g, code);
        const row = pegs[seat] as Location[];
        row.splice(row.indexOf(from), 1);
        row.push(to);
        row.sort((a, b) => a - b);
      }
      byText.set(moveKey(play), { pegs, changes });
    });
  }
  return byText;
}

/** A move's canonical text, by which {@link effectsOf} finds its effect. */
export function moveKey(move: Move): string {
  if (move.action === "discard") return `discard ${move.card}`;
  if (move.action !== "play") return move.action;
  return `${move.card} ${move.steps.map((s) => `${s.seat}:${s.from}-${s.to}`).join(" ")}`;
}

/** A small tie-break between discards: keep jokers and cards that come out. */
export function discardCost(move: Move): number {
  checkedMove(move);
  if (move.action !== "discard") return 0.0;
  if (move.card === JOKER) return 0.5;
  return move.card === 1 || (move.card >= 11 && move.card <= 13) ? 0.25 : 0.0;
}

export function checked(seen: PlayerView, moves: readonly Move[]): void {
  const problem = viewError(seen);
  if (problem !== undefined) throw new PegsError(`a bot sees a PlayerView (view(state, seat)): ${problem}`);
  if (!Array.isArray(moves) || moves.length === 0) throw new PegsError("a bot needs at least one legal move to choose from");
  for (const move of moves) checkedMove(move);
}

/** `value` if it is a chance (a number from 0 to 1); else a {@link PegsError} naming `name`. */
function chanceOf(value: unknown, name: string): number {
  if (typeof value === "number" && value >= 0 && value <= 1) return value;
  throw new PegsError(`${name}: a chance from 0 to 1, not ${repr(value)}`);
}

/** A bot's seed as a bigint: a bigint, or a safe integer. */
export function botSeed(seed: unknown): bigint {
  if (typeof seed === "bigint") return seed;
  if (Number.isSafeInteger(seed)) return BigInt(seed as number);
  throw new PegsError(`a bot's seed is a bigint or a safe integer, not ${repr(seed)}`);
}

/** Picks uniformly at random from the legal moves. */
export class RandomBot implements Bot {
  private readonly rng: Twister;

  constructor(seed: number | bigint = 0) {
    this.rng = new Twister(botSeed(seed));
  }

  choose(seen: PlayerView, moves: readonly Move[]): Move {
    checked(seen, moves);
    return this.rng.choice(moves);
  }
}

/** One move ahead: the move leaving the best {@link evaluate} for its team; ties at random. */
export class GreedyBot implements Bot {
  private readonly rng: Twister;

  constructor(seed: number | bigint = 0) {
    this.rng = new Twister(botSeed(seed));
  }

  choose(seen: PlayerView, moves: readonly Move[]): Move {
    checked(seen, moves);
    if (moves.length === 1) return moves[0] as Move;
    const effects = effectsOf(seen);
    const team = teamOf(seen.seat);
    const scores = moves.map((move) => {
      const pegs = effects.get(moveKey(move))?.pegs ?? seen.pegs;
      return won(pegs, team) ? WIN : evaluate(pegs, team, seen.rules) - discardCost(move);
    });
    const best = Math.max(...scores);
    const tied = moves.filter((_, i) => (scores[i] as number) >= best - 1e-9);
    return tied.length === 1 ? (tied[0] as Move) : this.rng.choice(tied);
  }
}

/** Options of {@link EasyBot}. */
export interface EasyOptions {
  /** The chance of not seeing a move that moves one peg (or a discard). */
  readonly overlook?: number;
  /** The chance of not seeing a split of a 7 or a 9, or a swap. */
  readonly overlookSplit?: number;
  /** Holes of score per unit of the choice's log-weight. */
  readonly temperature?: number;
}

/** A beginner: one move ahead on progress alone, some moves overlooked, some slack in the choice. */
export class EasyBot implements Bot {
  private readonly rng: Twister;
  private readonly overlook: number;
  private readonly overlookSplit: number;
  private readonly temperature: number;

  constructor(seed: number | bigint = 0, options: EasyOptions = {}) {
    this.rng = new Twister(botSeed(seed));
    if (typeof options !== "object" || options === null) throw new PegsError(`options: not an object, but ${repr(options)}`);
    this.overlook = chanceOf(options.overlook ?? 0.25, "overlook");
    this.overlookSplit = chanceOf(options.overlookSplit ?? 0.6, "overlookSplit");
    this.temperature = options.temperature ?? 3.0;
    if (!(typeof this.temperature === "number" && this.temperature > 0 && this.temperature < Infinity)) {
      throw new PegsError(`temperature: a number above 0, not ${repr(this.temperature)}`);
    }
  }

  choose(seen: PlayerView, moves: readonly Move[]): Move {
    checked(seen, moves);
    if (moves.length === 1) return moves[0] as Move;
    const effects = effectsOf(seen);
    const team = teamOf(seen.seat);
    const worth = new Map<Move, number>();
    for (const move of moves) {
      const pegs = effects.get(moveKey(move))?.pegs ?? seen.pegs;
      if (won(pegs, team)) return move; // the winning move is never overlooked
      worth.set(move, progress(pegs, team) - discardCost(move));
    }
    const rng = this.rng;
    let seenMoves = moves.filter(
      (move) => rng.random() >= (move.action === "play" && move.steps.length > 1 ? this.overlookSplit : this.overlook),
    );
    if (seenMoves.length === 0) seenMoves = [rng.choice(moves)];
    const scores = seenMoves.map((move) => worth.get(move) as number);
    const top = Math.max(...scores);
    const cumulative: number[] = [];
    let sum = 0;
    for (const score of scores) {
      sum += Math.exp((score - top) / this.temperature);
      cumulative.push(sum);
    }
    // as Python's random.choices: bisect_right(cumulative, random() * total, 0, n - 1)
    const x = rng.random() * (sum + 0.0);
    let low = 0;
    let high = seenMoves.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (x < (cumulative[middle] as number)) high = middle;
      else low = middle + 1;
    }
    return seenMoves[low] as Move;
  }
}
