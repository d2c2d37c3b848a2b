/**
 * Rules as data: a frozen {@link Rules} object naming every choice the engine reads, the presets
 * {@link ARIZONA} (the default) and {@link STANDARD}, and the house-rule switches
 * (`variant.*` rulings).
 *
 * @module
 */
import { RulesError } from "./errors.js";
import { isArrayOf } from "./args.js";
import { frozenMap } from "./frozen.js";
import { repr } from "./text.js";

/** Whose pegs a player moves (`team.control`). */
export type Control = "team" | "own_then_teammate";
/** Which pegs a joker may move (`card.joker.source`). */
export type JokerSource = "team_start_first" | "any";
/** What a 9 may do (`card.nine`, `variant.nine-split`). */
export type Nine = "plain" | "forward_forward" | "forward_backward";
/** Where a knocked team peg goes when its in-spot is held (`variant.in-spot-occupied`). */
export type InSpotOccupied = "chain" | "illegal" | "to_start";

/** A deck row: `[players, decks, jokers]` (`deck.composition`, `variant.decks`). */
export type DeckRow = readonly [players: number, decks: number, jokers: number];

/** A rules preset with its house-rule switches. Make one with {@link makeRules}. */
export interface Rules {
  /** The preset's name. */
  readonly name: string;
  /** The seat counts allowed (`board.sides`). */
  readonly playerCounts: readonly number[];
  /** One row per seat count (`deck.composition`, `variant.decks`). */
  readonly decks: readonly DeckRow[];
  /** Cards held between turns (`deal.hands`). */
  readonly handSize: number;
  /** Draw one extra card before playing, as in `standard` (`turn.sequence`). */
  readonly drawFirst: boolean;
  /** Whose pegs a player moves (`team.control`). */
  readonly control: Control;
  /** Which pegs a joker may move (`card.joker.source`). */
  readonly jokerSource: JokerSource;
  /** What a 9 may do (`card.nine`, `variant.nine-split`). */
  readonly nine: Nine;
  /** How far a jack, queen and king move (`card.face`, `variant.face-values`). */
  readonly faceValues: readonly [number, number, number];
  /** A peg that can enter home must (`variant.home-entry-compulsory`). */
  readonly homeEntryCompulsory: boolean;
  /** A peg on its own in-spot goes forward only into home (`variant.wait-on-in-spot`). */
  readonly waitOnInSpot: boolean;
  /** Where a knocked team peg goes when its in-spot is held (`variant.in-spot-occupied`). */
  readonly inSpotOccupied: InSpotOccupied;
  /** A 2 may instead swap two pegs (`variant.two-swap`). */
  readonly twoSwap: boolean;
}

/** The most 52-card decks a rules object may shuffle together (`variant.decks`). */
export const MAX_DECKS = 16;
/** The most jokers a rules object may add (`variant.decks`). */
export const MAX_JOKERS = 64;
/** The largest hand (`deal.hands`). */
export const MAX_HAND = 10;

/** Each field of {@link Rules}: its name in JSON and position text, and in TypeScript. */
export const RULE_FIELDS = [
  ["name", "name"],
  ["player_counts", "playerCounts"],
  ["decks", "decks"],
  ["hand_size", "handSize"],
  ["draw_first", "drawFirst"],
  ["control", "control"],
  ["joker_source", "jokerSource"],
  ["nine", "nine"],
  ["face_values", "faceValues"],
  ["home_entry_compulsory", "homeEntryCompulsory"],
  ["wait_on_in_spot", "waitOnInSpot"],
  ["in_spot_occupied", "inSpotOccupied"],
  ["two_swap", "twoSwap"],
] as const satisfies readonly (readonly [string, keyof Rules])[];

/** The values each enumerated field may take, in the order the reference lists them. */
export const CHOICES = {
  control: ["team", "own_then_teammate"],
  jokerSource: ["team_start_first", "any"],
  nine: ["plain", "forward_forward", "forward_backward"],
  inSpotOccupied: ["chain", "illegal", "to_start"],
} as const;

const FLAGS = ["drawFirst", "homeEntryCompulsory", "waitOnInSpot", "twoSwap"] as const;

const ARIZONA_FIELDS: Rules = {
  name: "arizona",
  playerCounts: [4, 6, 8],
  decks: [
    [4, 3, 6],
    [6, 3, 6],
    [8, 4, 8],
  ],
  handSize: 5,
  drawFirst: false,
  control: "team",
  jokerSource: "team_start_first",
  nine: "forward_forward",
  faceValues: [10, 10, 10],
  homeEntryCompulsory: false,
  waitOnInSpot: false,
  inSpotOccupied: "chain",
  twoSwap: false,
};

/** The rules objects the package made: frozen deeply, checked once. */
const MADE = new WeakSet<object>();

/**
 * A checked, frozen rules object: `changes` on top of `base` (default {@link ARIZONA}).
 * Throws {@link RulesError} saying what cannot be played.
 */
export function makeRules(changes: Partial<Rules> = {}, base: Rules = ARIZONA_FIELDS): Rules {
  if (typeof changes !== "object" || changes === null || Array.isArray(changes)) {
    throw new RulesError(`changes: not an object, but ${repr(changes)}`);
  }
  const rules = { ...(base === ARIZONA_FIELDS ? base : checkedRules(base)), ...changes };
  check(rules);
  return made(rules);
}

/** The default rules, Arizona Pegs and Jokers: five cards, any team peg, a 9 that splits. */
export const ARIZONA: Rules = makeRules();

/** The sister rules, Pegs and Jokers: draw to six first, own pegs until home, plain 9. */
export const STANDARD: Rules = makeRules({
  name: "standard",
  drawFirst: true,
  control: "own_then_teammate",
  jokerSource: "any",
  nine: "plain",
});

/** The presets by name. */
export const PRESETS: ReadonlyMap<string, Rules> = frozenMap([
  ["arizona", ARIZONA],
  ["standard", STANDARD],
]);

/** The preset called `name`; {@link RulesError} lists the known names. */
export function findPreset(name: string): Rules {
  const found = PRESETS.get(name);
  if (found === undefined) {
    throw new RulesError(`unknown preset ${repr(name)}; known: arizona, standard`);
  }
  return found;
}

/** `[decks, jokers]` used with `players` seats (`deck.composition`). */
export function deckFor(rules: Rules, players: number): readonly [number, number] {
  for (const [count, decks, jokers] of checkedRules(rules).decks) {
    if (count === players) return [decks, jokers];
  }
  throw new RulesError(`preset ${repr(rules.name)} has no deck for ${repr(players)} players`);
}

/** Whether two rules objects are equal field by field. */
export function sameRules(a: Rules, b: Rules): boolean {
  checkedRules(a);
  checkedRules(b);
  if (a === b) return true;
  return RULE_FIELDS.every(([, key]) => JSON.stringify(a[key]) === JSON.stringify(b[key]));
}

/** One field's value as position text writes it (`rule nine: plain`), by its JSON name. */
export function ruleText(rules: Rules, field: (typeof RULE_FIELDS)[number][0]): string {
  const key = keyOf(field);
  const value = rules[key];
  if (typeof value === "boolean") return value ? "true" : "false";
  if (key === "decks") return rules.decks.map((row) => row.join(",")).join(" ");
  if (Array.isArray(value)) return value.join(" ");
  return String(value);
}

/** `rules` with one field, named as in JSON, read from its text form ({@link ruleText}). */
export function withRule(rules: Rules, field: string, text: string): Rules {
  const entry = RULE_FIELDS.find(([name]) => name === field);
  if (entry === undefined) throw new RulesError(`no rule called ${repr(field)}`);
  const key = entry[1];
  const value = text.trim();
  const fail = (): never => {
    throw new RulesError(
      `${field}: cannot read ${repr(value)} (now ${repr(ruleText(rules, entry[0]))})`,
    );
  };
  let parsed: unknown;
  if (typeof rules[key] === "boolean") {
    if (value !== "true" && value !== "false") fail();
    parsed = value === "true";
  } else if (key in CHOICES) {
    const choices: readonly string[] = CHOICES[key as keyof typeof CHOICES];
    if (!choices.includes(value)) fail();
    parsed = value;
  } else if (key === "decks" || key === "playerCounts" || key === "faceValues") {
    const rows = value.split(/\s+/).filter(Boolean).map((word) => word.split(",").map(readInt));
    if (rows.some((row) => row.some((n) => n === undefined))) fail();
    parsed = value.includes(",") ? rows : rows.map((row) => row[0]);
  } else if (key === "handSize") {
    const n = readInt(value);
    if (n === undefined) fail();
    parsed = n;
  } else {
    parsed = value;
  }
  return makeRules({ [key]: parsed }, rules);
}

function readInt(word: string): number | undefined {
  const text = word.trim();
  return /^[-+]?[0-9]{1,15}$/.test(text) ? Number(text) : undefined;
}

function keyOf(field: string): keyof Rules {
  const entry = RULE_FIELDS.find(([name]) => name === field);
  if (entry === undefined) throw new RulesError(`no rule called ${repr(field)}`);
  return entry[1];
}

function isInt(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value);
}

function check(rules: Rules): void {
  for (const [key, choices] of Object.entries(CHOICES)) {
    const value = rules[key as keyof typeof CHOICES];
    if (!(choices as readonly unknown[]).includes(value)) {
      throw new RulesError(`${snake(key)}: expected one of ${choices.join(", ")}, not ${repr(value)}`);
    }
  }
  for (const key of FLAGS) {
    if (typeof rules[key] !== "boolean") {
      throw new RulesError(`${snake(key)}: expected true or false, not ${repr(rules[key])}`);
    }
  }
  if (typeof rules.name !== "string" || rules.name === "") {
    throw new RulesError("name: a preset needs a name");
  }
  const counts: unknown = rules.playerCounts;
  if (
    !Array.isArray(counts) ||
    counts.length === 0 ||
    !isArrayOf(counts, (n) => isInt(n) && (n === 4 || n === 6 || n === 8))
  ) {
    throw new RulesError(`player_counts: some of 4, 6 and 8, not ${repr(counts)}`);
  }
  const rows: unknown = rules.decks;
  if (
    !Array.isArray(rows) ||
    !isArrayOf(rows, (row) => Array.isArray(row) && row.length === 3 && isArrayOf(row, isInt))
  ) {
    throw new RulesError(`decks: rows of (players, decks, jokers), not ${repr(rows)}`);
  }
  const decks = rows as readonly DeckRow[];
  const seats = decks.map((row) => row[0]);
  if (new Set(seats).size !== seats.length || seats.some((n) => n !== 4 && n !== 6 && n !== 8)) {
    throw new RulesError("decks: one row for each of some of 4, 6 and 8 players");
  }
  if (decks.some(([, d, j]) => d < 1 || d > MAX_DECKS || j < 0 || j > MAX_JOKERS)) {
    throw new RulesError(`decks: 1 to ${MAX_DECKS} decks and 0 to ${MAX_JOKERS} jokers per row`);
  }
  if (!(counts as number[]).every((n) => seats.includes(n))) {
    throw new RulesError("decks: every allowed player count needs a row");
  }
  if (!isInt(rules.handSize) || rules.handSize < 1 || rules.handSize > MAX_HAND) {
    throw new RulesError(`hand_size: 1..${MAX_HAND} cards, not ${repr(rules.handSize)}`);
  }
  const values: unknown = rules.faceValues;
  if (
    !Array.isArray(values) ||
    values.length !== 3 ||
    !isArrayOf(values, (v) => isInt(v) && v >= 1 && v <= 13)
  ) {
    throw new RulesError(`face_values: a face card moves 1..13 holes, not ${repr(values)}`);
  }
  for (const [count, d, j] of decks) {
    const hands = count * (rules.handSize + (rules.drawFirst ? 1 : 0));
    if (52 * d + j < 2 * hands) {
      throw new RulesError(`decks: ${d} deck(s) are too few to deal ${count} players`);
    }
  }
}

function snake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A frozen copy of checked `rules`, field by field, remembered as made by the package. */
function made(rules: Rules): Rules {
  const copy: Rules = {
    name: rules.name,
    playerCounts: Object.freeze([...rules.playerCounts]),
    decks: Object.freeze(rules.decks.map((row) => Object.freeze([row[0], row[1], row[2]] as const))),
    handSize: rules.handSize,
    drawFirst: rules.drawFirst,
    control: rules.control,
    jokerSource: rules.jokerSource,
    nine: rules.nine,
    faceValues: Object.freeze([rules.faceValues[0], rules.faceValues[1], rules.faceValues[2]] as const),
    homeEntryCompulsory: rules.homeEntryCompulsory,
    waitOnInSpot: rules.waitOnInSpot,
    inSpotOccupied: rules.inSpotOccupied,
    twoSwap: rules.twoSwap,
  };
  MADE.add(Object.freeze(copy));
  return copy;
}

/**
 * `rules` if the package made it; a hand-built rules object checked and copied (frozen, so that
 * no later change to the caller's object changes a game); {@link RulesError} if it is not one.
 */
export function checkedRules(rules: unknown): Rules {
  if (typeof rules === "object" && rules !== null && MADE.has(rules)) return rules as Rules;
  if (typeof rules !== "object" || rules === null || Array.isArray(rules)) {
    throw new RulesError(`not a rules object: ${repr(rules)}`);
  }
  check(rules as Rules);
  return made(rules as Rules);
}

/** Why `rules` is not a rules object the engine can play by, or `undefined` if it is one. */
export function rulesProblem(rules: unknown): string | undefined {
  try {
    checkedRules(rules);
    return undefined;
  } catch (error) {
    if (error instanceof RulesError) return error.message;
    throw error;
  }
}
