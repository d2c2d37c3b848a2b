/**
 * The searching bots, choosing exactly as the reference engine's of the same names do from the
 * same seed and playout budget: {@link MctsBot} (the level "hard") and {@link ExpertBot} (the
 * level "expert"), and {@link makeBot}, which makes any bot by name.
 *
 * Both see only a seat's {@link PlayerView}. They deal the cards it cannot see at random (the
 * deck less the seat's hand and the face-up discard pile) into the other hands and the draw
 * pile, try their candidate moves (the best few by {@link evaluate}) on such deals, play each
 * game on for 8 turns with a cheap greedy policy (the move gaining most peg value, now and then
 * a random one), and score where that leaves the game as a win chance. The hard bot picks the
 * move to try by UCB1 and plays the most tried; the expert counts the joker's threat in its
 * evaluation, plays every candidate on the same deal with the same playout seed, and drops the
 * worse half of its candidates after each round (sequential halving).
 *
 * A budget is a number of playouts a move (the same choice every time for a seeded bot: all it
 * draws comes from its own Mersenne Twister, drawn as CPython's `random.Random`) or seconds of
 * thinking a move (wall-clock time here; the reference counts its thread's CPU time). An
 * iteration budget is also capped in time (`maxSeconds`), as in the reference, so that a move
 * never takes much longer on a slow machine (where the choice may then depend on timing).
 *
 * @module
 */
import { HOME_BASE, teamOf } from "./board.js";
import { buildDeck, JOKER, TWO, type Rank } from "./cards.js";
import {
  botSeed,
  checked,
  discardCost,
  EasyBot,
  effectsOf,
  evaluate,
  GreedyBot,
  moveKey,
  RandomBot,
  valueOf,
  valuesFor,
  WIN,
  won,
  type Bot,
  type Effect,
} from "./bots.js";
import { PegsError } from "./errors.js";
import { seatsToMove } from "./movegen.js";
import { moveText, type Move } from "./moves.js";
import { cardPlays, splits, type PlayList } from "./plays.js";
import { Twister } from "./random.js";
import { deckFor, type Rules } from "./rules.js";
import { reshuffled, type GameState } from "./state.js";
import { repr } from "./text.js";
import type { PlayerView } from "./views.js";
import { geometryFor, WorkBoard, type Geometry } from "./workboard.js";

/** Options of {@link MctsBot} and {@link ExpertBot}: a budget of playouts or of seconds a move. */
export interface SearchOptions {
  /** Playouts a move, when `seconds` is not given (hard: 300, expert: 1,000). */
  readonly iterations?: number;
  /** Seconds of thinking a move (wall-clock); overrides `iterations`. */
  readonly seconds?: number;
  /** A cap on an iteration budget's thinking time, in seconds (hard: 1, expert: 3). */
  readonly maxSeconds?: number;
}

const DEPTH = 8;
const WIDTH = 8;
const SCALE = 30.0;
const EPSILON = 0.1;
const EXPLORATION = 0.4;

/** A whole number of playouts, at least 1. */
function iterationsOf(value: unknown): number {
  if (Number.isSafeInteger(value) && (value as number) > 0) return value as number;
  throw new PegsError(`iterations: a whole number above 0, not ${repr(value)}`);
}

/** Seconds, above 0 and finite. */
function secondsOf(value: unknown, name: string): number {
  if (typeof value === "number" && value > 0 && Number.isFinite(value)) return value;
  throw new PegsError(`${name}: a number of seconds above 0, not ${repr(value)}`);
}

/** The budget of a searching bot: playouts, seconds (or `undefined`), and the cap in seconds. */
interface Budget {
  readonly iterations: number;
  readonly seconds: number | undefined;
  readonly maxSeconds: number;
}

function budgetOf(options: unknown, iterations: number, maxSeconds: number): Budget {
  if (typeof options !== "object" || options === null) throw new PegsError(`options: not an object, but ${repr(options)}`);
  const o = options as SearchOptions;
  return {
    iterations: o.iterations === undefined ? iterations : iterationsOf(o.iterations),
    seconds: o.seconds === undefined ? undefined : secondsOf(o.seconds, "seconds"),
    maxSeconds: o.maxSeconds === undefined ? maxSeconds : secondsOf(o.maxSeconds, "maxSeconds"),
  };
}

/** The clock a time budget is counted in, in seconds. */
function clock(): number {
  return Date.now() / 1000;
}

/**
 * The candidates of a search: the `width` moves whose positions {@link evaluate} (`joker` as
 * there) likes best, best first (ties in the order listed); only the winning move if one wins.
 */
function shortlist(seen: PlayerView, moves: readonly Move[], effects: Map<string, Effect>, joker: boolean): Move[] {
  if (moves.length === 1) return [moves[0] as Move];
  for (const move of moves) {
    if (!effects.has(moveKey(move))) throw new PegsError(`a bot chooses among the legal moves: ${moveText(move)} is not one`);
  }
  const team = teamOf(seen.seat);
  const scores = moves.map((move) => {
    const pegs = effects.get(moveKey(move))?.pegs ?? seen.pegs;
    return won(pegs, team) ? WIN : evaluate(pegs, team, seen.rules, joker) - discardCost(move);
  });
  const order = moves.map((_, i) => i).sort((a, b) => (scores[b] as number) - (scores[a] as number));
  const best = order[0] as number;
  if ((scores[best] as number) >= WIN) return [moves[best] as Move];
  return order.slice(0, WIDTH).map((i) => moves[i] as Move);
}

/** Deals of the cards a view hides, as the reference's `determinize` and `Sampler` deal them. */
class Sampler {
  private first: GameState | undefined;
  private readonly base: GameState;
  private readonly hidden: Rank[];
  private readonly seat: number;

  constructor(seen: PlayerView, rng: Twister) {
    const players = seen.pegs.length;
    const counts = new Array<number>(JOKER + 1).fill(0);
    for (const card of buildDeck(...deckFor(seen.rules, players))) counts[card] = (counts[card] as number) + 1;
    for (const card of [...seen.hand, ...seen.discardPile]) counts[card] = (counts[card] as number) - 1;
    const unseen: Rank[] = [];
    for (let rank = 1; rank <= JOKER; rank++) for (let n = 0; n < (counts[rank] as number); n++) unseen.push(rank as Rank);
    rng.shuffle(unseen);
    this.seat = seen.seat;
    const base = this.deal(seen, unseen, BigInt(rng.bits(32)));
    this.first = base;
    this.base = base;
    this.hidden = [...base.hands.filter((_, s) => s !== seen.seat).flat(), ...base.drawPile];
  }

  /** A state of `seen`'s public part, its hidden cards dealt from `cards` in order. */
  private deal(seen: PlayerView, cards: Rank[], seed: bigint): GameState {
    const hands: (readonly Rank[])[] = [];
    let dealt = 0;
    seen.handSizes.forEach((size, s) => {
      if (s === this.seat) hands.push(seen.hand);
      else {
        hands.push(cards.slice(dealt, dealt + size).sort((a, b) => a - b));
        dealt += size;
      }
    });
    return {
      rules: seen.rules,
      pegs: seen.pegs,
      hands,
      drawPile: cards.slice(dealt),
      discardPile: seen.discardPile,
      turn: seen.turn,
      dealer: seen.dealer,
      seed,
      reshuffles: seen.reshuffles,
      ply: seen.ply,
      winner: seen.winner,
    };
  }

  /** A deal of the view's hidden cards, drawn from `rng` (the first is the one made at first). */
  sample(rng: Twister): GameState {
    const first = this.first;
    if (first !== undefined) {
      this.first = undefined;
      return first;
    }
    const cards = [...this.hidden];
    rng.shuffle(cards);
    const base = this.base;
    const hands: (readonly Rank[])[] = [];
    let dealt = 0;
    base.hands.forEach((hand, s) => {
      if (s === this.seat) hands.push(hand);
      else {
        hands.push(cards.slice(dealt, dealt + hand.length).sort((a, b) => a - b));
        dealt += hand.length;
      }
    });
    return { ...base, hands, drawPile: cards.slice(dealt), seed: BigInt(rng.bits(32)) };
  }
}

const NONE: readonly number[] = [];
const NONE_CARDS: readonly Rank[] = [];

/** What a peg of each colour is worth on each slot, `bySlot[colour * slots + slot]`, by board size. */
const SLOT_VALUES = new Map<number, Float64Array>();

let lastGeometry: Geometry | undefined;
let lastValues: Float64Array | undefined;

function slotValues(g: Geometry): Float64Array {
  if (g === lastGeometry) return lastValues as Float64Array;
  let values = SLOT_VALUES.get(g.players);
  if (values === undefined) {
    values = new Float64Array(g.players * g.slots);
    const tables = valuesFor(g.players);
    for (let seat = 0; seat < g.players; seat++) {
      for (let slot = 0; slot < g.slots; slot++) {
        values[seat * g.slots + slot] = valueOf(tables[seat] as Float64Array, g.locationOf(slot), g.length);
      }
    }
    SLOT_VALUES.set(g.players, values);
  }
  lastGeometry = g;
  lastValues = values;
  return values;
}

/**
 * A game during a playout, changed in place turn by turn (as the reference's `Table`): what
 * the engine's `apply` would make of each turn, without making a state for it.
 */
class Table {
  readonly rules: Rules;
  readonly g: Geometry;
  readonly pegs: number[][];
  readonly hands: Rank[][];
  drawPile: readonly Rank[];
  drawn = 0;
  /** The discard pile: `shared` (the state's, not copied) then the cards played since. */
  shared: readonly Rank[];
  discards: Rank[] = [];
  readonly seed: bigint;
  reshuffles: number;
  turn: number;
  winner: 0 | 1 | null;

  constructor(state: GameState) {
    this.rules = state.rules;
    this.g = geometryFor(state.pegs.length);
    this.pegs = state.pegs.map((row) => [...row]);
    this.hands = state.hands.map((hand) => [...hand]);
    this.drawPile = state.drawPile;
    this.shared = state.discardPile;
    this.seed = state.seed;
    this.reshuffles = state.reshuffles;
    this.turn = state.turn;
    this.winner = state.winner;
  }

  /** The turn of the seat to act: `card` played (`null`: a pass) with `changes`, as `carryOut`. */
  carryOut(card: Rank | null, changes: readonly number[]): void {
    const seat = this.turn;
    const hands = this.hands;
    if (card !== null) {
      const hand = hands[seat] as Rank[];
      hand.splice(hand.indexOf(card), 1);
      this.discards.push(card);
    }
    if (changes.length) {
      const g = this.g;
      const size = g.slots;
      let home = false;
      for (const code of changes) {
        const seatOf = Math.floor(code / (size * size));
        const to = code % size;
        const row = this.pegs[seatOf] as number[];
        row.splice(row.indexOf(g.locationOf(Math.floor(code / size) % size)), 1);
        const location = g.locationOf(to);
        let at = row.length;
        while (at > 0 && (row[at - 1] as number) > location) at--;
        row.splice(at, 0, location);
        if (to > g.length) home = true;
      }
      if (home && this.allHome(seat & 1)) {
        this.winner = (seat & 1) as 0 | 1;
        return;
      }
    }
    const players = this.pegs.length;
    const following = (seat + 1) % players;
    const rules = this.rules;
    const drawer = rules.drawFirst ? following : seat;
    const size = rules.handSize + (rules.drawFirst ? 1 : 0);
    const hand = hands[drawer] as Rank[];
    if (hand.length < size) {
      const need = size - hand.length;
      let taken = 0;
      while (taken < need) {
        if (this.drawn === this.drawPile.length) {
          if (this.shared.length + this.discards.length === 0) break;
          this.drawPile = reshuffled(this.seed, this.reshuffles, [...this.shared, ...this.discards]);
          this.shared = NONE_CARDS;
          this.reshuffles += 1;
          this.drawn = 0;
          this.discards = [];
        }
        const card = this.drawPile[this.drawn++] as Rank;
        let at = hand.length; // kept sorted: the card goes in after those not above it
        hand.push(card);
        while (at > 0 && (hand[at - 1] as number) > card) {
          hand[at] = hand[at - 1] as Rank;
          at--;
        }
        hand[at] = card;
        taken++;
      }
    }
    this.turn = following;
  }

  private allHome(team: number): boolean {
    for (let seat = team; seat < this.pegs.length; seat += 2) {
      for (const p of this.pegs[seat] as number[]) if (p <= HOME_BASE) return false;
    }
    return true;
  }
}

const tieRanks: number[] = [];
const tieKeys: number[] = [];
const tieChanges: (readonly number[])[] = [];

/**
 * One turn of a playout, as the reference's `playout_turn`: the option whose changes gain the
 * mover's team most peg value, or with chance {@link EPSILON} a random one; ties at random, the
 * options in the order of the legal moves (plays by card then key, then discards).
 */
function playoutTurn(table: Table, rng: Twister): void {
  const seat = table.turn;
  const hand = table.hands[seat] as Rank[];
  if (hand.length === 0) {
    table.carryOut(null, NONE);
    return;
  }
  const rules = table.rules;
  const seats = seatsToMove(table.pegs, seat, rules);
  const board = WorkBoard.scratch(table.pegs, seat & 1, rules) as WorkBoard;
  const g = board.g;
  const ranks: Rank[] = [];
  for (const card of hand) if (ranks[ranks.length - 1] !== card) ranks.push(card);
  const lists: PlayList[] = [];
  let other = false;
  let pairing = false;
  for (const rank of ranks) {
    const list = cardPlays(board, seats, rank, rules, false);
    lists.push(list);
    if (rank !== JOKER && list.keys.length > 0) other = true;
    if (splits(rank, rules) || (rank === TWO && rules.twoSwap)) pairing = true;
  }
  if (!other && pairing) {
    for (let r = 0; r < ranks.length; r++) {
      const list = cardPlays(board, seats, ranks[r] as Rank, rules); // the hand may have only splits
      lists[r] = list;
      if (ranks[r] !== JOKER && list.keys.length > 0) other = true;
    }
  }
  const discards = other ? 0 : ranks.length;
  let count = discards;
  for (const list of lists) count += list.keys.length;
  if (count === 1 || rng.random() < EPSILON) {
    let pick = rng.below(count);
    for (let r = 0; r < ranks.length; r++) {
      const list = lists[r] as PlayList;
      if (pick < list.keys.length) {
        const order = list.keys.map((_, i) => i).sort((x, y) => (list.keys[x] as number) - (list.keys[y] as number));
        table.carryOut(ranks[r] as Rank, list.changes[order[pick] as number] as readonly number[]);
        return;
      }
      pick -= list.keys.length;
    }
    table.carryOut(ranks[pick] as Rank, NONE);
    return;
  }
  const values = slotValues(g);
  const size = g.slots;
  const square = size * size;
  const team = seat & 1;
  let ties = 0;
  let bestGain = -Infinity;
  for (let r = 0; r < ranks.length; r++) {
    const list = lists[r] as PlayList;
    const keys = list.keys;
    for (let i = 0; i < keys.length; i++) {
      const made = list.changes[i] as readonly number[];
      let gain = 0.0;
      for (let c = 0; c < made.length; c++) {
        const code = made[c] as number;
        const colour = Math.floor(code / square);
        const move = code - colour * square;
        const src = Math.floor(move / size);
        const base = colour * size;
        const delta = (values[base + move - src * size] as number) - (values[base + src] as number);
        gain += colour & 1 ? -delta : delta;
      }
      if (team) gain = -gain;
      if (gain >= bestGain) {
        if (gain > bestGain) {
          ties = 0;
          bestGain = gain;
        }
        tieRanks[ties] = r;
        tieKeys[ties] = keys[i] as number;
        tieChanges[ties] = made;
        ties++;
      }
    }
  }
  if (discards && bestGain <= 0.0) {
    if (bestGain < 0.0) ties = 0;
    for (let r = 0; r < ranks.length; r++) {
      tieRanks[ties] = ranks.length + r; // after every play
      tieKeys[ties] = 0;
      tieChanges[ties] = NONE;
      ties++;
    }
  }
  let chosen = 0;
  if (ties > 1) {
    // the ties in the order of the legal moves: by card, then key (discards last)
    const order: number[] = [];
    for (let t = 0; t < ties; t++) order.push(t);
    order.sort((x, y) => (tieRanks[x] as number) - (tieRanks[y] as number) || (tieKeys[x] as number) - (tieKeys[y] as number));
    chosen = order[rng.below(ties)] as number;
  }
  const r = tieRanks[chosen] as number;
  table.carryOut(ranks[r < ranks.length ? r : r - ranks.length] as Rank, tieChanges[chosen] as readonly number[]);
}

/**
 * The winning team after at most `turns` turns of the playouts' policy from `state`, hands and
 * deck as they are (`null`: no winner yet), as the reference's `playout.playout` plays them.
 * @internal
 */
export function playoutWinner(state: GameState, rng: Twister, turns: number): 0 | 1 | null {
  const table = new Table(state);
  for (let turn = 0; turn < turns && table.winner === null; turn++) playoutTurn(table, rng);
  return table.winner;
}

/**
 * The win chance of `team` after candidate `move` in `state` (its changes in `effects`, the same
 * in every deal) and {@link DEPTH} turns of playout.
 */
function playoutValue(state: GameState, move: Move, effects: Map<string, Effect>, team: number, rng: Twister, joker: boolean): number {
  const table = new Table(state);
  if (move.action === "play") table.carryOut(move.card, (effects.get(moveKey(move)) as Effect).changes);
  else table.carryOut(move.action === "discard" ? move.card : null, NONE);
  for (let turn = 0; turn < DEPTH && table.winner === null; turn++) playoutTurn(table, rng);
  if (table.winner !== null) return table.winner === team ? 1.0 : 0.0;
  const score = evaluate(table.pegs, team, table.rules, joker);
  return 1.0 / (1.0 + Math.exp(-score / SCALE));
}

/**
 * The level "hard": information-set Monte Carlo tree search over deals of the hidden cards, UCB1
 * among the best 8 moves by {@link evaluate}, as the reference's `MctsBot` (300 playouts a move
 * unless told otherwise).
 */
export class MctsBot implements Bot {
  private readonly rng: Twister;
  private readonly budget: Budget;

  constructor(seed: number | bigint = 0, options: SearchOptions = {}) {
    this.rng = new Twister(botSeed(seed));
    this.budget = budgetOf(options, 300, 1.0);
  }

  choose(seen: PlayerView, moves: readonly Move[]): Move {
    checked(seen, moves);
    const effects = moves.length === 1 ? new Map<string, Effect>() : effectsOf(seen);
    const candidates = shortlist(seen, moves, effects, false);
    if (candidates.length === 1) return candidates[0] as Move;
    const n = candidates.length;
    const team = teamOf(seen.seat);
    const visits = new Array<number>(n).fill(0);
    const totals = new Array<number>(n).fill(0.0);
    const rng = this.rng;
    const sampler = new Sampler(seen, rng);
    const { iterations, seconds, maxSeconds } = this.budget;
    const deadline = clock() + (seconds ?? maxSeconds);
    for (let done = 0; ; ) {
      if (seconds === undefined && done >= iterations) break;
      if (done && clock() >= deadline) break;
      done += 1;
      let i = done - 1;
      if (done > n) {
        const logN = Math.log(done);
        let top = -Infinity;
        for (let k = 0; k < n; k++) {
          const v = visits[k] as number;
          const score = (totals[k] as number) / v + EXPLORATION * Math.sqrt(logN / v);
          if (score > top) {
            top = score;
            i = k;
          }
        }
      }
      const value = playoutValue(sampler.sample(rng), candidates[i] as Move, effects, team, rng, false);
      visits[i] = (visits[i] as number) + 1;
      totals[i] = (totals[i] as number) + value;
    }
    let best = 0;
    for (let k = 1; k < n; k++) {
      const vk = visits[k] as number;
      const vb = visits[best] as number;
      if (vk > vb || (vk === vb && (totals[k] as number) / Math.max(vk, 1) > (totals[best] as number) / Math.max(vb, 1))) best = k;
    }
    return candidates[best] as Move;
  }
}

/**
 * The level "expert", as the reference's `ExpertBot`: it fears the joker in its evaluation,
 * plays every candidate on the same deals with the same playout seeds, and halves its candidates
 * after each round (1,000 playouts a move unless told otherwise).
 */
export class ExpertBot implements Bot {
  private readonly rng: Twister;
  private readonly budget: Budget;

  constructor(seed: number | bigint = 0, options: SearchOptions = {}) {
    this.rng = new Twister(botSeed(seed));
    this.budget = budgetOf(options, 1000, 3.0);
  }

  choose(seen: PlayerView, moves: readonly Move[]): Move {
    checked(seen, moves);
    const effects = moves.length === 1 ? new Map<string, Effect>() : effectsOf(seen);
    const candidates = shortlist(seen, moves, effects, true);
    if (candidates.length === 1) return candidates[0] as Move;
    const team = teamOf(seen.seat);
    const rng = this.rng;
    const sampler = new Sampler(seen, rng);
    const totals = new Array<number>(candidates.length).fill(0.0);
    let alive = candidates.map((_, i) => i);
    const rounds = Math.max(1, Math.ceil(Math.log2(candidates.length)));
    const { iterations, seconds, maxSeconds } = this.budget;
    const began = clock();
    const budget = seconds ?? maxSeconds;
    let played = 0;
    const playouts = new Twister(0n); // keyed anew for each deal's playouts
    for (let round = 0; round < rounds; round++) {
      const left = rounds - round;
      const now = clock();
      const deadline = now + (began + budget - now) / left;
      const deals = Math.max(1, Math.floor(Math.floor((iterations - played) / left) / alive.length));
      for (let dealt = 0; (seconds !== undefined || dealt < deals) && !(dealt && clock() >= deadline); dealt++) {
        const state = sampler.sample(rng);
        const seed = rng.bits(32);
        for (const i of alive) {
          playouts.reseed(seed);
          totals[i] = (totals[i] as number) + playoutValue(state, candidates[i] as Move, effects, team, playouts, true);
        }
        played += alive.length;
      }
      if (left > 1) {
        alive.sort((a, b) => (totals[b] as number) - (totals[a] as number));
        alive = alive.slice(0, (alive.length + 1) >> 1);
      }
    }
    let best = alive[0] as number;
    for (const i of alive) if ((totals[i] as number) > (totals[best] as number)) best = i;
    return candidates[best] as Move;
  }
}

/**
 * A bot by name, as the reference engine's `make_bot` names them: `random`, `easy`, `medium`
 * (the same as `greedy`), `hard` (the same as `mcts`, 300 playouts a move) and `expert` (1,000
 * playouts a move). A searching bot takes a budget after a colon: `hard:500` or `expert:500` for
 * 500 playouts a move, `hard:0.2s` or `expert:0.2s` for 0.2 seconds of thinking a move.
 */
export function makeBot(name: string, seed: number | bigint = 0): Bot {
  if (typeof name !== "string") throw new PegsError(`a bot's name is text, not ${repr(name)}`);
  const spec = name.trim();
  const colon = spec.indexOf(":");
  const kind = colon < 0 ? spec : spec.slice(0, colon);
  const budget = colon < 0 ? "" : spec.slice(colon + 1);
  if (!budget) {
    switch (kind) {
      case "random":
        return new RandomBot(seed);
      case "easy":
        return new EasyBot(seed);
      case "greedy":
      case "medium":
        return new GreedyBot(seed);
    }
  }
  const Searching = kind === "mcts" || kind === "hard" ? MctsBot : kind === "expert" ? ExpertBot : undefined;
  if (Searching === undefined) {
    throw new PegsError(
      `unknown bot ${repr(name)}: choose from random, easy, medium, hard, expert, greedy, mcts ` +
        "(mcts, hard and expert take a budget: NAME:ITERATIONS or NAME:SECONDSs)",
    );
  }
  if (!budget) return new Searching(seed);
  if (/^[0-9]+$/.test(budget) && Number.isSafeInteger(Number(budget)) && Number(budget) > 0) {
    return new Searching(seed, { iterations: Number(budget) });
  }
  const seconds = budget.endsWith("s") ? Number(budget.slice(0, -1)) : NaN;
  if (/^[0-9.eE+-]+s$/.test(budget) && seconds > 0 && Number.isFinite(seconds)) return new Searching(seed, { seconds });
  throw new PegsError(`bad budget ${repr(budget)} for ${kind}: write iterations (${kind}:300) or seconds (${kind}:0.2s)`);
}
