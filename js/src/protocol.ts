/**
 * The engine protocol (version 1), the engine's side: {@link handle} answers one request. The
 * suite's harness (`python -m pegs_rules.spec check --engine "COMMAND"`) sends requests as JSON
 * lines and reads one answer line per request; `bin/protocol.ts` runs this over standard input
 * and output. The suite's `specs/protocol.md` describes every message. A request line may be
 * {@link MAX_REQUEST} bytes long at most ({@link RequestLines} refuses longer ones unread), and an
 * error's message {@link MAX_ERROR} characters, so that junk of any size costs the engine little
 * and comes back short.
 *
 * @module
 */
import { buildDeck, cardOf, cardsOf, countCards, type Rank } from "./cards.js";
import { isArrayOf } from "./args.js";
import { FormatError, IllegalMoveError, PegsError, quoted } from "./errors.js";
import { parseJson, stringify, type Json } from "./json.js";
import { legalMoves } from "./movegen.js";
import { moveText, parseNotation, type Move } from "./moves.js";
import { divide, perft } from "./perft.js";
import { parsePosition, positionText } from "./position.js";
import { deckFor, findPreset, withRule, type Rules } from "./rules.js";
import { fromData, toData } from "./serialize.js";
import { deal, newGame, reshuffled, type GameState } from "./state.js";
import { apply } from "./turn.js";
import { repr } from "./text.js";
import { sealed } from "./validate.js";
import { VERSION } from "./version.js";

/** The protocol version this engine speaks. */
export const PROTOCOL = 1;
/** The name this engine gives in its `hello`. */
export const ENGINE = "pegs-rules-js";
/** The deepest perft this engine counts. */
export const MAX_PERFT_DEPTH = 6;
/**
 * The longest request line served, in bytes (1 MiB, its line end aside): a longer one is
 * answered with an error, unread beyond this length (the suite's largest request is some 4 KB).
 */
export const MAX_REQUEST = 1 << 20;
/**
 * The longest error message answered, in characters: a longer one (quoting a long piece of the
 * request) is cut there and ends with `...`.
 */
export const MAX_ERROR = 1000;

class ProtocolError extends PegsError {}

type Answer = Record<string, unknown>;

/** The answer line to one request line (`null` for `quit`); never throws. */
export function handleLine(line: string): string | null {
  let request: Json;
  try {
    request = parseJson(line);
  } catch (error) {
    return stringify({ id: null, error: clipped(`not JSON: ${error instanceof Error ? error.message : String(error)}`) });
  }
  const answer = handle(request);
  return answer === null ? null : stringify(answer);
}

/** The answer to one request (decoded from JSON); `null` for `quit`. Never throws. */
export function handle(request: unknown): Answer | null {
  const object = typeof request === "object" && request !== null && !Array.isArray(request) ? (request as Record<string, unknown>) : undefined;
  const raw = object?.["id"];
  const id = typeof raw === "number" || typeof raw === "string" || typeof raw === "bigint" ? raw : null;
  try {
    if (object === undefined) throw new ProtocolError("a request is a JSON object");
    const kind = object["type"];
    if (kind === "quit") return null;
    const answer = typeof kind === "string" && Object.prototype.hasOwnProperty.call(ANSWERS, kind) ? ANSWERS[kind] : undefined;
    if (answer === undefined) {
      // the reference's words: the transcript of specs/protocol.md is the same from either engine
      const shown = typeof kind === "string" ? quoted(kind) : repr(kind);
      throw new ProtocolError(`unknown request type ${shown}; known: ${Object.keys(ANSWERS).join(", ")}`);
    }
    return { id, ...answer(object) };
  } catch (error) {
    if (error instanceof PegsError) return { id, error: clipped(error.message) };
    return { id, error: clipped(`internal error: ${error instanceof Error ? error.message : String(error)}`) };
  }
}

const ANSWERS: Record<string, (request: Record<string, unknown>) => Answer> = {
  hello: () => ({ engine: ENGINE, version: VERSION, protocol: PROTOCOL }),
  legal: (request) => ({ moves: legalMoves(position(request)).map(moveText) }),
  apply: (request) => {
    const state = position(request);
    const move = parseNotation(field(request, "move", "string"));
    const pile = "reshuffle" in request ? cards(field(request, "reshuffle", "string")) : undefined;
    try {
      return answerPosition(applyWithPile(state, move, pile));
    } catch (error) {
      if (error instanceof IllegalMoveError) return { illegal: error.rule, reason: error.reason };
      throw error;
    }
  },
  deal: (request) => {
    const players = whole(request, "players");
    const dealer = whole(request, "dealer");
    const seed = request["seed"];
    if (typeof seed !== "bigint" && !(typeof seed === "number" && Number.isInteger(seed))) {
      throw new ProtocolError("seed: expected a whole number");
    }
    let rules: Rules;
    if ("preset" in request) {
      const house = request["house_rules"] ?? [];
      if (!Array.isArray(house) || !isArrayOf(house, (line) => typeof line === "string")) {
        throw new ProtocolError("house_rules: a list of 'FIELD: VALUE' strings");
      }
      rules = findPreset(field(request, "preset", "string"));
      for (const line of house) {
        const colon = line.indexOf(":");
        rules = withRule(rules, (colon < 0 ? line : line.slice(0, colon)).trim(), colon < 0 ? "" : line.slice(colon + 1));
      }
    } else {
      rules = fromData({ format: 1, type: "rules", ...(field(request, "rules", "object") as object) }, "rules");
    }
    const big = BigInt(seed);
    if (!("deck" in request)) return answerPosition(newGame(players, { seed: big, rules, dealer }));
    if (!rules.playerCounts.includes(players) || dealer < 0 || dealer >= players) {
      throw new ProtocolError(`no ${players}-player game with dealer ${dealer} under these rules`);
    }
    const deck = cards(field(request, "deck", "string"));
    const [decks, jokers] = deckFor(rules, players);
    if (!sameCards(deck, buildDeck(decks, jokers))) throw new ProtocolError(`deck: not the ${players}-player deck of these rules`);
    return answerPosition(deal(rules, players, dealer, deck, big));
  },
  perft: (request) => {
    const state = position(request);
    const depth = whole(request, "depth");
    if (depth < 0 || depth > MAX_PERFT_DEPTH) throw new ProtocolError(`depth: 0..${MAX_PERFT_DEPTH}, not ${depth}`);
    const wantDivide = "divide" in request ? field(request, "divide", "boolean") : false;
    if (!wantDivide || depth === 0) return { nodes: perft(state, depth) };
    const counts = divide(state, depth);
    let nodes = 0;
    for (const n of counts.values()) nodes += n;
    return { nodes, divide: Object.fromEntries(counts) };
  },
};

function field<T extends "string" | "boolean" | "object">(
  request: Record<string, unknown>,
  name: string,
  kind: T,
): T extends "string" ? string : T extends "boolean" ? boolean : Record<string, unknown> {
  if (!(name in request)) throw new ProtocolError(`a ${String(request["type"])} request needs '${name}'`);
  const value = request[name];
  const ok = kind === "object" ? typeof value === "object" && value !== null && !Array.isArray(value) : typeof value === kind;
  if (!ok) throw new ProtocolError(`${name}: expected ${kind}, not ${Array.isArray(value) ? "array" : typeof value}`);
  return value as never;
}

function whole(request: Record<string, unknown>, name: string): number {
  if (!(name in request)) throw new ProtocolError(`a ${String(request["type"])} request needs '${name}'`);
  const value = request[name];
  if (typeof value !== "number" || !Number.isInteger(value)) throw new ProtocolError(`${name}: expected int`);
  return value;
}

function cards(text: string): Rank[] {
  return cardsOf(text, (word) => new ProtocolError(`not a card: '${word}'`));
}

function sameCards(a: readonly Rank[], b: readonly Rank[]): boolean {
  const x = countCards(a);
  const y = countCards(b);
  return x.every((n, i) => n === y[i]);
}

/**
 * The request's position: its state JSON if it has one (cards may fall short), else its text. The
 * state JSON is the whole position: the text says nothing of the ply, the seed or the reshuffles.
 */
function position(request: Record<string, unknown>): GameState {
  if ("state" in request) return testState(field(request, "state", "object"));
  return parsePosition(field(request, "position", "string"));
}

/**
 * A state JSON document whose cards may fall short of the deck: the missing cards are out of
 * play. They are put on the discard pile to read the state, then taken off again.
 */
function testState(data: Record<string, unknown>): GameState {
  try {
    return fromData({ format: 1, type: "state", ...data }, "state");
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    const out = outOfPlay(data);
    if (out === undefined) throw new ProtocolError(`state: ${error.message}`);
    const whole = { format: 1, type: "state", ...data, discard_pile: [...out, ...(data["discard_pile"] as string[])] };
    try {
      const state = fromData(whole, "state");
      return sealed({ ...state, discardPile: state.discardPile.slice(out.length) });
    } catch (again) {
      if (again instanceof FormatError) throw new ProtocolError(`state: ${again.message}`);
      throw again;
    }
  }
}

function outOfPlay(data: Record<string, unknown>): string[] | undefined {
  try {
    const rules = fromData({ format: 1, type: "rules", ...(data["rules"] as object) }, "rules");
    const piles = [...(data["hands"] as string[][]), data["draw_pile"] as string[], data["discard_pile"] as string[]];
    const held = countCards(piles.flat().map((c) => cardOf(c) as Rank));
    const [decks, jokers] = deckFor(rules, (data["pegs"] as unknown[]).length);
    const deck = countCards(buildDeck(decks, jokers));
    const out: string[] = [];
    for (let rank = 1; rank <= 14; rank++) {
      const left = (deck[rank] as number) - (held[rank] as number);
      if (left < 0) return undefined;
      for (let n = 0; n < left; n++) out.push(["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"][rank] as string);
    }
    return out;
  } catch {
    return undefined;
  }
}

function answerPosition(state: GameState): Answer {
  return { position: positionText(state), state: toData(state) };
}

/**
 * {@link apply}, except that a reshuffle during the move makes `pile` (top card first): an
 * engine's shuffle is its own, so a game vector gives the pile each reshuffle made.
 */
function applyWithPile(state: GameState, move: Move, pile: readonly Rank[] | undefined): GameState {
  const after = apply(state, move);
  if (pile === undefined || after.reshuffles === state.reshuffles) return after;
  const played: Rank[] = move.action === "pass" ? [] : [move.card];
  const ours = reshuffled(state.seed, state.reshuffles, [...state.discardPile, ...played]);
  if (!sameCards(pile, ours)) throw new ProtocolError("reshuffle: not the cards of the discard pile");
  const taken = ours.length - after.drawPile.length;
  const players = state.pegs.length;
  const drawer = state.rules.drawFirst ? (state.turn + 1) % players : state.turn;
  const hand = [...(after.hands[drawer] as readonly Rank[])];
  for (const card of ours.slice(0, taken)) hand.splice(hand.indexOf(card), 1);
  hand.push(...pile.slice(0, taken));
  hand.sort((a, b) => a - b);
  const hands = [...after.hands];
  hands[drawer] = hand;
  return sealed({ ...after, hands, drawPile: pile.slice(taken) });
}

/** The answer line to a request line longer than {@link MAX_REQUEST} bytes. */
export function refusal(): string {
  return stringify({ id: null, error: `a request line longer than ${MAX_REQUEST.toLocaleString("en-US")} bytes` });
}

/** `message` cut after {@link MAX_ERROR} characters (code points), ending with `...` if cut. */
function clipped(message: string): string {
  if (message.length <= MAX_ERROR) return message; // never more code points than UTF-16 units
  let end = 0;
  for (let n = 0; n < MAX_ERROR && end < message.length; n++) end += (message.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
  return end < message.length ? `${message.slice(0, end)}...` : message;
}

/**
 * Request lines from the bytes of an input, in whatever pieces they come: each line's text
 * (UTF-8; bytes that are not make U+FFFD), without its `\n`, or `null` for a line longer than
 * {@link MAX_REQUEST} bytes, whose bytes are dropped as they come and never held whole.
 */
export class RequestLines {
  private readonly pieces: Uint8Array[] = [];
  private size = 0;
  private skipping = false;
  private readonly decoder = new TextDecoder();

  /** The lines that `chunk` completes (a line too long as soon as it is). */
  push(chunk: Uint8Array): (string | null)[] {
    const lines: (string | null)[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const part = chunk.subarray(start, newline < 0 ? chunk.length : newline);
      if (!this.skipping && this.size + part.length > MAX_REQUEST) {
        lines.push(null);
        this.pieces.length = this.size = 0;
        this.skipping = true;
      } else if (!this.skipping) {
        this.pieces.push(part);
        this.size += part.length;
      }
      if (newline < 0) break;
      if (!this.skipping) lines.push(this.take());
      this.skipping = false;
      start = newline + 1;
    }
    return lines;
  }

  /** The last line, if the input ended without a line end after it. */
  end(): (string | null)[] {
    return this.size > 0 ? [this.take()] : [];
  }

  private take(): string {
    const line = new Uint8Array(this.size);
    let at = 0;
    for (const piece of this.pieces) {
      line.set(piece, at);
      at += piece.length;
    }
    this.pieces.length = this.size = 0;
    return this.decoder.decode(line);
  }
}
