// The Web Worker of Python's part of the page (python.js starts it the first time the hint
// or a searching bot is needed): Pyodide, the pegs_rules wheel and one
// pegs_rules.web.bridge.Session, so that the page never waits on Python.
//
// From the page:  { id, request }   request: a bridge request ({ op, ... })
// To the page:    { id, answer }    the bridge's answer to request `id`
//                 { notice }        what Python is doing while it loads (a transport notice:
//                                   phase "download" with progress in bytes, then phase
//                                   "start" at each step of starting up, then phase "done"),
//                                   or why it could not start (level "error")
// Requests sent while Python loads are answered, in order, once it has started.

const config = new URL(self.location.href).searchParams;
const runtime = new URL(config.get("pyodide") || "../pyodide/", self.location.href);
const wheel = new URL(config.get("wheel"), self.location.href);
const download = JSON.parse(config.get("download") || "{}"); // bytes of each file, by URL

let session = null;
let failed = null; // why Python could not start, once it could not
const waiting = [];

function notice(text, phase, extra = {}) {
  postMessage({ notice: { level: "info", text, phase, ...extra } });
}

/** Count the bytes of Python's files as they arrive, for the page's progress bar (phase
 * "download"); once they are all in, say that Python is starting. Returns what to call once
 * Python needs no more of them. */
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
    notice("Downloading Python", "download", { progress: { loaded, total } });
    if (loaded === total) {
      done = true;
      notice("Starting Python", "start");
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
  const wheelBytes = fetch(wheel).then((response) => response.arrayBuffer()); // meanwhile
  const { loadPyodide } = await import(new URL("pyodide.mjs", runtime).href);
  const pyodide = await loadPyodide({ indexURL: runtime.href, stdout: () => {}, stderr: () => {} });
  downloaded();
  notice("Installing pegs-rules", "start");
  pyodide.FS.writeFile("/tmp/pegs_rules.whl", new Uint8Array(await wheelBytes));
  pyodide.runPython(
    "import site, zipfile\n" + // a pure-Python wheel installs by unpacking it
      "zipfile.ZipFile('/tmp/pegs_rules.whl').extractall(site.getsitepackages()[0])",
  );
  session = pyodide.pyimport("pegs_rules.web.bridge").Session();
  notice("Python ready: the hint and the searching bots run in this page.", "done");
  for (const data of waiting.splice(0)) answer(data);
}

function answer({ id, request }) {
  if (failed) {
    postMessage({ id, answer: { ok: false, kind: "internal", error: failed } });
    return;
  }
  postMessage({ id, answer: JSON.parse(session.handle(JSON.stringify(request))) });
}

self.onmessage = ({ data }) => {
  if (session === null && failed === null) waiting.push(data);
  else answer(data);
};

start().catch((error) => {
  failed = `Python could not start: ${error.message || error}`;
  postMessage({ notice: { level: "error", text: failed } });
  for (const data of waiting.splice(0)) answer(data);
});
