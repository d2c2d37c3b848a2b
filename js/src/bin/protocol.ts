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
let quit = false;
lines.on("line", (line) => {
  if (quit || !line.trim()) return; // lines read with quit's are not answered
  const answer = handleLine(line);
  if (answer === null) {
    quit = true;
    lines.close();
    return;
  }
  process.stdout.write(`${answer}\n`);
});
// at the end of input (or after quit) the process ends once the answers written are flushed:
// process.exit() here would drop what a pipe has not taken yet
lines.on("close", () => process.stdin.destroy());
