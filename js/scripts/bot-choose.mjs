// The TypeScript bots asked for decisions, one a line, for the reference's differential
// (tools/bot_differential.py): each input line is a JSON object
//   {"bot": "expert:50", "seed": 3, "view": <view document>, "moves": <moves document>}
// ("id": a name for the bot, which later lines reuse unless "fresh" is true, so that its
// generator goes on from the draws it made for them) and each output line the chosen move's document (or {"error": "..."}). A line
//   {"bench": "expert:200", "seed": 1, "view": ..., "moves": ...}
// instead answers {"seconds": ...}, the CPU time the choice took (as Python's process_time).
//
//   node scripts/bot-choose.mjs < requests.jsonl    (after npm run build)
import { createInterface } from "node:readline";
import { fromData, makeBot, toData } from "../dist/index.js";

const bots = new Map();
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  let answer;
  try {
    const request = JSON.parse(line);
    let bot = request.id === undefined ? undefined : bots.get(request.id);
    if (bot === undefined || request.fresh) {
      bot = makeBot(request.bot ?? request.bench, BigInt(request.seed));
      if (request.id !== undefined) bots.set(request.id, bot);
    }
    const seen = fromData(request.view, "view");
    const moves = fromData(request.moves, "moves");
    const began = process.cpuUsage();
    const move = bot.choose(seen, moves);
    const used = process.cpuUsage(began);
    const seconds = (used.user + used.system) / 1e6;
    answer = request.bench === undefined ? toData(move) : { seconds };
  } catch (error) {
    answer = { error: String(error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
