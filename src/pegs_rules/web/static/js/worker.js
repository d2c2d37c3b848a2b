// The Web Worker of the local transport: Pyodide, the pegs_rules wheel and one
// pegs_rules.web.bridge.Session, so that the page never waits on Python.
//
// From the page:  { id, request }   request: a bridge request ({ op, ... })
//                 { pace: ms }      the pause between two bot moves
// To the page:    { id, answer }    the bridge's answer to request `id`
//                 { push: answer }  an update nobody asked for: a bot's move
//                 { notice }        loading progress and fatal errors
//
// Bots play one move per message: after any update whose `next` is "bot" the worker
// asks the bridge for the bot's move after the pause, so requests from the page are
// answered between two bot moves and the game can be left at any time.

const config = new URL(self.location.href).searchParams;
const runtime = new URL(config.get("pyodide") || "../pyodide/", self.location.href);
const wheel = new URL(config.get("wheel"), self.location.href);

let session = null;
let pace = 400;
let botTimer = null;
const waiting = [];

function notice(level, text, fatal = false) {
  postMessage({ notice: { level, text, fatal } });
}

async function start() {
  const started = performance.now();
  notice("info", "Loading Python (Pyodide)…");
  const { loadPyodide } = await import(new URL("pyodide.mjs", runtime).href);
  const pyodide = await loadPyodide({ indexURL: runtime.href, stdout: () => {}, stderr: () => {} });
  notice("info", "Installing the rules engine…");
  await pyodide.loadPackage(wheel.href, { messageCallback: () => {}, errorCallback: () => {} });
  const bridge = pyodide.pyimport("pegs_rules.web.bridge");
  session = bridge.Session();
  notice("info", `Engine ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const message of waiting.splice(0)) receive(message);
}

function ask(request) {
  return JSON.parse(session.handle(JSON.stringify(request)));
}

function scheduleBot(answer) {
  clearTimeout(botTimer);
  botTimer = null;
  if (answer.ok && answer.type === "update" && answer.next === "bot") {
    botTimer = setTimeout(() => {
      const update = ask({ op: "advance" });
      postMessage({ push: update });
      scheduleBot(update);
    }, pace);
  }
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
  const answer = ask(data.request);
  postMessage({ id: data.id, answer });
  if (["new_game", "play", "leave"].includes(data.request.op)) scheduleBot(answer);
}

self.onmessage = receive;
start().catch((error) => notice("error", `The engine could not start: ${error.message || error}`, true));
