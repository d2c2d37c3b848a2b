// The page: picks a transport, then shows the setup form, a game or rules-lawyer mode.
//
// The URL chooses where to begin (the contract for links and automated drivers):
//   ?players=4&seed=7&seats=human,greedy,greedy,mcts:0.5s   start that game at once
//       (also preset=standard, rule.FIELD=TEXT for a house rule, delay=MS between bot moves)
//   ?position=<URL-encoded position text>                   rules-lawyer mode on it
//       (also move=<notation>: explain that move at once)
// Anything else shows the setup form. <main aria-busy="true"> while the page waits for
// the engine (loading, or answering the person): drivers wait for aria-busy="false".

import { Board } from "./board.js";
import { announce, busy, say, showChoice } from "./controls.js";
import { Game } from "./game.js";
import { EXAMPLE, Lawyer } from "./lawyer.js";
import { Setup } from "./setup.js";
import { createTransport } from "./transport.js";

const $ = (selector) => document.querySelector(selector);

async function loadConfig() {
  try {
    const response = await fetch("config.json");
    if (response.ok) return await response.json();
  } catch {
    // served without a config: the defaults below
  }
  return {};
}

function engineStatus(text, level = "info") {
  const box = $("#engine-status");
  box.textContent = text;
  box.className = `engine-status ${level}`;
}

/** Show one screen: "setup", "game" or "study". */
function showScreen(screen) {
  document.body.dataset.screen = screen;
  $("#setup").hidden = screen !== "setup";
  $("#table").hidden = screen === "setup";
  for (const button of document.querySelectorAll("[data-screen-button]")) {
    button.setAttribute("aria-pressed", String(button.dataset.screenButton === screen));
  }
  $("#move-label").textContent = screen === "study" ? "Ask about a move" : "Type a move";
  $("#move-submit").textContent = screen === "study" ? "Explain" : "Play";
  if (screen === "study") {
    $("#move-input").disabled = false;
    $("#move-submit").disabled = false;
  }
}

function setupFromUrl(params) {
  const players = Number(params.get("players"));
  const seats = (params.get("seats") || "").split(",").map((seat) => seat.trim()).filter(Boolean);
  const rules = {};
  for (const [key, value] of params) if (key.startsWith("rule.")) rules[key.slice(5)] = value;
  const seedText = params.get("seed");
  return {
    players,
    preset: params.get("preset") || "arizona",
    rules,
    seats: seats.length ? seats : ["human", ...Array(Math.max(0, players - 1)).fill("greedy")],
    seed: seedText !== null && /^[0-9]{1,15}$/.test(seedText) ? Number(seedText) : null,
  };
}

async function main() {
  if (location.protocol === "file:") {
    engineStatus("This page must be served over HTTP: python -m http.server -d <this folder>", "error");
    return;
  }
  const config = await loadConfig();
  const docs = new URL(config.docs || "../", location.href);
  // config.json names the transport ("local" unless a server says "remote") and its options.
  const transport = await createTransport(config.transport || "local", config);
  if (transport.kind === "remote") {
    // a game on a server, opened from its join or spectator link
    $("header .subtitle").textContent = "online game";
    document.title = "Pegs and Jokers online game";
  }
  transport.onNotice(({ level, text, fatal }) => {
    engineStatus(fatal ? `${text} Reload the page to try again.` : text, level);
    if (fatal) say(text);
  });
  engineStatus("Loading the rules engine…");
  const hello = await transport.connect();
  document.body.dataset.engine = "ready";

  let screen = "setup";
  const handlers = {
    onMove: (notation) => (screen === "study" ? lawyer.explain(notation) : game.play(notation)),
    onChoice: (moves, more) =>
      showChoice(moves, more, (notation) => {
        showChoice([], false);
        handlers.onMove(notation);
      }),
    announce,
  };
  const board = new Board($("#board"), handlers);
  const game = new Game(transport, board, { docs, limits: hello.limits });
  const lawyer = new Lawyer(transport, board, { docs, limits: hello.limits });
  const go = (next) => {
    screen = next;
    showChoice([], false);
    say("");
    announce("");
    showScreen(next);
  };

  new Setup($("#setup-form"), hello, docs, async (value, pace) => {
    transport.botDelay = pace;
    go("game");
    if (!(await game.start(value))) go("setup");
  });

  $("#move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("#move-input").value;
    if (screen === "study") lawyer.explain(text);
    else game.play(text);
  });
  $("#new-game-button").addEventListener("click", () => {
    game.leave();
    go("setup");
    $("#setup-form").querySelector("input, select")?.focus();
  });
  $("#lawyer-button").addEventListener("click", async () => {
    game.leave();
    go("study");
    if (!lawyer.study) await lawyer.load(EXAMPLE);
    else lawyer.showPosition();
    $("[data-position-input]").focus();
  });

  $("#new-game-button").hidden = !transport.can.setup;
  $("#lawyer-button").hidden = !transport.can.study;
  const where = transport.kind === "local" ? "running in this page" : "on the server";
  engineStatus(`Engine ready: pegs-rules ${hello.version}, ${where}.`);
  await busy(openFromUrl(new URLSearchParams(location.search), { go, game, lawyer, transport }));
}

/** Begin where the address says (see the top of this file). */
async function openFromUrl(params, { go, game, lawyer, transport }) {
  if (params.has("position")) {
    go("study");
    if ((await lawyer.load(params.get("position"))) && params.get("move")) {
      $("#move-input").value = params.get("move");
      await lawyer.explain(params.get("move"));
    }
  } else if (params.has("players")) {
    transport.botDelay = Math.max(0, Number(params.get("delay") ?? 400) || 0);
    go("game");
    if (!(await game.start(setupFromUrl(params)))) {
      go("setup");
      say(`The game in the address cannot start: ${$("#message").textContent}`);
    }
  } else if (!transport.can.setup) {
    game.active = true; // a game the transport already has: its updates arrive by themselves
    go("game");
  } else {
    go("setup");
  }
}

main().catch((error) => {
  engineStatus(`Something went wrong: ${error.message || error}. Reload the page to try again.`, "error");
  $("main").setAttribute("aria-busy", "false");
});
