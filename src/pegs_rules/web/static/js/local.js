// The local transport: the rules engine in this page. Games, legal moves, verdicts, the record
// viewer and the boards run on the TypeScript engine (pegs-rules.js, which `pegs web build`
// bundles from the package pegs-rules and its drawing, pegs-rules/render), at once; the bots
// and the hint run on it too, in a Web Worker (search.js), so that the page keeps answering
// while they think. See transport.js for the interface.

import { Search } from "./search.js";
import { Listeners } from "./listeners.js";

/** Ply events that happen before the pegs move (the card), for a move's boards. */
const CARD_EVENTS = ["card_played", "card_discarded", "passed"];

/** The TypeScript engine, once connect() has loaded it (the page's buttons work meanwhile:
 * what they ask for waits for it). */
let pegs = null;

export class LocalTransport {
  /**
   * @param {{ hello: object, board_size: number, botDelay?: number }} config  the page's
   *   config.json (`pegs web build` writes it): what the set-up form offers (with the hint's
   *   bot) and the boards' width; botDelay: milliseconds between two bot moves (so a person
   *   can follow).
   */
  constructor(config) {
    if (!config.hello) throw new Error("this page's config.json names no engine: rebuild it with pegs web build");
    this.kind = "local";
    this.can = { setup: true, study: true, replay: true, hint: true };
    this.updates = new Listeners();
    this.notices = new Listeners();
    this.hello = config.hello;
    this.size = config.board_size;
    this.search = new Search();
    this.games = 0; // games started, to tell the search worker which one a request is for
    this.botDelay = config.botDelay ?? 400;
    this.game = null; // { start, state, seats, bots, moves, viewer, next }
    this.studied = null;
    this.replay = null; // { record, positions, events, stop }
    this.botTimer = null;
  }

  onUpdate(listener) {
    this.updates.add(listener);
  }

  onNotice(listener) {
    this.notices.add(listener);
  }

  /** The engine is this page's own module (index.html preloads it with the page); the answer
   * is the `hello` that the build wrote, naming it (its version is the Python library's). */
  async connect() {
    pegs = await import("./pegs-rules.js");
    return { ...this.hello, engine: `pegs-rules ${pegs.VERSION} (TypeScript)` };
  }

  // -- playing a game -----------------------------------------------------------------------

  async start(setup) {
    this.stopBots();
    return answer(async () => {
      const game = newGame(setup, ++this.games);
      this.game = game;
      game.bots = this.search.ask({ op: "bots", game: game.id, seed: game.start.seed, seats: game.seats });
      this.emit(this.update([]));
      return { type: "started" };
    });
  }

  async play(text) {
    return answer(async () => {
      const game = this.playing();
      const state = game.state;
      if (state.winner !== null) refuse("request", `the game is over: team ${state.winner} has won`);
      if (!human(game, state.turn)) refuse("request", `seat ${state.turn} (${game.seats[state.turn]}) is to act`);
      this.stopBots();
      return this.emit(this.make(game, parse(state, text)));
    });
  }

  leave() {
    this.stopBots();
    this.game = null;
    return Promise.resolve({ ok: true, type: "left" });
  }

  record() {
    return answer(async () => {
      const game = this.playing();
      return doc(pegs.recordOf(game.start, game.moves));
    });
  }

  summary() {
    return answer(async () => {
      const game = this.playing();
      return { ...summary(replayed(pegs.recordOf(game.start, game.moves))), kinds: [...game.seats] };
    });
  }

  /** The page has shown the last update: a bot to act moves after the pause. */
  shown() {
    this.stopBots();
    const game = this.game;
    if (!game || game.next !== "bot") return;
    this.botTimer = setTimeout(() => this.advance(game), this.botDelay);
  }

  stopBots() {
    clearTimeout(this.botTimer);
    this.botTimer = null;
  }

  async advance(game) {
    const state = game.state;
    const seat = state.turn;
    const made = await game.bots;
    if (this.game !== game) return; // another game started meanwhile
    const chosen = made.ok ? await this.search.ask({ op: "decide", game: game.id, seat, state: pegs.toJson(state) }) : made;
    if (this.game !== game || game.state !== state) return; // the game changed meanwhile
    if (!chosen.ok) {
      this.notices.emit({ level: "error", text: `Seat ${seat}'s bot cannot move: ${chosen.error}` });
      return;
    }
    this.emit({ ...this.make(game, pegs.parseNotation(chosen.move)), thought_ms: chosen.thought_ms });
  }

  make(game, move) {
    const [after, events] = pegs.applyWithEvents(game.state, move);
    game.state = after;
    game.moves.push(move);
    game.viewer = nextViewer(game, game.viewer);
    return { ...this.update(events), last_move: pegs.moveText(move) };
  }

  playing() {
    if (this.game === null) refuse("request", "no game has been started");
    return this.game;
  }

  /** What the seat watching sees now: an "update" answer. */
  update(events) {
    const game = this.playing();
    const { state, viewer: seat } = game;
    game.next = state.winner !== null ? "over" : human(game, state.turn) ? "human" : "bot";
    const toAct = game.next === "human" && state.turn === seat;
    return {
      ok: true,
      type: "update",
      seat,
      seats: [...game.seats],
      view: doc(pegs.view(state, seat)),
      public: publicOf(state),
      moves: toAct ? JSON.parse(pegs.movesToJson(pegs.legalMoves(state))) : null,
      events: JSON.parse(pegs.eventsToJson(events, seat)),
      svg: this.draw(state),
      next: game.next,
      last_move: null,
      thought_ms: null,
    };
  }

  emit(update) {
    this.updates.emit(update);
    return update;
  }

  // -- studying a position ------------------------------------------------------------------

  study(text) {
    return answer(async () => {
      let state;
      try {
        state = text.trimStart().startsWith("{") ? pegs.fromJson(text, "state") : pegs.parsePosition(text);
      } catch (error) {
        if (error instanceof pegs.PegsError) refuse("position", error.message);
        throw error;
      }
      return this.studying(state);
    });
  }

  /** Make `state` the studied position: a "study" answer, every hand shown. */
  studying(state) {
    this.studied = state;
    return {
      type: "study",
      position: pegs.positionText(state),
      public: publicOf(state),
      hands: state.hands.map((hand) => hand.map(pegs.cardSymbol)),
      moves: JSON.parse(pegs.movesToJson(pegs.legalMoves(state))),
      svg: this.draw(state),
    };
  }

  explain(text) {
    return answer(async () => {
      const state = this.studied;
      if (state === null) refuse("request", "no position is being studied");
      let move;
      try {
        move = parse(state, text);
      } catch (refusal) {
        if (refusal.kind !== "illegal") throw refusal;
        return this.ruling(state, refusal.extra.move, refusal.extra.verdict);
      }
      const written = pegs.moveText(move);
      const verdict = explanation(true, null, `${written} is a legal move for seat ${state.turn}`);
      const [after, events] = pegs.applyWithEvents(state, move);
      return {
        ...this.ruling(state, written, verdict),
        events: JSON.parse(pegs.eventsToJson(events, null)),
        frames: this.frames(state, move, after, events),
      };
    });
  }

  /** A "ruling" answer: the verdict, and the board with the move drawn if it can be. */
  ruling(state, move, verdict) {
    let drawn;
    try {
      drawn = this.draw(state, move === null ? null : pegs.parseNotation(move));
    } catch (error) {
      if (!(error instanceof pegs.PegsError)) throw error;
      drawn = this.draw(state); // a move that cannot be drawn on this board: the board alone
    }
    return {
      type: "ruling",
      move,
      verdict,
      summary: verdict.rule ? (pegs.RULINGS.get(verdict.rule) ?? null) : null,
      events: null,
      frames: [{ caption: "the move", events: [], svg: drawn }],
    };
  }

  /** Boards to step through a move: before it (with its arrows), after each peg's movement
   * (with that step's arrow, or the holes a knocked peg left and reached ringed) and after the
   * whole turn. Each frame lists the indices of the events it shows. */
  frames(state, move, after, events) {
    const before = { caption: "before", events: [], svg: this.draw(state, move) };
    const closing = { caption: "after", events: [], svg: this.draw(after) };
    const out = [before];
    const pegsNow = state.pegs.map((locations) => [...locations]);
    events.forEach((event, index) => {
      if ((event.event === "peg_moved" || event.event === "peg_displaced") && move.action === "play") {
        const held = pegsNow[event.seat];
        held.splice(held.indexOf(event.from), 1);
        held.push(event.to);
        const shown = { ...state, pegs: pegsNow.map((locations) => [...locations].sort((a, b) => a - b)) };
        const drawn =
          event.event === "peg_moved"
            ? this.draw(shown, pegs.play(move.card, pegs.step(event.seat, event.from, event.to)))
            : this.draw(shown, null, [event.from, event.to].filter(pegs.isTrack));
        out.push({ caption: pegs.eventText(event), events: [index], svg: drawn });
      } else if (CARD_EVENTS.includes(event.event)) {
        before.events.push(index);
      } else {
        closing.events.push(index);
      }
    });
    return [...out, closing];
  }

  // -- a record, ply by ply -----------------------------------------------------------------

  openRecord(text) {
    return answer(async () => {
      let record;
      try {
        record = pegs.fromJson(text, "record");
      } catch (error) {
        if (error instanceof pegs.PegsError) refuse("record", `this is not a game record: ${error.message}`);
        throw error;
      }
      const game = replayed(record);
      this.replay = game;
      let stopped = null;
      if (game.stop) {
        const { turn, move, rule, reason } = game.stop;
        stopped = { turn, move, verdict: explanation(false, rule, reason), summary: pegs.RULINGS.get(rule) ?? null };
      }
      const last = game.positions[game.positions.length - 1];
      return {
        type: "replay",
        players: record.players,
        preset: record.rules.name,
        seed: Number(record.seed),
        moves: [...record.moves],
        end: game.positions.length - 1,
        stopped,
        summary: last.winner !== null ? summary(game) : null,
      };
    });
  }

  replayPly(ply) {
    return answer(async () => {
      const game = this.replay;
      if (game === null) refuse("request", "no record has been opened");
      const end = game.positions.length - 1;
      if (!(Number.isInteger(ply) && ply >= 0 && ply <= end)) refuse("request", `ply: a whole number from 0 to ${end}`);
      const moves = game.record.moves;
      return {
        type: "ply",
        ply,
        end,
        move: ply ? moves[ply - 1] : null,
        seat: ply ? game.positions[ply - 1].turn : null,
        events: JSON.parse(pegs.eventsToJson(ply ? game.events[ply - 1] : [], null)),
        next_move: ply < moves.length ? moves[ply] : null,
        study: this.studying(game.positions[ply]),
      };
    });
  }

  // -- a hint -------------------------------------------------------------------------------

  /** What the hint bot plays for the seat to act, in the game or the studied position. */
  hint(on) {
    return answer(async () => {
      let state;
      let shownTo;
      if (on === "game") {
        const game = this.playing();
        state = game.state;
        shownTo = "public";
        if (state.winner === null && !human(game, state.turn)) refuse("request", `seat ${state.turn} is a bot: a hint is for a person`);
      } else if (on === "study") {
        if (this.studied === null) refuse("request", "no position is being studied");
        state = this.studied;
        shownTo = null;
      } else {
        refuse("request", 'on: "game" or "study"');
      }
      if (state.winner !== null) refuse("request", "the game is over: there is no move to suggest");
      const chosen = await this.search.ask({ op: "hint", bot: this.hello.hint_bot, state: pegs.toJson(state) });
      if (!chosen.ok) return chosen;
      const move = pegs.parseNotation(chosen.move);
      const [after, events] = pegs.applyWithEvents(state, move);
      return {
        type: "hint",
        seat: state.turn,
        bot: chosen.bot,
        move: pegs.moveText(move),
        events: JSON.parse(pegs.eventsToJson(events, shownTo)),
        frames: this.frames(state, move, after, events),
      };
    });
  }

  close() {
    this.stopBots();
    this.search.close();
  }

  draw(state, move = null, highlight = []) {
    return pegs.svg(state, move, { size: this.size, highlight });
  }
}

/** The longest a bot may think about one move, in seconds. */
const MAX_THINKING = 30;

/** A request the engine cannot meet: becomes an { ok: false } answer. */
class Refused extends Error {
  constructor(kind, message, extra = {}) {
    super(message);
    this.kind = kind;
    this.extra = extra;
  }
}

function refuse(kind, message, extra) {
  throw new Refused(kind, message, extra);
}

/** The answer `work` gives, { ok: true, ... }; a refusal { ok: false, kind, error }; a bug in
 * the engine kind "internal", so that the page says so rather than stop. */
async function answer(work) {
  try {
    const result = await work();
    return result.ok === false ? result : { ok: true, ...result };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, kind: error.kind, error: error.message, ...error.extra };
    return { ok: false, kind: "internal", error: `${error.name}: ${error.message}` };
  }
}

/** A format-1 document as the page reads it (plain JSON: a seed is a number). */
function doc(value) {
  return JSON.parse(pegs.toJson(value));
}

function explanation(legal, rule, reason) {
  return doc({ legal, rule, reason });
}

/** Game number `id`, new from the set-up form's `setup` (see transport.js). Its bots are made
 * here only to check their names and budgets (a bot thinks MAX_THINKING seconds a move at
 * most); they play in the search worker, which makes them again (choosing as Python's of the
 * same name and seed do). */
function newGame(setup, id) {
  const players = setup.players ?? 4;
  const seed = setup.seed ?? crypto.getRandomValues(new Uint32Array(1))[0] % 1_000_000_000;
  const switches = setup.rules ?? {};
  if (!Number.isInteger(players) || !Number.isInteger(seed) || typeof switches !== "object") {
    refuse("setup", "players and seed are whole numbers, rules an object");
  }
  const { seats } = setup;
  if (!Array.isArray(seats) || !seats.every((seat) => typeof seat === "string")) {
    refuse("setup", "seats is a list of names: human, random, greedy, mcts...");
  }
  let rules;
  try {
    rules = pegs.findPreset(String(setup.preset ?? "arizona"));
    for (const [name, value] of Object.entries(switches)) rules = pegs.withRule(rules, String(name), String(value));
  } catch (error) {
    if (error instanceof pegs.PegsError) refuse("setup", error.message);
    throw error;
  }
  const counts = rules.playerCounts;
  if (!counts.includes(players)) refuse("setup", `${players} players: choose ${counts.slice(0, -1).join(", ")} or ${counts.at(-1)}`);
  if (seats.length !== players) refuse("setup", `name one seat kind per player: ${players}, not ${seats.length}`);
  seats.forEach((name, seat) => {
    if (name === "human") return;
    try {
      pegs.makeBot(name, seed * 100 + seat);
    } catch (error) {
      if (error instanceof pegs.PegsError) refuse("setup", `seat ${seat}: ${error.message}`);
      throw error;
    }
    const budget = name.split(":")[1] ?? "";
    if (budget.endsWith("s") && Number(budget.slice(0, -1)) > MAX_THINKING) {
      refuse("setup", `seat ${seat}: a bot thinks ${MAX_THINKING} s at most`);
    }
  });
  const start = pegs.newGame(players, { seed, rules });
  const game = { id, start, state: start, seats: [...seats], bots: null, moves: [], viewer: 0, next: null };
  const humans = seats.map((_, seat) => seat).filter((seat) => human(game, seat));
  game.viewer = nextViewer(game, humans.length ? humans[0] : start.turn);
  return game;
}

function human(game, seat) {
  return game.seats[seat] === "human";
}

/** Whose eyes the page shows: the person to act, else whoever it showed before; with no
 * person at the table, the bot to act (the page looks over each bot's shoulder). */
function nextViewer(game, current) {
  const turn = game.state.turn;
  if (human(game, turn) || !game.seats.some((_, seat) => human(game, seat))) return turn;
  return current;
}

/** The legal move `text` names (shorthands allowed); a refusal says why there is none. */
function parse(state, text) {
  try {
    return pegs.parseMove(state, text);
  } catch (error) {
    if (error instanceof pegs.AmbiguousMoveError) refuse("ambiguous", error.message, { candidates: [...error.candidates] });
    if (error instanceof pegs.IllegalMoveError) {
      const verdict = explanation(false, error.rule, error.reason);
      refuse("illegal", error.message, { verdict, move: written(text) });
    }
    if (error instanceof pegs.NotationError) refuse("notation", error.message);
    throw error;
  }
}

/** `text` in canonical notation, if it is written out in full; else null. */
function written(text) {
  try {
    return pegs.moveText(pegs.parseNotation(text));
  } catch {
    return null;
  }
}

/** What every seat sees of `state`, for the page's status line. */
function publicOf(state) {
  const players = state.pegs.length;
  return {
    players,
    preset: state.rules.name,
    ply: state.ply,
    turn: state.turn,
    team: pegs.teamOf(state.turn),
    dealer: state.dealer,
    winner: state.winner,
    hand_sizes: state.hands.map((hand) => hand.length),
    draw_pile_size: state.drawPile.length,
    discard_top: state.discardPile.length ? pegs.cardSymbol(state.discardPile.at(-1)) : null,
  };
}

/** Every position of `record` up to its first illegal move, each move's events, and that
 * move (`stop`: its turn counted from 1, its notation and the ruling that forbids it). */
function replayed(record) {
  let state = pegs.recordStart(record);
  const positions = [state];
  const events = [];
  let stop = null;
  for (const [index, text] of record.moves.entries()) {
    let done;
    try {
      [state, done] = pegs.applyWithEvents(state, pegs.parseNotation(text));
    } catch (error) {
      if (!(error instanceof pegs.IllegalMoveError)) throw error;
      stop = { turn: index + 1, move: text, rule: error.rule, reason: error.reason };
      break;
    }
    positions.push(state);
    events.push(done);
  }
  return { record, positions, events, stop };
}

/** The end-of-game summary: winner, turns, and per seat the cards it played, discarded or
 * passed with, its pegs knocked back, the pegs it knocked and its pegs home at the end. */
function summary({ positions, events }) {
  const last = positions[positions.length - 1];
  const seats = last.pegs.map((locations, seat) => ({
    seat,
    team: pegs.teamOf(seat),
    played: 0,
    discarded: 0,
    passed: 0,
    knocked_back: 0,
    knocked: 0,
    home: locations.filter(pegs.isHome).length,
  }));
  events.forEach((done, index) => {
    const mover = seats[positions[index].turn];
    for (const event of done) {
      if (event.event === "card_played") mover.played += 1;
      else if (event.event === "card_discarded") mover.discarded += 1;
      else if (event.event === "passed") mover.passed += 1;
      else if (event.event === "peg_displaced") {
        seats[event.seat].knocked_back += 1;
        mover.knocked += 1;
      }
    }
  });
  const players = last.pegs.length;
  return {
    type: "summary",
    players,
    preset: last.rules.name,
    turns: last.ply,
    winner: last.winner,
    winners: seats.filter(({ team }) => team === last.winner).map(({ seat }) => seat),
    seats,
  };
}
