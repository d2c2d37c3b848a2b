// Before the first paint: show the new board of the last game's player count (index.html
// holds one for 4, 6 and 8 players; style.css shows the one <html data-players> names).
// A classic script, run before the body is drawn; prefs.js writes what it reads.
try {
  const players = JSON.parse(localStorage.getItem("pegs-playground.setup") || "{}").players;
  if ([4, 6, 8].includes(players)) document.documentElement.dataset.players = String(players);
} catch {
  // no storage, or nothing usable in it: the 4-player board
}
