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
