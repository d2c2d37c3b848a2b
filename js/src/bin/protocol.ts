#!/usr/bin/env node
/**
 * The engine protocol over standard input and output: one JSON request per line in, one answer
 * line out, until `quit` or the end of input; a line longer than `MAX_REQUEST` bytes is refused
 * unread. Run the suite against this engine with
 * `python -m pegs_rules.spec check --engine "node js/dist/bin/protocol.js"`.
 *
 * @module
 */
import { handleLine, refusal, RequestLines } from "../protocol.js";

const lines = new RequestLines();
let quit = false;

function serve(batch: readonly (string | null)[]): void {
  for (const line of batch) {
    if (quit) return; // lines read with quit's are not answered
    if (line !== null && !line.trim()) continue;
    const answer = line === null ? refusal() : handleLine(line);
    if (answer === null) {
      quit = true;
      // the process ends once the answers written are flushed: process.exit() here would drop
      // what a pipe has not taken yet
      process.stdin.destroy();
      return;
    }
    process.stdout.write(`${answer}\n`);
  }
}

process.stdin.on("data", (chunk: Buffer) => serve(lines.push(chunk)));
process.stdin.on("end", () => serve(lines.end()));
