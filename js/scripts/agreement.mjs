// The TypeScript engine's side of the Python test tests/test_js_agreement.py.
//
//   node js/scripts/agreement.mjs < JOBS > RESULTS      (one JSON object per line each way)
//
// Each job is a game: its seed, seat count and rules (the state JSON's rules object), the seed
// of the generator that picks each move among the legal ones (the reference's Mersenne
// Twister, so both engines pick the same move from the same list), a cap on its turns, the
// turns whose state JSON to write whole, and illegal-move candidates to judge at given turns.
// The answer gives, for the game, a SHA-256 over one record per position (every field of the
// state, then the legal moves: see record()), the JSON texts asked for, the verdicts and, with
// "trace", each position's record.
import { createHash } from "node:crypto";
import { createInterface } from "node:readline";
import { apply, explain, fromData, legalMoves, newGame, parseNotation, toJson } from "../dist/index.js";
import { Twister } from "../dist/random.js";

/** One position as compact JSON: the state's fields, then the legal moves as numbers. */
export function record(state, moves) {
  const encoded = moves.map((m) => {
    if (m.action === "pass") return [-1];
    if (m.action === "discard") return [0, m.card];
    const out = [m.card];
    for (const s of m.steps) out.push(s.seat, s.from, s.to);
    return out;
  });
  return JSON.stringify([
    state.pegs,
    state.hands,
    state.drawPile,
    state.discardPile,
    state.turn,
    state.dealer,
    state.ply,
    state.reshuffles,
    state.winner,
    encoded,
  ]);
}

function play(job) {
  const rules = fromData({ format: 1, type: "rules", ...job.rules }, "rules");
  let state = newGame(job.players, { seed: BigInt(job.seed), rules });
  const rng = new Twister(BigInt(job.choices));
  const hash = createHash("sha256");
  const json = {};
  const verdicts = {};
  const trace = [];
  const samples = new Set(job.samples ?? []);
  for (;;) {
    const moves = legalMoves(state);
    const line = record(state, moves);
    hash.update(line + "\n");
    if (job.trace) trace.push(line);
    if (samples.has(state.ply)) json[state.ply] = toJson(state);
    const candidates = job.candidates?.[state.ply];
    if (candidates) {
      verdicts[state.ply] = candidates.map((text) => {
        const verdict = explain(state, parseNotation(text));
        return [verdict.legal, verdict.rule, verdict.reason];
      });
    }
    if (moves.length === 0 || state.ply >= job.max_plies) break;
    state = apply(state, rng.choice(moves));
  }
  return { game: job.game, plies: state.ply, digest: hash.digest("hex"), json, verdicts, ...(job.trace ? { trace } : {}) };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let answer;
  try {
    answer = play(JSON.parse(line));
  } catch (error) {
    answer = { error: String(error?.stack ?? error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
