// The front door of `pegs serve`: set up a game, create it, and wait for the people to join.
//
// What the page offers comes from the server (the JSON in #options). "Create game" sends
// POST /api/games; the answer's links are kept in this browser (localStorage), so the waiting
// room, at /#game=<id>, survives a reload and the creator's own seat is one click away. Who has
// joined is read from GET /api/games/<id> every two seconds; once a seat starts the next game
// ("Play again" in the game's page), the same links lead there and the room follows it.
// A game created "open to anyone" is listed on this page (GET /api/open) while a seat is free;
// "Join" claims one (POST /api/games/<id>/seat) and opens its new link.

const $ = (selector) => document.querySelector(selector);
const options = JSON.parse($("#options").textContent);
const KEPT = "pegs-front-games";
const POLL_MS = 2000;
const SEAT_COLOURS = 8;

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

function words(name) {
  return String(name).replaceAll("_", " ");
}

function seatDot(seat) {
  const dot = element("span", { class: "seat-dot", "aria-hidden": "true" });
  dot.style.background = `var(--seat-${seat % SEAT_COLOURS})`;
  return dot;
}

// --- the set-up form ----------------------------------------------------------------------

function buildForm() {
  const counts = $("#player-counts");
  for (const players of [4, 6, 8]) {
    const input = element("input", { type: "radio", name: "players", value: String(players), id: `players-${players}` });
    input.checked = players === 4;
    counts.append(element("label", { for: input.id }, input, ` ${players} players`));
  }
  const preset = $("#preset");
  for (const name of Object.keys(options.presets)) preset.append(element("option", { value: name }, name));
  const house = $("#house-rules");
  for (const rule of options.house_rules) {
    const id = `rule-${rule.name}`;
    let control;
    if (rule.choices) {
      control = element("select", { id, name: rule.name });
      for (const choice of rule.choices) control.append(element("option", { value: choice }, words(choice)));
    } else {
      control = element("input", { type: "checkbox", id, name: rule.name });
    }
    const help = element("a", { href: `/rules/${rule.ruling}.html`, target: "_blank", rel: "noopener" }, "the rule");
    const label = element("label", { for: id }, rule.label);
    const parts = rule.choices ? [label, " ", control] : [control, " ", label]; // a box before its words
    house.append(element("p", { class: `house-rule ${rule.choices ? "rule-select" : "rule-box"}` }, ...parts, " ", help));
  }
  preset.addEventListener("change", presetDefaults);
  counts.addEventListener("change", seatControls);
  presetDefaults();
  seatControls();
  $("#new-game-form").addEventListener("submit", (event) => {
    event.preventDefault();
    createGame();
  });
}

function presetDefaults() {
  const values = options.presets[$("#preset").value].rules;
  for (const rule of options.house_rules) {
    const control = document.getElementById(`rule-${rule.name}`);
    if (rule.choices) control.value = values[rule.name];
    else control.checked = values[rule.name];
  }
}

function playerCount() {
  return Number(document.querySelector("input[name=players]:checked").value);
}

function seatControls() {
  const list = $("#seat-kinds");
  const before = [...list.querySelectorAll("select")].map((select) => select.value);
  list.replaceChildren();
  for (let seat = 0; seat < playerCount(); seat += 1) {
    const id = `seat-${seat}`;
    const select = element("select", { id, "data-seat-kind": String(seat) });
    select.append(element("option", { value: "human" }, "a person"));
    for (const level of options.levels) {
      select.append(element("option", { value: level.name }, `bot: ${level.label.toLowerCase()}`));
    }
    select.value = before[seat] || "human";
    const label = element("label", { for: id }, seatDot(seat), `Seat ${seat}`);
    list.append(element("li", {}, label, " ", select, element("span", { class: "hint" }, ` team ${seat % 2}`)));
  }
}

function newGameBody() {
  const preset = $("#preset").value;
  const defaults = options.presets[preset].rules;
  const house = {};
  for (const rule of options.house_rules) {
    const control = document.getElementById(`rule-${rule.name}`);
    const value = rule.choices ? control.value : control.checked;
    if (value !== defaults[rule.name]) house[rule.name] = value;
  }
  const seats = [...document.querySelectorAll("#seat-kinds select")].map((select) => select.value);
  const body = { players: playerCount(), preset, seats, open: $("#open").checked };
  if (Object.keys(house).length) body.house_rules = { name: `${preset} with house rules`, ...house };
  return body;
}

async function createGame() {
  const button = $("#create");
  button.disabled = true;
  showRefusal(null);
  const body = newGameBody();
  try {
    const response = await fetch("/api/games", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (response.status !== 201) {
      showRefusal(refusal(response, answer));
      return;
    }
    const game = { ...answer, seats: body.seats, preset: body.preset, house: body.house_rules?.name ?? null, open: body.open };
    keep(game);
    location.hash = `game=${encodeURIComponent(game.id)}`;
  } catch {
    showRefusal({ title: "The server could not be reached.", problems: [], advice: "Check your connection, then press Create game again." });
  } finally {
    button.disabled = false;
  }
}

/** What the page says about a refused POST /api/games: a sentence, the server's problems, advice. */
function refusal(response, answer) {
  const problems = Array.isArray(answer.problems) ? answer.problems.map(String) : [];
  const wait = Number(response.headers.get("Retry-After")) || null;
  const later = wait ? `Try again in ${wait < 90 ? `${wait} seconds` : `${Math.round(wait / 60)} minutes`}.` : "Try again later.";
  if (answer.error === "too_many_games") {
    return { title: "This address has as many unfinished games as the server allows.", problems, advice: "" };
  }
  if (answer.error === "rate_limited") {
    return { title: "Too many requests from this address just now.", problems: [], advice: later };
  }
  if (answer.error === "blocked") {
    return { title: "The server's operator has blocked this address.", problems: [], advice: "" };
  }
  if (response.status === 503) {
    return { title: "The server cannot start another game just now.", problems, advice: later };
  }
  if (response.status === 400) {
    return { title: "The server did not accept this set-up.", problems, advice: "Change what it names and press Create game again." };
  }
  return { title: `The server refused the game (${response.status}).`, problems, advice: later };
}

function showRefusal(refused) {
  const box = $("#refusal");
  box.hidden = !refused;
  if (!refused) return;
  box.replaceChildren(element("p", {}, element("strong", {}, refused.title)));
  if (refused.problems.length) box.append(element("ul", {}, ...refused.problems.map((p) => element("li", {}, p))));
  if (refused.advice) box.append(element("p", {}, refused.advice));
  box.focus();
}

// --- the open games -----------------------------------------------------------------------

let listing = null;

/** List the open games with a free seat (again every ten seconds while the form shows). */
async function listOpenGames() {
  clearTimeout(listing);
  if ($("#new-game").hidden) return;
  let games = [];
  try {
    const response = await fetch("/api/open");
    if (response.ok) games = (await response.json()).games;
  } catch {
    // the next turn tries again
  }
  const rows = games.map((game) => {
    const people = game.seats.filter((kind) => kind === "human").length;
    const bots = game.seats.length - people;
    const what = `${game.seats.length} players, ${game.rules} rules, ${people} ${people === 1 ? "person" : "people"}${bots ? ` and ${bots} ${bots === 1 ? "bot" : "bots"}` : ""}`;
    const free = `${game.free.length} free ${game.free.length === 1 ? "seat" : "seats"}${game.ply ? `, move ${game.ply}` : ""}`;
    const join = element("button", { type: "button", class: "primary", "data-claim": game.id, "aria-label": `Join game ${game.id}: ${what}` }, "Join");
    return element("li", { class: "link-row", "data-open-game": game.id }, element("span", {}, element("strong", {}, what), element("br"), element("span", { class: "hint" }, `Game ${game.id}: ${free}`)), join);
  });
  $("#open-list").replaceChildren(...rows);
  $("#open-games").hidden = !rows.length;
  listing = setTimeout(listOpenGames, 10_000);
}

async function claim(button) {
  button.disabled = true;
  const box = $("#claim-refusal");
  box.hidden = true;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(button.dataset.claim)}/seat`, { method: "POST" });
    const answer = await response.json().catch(() => ({}));
    if (response.ok) {
      location.assign(answer.link);
      return;
    }
    const problem = (answer.problems || [])[0] || `the server answered ${response.status}`;
    box.textContent = `That seat could not be taken: ${problem}.`;
  } catch {
    box.textContent = "The server could not be reached: check your connection and try again.";
  }
  box.hidden = false;
  box.focus();
  button.disabled = false;
  listOpenGames();
}

// --- the waiting room ---------------------------------------------------------------------

function keptGames() {
  try {
    return JSON.parse(localStorage.getItem(KEPT) || "{}");
  } catch {
    return {};
  }
}

function keep(game) {
  const games = keptGames();
  games[game.id] = game;
  const recent = Object.fromEntries(Object.entries(games).slice(-20));
  localStorage.setItem(KEPT, JSON.stringify(recent));
}

let polling = null;

function show() {
  clearTimeout(polling);
  const wanted = new URLSearchParams(location.hash.slice(1)).get("game");
  const game = wanted ? keptGames()[wanted] : null;
  $("#new-game").hidden = Boolean(game);
  $("#waiting-room").hidden = !game;
  document.title = game ? "Pegs and Jokers: waiting room" : "Pegs and Jokers: play online";
  if (game) waitingRoom(game);
  else listOpenGames();
  $("#main").focus();
}

/** A seat's link into game ``id`` (the same token works in every following game). */
function linkInto(link, id) {
  const url = new URL(link);
  url.pathname = `/play/${encodeURIComponent(id)}`;
  return url.href;
}

function waitingRoom(game) {
  const people = game.seats.map((kind, seat) => (kind === "human" ? seat : null)).filter((seat) => seat !== null);
  const rules = game.house ?? `${game.preset} rules`;
  $("#game-line").textContent = `Game ${game.id}: ${game.seats.length} players, ${rules}; ${people.length ? `${people.length} ${people.length === 1 ? "person" : "people"}` : "bots only"}.`;
  const rows = people.map((seat) => {
    const link = element("a", { href: game.links[seat], "data-seat-link": "", "data-seat": String(seat), id: `link-${seat}` }, game.links[seat]);
    const state = element("span", { class: "state", "data-seat-state": String(seat), "data-joined": "false" }, "not joined yet");
    const who = element("span", { class: "who" }, seatDot(seat), element("strong", {}, `Seat ${seat}`), ` (team ${seat % 2})${seat === people[0] ? ", yours" : ""}: `, state);
    return element("li", { class: "link-row" }, who, link, element("button", { type: "button", class: "copy", "data-copy-for": link.id, "aria-label": `Copy seat ${seat}'s link` }, "Copy"));
  });
  $("#seat-links").replaceChildren(...rows);
  for (const node of document.querySelectorAll("[data-people]")) node.hidden = !people.length;
  $("#open-note").hidden = !(game.open && people.length > 1);
  const spectator = $("#spectator-link");
  spectator.href = spectator.textContent = game.spectator;
  const own = $("#own-seat");
  own.href = people.length ? game.links[people[0]] : game.spectator;
  own.textContent = people.length ? `Take your seat (seat ${people[0]})` : "Watch the game";
  follow(game, game.id, people, null);
}

/** Read the game's summary every two seconds: who has joined, how far it is, its next game. */
async function follow(game, id, people, before) {
  let summary = null;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(id)}`);
    if (response.ok) summary = await response.json();
  } catch {
    // the next poll tries again
  }
  if (summary) {
    if (summary.next) {
      for (const seat of people) {
        const link = document.getElementById(`link-${seat}`);
        link.href = link.textContent = linkInto(game.links[seat], summary.next);
      }
      const spectator = $("#spectator-link");
      spectator.href = spectator.textContent = linkInto(game.spectator, summary.next);
      $("#own-seat").href = people.length ? linkInto(game.links[people[0]], summary.next) : spectator.href;
      id = summary.next;
      $("#joined").textContent = "A seat started the next game: the links below now lead to it.";
      polling = setTimeout(() => follow(game, id, people, null), POLL_MS);
      return;
    }
    const joined = new Set(summary.connected);
    for (const seat of people) {
      const state = document.querySelector(`[data-seat-state="${seat}"]`);
      state.dataset.joined = String(joined.has(seat));
      state.textContent = joined.has(seat) ? "joined" : "not joined yet";
    }
    const here = people.filter((seat) => joined.has(seat));
    const line = summary.winner !== null
      ? `The game is over: team ${summary.winner} won in ${summary.ply} moves.`
      : `${here.length} of ${people.length} ${people.length === 1 ? "person has" : "people have"} joined${here.length ? ` (seat ${here.join(", seat ")})` : ""}${summary.ply ? `; move ${summary.ply} is being played` : ""}.`;
    if (line !== before) $("#joined").textContent = line;
    before = line;
  }
  polling = setTimeout(() => follow(game, id, people, before), POLL_MS);
}

async function copy(button) {
  const link = document.getElementById(button.dataset.copyFor);
  let done = false;
  try {
    await navigator.clipboard.writeText(link.href);
    done = true;
  } catch {
    const range = document.createRange(); // without the clipboard API (plain http): select and copy
    range.selectNodeContents(link);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    done = document.execCommand("copy");
  }
  button.textContent = done ? "Copied" : "Select and copy";
  setTimeout(() => { button.textContent = "Copy"; }, 2000);
}

buildForm();
document.addEventListener("click", (event) => {
  const button = event.target.closest("button.copy");
  if (button) copy(button);
  const join = event.target.closest("button[data-claim]");
  if (join) claim(join);
});
$("#set-up-another").addEventListener("click", () => {
  location.hash = "";
});
window.addEventListener("hashchange", show);
show();
