// Moves you can watch: each peg of a move slides along the holes it passes, in the order of
// the move's events (pegs_rules.events: a split's parts one after the other, a knocked peg
// after the peg that landed on it), on the board drawn before the move.
//
// A path is worked out from an event alone (seat, from, to) and the card played, with the
// board's geometry (board.geometry): a track peg moves clockwise, and into its home lane at
// its in-spot (hole 18 * seat + 3); an 8, and the backward part of a 9 split, move
// counter-clockwise; a peg coming out of its start area, a joker's peg, the two pegs of a
// 2's swap and a knocked peg go straight to where they land.

const SIDE_HOLES = 18;
const IN_SPOT_OFFSET = 3;
const LONGEST_COUNT = 13; // no card moves a peg further, one way or the other
const JUMP_HOLES = 4; // a straight move takes as long as passing this many holes

/** The locations a peg passes through for one peg event, its start and end included. */
export function pathOf({ seat, from, to }, { card, players, jump = false }) {
  if (jump || from === "s" || to === "s" || card === "JK") return [from, to];
  if (from.startsWith("h")) return [from, ...lane(Number(from.slice(1)) + 1, Number(to.slice(1)))];
  const length = SIDE_HOLES * players;
  const start = Number(from);
  if (to.startsWith("h")) {
    const spot = SIDE_HOLES * seat + IN_SPOT_OFFSET;
    return [from, ...track(start, (spot - start + length) % length, 1, length), ...lane(1, Number(to.slice(1)))];
  }
  const ahead = (Number(to) - start + length) % length;
  const back = (start - Number(to) + length) % length;
  const backwards = card === "8" || (ahead > LONGEST_COUNT && back <= LONGEST_COUNT);
  const count = backwards ? back : ahead;
  if (count > LONGEST_COUNT) return [from, to];
  return [from, ...track(start, count, backwards ? -1 : 1, length)];
}

function track(start, count, direction, length) {
  return Array.from({ length: count }, (_, i) => String((start + direction * (i + 1) + length) % length));
}

function lane(first, last) {
  const holes = [];
  for (let k = first; k <= last; k += 1) holes.push(`h${k}`);
  return holes;
}

/** Slide the pegs of a move's events (a format-1 "events" list) across `svg`, the board
 * before the move, at `msPerHole` a hole; resolves once every peg has arrived. */
export async function animateMove(svg, events, msPerHole) {
  const players = svg.querySelectorAll("circle.hole.track").length / SIDE_HOLES;
  const card = events.find((event) => event.event === "card_played")?.card;
  const moved = events.filter((event) => event.event === "peg_moved");
  const swap = card === "2" && moved.length === 2 && moved[0].from === moved[1].to && moved[0].to === moved[1].from;
  for (const event of events) {
    if (event.event !== "peg_moved" && event.event !== "peg_displaced") continue;
    const peg = pegAt(svg, event.seat, event.from);
    if (!peg) continue;
    const jump = swap || event.event === "peg_displaced";
    const path = pathOf(event, { card, players, jump });
    const points = path.map((loc, i) => (i === 0 ? centre(peg) : centre(spotFor(svg, event.seat, loc))));
    if (points.some((point) => point === null)) continue;
    const holes = path.length === 2 && jump ? JUMP_HOLES : path.length - 1;
    await slide(svg, peg, points, Math.max(1, holes) * msPerHole);
    peg.dataset.loc = event.to;
  }
}

/** The peg of `seat` on `loc` (in its start area: the last one drawn there). */
function pegAt(svg, seat, loc) {
  const pegs = svg.querySelectorAll(`circle.peg[data-seat="${seat}"][data-loc="${loc}"]`);
  return pegs.length ? pegs[pegs.length - 1] : null;
}

/** Where a peg of `seat` stands on `loc`: its hole (in its start area, a free one). */
function spotFor(svg, seat, loc) {
  if (loc === "s") {
    const taken = svg.querySelectorAll(`circle.peg[data-seat="${seat}"][data-loc="s"]`).length;
    return svg.querySelectorAll(`circle.hole.start[data-seat="${seat}"]`)[taken] || null;
  }
  const owner = loc.startsWith("h") ? `[data-seat="${seat}"]` : "";
  return svg.querySelector(`circle.hole${owner}[data-loc="${loc}"]`);
}

function centre(element) {
  return element ? [Number(element.getAttribute("cx")), Number(element.getAttribute("cy"))] : null;
}

/** Move `peg` (and the seat number drawn on it) along `points` in `duration` ms. */
function slide(svg, peg, points, duration) {
  const label = peg.nextElementSibling?.classList.contains("peg-label") ? peg.nextElementSibling : null;
  const front = svg.querySelector(":scope > g.last-move, :scope > g.overlay");
  for (const element of [peg, label]) if (element) svg.insertBefore(element, front); // on top of other pegs
  const place = ([x, y]) => {
    peg.setAttribute("cx", x.toFixed(2));
    peg.setAttribute("cy", y.toFixed(2));
    if (label) {
      label.setAttribute("x", x.toFixed(2));
      label.setAttribute("y", y.toFixed(2));
    }
  };
  const legs = points.length - 1;
  return new Promise((resolve) => {
    let began = null;
    const frame = (now) => {
      began ??= now;
      const done = Math.min(1, (now - began) / duration);
      const at = done * legs;
      const leg = Math.min(legs - 1, Math.floor(at));
      const [a, b] = [points[leg], points[leg + 1]];
      const t = at - leg;
      place([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]);
      if (done < 1) requestAnimationFrame(frame);
      else resolve();
    };
    requestAnimationFrame(frame);
  });
}
