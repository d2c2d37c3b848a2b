/**
 * Positions as text: {@link parsePosition} reads the suite's position format, and
 * {@link positionText} writes it (the text the reference engine's `str(state)` prints).
 *
 * One `key: values` item per line; blank lines and `#` comments are ignored; every item is
 * optional:
 *
 * ```text
 * rules: arizona        # preset (default arizona)
 * rule nine: plain      # a house-rule switch: any field of the rules, as text
 * players: 4            # 4, 6 or 8 (default 4)
 * turn: 0               # the seat to act (default 0)
 * dealer: 3             # default: the seat before `turn`
 * pegs 0: 12 15 h2      # seat 0's pegs; the unlisted ones are in start (s)
 * hand 0: 7 5 K         # seat 0's cards; default none
 * draw: 5 6 7           # the draw pile, top card first
 * discard: 9            # the discard pile, most recent last
 * winner: 0             # the winning team, 0, 1 or none; must agree with the pegs
 * ```
 *
 * A position made by hand may hold fewer cards than the deck: the rest are out of play.
 *
 * @module
 */
import { isHome, isValidLocation, locationName, parseLocation, PEGS_PER_SEAT, START, teamOf } from "./board.js";
import { cardsOf, formatCards, type Rank } from "./cards.js";
import { PositionError, quoted } from "./errors.js";
import { findPreset, PRESETS, RULE_FIELDS, ruleText, withRule, ARIZONA } from "./rules.js";
import { SEED_DIGITS, type GameState } from "./state.js";
import { guarded, sealed } from "./validate.js";

/** The position `text` describes; {@link PositionError} says what is wrong. */
export function parsePosition(text: string): GameState {
  if (typeof text !== "string") throw new PositionError(`a position is text, not ${typeof text}`);
  const items = new Map<string, string>();
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = (raw.split("#", 1)[0] as string).trim();
    if (!line) return;
    const colon = line.indexOf(":");
    const key = (colon < 0 ? line : line.slice(0, colon)).split(/\s+/).filter(Boolean).join(" ");
    if (colon < 0 || !key) {
      throw new PositionError(`line ${index + 1}: expected 'key: values', got ${quoted(raw.trim())}`);
    }
    if (items.has(key)) throw new PositionError(`line ${index + 1}: ${quoted(key)} given twice`);
    items.set(key, line.slice(colon + 1).trim());
  });
  const take = (key: string): string | undefined => {
    const value = items.get(key);
    items.delete(key);
    return value;
  };
  const digits = (key: string): string | undefined => {
    const value = take(key);
    if (value !== undefined && !/^-?[0-9]+$/.test(value)) {
      throw new PositionError(`${key}: expected a whole number, got ${quoted(value)}`);
    }
    return value;
  };
  const int = (key: string, fallback: number): number => Number(digits(key) ?? fallback);
  let rules = findPreset(take("rules") ?? "arizona");
  for (const key of [...items.keys()]) {
    if (key.startsWith("rule ")) rules = withRule(rules, key.slice(5), take(key) as string);
  }
  const players = int("players", 4);
  if (!rules.playerCounts.includes(players)) {
    throw new PositionError(
      `players: preset ${quoted(rules.name)} allows (${rules.playerCounts.join(", ")}), not ${players}`,
    );
  }
  const turn = int("turn", 0);
  if (turn < 0 || turn >= players) throw new PositionError(`turn: no seat ${turn} among ${players}`);
  const dealer = int("dealer", (turn + players - 1) % players);
  if (dealer < 0 || dealer >= players) throw new PositionError(`dealer: no seat ${dealer} among ${players}`);
  const seed = seedOfText(digits("seed") ?? "0");
  const pegs: number[][] = [];
  const hands: Rank[][] = [];
  for (let seat = 0; seat < players; seat++) {
    const words = (take(`pegs ${seat}`) ?? "").split(/\s+/).filter(Boolean);
    const locs = words.map((word) => {
      const location = parseLocation(word);
      if (location === undefined) {
        throw new PositionError(`not a location: ${quoted(word)} (use s, h1..h5 or a hole number)`);
      }
      return location;
    });
    if (locs.length > PEGS_PER_SEAT) {
      throw new PositionError(`pegs ${seat}: a seat has ${PEGS_PER_SEAT} pegs, not ${locs.length}`);
    }
    while (locs.length < PEGS_PER_SEAT) locs.push(START);
    pegs.push(locs.sort((a, b) => a - b));
    hands.push(cards(take(`hand ${seat}`) ?? "").sort((a, b) => a - b));
  }
  const draw = cards(take("draw") ?? "");
  const discard = cards(take("discard") ?? "");
  const winner = winnerOf(pegs);
  const said = take("winner");
  if (said !== undefined && said !== (winner === null ? "none" : String(winner))) {
    throw new PositionError(`winner: the pegs say ${winner === null ? "none" : winner}, not ${quoted(said)}`);
  }
  if (items.size) throw new PositionError(`unknown item(s): ${[...items.keys()].sort().join(", ")}`);
  checkPegs(pegs, players);
  return sealed({ rules, pegs, hands, drawPile: draw, discardPile: discard, turn, dealer, seed, reshuffles: 0, ply: 0, winner });
}

/** A seed line's digits, exactly, refused beyond {@link SEED_DIGITS} digits before it is read. */
function seedOfText(text: string): bigint {
  if (text.replace("-", "").length > SEED_DIGITS) {
    throw new PositionError(`seed: a whole number of more than ${SEED_DIGITS} digits`);
  }
  return BigInt(text);
}

function cards(text: string): Rank[] {
  return cardsOf(text, (word) => new PositionError(`not a card: ${quoted(word)} (use A 2-10 J Q K JK)`));
}

function winnerOf(pegs: readonly (readonly number[])[]): 0 | 1 | null {
  for (const team of [0, 1] as const) {
    if (pegs.every((locs, seat) => teamOf(seat) !== team || locs.every(isHome))) return team;
  }
  return null;
}

function checkPegs(pegs: readonly (readonly number[])[], players: number): void {
  const seen = new Map<string, number>();
  pegs.forEach((locs, seat) => {
    for (const p of locs) {
      if (!isValidLocation(p, players)) throw new PositionError(`seat ${seat}: no hole ${p} on a ${players}-seat board`);
      if (p === START) continue;
      const key = `${isHome(p) ? seat : -1},${p}`;
      const other = seen.get(key);
      if (other !== undefined) throw new PositionError(`two pegs on hole ${p} (seats ${other} and ${seat})`);
      seen.set(key, seat);
    }
  });
}

/**
 * The position in the text form {@link parsePosition} reads, exactly as the reference engine
 * writes it: `rules`, the house rules that differ from the preset, `players`, `turn`, `dealer`,
 * every seat's pegs and hand, `draw`, `discard`, and `winner` once the game is over.
 */
export function positionText(state: GameState): string {
  return guarded(state, () => writePosition(state));
}

function writePosition(state: GameState): string {
  const base = PRESETS.get(state.rules.name) ?? ARIZONA;
  const lines = [`rules: ${base.name}`];
  for (const [field, key] of RULE_FIELDS) {
    if (JSON.stringify(state.rules[key]) !== JSON.stringify(base[key])) {
      lines.push(`rule ${field}: ${ruleText(state.rules, field)}`);
    }
  }
  lines.push(`players: ${state.pegs.length}`, `turn: ${state.turn}`, `dealer: ${state.dealer}`);
  state.pegs.forEach((locs, seat) => lines.push(`pegs ${seat}: ${locs.map(locationName).join(" ")}`));
  state.hands.forEach((hand, seat) => lines.push(`hand ${seat}: ${formatCards(hand)}`.trimEnd()));
  lines.push(`draw: ${formatCards(state.drawPile)}`.trimEnd());
  lines.push(`discard: ${formatCards(state.discardPile)}`.trimEnd());
  if (state.winner !== null) lines.push(`winner: ${state.winner}`);
  return lines.join("\n");
}
