// The board drawing (the entry point pegs-rules/render): the elements and data attributes a
// page relies on (holes, pegs and where they are, arrows, highlights, labels), the geometry of
// board.geometry (a clockwise ring, home lanes off the in-spots, start areas by the come-out
// holes), nothing drawn from hidden cards, and hostile input answered only with the package's
// own errors. That it draws byte for byte what the reference draws is tests/test_js_render.py.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  legalMoves,
  locationName,
  newGame,
  parseNotation,
  parsePosition,
  PegsError,
  PositionError,
  view,
  type GameState,
  type Move,
} from "../src/index.js";
import { SEAT_COLOURS, svg } from "../src/render.js";
import { playedGames, playOut } from "./play.js";

const RUNS = { numRuns: Number(process.env["PEGS_FUZZ_RUNS"] ?? 100) };

interface Element {
  readonly tag: string;
  readonly attrs: Readonly<Record<string, string>>;
  /** The text right after the opening tag (a `<text>`'s words). */
  readonly text: string;
  /** The classes of the `<g>` groups it is drawn in. */
  readonly group: string;
}

/** The elements of an SVG document, in order. */
function elements(document: string): Element[] {
  const out: Element[] = [];
  let group = "";
  for (const match of document.matchAll(/<(\/?)([a-z?]+)((?:\s+[a-zA-Z:-]+="[^"]*")*)\s*[/?]?>([^<]*)/g)) {
    const [, closing, tag = "", attributes = "", text = ""] = match;
    if (tag === "g") {
      group = closing ? "" : (/class="([^"]*)"/.exec(attributes)?.[1] ?? "");
      continue;
    }
    if (closing) continue;
    const attrs: Record<string, string> = {};
    for (const [, key = "", value = ""] of attributes.matchAll(/([a-zA-Z:-]+)="([^"]*)"/g)) attrs[key] = value;
    out.push({ tag, attrs, text, group });
  }
  return out;
}

/** The elements whose class holds every one of `classes`. */
function withClass(all: readonly Element[], ...classes: string[]): Element[] {
  return all.filter((e) => {
    const own = (e.attrs["class"] ?? "").split(" ");
    return classes.every((c) => own.includes(c));
  });
}

type Point = readonly [number, number];

function centre(e: Element): Point {
  return [Number(e.attrs["cx"]), Number(e.attrs["cy"])];
}

function dist(a: Point, b: Point): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

function mean(points: readonly Point[]): Point {
  return [points.reduce((s, p) => s + p[0], 0) / points.length, points.reduce((s, p) => s + p[1], 0) / points.length];
}

/** The track hole nearest `p`. */
function nearest(track: readonly Point[], p: Point): number {
  return track.reduce((best, q, i) => (dist(q, p) < dist(track[best] as Point, p) ? i : best), 0);
}

const midgame = (players: number): GameState => playOut(players, BigInt(40 + players), 60).at(-1) as GameState;

// Seat 0 to play a 7 split between its pegs on 30 and 70, the second into its home lane.
const SPLIT = parsePosition("turn: 0\npegs 0: 70 h2 h5 30\npegs 1: 21 26 h1\npegs 2: 33 h3 8\npegs 3: 3 60\nhand 0: 7");
const SPLIT_MOVE = parseNotation("7 0:30-31 0:70-h1");

describe("what a page relies on", () => {
  test.each([4, 6, 8])("every hole, with its class and where it is (%i seats)", (players) => {
    const all = elements(svg(midgame(players)));
    const track = withClass(all, "hole", "track");
    expect(track.map((e) => e.attrs["data-loc"])).toEqual(Array.from({ length: 18 * players }, (_, i) => String(i)));
    expect(track.every((e) => e.tag === "circle" && !("data-seat" in e.attrs))).toBe(true);
    for (let seat = 0; seat < players; seat++) {
      const lane = withClass(all, "hole", "home", `seat-${seat}`);
      expect(lane.map((e) => [e.attrs["data-seat"], e.attrs["data-loc"]])).toEqual(
        ["h1", "h2", "h3", "h4", "h5"].map((h) => [String(seat), h]),
      );
      const start = withClass(all, "hole", "start", `seat-${seat}`);
      expect(start.map((e) => [e.attrs["data-seat"], e.attrs["data-loc"]])).toEqual(Array(5).fill([String(seat), "s"]));
    }
    expect(withClass(all, "hole")).toHaveLength(28 * players);
  });

  test.each([4, 6, 8])("every peg, in its seat's colour, says whose it is and where (%i seats)", (players) => {
    const state = midgame(players);
    const all = elements(svg(state));
    const pegs = withClass(all, "peg");
    const drawn = pegs.map((e) => `${e.attrs["data-seat"]}:${e.attrs["data-loc"]}`).sort();
    const held = state.pegs.flatMap((locs, seat) => locs.map((loc) => `${seat}:${locationName(loc)}`)).sort();
    expect(drawn).toEqual(held);
    for (const peg of pegs) {
      const seat = Number(peg.attrs["data-seat"]);
      expect(peg.attrs["class"]).toBe(`peg seat-${seat}`);
      expect(peg.attrs["fill"]).toBe(SEAT_COLOURS[seat]);
      // It stands on the hole of the same name: the track's, or its own lane's or start's.
      const loc = peg.attrs["data-loc"] as string;
      const holes = withClass(all, "hole").filter(
        (h) => h.attrs["data-loc"] === loc && (/^[0-9]/.test(loc) || h.attrs["data-seat"] === String(seat)),
      );
      expect(holes.map(centre)).toContainEqual(centre(peg));
    }
    // Each peg carries its seat number, so that colour is not the only cue.
    expect(withClass(all, "peg-label").map((e) => e.text).sort()).toEqual(pegs.map((e) => e.attrs["data-seat"]).sort());
  });

  test("a split draws two numbered arrows, landing on their destinations", () => {
    expect(legalMoves(SPLIT)).toContainEqual(SPLIT_MOVE);
    const all = elements(svg(SPLIT, SPLIT_MOVE));
    const groups = [...new Set(all.filter((e) => e.group).map((e) => e.group))];
    expect(groups).toEqual(["move-arrow step-1", "move-arrow step-2"]);
    const landings = withClass(all, "landing").map(centre);
    const hole31 = withClass(all, "hole", "track")[31] as Element;
    const h1 = withClass(all, "hole", "home", "seat-0")[0] as Element;
    expect(landings).toEqual([centre(hole31), centre(h1)]);
    for (const [i, group] of groups.entries()) {
      const parts = all.filter((e) => e.group === group);
      expect(parts.some((e) => e.tag === "path") && parts.some((e) => e.tag === "polygon")).toBe(true);
      expect(parts.filter((e) => e.tag === "text").map((e) => e.text)).toEqual([String(i + 1)]);
    }
    expect(all.some((e) => e.tag === "text" && e.text === "move, parts 1 and 2 in order")).toBe(true);
  });

  test("a single step draws one arrow without a number; a discard, a pass or none draw none", () => {
    const state = newGame(4, { seed: 2n });
    const single = legalMoves(state).find((m) => m.action === "play") as Move;
    const arrows = elements(svg(state, single)).filter((e) => e.group);
    expect(new Set(arrows.map((e) => e.group))).toEqual(new Set(["move-arrow step-1"]));
    expect(arrows.filter((e) => e.tag === "text")).toEqual([]);
    for (const move of [parseNotation("discard 5"), parseNotation("pass"), null, undefined]) {
      expect(elements(svg(SPLIT, move)).filter((e) => e.group)).toEqual([]);
    }
  });

  test("the two arrows of a swap bow apart", () => {
    const state = parsePosition("rule two_swap: true\nturn: 2\npegs 0: 60\npegs 2: 40\nhand 2: 2");
    const swap = parseNotation("2 0:60-40 2:40-60");
    expect(legalMoves(state)).toContainEqual(swap);
    const controls = elements(svg(state, swap))
      .filter((e) => e.group && e.tag === "path" && e.attrs["stroke"] !== "#FFFFFF")
      .map((e) => (/Q(\S+),(\S+) /.exec(e.attrs["d"] ?? "") ?? []).slice(1).map(Number) as unknown as Point);
    expect(controls).toHaveLength(2);
    expect(dist(controls[0] as Point, controls[1] as Point)).toBeGreaterThan(10);
  });

  test("highlights ring each track hole once, in any order", () => {
    const drawn = svg(SPLIT, null, { highlight: [12, 5, 12, 71] });
    expect(svg(SPLIT, null, { highlight: new Set([71, 5, 12]) })).toBe(drawn);
    const all = elements(drawn);
    const track = withClass(all, "hole", "track").map(centre);
    expect(withClass(all, "highlight").map((e) => track.findIndex((p) => dist(p, centre(e)) === 0))).toEqual([5, 12, 71]);
    expect(all.some((e) => e.text === "highlighted hole")).toBe(true);
    expect(withClass(elements(svg(SPLIT)), "highlight")).toEqual([]);
  });

  test.each([4, 6, 8])("seat names, the seat to act, hole numbers (%i seats)", (players) => {
    const state = newGame(players, { seed: 3n });
    const all = elements(svg(state));
    const names = withClass(all, "seat-label");
    expect(names.filter((e) => e.text.startsWith("seat")).map((e) => e.text)).toEqual(
      Array.from({ length: players }, (_, s) => `seat ${s} \u00b7 team ${s % 2}`),
    );
    expect(names.filter((e) => e.attrs["font-weight"] === "bold").map((e) => e.text).sort()).toEqual(
      [`seat ${state.turn} \u00b7 team ${state.turn % 2}`, "to act"].sort(),
    );
    const numbers = withClass(all, "hole-number").map((e) => Number(e.text));
    expect(numbers.sort((a, b) => a - b)).toEqual(
      Array.from({ length: players }, (_, s) => [18 * s, 18 * s + 3, 18 * s + 8]).flat(),
    );
    expect(withClass(elements(svg(state, null, { labels: false })), "hole-number")).toEqual([]);
  });

  test("the size sets the width, and everything drawn fits in the picture", () => {
    for (const size of [50, 333, 520, 1000]) {
      const all = elements(svg(midgame(8), null, size === 520 ? {} : { size }));
      const root = all.find((e) => e.tag === "svg") as Element;
      const height = Number(root.attrs["height"]);
      expect([root.attrs["width"], root.attrs["viewBox"]]).toEqual([String(size), `0 0 ${size} ${height}`]);
      for (const e of all.filter((x) => x.tag === "circle")) {
        const [x, y] = centre(e);
        expect(x >= 0 && x <= size && y >= 0 && y <= height).toBe(true);
      }
    }
  });

  test("a finished game says who won and nobody is to act", () => {
    const state = parsePosition("turn: 2\npegs 0: h1 h2 h3 h4 h5\npegs 2: h1 h2 h3 h4 h5\nwinner: 0");
    const all = elements(svg(state));
    expect(all.some((e) => e.tag === "text" && e.text.endsWith("team 0 has won"))).toBe(true);
    expect(withClass(all, "seat-label").some((e) => e.text === "to act")).toBe(false);
  });
});

describe("board.geometry", () => {
  test.each([4, 6, 8])("the track is an evenly spaced clockwise ring (%i seats)", (players) => {
    const track = withClass(elements(svg(newGame(players, { seed: 1n }))), "hole", "track").map(centre);
    const middle = mean(track);
    const gaps = track.map((p, i) => dist(p, track[(i + 1) % track.length] as Point));
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeLessThan(0.03);
    track.forEach((p, i) => {
      // y grows downwards: a positive cross product turns clockwise on screen
      const q = track[(i + 1) % track.length] as Point;
      expect((p[0] - middle[0]) * (q[1] - middle[1]) - (p[1] - middle[1]) * (q[0] - middle[0])).toBeGreaterThan(0);
    });
  });

  test.each([4, 6, 8])("home lanes run inwards from the in-spots; start areas sit by the come-out holes (%i seats)", (players) => {
    const all = elements(svg(newGame(players, { seed: 1n })));
    const track = withClass(all, "hole", "track").map(centre);
    const gap = dist(track[0] as Point, track[1] as Point);
    const middle = mean(track);
    for (let seat = 0; seat < players; seat++) {
      const inSpot = track[18 * seat + 3] as Point;
      const lane = withClass(all, "hole", "home", `seat-${seat}`).map(centre);
      expect(nearest(track, lane[0] as Point)).toBe(18 * seat + 3);
      expect(dist(lane[0] as Point, inSpot)).toBeCloseTo(gap, 1);
      const depths = [inSpot, ...lane].map((p) => dist(p, middle));
      expect(depths).toEqual([...depths].sort((a, b) => b - a));
      const start = withClass(all, "hole", "start", `seat-${seat}`).map(centre);
      expect(nearest(track, mean(start))).toBe(18 * seat + 8);
      expect(Math.min(...start.map((p) => dist(p, middle)))).toBeGreaterThan(dist(track[18 * seat + 8] as Point, middle));
    }
  });
});

describe("drawn from public information", () => {
  test("hidden cards change nothing; a player's view draws the same board", () => {
    fc.assert(
      fc.property(playedGames(100), fc.nat(), (states, pick) => {
        const state = states[pick % states.length] as GameState;
        const moves = legalMoves(state);
        const move = moves.length ? (moves[pick % moves.length] as Move) : null;
        const drawn = svg(state, move, { highlight: [pick % (18 * state.pegs.length)] });
        const shuffled = { ...state, hands: state.hands.map(() => []), drawPile: [], seed: 0n };
        expect(svg(shuffled, move, { highlight: [pick % (18 * state.pegs.length)] })).toBe(drawn);
        expect(svg(view(state, pick % state.pegs.length), move, { highlight: [pick % (18 * state.pegs.length)] })).toBe(drawn);
      }),
      { numRuns: Math.ceil(RUNS.numRuns / 5) },
    );
  });
});

test("the engine's entry point does not carry the drawing", async () => {
  expect(Object.keys(await import("../src/index.js"))).not.toContain("svg");
});

describe("hostile input", () => {
  /** Run `work`; it may return a string, or throw a PegsError, and nothing else. */
  function onlyOurs(work: () => string): void {
    try {
      expect(typeof work()).toBe("string");
    } catch (error) {
      if (!(error instanceof PegsError)) throw error;
    }
  }
  const sample = midgame(6);
  const junk = fc.oneof(
    fc.constantFrom(undefined, null, NaN, Infinity, -1, 0, 1.5, 1e308, 2 ** 53 + 1, "", "7", true, [], {}, [[]], [null], 10n ** 40n),
    fc.jsonValue(),
  );

  test("a malformed state is a PositionError, never a TypeError", () => {
    const broken: unknown[] = [
      null,
      undefined,
      7,
      "pegs 0: 12",
      {},
      { ...sample, pegs: [[1, 2, 3]] },
      { ...sample, pegs: sample.pegs.map(() => "s s s s s") },
      { ...sample, pegs: sample.pegs.map((locs, seat) => (seat === 1 ? [...locs.slice(1), 200] : locs)) },
      { ...sample, pegs: sample.pegs.map((locs, seat) => (seat === 1 ? [-1, -1, -1, -1, -1, -1] : locs)) },
      { ...sample, turn: 6 },
      { ...sample, turn: "0" },
      { ...sample, ply: -1 },
      { ...sample, ply: 1e9 },
      { ...sample, winner: 2 },
      { ...sample, winner: undefined },
    ];
    for (const state of broken) expect(() => svg(state as GameState)).toThrow(PositionError);
  });

  test("junk in any field of a state, a move or an option: only the package's errors", () => {
    const fields = ["pegs", "turn", "ply", "winner", "rules", "hands"] as const;
    const plays = legalMoves(sample).filter((m) => m.action === "play");
    /** A legal play with junk in one place: its action, card or steps, or a step's field. */
    const moves = fc.tuple(fc.nat(), fc.constantFrom("action", "card", "steps", "seat", "from", "to"), junk).map(([pick, where, value]) => {
      const move = structuredClone(plays[pick % plays.length]) as unknown as Record<string, unknown>;
      const steps = move["steps"] as Record<string, unknown>[];
      if (where in move) move[where] = value;
      else (steps[pick % steps.length] as Record<string, unknown>)[where] = value;
      return move;
    });
    fc.assert(
      fc.property(fc.constantFrom(...fields), junk, fc.nat(), fc.oneof(junk, moves), junk, junk, (field, value, deep, move, highlight, size) => {
        const state = structuredClone(sample) as unknown as Record<string, unknown>;
        const current = state[field];
        if (Array.isArray(current) && current.length && deep % 2) (current as unknown[])[deep % current.length] = value;
        else state[field] = value;
        onlyOurs(() => svg(state as unknown as GameState));
        onlyOurs(() => svg(sample, move as Move));
        onlyOurs(() => svg(sample, null, { highlight: highlight as number[] }));
        onlyOurs(() => svg(sample, null, { highlight: [highlight] as number[], size: size as number, labels: size as boolean }));
        onlyOurs(() => svg(sample, null, highlight as object));
      }),
      RUNS,
    );
  });

  test("a move, highlight or size that cannot be drawn says why", () => {
    const state = newGame(4, { seed: 1n });
    expect(() => svg(state, parseNotation("5 0:12-80"))).toThrow(/cannot draw step Step\(seat=0, src=12, dst=80\) on a 4-seat board/);
    expect(() => svg(state, parseNotation("5 4:12-17"))).toThrow(PositionError);
    expect(() => svg(state, null, { highlight: [72] })).toThrow(/cannot highlight 72: track holes are 0\.\.71/);
    for (const bad of [-1, 1.5, "3", true, null]) {
      expect(() => svg(state, null, { highlight: [bad as number] })).toThrow(PositionError);
    }
    for (const size of [49, 50.5, -600, NaN, Infinity, 2 ** 53, "520"]) {
      expect(() => svg(state, null, { size: size as number })).toThrow(/size must be a whole number of pixels >= 50/);
    }
  });
});
