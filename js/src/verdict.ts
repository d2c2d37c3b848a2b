/**
 * Why a move is illegal: {@link whyIllegal} names the ruling, {@link explain} gives the verdict
 * on any move. The legal moves stay the one authority on legality; a move not among them is
 * replayed step by step on a working board and the first ruling it breaks is named, in the
 * order of `move.verdict`: the game, the kind of move, the card, then each step from its peg to
 * its path to where it lands.
 *
 * @module
 */
import { isTrack, isValidLocation, locationName, teamOf } from "./board.js";
import { cardSymbol, comesOut, EIGHT, isRank, JOKER, NINE, SEVEN, TWO, type Rank } from "./cards.js";
import { found, legalMoves, movableSeats, playChanges } from "./movegen.js";
import { moveText, sameMove, type Move, type Play, type Step } from "./moves.js";
import { forwardSteps, splits } from "./plays.js";
import type { GameState } from "./state.js";
import { repr } from "./text.js";
import { guarded } from "./validate.js";
import { samePosition, WorkBoard } from "./workboard.js";

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
  if (state.winner !== null) return reason("game.end", `the game is over: team ${state.winner} has won`);
  const seat = state.turn;
  if (action === "pass") {
    return reason("turn.discard", `seat ${seat} holds cards, so it must play or discard, not pass`);
  }
  const card = (move as { card?: unknown }).card;
  if (!isRank(card)) return reason("turn.sequence", `not a card: ${repr(card)}`);
  const hand = state.hands[seat] as readonly Rank[];
  if (!hand.includes(card)) return reason("turn.sequence", `seat ${seat} holds no ${cardSymbol(card)}`);
  if (action === "discard") {
    const cards = found(state)
      .cards.filter((c) => c.keys.length > 0 && c.rank !== JOKER)
      .map((c) => cardSymbol(c.rank))
      .join(", ");
    return reason("turn.must-play", `seat ${seat} must play a card that can move (${cards}), not discard`);
  }
  const steps = (move as { steps?: unknown }).steps;
  if (!stepsOk(steps)) {
    return reason("turn.sequence", `steps must be a list of {seat, from, to} whole numbers, not ${repr(steps)}`);
  }
  if (card === TWO && state.rules.twoSwap && steps.length === 2) return whySwap(state, steps);
  return (
    judgeParts(state, workBoard(state), card, steps) ??
    reason("turn.sequence", "not a legal move") // a play whose parts are all legal is listed
  );
}

function workBoard(state: GameState): WorkBoard {
  return WorkBoard.of(state.pegs, teamOf(state.turn), state.rules) as WorkBoard;
}

/**
 * Judge the steps of a play one after the other on `work`, carrying each out: the first ruling
 * a step breaks, or `undefined` once every step is carried out (`move.verdict` 5 to 7).
 */
function judgeParts(state: GameState, work: WorkBoard, rank: Rank, steps: readonly Step[]): Reason | undefined {
  const split = splits(rank, state.rules);
  if (steps.length === 0 || steps.length > 2 || (steps.length === 2 && !split)) {
    return reason(cardRule(rank), `a ${cardSymbol(rank)} moves one peg${split ? " or splits over two" : ""}`);
  }
  const g = work.g;
  const players = state.pegs.length;
  const movable = movableSeats(state);
  const judge = new StepJudge(state, work, rank, steps.length);
  for (let index = 0; index < steps.length; index++) {
    const { seat: mover, from, to } = steps[index] as Step;
    if (mover < 0 || mover >= players) return reason("board.sides", `there is no seat ${mover}`);
    if (!isValidLocation(from, players) || !isValidLocation(to, players)) {
      return reason("board.geometry", `no such hole on a ${players}-seat board`);
    }
    if (!movable.includes(mover)) {
      return reason("team.control", `seat ${state.turn} may move only the pegs of seat(s) ${movable.join(", ")}`);
    }
    const src = g.slotOf(from);
    const dst = g.slotOf(to);
    if (src === 0 && (work.start[mover] as number) === 0) {
      return reason("board.pegs", `seat ${mover} has no peg in its start area`);
    }
    if (src !== 0 && !holds(work, mover, src)) {
      return reason("board.pegs", `no peg of seat ${mover} on ${locationName(from)}`);
    }
    if (steps.length === 2) {
      if (src === 0) return reason(splitRule(rank), "a split part cannot bring a peg out");
      const first = steps[0] as Step;
      if (index === 1 && first.seat === mover && first.to === from) {
        return reason(splitRule(rank), "a split moves two different pegs");
      }
    }
    const fault = judge.step(mover, src, dst);
    if (fault !== undefined) return fault;
    const changes = work.resolve(mover, src, dst);
    if (changes === null) {
      return state.rules.inSpotOccupied === "illegal"
        ? reason("variant.in-spot-occupied", "the team peg knocked off would go to its in-spot, which is held")
        : reason(
            "move.landing.in-spot",
            "the team peg knocked off would go to its in-spot, where a peg of its colour stands",
          );
    }
    work.perform(changes);
  }
  return undefined;
}

function holds(work: WorkBoard, seat: number, slot: number): boolean {
  for (let i = 5 * seat; i < 5 * seat + 5; i++) if (work.pegs[i] === slot) return true;
  return false;
}

/** Judges the steps of one play in turn (`move.verdict` 6.4 to 6.7), remembering the parts. */
class StepJudge {
  private readonly counts: number[] = [];
  private readonly backward: boolean[] = [];
  private readonly total: number;

  constructor(
    private readonly state: GameState,
    private readonly work: WorkBoard,
    private readonly rank: Rank,
    private readonly parts: number,
  ) {
    this.total = forwardSteps(rank, state.rules);
  }

  step(mover: number, src: number, dst: number): Reason | undefined {
    const { state, work, rank } = this;
    const g = work.g;
    const length = g.length;
    const rules = state.rules;
    const where = locationName(g.locationOf(dst));
    if (rank === JOKER) {
      if (src > length) return reason("card.joker.source", "a joker never moves a peg that is home");
      if (
        rules.jokerSource === "team_start_first" &&
        src !== 0 &&
        movableSeats(state).some((s) => (work.start[s] as number) > 0)
      ) {
        return reason("card.joker.source", "while a team start area holds a peg, a joker moves a peg from one");
      }
      const target = dst >= 1 && dst <= length ? (work.at[dst] as number) : -1;
      if (target < 0) return reason("card.joker", "a joker lands only on a track hole held by another peg");
      if (target === mover) return reason("card.joker", "a joker cannot land on a peg of the moving peg's colour");
      return undefined;
    }
    if (rank === EIGHT && src === 0) return reason("card.eight", "an 8 cannot move a peg in a start area");
    if (src === 0) {
      if (!comesOut(rank)) {
        return reason("card.come-out", "only an A, J, Q, K or a joker brings a peg out of a start area");
      }
      const comeOut = g.comeOut[mover] as number;
      if (dst !== comeOut) {
        return reason("card.come-out", `a peg coming out goes to its come-out hole ${comeOut - 1}`);
      }
      if (work.at[dst] === mover) return reason("move.blocking", `a peg of the same colour already stands on ${where}`);
      return undefined;
    }
    if (rank === EIGHT) {
      if (src > length) return reason("card.eight", "an 8 cannot move a peg in home");
      const target = src - 8 >= 1 ? src - 8 : src - 8 + length;
      if (dst !== target) {
        return reason("card.eight", `an 8 moves a track peg exactly 8 holes back, to ${target - 1}`);
      }
      if (work.nearestBehind(mover, src) <= 8) return blocking();
      return undefined;
    }
    let count = this.total;
    if (this.parts === 2) {
      const want = this.counts.length ? this.total - (this.counts[0] as number) : undefined;
      if (rank === NINE && rules.nine === "forward_backward" && !this.backward.some(Boolean)) {
        const reach: number[] = [];
        for (let n = 1; n < this.total; n++) if (src <= length && back(g.length, src, n) === dst) reach.push(n);
        if (reach.length && (want === undefined || reach.includes(want))) {
          const n = want ?? reach[0] ?? 0;
          this.counts.push(n);
          this.backward.push(true);
          return work.nearestBehind(mover, src) <= n ? blocking() : undefined;
        }
        if (this.counts.length && !this.backward.some(Boolean)) {
          return reason("variant.nine-split", "one part of this 9 split goes forward, one backward");
        }
      }
      const fits: number[] = [];
      for (let n = 1; n < this.total; n++) if (this.route(mover, src, n, dst) !== undefined) fits.push(n);
      if (!fits.length || (want !== undefined && !fits.includes(want))) {
        return reason(splitRule(rank), `the two parts of a split are moves totalling ${this.total}`);
      }
      count = want ?? (fits[0] as number);
      this.counts.push(count);
      this.backward.push(false);
    }
    const route = this.route(mover, src, count, dst);
    if (route === undefined) {
      if (src > length) {
        return reason("move.in-home", `a peg in home moves exactly ${count} holes forward, never out of home`);
      }
      if (dst > length) return reason("move.home-entry", "a peg enters home only if the count ends exactly on a home hole");
      return reason(cardRule(rank), `a ${cardSymbol(rank)} moves a peg exactly ${count} holes forward`);
    }
    if (route !== "clear") {
      if (src > length) return reason("move.in-home", "a peg in home may not pass or land on another peg");
      if (route === "home") return reason("move.home-entry", "a peg enters home only past and onto empty home holes");
      return blocking();
    }
    if (dst <= length) {
      const out = new Int32Array(2);
      const n = work.forward(mover, src, count, out);
      if (!Array.from(out.subarray(0, n)).includes(dst)) {
        if (rules.waitOnInSpot && src === g.inSpot[mover]) {
          return reason("variant.wait-on-in-spot", "a peg on its own in-spot may only go into home");
        }
        return reason("variant.home-entry-compulsory", "a peg that can enter home must");
      }
    }
    return undefined;
  }

  /**
   * Whether an `n`-step forward move of the peg of `mover` on `src` can end on `dst`, and what
   * blocks it: `undefined` (no such path), `"clear"`, `"track"` (a peg of its colour on the
   * track part) or `"home"` (one in the home lane).
   */
  private route(mover: number, src: number, n: number, dst: number): "clear" | "track" | "home" | undefined {
    const work = this.work;
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
    if (own & ((1 << k) - 1)) return "home";
    return nearest <= toSpot ? "track" : "clear";
  }
}

function back(length: number, src: number, n: number): number {
  return src - n >= 1 ? src - n : src - n + length;
}

function blocking(): Reason {
  return reason("move.blocking", "a peg may not pass or land on a peg of its own colour");
}

/** `variant.two-swap`: a 2 with two steps is judged as a swap (`move.verdict` 8). */
function whySwap(state: GameState, steps: readonly Step[]): Reason {
  const [first, second] = steps as [Step, Step];
  const movable = movableSeats(state);
  if (!movable.includes(first.seat) && movable.includes(second.seat)) {
    return reason("variant.two-swap", "write the step of the peg the player moves first");
  }
  if (!movable.includes(first.seat)) {
    return reason("team.control", `seat ${state.turn} may not move seat ${first.seat}'s pegs`);
  }
  const work = workBoard(state);
  const g = work.g;
  const at = (location: number): number =>
    isTrack(location) && location < g.length ? (work.at[location + 1] as number) : -1;
  const fits =
    isTrack(first.from) &&
    isTrack(first.to) &&
    at(first.from) === first.seat &&
    at(first.to) === second.seat &&
    second.seat !== first.seat &&
    second.from === first.to &&
    second.to === first.from;
  if (!fits) return reason("variant.two-swap", "a 2 swaps a movable track peg with a track peg of another colour");
  return reason("turn.sequence", "not a legal move");
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
  const work = workBoard(state);
  if (judgeParts(state, work, rank, move.steps) !== undefined) return undefined;
  const result = workBoard(state);
  result.perform(changes);
  return samePosition(result.pegs, work.pegs) ? { play: listed, changes } : undefined;
}

