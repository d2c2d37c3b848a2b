// The end of a game: who won, in how many turns, and how each seat played; with the record
// to download, the game to replay in the viewer, and another game to play.

import { seatBadge } from "./controls.js";
import { listed } from "./prefs.js";

const $ = (selector) => document.querySelector(selector);

/**
 * Show a summary (the engine's "summary" answer: winner, winners, turns, seats) in #summary.
 * `kinds` names who sat where ("human", "greedy"...), when known; `actions` holds the
 * buttons' handlers (download, replay, again), a button without one is left out.
 */
export function showSummary(summary, { kinds = null, actions = {} } = {}) {
  const box = $("#summary");
  box.hidden = false;
  box.dataset.winner = summary.winner ?? "";
  $("#summary-title").textContent =
    summary.winner === null ? "The game so far" : `Team ${summary.winner} wins: seats ${listed(summary.winners)}`;
  $("#summary-line").textContent = `${summary.turns} turns, ${summary.players} players, ${summary.preset} rules.`;
  const rows = (summary.seats || []).map((seat) => {
    const row = document.createElement("tr");
    row.dataset.seat = seat.seat;
    row.classList.toggle("winner", seat.team === summary.winner);
    const who = document.createElement("th");
    who.scope = "row";
    const more = document.createElement("span");
    more.className = "who";
    const kind = kinds ? `, ${kinds[seat.seat] === "human" ? "person" : kinds[seat.seat]}` : "";
    more.textContent = `team ${seat.team}${kind}`;
    const name = document.createElement("span");
    name.className = "seat-name";
    name.append(seatBadge(seat.seat), ` seat ${seat.seat}`);
    who.append(name, " ", more);
    row.append(who);
    for (const key of ["played", "discarded", "knocked_back", "knocked", "home"]) {
      const cell = document.createElement("td");
      cell.textContent = seat[key];
      cell.dataset.key = key;
      row.append(cell);
    }
    return row;
  });
  $("#summary-seats").replaceChildren(...rows);
  box.querySelector(".summary-table").hidden = !rows.length;
  for (const [name, id] of [["download", "#summary-download"], ["replay", "#summary-replay"], ["again", "#summary-again"]]) {
    const button = $(id);
    button.hidden = !actions[name];
    button.onclick = actions[name] || null;
  }
}

export function hideSummary() {
  $("#summary").hidden = true;
}
