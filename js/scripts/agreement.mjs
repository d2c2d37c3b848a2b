// The TypeScript engine's side of the Python test tests/test_js_agreement.py.
//
//   node js/scripts/agreement.mjs < JOBS > RESULTS      (one JSON object per line each way)
//
// Each job is a game: its seed, seat count and rules (the state JSON's rules object), the seed
// of the generator that picks each move among the legal ones (the reference's Mersenne
// Twister, so both engines pick the same move from the same list), a cap on its turns, the
// turns whose state JSON (and the events of the move played there) to write whole, and
// illegal-move candidates to judge at given turns (where the shortest notation of the first
// legal moves is written too). The answer gives, for the game, a SHA-256 over one record per
// position (see record()), the texts asked for, the verdicts and, with "trace", each position's
// record.
import { createHash } from "node:crypto";
import { createInterface } from "node:readline";
import {
  apply,
  applyWithEvents,
  eventsToJson,
  explain,
  formatMove,
  fromData,
  legalMoves,
  newGame,
  parseNotation,
  toJson,
} from "../dist/index.js";
import { Twister } from "../dist/random.js";

/**
 * One position as compact JSON, exactly as the Python side writes it: the state's fields (the
 * piles whole when `whole`, else by their sizes and last cards), then the legal moves.
 */
export function record(state, moves, whole) {
  const encoded = moves.map((m) => {
    if (m.action === "pass") return [-1];
    if (m.action === "discard") return [0, m.card];
    return [m.card, m.steps.map((s) => [s.seat, s.from, s.to])];
  });
  const draw = state.drawPile;
  const discard = state.discardPile;
  const piles = whole ? [draw, discard] : [draw.length, draw.slice(0, 1), discard.length, discard.slice(-1)];
  return JSON.stringify([state.pegs, state.hands, piles, state.turn, state.dealer, state.ply, state.reshuffles, state.winner, encoded]);
}

function play(job) {
  const rules = fromData({ format: 1, type: "rules", ...job.rules }, "rules");
  let state = newGame(job.players, { seed: BigInt(job.seed), rules });
  const rng = new Twister(BigInt(job.choices));
  const hash = createHash("sha256");
  const json = {};
  const verdicts = {};
  const shorthands = {};
  const events = {};
  const trace = [];
  const samples = new Set(job.samples ?? []);
  let reshuffles = -1;
  for (;;) {
    const moves = legalMoves(state);
    const line = record(state, moves, state.reshuffles !== reshuffles);
    reshuffles = state.reshuffles;
    hash.update(line + "\n");
    if (job.trace) trace.push(line);
    if (samples.has(state.ply)) json[state.ply] = toJson(state);
    const candidates = job.candidates?.[state.ply];
    if (candidates) {
      verdicts[state.ply] = candidates.map((text) => {
        const verdict = explain(state, parseNotation(text));
        return [verdict.legal, verdict.rule, verdict.reason];
      });
      shorthands[state.ply] = moves.slice(0, job.shorthands).map((m) => formatMove(state, m, { short: true }));
    }
    if (moves.length === 0 || state.ply >= job.max_plies) break;
    const move = rng.choice(moves);
    if (samples.has(state.ply)) events[state.ply] = eventsToJson(applyWithEvents(state, move)[1], null);
    state = apply(state, move);
  }
  const answer = { game: job.game, plies: state.ply, digest: hash.digest("hex"), json, verdicts, shorthands, events };
  return job.trace ? { ...answer, trace } : answer;
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
