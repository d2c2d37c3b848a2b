// The board: the engine's SVG, made playable.
//
// The SVG comes from the transport as it is (pegs_rules.render.svg); its pegs and holes
// carry data-seat and data-loc. Given the legal moves, the board rings the pegs that
// can move; a person picks a peg, then where it goes (a split: a peg and a hole for
// each part), with the mouse or with Tab and Enter/Space. When the choice names one
// move the board hands its notation to `onMove`; when several moves fit (the same step
// with different cards, or a step that may end the move or start a split) it hands
// them to `onChoice` to ask which.
//
// Every peg is named for a screen reader ("seat 2's peg, team 0, on hole 40"); the pegs
// that can move (then the holes the chosen one can go to) are buttons, one of them in the Tab
// order at a time: the arrow keys move between them, clockwise around the board from hole 0
// (→ and ↓) or back (← and ↑). Each can be tapped anywhere within 12 CSS pixels of its
// centre, whatever the board's size (a tap between two goes to the nearer), so that a finger
// finds the 6-pixel holes of a phone-sized board. The last move stays marked (where its pegs
// came from, where they are now, and where a knocked peg was knocked from) until the next
// board is shown.

import { animateMove } from "./animate.js";
import { touchOnly } from "./prefs.js";

const SVG = "http://www.w3.org/2000/svg";
const TAP_RADIUS = 12.5; // CSS pixels: a target 24 × 24 at least (WCAG 2.2, 2.5.8), rounding aside
const ARROWS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/** Where a location is, in words: "hole 40", "home h2", "start". */
export function placeName(loc) {
  if (loc === "s") return "start";
  if (loc.startsWith("h")) return `home ${loc}`;
  return `hole ${loc}`;
}

/** A peg in words: "seat 2's peg, team 0, on hole 40". */
function pegName(seat, loc) {
  const where = loc === "s" ? "in its start area" : loc.startsWith("h") ? `in its home, ${loc}` : `on hole ${loc}`;
  return `seat ${seat}'s peg, team ${seat % 2}, ${where}`;
}

function sameStep(a, b) {
  return a.seat === b.seat && a.from === b.from && a.to === b.to;
}

export class Board {
  /**
   * @param {HTMLElement} element  where the SVG goes
   * @param {{ onMove: (notation: string) => void,
   *           onChoice: (moves: object[], more: boolean) => void,
   *           announce: (text: string) => void }} handlers
   */
  constructor(element, { onMove, onChoice, announce }) {
    this.element = element;
    this.onMove = onMove;
    this.onChoice = onChoice;
    this.announce = announce;
    this.plays = [];
    this.parts = [];
    this.source = null;
    this.firstBoards = [...element.children]; // the new boards of the first paint
    element.addEventListener("click", (event) => this.activate(this.tapped(event) || event.target));
    element.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        if (this.activate(event.target)) event.preventDefault();
      } else if (event.key === "Escape" && (this.source || this.parts.length)) {
        event.preventDefault();
        this.back();
      } else if (event.key in ARROWS && this.step(event.target, ARROWS[event.key])) {
        event.preventDefault();
      }
    });
    element.addEventListener("focusin", (event) => {
      if (event.target.dataset?.pick) this.rove(event.target);
    });
    new ResizeObserver(() => this.sizeHits()).observe(element);
  }

  /** The board of the first paint, with nothing to pick: the screen has no position to show. */
  placeholder() {
    this.svg = this.overlay = this.lastMove = this.hits = null;
    this.plays = [];
    this.parts = [];
    this.source = null;
    this.element.replaceChildren(...this.firstBoards);
    delete this.element.dataset.players;
  }

  /** Focus the first peg that can move (or hole it can go to), if any; true if one was. */
  focusFirst() {
    const first = this.pickables()[0];
    first?.focus();
    return Boolean(first);
  }

  /** Show an SVG document; `moves` (a format-1 "moves" list, or null) makes it playable. */
  show(svgText, moves = null) {
    const parsed = new DOMParser().parseFromString(svgText, "image/svg+xml");
    const svg = parsed.documentElement;
    if (svg.nodeName !== "svg" || parsed.querySelector("parsererror")) {
      this.element.textContent = "The board could not be drawn.";
      return;
    }
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    const title = svg.querySelector("title");
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", title ? title.textContent : "the board");
    this.svg = document.importNode(svg, true);
    for (const label of this.svg.querySelectorAll(".peg-label")) label.setAttribute("aria-hidden", "true");
    for (const peg of this.svg.querySelectorAll("circle.peg")) {
      peg.dataset.name = pegName(peg.dataset.seat, peg.dataset.loc);
    }
    this.lastMove = document.createElementNS(SVG, "g");
    this.lastMove.setAttribute("class", "last-move");
    this.overlay = document.createElementNS(SVG, "g");
    this.overlay.setAttribute("class", "overlay");
    this.svg.append(this.lastMove, this.overlay);
    this.hits = document.createElementNS(SVG, "g"); // under the holes and pegs: see tapped()
    this.hits.setAttribute("class", "hits");
    this.hits.setAttribute("aria-hidden", "true");
    this.svg.insertBefore(this.hits, this.svg.querySelector("circle"));
    this.element.replaceChildren(this.svg);
    // style.css zooms a board of 6 or 8 players on a phone: 18 track holes a player
    this.element.dataset.players = String(this.svg.querySelectorAll("circle.hole.track").length / 18);
    this.plays = (moves || []).filter((move) => move.action === "play");
    this.parts = [];
    this.source = null;
    this.mark();
  }

  /** Ring the steps of `move` (a move object) to show where it goes; null clears. */
  preview(move) {
    for (const ring of this.overlay?.querySelectorAll(".preview") || []) ring.remove();
    for (const step of move?.steps || []) {
      const from = this.pegAt(step.seat, step.from);
      const to = this.pegAt(step.seat, step.to) || this.holeAt(step.seat, step.to);
      if (from) this.ring(from, "preview");
      if (to) this.ring(to, "preview");
    }
  }

  /** Slide the pegs of a move (its format-1 events) on the board shown, the one before it. */
  async animate(events, msPerHole) {
    if (!this.svg) return;
    this.element.dataset.animating = "true";
    try {
      await animateMove(this.svg, events, msPerHole);
    } finally {
      delete this.element.dataset.animating;
    }
  }

  /** Mark the move whose events (format 1) led to the board shown: a dashed ring where each
   * peg set off, a ring around it where it is now, a cross where a peg was knocked from. */
  markLast(events) {
    if (!this.svg) return;
    this.lastMove.replaceChildren();
    for (const event of events || []) {
      if (event.event !== "peg_moved" && event.event !== "peg_displaced") continue;
      const knocked = event.event === "peg_displaced";
      const from = this.holeAt(event.seat, event.from);
      const to = this.pegAt(event.seat, event.to) || this.holeAt(event.seat, event.to);
      if (from && !knocked) this.ring(from, "came-from", "", this.lastMove);
      if (from && knocked) this.cross(from);
      if (to) this.ring(to, knocked ? "knocked-to" : "went-to", "", this.lastMove);
    }
  }

  /** Forget a half-made choice. */
  reset() {
    this.parts = [];
    this.source = null;
    this.mark();
  }

  // -- choosing a move -----------------------------------------------------------------

  /** The moves whose first steps are the parts chosen so far. */
  candidates() {
    return this.plays.filter(
      (move) =>
        move.steps.length >= this.parts.length &&
        this.parts.every((part, i) => sameStep(part, move.steps[i])),
    );
  }

  /** The next steps still open: those of candidates longer than the parts chosen. */
  openSteps() {
    const n = this.parts.length;
    return this.candidates()
      .filter((move) => move.steps.length > n)
      .map((move) => move.steps[n]);
  }

  activate(target) {
    const element = target.closest?.("[data-pick]");
    if (!element || !this.svg?.contains(element)) return false;
    const [kind, seat, loc] = element.dataset.pick.split("|");
    if (kind === "source") this.pickSource(Number(seat), loc);
    else if (kind === "target") this.pickTarget(loc);
    else if (kind === "selected") this.back();
    return true;
  }

  pickSource(seat, loc) {
    this.source = { seat, loc };
    const goals = this.targets();
    const part = this.parts.length ? ` for part ${this.parts.length + 1}` : "";
    this.announce(
      `Seat ${seat}'s peg in ${placeName(loc)} chosen${part}. ` +
        `It can go to ${goals.map(placeName).join(", ")}.${touchOnly() ? "" : " Escape goes back."}`,
    );
    this.mark();
    this.pickables().find((element) => element.dataset.pick.startsWith("target"))?.focus();
  }

  pickTarget(loc) {
    const { seat, loc: from } = this.source;
    this.parts.push({ seat, from, to: loc });
    this.source = null;
    const fitting = this.candidates();
    const complete = fitting.filter((move) => move.steps.length === this.parts.length);
    const more = fitting.length > complete.length;
    if (complete.length === 1 && !more) {
      this.parts = [];
      this.mark();
      this.onMove(complete[0].notation);
      return;
    }
    this.mark();
    if (complete.length) this.onChoice(complete, more);
    if (more) {
      this.announce(
        `Part ${this.parts.length}: seat ${seat} from ${placeName(from)} to ${placeName(loc)}. ` +
          "Now choose the peg for the next part" +
          (complete.length ? ", or one of the moves offered." : "."),
      );
      this.focusFirst();
    }
  }

  back() {
    if (this.source) this.source = null;
    else this.parts.pop();
    this.onChoice([], false);
    this.announce(this.parts.length ? "Back to the last part." : "Choice cleared.");
    this.mark();
    this.focusFirst();
  }

  /** Destinations (location names) of the chosen source's open steps. */
  targets() {
    const { seat, loc } = this.source;
    const seen = new Set();
    for (const step of this.openSteps()) {
      if (step.seat === seat && step.from === loc) seen.add(step.to);
    }
    return [...seen];
  }

  // -- drawing the choice --------------------------------------------------------------

  mark() {
    if (!this.svg) return;
    for (const element of this.svg.querySelectorAll("[data-pick]")) {
      element.removeAttribute("data-pick");
      element.removeAttribute("tabindex");
      element.removeAttribute("role");
      element.removeAttribute("aria-label");
    }
    for (const peg of this.svg.querySelectorAll("circle.peg:not([role])")) {
      peg.setAttribute("role", "img");
      peg.setAttribute("aria-label", peg.dataset.name);
    }
    for (const ring of this.overlay.querySelectorAll(":not(.preview)")) ring.remove();
    this.markChoice();
    const order = this.pickables();
    this.hits.replaceChildren(
      ...order.map((element) => {
        const hit = document.createElementNS(SVG, "circle");
        hit.setAttribute("class", "hit");
        hit.setAttribute("cx", element.getAttribute("cx"));
        hit.setAttribute("cy", element.getAttribute("cy"));
        hit.dataset.r = element.getAttribute("r");
        return hit;
      }),
    );
    this.sizeHits();
    if (order.length) this.rove(order[0]);
  }

  /** Ring the parts chosen so far, and make pickable what can be picked next. */
  markChoice() {
    this.parts.forEach((part, i) => {
      const peg = this.pegAt(part.seat, part.from);
      const goal = this.pegAt(part.seat, part.to) || this.holeAt(part.seat, part.to);
      if (peg) this.ring(peg, "chosen", String(i + 1));
      if (goal) this.ring(goal, "chosen");
    });
    if (this.source) {
      const { seat, loc } = this.source;
      const peg = this.pegAt(seat, loc) || this.holeAt(seat, loc);
      this.pickable(peg, "selected", seat, loc, `seat ${seat}'s peg in ${placeName(loc)}, chosen; press to put it back`);
      this.ring(peg, "selected");
      for (const to of this.targets()) {
        const element = this.pegAt(seat, to) || this.holeAt(seat, to);
        const knocks = element.classList.contains("peg") ? `, knocking seat ${element.dataset.seat}'s peg` : "";
        this.pickable(element, "target", seat, to, `move it to ${placeName(to)}${knocks}`);
        this.ring(element, "target");
      }
      return;
    }
    const sources = new Map();
    for (const step of this.openSteps()) sources.set(`${step.seat}|${step.from}`, step);
    for (const { seat, from } of sources.values()) {
      // A peg that an earlier part knocks away is not drawn where it will be: its hole stands in.
      const peg = this.pegAt(seat, from) || this.holeAt(seat, from);
      if (!peg) continue;
      this.pickable(peg, "source", seat, from, `${pegName(seat, from)}, can move`);
      this.ring(peg, "movable");
    }
  }

  pickable(element, kind, seat, loc, label) {
    element.dataset.pick = `${kind}|${seat}|${loc}`;
    element.setAttribute("tabindex", "-1");
    element.setAttribute("role", "button");
    element.setAttribute("aria-label", label);
  }

  // -- keys and taps --------------------------------------------------------------------

  /** What can be picked, clockwise around the board from hole 0 (where seat 0's side begins):
   * seat by seat, as the holes are numbered. */
  pickables() {
    if (!this.svg) return [];
    const track = [...this.svg.querySelectorAll("circle.hole.track")];
    const holes = track.map(centre);
    const [cx, cy] = holes.reduce(([x, y], [hx, hy]) => [x + hx / holes.length, y + hy / holes.length], [0, 0]);
    const turn = ([x, y]) => Math.atan2(cx - x, y - cy); // growing clockwise on screen
    const zero = turn(centre(track.find((hole) => hole.dataset.loc === "0")));
    const angle = (element) => {
      const [x, y] = centre(element);
      const from = (turn([x, y]) - zero + 4 * Math.PI + 1e-6) % (2 * Math.PI); // hole 0 first
      return [from, Math.hypot(x - cx, y - cy)];
    };
    const placed = [...this.svg.querySelectorAll("[data-pick]")].map((element) => [angle(element), element]);
    placed.sort(([a], [b]) => a[0] - b[0] || a[1] - b[1]);
    return placed.map(([, element]) => element);
  }

  /** Make `element` the one pickable in the Tab order (a roving tab stop). */
  rove(element) {
    for (const other of this.svg.querySelectorAll("[data-pick]")) other.setAttribute("tabindex", "-1");
    element.setAttribute("tabindex", "0");
  }

  /** Move the focus from `from` to the next pickable (`by` 1) or the one before (-1). */
  step(from, by) {
    const order = this.pickables();
    const at = order.indexOf(from.closest?.("[data-pick]"));
    if (!order.length || at < 0) return false;
    order[(at + by + order.length) % order.length].focus();
    return true;
  }

  /** The pickable nearest a click or tap, if one is within its reach (see TAP_RADIUS): the
   * board hears every click on it, whatever was drawn where the finger landed. The tap areas
   * (circle.hit, under the holes and pegs) only show where a click counts. */
  tapped(event) {
    const matrix = this.svg?.getScreenCTM();
    if (!matrix || (!event.clientX && !event.clientY)) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    let best = null;
    for (const element of this.svg.querySelectorAll("[data-pick]")) {
      const [x, y] = centre(element);
      const away = Math.hypot(point.x - x, point.y - y);
      if (away <= this.reach(Number(element.getAttribute("r"))) && (!best || away < best.away)) {
        best = { element, away };
      }
    }
    return best?.element ?? null;
  }

  /** How far from its centre (in the board's units) a pickable of radius `r` can be tapped:
   * TAP_RADIUS on the screen, or more for a large one. */
  reach(r) {
    const scale = this.svg.getBoundingClientRect().width / this.svg.viewBox.baseVal.width;
    return scale > 0 ? Math.max(r, TAP_RADIUS / scale) : r;
  }

  /** Size the tap areas for the board's size on screen. */
  sizeHits() {
    for (const hit of this.hits?.children || []) hit.setAttribute("r", this.reach(Number(hit.dataset.r)));
  }

  ring(element, kind, badge = "", into = this.overlay) {
    const x = Number(element.getAttribute("cx"));
    const y = Number(element.getAttribute("cy"));
    const r = Number(element.getAttribute("r"));
    for (const layer of ["ring-halo", "ring"]) {
      const ring = document.createElementNS(SVG, "circle");
      ring.setAttribute("class", `${layer} ${kind}`);
      ring.setAttribute("cx", x);
      ring.setAttribute("cy", y);
      ring.setAttribute("r", Math.max(r * 1.45, r + 4, 11));
      into.append(ring);
    }
    if (badge) {
      const text = document.createElementNS(SVG, "text");
      text.setAttribute("class", "ring-badge");
      text.setAttribute("x", x + r * 1.3);
      text.setAttribute("y", y - r * 1.3);
      text.textContent = badge;
      into.append(text);
    }
  }

  /** A cross on `element`: a peg was knocked from here. */
  cross(element) {
    const x = Number(element.getAttribute("cx"));
    const y = Number(element.getAttribute("cy"));
    const d = 8;
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("class", "knocked-from");
    path.setAttribute("d", `M${x - d},${y - d}L${x + d},${y + d}M${x - d},${y + d}L${x + d},${y - d}`);
    this.lastMove.append(path);
  }

  /** The peg of `seat` (or, on the track, of any seat) standing on `loc`. */
  pegAt(seat, loc) {
    const owner = loc === "s" || loc.startsWith("h") ? `[data-seat="${seat}"]` : "";
    return this.svg.querySelector(`circle.peg${owner}[data-loc="${loc}"]`);
  }

  holeAt(seat, loc) {
    const owner = loc === "s" || loc.startsWith("h") ? `[data-seat="${seat}"]` : "";
    return this.svg.querySelector(`circle.hole${owner}[data-loc="${loc}"]`);
  }
}

function centre(element) {
  return [Number(element.getAttribute("cx")), Number(element.getAttribute("cy"))];
}
