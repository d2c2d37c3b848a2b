// Properties over states reached by real play (fast-check), as the reference engine's own
// property tests state them: pegs and cards conserved, no step passing its own colour, legal
// moves deterministic, distinct and sorted, every legal move applicable with its input
// unchanged, JSON round trips, and a view hiding every card its seat cannot see.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  ARIZONA,
  apply,
  deckFor,
  explain,
  fromJson,
  HOME_BASE,
  legalMoves,
  moveText,
  parseMove,
  formatMove,
  positionText,
  parsePosition,
  sameState,
  toJson,
  view,
  type GameState,
  type Play,
} from "../src/index.js";
import { playedGames, playOut } from "./play.js";

const RUNS = { numRuns: 40 };

/** Throw (with the position) unless `condition` holds: cheaper than expect() in hot loops. */
function ensure(condition: boolean, what: string, state: GameState): void {
  if (!condition) throw new Error(`${what}\n${positionText(state)}`);
}

function checkInvariants(state: GameState): void {
  const players = state.pegs.length;
  const length = 18 * players;
  const taken = new Set<string>();
  state.pegs.forEach((locs, seat) => {
    ensure(locs.length === 5, `seat ${seat} has ${locs.length} pegs`, state);
    for (let i = 0; i < locs.length; i++) {
      const p = locs[i] as number;
      ensure(i === 0 || (locs[i - 1] as number) <= p, `seat ${seat}'s pegs out of order`, state);
      ensure(p === -1 || (p >= 0 && p < length) || (p > HOME_BASE && p <= HOME_BASE + 5), `no hole ${p}`, state);
      if (p === -1) continue;
      const key = `${p > HOME_BASE ? seat : -1}:${p}`;
      ensure(!taken.has(key), `two pegs on ${key}`, state);
      taken.add(key);
    }
  });
  // deck.composition: every card is somewhere, once
  const [decks, jokers] = deckFor(state.rules, players);
  const counts = new Array<number>(15).fill(0);
  for (const pile of [...state.hands, state.drawPile, state.discardPile]) for (const card of pile) counts[card] = (counts[card] ?? 0) + 1;
  for (let rank = 1; rank <= 14; rank++) ensure(counts[rank] === (rank === 14 ? jokers : 4 * decks), `card ${rank} miscounted`, state);
  state.hands.forEach((hand, seat) => {
    const limit = state.rules.handSize + (state.rules.drawFirst && seat === state.turn && state.winner === null ? 1 : 0);
    ensure(hand.length <= limit, `hand ${seat} holds ${hand.length}`, state);
    ensure(hand.every((c, i) => i === 0 || (hand[i - 1] as number) <= c), `hand ${seat} out of order`, state);
  });
  if (state.winner !== null) {
    state.pegs.forEach((locs, seat) => {
      if (seat % 2 === state.winner) ensure(locs.every((p) => p > HOME_BASE), "a winner with a peg out", state);
    });
  }
}

/** The holes a step of a forward card passes or lands on, walked hole by hole. */
function forwardPath(state: GameState, seat: number, from: number, to: number): number[] {
  const length = 18 * state.pegs.length;
  if (from > HOME_BASE) return Array.from({ length: to - from }, (_, i) => from + 1 + i);
  const path: number[] = [];
  let at = from;
  const spot = 18 * seat + 3;
  for (;;) {
    if (to > HOME_BASE && at === spot) {
      for (let k = 1; k <= to - HOME_BASE; k++) path.push(HOME_BASE + k);
      return path;
    }
    at = (at + 1) % length;
    path.push(at);
    if (at === to) return path;
  }
}

describe("states reached by play", () => {
  test("keep every peg and card, five pegs a seat, sorted hands", () => {
    fc.assert(fc.property(playedGames(), (states) => states.forEach(checkInvariants)), RUNS);
  });

  test("legal moves are deterministic, distinct, sorted as documented, and each applies", () => {
    fc.assert(
      fc.property(playedGames(200), (states) => {
        const state = states.at(-1) as GameState;
        const copy = structuredClone(state);
        const moves = legalMoves(state);
        const texts = moves.map(moveText);
        expect(new Set(texts).size).toBe(texts.length);
        expect(legalMoves({ ...state }).map(moveText)).toEqual(texts);
        const plays = moves.filter((m): m is Play => m.action === "play");
        const keys = plays.map((m) => [m.card, ...m.steps.flatMap((s) => [s.seat, s.from, s.to])]);
        for (let i = 1; i < keys.length; i++) expect(compare(keys[i - 1] as number[], keys[i] as number[])).toBeLessThan(0);
        for (const move of moves) {
          const after = apply(state, move);
          checkInvariants(after);
          ensure(after.ply === state.ply + 1, "a turn is one ply", state);
          ensure(explain(state, move).legal, `${moveText(move)} is listed but not legal`, state);
        }
        expect(state).toEqual(copy); // nothing changed the state it was given
      }),
      RUNS,
    );
  });

  test("no step passes or lands on a peg of its own colour (move.blocking)", () => {
    fc.assert(
      fc.property(playedGames(300), (states) => {
        for (const state of states.slice(-20)) {
          for (const move of legalMoves(state)) {
            if (move.action !== "play" || move.card === 14 || move.card === 8 || (move.card === 2 && move.steps.length === 2 && state.rules.twoSwap)) continue;
            if (move.card === 9 && state.rules.nine === "forward_backward" && move.steps.length === 2) continue;
            let board = state;
            move.steps.forEach((s, i) => {
              if (i === 1) board = { ...state, pegs: afterFirstPart(state, move) };
              if (s.from === -1) return;
              for (const hole of forwardPath(board, s.seat, s.from, s.to)) {
                ensure(!(board.pegs[s.seat] as readonly number[]).includes(hole), `${moveText(move)} passes its own peg on ${hole}`, state);
              }
            });
          }
        }
      }),
      { numRuns: 25 },
    );
  });

  test("states, views and moves survive JSON byte for byte, and positions their text", () => {
    fc.assert(
      fc.property(playedGames(), (states) => {
        const state = states.at(-1) as GameState;
        const text = toJson(state);
        const back = fromJson(text, "state");
        expect(sameState(back, state)).toBe(true);
        expect(toJson(back)).toBe(text);
        const seen = view(state, state.turn);
        expect(toJson(fromJson(toJson(seen), "view"))).toBe(toJson(seen));
        for (const move of legalMoves(state)) expect(toJson(fromJson(toJson(move), "move"))).toBe(toJson(move));
        const again = parsePosition(positionText(state));
        expect(positionText(again)).toBe(positionText(state));
      }),
      RUNS,
    );
  });

  test("the same seed and the same choices replay the same game, card for card", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(4, 6, 8),
        fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
        fc.bigInt({ min: 0n, max: 2n ** 32n }),
        (players, seed, choices) => {
          const first = playOut(players, seed, 300, ARIZONA, choices);
          const second = playOut(players, seed, 300, ARIZONA, choices);
          expect(second.map((s) => toJson(s))).toEqual(first.map((s) => toJson(s)));
        },
      ),
      { numRuns: 15 },
    );
  });

  test("a view shows no card its seat cannot see", () => {
    fc.assert(
      fc.property(playedGames(), fc.nat(), (states, pick) => {
        const state = states.at(-1) as GameState;
        const seat = pick % state.pegs.length;
        const seen = view(state, seat);
        // any other deal of the hidden cards gives the same view
        const hidden = [...state.hands.flatMap((h, s) => (s === seat ? [] : h)), ...state.drawPile].reverse();
        let at = 0;
        const hands = state.hands.map((h, s) => (s === seat ? h : hidden.slice(at, (at += h.length)).sort((a, b) => a - b)));
        const other: GameState = { ...state, hands, drawPile: hidden.slice(at), seed: state.seed + 1n };
        expect(toJson(view(other, seat))).toBe(toJson(seen));
        const text = toJson(seen);
        expect(text).not.toContain("draw_pile\"");
        expect(text).not.toContain("seed");
        expect(text).not.toContain("hands");
      }),
      RUNS,
    );
  });

  test("every legal play reads back from its notation, canonical and short", () => {
    fc.assert(
      fc.property(playedGames(150), (states) => {
        const state = states.at(-1) as GameState;
        for (const move of legalMoves(state).slice(0, 12)) {
          expect(parseMove(state, moveText(move))).toEqual(move);
          expect(parseMove(state, formatMove(state, move, { short: true }))).toEqual(move);
        }
      }),
      { numRuns: 25 },
    );
  });
});

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}

/**
 * The pegs after a split's first part: its peg moved, and any other peg on the hole it lands on
 * taken off (wherever the landing sends it, it is no longer there; where it goes is not needed
 * for a check that only looks for pegs that block).
 */
/** The pegs after a split's first part, its knocks followed as the rulings say: an opponent's
 * peg to its start (`move.landing`), a team peg to its in-spot, knocking on what stands there
 * (`move.landing.in-spot`, `variant.in-spot-occupied`). The moves given are listed as legal, so
 * a knock that would make one illegal fails the test. */
function afterFirstPart(state: GameState, move: Play): GameState["pegs"] {
  const first = move.steps[0] as Play["steps"][number];
  const pegs = state.pegs.map((locs) => [...locs]);
  const holder = (hole: number): number => pegs.findIndex((locs) => locs.includes(hole));
  const put = (seat: number, from: number, to: number): void => {
    const row = pegs[seat] as number[];
    row[row.indexOf(from)] = to;
  };
  let victim = first.to < HOME_BASE ? holder(first.to) : -1;
  put(first.seat, first.from, first.to);
  let hole = first.to;
  while (victim >= 0) {
    if (victim % 2 !== first.seat % 2) {
      put(victim, hole, -1);
      break;
    }
    const spot = 18 * victim + 3;
    const there = spot === hole ? victim : holder(spot);
    if (there >= 0 && state.rules.inSpotOccupied === "to_start") {
      put(victim, hole, -1);
      break;
    }
    ensure(there < 0 || (state.rules.inSpotOccupied === "chain" && there !== victim), `${moveText(move)} knocks a peg onto a peg its in-spot holds`, state);
    put(victim, hole, spot);
    victim = there;
    hole = spot;
  }
  return pegs;
}
