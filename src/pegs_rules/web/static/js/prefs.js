// What the page remembers between visits (localStorage): the last game's set-up and how
// fast moves are shown. Nothing here is needed: without storage the defaults apply.

/** The bot a new seat gets. A bot is one name, as pegs_rules.bots.make_bot takes it. */
export const DEFAULT_BOT = "medium";

/** The set-up "Play" starts when nothing was played before. */
export const DEFAULT_SETUP = Object.freeze({
  players: 4,
  preset: "arizona",
  rules: {},
  seats: ["human", DEFAULT_BOT, DEFAULT_BOT, DEFAULT_BOT],
  seed: null,
  pace: 400,
});

const SETUP = "pegs-playground.setup"; // js/first.js reads its player count
const SPEED = "pegs-playground.speed";

/** Milliseconds a peg takes for each hole it passes, by speed name. */
export const SPEEDS = { slow: 260, normal: 130, fast: 55 };

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key));
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or refused: the page works without it
  }
}

/** The set-up of the last game started here (fresh deal: no seed), or the default. */
export function savedSetup() {
  const saved = read(SETUP);
  const fits =
    saved &&
    [4, 6, 8].includes(saved.players) &&
    typeof saved.preset === "string" &&
    saved.rules && typeof saved.rules === "object" &&
    Array.isArray(saved.seats) && saved.seats.length === saved.players &&
    saved.seats.every((seat) => typeof seat === "string");
  if (!fits) return { ...DEFAULT_SETUP };
  return { ...DEFAULT_SETUP, ...saved, seed: null, pace: Number.isFinite(saved.pace) ? saved.pace : 400 };
}

/** Remember a set-up for "Play" next time (its seed is not kept: each game is a new deal). */
export function saveSetup(setup) {
  const { seed, ...kept } = setup;
  write(SETUP, kept);
  document.documentElement.dataset.players = String(setup.players);
}

/** True when the system asks for reduced motion: then moves are never animated. */
export function reducedMotion() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** True on a screen touched with a finger and no pointer that hovers (a phone, a tablet):
 * keyboard help is then left out (style.css hides its lines there too). */
export function touchOnly() {
  return matchMedia("(hover: none) and (pointer: coarse)").matches;
}

/** How fast moves are shown: "off", or a key of SPEEDS. */
export function moveSpeed() {
  if (reducedMotion()) return "off";
  const saved = read(SPEED);
  return saved === "off" || saved in SPEEDS ? saved : "normal";
}

export function saveMoveSpeed(name) {
  write(SPEED, name);
}

/** A set-up in a few words: "4 players, arizona rules: you at seat 0; medium bots at seats 1, 2 and 3". */
export function describeSetup(setup) {
  const bySeat = new Map();
  setup.seats.forEach((kind, seat) => {
    const name = kind === "human" ? "you" : `${kind.split(":")[0]} bot`;
    bySeat.set(name, [...(bySeat.get(name) || []), seat]);
  });
  const seats = [...bySeat].map(([name, list]) => {
    const plural = list.length > 1;
    const who = name === "you" ? (plural ? "people" : "you") : plural ? `${name}s` : name;
    return `${who} at seat${plural ? "s" : ""} ${listed(list)}`;
  });
  const house = Object.keys(setup.rules).length;
  const rules = house ? ` with ${house} house rule${house > 1 ? "s" : ""}` : "";
  return `${setup.players} players, ${setup.preset} rules${rules}: ${seats.join("; ")}.`;
}

/** "1", "1 and 2", "1, 2 and 3". */
export function listed(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
