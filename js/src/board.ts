/**
 * Board geometry (`board.sides`, `board.geometry`, `board.pegs`).
 *
 * A location is a number read with the colour (seat) of the peg on it: {@link START} (`-1`) for
 * the seat's start area, `0`..`18N-1` for a main-track hole (hole `18s` is the corner where seat
 * `s`'s side begins), and `1001`..`1005` for holes `h1`..`h5` of the peg's own home lane.
 *
 * @module
 */

/** A peg's location: {@link START}, a track hole, or a home hole (`1001`..`1005`). */
export type Location = number;

/** Track holes on each side of the board. */
export const SIDE_HOLES = 18;
/** Pegs of each colour. */
export const PEGS_PER_SEAT = 5;
/** Holes of each home lane. */
export const HOME_HOLES = 5;
/** The location of a peg in its start area. */
export const START = -1;
/** Home hole `k` is location `HOME_BASE + k`. */
export const HOME_BASE = 1000;
/** The seat counts a board may have. */
export const SEAT_COUNTS: readonly number[] = Object.freeze([4, 6, 8]);

/** The location of home hole `k` (1..5). */
export function home(k: number): Location {
  return HOME_BASE + k;
}

/** Whether a location is a home hole. */
export function isHome(location: Location): boolean {
  return location > HOME_BASE;
}

/** Whether a location is a main-track hole. */
export function isTrack(location: Location): boolean {
  return location >= 0 && location < HOME_BASE;
}

/** Holes in the main-track ring of a board of `players` seats. */
export function trackLength(players: number): number {
  return SIDE_HOLES * players;
}

/** The track hole in front of `seat`'s home lane. */
export function inSpot(seat: number): number {
  return SIDE_HOLES * seat + 3;
}

/** The track hole just outside `seat`'s start area. */
export function comeOutHole(seat: number): number {
  return SIDE_HOLES * seat + 8;
}

/** The team of a seat: teams sit alternately. */
export function teamOf(seat: number): 0 | 1 {
  return (seat % 2) as 0 | 1;
}

/** Whether a location exists on a board of `players` seats. */
export function isValidLocation(location: Location, players: number): boolean {
  return (
    location === START ||
    (location >= 0 && location < trackLength(players)) ||
    (location > HOME_BASE && location <= HOME_BASE + HOME_HOLES)
  );
}

/** The short name of a location: `s`, `h1`..`h5` or the hole number. */
export function locationName(location: Location): string {
  if (location === START) return "s";
  if (location > HOME_BASE) return `h${location - HOME_BASE}`;
  return String(location);
}

/**
 * The location a name stands for (`s`, `h1`..`h5`, a hole number; any case), or `undefined`.
 * A hole number of any size is read (a board then says it has no such hole), up to the
 * 4,300 digits that the reference engine reads.
 */
export function parseLocation(text: string): Location | undefined {
  const word = text.trim().toLowerCase();
  if (word === "s") return START;
  if (/^h[0-9]+$/.test(word)) {
    const k = Number(word.slice(1));
    return k >= 1 && k <= HOME_HOLES ? HOME_BASE + k : undefined;
  }
  if (/^[0-9]{1,4300}$/.test(word)) return Number(word);
  return undefined;
}
