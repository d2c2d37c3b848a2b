// Post-game analysis: checked against what the rules say of the positions (a won game's end, a
// forced move, the costliest plies, the expert's moves being legal). That its numbers and chart
// are the reference's to the bit is checked from the Python side (tests/test_js_analysis.py).
import { describe, expect, test } from "vitest";
import {
  analysisJson,
  analyze,
  apply,
  chance,
  chartSvg,
  decide,
  GreedyBot,
  legalMoves,
  moveText,
  newGame,
  PegsError,
  recordOf,
  type GameState,
  type Move,
} from "../src/index.js";

/** A whole 4-player game between greedy bots, its states and its record. */
function game(): { states: GameState[]; record: ReturnType<typeof recordOf> } {
  const start = newGame(4, { seed: 11n });
  const bots = [0, 1, 2, 3].map((seat) => new GreedyBot(seat));
  const states = [start];
  const moves: Move[] = [];
  let state = start;
  while (state.winner === null) {
    const move = decide(bots[state.turn] as GreedyBot, state);
    moves.push(move);
    state = apply(state, move);
    states.push(state);
  }
  return { states, record: recordOf(start, moves) };
}

describe("analyze", () => {
  const { states, record } = game();
  const analysis = analyze(record, { playouts: 1, expert: 10 });
  const json = analysisJson(analysis);

  test("the winner's chance is 1 at the end, and every chance a share of the playouts", () => {
    const winner = (states[states.length - 1] as GameState).winner as 0 | 1;
    expect(chance(analysis, states.length - 1, winner)).toBe(1);
    expect(json.plies[json.plies.length - 1]?.after).toBe(1);
    for (const c of json.chances) expect([0, 0.5, 1]).toContain(c);
  });

  test("a forced move costs nothing", () => {
    const forced = states.slice(0, -1).flatMap((state, i) => (legalMoves(state).length === 1 ? [i + 1] : []));
    expect(forced.length).toBeGreaterThan(0);
    for (const p of forced) expect(json.plies[p - 1]?.cost).toBe(0);
  });

  test("the costly plies cost more than nothing and carry a legal move of the expert", () => {
    expect(analysis.costly.length).toBeGreaterThan(0);
    for (const { ply, expert } of analysis.costly) {
      expect(json.plies[ply - 1]?.cost).toBeGreaterThan(0);
      expect(legalMoves(states[ply - 1] as GameState).map(moveText)).toContain(expert);
    }
    expect(chartSvg(analysis).match(/<a href="#ply-\d+"/g)?.length).toBe(analysis.costly.length);
  });

  test("a bad budget is refused", () => {
    expect(() => analyze(record, { playouts: 0 })).toThrow(PegsError);
  });
});
