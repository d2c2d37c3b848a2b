// Two builds of the package, timed against each other in one process: random games played to the
// end (as bench.mjs's turns workload plays them) in slices of half a CPU second, alternating
// between the builds, so that a busy machine slows both alike.
//
//   node js/scripts/compare-builds.mjs DIR_A DIR_B [PLAYERS] [ROUNDS]
//
// DIR_A and DIR_B each hold a built dist/ (npm run build). Prints turns per second of each and
// B's over A's; run it twice with the builds swapped, since the one loaded second tends to gain
// a few per cent.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dirA, dirB, playersArg = "8", roundsArg = "16"] = process.argv.slice(2);
if (dirA === undefined || dirB === undefined) {
  console.error("usage: node compare-builds.mjs DIR_A DIR_B [PLAYERS] [ROUNDS]");
  process.exit(2);
}
const players = Number(playersArg);
const rounds = Number(roundsArg);
const SLICE = 0.5;

async function load(dir) {
  const url = (file) => pathToFileURL(resolve(dir, "dist", file)).href;
  return { engine: await import(url("index.js")), random: await import(url("random.js")) };
}

function cpuSeconds() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/** Play whole games with `build` for one slice: [turns, CPU seconds]. */
function slice({ engine, random }) {
  const rng = new random.Twister(7n);
  const began = cpuSeconds();
  let turns = 0;
  for (let seed = 0n; cpuSeconds() - began < SLICE; seed++) {
    let state = engine.newGame(players, { seed });
    while (state.winner === null) state = engine.apply(state, rng.choice(engine.legalMoves(state)));
    turns += state.ply;
  }
  return [turns, cpuSeconds() - began];
}

const builds = [await load(dirA), await load(dirB)];
for (const build of builds) slice(build); // warm up
const totals = [
  [0, 0],
  [0, 0],
];
for (let round = 0; round < rounds; round++) {
  builds.forEach((build, k) => {
    const [turns, seconds] = slice(build);
    totals[k][0] += turns;
    totals[k][1] += seconds;
  });
}
const [a, b] = totals.map(([turns, seconds]) => turns / seconds);
console.log(JSON.stringify({ players, a: Math.round(a), b: Math.round(b), unit: "turns/s", ratio: Number((b / a).toFixed(3)) }));
