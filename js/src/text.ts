/**
 * Values in messages, written in JavaScript's words: `null`, `undefined`, `NaN`, `5n`, `"text"`,
 * `[4, 6, 8]`, `an object`. Any value can be shown, and a long one is cut short.
 *
 * @module
 */

/** The longest text or list shown whole; a longer one is cut short with `...`. */
const SHOWN = 40;

/** `value` as a message shows it (see the module); never throws. */
export function repr(value: unknown): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value.length > SHOWN ? `${value.slice(0, SHOWN)}...` : value);
    case "bigint":
      return value.toString(16).length > SHOWN ? "a whole number of many digits" : `${value}n`;
    case "number":
    case "boolean":
    case "undefined":
      return String(value);
    case "symbol":
      return "a symbol";
    case "function":
      return "a function";
  }
  if (value === null) return "null";
  if (Array.isArray(value)) {
    const items = (value as unknown[]).slice(0, 8).map((item) => (typeof item === "object" && item !== null ? "..." : repr(item)));
    return `[${items.join(", ")}${value.length > 8 ? ", ..." : ""}]`;
  }
  return "an object";
}
