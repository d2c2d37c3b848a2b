// TypeScript expert against TypeScript hard: games of 4 players at the bots' default budgets
// (1,000 and 300 playouts a move), each deal played twice, the second time with every bot one
// seat on, as the reference's `pegs simulate --bots expert,hard` plays them. Prints the games
// the expert's team won with a 95% Wilson interval, and the time a move took.
//
//   node scripts/strength.mjs [GAMES] [FIRST] [STEP]    (after npm run build)
//
// FIRST and STEP (default 0 and 1) play games FIRST, FIRST + STEP, ...: two processes with
// STEP 2 share a run; add their counts. Each game's deal is seed 1000 + its index halved.
import { performance } from "node:perf_hooks";
import { apply, decide, makeBot, newGame } from "../dist/index.js";

const games = Number(process.argv[2] ?? 40);
const first = Number(process.argv[3] ?? 0);
const step = Number(process.argv[4] ?? 1);
let won = 0;
let played = 0;
const thinking = { expert: [0, 0], hard: [0, 0] };
for (let index = first; index < games; index += step) {
  const swapped = index % 2 === 1;
  let state = newGame(4, { seed: 1000 + Math.floor(index / 2) });
  const names = [0, 1, 2, 3].map((seat) => ((seat + (swapped ? 1 : 0)) % 2 === 0 ? "expert" : "hard"));
  const bots = names.map((name, seat) => makeBot(name, index * 10 + seat));
  while (state.winner === null) {
    const began = performance.now();
    const move = decide(bots[state.turn], state);
    const time = thinking[names[state.turn]];
    time[0] += performance.now() - began;
    time[1] += 1;
    state = apply(state, move);
  }
  const expertTeam = swapped ? 1 : 0;
  played += 1;
  if (state.winner === expertTeam) won += 1;
}
const z = 1.959964;
const p = won / played;
const centre = (p + (z * z) / (2 * played)) / (1 + (z * z) / played);
const half = (z * Math.sqrt((p * (1 - p)) / played + (z * z) / (4 * played * played))) / (1 + (z * z) / played);
const ms = (name) => (thinking[name][0] / thinking[name][1]).toFixed(1);
console.log(
  `expert's team won ${won} of ${played} games, ${(100 * p).toFixed(1)}% ` +
    `[${(100 * (centre - half)).toFixed(1)}%, ${(100 * (centre + half)).toFixed(1)}%]; ` +
    `a move: expert ${ms("expert")} ms, hard ${ms("hard")} ms`,
);
