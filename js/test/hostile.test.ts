// Hostile and careless input: whatever comes in (text that is not JSON, documents of the wrong
// shape or type, impossible positions, junk notation, hand-built states with junk in any field,
// junk requests on the engine protocol), the package throws only its own documented errors
// (subclasses of PegsError), never a TypeError or RangeError from inside it.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  apply,
  applyWithEvents,
  explain,
  formatMove,
  fromJson,
  legalMoves,
  newGame,
  parseMove,
  parseNotation,
  parsePosition,
  PegsError,
  positionText,
  replay,
  recordOf,
  toJson,
  validate,
  view,
  type GameState,
  type Move,
} from "../src/index.js";
import { handle, handleLine } from "../src/protocol.js";
import { playOut } from "./play.js";

const RUNS = { numRuns: Number(process.env["PEGS_FUZZ_RUNS"] ?? 300) };

/** Run `work`; it may return, or throw a PegsError, and nothing else. */
function onlyOurs(work: () => unknown): void {
  try {
    work();
  } catch (error) {
    if (!(error instanceof PegsError)) throw error;
  }
}

const sample = playOut(6, 42n, 120).at(-1) as GameState;
const documents = [toJson(sample), toJson(view(sample, 1)), toJson(legalMoves(sample)[0] as Move), toJson(sample.rules)];

/** Any JSON value, with whole numbers of every size. */
const anyJson = fc.jsonValue();

/** A document with one value somewhere replaced by another (or a key dropped or added). */
function mutated(document: string): fc.Arbitrary<string> {
  const data = JSON.parse(document) as unknown;
  return fc
    .tuple(fc.nat(), fc.constantFrom("replace", "drop", "add"), anyJson, fc.string())
    .map(([pick, how, value, key]) => {
      const copy = structuredClone(data);
      const slots: [Record<string, unknown> | unknown[], string | number][] = [];
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) node.forEach((item, i) => (slots.push([node, i]), walk(item)));
        else if (node && typeof node === "object") {
          for (const [k, v] of Object.entries(node)) {
            slots.push([node as Record<string, unknown>, k]);
            walk(v);
          }
        }
      };
      walk(copy);
      const [parent, at] = slots[pick % slots.length] as [Record<string, unknown>, string];
      if (how === "replace") parent[at] = value;
      else if (how === "drop") delete parent[at];
      else if (!Array.isArray(parent)) parent[key] = value;
      return JSON.stringify(copy);
    });
}

describe("documents", () => {
  test("text that may not be JSON at all", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => onlyOurs(() => fromJson(text))), RUNS);
  });
  test("any JSON value", () => {
    fc.assert(fc.property(anyJson, (value) => onlyOurs(() => fromJson(JSON.stringify(value)))), RUNS);
  });
  test.each(documents.map((d, i) => [i, d] as const))("a valid document (%i) mutated", (_, document) => {
    fc.assert(fc.property(mutated(document), (text) => onlyOurs(() => fromJson(text))), RUNS);
  });
  test("numbers too long, nesting too deep, keys given twice", () => {
    for (const text of [
      `{"format": 1, "type": "state", "seed": ${"9".repeat(5000)}}`,
      "[".repeat(100_000),
      '{"format": 1, "format": 1, "type": "move", "action": "pass"}',
      '{"format": 1, "type": "move", "action": "pass", "x": NaN}',
    ]) {
      expect(() => fromJson(text)).toThrow(PegsError);
    }
  });
});

describe("text", () => {
  test("position text", () => {
    const keys = fc.constantFrom("players", "turn", "dealer", "pegs 0", "pegs 9", "hand 1", "draw", "discard", "winner", "rules", "rule nine", "rule decks", "rule face_values", "seed", "junk");
    const lines = fc.array(fc.tuple(keys, fc.oneof(fc.string(), fc.constantFrom("s h1 12", "99999999", "-1", "A K JK", "none", "0"))));
    fc.assert(
      fc.property(lines, (items) => onlyOurs(() => parsePosition(items.map(([k, v]) => `${k}: ${v}`).join("\n")))),
      RUNS,
    );
    fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => onlyOurs(() => parsePosition(text))), RUNS);
  });
  test("move text, canonical or shorthand", () => {
    const words = fc.constantFrom("7", "K", "JK", "discard", "pass", "0:12-17", "1:s-26", "70-h2", "h", "h9", "s", "99999999", ":", "-", ",", "0:0-0", "x");
    const junk = fc.oneof(fc.string({ unit: "binary" }), fc.array(words, { maxLength: 5 }).map((w) => w.join(" ")));
    fc.assert(
      fc.property(junk, (text) => {
        onlyOurs(() => parseNotation(text));
        onlyOurs(() => parseMove(sample, text));
      }),
      RUNS,
    );
  });
});

/** Junk of every kind a field may meet. */
const junk = fc.oneof(
  fc.constantFrom(undefined, null, NaN, Infinity, -1, 0, 1e308, 2 ** 53 + 1, "", "7", true, [], {}, [[]], [null], 10n ** 40n),
  anyJson,
);

describe("hand-built states and moves", () => {
  test("arrays with holes (which JSON cannot make) are refused, not read as empty", () => {
    const move = legalMoves(sample)[0] as Move;
    for (const [field, holed] of [
      ["hands", new Array<number[]>(4)],
      ["drawPile", Object.assign(new Array<number>(2), { 1: 5 })], // [, 5]
      ["pegs", [new Array<number>(5), ...sample.pegs.slice(1)]],
    ] as const) {
      const broken: GameState = { ...sample, [field]: holed };
      expect(() => legalMoves(broken)).toThrow(PegsError);
      expect(() => applyWithEvents(broken, move)).toThrow(PegsError);
      expect(validate(broken).some((problem) => problem.startsWith(field === "drawPile" ? "draw_pile" : field))).toBe(true);
    }
  });
  const fields = ["rules", "pegs", "hands", "drawPile", "discardPile", "turn", "dealer", "seed", "reshuffles", "ply", "winner"] as const;
  test("a state with junk in any field gets only the package's errors", () => {
    fc.assert(
      fc.property(fc.constantFrom(...fields), junk, fc.nat(), (field, value, deep) => {
        const state = structuredClone(sample) as unknown as Record<string, unknown>;
        const current = state[field];
        if (Array.isArray(current) && current.length && deep % 2) {
          (current as unknown[])[deep % current.length] = value; // junk inside the field
        } else {
          state[field] = value;
        }
        const broken = state as unknown as GameState;
        const move = legalMoves(sample)[0] as Move;
        for (const work of [
          () => legalMoves(broken),
          () => apply(broken, move),
          () => applyWithEvents(broken, move),
          () => explain(broken, move),
          () => view(broken, 0),
          () => positionText(broken),
          () => toJson(broken),
          () => parseMove(broken, "7"),
          () => formatMove(broken, move),
          () => validate(broken),
        ]) {
          onlyOurs(work);
        }
      }),
      RUNS,
    );
  });
  test("a move with junk anywhere is judged, never crashes", () => {
    const moves = fc.oneof(
      junk,
      fc.record({ action: fc.constantFrom("play", "discard", "pass", "fly"), card: junk, steps: junk }),
      fc.record({
        action: fc.constant("play"),
        card: fc.integer({ min: -2, max: 16 }),
        steps: fc.array(fc.record({ seat: junk, from: junk, to: junk }), { maxLength: 3 }),
      }),
    );
    fc.assert(
      fc.property(moves, (move) => {
        onlyOurs(() => apply(sample, move as Move));
        onlyOurs(() => explain(sample, move));
        onlyOurs(() => formatMove(sample, move as Move));
      }),
      RUNS,
    );
  });
  test("records: a fresh deal only, and replays stop at the first illegal move", () => {
    onlyOurs(() => recordOf(sample, []));
    const start = newGame(4, { seed: 5n });
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 5 }), (moves) => onlyOurs(() => replay(recordOf(start, moves)))),
      RUNS,
    );
  });
});

describe("the engine protocol", () => {
  test("any line gets one answer line, never an exception", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), anyJson.map((v) => JSON.stringify(v))), (line) => {
        const answer = handleLine(line);
        if (answer !== null) expect(answer).not.toContain("\n");
      }),
      RUNS,
    );
  });
  test("any request object is answered", () => {
    const requests = fc.record({
      id: fc.oneof(fc.integer(), fc.string(), junk),
      type: fc.constantFrom("hello", "legal", "apply", "deal", "perft", "bogus"),
      position: fc.oneof(fc.constant("pegs 0: 70\nhand 0: 7"), junk),
      move: fc.oneof(fc.constant("7 0:70-5"), junk),
      players: junk,
      dealer: junk,
      seed: junk,
      preset: fc.oneof(fc.constant("arizona"), junk),
      house_rules: junk,
      depth: fc.oneof(fc.integer({ min: -1, max: 2 }), junk),
      divide: junk,
      reshuffle: junk,
    });
    fc.assert(
      fc.property(requests, (request) => {
        const answer = handle(request);
        expect(answer === null || typeof answer === "object").toBe(true);
        const error = answer?.["error"];
        expect(typeof error === "string" ? error : "").not.toMatch(/^internal error/);
      }),
      RUNS,
    );
  });
});
