// The TypeScript engine's side of bench/js_engine.py: one workload, its figure printed as JSON.
//
//   node js/scripts/bench.mjs WORKLOAD     (turns-PRESET-N or legal-moves-arizona-N)
//
// The workloads are those of bench/compare.py, seeded the same way: the random choices come from
// the same generator (the reference's Mersenne Twister), so both engines play the same games.
// Timings are the CPU time of the measured loop (process.cpuUsage), after the same loop has run
// untimed for WARM_UP CPU seconds: Node compiles hot code as it runs, and bots and simulations run
// long enough that what counts is the speed it reaches (Python, with nothing to warm up, is timed
// at once). The loop is then timed PASSES times in a row and the figure is the whole count over
// the whole time.
import { apply, findPreset, legalMoves, newGame } from "../dist/index.js";
import { Twister } from "../dist/random.js";

const TURN_GAMES = { 4: 4, 6: 2, 8: 1 };
const LEGAL_MOVES_PASSES = 10;
const WARM_UP = 3;
const PASSES = 3;

/** Run `work` untimed for WARM_UP CPU seconds, then PASSES times timed: [count, seconds]. */
function timed(work) {
  const warm = cpuSeconds();
  while (cpuSeconds() - warm < WARM_UP) work();
  let count = 0;
  const began = cpuSeconds();
  for (let pass = 0; pass < PASSES; pass++) count += work();
  return [count, cpuSeconds() - began];
}

function cpuSeconds() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

function randomStates(preset, players, seed, plies = 100_000) {
  const rng = new Twister(BigInt(seed));
  let state = newGame(players, { seed: BigInt(seed), rules: findPreset(preset) });
  const states = [state];
  while (state.winner === null && state.ply < plies) {
    state = apply(state, rng.choice(legalMoves(state)));
    states.push(state);
  }
  return states;
}

function playGames(rules, players) {
  let turns = 0;
  for (let seed = 0; seed < TURN_GAMES[players]; seed++) {
    const rng = new Twister(BigInt(seed));
    let state = newGame(players, { seed: BigInt(seed), rules });
    while (state.winner === null) state = apply(state, rng.choice(legalMoves(state)));
    turns += state.ply;
  }
  return turns;
}

function turnsPerSecond(preset, players) {
  const rules = findPreset(preset);
  const [turns, seconds] = timed(() => playGames(rules, players));
  return { value: turns / seconds, unit: "turns/s", turns: turns / PASSES };
}

function legalMovesPerSecond(players) {
  const sample = [];
  for (let seed = 0; seed < 3; seed++) sample.push(...randomStates("arizona", players, seed).filter((_, i) => i % 10 === 0));
  // each pass asks about every state of the sample in turn; the engine remembers only the last
  // two states' moves, so no call finds its answer remembered (as in the Python workload)
  const [calls, seconds] = timed(() => {
    for (let pass = 0; pass < LEGAL_MOVES_PASSES; pass++) for (const state of sample) legalMoves(state);
    return LEGAL_MOVES_PASSES * sample.length;
  });
  return { value: calls / seconds, unit: "calls/s", calls: sample.length };
}

const name = process.argv[2] ?? "";
const parts = name.split("-");
const players = Number(parts.at(-1));
let result;
if (name.startsWith("turns-")) result = turnsPerSecond(parts[1], players);
else if (name.startsWith("legal-moves-")) result = legalMovesPerSecond(players);
else {
  console.error(`unknown workload ${name}`);
  process.exit(2);
}
console.log(JSON.stringify({ ...result, compiled: false }));
