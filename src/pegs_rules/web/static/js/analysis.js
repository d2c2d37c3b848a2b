// Post-game analysis on the page: each team's chance of winning at every ply of a record, once
// asked for (#analysis-start: it keeps a core busy for some seconds), worked out in a Web Worker
// (analysis-worker.js) by the library's analyze: the numbers of `pegs analyze RECORD` with its
// defaults (the page's ?playouts=N asks for another budget). It fills in as it comes: a chart of
// team 0's chance (the library's chartSvg once done), the costliest plies with the move the
// expert would have played, a table of every ply, and the shown ply's numbers.
//
// Driver contract: #analysis-start starts it; #analysis[data-analysis] is "offered", "running",
// "done" or "error"; [data-win-chance] holds, for the ply the viewer shows, the chance (0 to 1)
// that the team of the seat that made its move (at the deal: of the seat to act) wins from
// there, and data-win-team that team; both are "" until known. The costly plies are
// li[data-ply][data-expert] in #analysis-costly.

const $ = (selector) => document.querySelector(selector);

const WIDTH = 640;
const HEIGHT = 200;

let worker = null;
let running = null; // { text, before, started, json }: the record offered, its analysis once done
let shown = null; // the ply the viewer shows, or null
let goTo = null; // the viewer's go(ply)

/** The viewer's way to show a ply, for the chart's marks; and the button that starts. */
export function setViewer(go) {
  goTo = go;
  $("#analysis-start").addEventListener("click", start);
}

/** The most playouts a state a link may ask for: ten times the default, a few minutes of a core
 * for a long game (a link is anybody's to write). */
const MAX_PLAYOUTS = 1000;

/** The budget asked for: the page's ?playouts=N (at most MAX_PLAYOUTS), else the library's
 * default. */
function playouts() {
  const asked = Number(new URLSearchParams(location.search).get("playouts"));
  return Number.isSafeInteger(asked) && asked > 0 ? Math.min(asked, MAX_PLAYOUTS) : undefined;
}

/** Offer to analyse the record `text` (a format-1 record's JSON), unless it is the one offered
 * (or analysed); `before` (optional, async) runs before a mark jumps to a ply (to open the
 * viewer). The analysis starts when asked (#analysis-start): it takes a core for a while. */
export function offerAnalysis(text, { before = null } = {}) {
  const box = $("#analysis");
  box.hidden = false;
  if (running?.text === text) {
    running.before = before;
    return;
  }
  stop();
  running = { text, before, json: null, started: false };
  box.dataset.analysis = "offered";
  $("#analysis-chart").replaceChildren();
  $("#analysis-costly").replaceChildren();
  $("#analysis-costly-title").hidden = true;
  $("#analysis-table").replaceChildren();
  $("#analysis-all").hidden = true;
  $("#analysis-bar").hidden = true;
  $("#analysis-start").hidden = false;
  $("#analysis-status").textContent = "";
  showPly();
}

function start() {
  const mine = running;
  if (!mine || mine.started) return;
  mine.started = true;
  $("#analysis").dataset.analysis = "running";
  $("#analysis-start").hidden = true;
  $("#analysis-bar").hidden = false;
  $("#analysis-bar").value = 0;
  $("#analysis-status").textContent = "Working out the chances…";
  showPly();
  worker = new Worker(new URL("js/analysis-worker.js", document.baseURI), { type: "module" });
  worker.onmessage = ({ data }) => {
    if (running === mine) received(data);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    if (running === mine) received({ type: "error", error: event.message || "the worker failed to load" });
  };
  const budget = playouts();
  $("#analysis").dataset.playouts = budget ?? ""; // empty: the library's default
  worker.postMessage({ record: mine.text, playouts: budget, seed: 0 });
}

/** No analysis: the worker stops and the section hides. */
export function stopAnalysis() {
  stop();
  $("#analysis").hidden = true;
}

function stop() {
  worker?.terminate();
  worker = null;
  running = null;
}

function received(data) {
  const box = $("#analysis");
  if (data.type === "error") {
    box.dataset.analysis = "error";
    $("#analysis-bar").hidden = true;
    $("#analysis-status").textContent = `The analysis failed: ${data.error}`;
    return;
  }
  if (data.type === "progress") {
    const { done, states, points, playouts: budget } = data;
    const bar = $("#analysis-bar");
    bar.max = states;
    bar.value = done;
    $("#analysis-status").textContent =
      done < states ? `Working out the chances: ${done} of ${states} positions…` : "Finding the expert's moves at the costliest plies…";
    drawProgress(points, 2 * budget);
    showPly();
    return;
  }
  const { analysis, svg } = data;
  running.json = analysis;
  box.dataset.analysis = "done";
  $("#analysis-bar").hidden = true;
  $("#analysis-status").textContent =
    `${analysis.plies.length} plies, ${analysis.playouts} playouts a position (seed ${analysis.seed}).`;
  const chart = $("#analysis-chart");
  chart.innerHTML = svg; // the library's chartSvg: made of numbers and move notation only
  for (const link of chart.querySelectorAll("a.costly")) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      jump(Number(link.dataset.ply));
    });
  }
  costly(analysis);
  table(analysis);
  showPly();
}

async function jump(ply) {
  await running?.before?.();
  await goTo?.(ply);
}

/** The chart while it fills in: the states known so far, on the finished chart's scale. */
function drawProgress(points, full) {
  const n = points.length - 1;
  const x = (k) => Math.floor((WIDTH * k) / Math.max(n, 1));
  const y = (p) => HEIGHT - Math.floor((HEIGHT * p) / full);
  const line = points.flatMap((p, k) => (p === null ? [] : [`${x(k)},${y(p)}`])).join(" ");
  const known = points.filter((p) => p !== null).length;
  $("#analysis-chart").innerHTML =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-8 -8 ${WIDTH + 16} ${HEIGHT + 16}" class="analysis-chart" ` +
    `aria-labelledby="chart-title chart-desc"><title id="chart-title">Team 0's chance of winning, ply by ply ` +
    `(being worked out)</title><desc id="chart-desc">${known} of ${n + 1} positions so far.</desc>` +
    `<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" class="frame" fill="#fff" stroke="#888"/>` +
    `<line x1="0" y1="${HEIGHT >> 1}" x2="${WIDTH}" y2="${HEIGHT >> 1}" class="even" stroke="#888" stroke-dasharray="4 4"/>` +
    `<text x="8" y="26" class="label" font-family="sans-serif" font-size="22" fill="#57606a">team 0 wins: 100%</text>` +
    `<text x="6" y="${HEIGHT - 8}" class="label" font-family="sans-serif" font-size="22" fill="#57606a">0%</text>` +
    `<polyline points="${line}" class="chance" fill="none" stroke="#1a5fb4" stroke-width="2"/></svg>`;
}

function percent(chance) {
  return `${Math.floor(chance * 100 + 1e-9)}%`;
}

function costly(analysis) {
  const items = analysis.costly.map(({ ply, played, expert }) => {
    const { seat, team, before, after } = analysis.plies[ply - 1];
    const item = document.createElement("li");
    item.dataset.ply = ply;
    item.dataset.expert = expert;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `Ply ${ply}`;
    button.addEventListener("click", () => jump(ply));
    const same = expert === played ? " (the same move: the fall came from the cards still to come, or from the playouts' luck)" : "";
    item.append(
      button,
      ` seat ${seat} played ${played}: team ${team} ${percent(before)} → ${percent(after)}. The expert would have played `,
      Object.assign(document.createElement("strong"), { textContent: expert }),
      `${same}.`,
    );
    return item;
  });
  $("#analysis-costly").replaceChildren(...items);
  $("#analysis-costly-title").hidden = !items.length;
}

function table(analysis) {
  const rows = analysis.plies.map(({ ply, seat, team, move, before, after }) => {
    const row = document.createElement("tr");
    for (const text of [ply, `${seat} (team ${team})`, move, percent(before), percent(after)]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  });
  $("#analysis-table").replaceChildren(...rows);
  $("#analysis-all").hidden = false;
}

/** The viewer shows ply `ply` (null: no ply, as at the end of a game played here). */
export function analysisPly(ply) {
  shown = ply;
  showPly();
}

/** The shown ply's numbers, once worked out, and its place on the chart. */
function showPly() {
  const line = $("#analysis-ply");
  line.hidden = shown === null || !running?.started;
  for (const old of document.querySelectorAll("#analysis-chart .now")) old.remove();
  const json = running?.json;
  if (shown === null || !json) {
    line.dataset.winChance = line.dataset.winTeam = "";
    line.textContent = running ? `Ply ${shown}: being worked out.` : "";
    return;
  }
  const ply = shown > 0 ? json.plies[shown - 1] : null;
  const team = ply ? ply.team : (json.plies[0]?.team ?? 0);
  const chance = ply ? ply.after : team === 0 ? json.chances[0] : 1 - json.chances[0];
  line.dataset.winChance = String(chance);
  line.dataset.winTeam = String(team);
  line.textContent = ply
    ? `Ply ${shown}: seat ${ply.seat}'s team ${team}, ${percent(ply.before)} before the move, ${percent(ply.after)} after.`
    : `The deal: team ${team}, to act first, ${percent(chance)}.`;
  const frame = document.querySelector("#analysis-chart .frame");
  const now = document.createElementNS("http://www.w3.org/2000/svg", "line");
  const x = Math.floor((WIDTH * shown) / Math.max(json.chances.length - 1, 1));
  for (const [name, value] of Object.entries({ class: "now", x1: x, y1: 0, x2: x, y2: HEIGHT, stroke: "#888", "stroke-width": 3 })) {
    now.setAttribute(name, value);
  }
  frame?.after(now);
}
