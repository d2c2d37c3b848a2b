// The conformance suite (../specs) run through the engine's API in its own test runner: every
// case as a test under its ruling, every game vector dealt from its seed and replayed turn by
// turn, every perft count.
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import {
  apply,
  cardOf,
  cardSymbol,
  explain,
  findPreset,
  IllegalMoveError,
  legalMoves,
  moveText,
  newGame,
  parseNotation,
  parsePosition,
  perft,
  positionText,
  withRule,
  type GameState,
  type Rules,
} from "../src/index.js";
import { loadCases, loadGames, loadPerft, type Case } from "./specs.js";

function rulesOf(preset: string, lines: readonly string[] = []): Rules {
  let rules = findPreset(preset);
  for (const line of lines) {
    const colon = line.indexOf(":");
    rules = withRule(rules, line.slice(0, colon).trim(), line.slice(colon + 1));
  }
  return rules;
}

function caseState(c: { preset: string; position?: readonly string[] }): GameState {
  return parsePosition([`rules: ${c.preset}`, ...(c.position ?? [])].join("\n"));
}

/** Whether one position line (`pegs 2: 39 h1`, `turn: 1`, ...) holds of `state`. */
function holds(state: GameState, line: string): boolean {
  const colon = line.indexOf(":");
  const words = line.slice(0, colon).trim().split(/\s+/);
  const value = line.slice(colon + 1).trim();
  const text = positionText(state).split("\n");
  const cards = (v: string): number[] =>
    v.split(/\s+/).filter(Boolean).map((w) => cardOf(w) as number);
  switch (words[0]) {
    case "pegs": {
      const wanted = parsePosition(`players: ${state.pegs.length}\npegs ${words[1]}: ${value}`).pegs[Number(words[1])];
      return JSON.stringify(state.pegs[Number(words[1])]) === JSON.stringify(wanted);
    }
    case "hand":
      return JSON.stringify(state.hands[Number(words[1])]) === JSON.stringify(cards(value).sort((a, b) => a - b));
    case "draw":
      return JSON.stringify(state.drawPile) === JSON.stringify(cards(value));
    case "discard":
      return JSON.stringify(state.discardPile) === JSON.stringify(cards(value));
    case "winner":
      return String(state.winner ?? "none") === value;
    default:
      return text.includes(`${words[0]}: ${value}`);
  }
}

function checkCase(c: Case): void {
  if (c.deal !== undefined) {
    const dealt = c.expect.dealt;
    if (dealt === undefined) throw new Error(`${c.id}: a deal case without 'dealt'`);
    for (const seed of [0n, 1n, 2n, 123456789n]) {
      const game = newGame(c.deal.players, { seed, dealer: c.deal.dealer, rules: rulesOf(c.preset, c.deal.rules) });
      if (dealt.hand_sizes !== undefined) expect(game.hands.map((h) => h.length)).toEqual(dealt.hand_sizes);
      if (dealt.draw_pile !== undefined) expect(game.drawPile.length).toBe(dealt.draw_pile);
      if (dealt.first_turn !== undefined) expect(game.turn).toBe(dealt.first_turn);
      if (dealt.cards !== undefined) {
        const counts: Record<string, number> = {};
        for (const card of [...game.hands.flat(), ...game.drawPile]) {
          counts[cardSymbol(card)] = (counts[cardSymbol(card)] ?? 0) + 1;
        }
        expect(counts).toEqual(dealt.cards);
      }
    }
    return;
  }
  const state = caseState(c);
  const expected = c.expect;
  if (expected.legal !== undefined) {
    const moves = legalMoves(state).map(moveText);
    expect(new Set(moves).size).toBe(moves.length);
    expect([...moves].sort()).toEqual([...expected.legal].sort());
    return;
  }
  const move = parseNotation(c.move as string);
  if (expected.illegal !== undefined) {
    let rule: string | undefined;
    try {
      apply(state, move);
    } catch (error) {
      if (!(error instanceof IllegalMoveError)) throw error;
      rule = error.rule;
    }
    expect(rule).toBe(expected.illegal);
    expect(explain(state, move).rule).toBe(expected.illegal);
    return;
  }
  const after = apply(state, move);
  for (const line of expected.after ?? []) expect(holds(after, line), `${c.id}: ${line}`).toBe(true);
}

const byRuling = new Map<string, Case[]>();
for (const c of loadCases()) {
  const ruling = c.rules[0] as string;
  byRuling.set(ruling, [...(byRuling.get(ruling) ?? []), c]);
}

describe.each([...byRuling.keys()].sort())("ruling %s", (ruling) => {
  test.each((byRuling.get(ruling) ?? []).map((c) => [c.id, c] as const))("%s", (_, c) => checkCase(c));
});

function digest(state: GameState): string {
  return createHash("sha256").update(positionText(state)).digest("hex").slice(0, 16);
}

describe("game vectors: dealt from their seed, replayed turn by turn", () => {
  test.each(loadGames())("%s", (_, vector) => {
    const v = vector as unknown as { players: number; seed: number; preset: string; rules?: string[] };
    let state = newGame(v.players, { seed: BigInt(v.seed), rules: rulesOf(v.preset, v.rules) });
    expect(positionText(state).split("\n").slice(-(vector.start.length - 1))).toEqual(vector.start.slice(1));
    let reshuffles = 0;
    for (const [move, hash] of vector.turns) {
      const before = state.reshuffles;
      state = apply(state, parseNotation(move));
      if (state.reshuffles !== before) {
        // the engine's own reshuffle made the pile the reference made
        expect(reshuffles).toBeLessThan(vector.reshuffles.length);
        reshuffles++;
      }
      expect(digest(state), move).toBe(hash);
    }
    expect(reshuffles).toBe(vector.reshuffles.length);
  });
});

describe("perft", () => {
  test.each(loadPerft().map((p) => [p.id, p] as const))("%s", (_, position) => {
    const state = caseState(position);
    position.counts.slice(0, 3).forEach((count, depth) => expect(perft(state, depth + 1)).toBe(count));
  });
});
