// Seeds: whole numbers read exactly wherever they come from (options, JSON, position text), at
// most 4,300 digits as the reference reads them, and dealt in time linear in their size.
import { describe, expect, test } from "vitest";
import { fromJson, newGame, parsePosition, PositionError, FormatError, toJson, validate } from "../src/index.js";

const BEYOND_2_53 = 2n ** 80n + 3n;
const LARGEST = 10n ** 4300n - 1n;

describe("seeds", () => {
  test("a seed line beyond 2^53 is read exactly, not as a double", () => {
    expect(parsePosition(`seed: ${BEYOND_2_53}`).seed).toBe(BEYOND_2_53);
    expect(parsePosition(`seed: -${BEYOND_2_53}`).seed).toBe(-BEYOND_2_53);
    expect(parsePosition(`seed: ${LARGEST}`).seed).toBe(LARGEST);
  });
  test("the largest seed deals in well under a second; a longer one is refused at once", () => {
    const started = performance.now();
    expect(newGame(8, { seed: LARGEST }).seed).toBe(LARGEST);
    expect(newGame(8, { seed: -LARGEST }).seed).toBe(-LARGEST);
    expect(performance.now() - started).toBeLessThan(1000);
    for (const seed of [LARGEST + 1n, -LARGEST - 1n, 2n ** (2n ** 23n), -(2n ** (2n ** 20n))]) {
      const refused = performance.now();
      expect(() => newGame(4, { seed })).toThrow(PositionError);
      expect(performance.now() - refused).toBeLessThan(100);
    }
  });
  test("text and JSON refuse a seed of more than 4,300 digits with the package's error", () => {
    expect(() => parsePosition(`seed: ${"9".repeat(4301)}`)).toThrow(PositionError);
    expect(parsePosition(`seed: ${"9".repeat(400)}`).seed).toBe(10n ** 400n - 1n);
    const game = newGame(4, { seed: LARGEST });
    expect(fromJson(toJson(game), "state").seed).toBe(LARGEST);
    expect(() => fromJson(toJson(game).replace(`${LARGEST}`, `${LARGEST}9`), "state")).toThrow(FormatError);
    expect(validate({ ...game, seed: LARGEST + 1n })).toEqual(["seed: a whole number of more than 4300 digits"]);
  });
  test("a number seed must be exact: a double beyond 2^53 is refused, not rounded", () => {
    expect(newGame(4, { seed: 2 ** 53 - 1 }).seed).toBe(2n ** 53n - 1n);
    expect(() => newGame(4, { seed: 2 ** 60 })).toThrow(/beyond 2\^53/);
    expect(() => newGame(4, { seed: 1.5 })).toThrow(PositionError);
  });
});
