/**
 * The board as an SVG picture: {@link svg}, the twin of the reference engine's
 * `pegs_rules.render.svg`. Import it from its own entry point, so that a page that does not
 * draw ships none of it:
 *
 * ```ts
 * import { legalMoves, newGame } from "pegs-rules";
 * import { svg } from "pegs-rules/render";
 * const state = newGame(4, { seed: 1n });
 * const picture = svg(state, legalMoves(state)[0], { size: 640 }); // element.innerHTML = picture
 * ```
 *
 * For the same state, move, highlighted holes and size it returns the reference's text byte
 * for byte: every coordinate comes from the same floating-point operations in the same order,
 * and is written as Python writes it (two decimals, halves to even). The board follows `board.geometry`: the track is a regular polygon with one side of
 * 18 holes a seat, numbered clockwise from 0; seat `s`'s side begins at corner hole `18s`, its
 * home lane turns off at its in-spot `18s + 3` and its start area sits beside its come-out hole
 * `18s + 8`.
 *
 * The elements carry classes that a page and its tests can count: `hole track`,
 * `hole home seat-S` and `hole start seat-S` for holes, `peg seat-S` for pegs, `move-arrow` for
 * the steps of a move and `highlight` for highlighted holes. Holes and pegs also say where they
 * are, as a step of move notation does, so that a page can make them clickable: `data-loc` is
 * the location's name (`12`, `h2`, `s`) and `data-seat` the seat whose peg, home lane or start
 * area it is (track holes belong to no seat and have no `data-seat`).
 *
 * @module
 */
import { isArrayOf } from "./args.js";
import {
  comeOutHole,
  HOME_BASE,
  HOME_HOLES,
  PEGS_PER_SEAT,
  SEAT_COUNTS,
  SIDE_HOLES,
  START,
  home,
  inSpot,
  isHome,
  isValidLocation,
  locationName,
  teamOf,
  trackLength,
  type Location,
} from "./board.js";
import { isRank } from "./cards.js";
import { PositionError } from "./errors.js";
import { moveText, type Move, type Step } from "./moves.js";
import type { GameState } from "./state.js";
import { repr } from "./text.js";

/**
 * Peg colour of each seat: the Okabe-Ito palette, which stays distinct for colour-blind
 * viewers; pegs also carry their seat number, so colour is never the only cue. Even (team 0)
 * seats have the cool colours, odd (team 1) the warm ones.
 */
export const SEAT_COLOURS: readonly string[] = Object.freeze([
  "#0072B2", // blue
  "#E69F00", // orange
  "#009E73", // bluish green
  "#CC79A7", // reddish purple
  "#56B4E9", // sky blue
  "#D55E00", // vermillion
  "#4D4D4D", // dark grey
  "#F0E442", // yellow
]);

const NAMES = ["blue", "orange", "green", "purple", "sky blue", "vermillion", "grey", "yellow"];

/** What {@link svg} draws from a game: a {@link GameState} or a player's view. */
export type Drawable = Pick<GameState, "pegs" | "turn" | "ply" | "winner">;

/** Options of {@link svg}. */
export interface SvgOptions {
  /** Track holes to ring (none by default). */
  readonly highlight?: Iterable<number>;
  /** Whether to number the corners, in-spots and come-out holes (yes by default). */
  readonly labels?: boolean;
  /** The picture's width in pixels, a whole number of 50 or more (520 by default). */
  readonly size?: number;
}

/**
 * The position as a standalone SVG document `size` pixels wide, exactly as the reference
 * engine's `pegs_rules.render.svg` draws it.
 *
 * `move` (a move in this state) is drawn as arrows from each step's source to its destination,
 * numbered 1 and 2 for the parts of a split; `highlight` lists track holes to ring; `labels`
 * adds hole numbers for corners, in-spots and come-out holes (seat names are always shown).
 * Throws {@link PositionError} for a state or move that cannot be drawn on its board, a
 * highlight that is not a track hole or a size that is not a whole number of at least 50.
 */
export function svg(state: Drawable, move?: Move | null, options: SvgOptions = {}): string {
  checkState(state);
  checkMove(state, move);
  const { highlight = [], labels = true, size = 520 } = options ?? {};
  if (!Number.isSafeInteger(size) || size < 50) {
    throw new PositionError(`size must be a whole number of pixels >= 50, not ${repr(size)}`);
  }
  const holes = trackLength(state.pegs.length);
  if (typeof (highlight as Partial<Iterable<unknown>> | null)?.[Symbol.iterator] !== "function") {
    throw new PositionError(`highlight must list track holes (0..${holes - 1}), not ${repr(highlight)}`);
  }
  const marked = new Set<number>();
  for (const hole of highlight as Iterable<unknown>) {
    if (!Number.isInteger(hole) || (hole as number) < 0 || (hole as number) >= holes) {
      throw new PositionError(`cannot highlight ${repr(hole)}: track holes are 0..${holes - 1}`);
    }
    marked.add(hole as number);
  }
  const sorted = [...marked].sort((a, b) => a - b);
  return new Drawing(state, move ?? null, sorted, Boolean(labels), size).document();
}

// --------------------------------------------------------------------------
// Checks
// --------------------------------------------------------------------------

function checkState(state: unknown): asserts state is Drawable {
  if (typeof state !== "object" || state === null) {
    throw new PositionError(`expected a game state, not ${repr(state)}`);
  }
  const { pegs, turn, ply, winner } = state as Record<string, unknown>;
  if (!Array.isArray(pegs) || !SEAT_COUNTS.includes(pegs.length)) {
    throw new PositionError("cannot draw a state without the pegs of 4, 6 or 8 seats");
  }
  pegs.forEach((locs: unknown, seat) => {
    const ok =
      Array.isArray(locs) &&
      locs.length <= PEGS_PER_SEAT &&
      isArrayOf(locs, (p) => Number.isInteger(p) && isValidLocation(p as number, pegs.length));
    if (!ok) throw new PositionError(`cannot draw seat ${seat}'s pegs: not all on this board`);
  });
  const turnOk = Number.isInteger(turn) && (turn as number) >= 0 && (turn as number) < pegs.length;
  const plyOk = Number.isInteger(ply) && (ply as number) >= 0 && (ply as number) < 1e9;
  if (!turnOk || !plyOk || !(winner === null || winner === 0 || winner === 1)) {
    throw new PositionError("cannot draw a state whose turn, ply or winner is impossible");
  }
}

function checkMove(state: Drawable, move: unknown): asserts move is Move | null | undefined {
  if (move === null || move === undefined) return;
  const m = move as Partial<Record<string, unknown>>;
  const kind = typeof move === "object" ? m["action"] : undefined;
  const ok =
    kind === "pass" || ((kind === "discard" || kind === "play") && isRank(m["card"]));
  if (!ok || (kind === "play" && !Array.isArray(m["steps"]))) {
    throw new PositionError(`expected a move (a play, discard or pass), not ${repr(move)}`);
  }
  if (kind !== "play") return;
  const players = state.pegs.length;
  for (const s of m["steps"] as unknown[]) {
    const step = (typeof s === "object" && s !== null ? s : {}) as Partial<Record<string, unknown>>;
    const ok =
      Number.isInteger(step["seat"]) &&
      (step["seat"] as number) >= 0 &&
      (step["seat"] as number) < players &&
      [step["from"], step["to"]].every((x) => Number.isInteger(x) && isValidLocation(x as number, players));
    if (!ok) throw new PositionError(`cannot draw step ${stepRepr(s)} on a ${players}-seat board`);
  }
}

/** A step as the reference engine's messages show it: `Step(seat=0, src=12, dst=80)`. */
function stepRepr(step: unknown): string {
  if (typeof step !== "object" || step === null) return repr(step);
  const { seat, from, to } = step as Partial<Record<string, unknown>>;
  return `Step(seat=${repr(seat)}, src=${repr(from)}, dst=${repr(to)})`;
}

// --------------------------------------------------------------------------
// Geometry, in hole-spacing units (y grows downwards, so clockwise on screen is the
// direction of increasing angle). Every length comes from products, sums and square roots,
// which IEEE 754 rounds exactly, so that both engines compute the same bits.
// --------------------------------------------------------------------------

type Point = readonly [number, number];

const IN_SPOT_OFFSET = inSpot(0);
const COME_OUT_OFFSET = comeOutHole(0);
/** Distance between home-lane holes (and from the in-spot to h1). */
const LANE_GAP = 1.0;
/** How far outside the track the centre of a start area sits. */
const NEST_OUT = 2.35;
/** Offset of the four outer start holes from the start area's centre. */
const NEST_SPREAD = 0.72;
const NEST_RADIUS = 1.45;
/** Half the width of the tinted band under each side's holes. */
const BAND = 0.78;
/** Where a seat's name stands: how far along its side, and how far outside. */
const LABEL_ALONG = 13.5;
const LABEL_OUT = 1.75;
const MARGIN = 0.6;
const HEADER = 2.9;
const LEGEND_ROW = 1.5;
const LEGEND_FONT = 0.66;
const ARROW = "#111111";
const HIGHLIGHT = "#FFE14D";
const HIGHLIGHT_EDGE = "#7A5A00";
const HOLE_R = 0.2;
const PEG_R = 0.42;
const INK = "#222222";
const HOLE_STYLE = { fill: "#FFFFFF", stroke: "#333333" };
/** Start hole `i`: the centre, then the four around it (dice-five pattern). */
const START_OFFSETS: readonly Point[] = [[0, 0], [-1, -1], [1, -1], [1, 1], [-1, 1]];

/** Positions of every hole of a `players`-seat board. */
class Geometry {
  readonly inradius: number;

  constructor(readonly players: number) {
    this.inradius = SIDE_HOLES / 2 / Math.tan(Math.PI / players);
  }

  outward(seat: number): Point {
    const angle = Math.PI / 2 + (2 * Math.PI * seat) / this.players;
    return [Math.cos(angle), Math.sin(angle)];
  }

  /** The point `along` holes from seat's corner and `out` units outside its side. */
  at(seat: number, along: number, out: number): Point {
    const [ox, oy] = this.outward(seat);
    const a = along - SIDE_HOLES / 2;
    const r = this.inradius + out;
    return [ox * r + -oy * a, oy * r + ox * a];
  }

  track(hole: number): Point {
    return this.at(Math.floor(hole / SIDE_HOLES), hole % SIDE_HOLES, 0.0);
  }

  home(seat: number, k: number): Point {
    return this.at(seat, IN_SPOT_OFFSET, -k * LANE_GAP);
  }

  nest(seat: number): Point {
    return this.at(seat, COME_OUT_OFFSET, NEST_OUT);
  }

  start(seat: number, i: number): Point {
    const [a, o] = START_OFFSETS[i] as Point;
    return this.at(seat, COME_OUT_OFFSET + a * NEST_SPREAD, NEST_OUT + o * NEST_SPREAD);
  }

  /** A point `distance` outside corner `18 * seat`, on the corner's bisector. */
  cornerOutside(seat: number, distance: number): Point {
    const [x, y] = this.at(seat, 0, 0);
    const norm = length(x, y);
    return [x + (x / norm) * distance, y + (y / norm) * distance];
  }

  location(seat: number, location: Location): Point {
    if (location === START) return this.nest(seat);
    if (isHome(location)) return this.home(seat, location - HOME_BASE);
    return this.track(location);
  }

  /** `[left, top, right, bottom]` of everything drawn on and around the board. */
  bounds(): [number, number, number, number] {
    const points: Point[] = [];
    for (let seat = 0; seat < this.players; seat++) {
      for (const a of [-1.5, 1.5]) {
        for (const o of [-1.5, 1.5]) points.push(this.at(seat, COME_OUT_OFFSET + a, NEST_OUT + o));
      }
      for (const a of [8.5, 18.5]) {
        for (const o of [-0.8, LABEL_OUT + 1.5]) points.push(this.at(seat, a, o));
      }
      points.push(this.cornerOutside(seat, 2.0));
      points.push(this.at(seat, IN_SPOT_OFFSET, 2.0));
    }
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    return [least(xs), least(ys), most(xs), most(ys)];
  }
}

// --------------------------------------------------------------------------
// The document
// --------------------------------------------------------------------------

/**
 * The lines drawing every hole of a board, by seat count and picture size: they depend on
 * nothing else, and are most of the drawing's work.
 */
const HOLE_LINES = new Map<string, readonly string[]>();
const HOLE_LINES_KEPT = 32;

type Attrs = Readonly<Record<string, string>>;
type LegendItem = readonly [kind: string, words: string];

/** One SVG document under construction; coordinates are in hole-spacing units. */
class Drawing {
  readonly geo: Geometry;
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
  readonly boardBottom: number;
  readonly scale: number;
  readonly legendRows: LegendItem[][];
  readonly out: string[] = [];

  constructor(
    readonly state: Drawable,
    readonly move: Move | null,
    readonly marked: readonly number[],
    readonly labels: boolean,
    readonly size: number,
  ) {
    this.geo = new Geometry(state.pegs.length);
    const [left, top, right, bottom] = this.geo.bounds();
    this.left = left - MARGIN;
    this.width = right - left + 2 * MARGIN;
    this.legendRows = rows(this.legendItems(), this.width - 2 * MARGIN);
    this.boardBottom = bottom;
    this.top = top - HEADER;
    this.height = bottom - this.top + MARGIN + LEGEND_ROW * this.legendRows.length;
    this.scale = size / this.width;
  }

  // -- coordinates and primitives ---------------------------------------

  x(x: number): string {
    return num((x - this.left) * this.scale);
  }

  y(y: number): string {
    return num((y - this.top) * this.scale);
  }

  d(length: number): string {
    return num(length * this.scale);
  }

  xy(p: Point): string {
    return `${this.x(p[0])},${this.y(p[1])}`;
  }

  circle(p: Point, r: number, attributes: Attrs): void {
    this.out.push(`<circle cx="${this.x(p[0])}" cy="${this.y(p[1])}" r="${this.d(r)}"${attrs(attributes)}/>`);
  }

  hole(p: Point, kind: string, where: Attrs = {}): void {
    this.circle(p, HOLE_R, { class: kind, "stroke-width": this.d(0.07), ...where, ...HOLE_STYLE });
  }

  polygon(points: readonly Point[], attributes: Attrs): void {
    this.out.push(`<polygon points="${points.map((p) => this.xy(p)).join(" ")}"${attrs(attributes)}/>`);
  }

  label(p: Point, words: string, font: number, attributes: Attrs, anchor = "middle"): void {
    this.out.push(
      `<text x="${this.x(p[0])}" y="${this.y(p[1])}" font-size="${this.d(font)}" ` +
        `text-anchor="${anchor}" dominant-baseline="central"${attrs(attributes)}>${esc(words)}</text>`,
    );
  }

  // -- the document ------------------------------------------------------

  document(): string {
    const width = this.size;
    const height = roundHalfEven(this.height * this.scale).toFixed(0);
    this.out.push('<?xml version="1.0" encoding="UTF-8"?>');
    this.out.push(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
        `viewBox="0 0 ${width} ${height}" ` +
        'font-family="DejaVu Sans, Verdana, Arial, Helvetica, sans-serif">',
    );
    this.out.push(`<title>${esc(this.title())}</title>`);
    this.out.push(`<rect width="${width}" height="${height}" fill="#FFFFFF"/>`);
    this.header();
    this.direction();
    for (let seat = 0; seat < this.geo.players; seat++) this.side(seat);
    this.holes();
    if (this.labels) this.holeNumbers();
    this.pegs();
    this.arrows();
    this.legend();
    this.out.push("</svg>");
    return this.out.join("\n") + "\n";
  }

  title(): string {
    const state = this.state;
    const players = state.pegs.length;
    const status = state.winner === null ? `seat ${state.turn} to act` : `team ${state.winner} has won`;
    const teams = [0, 1]
      .map((t) => `team ${t}: seats ${seatsOf(players, t).join(" ")}`)
      .join("; ");
    const pegs = state.pegs
      .map((locs, seat) => `seat ${seat} (${NAMES[seat]}): ${locs.map(locationName).join(" ")}`)
      .join("; ");
    let words = `Pegs and Jokers board: ${players} players, ply ${state.ply}, ${status} (${teams})`;
    words += `. Pegs (s = start, h1-h5 = home lane): ${pegs}.`;
    if (this.move !== null) words += ` Move: ${describe(this.move)}.`;
    return words;
  }

  header(): void {
    const state = this.state;
    const middle = this.left + this.width / 2;
    const status =
      state.winner === null ? `seat ${state.turn} (team ${teamOf(state.turn)}) to act` : `team ${state.winner} has won`;
    const line = `${state.pegs.length} players \u00b7 ply ${state.ply} \u00b7 ${status}`;
    this.label([middle, this.top + 0.9], line, 0.9, { "font-weight": "bold", fill: INK });
    if (this.move !== null) {
      this.label([middle, this.top + 2.0], `move: ${moveText(this.move)}`, 0.85, { fill: INK });
    }
  }

  /** The tinted band of `seat`'s side, its home lane and its start area. */
  side(seat: number): void {
    const geo = this.geo;
    const colour = SEAT_COLOURS[seat] as string;
    const tint = mix(colour, 0.3);
    // The band runs from half a hole before the corner (on the previous side) to half a hole
    // before the next corner, so that the corner hole, where this side begins, lies inside it.
    const prev = (seat - 1 + geo.players) % geo.players;
    const mitre = BAND / Math.cos(Math.PI / geo.players);
    const band = [
      geo.at(prev, SIDE_HOLES - 0.5, BAND),
      geo.cornerOutside(seat, mitre),
      geo.at(seat, SIDE_HOLES - 0.5, BAND),
      geo.at(seat, SIDE_HOLES - 0.5, -BAND),
      geo.cornerOutside(seat, -mitre),
      geo.at(prev, SIDE_HOLES - 0.5, -BAND),
    ];
    this.polygon(band, { class: `side seat-${seat}`, fill: tint });
    // Home lane: a tinted channel from the in-spot inwards.
    const a = geo.at(seat, IN_SPOT_OFFSET, 0);
    const b = geo.home(seat, HOME_HOLES);
    this.out.push(
      `<line class="lane seat-${seat}" x1="${this.x(a[0])}" y1="${this.y(a[1])}" ` +
        `x2="${this.x(b[0])}" y2="${this.y(b[1])}" stroke="${tint}" ` +
        `stroke-width="${this.d(1.1)}" stroke-linecap="round"/>`,
    );
    // Start area: a tinted disc outside the come-out hole, joined to it.
    const comeOut = geo.at(seat, COME_OUT_OFFSET, 0);
    const nest = geo.nest(seat);
    this.out.push(
      `<line x1="${this.x(comeOut[0])}" y1="${this.y(comeOut[1])}" ` +
        `x2="${this.x(nest[0])}" y2="${this.y(nest[1])}" stroke="${colour}" ` +
        `stroke-width="${this.d(0.3)}"/>`,
    );
    this.circle(nest, NEST_RADIUS, {
      class: `start-area seat-${seat}`,
      fill: mix(colour, 0.15),
      stroke: colour,
      "stroke-width": this.d(0.12),
    });
    this.seatLabel(seat);
  }

  /** `seat S · team T` beside the side, along it and upright; "to act" below. */
  seatLabel(seat: number): void {
    const geo = this.geo;
    const [ox, oy] = geo.outward(seat);
    let angle = pyMod(Math.atan2(oy, ox) * DEGREES - 90 + 180, 360) - 180;
    if (angle > 90) angle -= 180;
    else if (angle <= -90) angle += 180;
    const lines = [`seat ${seat} \u00b7 team ${teamOf(seat)}`];
    const acting = this.state.winner === null && seat === this.state.turn;
    if (acting) lines.push("to act");
    // Lines stack away from the board whichever way the text is turned.
    const flip = Math.cos(angle * RADIANS) * oy - Math.sin(angle * RADIANS) * ox;
    lines.forEach((words, i) => {
      const row = flip > 0 ? i : lines.length - 1 - i;
      const p = geo.at(seat, LABEL_ALONG, LABEL_OUT + 0.95 * row);
      this.out.push(
        `<text class="seat-label" x="${this.x(p[0])}" y="${this.y(p[1])}" ` +
          `font-size="${this.d(0.78)}" text-anchor="middle" dominant-baseline="central" ` +
          `font-weight="${acting ? "bold" : "normal"}" fill="${INK}" ` +
          `transform="rotate(${num(angle)} ${this.x(p[0])} ${this.y(p[1])})">` +
          `${esc(words)}</text>`,
      );
    });
  }

  /** A circular arrow in the middle of the board: pegs travel clockwise. */
  direction(): void {
    const r = 2.0;
    const first = 200 * RADIANS;
    const last = 500 * RADIANS;
    const count = 24;
    const arc: Point[] = [];
    for (let i = 0; i <= count; i++) {
      const t = first + ((last - first) * i) / count;
      arc.push([r * Math.cos(t), r * Math.sin(t)]);
    }
    const tangent: Point = [-Math.sin(last), Math.cos(last)];
    arc[count] = this.head(arc[count] as Point, tangent, 0.6, "#9A9A9A");
    this.out.push(
      `<polyline class="direction" points="${arc.map((p) => this.xy(p)).join(" ")}" fill="none" ` +
        `stroke="#9A9A9A" stroke-width="${this.d(0.14)}"/>`,
    );
    this.label([0, 0], "clockwise", 0.6, { fill: "#7A7A7A" });
  }

  holes(): void {
    for (const hole of this.marked) {
      this.circle(this.geo.track(hole), 0.72, {
        class: "highlight",
        fill: HIGHLIGHT,
        stroke: HIGHLIGHT_EDGE,
        "stroke-width": this.d(0.16),
      });
    }
    // Every hole and its marks: the same lines for every board of this size, drawn once.
    const key = `${this.geo.players} ${this.size}`;
    const kept = HOLE_LINES.get(key);
    if (kept !== undefined) {
      this.out.push(...kept);
      return;
    }
    const first = this.out.length;
    this.everyHole();
    if (HOLE_LINES.size >= HOLE_LINES_KEPT) HOLE_LINES.clear();
    HOLE_LINES.set(key, this.out.slice(first));
  }

  everyHole(): void {
    const geo = this.geo;
    for (let hole = 0; hole < trackLength(geo.players); hole++) {
      const p = geo.track(hole);
      const seat = Math.floor(hole / SIDE_HOLES);
      const k = hole % SIDE_HOLES;
      if (k === COME_OUT_OFFSET) this.ring(p, SEAT_COLOURS[seat] as string, "come-out-mark");
      else if (k === IN_SPOT_OFFSET) this.diamond(p, SEAT_COLOURS[seat] as string, "in-spot-mark");
      this.hole(p, "hole track", { "data-loc": String(hole) });
    }
    for (let seat = 0; seat < geo.players; seat++) {
      for (let k = 1; k <= HOME_HOLES; k++) this.hole(geo.home(seat, k), `hole home seat-${seat}`, where(seat, home(k)));
      for (let i = 0; i < PEGS_PER_SEAT; i++) this.hole(geo.start(seat, i), `hole start seat-${seat}`, where(seat, START));
    }
  }

  ring(p: Point, colour: string, kind: string): void {
    this.circle(p, 0.5, { class: kind, fill: "#FFFFFF", stroke: colour, "stroke-width": this.d(0.16) });
  }

  diamond(p: Point, colour: string, kind: string): void {
    const r = 0.62;
    const points: Point[] = [
      [p[0], p[1] - r],
      [p[0] + r, p[1]],
      [p[0], p[1] + r],
      [p[0] - r, p[1]],
    ];
    this.polygon(points, { class: kind, fill: "#FFFFFF", stroke: colour, "stroke-width": this.d(0.14) });
  }

  holeNumbers(): void {
    const geo = this.geo;
    const style = { class: "hole-number", fill: INK };
    for (let seat = 0; seat < geo.players; seat++) {
      const base = seat * SIDE_HOLES;
      this.label(geo.cornerOutside(seat, 1.3), String(base), 0.62, style);
      this.label(geo.at(seat, IN_SPOT_OFFSET, 1.3), String(base + IN_SPOT_OFFSET), 0.62, style);
      this.label(geo.at(seat, COME_OUT_OFFSET, -1.25), String(base + COME_OUT_OFFSET), 0.62, style);
      this.label(geo.home(seat, HOME_HOLES + 1), "home", 0.52, { fill: "#555555" });
    }
  }

  pegs(): void {
    const geo = this.geo;
    this.state.pegs.forEach((locs, seat) => {
      const colour = SEAT_COLOURS[seat] as string;
      let waiting = 0;
      for (const loc of locs) {
        const p = loc === START ? geo.start(seat, waiting++) : geo.location(seat, loc);
        this.circle(p, PEG_R, {
          class: `peg seat-${seat}`,
          fill: colour,
          stroke: "#1A1A1A",
          "stroke-width": this.d(0.07),
          ...where(seat, loc),
        });
        this.label(p, String(seat), 0.54, { class: "peg-label", fill: ink(colour), "font-weight": "bold" });
      }
    });
  }

  arrows(): void {
    const move = this.move;
    if (move?.action !== "play") return;
    move.steps.forEach((step, i) => {
      // the way back of a step already drawn (a swap) bows the other way, not over it
      const back = move.steps.slice(0, i).some((s) => s.from === step.to && s.to === step.from);
      this.arrow(step, move.steps.length > 1 ? i + 1 : null, back);
    });
  }

  /**
   * A curved arrow from the step's source to its destination, bowed into the board (or,
   * `outwards`, away from its middle).
   */
  arrow(step: Step, number: number | null, outwards: boolean): void {
    const geo = this.geo;
    // A peg leaving start sets off from the middle of its start area.
    const a = step.from === START ? geo.start(step.seat, 0) : geo.location(step.seat, step.from);
    const b = geo.location(step.seat, step.to);
    const mx = (a[0] + b[0]) / 2;
    const my = (a[1] + b[1]) / 2;
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const span = length(dx, dy) || 1.0;
    let nx = -dy / span;
    let ny = dx / span;
    if ((nx * mx + ny * my > 0) !== outwards) {
      // bow towards the middle of the board
      nx = -nx;
      ny = -ny;
    }
    let bulge = Math.min(Math.max(0.35 * span, 1.6), 4.0);
    if (step.from === START && span < 4) bulge = 0.0; // straight out to the come-out hole
    const c: Point = [mx + nx * bulge, my + ny * bulge];
    const start = towards(a, bulge ? c : b, PEG_R + 0.05);
    const tip = towards(b, bulge ? c : a, 0.55);
    this.out.push(`<g class="move-arrow step-${number ?? 1}">`);
    this.circle(b, 0.5, {
      class: "landing",
      fill: "none",
      stroke: ARROW,
      "stroke-dasharray": this.d(0.2),
      "stroke-width": this.d(0.08),
    });
    // The arrowhead first (it reports where the shaft must stop), shaft and halo under it.
    const headAt = this.out.length;
    const base = this.head(tip, [tip[0] - c[0], tip[1] - c[1]], 0.8, ARROW, true);
    const path = `M${this.xy(start)} Q${this.xy(c)} ${this.xy(base)}`;
    this.out.splice(
      headAt,
      0,
      `<path d="${path}" fill="none" stroke="#FFFFFF" stroke-width="${this.d(0.5)}" stroke-linecap="round"/>`,
      `<path d="${path}" fill="none" stroke="${ARROW}" stroke-width="${this.d(0.24)}" stroke-linecap="round"/>`,
    );
    if (number !== null) {
      const apex: Point = [
        0.25 * start[0] + 0.5 * c[0] + 0.25 * base[0],
        0.25 * start[1] + 0.5 * c[1] + 0.25 * base[1],
      ];
      const badge: Point = [apex[0] + nx * 0.75, apex[1] + ny * 0.75];
      this.circle(badge, 0.5, { fill: ARROW, stroke: "#FFFFFF", "stroke-width": this.d(0.1) });
      this.label(badge, String(number), 0.62, { "font-weight": "bold", fill: "#FFFFFF" });
    }
    this.out.push("</g>");
  }

  /** Draw an arrowhead at `tip` pointing along `direction`; return its base. */
  head(tip: Point, direction: Point, size: number, colour: string, halo = false): Point {
    const norm = length(direction[0], direction[1]) || 1.0;
    const ux = direction[0] / norm;
    const uy = direction[1] / norm;
    const base: Point = [tip[0] - ux * size * 0.8, tip[1] - uy * size * 0.8];
    const back: Point = [tip[0] - ux * size, tip[1] - uy * size];
    const w = size * 0.5;
    const points: Point[] = [tip, [back[0] - uy * w, back[1] + ux * w], base, [back[0] + uy * w, back[1] - ux * w]];
    const halos = halo ? { stroke: "#FFFFFF", "stroke-width": this.d(0.1), "stroke-linejoin": "round" } : {};
    this.polygon(points, { fill: colour, ...halos });
    return base;
  }

  legendItems(): LegendItem[] {
    const items: LegendItem[] = [
      ["come-out", "come-out hole (leave start)"],
      ["in-spot", "in-spot (turn into home)"],
      ["peg", "peg of seat S"],
    ];
    if (this.move?.action === "play") {
      items.push(["arrow", this.move.steps.length === 1 ? "move" : "move, parts 1 and 2 in order"]);
    }
    if (this.marked.length) items.push(["highlight", "highlighted hole"]);
    return items;
  }

  legend(): void {
    let y = this.boardBottom + MARGIN + LEGEND_ROW / 2;
    const middle = this.left + this.width / 2;
    for (const row of this.legendRows) {
      let x = middle - rowWidth(row) / 2;
      for (const [kind, words] of row) {
        const p: Point = [x + 0.7, y];
        if (kind === "come-out") {
          this.ring(p, "#555555", "legend");
          this.hole(p, "legend");
        } else if (kind === "in-spot") {
          this.diamond(p, "#555555", "legend");
          this.hole(p, "legend");
        } else if (kind === "peg") {
          this.circle(p, PEG_R, { fill: "#BBBBBB", stroke: "#1A1A1A", "stroke-width": this.d(0.07) });
          this.label(p, "S", 0.54, { fill: "#111111", "font-weight": "bold" });
        } else if (kind === "arrow") {
          const a: Point = [p[0] - 0.5, p[1] + 0.1];
          const base = this.head([p[0] + 0.55, p[1] + 0.1], [1.0, 0.0], 0.6, ARROW);
          this.out.push(
            `<line x1="${this.x(a[0])}" y1="${this.y(a[1])}" x2="${this.x(base[0])}" ` +
              `y2="${this.y(base[1])}" stroke="${ARROW}" stroke-width="${this.d(0.2)}"/>`,
          );
        } else {
          this.circle(p, 0.6, { fill: HIGHLIGHT, stroke: HIGHLIGHT_EDGE, "stroke-width": this.d(0.16) });
          this.hole(p, "legend");
        }
        this.label([x + 1.55, y], words, LEGEND_FONT, { fill: INK }, "start");
        x += itemWidth(words);
      }
      y += LEGEND_ROW;
    }
  }
}

// --------------------------------------------------------------------------
// Helpers
// --------------------------------------------------------------------------

/** Degrees in a radian and radians in a degree, as Python's `math.degrees`/`radians` take them. */
const DEGREES = 180 / Math.PI;
const RADIANS = Math.PI / 180;

function seatsOf(players: number, team: number): number[] {
  return Array.from({ length: players }, (_, seat) => seat).filter((seat) => teamOf(seat) === team);
}

/** The move in notation followed by a reading in plain words. */
function describe(move: Move): string {
  const text = moveText(move);
  if (move.action === "discard") return `${text} (no peg moves)`;
  if (move.action === "pass") return `${text} (no cards, no peg moves)`;
  const parts = move.steps.map((s) => `seat ${s.seat} peg ${place(s.from)} -> ${place(s.to)}`);
  if (parts.length === 1) return `${text} = ${parts[0]}`;
  return `${text} = ${parts.map((part, i) => `(${i + 1}) ${part}`).join(", then ")}`;
}

function place(location: Location): string {
  return location === START ? "start" : locationName(location);
}

/** The `data-seat` and `data-loc` attributes of a peg or a seat's own hole. */
function where(seat: number, location: Location): Attrs {
  return { "data-seat": String(seat), "data-loc": locationName(location) };
}

function itemWidth(words: string): number {
  return 2.4 + words.length * LEGEND_FONT * 0.55;
}

/** The width of a legend row, its items added left to right. */
function rowWidth(row: readonly LegendItem[]): number {
  let width = 0.0;
  for (const [, words] of row) width += itemWidth(words);
  return width;
}

/** Legend items in rows no wider than `width` (at least one item a row). */
function rows(items: readonly LegendItem[], width: number): LegendItem[][] {
  const out: LegendItem[][] = [[]];
  let used = 0.0;
  for (const item of items) {
    const w = itemWidth(item[1]);
    if ((out.at(-1) as LegendItem[]).length && used + w > width) {
      out.push([]);
      used = 0.0;
    }
    (out.at(-1) as LegendItem[]).push(item);
    used += w;
  }
  return out;
}

/** The length of `(dx, dy)`, from operations IEEE 754 rounds exactly (not `Math.hypot`). */
function length(dx: number, dy: number): number {
  return Math.sqrt(dx * dx + dy * dy);
}

function towards(p: Point, q: Point, distance: number): Point {
  const dx = q[0] - p[0];
  const dy = q[1] - p[1];
  const norm = length(dx, dy) || 1.0;
  return [p[0] + (dx / norm) * distance, p[1] + (dy / norm) * distance];
}

/** The smallest of `values`, the first of equals (as Python's `min`). */
function least(values: readonly number[]): number {
  let out = values[0] as number;
  for (const v of values) if (v < out) out = v;
  return out;
}

/** The largest of `values`, the first of equals (as Python's `max`). */
function most(values: readonly number[]): number {
  let out = values[0] as number;
  for (const v of values) if (v > out) out = v;
  return out;
}

/** `a % b` as Python takes it for floats: a remainder with the sign of `b` (a zero too). */
function pyMod(a: number, b: number): number {
  const m = a % b;
  if (m === 0) return b < 0 ? -0 : 0;
  return m < 0 !== b < 0 ? m + b : m;
}

/** `x` rounded to a whole number, halves to even (Python's `round`). */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const rest = x - floor;
  return rest > 0.5 || (rest === 0.5 && floor % 2 !== 0) ? floor + 1 : floor;
}

/**
 * `value` with two decimals, as Python's `f"{value:.2f}"` writes it: both round the exact binary
 * value, but a value exactly halfway between two hundredths (an odd number of eighths) goes to
 * the even one in Python and up in `toFixed`. (Coordinates stay far below 1e21, where
 * `toFixed` would switch to an exponent.)
 */
function fixed2(value: number): string {
  const eighths = Math.abs(value) * 8;
  if (!Number.isInteger(eighths) || eighths % 2 === 0) return value.toFixed(2);
  const below = (BigInt(eighths) * 25n - 1n) / 2n; // the hundredths just below the value
  const even = (below % 2n === 0n ? below : below + 1n).toString().padStart(3, "0");
  return `${value < 0 ? "-" : ""}${even.slice(0, -2)}.${even.slice(-2)}`;
}

/** A coordinate or length in pixels: two decimals at most, no trailing zeros, no `-0`. */
function num(value: number): string {
  const text = fixed2(value);
  const cut = text.endsWith(".00") ? text.slice(0, -3) : text.endsWith("0") ? text.slice(0, -1) : text;
  return cut === "-0" ? "0" : cut;
}

function attrs(attributes: Attrs): string {
  return Object.keys(attributes)
    .sort()
    .map((key) => ` ${key}="${esc(attributes[key] as string)}"`)
    .join("");
}

function esc(words: string): string {
  if (!/[&<>"]/.test(words)) return words;
  return words.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

/** `colour` mixed with white: `amount` of the colour, the rest white. */
function mix(colour: string, amount: number): string {
  const channel = (i: number): string => {
    const c = parseInt(colour.slice(i, i + 2), 16);
    return roundHalfEven(255 - (255 - c) * amount)
      .toString(16)
      .toUpperCase()
      .padStart(2, "0");
  };
  return `#${channel(1)}${channel(3)}${channel(5)}`;
}

/** Black or white, whichever reads better on `colour`. */
function ink(colour: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16) / 255) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.42 ? "#111111" : "#FFFFFF";
}
