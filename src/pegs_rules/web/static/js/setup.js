// The setup form: players, preset, every house-rule switch, who sits where.
// Built from the engine's hello (presets, switches and bots come from pegs_rules itself),
// and filled in with the last game's set-up.

import { rulingLink } from "./controls.js";
import { DEFAULT_BOT } from "./prefs.js";

/** How the seat menu words a bot; a bot not named here is "<name> bot". */
const BOT_WORDS = {
  random: "Random bot",
  easy: "Easy bot",
  medium: "Medium bot",
  hard: "Hard bot",
  expert: "Expert bot",
  greedy: "Greedy bot",
  mcts: "MCTS bot (timed search)",
};
/** The bot whose thinking time the form sets (as "mcts:<seconds>s"); the levels keep theirs. */
const TIMED_BOT = "mcts";

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

export class Setup {
  /**
   * @param {HTMLFormElement} form
   * @param {object} hello  the engine's hello (see transport.js)
   * @param {URL} docs  the docs' base URL, for the rulings' links
   * @param {object} initial  the set-up to show (prefs.js: the last game's)
   * @param {(setup: object) => void} onStart
   */
  constructor(form, hello, docs, initial, onStart) {
    this.form = form;
    this.hello = hello;
    this.docs = docs;
    this.seatKinds = Array.from({ length: 8 }, (_, seat) => (seat ? DEFAULT_BOT : "human"));
    this.build();
    this.fill(initial);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      onStart(this.value());
    });
  }

  /** Show `setup` (players, preset, rules, seats, pace) in the form. */
  fill(setup) {
    const elements = this.form.elements;
    if (setup.preset in this.hello.presets) elements.preset.value = setup.preset;
    this.fillSwitches();
    for (const control of this.form.querySelectorAll("[data-switch]")) {
      const text = setup.rules[control.dataset.switch];
      if (text === undefined) continue;
      if (control.type === "checkbox") control.checked = text === "true";
      else control.value = text;
    }
    setup.seats.forEach((kind, seat) => {
      const [name, budget] = kind.split(":");
      this.seatKinds[seat] = name;
      if (name === TIMED_BOT && budget?.endsWith("s")) elements.mcts.value = budget.slice(0, -1);
    });
    this.form.querySelector(`#players-${setup.players}`).checked = true;
    if ([...elements.pace.options].some((option) => option.value === String(setup.pace))) {
      elements.pace.value = String(setup.pace);
    }
    this.buildSeats();
  }

  build() {
    const presets = Object.keys(this.hello.presets);
    const preset = element("select", { name: "preset", id: "setup-preset" });
    preset.append(...presets.map((name) => element("option", { value: name }, name)));
    preset.addEventListener("change", () => this.fillSwitches());
    const players = element("fieldset", { class: "players" }, element("legend", {}, "Players"));
    for (const count of [4, 6, 8]) {
      const radio = element("input", { type: "radio", name: "players", value: count, id: `players-${count}` });
      radio.checked = count === 4;
      radio.addEventListener("change", () => this.buildSeats());
      players.append(element("label", { for: `players-${count}` }, radio, ` ${count}`));
    }
    this.seats = element("fieldset", { class: "seats" });
    const switches = element("div", { class: "switches" });
    for (const field of this.hello.switches) switches.append(this.switchControl(field));
    const pace = element("select", { name: "pace", id: "setup-pace" });
    for (const [ms, words] of [[0, "none"], [150, "short"], [400, "normal"], [1000, "long"]]) {
      pace.append(element("option", { value: ms }, words));
    }
    pace.value = "400";
    this.form.replaceChildren(
      element("h2", { id: "setup-title" }, "New game"),
      players,
      element("p", {}, element("label", { for: "setup-preset" }, "Rules preset "), preset),
      this.seats,
      element(
        "p",
        {},
        element("label", { for: "setup-mcts" }, "MCTS bots think for "),
        element("input", {
          type: "number", name: "mcts", id: "setup-mcts", min: "0.1", max: "30", step: "0.1", value: "1",
        }),
        " seconds a move",
      ),
      element("p", {}, element("label", { for: "setup-pace" }, "Pause between bot moves "), pace),
      element(
        "details",
        { class: "house-rules" },
        element("summary", {}, "House rules"),
        element("p", { class: "hint" }, "Each switch links to its ruling."),
        switches,
      ),
      element(
        "p",
        {},
        element("label", { for: "setup-seed" }, "Seed (blank: a new deal) "),
        element("input", { name: "seed", id: "setup-seed", inputmode: "numeric", pattern: "[0-9]*", size: "10" }),
      ),
      element("p", {}, element("button", { type: "submit", class: "primary" }, "Start the game")),
    );
    this.buildSeats();
    this.fillSwitches();
  }

  switchControl(field) {
    const id = `rule-${field.name}`;
    let control;
    if (field.kind === "bool") {
      control = element("input", { type: "checkbox", id, name: id });
    } else if (field.kind === "choice") {
      control = element("select", { id, name: id });
      control.append(...field.choices.map((choice) => element("option", { value: choice }, choice.replaceAll("_", " "))));
    } else {
      control = element("input", { type: "text", id, name: id, size: "16" });
    }
    control.dataset.switch = field.name;
    const link = rulingLink(this.docs, field.ruling);
    return element("p", { class: `switch kind-${field.kind}` }, element("label", { for: id }, `${field.label} `), control, " ", link);
  }

  fillSwitches() {
    const rules = this.hello.presets[this.form.elements.preset.value].rules;
    for (const control of this.form.querySelectorAll("[data-switch]")) {
      const text = rules[control.dataset.switch];
      if (control.type === "checkbox") control.checked = text === "true";
      else control.value = text;
    }
  }

  buildSeats() {
    const players = Number(this.form.elements.players.value);
    const rows = [element("legend", {}, "Seats (teams sit alternately: even seats are team 0)")];
    for (let seat = 0; seat < players; seat += 1) {
      const id = `seat-${seat}`;
      const select = element("select", { id, name: id });
      const kinds = ["human", ...this.hello.bots];
      select.append(...kinds.map((kind) => element("option", { value: kind }, seatWords(kind))));
      select.value = kinds.includes(this.seatKinds[seat]) ? this.seatKinds[seat] : DEFAULT_BOT;
      this.seatKinds[seat] = select.value;
      select.addEventListener("change", () => {
        this.seatKinds[seat] = select.value;
      });
      rows.push(element("p", { class: "seat" }, element("label", { for: id }, `Seat ${seat} (team ${seat % 2}) `), select));
    }
    this.seats.replaceChildren(...rows);
  }

  /** The setup the form describes, for transport.start(). */
  value() {
    const form = this.form.elements;
    const players = Number(form.players.value);
    const preset = form.preset.value;
    const defaults = this.hello.presets[preset].rules;
    const rules = {};
    for (const control of this.form.querySelectorAll("[data-switch]")) {
      const text = control.type === "checkbox" ? String(control.checked) : control.value.trim();
      if (text !== defaults[control.dataset.switch]) rules[control.dataset.switch] = text;
    }
    const budget = Math.min(30, Math.max(0.1, Number(form.mcts.value) || 1));
    const seats = this.seatKinds.slice(0, players).map((kind) => (kind === TIMED_BOT ? `${kind}:${budget}s` : kind));
    const seedText = form.seed.value.trim();
    const seed = /^[0-9]{1,15}$/.test(seedText) ? Number(seedText) : null;
    return { players, preset, rules, seats, seed, pace: Number(form.pace.value) };
  }
}

function seatWords(kind) {
  return kind === "human" ? "Person" : BOT_WORDS[kind] || `${kind} bot`;
}
