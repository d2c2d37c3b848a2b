// The page's analysis Web Worker: the post-game analysis of a record (pegs.analyze, the same
// numbers as `pegs analyze`), away from the page's thread. analysis.js starts one for each
// record and is the only one to talk to it.
//
// From the page:  { record, playouts, seed, expert }   record: a format-1 record's JSON text
// To the page:    { type: "progress", done, states, points }   after each state (points:
//                                                              team 0's, null: not yet known)
//                 { type: "done", analysis, svg }              analysis: pegs.analysisJson,
//                                                              svg: pegs.chartSvg
//                 { type: "error", error }

import * as pegs from "./pegs-rules.js";

self.onmessage = ({ data: { record, playouts, seed, expert } }) => {
  try {
    const budget = playouts ?? pegs.PLAYOUTS;
    const onProgress = (done, states, points) => postMessage({ type: "progress", done, states, points: [...points], playouts: budget });
    const analysis = pegs.analyze(pegs.fromJson(record, "record"), { playouts: budget, seed, expert, onProgress });
    postMessage({ type: "done", analysis: pegs.analysisJson(analysis), svg: pegs.chartSvg(analysis) });
  } catch (error) {
    postMessage({ type: "error", error: error.message });
  }
};
