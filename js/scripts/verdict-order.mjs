// Writes src/verdict-order.ts from ../specs/verdict.json, the order of move.verdict's checks,
// so that the engine follows the data and cannot drift from it. `node scripts/verdict-order.mjs`
// rewrites the file; `--check` exits 1 if the file differs from what it would write (the
// package's tests run that).
import { readFileSync, writeFileSync } from "node:fs";

const here = new URL("../", import.meta.url);
const spec = JSON.parse(readFileSync(new URL("../specs/verdict.json", here), "utf8"));
const camel = (field) => field.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

const rows = spec.checks.map((c) => {
  const when = c.when ? `{ field: ${JSON.stringify(camel(c.when.field))}, value: ${JSON.stringify(c.when.value)} }` : "null";
  return `  { item: ${JSON.stringify(c.item)}, name: ${JSON.stringify(c.check)}, scope: ${JSON.stringify(c.scope)}, when: ${when} },`;
});
const names = spec.checks.map((c) => `  | ${JSON.stringify(c.check)}`);
const text = `// Generated from specs/verdict.json by scripts/verdict-order.mjs: do not edit by hand.
import type { Rules } from "./rules.js";

/** The name of a check of \`move.verdict\`. */
export type CheckName =
${names.join("\n")};

/** One check of \`move.verdict\`: its item, name, scope and the house rule that brings it in. */
export interface Check {
  readonly item: string;
  readonly name: CheckName;
  readonly scope: "move" | "swap" | "step";
  readonly when: { readonly field: keyof Rules; readonly value: string | boolean } | null;
}

/** Every check of \`move.verdict\`, in the order a move is judged (\`specs/verdict.json\`). */
export const VERDICT_ORDER: readonly Check[] = Object.freeze([
${rows.join("\n")}
] as const satisfies readonly Check[]);
`;
const target = new URL("src/verdict-order.ts", here);
if (process.argv.includes("--check")) {
  if (readFileSync(target, "utf8") !== text) {
    console.error("src/verdict-order.ts differs from specs/verdict.json: run node scripts/verdict-order.mjs");
    process.exit(1);
  }
} else {
  writeFileSync(target, text);
}
