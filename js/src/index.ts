/**
 * pegs-rules: the rules engine for Pegs and Jokers (Arizona Pegs and Jokers), in TypeScript.
 *
 * The same contract as the Python reference engine (`pip install pegs-rules`): immutable
 * states, every legal move in a documented order, a pure {@link apply} that rejects anything
 * illegal with the id of the ruling that forbids it, and all chance drawn from the game's seed,
 * exactly as the reference draws it.
 *
 * ```ts
 * import { apply, legalMoves, moveText, newGame } from "pegs-rules";
 * let game = newGame(4, { seed: 1n });       // shuffled and dealt from the seed
 * const moves = legalMoves(game);            // every legal move, in the documented order
 * console.log(moves.map(moveText));          // prints [ 'discard 7', 'discard 10' ]
 * game = apply(game, moves[0]!);             // a new state; the old one is unchanged
 * ```
 *
 * The page *Contracts* gathers what each part promises: the order of the legal moves, the
 * notation and its shorthands, the errors, the JSON documents, the events, and more.
 *
 * @module
 */
export {
  analysisJson,
  analyze,
  chance,
  chartSvg,
  MAX_TURNS,
  PLAYOUTS,
  type Analysis,
  type AnalysisOptions,
  type Costly,
  type PlyAnalysis,
} from "./analysis.js";
export { HOME_BASE, PEGS_PER_SEAT, SIDE_HOLES, START, type Location } from "./board.js";
export {
  cardOf,
  cardSymbol,
  comeOutHole,
  evaluate,
  formatCards,
  home,
  inSpot,
  isHome,
  isTrack,
  locationName,
  parseLocation,
  progress,
  teamOf,
  trackLength,
  won,
} from "./public.js";
export { decide, discardCost, EasyBot, GreedyBot, RandomBot, type Bot, type Pegs, type EasyOptions } from "./bots.js";
export { ExpertBot, makeBot, MctsBot, type SearchOptions } from "./search.js";
export { buildDeck, RANKS, type Rank } from "./cards.js";
export { ACE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, JOKER } from "./cards.js";
export {
  AmbiguousMoveError,
  FormatError,
  IllegalMoveError,
  NotationError,
  PegsError,
  PositionError,
  ReplayError,
  RulesError,
} from "./errors.js";
export {
  applyWithEvents,
  eventText,
  redact,
  type CardDiscarded,
  type CardPlayed,
  type CardsDrawn,
  type GameEvent,
  type GameOver,
  type Passed,
  type PegDisplaced,
  type PegMoved,
  type Reshuffled,
} from "./events.js";
export { legalMoves, movableSeats } from "./movegen.js";
export {
  discard,
  moveText,
  parseNotation,
  PASS,
  play,
  sameMove,
  step,
  stepText,
  type Discard,
  type Move,
  type Pass,
  type Play,
  type Step,
} from "./moves.js";
export { formatMove, parseMove, type FormatOptions } from "./notation.js";
export { divide, perft } from "./perft.js";
export { parsePosition, positionText } from "./position.js";
export { makeRecord, recordOf, recordStart, replay, type GameRecord } from "./records.js";
export {
  ARIZONA,
  deckFor,
  findPreset,
  makeRules,
  PRESETS,
  ruleText,
  sameRules,
  STANDARD,
  withRule,
  type Control,
  type DeckRow,
  type InSpotOccupied,
  type JokerSource,
  type Nine,
  type Rules,
} from "./rules.js";
export { RULINGS } from "./rulings.js";
export {
  eventsToData,
  eventsToJson,
  FORMAT,
  fromData,
  fromJson,
  movesToData,
  movesToJson,
  toData,
  toJson,
  type Document,
  type Kind,
  type Loaded,
  type WriteOptions,
} from "./serialize.js";
export { sameState } from "./compare.js";
export { newGame, type GameState, type NewGameOptions } from "./state.js";
export { apply } from "./turn.js";
export { validate } from "./validate.js";
export { explain, type Explanation } from "./verdict.js";
export { VERSION } from "./version.js";
export { view, type PlayerView } from "./views.js";
