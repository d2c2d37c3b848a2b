/**
 * Values the package shares with every caller, made so that no caller can change them.
 *
 * @module
 */

/** A map whose `set`, `delete` and `clear` throw a TypeError, as writes to a frozen object do. */
export function frozenMap<K, V>(entries: Iterable<readonly [K, V]>): ReadonlyMap<K, V> {
  const map = new Map(entries);
  const refuse = (): never => {
    throw new TypeError("this map is frozen");
  };
  for (const name of ["set", "delete", "clear"]) Object.defineProperty(map, name, { value: refuse });
  return Object.freeze(map);
}
