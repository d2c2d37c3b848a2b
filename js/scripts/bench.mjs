// The TypeScript engine's side of bench/js_engine.py: one workload, its figure printed as JSON.
//
//   node js/scripts/bench.mjs WORKLOAD     (turns-PRESET-N or legal-moves-arizona-N)
//
// The workloads are those of bench/compare.py, seeded the same way: the random choices come from
// the same generator (the reference's Mersenne Twister), so both engines play the same games.
// Timings are the CPU time of the measured loop (process.cpuUsage), after the same loop has run
// twice untimed: Node compiles hot code as it runs, and simulations run long enough that what
// counts is the speed it reaches (Python, with nothing to warm up, is timed at once).
import { apply, findPreset, legalMoves, newGame } from "../dist/index.js";
import { Twister } from "../dist/random.js";

const TURN_GAMES = { 4: 4, 6: 2, 8: 1 };
const LEGAL_MOVES_PASSES = 10;

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
  playGames(rules, players); // warm-up (see above)
  playGames(rules, players);
  const began = cpuSeconds();
  const turns = playGames(rules, players);
  return { value: turns / (cpuSeconds() - began), unit: "turns/s", turns };
}

function legalMovesPerSecond(players) {
  const sample = [];
  for (let seed = 0; seed < 3; seed++) sample.push(...randomStates("arizona", players, seed).filter((_, i) => i % 10 === 0));
  // fresh objects for every pass, made before timing: the engine remembers a state's moves
  const fresh = () => Array.from({ length: LEGAL_MOVES_PASSES }, () => sample.map((state) => ({ ...state })));
  for (let warm = 0; warm < 2; warm++) for (const pass of fresh()) for (const state of pass) legalMoves(state);
  const passes = fresh();
  const began = cpuSeconds();
  for (const pass of passes) for (const state of pass) legalMoves(state);
  return { value: (LEGAL_MOVES_PASSES * sample.length) / (cpuSeconds() - began), unit: "calls/s", calls: sample.length };
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
