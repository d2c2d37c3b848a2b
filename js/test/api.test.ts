// The public API as the docs show it: examples, events, records, notation, verdicts, JSON
// written byte for byte as the reference writes it, the engine protocol's transcript, and the
// package's own bookkeeping (its version, the rulings it names).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import {
  AmbiguousMoveError,
  apply,
  applyWithEvents,
  eventText,
  explain,
  formatMove,
  fromJson,
  IllegalMoveError,
  legalMoves,
  moveText,
  newGame,
  parseMove,
  parseNotation,
  parsePosition,
  recordOf,
  replay,
  ReplayError,
  RULINGS,
  sameState,
  toJson,
  VERSION,
  view,
} from "../src/index.js";
import { handleLine } from "../src/protocol.js";
import { rulingIds, SPECS } from "./specs.js";

describe("the quick start", () => {
  test("deal, list, apply", () => {
    let game = newGame(4, { seed: 1n });
    const moves = legalMoves(game);
    game = apply(game, moves[0] as (typeof moves)[number]);
    expect([game.ply, game.turn, game.winner]).toEqual([1, 3, null]);
    expect(() => apply(game, { action: "pass" })).toThrow(IllegalMoveError);
  });

  test("positions by hand, and the ruling that forbids a move", () => {
    const state = parsePosition("pegs 0: 70\nhand 0: 7");
    expect(legalMoves(state).map(moveText)).toEqual(["7 0:70-5", "7 0:70-h2"]);
    const wrong = parseNotation("7 0:70-6");
    expect(() => apply(state, wrong)).toThrow(/\[card\.seven\]/);
    expect(explain(state, wrong)).toEqual({ legal: false, rule: "card.seven", reason: "a 7 moves a peg exactly 7 holes forward" });
  });
});

describe("notation", () => {
  const state = parsePosition("pegs 0: 70 h1\npegs 2: 40 h1\nhand 0: 3 K");
  test("shorthands resolve against the legal moves", () => {
    expect(moveText(parseMove(state, "3 70-1"))).toBe("3 0:70-1");
    expect(moveText(parseMove(state, "k 40"))).toBe("K 2:40-50");
    expect(() => parseMove(state, "3 h1-h4")).toThrow(AmbiguousMoveError);
    expect(() => parseMove(state, "3 41-44")).toThrow(/\[board\.pegs\] no peg of seat 0 on 41/);
  });
  test("the shortest shorthand that names each move", () => {
    expect(legalMoves(state).map((m) => formatMove(state, m, { short: true }))).toEqual([
      "3 70", "3 0:h1", "3 40", "3 2:h1", "K s-8", "K 70", "K 2:s", "K 40",
    ]);
  });
  test("a split in its other order with the same result is that move (card.seven.split.order)", () => {
    const split = parsePosition("pegs 0: 10 30\nhand 0: 7");
    const other = parseNotation("7 0:30-34 0:10-13");
    expect(moveText(parseMove(split, "7 0:30-34 0:10-13"))).toBe("7 0:10-13 0:30-34");
    expect(explain(split, other).legal).toBe(true);
    expect(apply(split, other).pegs[0]).toEqual([-1, -1, -1, 13, 34]);
  });
});

describe("events and records", () => {
  test("what a move did, in order, in the reference's sentences", () => {
    const state = parsePosition("pegs 0: 30\npegs 1: 35\nhand 0: 2 2 5 6 6\ndraw: 9 A");
    const [, events] = applyWithEvents(state, parseNotation("5 0:30-35"));
    expect(events.map(eventText)).toEqual([
      "seat 0 plays 5",
      "seat 0's peg moves from 30 to 35",
      "seat 1's peg is knocked from 35 back to its start",
      "seat 0 draws 9",
    ]);
  });
  test("a record replays to the same state, and stops at an illegal move", () => {
    const start = newGame(4, { seed: 1n });
    let game = start;
    const moves = [];
    for (let i = 0; i < 3; i++) {
      const move = legalMoves(game)[0] as ReturnType<typeof legalMoves>[number];
      moves.push(move);
      game = apply(game, move);
    }
    const record = recordOf(start, moves);
    expect(record.moves).toEqual(["discard 7", "A 1:s-26", "J 0:s-8"]);
    expect(sameState(replay(record), game)).toBe(true);
    try {
      replay({ ...record, moves: ["discard 7", "pass"] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ReplayError);
      expect([(error as ReplayError).turn, (error as ReplayError).rule]).toEqual([2, "turn.discard"]);
    }
  });
});

describe("JSON, as the reference writes it", () => {
  test("a move", () => {
    expect(toJson(parseNotation("7 0:70-h2 2:33-37"))).toBe(
      '{"format": 1, "type": "move", "action": "play", "card": "7", "steps": [{"seat": 0, "from": "70", "to": "h2"}, {"seat": 2, "from": "33", "to": "37"}]}',
    );
    expect(() => fromJson('{"format": 1, "type": "move", "action": "discard", "card": "joker"}')).toThrow(
      "$.card: expected a card (A 2..10 J Q K JK), not 'joker'",
    );
  });
  test("a state and a view round trip; a seed of any size is kept exactly", () => {
    const game = newGame(4, { seed: 2n ** 200n + 1n });
    expect(toJson(game)).toContain(`"seed": ${2n ** 200n + 1n}`);
    expect(sameState(fromJson(toJson(game), "state"), game)).toBe(true);
    expect(toJson(fromJson(toJson(view(game, 0)), "view"))).toBe(toJson(view(game, 0)));
    expect(view(game, 0).drawPileSize).toBe(142);
  });
  test("text beyond ASCII is escaped as Python's json.dumps escapes it", () => {
    expect(toJson({ legal: true, rule: null, reason: "é ☃ 😀" })).toBe(
      '{"format": 1, "type": "explanation", "legal": true, "rule": null, "reason": "\\u00e9 \\u2603 \\ud83d\\ude00"}',
    );
  });
  test("any text is written as Python's json.dumps writes it", () => {
    // JSON.stringify, then every code unit outside printable ASCII as \uXXXX: json.dumps's
    // ensure_ascii (lone surrogates included)
    const python = (text: string): string =>
      JSON.stringify(text).replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
    const code = fc.oneof(fc.integer({ min: 0, max: 0x80 }), fc.integer({ min: 0, max: 0xffff }));
    const units = fc.string({ unit: code.map((unit) => String.fromCharCode(unit)) });
    fc.assert(
      fc.property(fc.oneof(units, fc.string({ unit: "binary" })), (reason) => {
        const written = toJson({ legal: true, rule: null, reason });
        expect(written.slice(written.indexOf('"reason": ') + 10, -1)).toBe(python(reason));
      }),
    );
  });
});

describe("the engine protocol", () => {
  test("answers the transcript of specs/protocol.md as the reference does", () => {
    const text = readFileSync(join(SPECS, "protocol.md"), "utf8");
    const block = text.slice(text.indexOf("<!-- transcript -->")).split("```")[1] as string;
    const lines = block.split("\n").filter((line) => line.startsWith("> ") || line.startsWith("< "));
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (!line.startsWith("> ")) continue;
      const answer = handleLine(line.slice(2));
      const next = lines[i + 1];
      const expected = next?.startsWith("< ") ? (JSON.parse(next.slice(2)) as Record<string, unknown>) : null;
      if (expected === null) {
        expect(answer).toBeNull();
        continue;
      }
      const got = JSON.parse(answer as string) as Record<string, unknown>;
      delete got["state"]; // the transcript leaves it out
      if (expected["engine"] !== undefined) expect(got).toMatchObject({ id: expected["id"], protocol: 1, engine: "pegs-rules-js" });
      else expect(got).toEqual(expected);
    }
  });
});

describe("bookkeeping", () => {
  test("the version is package.json's", () => {
    const pkg = JSON.parse(readFileSync(join(SPECS, "..", "js", "package.json"), "utf8")) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
  test("the rulings named are exactly those of specs/rulings.md", () => {
    expect([...RULINGS.keys()].sort()).toEqual(rulingIds().sort());
  });
});
