/**
 * Why a move is illegal: {@link whyIllegal} names the ruling, {@link explain} gives the verdict
 * on any move. The legal moves stay the one authority on legality; a move not among them is
 * judged by the checks of `move.verdict`, one function each, run in the order of
 * `VERDICT_ORDER` (generated from `specs/verdict.json`): the game, the kind of move, the card,
 * then each step from its peg to its path to where it lands. The first check it fails names
 * the ruling.
 *
 * @module
 */
import { isTrack, isValidLocation, locationName, START, teamOf } from "./board.js";
import { cardSymbol, comesOut, EIGHT, isRank, JOKER, NINE, SEVEN, TWO, type Rank } from "./cards.js";
import { found, legalMoves, movableSeats, playChanges } from "./movegen.js";
import { moveText, sameMove, type Move, type Play, type Step } from "./moves.js";
import { forwardSteps, splits } from "./plays.js";
import type { Rules } from "./rules.js";
import type { GameState } from "./state.js";
import { repr } from "./text.js";
import { guarded } from "./validate.js";
import { VERDICT_ORDER, type Check, type CheckName } from "./verdict-order.js";
import { samePosition, WorkBoard, type Geometry } from "./workboard.js";

/** A ruling's id and a sentence. */
export interface Reason {
  readonly rule: string;
  readonly reason: string;
}

/** The verdict on one move. */
export interface Explanation {
  /** Whether the move is legal (listed, or a listed move written the other way). */
  readonly legal: boolean;
  /** The id of the ruling that forbids it; `null` when legal. */
  readonly rule: string | null;
  /** One sentence. */
  readonly reason: string;
}

const CARD_RULES: Partial<Record<Rank, string>> = {
  1: "card.ace",
  7: "card.seven",
  8: "card.eight",
  9: "card.nine",
  11: "card.face",
  12: "card.face",
  13: "card.face",
  14: "card.joker",
};

/** The ruling that gives a card its meaning. */
export function cardRule(rank: Rank): string {
  return CARD_RULES[rank] ?? "card.number";
}

function splitRule(rank: Rank): string {
  return rank === SEVEN ? "card.seven.split" : cardRule(rank);
}

function reason(rule: string, text: string): Reason {
  return { rule, reason: text };
}

/**
 * Whether the seat to act may make `move` (any value) in `state`, and if not, which ruling
 * forbids it and why. A listed move written the other way round is legal: it is that move.
 */
export function explain(state: GameState, move: unknown): Explanation {
  return guarded(state, () => {
    const moves = legalMoves(state);
    if (isMove(move) && moves.some((m) => sameMove(m, move))) {
      return { legal: true, rule: null, reason: `${moveText(move)} is a legal move for seat ${state.turn}` };
    }
    const same = isMove(move) ? otherWriting(state, move) : undefined;
    if (same !== undefined) {
      const how =
        same.play.card === TWO
          ? "written from the other peg (variant.two-swap.order)"
          : "in the other order, with the same result (card.seven.split.order)";
      return {
        legal: true,
        rule: null,
        reason: `${moveText(move as Move)} is the legal move ${moveText(same.play)} ${how}`,
      };
    }
    const why = whyIllegal(state, move);
    return { legal: false, rule: why.rule, reason: why.reason };
  });
}

/** Whether `value` has the shape of a move (whatever its card and steps hold). */
export function isMove(value: unknown): value is Move {
  if (typeof value !== "object" || value === null) return false;
  const move = value as Record<string, unknown>;
  if (move["action"] === "pass") return true;
  if (move["action"] === "discard") return isRank(move["card"]);
  return move["action"] === "play" && isRank(move["card"]) && stepsOk(move["steps"]);
}

function stepsOk(steps: unknown): steps is readonly Step[] {
  return (
    Array.isArray(steps) &&
    steps.every(
      (s) =>
        typeof s === "object" &&
        s !== null &&
        Number.isSafeInteger((s as Step).seat) &&
        Number.isSafeInteger((s as Step).from) &&
        Number.isSafeInteger((s as Step).to),
    )
  );
}

/** The first ruling `move` breaks in `state` (see the module). */
export function whyIllegal(state: GameState, move: unknown): Reason {
  const action = typeof move === "object" && move !== null ? (move as { action?: unknown }).action : undefined;
  if (action !== "play" && action !== "discard" && action !== "pass") {
    return reason("turn.sequence", `not a move: ${repr(move)}`);
  }
  if (action !== "pass") {
    const card = (move as { card?: unknown }).card;
    if (!isRank(card)) return reason("turn.sequence", `not a card: ${repr(card)}`);
  }
  if (action === "play") {
    const steps = (move as { steps?: unknown }).steps;
    if (!stepsOk(steps)) {
      return reason("turn.sequence", `steps must be a list of {seat, from, to} whole numbers, not ${repr(steps)}`);
    }
  }
  return firstFault(state, move as Move)?.reason ?? reason("turn.sequence", "not a legal move");
}

/** A check of `move.verdict` that a move fails: the check, the step (`null`: the move), why. */
interface Fault {
  readonly check: Check;
  readonly step: number | null;
  readonly reason: Reason;
}

/** The verdict: the first check of `move.verdict` that `move` fails, if any. */
function firstFault(state: GameState, move: Move): Fault | undefined {
  for (const fault of judge(state, move)) return fault;
  return undefined;
}

/**
 * The checks `move` fails, in the order of `VERDICT_ORDER` (`specs/verdict.json`); lazy: the
 * first is the verdict. A play's steps are judged in turn, each on the board the steps before
 * it left; a step that cannot be carried out ends the judging.
 */
function* judge(state: GameState, move: Move): Generator<Fault> {
  const j = new Judging(state, move);
  const order = VERDICT_ORDER.filter((c) => c.when === null || state.rules[c.when.field] === c.when.value);
  for (const check of order) {
    if (check.scope !== "move") continue;
    const found = CHECKS[check.name](j);
    if (found !== undefined) yield { check, step: null, reason: found };
  }
  if (move.action !== "play") return;
  if (j.swap) {
    for (const check of order) {
      if (check.scope !== "swap") continue;
      const found = CHECKS[check.name](j);
      if (found !== undefined) yield { check, step: 0, reason: found };
    }
    return;
  }
  for (let index = 0; index < j.steps.length; index++) {
    j.at(index);
    for (const check of order) {
      if (check.scope !== "step") continue;
      const found = CHECKS[check.name](j);
      if (found !== undefined) yield { check, step: index, reason: found };
    }
    if (!(j.holesOk() && j.pegThere())) return;
    const changes = j.work.resolve(j.step.seat, j.src, j.dst);
    if (changes === null) return;
    j.work.perform(changes);
    if (index === 0) {
      j.first = j.reading;
      j.moved = movedTo(j.work.g, changes, j.step.seat, j.dst);
    }
  }
}

/** Where a peg of `seat` that went to slot `to` stands after `changes` (knocked on along a chain). */
function movedTo(g: Geometry, changes: readonly number[], seat: number, to: number): number {
  let at = to;
  for (const code of changes.slice(1)) {
    const dst = code % g.slots;
    const src = Math.floor(code / g.slots) % g.slots;
    if (Math.floor(code / (g.slots * g.slots)) === seat && src === at) at = dst;
  }
  return at;
}

/** How a forward-moving card's step is read: its direction, its count and what blocks it. */
interface Reading {
  readonly backward: boolean;
  readonly n: number;
  /** Whether a peg of the mover's colour is on the path: first on the track, or in the home lane. */
  readonly block: "clear" | "track" | "home";
}

/** What the checks look at: the move, and the step being judged on the working board. */
class Judging {
  readonly rules: Rules;
  readonly rank: Rank | null;
  readonly steps: readonly Step[];
  readonly movable: readonly number[];
  readonly work: WorkBoard;
  readonly players: number;
  readonly split: boolean;
  readonly swap: boolean;
  readonly total: number;
  index = 0;
  step: Step = { seat: 0, from: START, to: START };
  /** The step's ends as slots of the working board (-1 for a hole the board lacks). */
  src = -1;
  dst = -1;
  reading: Reading | undefined = undefined;
  first: Reading | undefined = undefined;
  /** The slot where the peg the first step moved stands once that step is carried out. */
  moved = -1;

  constructor(
    readonly state: GameState,
    readonly move: Move,
  ) {
    this.rules = state.rules;
    this.rank = move.action === "pass" ? null : move.card;
    this.steps = move.action === "play" ? move.steps : [];
    this.movable = movableSeats(state);
    this.work = workBoard(state);
    this.players = state.pegs.length;
    const rank = this.rank;
    this.swap = rank === TWO && this.rules.twoSwap && this.steps.length === 2;
    this.split = rank !== null && this.steps.length === 2 && splits(rank, this.rules) && !this.swap;
    this.total = rank === null ? 0 : forwardSteps(rank, this.rules);
  }

  /** Judge step `index` next. */
  at(index: number): void {
    this.index = index;
    this.step = this.steps[index] as Step;
    const valid = (location: number): boolean => isValidLocation(location, this.players);
    this.src = valid(this.step.from) ? this.work.g.slotOf(this.step.from) : -1;
    this.dst = valid(this.step.to) ? this.work.g.slotOf(this.step.to) : -1;
    this.reading = read(this);
  }

  seatOk(): boolean {
    return this.step.seat >= 0 && this.step.seat < this.players;
  }

  holesOk(): boolean {
    return this.seatOk() && this.src >= 0 && this.dst >= 0;
  }

  /** Whether a peg of the step's seat stands where the step starts (`board.pegs`). */
  pegThere(): boolean {
    const seat = this.step.seat;
    if (this.src === 0) return (this.work.start[seat] as number) > 0;
    for (let i = 5 * seat; i < 5 * seat + 5; i++) if (this.work.pegs[i] === this.src) return true;
    return false;
  }

  /** Whether the step is a forward card's move of a peg on the board (not out of a start area). */
  counted(): boolean {
    return this.total > 0 && this.holesOk() && this.src !== 0;
  }

  isTrack(slot: number): boolean {
    return slot >= 1 && slot <= this.work.g.length;
  }

  isHome(slot: number): boolean {
    return slot > this.work.g.length;
  }
}

type Detect = (j: Judging) => Reason | undefined;

/**
 * How the step moves its peg by a forward card's count, if a count it may make does: a lone
 * step the card's count; a part of a split 1 to the count less one, forward, or under
 * `nine: forward_backward` from the track back along the track.
 */
function read(j: Judging): Reading | undefined {
  if (!j.counted()) return undefined;
  const counts: number[] = [];
  if (j.split) for (let n = 1; n < j.total; n++) counts.push(n);
  else counts.push(j.total);
  for (const n of counts) {
    const block = route(j, n);
    if (block !== undefined) return { backward: false, n, block };
  }
  if (backwardParts(j) && j.isTrack(j.src) && j.isTrack(j.dst)) {
    const length = j.work.g.length;
    for (const n of counts) {
      if (back(length, j.src, n) === j.dst) {
        return { backward: true, n, block: j.work.nearestBehind(j.step.seat, j.src) <= n ? "track" : "clear" };
      }
    }
  }
  return undefined;
}

/**
 * Whether an `n`-step forward move from the step's start can end on its end, and what blocks
 * it: `undefined` (no such path), `"clear"`, `"track"` (a peg of the mover's colour met first on
 * the track) or `"home"` (one in the home lane).
 */
function route(j: Judging, n: number): "clear" | "track" | "home" | undefined {
  const { work, src, dst } = j;
  const mover = j.step.seat;
  const length = work.g.length;
  const own = work.home[mover] as number;
  if (src > length) {
    const k = src - length;
    if (k + n > 5 || dst !== src + n) return undefined;
    return own & (((1 << n) - 1) << k) ? "home" : "clear";
  }
  const nearest = work.nearestAhead(mover, src);
  const track = src + n > length ? src + n - length : src + n;
  if (dst === track) return nearest <= n ? "track" : "clear";
  const spot = work.g.inSpot[mover] as number;
  const toSpot = spot >= src ? spot - src : spot - src + length;
  const k = n - toSpot;
  if (k < 1 || k > 5 || dst !== length + k) return undefined;
  if (nearest <= toSpot) return "track";
  return own & ((1 << k) - 1) ? "home" : "clear";
}

/** `variant.nine-split`: a part of a split 9 may go back under `nine: forward_backward`. */
function backwardParts(j: Judging): boolean {
  return j.split && j.rank === NINE && j.rules.nine === "forward_backward";
}

function back(length: number, src: number, n: number): number {
  return src - n >= 1 ? src - n : src - n + length;
}

function blocking(): Reason {
  return reason("move.blocking", "a peg may not pass or land on a peg of its own colour");
}

function swapSeatsOk(j: Judging): boolean {
  return j.steps.every((s) => s.seat >= 0 && s.seat < j.players);
}

function alongTheTrack(j: Judging): boolean {
  return j.reading !== undefined && !j.reading.backward && j.isTrack(j.src) && j.isTrack(j.dst);
}

/** Each check of `specs/verdict.json` by name: what it finds wrong, or `undefined`. */
const CHECKS: Readonly<Record<CheckName, Detect>> = {
  // the whole move (items 1 to 5)
  "game-over": (j) =>
    j.state.winner === null ? undefined : reason("game.end", `the game is over: team ${j.state.winner} has won`),
  "pass-holding-cards": (j) =>
    j.move.action === "pass" && (j.state.hands[j.state.turn] as readonly Rank[]).length > 0
      ? reason("turn.discard", `seat ${j.state.turn} holds cards, so it must play or discard, not pass`)
      : undefined,
  "card-not-held": (j) =>
    j.rank !== null && !(j.state.hands[j.state.turn] as readonly Rank[]).includes(j.rank)
      ? reason("turn.sequence", `seat ${j.state.turn} holds no ${cardSymbol(j.rank)}`)
      : undefined,
  "discard-while-a-card-plays": (j) => {
    if (j.move.action !== "discard" || j.state.winner !== null) return undefined; // after the win nothing plays
    const cards = found(j.state)
      .cards.filter((c) => c.keys.length > 0 && c.rank !== JOKER)
      .map((c) => cardSymbol(c.rank));
    if (cards.length === 0) return undefined;
    return reason("turn.must-play", `seat ${j.state.turn} must play a card that can move (${cards.join(", ")}), not discard`);
  },
  "steps-the-card-cannot-make": (j) => {
    if (j.move.action !== "play" || j.rank === null || j.swap) return undefined;
    const canSplit = splits(j.rank, j.rules);
    const count = j.steps.length;
    if (count >= 1 && count <= (canSplit ? 2 : 1)) return undefined;
    return reason(cardRule(j.rank), `a ${cardSymbol(j.rank)} moves one peg${canSplit ? " or splits over two" : ""}`);
  },
  // a swap (item 8)
  "swap-no-such-seat": (j) => {
    const seat = j.steps.find((s) => s.seat < 0 || s.seat >= j.players)?.seat;
    return seat === undefined ? undefined : reason("board.sides", `there is no seat ${seat}`);
  },
  "swap-no-such-hole": (j) =>
    j.steps.every((s) => isValidLocation(s.from, j.players) && isValidLocation(s.to, j.players))
      ? undefined
      : reason("board.geometry", `no such hole on a ${j.players}-seat board`),
  "swap-written-from-the-other-peg": (j) => {
    const [first, second] = j.steps as [Step, Step];
    return swapSeatsOk(j) && !j.movable.includes(first.seat) && j.movable.includes(second.seat)
      ? reason("variant.two-swap", "write the step of the peg the player moves first")
      : undefined;
  },
  "swap-of-pegs-not-movable": (j) => {
    const [first, second] = j.steps as [Step, Step];
    return swapSeatsOk(j) && !j.movable.includes(first.seat) && !j.movable.includes(second.seat)
      ? reason("team.control", `seat ${j.state.turn} may not move seat ${first.seat}'s pegs`)
      : undefined;
  },
  "swap-misfit": (j) => {
    const [first, second] = j.steps as [Step, Step];
    const g = j.work.g;
    const at = (location: number): number =>
      isTrack(location) && location < g.length ? (j.work.at[location + 1] as number) : -1;
    const fits =
      isTrack(first.from) &&
      isTrack(first.to) &&
      at(first.from) === first.seat &&
      at(first.to) === second.seat &&
      second.seat !== first.seat &&
      second.from === first.to &&
      second.to === first.from;
    return fits ? undefined : reason("variant.two-swap", "a 2 swaps a movable track peg with a track peg of another colour");
  },
  // each step (item 6)
  "no-such-seat": (j) => (j.seatOk() ? undefined : reason("board.sides", `there is no seat ${j.step.seat}`)),
  "no-such-hole": (j) =>
    j.src >= 0 && j.dst >= 0 ? undefined : reason("board.geometry", `no such hole on a ${j.players}-seat board`),
  "seat-not-movable": (j) =>
    !j.seatOk() || j.movable.includes(j.step.seat)
      ? undefined
      : reason("team.control", `seat ${j.state.turn} may move only the pegs of seat(s) ${j.movable.join(", ")}`),
  "no-peg-there": (j) => {
    if (!j.seatOk() || j.src < 0 || j.pegThere()) return undefined;
    if (j.src === 0) return reason("board.pegs", `seat ${j.step.seat} has no peg in its start area`);
    return reason("board.pegs", `no peg of seat ${j.step.seat} on ${locationName(j.step.from)}`);
  },
  "split-part-from-start": (j) =>
    j.split && j.rank !== null && j.step.from === START
      ? reason(splitRule(j.rank), "a split part cannot bring a peg out")
      : undefined,
  // the peg the first part moved, followed to where its landing left it (a chain of knocks may
  // carry it on to its in-spot)
  "split-moves-one-peg-twice": (j) => {
    const first = j.steps[0] as Step;
    return j.split && j.rank !== null && j.index === 1 && first.seat === j.step.seat && j.moved === j.src
      ? reason(splitRule(j.rank), "a split moves two different pegs")
      : undefined;
  },
  "eight-not-on-track": (j) => {
    if (j.rank !== EIGHT || j.src < 0 || j.isTrack(j.src)) return undefined;
    return reason("card.eight", `an 8 cannot move a peg in ${j.src === 0 ? "a start area" : "home"}`);
  },
  "eight-count": (j) => {
    if (j.rank !== EIGHT || !j.holesOk() || !j.isTrack(j.src)) return undefined;
    const target = back(j.work.g.length, j.src, 8);
    return j.dst === target ? undefined : reason("card.eight", `an 8 moves a track peg exactly 8 holes back, to ${target - 1}`);
  },
  "joker-from-home": (j) =>
    j.rank === JOKER && j.isHome(j.src) ? reason("card.joker.source", "a joker never moves a peg that is home") : undefined,
  "joker-not-from-start": (j) =>
    j.rank === JOKER && j.isTrack(j.src) && j.movable.some((s) => (j.work.start[s] as number) > 0)
      ? reason("card.joker.source", "while a start area the player may come out from holds a peg, a joker moves a peg out of one")
      : undefined,
  "joker-target": (j) => {
    if (j.rank !== JOKER || !j.holesOk()) return undefined;
    const target = j.isTrack(j.dst) ? (j.work.at[j.dst] as number) : -1;
    if (target < 0) return reason("card.joker", "a joker lands only on a track hole held by another peg");
    if (target === j.step.seat) return reason("card.joker", "a joker cannot land on a peg of the moving peg's colour");
    return undefined;
  },
  "come-out-card": (j) =>
    j.step.from === START && j.rank !== null && j.rank !== JOKER && !comesOut(j.rank)
      ? reason("card.come-out", "only an A, J, Q, K or a joker brings a peg out of a start area")
      : undefined,
  "come-out-hole": (j) => {
    if (j.step.from !== START || j.rank === null || j.rank === JOKER || !comesOut(j.rank) || !j.holesOk()) {
      return undefined;
    }
    const hole = j.work.g.comeOut[j.step.seat] as number;
    return j.dst === hole ? undefined : reason("card.come-out", `a peg coming out goes to its come-out hole ${hole - 1}`);
  },
  "home-count": (j) => {
    if (!j.counted() || !j.isHome(j.src) || j.reading !== undefined) return undefined;
    return j.split
      ? reason("move.in-home", "a peg in home moves forward along its lane, never back or out of it")
      : reason("move.in-home", `a peg in home moves exactly ${j.total} holes forward, never out of home`);
  },
  "home-entry-count": (j) =>
    !j.split && j.counted() && j.isTrack(j.src) && j.isHome(j.dst) && j.reading === undefined
      ? reason("move.home-entry", "a peg enters home only if the count ends exactly on a home hole")
      : undefined,
  count: (j) =>
    !j.split && j.counted() && j.isTrack(j.src) && !j.isHome(j.dst) && j.reading === undefined && j.rank !== null
      ? reason(cardRule(j.rank), `a ${cardSymbol(j.rank)} moves a peg exactly ${j.total} holes forward`)
      : undefined,
  "split-part-count": (j) =>
    j.split && j.counted() && j.isTrack(j.src) && j.reading === undefined && j.rank !== null
      ? reason(
          splitRule(j.rank),
          `each part of a split moves its peg ${backwardParts(j) ? "forward or back" : "forward"} 1 to ${j.total - 1} holes, the two making ${j.total}`,
        )
      : undefined,
  "split-total": (j) => {
    if (!j.split || j.index !== 1 || j.first === undefined || j.reading === undefined || j.rank === null) {
      return undefined;
    }
    const made = j.first.n + j.reading.n;
    return made === j.total
      ? undefined
      : reason(splitRule(j.rank), `the two parts of a split make ${j.total} holes together, not ${made}`);
  },
  "path-blocked": (j) => {
    if (!j.holesOk() || j.rank === JOKER) return undefined;
    const mover = j.step.seat;
    if (j.src === 0) {
      const hole = j.work.g.comeOut[mover] as number;
      if (j.rank === EIGHT || j.dst !== hole || j.work.at[j.dst] !== mover) return undefined;
      return reason("move.blocking", `a peg of the same colour already stands on ${locationName(j.step.to)}`);
    }
    if (j.rank === EIGHT) {
      if (!j.isTrack(j.src)) return undefined;
      return j.dst === back(j.work.g.length, j.src, 8) && j.work.nearestBehind(mover, j.src) <= 8 ? blocking() : undefined;
    }
    const reading = j.reading;
    if (reading === undefined || reading.block === "clear") return undefined;
    if (j.isHome(j.src)) return reason("move.in-home", "a peg in home may not pass or land on another peg");
    if (reading.block === "track") return blocking();
    return reason("move.home-entry", "a peg enters home only past and onto empty home holes");
  },
  "wait-on-in-spot": (j) =>
    alongTheTrack(j) && j.src === j.work.g.inSpot[j.step.seat]
      ? reason("variant.wait-on-in-spot", "a peg on its own in-spot may only go into home")
      : undefined,
  "home-entry-compulsory": (j) => {
    if (!alongTheTrack(j)) return undefined;
    const mover = j.step.seat;
    const work = j.work;
    const length = work.g.length;
    const spot = work.g.inSpot[mover] as number;
    const toSpot = spot >= j.src ? spot - j.src : spot - j.src + length;
    const k = (j.reading as Reading).n - toSpot;
    const open =
      k >= 1 && k <= 5 && work.nearestAhead(mover, j.src) > toSpot && ((work.home[mover] as number) & ((1 << k) - 1)) === 0;
    return open ? reason("variant.home-entry-compulsory", "a peg that can enter home must") : undefined;
  },
  "nine-split-shape": (j) => {
    const { first, reading } = j;
    if (j.rank !== NINE || !j.split || j.index !== 1 || first === undefined || reading === undefined) return undefined;
    if (first.backward !== reading.backward) return undefined;
    return reason(
      "variant.nine-split",
      `one part of a split 9 goes forward and the other backward; both of these go ${reading.backward ? "back" : "forward"}`,
    );
  },
  "knock-onto-held-in-spot": (j) => {
    // a landing is judged for a peg the player moves
    if (!j.holesOk() || !j.movable.includes(j.step.seat) || !j.pegThere()) return undefined;
    if (j.work.resolve(j.step.seat, j.src, j.dst) !== null) return undefined;
    return j.rules.inSpotOccupied === "illegal"
      ? reason("variant.in-spot-occupied", "the team peg knocked off would go to its in-spot, which is held")
      : reason("move.landing.in-spot", "the team peg knocked off would go to its in-spot, where a peg of its colour stands");
  },
};

function workBoard(state: GameState): WorkBoard {
  return WorkBoard.of(state.pegs, teamOf(state.turn), state.rules) as WorkBoard;
}

/** A listed play and the changes it makes. */
export interface Listed {
  readonly play: Play;
  readonly changes: readonly number[];
}

/**
 * The listed move that `move` writes the other way round, with its changes, if any: a split
 * whose two orders leave the same position (`card.seven.split.order`), or a swap of two pegs the
 * player may both move written from the other peg (`variant.two-swap.order`).
 */
export function otherWriting(state: GameState, move: Move): Listed | undefined {
  if (move.action !== "play" || !stepsOk(move.steps) || move.steps.length !== 2) return undefined;
  const rank = move.card;
  if (state.winner !== null || !isRank(rank)) return undefined;
  const swap = rank === TWO && state.rules.twoSwap;
  if (!(swap || splits(rank, state.rules))) return undefined;
  if (!(state.hands[state.turn] as readonly Rank[]).includes(rank)) return undefined;
  const [first, second] = move.steps as [Step, Step];
  const listed: Play = { action: "play", card: rank, steps: [second, first] };
  const changes = playChanges(state, listed);
  if (changes === undefined) return undefined;
  if (swap) return movableSeats(state).includes(first.seat) ? { play: listed, changes } : undefined;
  if (firstFault(state, move) !== undefined) return undefined;
  const work = workBoard(state);
  for (const step of move.steps) {
    const g = work.g;
    work.perform(work.resolve(step.seat, g.slotOf(step.from), g.slotOf(step.to)) ?? []);
  }
  const result = workBoard(state);
  result.perform(changes);
  return samePosition(result.pegs, work.pegs) ? { play: listed, changes } : undefined;
}

