#!/usr/bin/env node
/**
 * The engine protocol over standard input and output: one JSON request per line in, one answer
 * line out, until `quit` or the end of input. Run the suite against this engine with
 * `python -m pegs_rules.spec check --engine "node js/dist/bin/protocol.js"`.
 *
 * @module
 */
import { createInterface } from "node:readline";
import { handleLine } from "../protocol.js";

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const answer = handleLine(line);
  if (answer === null) {
    lines.close();
    return;
  }
  process.stdout.write(`${answer}\n`);
});
lines.on("close", () => process.exit(0));
