/**
 * Post-game analysis: each team's chance of winning at every ply of a finished record, as the
 * reference engine's `pegs_rules.analysis` works it out, to the bit ({@link analyze},
 * {@link analysisJson}, {@link chartSvg}).
 *
 * After a game every card is known, so the estimate is made with full knowledge: every hand,
 * the draw pile's order and the seed that orders every reshuffle. State `k` is the position
 * after `k` moves. Team 0's points there are `2 * playouts` if team 0 has won, 0 if team 1
 * has; the next state's if the seat to act has exactly one legal move; otherwise the sum over
 * `playouts` playouts to the end of the game by the bots' playout policy (the move gaining
 * most peg value, a random one with chance 0.1) of 2 for a win of team 0 and 1 for a playout
 * still going after {@link MAX_TURNS} turns. Playout `j` draws from a Mersenne Twister seeded
 * with the `j`-th 32-bit draw of one seeded with `seed` (the same for every state). A team's
 * chance is its points over `2 * playouts`. Ply `p` is move `p`: its mover's team's chance
 * before is at state `p - 1`, after at state `p`, its cost the difference. The costly plies
 * are the `marks` plies that cost most (more than nothing; ties the earlier first), each with
 * what `makeBot("expert:" + expert, seed + p)` plays at state `p - 1` seeing the mover's view.
 *
 * @module
 */
import { teamOf } from "./board.js";
import { botSeed, decide } from "./bots.js";
import { PegsError } from "./errors.js";
import { legalMoves } from "./movegen.js";
import { moveText, parseNotation } from "./moves.js";
import { Twister } from "./random.js";
import { checkedRecord, recordStart, replay, type GameRecord } from "./records.js";
import { makeBot, playoutWinner } from "./search.js";
import type { GameState } from "./state.js";
import { repr } from "./text.js";
import { apply } from "./turn.js";

/** Playouts a state unless told otherwise: the playground's budget. */
export const PLAYOUTS = 100;
/** Turns after which a playout that has not ended counts half a win for each team. */
export const MAX_TURNS = 10_000;

/** Options of {@link analyze}. */
export interface AnalysisOptions {
  /** Playouts a state (default {@link PLAYOUTS}). */
  readonly playouts?: number;
  /** The analysis's seed, a safe whole number from 0 (default 0). */
  readonly seed?: number;
  /** The expert's playouts a move, for the costly plies (default 1,000). */
  readonly expert?: number;
  /** How many costly plies to mark (default 3). */
  readonly marks?: number;
  /** Called after each state with how many are done, how many there are, and team 0's points
   * so far (`null`: not known yet). */
  readonly onProgress?: (done: number, states: number, points: readonly (number | null)[]) => void;
}

/** A costly ply: its number, the move played and the move the expert would have played. */
export interface Costly {
  readonly ply: number;
  readonly played: string;
  readonly expert: string;
}

/** The analysis of a record (see the module's description). */
export interface Analysis {
  readonly players: number;
  readonly seed: number;
  readonly playouts: number;
  readonly expert: number;
  /** Team 0's points at each state, `0..2 * playouts`. */
  readonly points: readonly number[];
  /** The mover of each ply, `seats[p - 1]` for ply `p`. */
  readonly seats: readonly number[];
  readonly moves: readonly string[];
  /** The costly plies, in the order of the game. */
  readonly costly: readonly Costly[];
}

/** One ply of {@link analysisJson}. */
export interface PlyAnalysis {
  readonly ply: number;
  readonly seat: number;
  readonly team: 0 | 1;
  readonly move: string;
  readonly before: number;
  readonly after: number;
  readonly cost: number;
  /** The expert's move, at a costly ply. */
  readonly expert?: string;
}

function whole(value: unknown, name: string, least: number): number {
  if (Number.isSafeInteger(value) && (value as number) >= least) return value as number;
  throw new PegsError(`${name}: a whole number from ${least}, not ${repr(value)}`);
}

/** The playouts' seeds: the first `playouts` 32-bit draws of a generator seeded with `seed`. */
function playoutSeeds(seed: number, playouts: number): number[] {
  const rng = new Twister(botSeed(seed));
  return Array.from({ length: playouts }, () => rng.bits(32));
}

/** The analysis of `record`. Throws a `ReplayError` if a move cannot be made. */
export function analyze(given: GameRecord, options: AnalysisOptions = {}): Analysis {
  if (typeof options !== "object" || options === null) throw new PegsError(`options: not an object, but ${repr(options)}`);
  if (options.onProgress !== undefined && typeof options.onProgress !== "function") {
    throw new PegsError(`onProgress: a function, not ${repr(options.onProgress)}`);
  }
  const record = checkedRecord(given);
  const playouts = whole(options.playouts ?? PLAYOUTS, "playouts", 1);
  const seed = whole(options.seed ?? 0, "seed", 0);
  const expert = whole(options.expert ?? 1000, "expert", 1);
  const marks = whole(options.marks ?? 3, "marks", 0);
  replay(record);
  const states: GameState[] = [recordStart(record)];
  for (const text of record.moves) states.push(apply(states[states.length - 1] as GameState, parseNotation(text)));
  const seeds = playoutSeeds(seed, playouts);
  const rng = new Twister(0n);
  const points: (number | null)[] = states.map(() => null);
  states.forEach((state, k) => {
    if (state.winner !== null) points[k] = state.winner === 0 ? 2 * playouts : 0;
    else if (legalMoves(state).length > 1 || k === states.length - 1) {
      let sum = 0;
      for (const s of seeds) {
        rng.reseed(s);
        const winner = playoutWinner(state, rng, MAX_TURNS);
        sum += winner === null ? 1 : 2 - 2 * winner;
      }
      points[k] = sum;
    }
    options.onProgress?.(k + 1, states.length, points);
  });
  for (let k = states.length - 2; k >= 0; k--) if (points[k] === null) points[k] = points[k + 1] as number;
  const known = points as number[];
  const seats = states.slice(0, -1).map((state) => state.turn);
  const costly = costlyPlies(known, seats, marks).map((p) => ({
    ply: p,
    played: record.moves[p - 1] as string,
    expert: moveText(decide(makeBot(`expert:${expert}`, BigInt(seed) + BigInt(p)), states[p - 1] as GameState)),
  }));
  return { players: record.players, seed, playouts, expert, points: known, seats, moves: [...record.moves], costly };
}

/** The `marks` plies of greatest cost above nothing, ties the earlier first, in order. */
function costlyPlies(points: readonly number[], seats: readonly number[], marks: number): number[] {
  const costs: [number, number][] = [];
  seats.forEach((seat, i) => {
    const drop = (points[i] as number) - (points[i + 1] as number);
    const cost = teamOf(seat) ? -drop : drop;
    if (cost > 0) costs.push([cost, i + 1]);
  });
  costs.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  return costs
    .slice(0, marks)
    .map(([, p]) => p)
    .sort((a, b) => a - b);
}

/** `analysis` if it is one as {@link analyze} makes them; else a `PegsError` says what is wrong. */
function checkedAnalysis(analysis: unknown): Analysis {
  if (typeof analysis !== "object" || analysis === null) throw new PegsError(`not an analysis: ${repr(analysis)}`);
  const a = analysis as Analysis;
  const playouts = whole(a.playouts, "playouts", 1);
  whole(a.seed, "seed", 0);
  whole(a.expert, "expert", 1);
  const players = whole(a.players, "players", 1);
  const list = (value: unknown, name: string, length?: number): unknown[] => {
    if (!Array.isArray(value) || (length !== undefined && value.length !== length)) {
      throw new PegsError(`${name}: a list${length === undefined ? "" : ` of ${length}`}, not ${repr(value)}`);
    }
    return value;
  };
  const points = list(a.points, "points");
  if (!points.length) throw new PegsError("points: at least the deal's");
  for (const p of points) if (!Number.isSafeInteger(p) || (p as number) < 0 || (p as number) > 2 * playouts) throw new PegsError(`points: 0 to ${2 * playouts}, not ${repr(p)}`);
  for (const seat of list(a.seats, "seats", points.length - 1)) if (!Number.isSafeInteger(seat) || (seat as number) < 0 || (seat as number) >= players) throw new PegsError(`seats: a seat, not ${repr(seat)}`);
  for (const move of list(a.moves, "moves", points.length - 1)) if (typeof move !== "string") throw new PegsError(`moves: text, not ${repr(move)}`);
  for (const c of list(a.costly, "costly")) {
    const { ply, played, expert } = (c ?? {}) as Partial<Costly>;
    if (!Number.isSafeInteger(ply) || (ply as number) < 1 || (ply as number) >= points.length || typeof played !== "string" || typeof expert !== "string") {
      throw new PegsError(`costly: { ply, played, expert } of a ply, not ${repr(c)}`);
    }
  }
  return a;
}

/** `team`'s chance of winning at state `state` of `analysis`. */
export function chance(analysis: Analysis, state: number, team: 0 | 1 = 0): number {
  const a = checkedAnalysis(analysis);
  const points = Number.isSafeInteger(state) ? a.points[state] : undefined;
  if (points === undefined) throw new PegsError(`state: from 0 to ${a.points.length - 1}, not ${repr(state)}`);
  if (team !== 0 && team !== 1) throw new PegsError(`team: 0 or 1, not ${repr(team)}`);
  return (team === 0 ? points : 2 * a.playouts - points) / (2 * a.playouts);
}

/** The numbers as JSON, as the reference's `Analysis.to_json` writes them. */
export function analysisJson(analysis: Analysis): {
  analysis: 1;
  players: number;
  seed: number;
  playouts: number;
  expert: number;
  chances: number[];
  plies: PlyAnalysis[];
  costly: Costly[];
} {
  checkedAnalysis(analysis);
  const experts = new Map(analysis.costly.map((c) => [c.ply, c.expert]));
  const plies = analysis.seats.map((seat, i): PlyAnalysis => {
    const p = i + 1;
    const team = teamOf(seat);
    const before = chance(analysis, p - 1, team);
    const after = chance(analysis, p, team);
    const ply = { ply: p, seat, team, move: analysis.moves[i] as string, before, after, cost: before - after };
    const expert = experts.get(p);
    return expert === undefined ? ply : { ...ply, expert };
  });
  return {
    analysis: 1,
    players: analysis.players,
    seed: analysis.seed,
    playouts: analysis.playouts,
    expert: analysis.expert,
    chances: analysis.points.map((_, k) => chance(analysis, k)),
    plies,
    costly: analysis.costly.map((c) => ({ ...c })),
  };
}

const WIDTH = 640;
const HEIGHT = 200;

/** `team`'s chance at `state` in whole percent, rounded down. */
function percent(analysis: Analysis, state: number, team: number): string {
  const points = analysis.points[state] as number;
  const full = 2 * analysis.playouts;
  return `${Math.floor((100 * (team === 0 ? points : full - points)) / full)}%`;
}

/**
 * The chart of team 0's chance over the game as an SVG document, the same text as the
 * reference's `chart_svg`: a line through every state, the costly plies marked as links to
 * `#ply-P` (with `data-ply`), a title and a description.
 */
export function chartSvg(analysis: Analysis): string {
  checkedAnalysis(analysis);
  const n = analysis.points.length - 1;
  const full = 2 * analysis.playouts;
  const x = (k: number): number => Math.floor((WIDTH * k) / Math.max(n, 1));
  const y = (points: number): number => HEIGHT - Math.floor((HEIGHT * points) / full);
  const line = analysis.points.map((p, k) => `${x(k)},${y(p)}`).join(" ");
  const marks = analysis.costly.map((c) => {
    const team = teamOf(analysis.seats[c.ply - 1] as number);
    const label =
      `Ply ${c.ply}: team ${team} lost ${percent(analysis, c.ply - 1, team)} to ${percent(analysis, c.ply, team)} ` +
      `with ${c.played}; the expert would have played ${c.expert}`;
    return (
      `<a href="#ply-${c.ply}" class="costly" data-ply="${c.ply}" aria-label="${label}">` +
      `<title>${label}</title>` +
      `<line x1="${x(c.ply)}" y1="0" x2="${x(c.ply)}" y2="${HEIGHT}" class="mark-line" stroke="#c01c28"/>` +
      `<circle cx="${x(c.ply)}" cy="${y(analysis.points[c.ply] as number)}" r="7" class="mark" fill="#c01c28"/></a>`
    );
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-8 -8 ${WIDTH + 16} ${HEIGHT + 16}" ` +
    `class="analysis-chart" aria-labelledby="chart-title chart-desc">` +
    `<title id="chart-title">Team 0's chance of winning, ply by ply</title>` +
    `<desc id="chart-desc">${n} plies, ${analysis.playouts} playouts a state: team 0 ` +
    `${percent(analysis, 0, 0)} at the deal, ${percent(analysis, n, 0)} at the end; ${analysis.costly.length} costly plies marked.` +
    `</desc>` +
    `<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" class="frame" fill="#fff" stroke="#888"/>` +
    `<line x1="0" y1="${HEIGHT >> 1}" x2="${WIDTH}" y2="${HEIGHT >> 1}" class="even" stroke="#888" stroke-dasharray="4 4"/>` +
    `<text x="8" y="26" class="label" font-family="sans-serif" font-size="22" fill="#57606a">team 0 wins: 100%</text>` +
    `<text x="6" y="${HEIGHT - 8}" class="label" font-family="sans-serif" font-size="22" fill="#57606a">0%</text>` +
    `<polyline points="${line}" class="chance" fill="none" stroke="#1a5fb4" stroke-width="2"/>${marks.join("")}</svg>\n`
  );
}
