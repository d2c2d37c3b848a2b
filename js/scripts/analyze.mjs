// The TypeScript analysis of game records, one a line, for the reference's agreement test
// (tests/test_js_analysis.py): each input line is a JSON object
//   {"record": <record document>, "playouts": 4, "seed": 0, "expert": 50}
// and each output line {"analysis": <analysisJson>, "svg": <chartSvg>, "seconds": <CPU time>}
// (or {"error": "..."}).
//
//   node scripts/analyze.mjs < requests.jsonl    (after npm run build)
import { createInterface } from "node:readline";
import { analysisJson, analyze, chartSvg, fromData } from "../dist/index.js";

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  let answer;
  try {
    const { record, playouts, seed, expert } = JSON.parse(line);
    const began = process.cpuUsage();
    const analysis = analyze(fromData(record, "record"), { playouts, seed, expert });
    const used = process.cpuUsage(began);
    answer = { analysis: analysisJson(analysis), svg: chartSvg(analysis), seconds: (used.user + used.system) / 1e6 };
  } catch (error) {
    answer = { error: String(error?.message ?? error) };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
