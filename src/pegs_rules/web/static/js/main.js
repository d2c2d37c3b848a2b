// The page: picks a transport, then shows the home screen (a board and "Play" while the
// engine loads), the set-up form, a game, rules-lawyer mode or the record viewer.
//
// The URL chooses where to begin (the contract for links and automated drivers):
//   ?players=4&seed=7&seats=human,greedy,greedy,mcts:0.5s   start that game at once
//       (also preset=standard, rule.FIELD=TEXT for a house rule, delay=MS between bot moves)
//   ?position=<URL-encoded position text>                   rules-lawyer mode on it
//       (also move=<notation>: explain that move at once)
//   ?record=<a record's URL, or its JSON>                   the record viewer on it
//       (also ply=N: open it at that ply; delay=MS between plies when autoplaying)
// Anything else shows the home screen. <main aria-busy="true"> while the page waits for
// the engine (loading, answering, or showing a move): drivers wait for aria-busy="false".

import { Board } from "./board.js";
import { announce, busy, say, showChoice } from "./controls.js";
import { Game } from "./game.js";
import { hideHint } from "./hint.js";
import { EXAMPLE, Lawyer } from "./lawyer.js";
import { EngineStatus } from "./loading.js";
import { describeSetup, moveSpeed, reducedMotion, saveMoveSpeed, saveSetup, savedSetup } from "./prefs.js";
import { Setup } from "./setup.js";
import { createTransport } from "./transport.js";
import { Viewer } from "./viewer.js";

const $ = (selector) => document.querySelector(selector);

const status = new EngineStatus();

async function loadConfig() {
  try {
    const response = await fetch("config.json");
    if (response.ok) return await response.json();
  } catch {
    // served without a config: the defaults below
  }
  return {};
}

/** Show one screen: "home", "setup", "game", "study" or "replay" (<body data-screen>).
 * Elements with data-screens="a b" are shown on those screens only (style.css), from the
 * first paint on. */
function showScreen(screen) {
  document.body.dataset.screen = screen;
  $("#setup").hidden = screen !== "setup";
  $("#table").hidden = screen === "setup";
  for (const button of document.querySelectorAll("[data-screen-button]")) {
    button.setAttribute("aria-pressed", String(button.dataset.screenButton === screen));
  }
  const asking = screen === "study" || screen === "replay";
  $("#move-label").textContent = asking ? "Ask about a move" : "Type a move";
  $("#move-submit").textContent = asking ? "Explain" : "Play";
  if (asking) {
    $("#move-input").disabled = false;
    $("#move-submit").disabled = false;
    $("#hint-button").disabled = false;
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
    pace: Math.max(0, Number(params.get("delay") ?? 400) || 0),
  };
}

/** The service worker (sw.js) caches the site for a fast, offline second
 * visit. When a new build takes over, a page still on its home screen reloads into it; one in
 * use says so. Returns what registers it, to be called once the first screen is shown: on a
 * first visit its downloads then wait for what that screen needs. */
function serviceWorker(idle) {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return () => {};
  const updating = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!updating) return; // the first install: this page is already the build it caches
    if (idle()) location.reload();
    else status.notice({ text: "A new version of the playground is ready: reload the page to use it." });
  });
  return () =>
    navigator.serviceWorker.register("sw.js").catch(() => {
      // no cache, no offline use: the page works as before
    });
}

async function main() {
  if (location.protocol === "file:") {
    status.error("This page must be served over HTTP: python -m http.server -d <this folder>");
    return;
  }
  const config = await loadConfig();
  const params = new URLSearchParams(location.search);
  const docs = new URL(config.docs || "../", location.href);
  const kind = config.transport || "local";
  document.body.dataset.build = config.build || "";
  if (config.build) $("#build-line").textContent = `pegs-rules ${config.version}, build ${config.build}`;
  let screen = "home";
  let started = false; // anything asked for beyond the home screen
  const cacheSite = kind === "local" ? serviceWorker(() => !started && screen === "home") : () => {};
  const transport = await createTransport(kind, config);
  if (transport.kind === "remote") {
    // a game on a server, opened from its join or spectator link
    $("header .subtitle").textContent = "online game";
    document.title = "Pegs and Jokers online game";
  }
  transport.onNotice((notice) => {
    status.notice(notice);
    if (notice.fatal) say(notice.text);
  });

  $("#new-game-button").hidden = !transport.can.setup;
  $("#lawyer-button").hidden = !transport.can.study;
  $("#replay-button").hidden = !transport.can.replay;
  $("#hint-button").closest("p").hidden = !transport.can.hint;
  const go = (next) => {
    screen = next;
    showChoice([], false);
    hideHint();
    say("");
    announce("");
    showScreen(next);
  };
  go(transport.can.setup ? "home" : "game");

  // What the person asks for before the engine is ready is done once it is.
  let ready = false;
  let wanted = null;
  const when = (action, words) => {
    started = true;
    if (ready) return action();
    wanted = action;
    status.queue(words);
    return undefined;
  };
  let setup = savedSetup();
  $("#play-summary").textContent = describeSetup(setup);
  const soon = (what) => `${what} once the engine is ready.`;
  $("#play-button").addEventListener("click", () => when(() => startGame(setup), soon("Your game starts")));
  $("#change-setup").addEventListener("click", () => when(() => openSetup(), soon("The set-up opens")));
  $("#new-game-button").addEventListener("click", () => when(() => openSetup(), soon("The set-up opens")));
  $("#lawyer-button").addEventListener("click", () => when(() => openLawyer(), soon("The rules lawyer opens")));
  $("#replay-button").addEventListener("click", () => when(() => openViewer(), soon("The record viewer opens")));
  const speed = $("#move-speed");
  speed.value = moveSpeed();
  speed.disabled = reducedMotion();
  $("#speed-note").textContent = reducedMotion() ? "(your system asks for reduced motion)" : "";
  speed.addEventListener("change", () => saveMoveSpeed(speed.value));
  $("#record-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    const text = await file.text();
    when(() => openRecord(text), soon("The record opens"));
  });
  document.addEventListener("dragover", (event) => {
    if (!transport.can.replay || !event.dataTransfer?.types.includes("Files")) return;
    event.preventDefault();
    document.body.classList.add("dragging");
  });
  document.addEventListener("dragleave", (event) => {
    if (!event.relatedTarget) document.body.classList.remove("dragging");
  });
  document.addEventListener("drop", async (event) => {
    document.body.classList.remove("dragging");
    const file = event.dataTransfer?.files[0];
    if (!transport.can.replay || !file) return;
    event.preventDefault(); // before any wait: else the browser opens the file itself
    const text = await file.text();
    when(() => openRecord(text), soon("The record opens"));
  });

  if (transport.kind === "remote") status.notice({ text: "Connecting to the game's server" });
  const hello = await transport.connect();

  const handlers = {
    onMove: (notation) => (screen === "game" ? game.play(notation) : lawyer.explain(notation)),
    // The moves that fit a pick, offered for this update of the game (or this studied
    // position) only: once it is gone, its buttons play nothing.
    onChoice: (moves, more) => {
      const offered = shownNow();
      showChoice(moves, more, (notation) => {
        showChoice([], false);
        if (shownNow() === offered) handlers.onMove(notation);
      });
    },
    announce,
  };
  const shownNow = () => (screen === "game" ? game.update : lawyer.study);
  const board = new Board($("#board"), handlers);
  const lawyer = new Lawyer(transport, board, { docs, limits: hello.limits });
  const viewer = new Viewer(transport, board, lawyer, { docs });
  const game = new Game(transport, board, {
    docs,
    limits: hello.limits,
    onReplay: (record) => openRecord(JSON.stringify(record)),
    onPlayAgain: () => startGame(setup),
  });
  const setupForm = new Setup($("#setup-form"), hello, docs, setup, (chosen) => startGame(chosen));

  async function startGame(chosen, { remember = true } = {}) {
    game.leave();
    viewer.stop();
    if (remember) {
      setup = { ...chosen, seed: null };
      saveSetup(chosen);
      $("#play-summary").textContent = describeSetup(setup);
    }
    transport.botDelay = chosen.pace;
    go("game");
    board.element.focus({ preventScroll: true }); // not left on the page while the bots play
    if (await game.start(chosen)) return true;
    const why = $("#message").textContent;
    go(remember ? "setup" : "home");
    say(why);
    return false;
  }
  function openSetup() {
    game.leave();
    viewer.stop();
    setupForm.fill(setup);
    go("setup");
    $("#setup-form").querySelector("input, select")?.focus();
  }
  async function openLawyer() {
    game.leave();
    viewer.stop();
    go("study");
    if (!lawyer.study) await lawyer.load(EXAMPLE);
    else {
      // the position last studied (the viewer's ply, perhaps), as a position of its own
      lawyer.showStudy(lawyer.study);
      $("[data-position-input]").value = lawyer.study.position;
    }
    $("[data-position-input]").focus();
  }
  function openViewer() {
    game.leave();
    go("replay");
    if (viewer.record) viewer.go(viewer.ply);
    else {
      viewer.clear();
      $("#record-file").focus();
    }
  }
  async function openRecord(text) {
    game.leave();
    go("replay");
    return viewer.open(text);
  }

  $("#move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    handlers.onMove($("#move-input").value);
  });
  $("#hint-button").addEventListener("click", () => (screen === "game" ? game.hint() : viewer.hint()));
  document.addEventListener("keydown", (event) => {
    if (screen === "replay" && viewer.key(event)) event.preventDefault();
  });

  const where = transport.kind === "local" ? "running in this page" : "on the server";
  status.ready(`Engine ready: ${hello.engine ?? `pegs-rules ${hello.version}`}, ${where}.`);
  ready = true;
  if (wanted) await busy(Promise.resolve(wanted()));
  else await busy(openFromUrl(params, { go, game, lawyer, viewer, startGame, openRecord, transport }));
  cacheSite(); // once the first screen is shown: the site's files then download meanwhile
}

/** Begin where the address says (see the top of this file). */
async function openFromUrl(params, { go, game, lawyer, viewer, startGame, openRecord, transport }) {
  if (params.has("record")) {
    viewer.pause = Math.max(0, Number(params.get("delay") ?? viewer.pause) || 0);
    const given = params.get("record").trim();
    let text = given;
    if (!given.startsWith("{")) {
      try {
        const response = await fetch(new URL(given, location.href));
        if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
        text = await response.text();
      } catch (error) {
        go("replay");
        viewer.clear();
        say(`The record at ${given} cannot be read: ${error.message || error}`);
        return;
      }
    }
    if ((await openRecord(text)) && params.has("ply")) await viewer.go(Number(params.get("ply")) || 0);
  } else if (params.has("position")) {
    go("study");
    if ((await lawyer.load(params.get("position"))) && params.get("move")) {
      $("#move-input").value = params.get("move");
      await lawyer.explain(params.get("move"));
    }
  } else if (params.has("players")) {
    await startGame(setupFromUrl(params), { remember: false });
  } else if (!transport.can.setup) {
    game.active = true; // a game the transport already has: its updates arrive by themselves
    go("game");
  }
}

main().catch((error) => {
  status.error(`Something went wrong: ${error.message || error}. Reload the page to try again.`);
  $("main").setAttribute("aria-busy", "false");
});
