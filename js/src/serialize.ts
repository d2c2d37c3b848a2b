/**
 * JSON for states, moves, rules, records and what a client sees: format 1, byte for byte as the
 * reference engine writes it (`to_json`), so that either engine reads what the other writes.
 *
 * Every document is a JSON object with `"format": 1` and a `"type"`: `state`, `move`, `rules`,
 * `record`, and for clients `view`, `moves`, `events` and `explanation` (described by the JSON
 * Schemas in the suite's `specs/schema/`). A card is its symbol (`"A"`, `"2"`.. `"10"`, `"J"`,
 * `"Q"`, `"K"`, `"JK"`), a location its name as a string (`"s"`, `"h1"`..`"h5"`, `"40"`), a step
 * `{"seat": 0, "from": "70", "to": "h2"}`. A seed is a whole number of any size, read exactly.
 *
 * {@link fromJson} accepts only documents that describe something possible: anything else throws
 * {@link FormatError}, whose `problems` list everything found.
 *
 * @module
 */
import { locationName, parseLocation, type Location } from "./board.js";
import { isArrayOf } from "./args.js";
import { cardOf, cardSymbol, isRank, type Rank } from "./cards.js";
import { FormatError, PegsError } from "./errors.js";
import { checkedEvents, eventText, type GameEvent } from "./events.js";
import { JsonFloat, parseJson, stringify, type Json } from "./json.js";
import { checkedMove, moveText, type Move, type Step } from "./moves.js";
import { checkedRecord, makeRecord, type GameRecord } from "./records.js";
import { CHOICES, checkedRules, makeRules, RULE_FIELDS, rulesProblem, type Rules } from "./rules.js";
import { RULINGS } from "./rulings.js";
import { isSeed, SEED_DIGITS, type GameState } from "./state.js";
import { guarded, handMadeProblems, sealed, validate } from "./validate.js";
import { repr } from "./text.js";
import type { Explanation } from "./verdict.js";
import type { PlayerView } from "./views.js";

/** The format number this package writes and reads. */
export const FORMAT = 1;

/** What {@link toJson} writes, told apart by their fields. */
export type Document = GameState | Move | Rules | GameRecord | PlayerView | Explanation;

/** Options of {@link toJson}. */
export interface WriteOptions {
  /** Indent nested items by this many spaces, as Python's `json.dumps(indent=...)`. */
  readonly indent?: number;
}

/** `value` as a JSON document, byte for byte as the reference engine's `to_json` writes it. */
export function toJson(value: Document, options: WriteOptions = {}): string {
  return stringify(toData(value), indentOf(options));
}

/** The indent `options` asks for: none, or 0 to 64 spaces; {@link FormatError} otherwise. */
function indentOf(options: unknown): number | undefined {
  if (typeof options !== "object" || options === null) throw new FormatError([`options: not an object, but ${repr(options)}`]);
  const indent = (options as WriteOptions).indent;
  if (indent === undefined || (Number.isInteger(indent) && indent >= 0 && indent <= MAX_INDENT)) return indent;
  throw new FormatError([`indent: expected a whole number 0..${MAX_INDENT} of spaces, not ${repr(indent)}`]);
}

const MAX_INDENT = 64;

/** `value` as the JSON-ready object {@link toJson} writes. */
export function toData(value: Document): Record<string, unknown> {
  const head = { format: FORMAT };
  const v = value as unknown as Record<string, unknown>;
  if (typeof v !== "object" || v === null) throw new FormatError([`cannot write ${typeof v} as a JSON document`]);
  if ("drawPile" in v) return { ...head, type: "state", ...guarded(value, () => stateData(value as GameState)) };
  if ("action" in v) return { ...head, type: "move", ...moveData(checkedMove(value)) };
  if ("handSize" in v) return { ...head, type: "rules", ...rulesData(checkedRules(value)) };
  if ("moves" in v && "players" in v) return { ...head, type: "record", ...recordData(checkedRecord(value as GameRecord)) };
  if ("handSizes" in v) return { ...head, type: "view", ...viewData(checkedView(value)) };
  if ("legal" in v) {
    const e = value as Explanation;
    if (typeof e.legal !== "boolean" || !(e.rule === null || typeof e.rule === "string") || typeof e.reason !== "string") {
      throw new FormatError(["$: an explanation holds legal (true or false), rule (text or null) and reason (text)"]);
    }
    return { ...head, type: "explanation", legal: e.legal, rule: e.rule, reason: e.reason };
  }
  throw new FormatError(["cannot write this value as a JSON document"]);
}

/** A `moves` document: `moves` in the order given, each with its notation. */
export function movesToJson(moves: readonly Move[], options: WriteOptions = {}): string {
  return stringify(movesToData(moves), indentOf(options));
}

/** The object {@link movesToJson} writes. */
export function movesToData(moves: readonly Move[]): Record<string, unknown> {
  const given: unknown = moves;
  if (!Array.isArray(given)) throw new FormatError([`$: expected an array of moves, not ${repr(given)}`]);
  return { format: FORMAT, type: "moves", moves: moves.map((m) => ({ notation: moveText(m), ...moveData(m) })) };
}

/**
 * An `events` document: `events` as `seat` may see them (`"public"`: every drawn card hidden,
 * for spectators; `null`: nothing hidden, for a trusted reader only).
 */
export function eventsToJson(events: readonly GameEvent[], seat: number | "public" | null, options: WriteOptions = {}): string {
  return stringify(eventsToData(events, seat), indentOf(options));
}

/** The object {@link eventsToJson} writes. */
export function eventsToData(events: readonly GameEvent[], seat: number | "public" | null): Record<string, unknown> {
  checkedEvents(events);
  if (!(seat === null || seat === "public" || (Number.isInteger(seat) && seat >= 0 && seat < 8))) {
    throw new FormatError([`seat: expected a seat (0..7), "public" or null, not ${repr(seat)}`]);
  }
  const shown =
    seat === null
      ? events
      : events.map((e) => (e.event === "cards_drawn" && e.seat !== seat ? { ...e, cards: null } : e));
  return { format: FORMAT, type: "events", seat, events: shown.map(eventData) };
}

function cards(list: readonly Rank[]): string[] {
  return list.map(cardSymbol);
}

function stateData(state: GameState): Record<string, unknown> {
  return {
    rules: rulesData(state.rules),
    pegs: state.pegs.map((locs) => locs.map(locationName)),
    hands: state.hands.map(cards),
    draw_pile: cards(state.drawPile),
    discard_pile: cards(state.discardPile),
    turn: state.turn,
    dealer: state.dealer,
    seed: state.seed,
    reshuffles: state.reshuffles,
    ply: state.ply,
    winner: state.winner,
  };
}

function moveData(move: Move): Record<string, unknown> {
  if (move.action === "pass") return { action: "pass" };
  if (move.action === "discard") return { action: "discard", card: cardSymbol(move.card) };
  return {
    action: "play",
    card: cardSymbol(move.card),
    steps: move.steps.map((s) => ({ seat: s.seat, from: locationName(s.from), to: locationName(s.to) })),
  };
}

function rulesData(rules: Rules): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, key] of RULE_FIELDS) out[field] = rules[key];
  return out;
}

function recordData(record: GameRecord): Record<string, unknown> {
  return {
    rules: rulesData(record.rules),
    players: record.players,
    seed: record.seed,
    dealer: record.dealer,
    deck: record.deck === null ? null : cards(record.deck),
    moves: [...record.moves],
  };
}

function viewData(seen: PlayerView): Record<string, unknown> {
  return {
    seat: seen.seat,
    rules: rulesData(seen.rules),
    pegs: seen.pegs.map((locs) => locs.map(locationName)),
    hand: cards(seen.hand),
    hand_sizes: [...seen.handSizes],
    draw_pile_size: seen.drawPileSize,
    discard_pile: cards(seen.discardPile),
    turn: seen.turn,
    dealer: seen.dealer,
    reshuffles: seen.reshuffles,
    ply: seen.ply,
    winner: seen.winner,
  };
}

function eventData(event: GameEvent): Record<string, unknown> {
  const out: Record<string, unknown> = { event: event.event };
  switch (event.event) {
    case "card_played":
    case "card_discarded":
      Object.assign(out, { seat: event.seat, card: cardSymbol(event.card) });
      break;
    case "passed":
      out["seat"] = event.seat;
      break;
    case "peg_moved":
    case "peg_displaced":
      Object.assign(out, { seat: event.seat, from: locationName(event.from), to: locationName(event.to) });
      break;
    case "cards_drawn":
      Object.assign(out, { seat: event.seat, count: event.count, cards: event.cards === null ? null : cards(event.cards) });
      break;
    case "reshuffled":
      Object.assign(out, { cards: event.cards, number: event.number });
      break;
    case "game_over":
      out["winner"] = event.winner;
      break;
  }
  out["text"] = eventText(event);
  return out;
}

// --- reading ---------------------------------------------------------------------------------

/** The kinds of document {@link fromJson} reads, and what each gives. */
export interface Loaded {
  state: GameState;
  move: Move;
  rules: Rules;
  record: GameRecord;
  view: PlayerView;
  explanation: Explanation;
  moves: readonly Move[];
  events: readonly GameEvent[];
}

/** The type of a document. */
export type Kind = keyof Loaded;

/**
 * The value the JSON document `text` describes; with `kind`, only a document of that type is
 * accepted. Throws {@link FormatError} listing every problem found.
 */
export function fromJson<K extends Kind>(text: string, kind: K): Loaded[K];
export function fromJson(text: string): Loaded[Kind];
export function fromJson(text: string, kind?: Kind): Loaded[Kind] {
  if (typeof text !== "string") throw new FormatError([`$: a JSON document is text, not ${typeof text}`]);
  let data: Json;
  try {
    data = parseJson(text);
  } catch (error) {
    if (error instanceof SyntaxError) throw new FormatError([`$: not JSON: ${error.message}`]);
    throw error;
  }
  return fromData(data, kind);
}

/** The value that JSON data (parsed, whole numbers beyond 2^53 as bigints) describes; see {@link fromJson}. */
export function fromData<K extends Kind>(data: unknown, kind: K): Loaded[K];
export function fromData(data: unknown, kind?: Kind): Loaded[Kind];
export function fromData(data: unknown, kind?: Kind): Loaded[Kind] {
  const r = new Reader();
  try {
    const [found, body] = head(r, data, kind);
    return READERS[found](r, body, "$");
  } catch (error) {
    if (error instanceof Invalid) throw new FormatError(r.problems.length ? r.problems : ["invalid document"]);
    throw error;
  }
}

class Invalid extends Error {}

const MAX_PROBLEMS = 50;

class Reader {
  readonly problems: string[] = [];

  bad(path: string, message: string): Invalid {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(`${path}: ${message}`);
    else if (this.problems.length === MAX_PROBLEMS) this.problems.push("... and more problems");
    return new Invalid();
  }
}

type Read<T> = (r: Reader, data: unknown, path: string) => T;

function describe(data: unknown): string {
  if (data === null) return "null";
  if (typeof data === "number" || typeof data === "bigint" || data instanceof JsonFloat) return "a number";
  if (typeof data === "string") return "a string";
  if (typeof data === "boolean") return "a boolean";
  if (Array.isArray(data)) return "an array";
  return "an object";
}

function short(data: unknown): string {
  if (typeof data === "string" && data.length <= 20) return `'${data}'`;
  if (typeof data === "number" || typeof data === "bigint") {
    const text = String(data);
    return text.length <= 20 ? text : "a number";
  }
  if (typeof data === "boolean") return data ? "true" : "false";
  if (data === null) return "null";
  return describe(data);
}

const readInt: Read<number> = (r, data, path) => {
  if (typeof data === "number" && Number.isInteger(data)) return data;
  throw r.bad(path, `expected a whole number, not ${describe(data)}`);
};

/** A seed: a whole number of at most {@link SEED_DIGITS} digits, read exactly. */
const readSeed: Read<bigint> = (r, data, path) => {
  if (isSeed(data)) return data;
  if (typeof data === "number" && Number.isSafeInteger(data)) return BigInt(data);
  if (typeof data === "bigint") throw r.bad(path, `a whole number of more than ${SEED_DIGITS} digits`);
  throw r.bad(path, `expected a whole number, not ${describe(data)}`);
};

const readStr: Read<string> = (r, data, path) => {
  if (typeof data === "string") return data;
  throw r.bad(path, `expected a string, not ${describe(data)}`);
};

const readBool: Read<boolean> = (r, data, path) => {
  if (typeof data === "boolean") return data;
  throw r.bad(path, `expected true or false, not ${describe(data)}`);
};

const readCard: Read<Rank> = (r, data, path) => {
  const card = typeof data === "string" && data === data.trim().toUpperCase() ? cardOf(data) : undefined;
  if (card !== undefined && cardSymbol(card) === data) return card;
  throw r.bad(path, `expected a card (A 2..10 J Q K JK), not ${short(data)}`);
};

const LOCATION = /^(s|h[1-5]|0|[1-9][0-9]{0,5})$/;

const readLocation: Read<Location> = (r, data, path) => {
  if (typeof data === "string" && LOCATION.test(data)) return parseLocation(data) as Location;
  throw r.bad(path, `expected a location ('s', 'h1'..'h5' or a hole number), not ${short(data)}`);
};

function readList<T>(r: Reader, data: unknown, path: string, item: Read<T>, size?: readonly [number, number]): T[] {
  if (!Array.isArray(data)) throw r.bad(path, `expected an array, not ${describe(data)}`);
  if (size !== undefined && (data.length < size[0] || data.length > size[1])) {
    const want = size[0] === size[1] ? String(size[0]) : `${size[0]} to ${size[1]}`;
    throw r.bad(path, `expected ${want} items, not ${data.length}`);
  }
  const out: T[] = [];
  let failed = false;
  data.forEach((x: unknown, i: number) => {
    try {
      out.push(item(r, x, `${path}[${i}]`));
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      failed = true;
    }
  });
  if (failed) throw new Invalid();
  return out;
}

function listOf<T>(item: Read<T>): Read<T[]> {
  return (r, data, path) => readList(r, data, path, item);
}

function nullable<T>(item: Read<T>): Read<T | null> {
  return (r, data, path) => (data === null ? null : item(r, data, path));
}

function readObject(
  r: Reader,
  data: unknown,
  path: string,
  fields: Record<string, Read<unknown>>,
  optional: readonly string[] = [],
): Record<string, unknown> {
  if (typeof data !== "object" || data === null || Array.isArray(data) || data instanceof JsonFloat) {
    throw r.bad(path, `expected an object, not ${describe(data)}`);
  }
  const object = data as Record<string, unknown>;
  let failed = false;
  for (const key of Object.keys(object)) {
    if (!Object.prototype.hasOwnProperty.call(fields, key)) {
      failed = true;
      r.bad(path, `unknown field ${short(key)}`);
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key, read] of Object.entries(fields)) {
    if (!Object.prototype.hasOwnProperty.call(object, key)) {
      if (!optional.includes(key)) {
        failed = true;
        r.bad(path, `missing field '${key}'`);
      }
      continue;
    }
    try {
      out[key] = read(r, object[key], `${path}.${key}`);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      failed = true;
    }
  }
  if (failed) throw new Invalid();
  return out;
}

function choice(options: readonly string[]): Read<string> {
  return (r, data, path) => {
    if (typeof data === "string" && options.includes(data)) return data;
    throw r.bad(path, `expected one of ${options.map((o) => JSON.stringify(o)).join(", ")}, not ${short(data)}`);
  };
}

function tuple(size: number, item: Read<number>): Read<number[]> {
  return (r, data, path) => {
    if (!Array.isArray(data) || data.length !== size) {
      throw r.bad(path, `expected an array of ${size} items, not ${short(data)}`);
    }
    return readList(r, data, path, item);
  };
}

const RULE_READERS: Record<string, Read<unknown>> = {
  name: readStr,
  player_counts: listOf(readInt),
  decks: listOf(tuple(3, readInt)),
  hand_size: readInt,
  draw_first: readBool,
  control: choice(CHOICES.control),
  joker_source: choice(CHOICES.jokerSource),
  nine: choice(CHOICES.nine),
  face_values: tuple(3, readInt),
  home_entry_compulsory: readBool,
  wait_on_in_spot: readBool,
  in_spot_occupied: choice(CHOICES.inSpotOccupied),
  two_swap: readBool,
};

const readRules: Read<Rules> = (r, data, path) => {
  const values = readObject(r, data, path, RULE_READERS, Object.keys(RULE_READERS));
  const changes: Record<string, unknown> = {};
  for (const [field, key] of RULE_FIELDS) if (field in values) changes[key] = values[field];
  try {
    return makeRules(changes);
  } catch (error) {
    if (error instanceof PegsError) throw r.bad(path, `unplayable rules: ${error.message}`);
    throw error;
  }
};

const readStep: Read<Step> = (r, data, path) => {
  const values = readObject(r, data, path, { seat: readInt, from: readLocation, to: readLocation });
  const seat = values["seat"] as number;
  if (seat < 0) throw r.bad(`${path}.seat`, `a seat is 0 or more, not ${seat}`);
  return { seat, from: values["from"] as Location, to: values["to"] as Location };
};

function readMove(r: Reader, data: Record<string, unknown>, path: string): Move {
  const action = data["action"];
  if (action === "pass") {
    readObject(r, data, path, { action: readStr });
    return { action: "pass" };
  }
  if (action === "discard") {
    return { action: "discard", card: readObject(r, data, path, { action: readStr, card: readCard })["card"] as Rank };
  }
  if (action === "play") {
    const values = readObject(r, data, path, {
      action: readStr,
      card: readCard,
      steps: (r, x, p) => readList(r, x, p, readStep, [1, 2]),
    });
    return { action: "play", card: values["card"] as Rank, steps: values["steps"] as Step[] };
  }
  throw r.bad(`${path}.action`, `expected 'play', 'discard' or 'pass', not ${short(action)}`);
}

const readCards: Read<Rank[]> = listOf(readCard);
const readPegs: Read<Location[][]> = listOf(listOf(readLocation));
const byNumber = (a: number, b: number): number => a - b;

function readState(r: Reader, data: Record<string, unknown>, path: string): GameState {
  const values = readObject(r, data, path, {
    rules: readRules,
    pegs: readPegs,
    hands: listOf(readCards),
    draw_pile: readCards,
    discard_pile: readCards,
    turn: readInt,
    dealer: readInt,
    seed: readSeed,
    reshuffles: readInt,
    ply: readInt,
    winner: nullable(readInt),
  });
  const state = {
    rules: values["rules"] as Rules,
    pegs: (values["pegs"] as number[][]).map((locs) => [...locs].sort(byNumber)),
    hands: (values["hands"] as Rank[][]).map((hand) => [...hand].sort(byNumber)),
    drawPile: values["draw_pile"] as Rank[],
    discardPile: values["discard_pile"] as Rank[],
    turn: values["turn"] as number,
    dealer: values["dealer"] as number,
    seed: values["seed"] as bigint,
    reshuffles: values["reshuffles"] as number,
    ply: values["ply"] as number,
    winner: values["winner"] as 0 | 1 | null,
  };
  const problems = validate(state);
  if (problems.length) {
    for (const problem of problems) r.bad(path, `impossible state: ${problem}`);
    throw new Invalid();
  }
  return sealed(state);
}

function readRecord(r: Reader, data: Record<string, unknown>, path: string): GameRecord {
  const values = readObject(
    r,
    data,
    path,
    {
      rules: readRules,
      players: readInt,
      seed: readSeed,
      dealer: nullable(readInt),
      deck: nullable(readCards),
      moves: listOf(readStr),
    },
    ["dealer", "deck"],
  );
  try {
    return makeRecord({
      rules: values["rules"] as Rules,
      players: values["players"] as number,
      seed: values["seed"] as bigint,
      dealer: (values["dealer"] ?? null) as number | null,
      deck: (values["deck"] ?? null) as Rank[] | null,
      moves: values["moves"] as string[],
    });
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    for (const problem of error.problems) r.bad(path, `invalid record: ${problem}`);
    throw new Invalid();
  }
}

function readView(r: Reader, data: Record<string, unknown>, path: string): PlayerView {
  const values = readObject(r, data, path, {
    seat: readInt,
    rules: readRules,
    pegs: readPegs,
    hand: readCards,
    hand_sizes: listOf(readInt),
    draw_pile_size: readInt,
    discard_pile: readCards,
    turn: readInt,
    dealer: readInt,
    reshuffles: readInt,
    ply: readInt,
    winner: nullable(readInt),
  });
  const seen: PlayerView = {
    seat: values["seat"] as number,
    rules: values["rules"] as Rules,
    pegs: (values["pegs"] as number[][]).map((locs) => [...locs].sort(byNumber)),
    hand: [...(values["hand"] as Rank[])].sort(byNumber),
    handSizes: values["hand_sizes"] as number[],
    drawPileSize: values["draw_pile_size"] as number,
    discardPile: values["discard_pile"] as Rank[],
    turn: values["turn"] as number,
    dealer: values["dealer"] as number,
    reshuffles: values["reshuffles"] as number,
    ply: values["ply"] as number,
    winner: values["winner"] as 0 | 1 | null,
  };
  const problem = viewProblem(seen);
  if (problem !== undefined) throw r.bad(path, `impossible view: ${problem}`);
  return seen;
}

/** `value` if it is a view some real game agrees with; else a {@link FormatError} saying why not. */
function checkedView(value: unknown): PlayerView {
  const problem = viewError(value);
  if (problem !== undefined) throw new FormatError([`$: ${problem}`]);
  return value as PlayerView;
}

/** Why `value` is not a view some game or hand-made position agrees with (any value), or `undefined`. */
export function viewError(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return `not a view: ${repr(value)}`;
  const v = value as Record<string, unknown>;
  const rules = rulesProblem(v["rules"]);
  if (rules !== undefined) return `rules: ${rules}`;
  for (const name of ["seat", "drawPileSize", "turn", "dealer", "reshuffles", "ply"]) {
    if (!Number.isSafeInteger(v[name])) return `${name}: expected a whole number, not ${repr(v[name])}`;
  }
  const winner = v["winner"];
  if (!(winner === null || winner === 0 || winner === 1)) return `winner: expected 0, 1 or null, not ${repr(winner)}`;
  const pegs = v["pegs"];
  if (!(isArrayOf(pegs, (row) => isArrayOf(row, Number.isSafeInteger)))) {
    return "pegs: expected an array of arrays of locations, one per seat";
  }
  for (const name of ["hand", "discardPile"]) {
    const cards = v[name];
    if (!(isArrayOf(cards, isRank))) return `${name}: expected an array of cards`;
  }
  const sizes = v["handSizes"];
  if (!(isArrayOf(sizes, Number.isSafeInteger))) return "handSizes: expected an array of counts";
  return viewProblem(value as PlayerView, true);
}

/**
 * What makes a view impossible: whether some state agrees with it (`undefined` if one does). With
 * `outOfPlay` (a view of a position made by hand), the cards it hides may fall short of the
 * deck's unseen cards, the rest being out of play; read from JSON, they must account for them all.
 */
function viewProblem(seen: PlayerView, outOfPlay = false): string | undefined {
  const players = seen.pegs.length;
  if (seen.handSizes.length !== players || seen.seat < 0 || seen.seat >= players) {
    return "the view's seat, pegs and hand sizes do not agree";
  }
  if (seen.handSizes[seen.seat] !== seen.hand.length) return "the view's hand size does not match its hand";
  if (!seen.rules.playerCounts.includes(players)) return `the rules do not allow ${players} players`;
  const [decks, jokers] = [...(seen.rules.decks.find((row) => row[0] === players) ?? [0, 0, 0])].slice(1) as [number, number];
  const unseen: Rank[] = [];
  const known = new Array<number>(15).fill(0);
  for (const card of [...seen.hand, ...seen.discardPile]) known[card] = (known[card] as number) + 1;
  for (let rank = 1; rank <= 14; rank++) {
    const left = (rank === 14 ? jokers : 4 * decks) - (known[rank] as number);
    if (left < 0) return "the view shows cards that the deck does not hold";
    for (let n = 0; n < left; n++) unseen.push(rank as Rank);
  }
  const sizes = seen.handSizes.filter((_, s) => s !== seen.seat);
  if (sizes.some((n) => n < 0) || seen.drawPileSize < 0) return "the view has a negative card count";
  const hidden = sizes.reduce((a, b) => a + b, 0) + seen.drawPileSize;
  if (outOfPlay ? hidden > unseen.length : hidden !== unseen.length) {
    return `the view hides ${hidden} cards, but ${unseen.length} are unaccounted for`;
  }
  const hands: Rank[][] = [];
  let dealt = 0;
  seen.handSizes.forEach((size, seat) => {
    if (seat === seen.seat) hands.push([...seen.hand]);
    else {
      hands.push(unseen.slice(dealt, dealt + size));
      dealt += size;
    }
  });
  const state: GameState = {
    rules: seen.rules,
    pegs: seen.pegs,
    hands,
    drawPile: unseen.slice(dealt, dealt + seen.drawPileSize),
    discardPile: seen.discardPile,
    turn: seen.turn,
    dealer: seen.dealer,
    seed: 0n,
    reshuffles: seen.reshuffles,
    ply: seen.ply,
    winner: seen.winner,
  };
  const problems = outOfPlay ? handMadeProblems(state) : validate(state);
  return problems.length ? `the view cannot come from a real game: ${problems.join("; ")}` : undefined;
}

function readExplanation(r: Reader, data: Record<string, unknown>, path: string): Explanation {
  const values = readObject(r, data, path, { legal: readBool, rule: nullable(readStr), reason: readStr });
  const verdict: Explanation = {
    legal: values["legal"] as boolean,
    rule: values["rule"] as string | null,
    reason: values["reason"] as string,
  };
  if (verdict.legal !== (verdict.rule === null)) throw r.bad(path, "a legal move has no rule id, and an illegal one has one");
  if (verdict.rule !== null && !RULINGS.has(verdict.rule)) throw r.bad(`${path}.rule`, `no ruling ${short(verdict.rule)}`);
  return verdict;
}

function readMoves(r: Reader, data: Record<string, unknown>, path: string): readonly Move[] {
  const entry: Read<Move> = (r, item, where) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      throw r.bad(where, `expected an object, not ${describe(item)}`);
    }
    const object = item as Record<string, unknown>;
    const notation = readStr(r, object["notation"], `${where}.notation`);
    const rest = Object.fromEntries(Object.entries(object).filter(([k]) => k !== "notation"));
    const move = readMove(r, rest, where);
    if (moveText(move) !== notation) throw r.bad(`${where}.notation`, `${short(notation)} does not match the move ${moveText(move)}`);
    return move;
  };
  const moves = readObject(r, data, path, { moves: listOf(entry) })["moves"] as Move[];
  if (new Set(moves.map(moveText)).size !== moves.length) throw r.bad(`${path}.moves`, "a move is listed twice");
  return moves;
}

const EVENT_FIELDS: Record<GameEvent["event"], Record<string, Read<unknown>>> = {
  card_played: { seat: readInt, card: readCard },
  card_discarded: { seat: readInt, card: readCard },
  passed: { seat: readInt },
  peg_moved: { seat: readInt, from: readLocation, to: readLocation },
  peg_displaced: { seat: readInt, from: readLocation, to: readLocation },
  cards_drawn: { seat: readInt, count: readInt, cards: nullable(readCards) },
  reshuffled: { cards: readInt, number: readInt },
  game_over: { winner: readInt },
};

const readEvent: Read<GameEvent> = (r, data, path) => {
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw r.bad(path, `expected an object, not ${describe(data)}`);
  const name = (data as Record<string, unknown>)["event"];
  if (typeof name !== "string" || !(name in EVENT_FIELDS)) {
    throw r.bad(`${path}.event`, `expected one of ${Object.keys(EVENT_FIELDS).join(", ")}, not ${short(name)}`);
  }
  const kind = name as GameEvent["event"];
  const values = readObject(r, data, path, { event: readStr, text: readStr, ...EVENT_FIELDS[kind] }, ["text"]);
  const { text, ...fields } = values;
  const event = fields as unknown as GameEvent;
  const problem = eventProblem(event);
  if (problem !== undefined) throw r.bad(path, problem);
  const sentence = eventText(event);
  if (text !== undefined && text !== sentence) throw r.bad(`${path}.text`, `expected '${sentence}', the event's own sentence`);
  return event;
};

function eventProblem(event: GameEvent): string | undefined {
  if (event.event === "reshuffled") {
    return event.cards < 1 || event.number < 1 ? "a reshuffle takes at least one card and is numbered from 1" : undefined;
  }
  if (("seat" in event && event.seat < 0) || ("count" in event && event.count < 0)) return "seats and counts are 0 or more";
  if (event.event === "cards_drawn") {
    if (event.count < 1) return "a draw takes at least one card";
    if (event.cards !== null && event.cards.length !== event.count) {
      return `count ${event.count} does not match the ${event.cards.length} cards drawn`;
    }
  }
  if (event.event === "game_over" && event.winner !== 0 && event.winner !== 1) {
    return `the winner is team 0 or 1, not ${event.winner}`;
  }
  return undefined;
}

function readEvents(r: Reader, data: Record<string, unknown>, path: string): readonly GameEvent[] {
  const seatOrPublic: Read<number | "public"> = (r, x, p) => (x === "public" ? "public" : readInt(r, x, p));
  const values = readObject(r, data, path, { seat: nullable(seatOrPublic), events: listOf(readEvent) });
  const seat = values["seat"] as number | "public" | null;
  const events = values["events"] as GameEvent[];
  events.forEach((event, i) => {
    if (event.event !== "cards_drawn") return;
    const secret = seat !== null && event.seat !== seat;
    if (secret && event.cards !== null) {
      const reader = seat === "public" ? "spectators" : `seat ${seat}`;
      throw r.bad(`${path}.events[${i}].cards`, `the cards seat ${event.seat} drew must be hidden from ${reader}`);
    }
    if (!secret && event.cards === null) {
      const reader = seat === null ? "an unredacted document" : `seat ${seat}`;
      throw r.bad(`${path}.events[${i}].cards`, `the cards seat ${event.seat} drew are hidden, but not from ${reader}`);
    }
  });
  return events;
}

const READERS: { [K in Kind]: (r: Reader, data: Record<string, unknown>, path: string) => Loaded[K] } = {
  state: readState,
  move: readMove,
  rules: (r, data, path) => readRules(r, data, path),
  record: readRecord,
  view: readView,
  explanation: readExplanation,
  moves: readMoves,
  events: readEvents,
};

function head(r: Reader, data: unknown, kind: Kind | undefined): [Kind, Record<string, unknown>] {
  if (typeof data !== "object" || data === null || Array.isArray(data) || data instanceof JsonFloat) {
    throw r.bad("$", `expected a JSON object, not ${describe(data)}`);
  }
  const object = data as Record<string, unknown>;
  if (!("format" in object)) throw r.bad("$", "missing field 'format' (this package reads format 1)");
  if (object["format"] !== FORMAT) throw r.bad("$.format", `format ${short(object["format"])} is not supported (only 1)`);
  const types = Object.keys(READERS);
  if (!("type" in object)) throw r.bad("$", `missing field 'type' (${types.map((t) => `'${t}'`).join(", ")})`);
  const found = object["type"];
  if (typeof found !== "string" || !types.includes(found)) {
    throw r.bad("$.type", `expected one of ${types.map((t) => `'${t}'`).join(", ")}, not ${short(found)}`);
  }
  if (kind !== undefined && found !== kind) throw r.bad("$.type", `expected a ${kind} document, not a ${found}`);
  const body = Object.fromEntries(Object.entries(object).filter(([k]) => k !== "format" && k !== "type"));
  return [found as Kind, body];
}
