// The TypeScript side of the Python test tests/test_js_render.py.
//
//   node js/scripts/render.mjs < JOBS > ANSWERS      (one JSON object per line each way)
//
// Each job is a board to draw: the state's JSON document, the move to show in notation (or
// null), the track holes to highlight, whether to number holes, and the size in pixels. The
// answer is the SVG text, or the name and message of the error thrown.
import { createInterface } from "node:readline";
import { fromJson, parseNotation } from "../dist/index.js";
import { svg } from "../dist/render.js";

function draw(job) {
  const state = fromJson(job.state, "state");
  const move = job.move === null ? null : parseNotation(job.move);
  return { svg: svg(state, move, { highlight: job.highlight, labels: job.labels, size: job.size }) };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let answer;
  try {
    answer = draw(JSON.parse(line));
  } catch (error) {
    answer = { error: error?.name ?? "Error", message: String(error?.message ?? error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
