/**
 * Checks of the plain values an exported function is given, so that a wrong one is refused with
 * the package's error before it is used.
 *
 * @module
 */
import { PegsError } from "./errors.js";
import { repr } from "./text.js";

/** `value` if it is a whole number in `min..max`; else the error `make` makes, naming `name`. */
export function wholeIn(
  value: unknown,
  min: number,
  max: number,
  name: string,
  make: new (message: string) => PegsError = PegsError,
): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= min && value <= max) return value;
  throw new make(`${name}: expected a whole number ${min}..${max}, not ${repr(value)}`);
}

/**
 * Whether `value` is an array each of whose items passes `item`. Unlike `Array.prototype.every`,
 * a hole in a sparse array (`[, 1]`, which a JavaScript caller can make and JSON cannot) is an
 * item, `undefined`, and fails.
 */
export function isArrayOf<T>(value: unknown, item: (x: unknown) => x is T): value is T[];
export function isArrayOf(value: unknown, item: (x: unknown) => boolean): value is unknown[];
export function isArrayOf(value: unknown, item: (x: unknown) => boolean): value is unknown[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (!item(value[i])) return false;
  return true;
}
