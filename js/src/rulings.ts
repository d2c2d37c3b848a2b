/**
 * The ruling ids the engine implements and cites, each with one line. The full text of every
 * ruling, preset by preset and with its sources, is the suite's `specs/rulings.md`. Every
 * {@link IllegalMoveError} names one of these ids.
 *
 * @module
 */
import { frozenMap } from "./frozen.js";

/** Every ruling id, with its one-line summary. */
export const RULINGS: ReadonlyMap<string, string> = frozenMap([
  ["board.sides", "One identical side per seat; 4, 6 or 8 seats; two teams seated alternately."],
  ["board.geometry", "18 track holes per side; seat s has in-spot 18s+3 and come-out 18s+8."],
  ["board.pegs", "Five pegs per seat, all starting in that seat's start area."],
  ["deck.composition", "3 decks and 6 jokers for 4 or 6 players; 4 decks and 8 jokers for 8."],
  ["deal.dealer", "The dealer is drawn from the seed unless given; the dealer's left acts first."],
  ["deal.hands", "Five cards to each seat; the rest is the face-down draw pile."],
  ["turn.sequence", "Play exactly one card from the hand (or discard), move, then draw back to 5."],
  ["turn.must-play", "If any card but a joker can move, a playable card must be played."],
  ["turn.discard", "With nothing but a joker playable: play a joker or discard one card."],
  ["turn.reshuffle", "An empty draw pile is replaced by the whole discard pile, shuffled."],
  ["turn.order", "The next turn always goes to the next seat clockwise."],
  ["team.control", "A seat may move any peg of its team, and come out from any team start area."],
  ["card.come-out", "A, J, Q, K: a peg from a team start area to that area's come-out hole."],
  ["card.ace", "An ace moves a peg 1 forward (or comes out)."],
  ["card.face", "A jack, queen or king moves a peg 10 forward (or comes out)."],
  ["card.number", "A 2, 3, 4, 5, 6 or 10 moves a peg that many holes forward."],
  ["card.seven", "A 7 moves one peg 7 forward, or splits over two pegs."],
  ["card.seven.split", "Two different pegs, parts a + b = 7, both forward, in the chosen order."],
  ["card.seven.split.order", "A split whose two orders leave the same position is one move: listed once, in the order whose steps sort first, and accepted in either order."],
  ["card.eight", "An 8 moves a track peg exactly 8 holes backwards, never into home or start."],
  ["card.nine", "A 9 moves one peg 9 forward, or splits over two pegs like a 7."],
  ["card.joker", "A joker jumps a peg onto a track hole held by a peg of another colour."],
  ["card.joker.source", "While a team start area holds a peg, a joker must move a peg from one."],
  ["card.joker.optional", "A joker never has to be played and never forbids a discard."],
  ["move.forward", "Forward moves go clockwise; from its in-spot a peg may turn into home."],
  ["move.home-entry", "A peg enters home only by ending exactly on a home hole, passing none held."],
  ["move.in-home", "A home peg moves forward in home by the exact count, never past a peg or out."],
  ["move.blocking", "No move may pass or land on a peg of the moving peg's colour (jokers excepted)."],
  ["move.safe-holes", "There are no safe holes: in-spots and come-out holes are ordinary holes."],
  ["move.landing", "Landing knocks an opponent's peg to its start, a team peg to its in-spot."],
  ["move.landing.in-spot", "The knocked team peg lands on its in-spot: same colour there is illegal."],
  ["game.end", "The game ends at once when one team has every peg home; that team wins."],
  ["turn.pass", "A seat with no cards passes; it then draws as at the end of any turn."],
  ["move.verdict", "A move that breaks several rulings is rejected for the first in a fixed order: the game, the kind of move, the card, then each step from its peg to its landing."],
  ["variant.decks", "Switch: the decks and jokers used for each player count."],
  ["variant.face-values", "Switch: a J, Q and K move 11, 12 and 13 (or any set values) forward."],
  ["variant.nine-split", "Switch: a 9 is plain, splits like a 7, or splits with one part forward and the other backward like an 8 (track pegs only, never into home)."],
  ["variant.home-entry-compulsory", "Switch: a peg that can enter home with the count it is moved must enter."],
  ["variant.wait-on-in-spot", "Switch: a peg on its own in-spot may not move forward along the track, only into home (an 8, a joker or a swap may still move it)."],
  ["variant.in-spot-occupied", "Switch: a knocked team peg whose in-spot is held either chains (default), makes the move illegal, or goes to its start area instead."],
  ["variant.two-swap", "Switch: a 2 may instead swap a movable track peg with a track peg of another colour; no blocking, nobody is knocked."],
  ["variant.two-swap.order", "A swap of two pegs the player may both move is one move: listed once, the lower seat's peg first, and accepted written from either peg."],
]);
