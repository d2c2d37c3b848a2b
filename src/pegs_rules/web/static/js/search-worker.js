// The page's searching Web Worker: the seat bots of the game being played and the hint, on the
// TypeScript engine (pegs-rules.js), away from the page's thread so that the board answers
// while a bot thinks. search.js starts it and is the only one to talk to it.
//
// From the page:  { id, request }   request: one of
//   { op: "bots", game, seed, seats }  the bots of game `game` (an id the page picks): at seat
//                                      s, makeBot(seats[s], seed * 100 + s), as `pegs demo`
//                                      seeds them, so that a game replays from its seed and
//                                      seats; "human" seats get none; answers { type: "bots" }
//   { op: "decide", game, seat, state } that bot's move for `state` (format-1 state JSON),
//                                      seeing only its seat's view; answers { type: "move",
//                                      move: notation, thought_ms }
//   { op: "hint", bot, state }         what makeBot(bot, state's seed + ply) plays for the seat
//                                      to act, seeing only its view; answers { type: "hint",
//                                      bot, move }
// To the page:    { id, answer }    answer: { ok: true, ... } or { ok: false, kind, error }.
// Requests are answered one at a time, in order.

import * as pegs from "./pegs-rules.js";

let game = null; // { id, bots: { [seat]: Bot } }

function bots({ game: id, seed, seats }) {
  const made = {};
  seats.forEach((name, seat) => {
    if (name !== "human") made[seat] = pegs.makeBot(name, BigInt(seed) * 100n + BigInt(seat));
  });
  game = { id, bots: made };
  return { type: "bots" };
}

function decide({ game: id, seat, state }) {
  const bot = game?.id === id ? game.bots[seat] : undefined;
  if (bot === undefined) return { ok: false, kind: "request", error: `no bot sits at seat ${seat} of this game` };
  const position = pegs.fromJson(state, "state");
  if (position.turn !== seat) return { ok: false, kind: "request", error: `seat ${position.turn} is to act, not seat ${seat}` };
  const started = performance.now();
  const move = pegs.decide(bot, position);
  return { type: "move", move: pegs.moveText(move), thought_ms: Math.round((performance.now() - started) * 10) / 10 };
}

function hint({ bot, state }) {
  const position = pegs.fromJson(state, "state");
  const move = pegs.decide(pegs.makeBot(bot, position.seed + BigInt(position.ply)), position);
  return { type: "hint", bot, move: pegs.moveText(move) };
}

const OPS = { bots, decide, hint };

self.onmessage = ({ data: { id, request } }) => {
  let answer;
  try {
    const op = OPS[request.op];
    if (op === undefined) throw new Error(`unknown request ${JSON.stringify(request.op)}`);
    answer = { ok: true, ...op(request) };
  } catch (error) {
    answer =
      error instanceof pegs.PegsError
        ? { ok: false, kind: "position", error: `no ${request.op === "hint" ? "hint" : "move"} for this position: ${error.message}` }
        : { ok: false, kind: "internal", error: `${error.name}: ${error.message}` };
  }
  postMessage({ id, answer });
};
