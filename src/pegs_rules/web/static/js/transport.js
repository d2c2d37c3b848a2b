// The transport: the only way the page talks to a rules engine.
//
// The UI (board.js, controls.js, setup.js, lawyer.js, main.js) never calls an engine
// or a server itself; it holds one Transport and uses only what is described here.
// Two transports exist:
//
//   "local"   (local.js)  the engine runs in this page: the TypeScript engine, its bots and
//                         the hint in a Web Worker (search.js);
//   "remote"  (remote.js) the engine runs on a `pegs serve` server, over a WebSocket.
//
// A new transport implements the interface below and is added to `createTransport`;
// nothing else in the page changes. The page reads which one to use from its
// config.json: { "transport": "local" | "remote", ...options for that transport }
// (`pegs web build` writes a local one; a server may serve its own).
//
// Every document named "format-1 <type>" is the library's JSON (pegs_rules.serialize,
// schemas in specs/schema/<type>.schema.json).
//
// ---------------------------------------------------------------------------------
// interface Transport
//
//   kind: "local" | "remote"
//   can: { setup: boolean, study: boolean, replay?: boolean, hint?: boolean }
//       setup: start() may start a game (a remote game is created by the server);
//       study: study() and explain() work (rules-lawyer mode);
//       replay: openRecord(), replayPly() and summary() work (the record viewer);
//       hint: hint() works. A capability left out is false.
//
//   connect(): Promise<Hello>
//       Resolves once the engine answers (the local one at once). Hello = {
//         version: string,                     // the Python library's (the build's or the server's)
//         engine?: string,                     // the engine that judges the game, if not that
//         presets: { [name]: { players: number[], rules: { [field]: text } } },
//         switches: [{ name, label, ruling, kind: "bool" | "choice" | "text", choices? }],
//         bots: string[],                      // "random", "easy", "medium", "mcts"...
//         rulings: { [id]: summary },          // every ruling id with its one line
//         limits: { position: number, move: number },   // longest texts accepted
//       }
//
//   onUpdate(listener: (update: Update) => void): void
//       Every change of the game: after start(), after each move (a human's or a
//       bot's), and on (re)connecting. Update = {
//         type: "update",
//         seat: number | null,       // whose eyes: the seat this update is for
//                                    //   (null: a spectator, who sees no hand)
//         seats: string[],           // who sits where: "human", "greedy", "mcts:1s"...
//         view: object | null,       // format-1 "view" of `seat` (null for a spectator)
//         public: {                  // what everybody sees
//           players, preset, ply, turn, team, dealer,
//           winner: 0 | 1 | null, hand_sizes: number[], draw_pile_size,
//           discard_top: string | null,
//         },
//         moves: object | null,      // format-1 "moves": the legal moves, in the engine's
//                                    //   order, when `seat` is to act and is a person
//         events: object,            // format-1 "events" of the move just made, as
//                                    //   `seat` may see them (empty on start/reconnect)
//         svg: string,               // the board, an SVG document drawn from public
//                                    //   information by pegs_rules.render.svg; its pegs
//                                    //   and holes carry data-seat and data-loc
//         next: "human" | "bot" | "over",   // who acts next
//         last_move: string | null,  // the move just made, in notation
//         thought_ms: number | null, // how long a bot took to choose it (null: a person's)
//       }
//
//   onNotice(listener: (notice: Notice) => void): void
//       Things to tell the person that are not game state (the header shows them:
//       loading.js). Notice = { level: "info" | "error", text: string, fatal?: boolean }
//       fatal: the engine is gone; the page says so and offers a reload.
//
//   start(setup): Promise<Answer>                        (can.setup)
//       setup = { players, preset, rules: { [field]: text }, seats: string[],
//                 seed: number | null }.  The game's updates arrive via onUpdate.
//
//   play(text): Promise<Answer>
//       The person's move, in move notation (shorthands allowed: "7 70-h2 33-37").
//
//   leave(): Promise<Answer>
//       Stop following the game: no more updates (the local engine drops the game and
//       its bots stop; a remote transport closes its connection).
//
//   record(): Promise<Answer>
//       The game so far as a format-1 "record" (what `pegs replay` reads).
//
//   study(text): Promise<Answer>                         (can.study)
//       Rules-lawyer mode: a position, in the position text format or a format-1
//       "state". Answer = { ok, type: "study", position: text, public, hands: string[][],
//       moves: format-1 "moves", svg }.
//
//   explain(text): Promise<Answer>                       (can.study)
//       The verdict on a move of the studied position. Answer = { ok, type: "ruling",
//       move: notation | null, verdict: format-1 "explanation",
//       summary: string | null (the ruling's one line),
//       events: format-1 "events" | null (a legal move's, nothing hidden),
//       frames: [{ caption, events: number[], svg }] (boards to step through) }.
//
//   openRecord(text): Promise<Answer>                    (can.replay)
//       The record viewer: a format-1 "record" as JSON text, replayed up to its first
//       illegal move. Answer = { ok, type: "replay", players, preset, seed,
//       moves: notation[] (the whole record), end: number (the last ply reached),
//       stopped: null | { turn, move, verdict: format-1 "explanation", summary },
//       summary: Summary | null (a finished game's) }.
//
//   replayPly(ply): Promise<Answer>                      (can.replay)
//       Ply `ply` (0..end) of the opened record, which becomes the studied position
//       (explain() and hint("study") work on it). Answer = { ok, type: "ply", ply, end,
//       move: notation | null (the move that led here), seat: number | null (its mover),
//       events: format-1 "events" (that move's, nothing hidden), next_move: notation | null,
//       study: the answer study() gives for the position }.
//
//   hint(on: "game" | "study"): Promise<Answer>          (can.hint)
//       The move the engine's search bot makes for the seat to act, seeing only that
//       seat's view: in the game (when the person is to act) or in the studied position.
//       Answer = { ok, type: "hint", seat, bot, move: notation, events: format-1 "events"
//       (in a game, with every drawn card hidden), frames: as explain() gives them }.
//
//   summary(): Promise<Answer>                           (can.replay)
//       The game's summary. Summary = { type: "summary", players, preset, turns,
//       winner: 0 | 1 | null, winners: number[], kinds?: string[] (who sat where),
//       seats: [{ seat, team, played, discarded, passed, knocked_back, knocked, home }] }.
//
//   shown?(): void
//       The page has finished showing the last update (moves are animated): a transport
//       that runs the bots itself makes their next move from here, after botDelay
//       (milliseconds, a property the page sets).
//
//   close(): void
//
// An Answer is { ok: true, ... } or, for a request that cannot be met,
// { ok: false, kind, error } where error is a sentence for the person and kind is
// "illegal" (with verdict: format-1 "explanation", and move), "ambiguous" (with
// candidates: notation[]), "notation", "position", "record", "setup", "request" or
// "internal".
// A promise rejects only when the engine itself is unreachable.
// ---------------------------------------------------------------------------------

/** Make the transport of the given kind ("local" or "remote"). */
export async function createTransport(kind, options = {}) {
  if (kind === "local") {
    const { LocalTransport } = await import("./local.js");
    return new LocalTransport(options);
  }
  if (kind === "remote") {
    const { RemoteTransport } = await import("./remote.js");
    return new RemoteTransport(options);
  }
  throw new Error(`unknown transport ${JSON.stringify(kind)}`);
}
