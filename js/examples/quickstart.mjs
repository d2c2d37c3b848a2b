// A seeded game between medium bots, then a position by hand: the example of the docs page
// "JavaScript and TypeScript" (the tests run it and compare what it prints with the page).
import {
  apply, decide, explain, GreedyBot, legalMoves, moveText,
  newGame, parseMove, parsePosition, toJson, view,
} from "pegs-rules";

// The same seed deals the same game as the Python engine's new_game(4, seed=1).
let game = newGame(4, { seed: 1n });
console.log(`seat ${game.turn} to act, ${legalMoves(game).length} legal moves`);

const bots = [0, 1, 2, 3].map((seat) => new GreedyBot(10 + seat));
while (game.winner === null) game = apply(game, decide(bots[game.turn], game));
console.log(`team ${game.winner} wins after ${game.ply} turns`);

// A position by hand, and the verdict on two moves.
const state = parsePosition("pegs 0: 70\nhand 0: 7");
console.log(legalMoves(state).map(moveText).join(", "));
console.log(JSON.stringify(explain(state, parseMove(state, "7 70-h2"))));
try {
  apply(state, { action: "play", card: 7, steps: [{ seat: 0, from: 70, to: 6 }] });
} catch (error) {
  console.log(error.name, error.rule);
}

// What seat 1 may see, as JSON: no hidden card, no seed.
console.log(toJson(view(state, 1)).slice(0, 60) + "...");
