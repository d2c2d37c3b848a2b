// The conformance suite's data in ../specs, as the tests read it.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const SPECS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "specs");

export interface Case {
  readonly id: string;
  readonly rules: readonly string[];
  readonly preset: string;
  readonly position?: readonly string[];
  readonly why: string;
  readonly move?: string;
  readonly deal?: { readonly players: number; readonly dealer: number; readonly rules?: readonly string[] };
  readonly expect: {
    readonly legal?: readonly string[];
    readonly after?: readonly string[];
    readonly illegal?: string;
    readonly dealt?: {
      readonly hand_sizes?: readonly number[];
      readonly draw_pile?: number;
      readonly first_turn?: number;
      readonly cards?: Readonly<Record<string, number>>;
    };
  };
}

export function loadCases(): Case[] {
  const cases: Case[] = [];
  for (const name of readdirSync(join(SPECS, "cases")).sort()) {
    if (!name.endsWith(".json")) continue;
    const file = JSON.parse(readFileSync(join(SPECS, "cases", name), "utf8")) as { cases: Case[] };
    cases.push(...file.cases);
  }
  return cases;
}

export interface GameVector {
  readonly id?: string;
  readonly preset: string;
  readonly rules?: readonly string[];
  readonly start: readonly string[];
  readonly reshuffles: readonly string[];
  readonly turns: readonly (readonly [string, string])[];
}

export function loadGames(): [string, GameVector][] {
  return readdirSync(join(SPECS, "games"))
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => [name, JSON.parse(readFileSync(join(SPECS, "games", name), "utf8")) as GameVector]);
}

export interface PerftPosition {
  readonly id: string;
  readonly preset: string;
  readonly position: readonly string[];
  readonly counts: readonly number[];
}

export function loadPerft(): PerftPosition[] {
  return (JSON.parse(readFileSync(join(SPECS, "perft.json"), "utf8")) as { positions: PerftPosition[] }).positions;
}

export function rulingIds(): string[] {
  const text = readFileSync(join(SPECS, "rulings.md"), "utf8");
  return [...text.matchAll(/^### `([a-z0-9.-]+)`$/gm)].map((m) => m[1] as string);
}
