/**
 * Carrying out a turn: {@link apply}.
 *
 * `turn.sequence`: the seat to act plays one card (or discards it), the move is carried out,
 * then the seat draws back up to its hand size (with `drawFirst`, as in `standard`, the next
 * seat instead draws up to one more than the hand size before it acts); an empty draw pile is
 * replaced by the discard pile, shuffled from the game's seed (`turn.reshuffle`). The next seat
 * clockwise acts (`turn.order`). The move that brings a team's last peg home ends the game at
 * once, with no draw (`game.end`). A seat with no cards passes and then draws (`turn.pass`).
 *
 * @module
 */
import { isHome, type Location } from "./board.js";
import type { Rank } from "./cards.js";
import { IllegalMoveError } from "./errors.js";
import { hasPlayableCard, playChanges, stepOf } from "./movegen.js";
import type { Move } from "./moves.js";
import { geometryFor } from "./workboard.js";
import { otherWriting, whyIllegal } from "./verdict.js";
import { reshuffled, type GameState } from "./state.js";
import { guarded, trusted } from "./validate.js";

/**
 * The state after the seat to act makes `move`; `state` is unchanged.
 *
 * Throws {@link IllegalMoveError}, naming the ruling that forbids it, for any move not among
 * {@link legalMoves}, except that a listed split given in its other order with the same result
 * (`card.seven.split.order`), or a listed swap of two movable pegs written from the other peg
 * (`variant.two-swap.order`), is that same move. A state the engine cannot work on throws
 * {@link PositionError}.
 */
export function apply(state: GameState, move: Move): GameState {
  return carryOut(state, checked(state, move)); // checked looks at a state before it is used
}

/** What a move carries out: its card (`null` for a pass) and its changes, landings included. */
export interface Turn {
  readonly card: Rank | null;
  readonly changes: readonly number[];
  /** The move as listed (a split or swap written the other way is its listed form). */
  readonly listed: Move;
}

/** The turn `move` makes in `state`, or throws {@link IllegalMoveError} naming the ruling. */
export function checked(state: GameState, move: Move): Turn {
  const verdict = guarded(state, () => {
    if (state.winner === null && typeof move === "object" && move !== null) {
      const hand = state.hands[state.turn] as readonly Rank[];
      if (move.action === "play" && hand.includes(move.card)) {
        const changes = playChanges(state, move);
        if (changes !== undefined) return { card: move.card, changes, listed: move };
        const same = otherWriting(state, move);
        if (same !== undefined) return { card: move.card, changes: same.changes, listed: same.play };
      } else if (move.action === "discard" && hand.includes(move.card)) {
        if (!hasPlayableCard(state)) return { card: move.card, changes: NONE, listed: move };
      } else if (move.action === "pass" && hand.length === 0) {
        return { card: null, changes: NONE, listed: move };
      }
    }
    return whyIllegal(state, move);
  });
  if ("rule" in verdict) throw new IllegalMoveError(verdict.rule, verdict.reason);
  return verdict;
}

const NONE: readonly number[] = [];

/**
 * Carry out a checked turn: the card discarded, the changes, the win or the draw, the turn. Every
 * array it makes is frozen as it is made, and the rest are the old state's, frozen already.
 */
export function carryOut(state: GameState, turn: Turn): GameState {
  const seat = state.turn;
  const players = state.pegs.length;
  let hands = state.hands;
  let discardPile = state.discardPile;
  if (turn.card !== null) {
    const hand = [...(hands[seat] as readonly Rank[])];
    hand.splice(hand.indexOf(turn.card), 1);
    hands = replaced(hands, seat, hand);
    discardPile = [...discardPile, turn.card];
  }
  let pegs = state.pegs;
  let winner: 0 | 1 | null = null;
  if (turn.changes.length) {
    pegs = moved(state, turn.changes);
    const team = (seat % 2) as 0 | 1;
    if (allHome(pegs, team, turn.changes, state)) winner = team;
  }
  const ply = state.ply + 1;
  if (winner !== null) {
    return made(state, { ...state, pegs, hands, discardPile, ply, winner });
  }
  const following = (seat + 1) % players;
  const rules = state.rules;
  const drawer = rules.drawFirst ? following : seat;
  const size = rules.handSize + (rules.drawFirst ? 1 : 0);
  let drawPile = state.drawPile;
  let reshuffles = state.reshuffles;
  const held = hands[drawer] as readonly Rank[];
  if (held.length < size) {
    const taken: Rank[] = [];
    while (taken.length < size - held.length) {
      if (drawPile.length === 0) {
        if (discardPile.length === 0) break;
        drawPile = reshuffled(state.seed, reshuffles, discardPile);
        reshuffles += 1;
        discardPile = [];
      }
      // a copy then a splice: V8 (Node 20) slices a frozen array some 50 times slower than it copies one
      const rest = [...drawPile];
      taken.push(...rest.splice(0, size - held.length - taken.length));
      drawPile = rest;
    }
    if (taken.length) hands = replaced(hands, drawer, [...held, ...taken].sort((a, b) => a - b));
  }
  return made(state, {
    rules,
    pegs,
    hands,
    drawPile,
    discardPile,
    turn: following,
    dealer: state.dealer,
    seed: state.seed,
    reshuffles,
    ply,
    winner: null,
  });
}

function replaced<T>(rows: readonly T[], index: number, row: T): T[] {
  const copy = [...rows];
  copy[index] = row;
  return copy;
}

/** `next` as a state the package made: the hands and piles this turn made frozen now (the rest
 * are the old state's, frozen already; {@link moved} froze the pegs it moved). */
function made(old: GameState, next: GameState): GameState {
  if (next.hands !== old.hands) {
    for (let seat = 0; seat < next.hands.length; seat++) {
      const hand = next.hands[seat] as readonly Rank[];
      if (hand !== old.hands[seat]) Object.freeze(hand);
    }
    Object.freeze(next.hands);
  }
  if (next.drawPile !== old.drawPile) Object.freeze(next.drawPile);
  if (next.discardPile !== old.discardPile) Object.freeze(next.discardPile);
  return trusted(next);
}

/** The pegs after `changes`, each changed seat's row sorted anew. */
function moved(state: GameState, changes: readonly number[]): readonly (readonly Location[])[] {
  const g = geometryFor(state.pegs.length);
  const pegs = [...state.pegs];
  for (const code of changes) {
    const { seat, from, to } = stepOf(g, code);
    const row = [...(pegs[seat] as readonly Location[])];
    row.splice(row.indexOf(from), 1);
    let at = row.length;
    while (at > 0 && (row[at - 1] as number) > to) at--;
    row.splice(at, 0, to);
    pegs[seat] = Object.freeze(row);
  }
  return Object.freeze(pegs);
}

/** Whether `changes` brought a peg home and with it every peg of `team` (`game.end`). */
function allHome(
  pegs: readonly (readonly Location[])[],
  team: number,
  changes: readonly number[],
  state: GameState,
): boolean {
  const g = geometryFor(state.pegs.length);
  if (!changes.some((code) => code % g.slots > g.length)) return false;
  for (let seat = team; seat < pegs.length; seat += 2) {
    if (!(pegs[seat] as readonly Location[]).every(isHome)) return false;
  }
  return true;
}

