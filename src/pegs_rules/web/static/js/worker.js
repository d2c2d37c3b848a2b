// The Web Worker of the local transport: Pyodide, the pegs_rules wheel and one
// pegs_rules.web.bridge.Session, so that the page never waits on Python.
//
// From the page:  { id, request }   request: a bridge request ({ op, ... })
//                 { pace: ms }      the pause between two bot moves
//                 { shown: true }   the page has shown the last update
// To the page:    { id, answer }    the bridge's answer to request `id`
//                 { push: answer }  an update nobody asked for: a bot's move
//                 { notice }        what the engine is doing while it loads (a transport
//                                   notice: phase "download" with progress in bytes, then
//                                   phase "start" at each step of starting up) and fatal errors
//
// Python starting up is most of the engine's loading time, so the worker keeps a memory
// snapshot of the engine started (Pyodide's, with pegs_rules imported and warmed up), one
// per site, for the engine (runtime and wheel) that made it (snapshot.js): a later visit
// restores it instead of starting Python again. A snapshot that cannot be restored is
// dropped and the engine starts anew.
//
// Bots play one move per message: once the page has shown an update whose `next` is "bot",
// the worker asks the bridge for the bot's move after the pause, so requests from the page
// are answered between two bot moves, the game can be left at any time, and a move being
// animated in the page is never overtaken by the next one.

import { SnapshotStore } from "./snapshot.js";

const config = new URL(self.location.href).searchParams;
const runtime = new URL(config.get("pyodide") || "../pyodide/", self.location.href);
const wheel = new URL(config.get("wheel"), self.location.href);
const download = JSON.parse(config.get("download") || "{}"); // bytes of each file, by URL
const engine = config.get("engine") || ""; // a digest of runtime and wheel: a snapshot fits no other
const snapshots = new SnapshotStore(config.get("site") || "", engine);

let session = null;
let pace = 400;
let next = null; // `next` of the last update sent: "bot" when a bot is to move
let botTimer = null;
const waiting = [];

function notice(level, text, fatal = false) {
  postMessage({ notice: { level, text, fatal } });
}

/** Say which step of starting up the engine has reached (phase "start"). */
function starting(text) {
  postMessage({ notice: { level: "info", text, phase: "start" } });
}

/** Count the bytes of the engine's files as they arrive, for the page's progress bar (phase
 * "download"); once they are all in, say that Python is starting. Returns what to call once
 * the engine needs no more of them (some are never fetched when a snapshot is restored). */
function countDownloads() {
  const total = Object.values(download).reduce((sum, size) => sum + size, 0);
  const received = new Map();
  let reported = -1;
  let done = false;
  const report = () => {
    if (done) return;
    const loaded = Math.min(total, [...received.values()].reduce((sum, size) => sum + size, 0));
    if (reported >= 0 && loaded - reported < total / 100 && loaded < total) return;
    reported = loaded;
    const text = "Downloading the rules engine";
    postMessage({ notice: { level: "info", text, phase: "download", progress: { loaded, total } } });
    if (loaded === total) {
      done = true;
      starting("Starting Python");
    }
  };
  report();
  const fetchFirst = self.fetch;
  self.fetch = async (resource, options) => {
    const response = await fetchFirst(resource, options);
    const url = new URL(response.url || String(resource), self.location.href).href;
    if (url in download && response.body) {
      received.set(url, 0);
      (async () => {
        const reader = response.clone().body.getReader();
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          received.set(url, received.get(url) + chunk.value.byteLength);
          report();
        }
      })().catch(() => {});
    }
    return response;
  };
  // Modules (pyodide.mjs, pyodide.asm.mjs) are imported, not fetched: count each once loaded.
  new PerformanceObserver((entries) => {
    for (const entry of entries.getEntries()) {
      if (entry.name in download && !received.has(entry.name)) {
        received.set(entry.name, download[entry.name]);
        report();
      }
    }
  }).observe({ type: "resource", buffered: true });
  return () => {
    self.fetch = fetchFirst;
    for (const [url, size] of Object.entries(download)) received.set(url, size);
    report();
  };
}

async function start() {
  const downloaded = countDownloads();
  const [{ loadPyodide }, kept] = await Promise.all([import(new URL("pyodide.mjs", runtime).href), snapshots.read()]);
  const options = { indexURL: runtime.href, stdout: () => {}, stderr: () => {} };
  if (kept) downloaded(); // the rest comes from the cache, with the snapshot
  let pyodide = kept ? await restore(loadPyodide, options, kept) : null;
  if (pyodide === null) {
    const wheelBytes = fetch(wheel).then((response) => response.arrayBuffer()); // meanwhile
    pyodide = await loadPyodide({ ...options, _makeSnapshot: snapshots.usable });
    downloaded();
    starting("Installing pegs-rules");
    pyodide.FS.writeFile("/tmp/pegs_rules.whl", new Uint8Array(await wheelBytes));
    pyodide.runPython(
      "import site, zipfile\n" + // a pure-Python wheel installs by unpacking it
        "zipfile.ZipFile('/tmp/pegs_rules.whl').extractall(site.getsitepackages()[0])\n" +
        "import pegs_rules.web.bridge",
    );
    starting("Warming up the engine");
    pyodide.runPython("import pegs_rules.web.bridge\npegs_rules.web.bridge.warm_up()");
    if (snapshots.usable) snapshots.write(pyodide.makeMemorySnapshot()); // before any Python object reaches JS
  }
  const bridge = pyodide.pyimport("pegs_rules.web.bridge");
  session = bridge.Session();
  for (const message of waiting.splice(0)) receive(message);
}

/** The engine restored from the snapshot `kept`, or null (it failed: the snapshot is dropped). */
async function restore(loadPyodide, options, kept) {
  try {
    return await loadPyodide({ ...options, _loadSnapshot: kept });
  } catch {
    await snapshots.clear();
    return null;
  }
}

function ask(request) {
  return JSON.parse(session.handle(JSON.stringify(request)));
}

function sent(answer) {
  if (answer.ok && answer.type === "update") next = answer.next;
}

function moveBot() {
  clearTimeout(botTimer);
  botTimer = null;
  if (next !== "bot") return;
  botTimer = setTimeout(() => {
    const update = ask({ op: "advance" });
    sent(update);
    if (!update.ok) next = null;
    postMessage({ push: update });
  }, pace);
}

function receive({ data }) {
  if (session === null) {
    waiting.push({ data });
    return;
  }
  if (data.pace !== undefined) {
    pace = Math.max(0, Number(data.pace) || 0);
    return;
  }
  if (data.shown) {
    moveBot();
    return;
  }
  const { op } = data.request;
  if (["new_game", "play", "leave"].includes(op)) {
    clearTimeout(botTimer); // the game changed: a bot's move waiting for its pause is dropped
    next = null;
  }
  const answer = ask(data.request);
  if (["new_game", "play"].includes(op)) sent(answer);
  postMessage({ id: data.id, answer });
}

self.onmessage = receive;
start().catch((error) => notice("error", `The engine could not start: ${error.message || error}`, true));
