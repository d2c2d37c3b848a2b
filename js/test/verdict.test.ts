// move.verdict as data: the engine's order of checks is generated from ../specs/verdict.json,
// and must be what the generator writes from it today.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { VERDICT_ORDER } from "../src/verdict-order.js";

const spec = JSON.parse(readFileSync(new URL("../../specs/verdict.json", import.meta.url), "utf8")) as {
  checks: { item: string; check: string; scope: string }[];
};

test("src/verdict-order.ts is generated from specs/verdict.json as it stands", () => {
  const script = new URL("../scripts/verdict-order.mjs", import.meta.url).pathname;
  expect(() => execFileSync(process.execPath, [script, "--check"], { stdio: "pipe" })).not.toThrow();
});

test("the engine runs the checks of specs/verdict.json in its order", () => {
  expect(VERDICT_ORDER.map((c) => [c.item, c.name, c.scope])).toEqual(spec.checks.map((c) => [c.item, c.check, c.scope]));
  expect(Object.isFrozen(VERDICT_ORDER)).toBe(true);
});
