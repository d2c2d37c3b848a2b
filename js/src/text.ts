/**
 * Values in messages, written as the reference engine writes them (Python's `repr`), so that
 * an error reads the same from either engine.
 *
 * @module
 */
import { quoted } from "./errors.js";

/** `value` as Python's `repr` would show it: strings quoted, arrays as tuples, `None`... */
export function repr(value: unknown): string {
  if (typeof value === "string") return quoted(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : pyFloat(value);
  if (typeof value === "boolean") return value ? "True" : "False";
  if (value === null || value === undefined) return "None";
  if (Array.isArray(value)) {
    const items = value.map(repr);
    return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
  }
  return typeName(value);
}

/** The name of a value's kind, as Python would name the matching type. */
export function typeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "string") return "str";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "bigint") return "int";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (Array.isArray(value)) return "list";
  if (typeof value === "object") return "dict";
  return typeof value;
}

function pyFloat(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  return String(value);
}
