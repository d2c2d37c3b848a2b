/**
 * The package's errors. Everything it throws on bad input is a {@link PegsError}, whatever the
 * input: text that is not JSON, values of the wrong type, impossible positions, junk notation.
 *
 * - {@link IllegalMoveError}: a move the rules forbid, with the id of the ruling
 *   ({@link ReplayError} for a move of a game record);
 * - {@link NotationError}: text that is not a move or a position ({@link AmbiguousMoveError} for a
 *   shorthand that fits several legal moves);
 * - {@link FormatError}: a JSON document that is not valid, listing every problem;
 * - {@link RulesError}: a rules object that cannot be played;
 * - {@link PositionError}: a position that cannot occur, including a hand-built state the engine
 *   cannot work on (its message starts `malformed game state:`).
 *
 * @module
 */

/** The base class of every error the package throws on bad input. */
export class PegsError extends Error {
  override name = "PegsError";
}

/** A move that the rules forbid; `rule` is the id of the ruling that forbids it. */
export class IllegalMoveError extends PegsError {
  override name = "IllegalMoveError";
  /** The id of the ruling that forbids the move, for example `move.blocking`. */
  readonly rule: string;
  /** One sentence saying why. */
  readonly reason: string;

  constructor(rule: string, reason: string) {
    super(`[${rule}] ${reason}`);
    this.rule = rule;
    this.reason = reason;
  }
}

/** A position that cannot occur, or a hand-built state that a function cannot work on. */
export class PositionError extends PegsError {
  override name = "PositionError";
}

/** Text that is not a move or a position in the documented notation. */
export class NotationError extends PegsError {
  override name = "NotationError";
}

/** Move text that fits several legal moves; `candidates` lists them. */
export class AmbiguousMoveError extends NotationError {
  override name = "AmbiguousMoveError";
  /** The legal moves the text could mean, in their canonical notation. */
  readonly candidates: readonly string[];

  constructor(text: string, candidates: readonly string[]) {
    super(`${quoted(text)} is ambiguous: it could be ${candidates.join(", ")}`);
    this.candidates = candidates;
  }
}

/** A rules object whose values or combination of switches cannot be played. */
export class RulesError extends PegsError {
  override name = "RulesError";
}

/** A JSON document that is not valid: `problems` lists every problem, each with its path. */
export class FormatError extends PegsError {
  override name = "FormatError";
  /** Every problem found, each prefixed with where it was found (`$.pegs[2]`...). */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(problems.join("; ") || "invalid data");
    this.problems = problems;
  }
}

/** A move of a game record that cannot be made: `turn` counts from 1. */
export class ReplayError extends IllegalMoveError {
  override name = "ReplayError";
  /** The turn of the record, the first being 1. */
  readonly turn: number;
  /** The move's text as the record holds it. */
  readonly move: string;

  constructor(turn: number, move: string, rule: string, reason: string) {
    super(rule, reason);
    this.turn = turn;
    this.move = move;
    this.message = `[${rule}] turn ${turn}, ${quoted(move)}: ${reason}`;
  }
}

/** The characters {@link quoted} writes as escapes (besides the quote). */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const ESCAPED = /[\\\x00-\x1f\x7f]/;

/** A string as Python's `repr` writes a plain one, for messages that match the reference's. */
export function quoted(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  // most texts need no escape; a long one is then copied once, not a character at a time
  if (!ESCAPED.test(text) && !text.includes(quote)) return quote + text + quote;
  const out = [quote];
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === "\\") out.push("\\\\");
    else if (ch === quote) out.push(`\\${quote}`);
    else if (ch === "\n") out.push("\\n");
    else if (ch === "\r") out.push("\\r");
    else if (ch === "\t") out.push("\\t");
    else if (code < 0x20 || code === 0x7f) out.push(`\\x${code.toString(16).padStart(2, "0")}`);
    else out.push(ch);
  }
  out.push(quote);
  return out.join("");
}
