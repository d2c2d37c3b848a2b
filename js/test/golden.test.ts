// Byte-identical JSON, proven over positions reached by play: at every position of ten games
// played by the reference engine (each seat count, both presets, two sets of house rules, seeds
// beyond 64 bits and below zero, greedy bots and random moves), the documents this package
// writes (state, view, legal moves, move, events whole, for a seat and for spectators, the
// explanations of a legal and an illegal move, and the record every 25th ply) hash to what the
// reference's hash to. `python tools/js_golden.py` writes golden.jsonl (and its `--show GAME:PLY`
// prints the reference's documents at a position); tests/test_js_golden.py keeps it current.
import { createHash, type Hash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import {
  applyWithEvents,
  eventsToJson,
  explain,
  fromData,
  legalMoves,
  moveText,
  movesToJson,
  newGame,
  parseNotation,
  recordOf,
  toJson,
  view,
  type GameState,
  type Move,
} from "../src/index.js";

const KINDS = ["state", "view", "moves", "move", "events", "events_seat", "events_public", "explanation", "explanation_illegal", "record"] as const;
type Kind = (typeof KINDS)[number];

interface Game {
  readonly game: string;
  readonly players: number;
  readonly seed: string;
  readonly rules: Record<string, unknown>;
  readonly winner: number | null;
  readonly kinds: Record<Kind, string>;
  readonly plies: readonly (readonly [string, string, number, string])[];
}

const GAMES = readFileSync(new URL("golden.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Game);

/** The documents this package writes at one position, in the order of KINDS. */
function documents(state: GameState, move: Move, illegal: Move, seat: number, withRecord: () => string): [Kind, string][] {
  const [after, events] = applyWithEvents(state, move);
  const docs: [Kind, string][] = [
    ["state", toJson(state)],
    ["view", toJson(view(state, seat))],
    ["moves", movesToJson(legalMoves(state))],
    ["move", toJson(move)],
    ["events", eventsToJson(events, null)],
    ["events_seat", eventsToJson(events, seat)],
    ["events_public", eventsToJson(events, "public")],
    ["explanation", toJson(explain(state, move))],
    ["explanation_illegal", toJson(explain(state, illegal))],
  ];
  if (state.ply % 25 === 0 || after.winner !== null) docs.push(["record", withRecord()]);
  return docs;
}

test("the golden file holds the ten games", () => {
  expect(GAMES.map((g) => g.game)).toHaveLength(10);
  expect(GAMES.reduce((n, g) => n + g.plies.length, 0)).toBeGreaterThan(2000);
});

describe.each(GAMES)("the reference's documents, byte for byte", (game) => {
  test(`${game.game}: ${game.plies.length} positions`, () => {
    const rules = fromData({ format: 1, type: "rules", ...game.rules }, "rules");
    const start = newGame(game.players, { seed: BigInt(game.seed), rules });
    const kinds = Object.fromEntries(KINDS.map((kind) => [kind, createHash("sha256")])) as Record<Kind, Hash>;
    const played: Move[] = [];
    let state = start;
    let first: string | undefined;
    for (const [text, wrong, seat, want] of game.plies) {
      const move = legalMoves(state).find((m) => moveText(m) === text);
      if (move === undefined) throw new Error(`${game.game}, ply ${state.ply}: ${text} is not a legal move here`);
      played.push(move);
      const here = createHash("sha256");
      const docs = documents(state, move, parseNotation(wrong), seat, () => toJson(recordOf(start, played)));
      for (const [kind, doc] of docs) {
        here.update(`${doc}\n`);
        kinds[kind].update(`${doc}\n`);
      }
      if (first === undefined && here.digest("hex").slice(0, 16) !== want) {
        first = `ply ${state.ply} (python tools/js_golden.py --show ${game.game}:${state.ply} prints the reference's):\n${docs.map(([k, d]) => `${k}: ${d}`).join("\n")}`;
      }
      state = applyWithEvents(state, move)[0];
    }
    const differ = KINDS.filter((kind) => kinds[kind].digest("hex") !== game.kinds[kind]);
    expect(differ, `documents that differ; the first position where any does: ${first ?? "none"}`).toEqual([]);
    expect(first).toBeUndefined();
    expect(state.winner).toBe(game.winner);
  });
});
