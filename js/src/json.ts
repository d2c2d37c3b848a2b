/**
 * JSON text as the reference engine reads and writes it. {@link stringify} writes what Python's
 * `json.dumps` writes (`", "` and `": "` between items, every character beyond ASCII escaped),
 * so that documents are byte-identical across the two engines; a `bigint` is written as its
 * digits. {@link parseJson} reads whole numbers beyond 2^53 exactly (as `bigint`), refuses a key
 * given twice, `NaN` and `Infinity`, whole numbers of more than 4,300 digits, and nesting deeper
 * than the reference engine reads.
 *
 * @module
 */

/** A JSON value as read: whole numbers beyond 2^53 are bigints. */
export type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };

const MAX_DIGITS = 4300;
const MAX_DEPTH = 900;

/** The value of JSON `text`; throws a `SyntaxError` saying where it is not JSON. */
export function parseJson(text: string): Json {
  return new Parser(text).document();
}

class Parser {
  private at = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  document(): Json {
    this.blank();
    const value = this.value();
    this.blank();
    if (this.at < this.text.length) this.fail("extra data");
    return value;
  }

  private fail(what: string): never {
    throw new SyntaxError(`${what} at character ${this.at}`);
  }

  private blank(): void {
    const text = this.text;
    while (this.at < text.length) {
      const c = text.charCodeAt(this.at);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      this.at++;
    }
  }

  private value(): Json {
    const c = this.text[this.at];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return this.string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    for (const [word, value] of [["true", true], ["false", false], ["null", null]] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    if (this.text.startsWith("NaN", this.at) || this.text.startsWith("Infinity", this.at)) {
      this.fail("NaN and Infinity are not JSON numbers");
    }
    return this.fail("expecting a value");
  }

  private nest(): void {
    if (++this.depth > MAX_DEPTH) this.fail("nested too deeply");
  }

  private object(): Json {
    this.nest();
    this.at++;
    const out: { [key: string]: Json } = {};
    this.blank();
    if (this.text[this.at] === "}") {
      this.at++;
      this.depth--;
      return out;
    }
    for (;;) {
      this.blank();
      if (this.text[this.at] !== '"') this.fail("expecting a property name in double quotes");
      const key = this.string();
      this.blank();
      if (this.text[this.at] !== ":") this.fail("expecting ':'");
      this.at++;
      this.blank();
      if (Object.prototype.hasOwnProperty.call(out, key)) this.fail(`field ${JSON.stringify(key)} given twice`);
      Object.defineProperty(out, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
      this.blank();
      const c = this.text[this.at++];
      if (c === "}") break;
      if (c !== ",") this.fail("expecting ',' or '}'");
    }
    this.depth--;
    return out;
  }

  private array(): Json {
    this.nest();
    this.at++;
    const out: Json[] = [];
    this.blank();
    if (this.text[this.at] === "]") {
      this.at++;
      this.depth--;
      return out;
    }
    for (;;) {
      this.blank();
      out.push(this.value());
      this.blank();
      const c = this.text[this.at++];
      if (c === "]") break;
      if (c !== ",") this.fail("expecting ',' or ']'");
    }
    this.depth--;
    return out;
  }

  private string(): string {
    const text = this.text;
    let out = "";
    let start = ++this.at;
    for (;;) {
      if (this.at >= text.length) this.fail("unterminated string");
      const c = text.charCodeAt(this.at);
      if (c === 0x22) break;
      if (c < 0x20) this.fail("invalid control character in a string");
      if (c !== 0x5c) {
        this.at++;
        continue;
      }
      out += text.slice(start, this.at);
      const e = text[this.at + 1];
      const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
      if (e !== undefined && e in simple) {
        out += simple[e];
        this.at += 2;
      } else if (e === "u") {
        const hex = text.slice(this.at + 2, this.at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("invalid \\uXXXX escape");
        out += String.fromCharCode(parseInt(hex, 16));
        this.at += 6;
      } else {
        this.fail("invalid escape");
      }
      start = this.at;
    }
    out += text.slice(start, this.at);
    this.at++;
    return out;
  }

  private number(): Json {
    const match = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
    match.lastIndex = this.at;
    const found = match.exec(this.text);
    if (found === null) return this.fail("expecting a value");
    const word = found[0];
    this.at += word.length;
    if (found[2] !== undefined || found[3] !== undefined) {
      const value = Number(word);
      if (!Number.isFinite(value)) this.fail("a number too large");
      return asFloat(value);
    }
    const digits = word.replace("-", "").length;
    if (digits > MAX_DIGITS) this.fail(`a whole number of ${word.length} digits (at most ${MAX_DIGITS})`);
    const value = Number(word);
    return Number.isSafeInteger(value) ? value : BigInt(word);
  }
}

/** A number read with a fraction or an exponent: a float, never a whole number. */
export class JsonFloat {
  constructor(readonly value: number) {}
}

function asFloat(value: number): Json {
  return new JsonFloat(value) as unknown as Json;
}

/** `value` as Python's `json.dumps(value, indent=indent)` writes it. */
export function stringify(value: unknown, indent?: number): string {
  return write(value, indent, "");
}

function write(value: unknown, indent: number | undefined, pad: string): string {
  if (value === null || value === undefined) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return numberText(value);
  if (typeof value === "string") return stringText(value);
  const inner = indent === undefined ? "" : pad + " ".repeat(indent);
  const open = indent === undefined ? "" : `\n${inner}`;
  const close = indent === undefined ? "" : `\n${pad}`;
  const comma = indent === undefined ? ", " : `,\n${inner}`;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[${open}${value.map((item) => write(item, indent, inner)).join(comma)}${close}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  const items = entries.map(([key, item]) => `${stringText(key)}: ${write(item, indent, inner)}`);
  return `{${open}${items.join(comma)}${close}}`;
}

function numberText(value: number): string {
  if (Number.isInteger(value)) return String(value);
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  return String(value);
}

const ESCAPES: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

/** What Python's `json.dumps` escapes: quotes, backslashes and all but printable ASCII. */
const NEEDS_ESCAPE = /["\\]|[^\x20-\x7e]/;
const EVERY_ESCAPE = new RegExp(NEEDS_ESCAPE.source, "g");

function stringText(text: string): string {
  // most texts need no escape; the others are copied in runs by one pass of the expression,
  // not a character at a time (a long text too)
  return NEEDS_ESCAPE.test(text) ? `"${text.replace(EVERY_ESCAPE, escaped)}"` : `"${text}"`;
}

function escaped(ch: string): string {
  return ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
}
