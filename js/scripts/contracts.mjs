// The package's contracts, for the API reference: the comment at the head of every module that
// src/index.ts re-exports from (the move order, the notation's shorthands, the errors, the JSON
// documents, ...), in index.ts's order, as one Markdown document, build/contracts.md, which
// typedoc.json adds to the reference as the page "Contracts". The comments stay the one source:
// a link to a name the package exports ({@link legalMoves}) is pointed at its page in the
// reference, and one to an internal name becomes code.
//
//   node scripts/contracts.mjs     (npm run docs runs it before TypeDoc)
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";

const src = new URL("../src/", import.meta.url);
const out = new URL("../build/contracts.md", import.meta.url);

/** The comment that opens a source file (the one tagged `@module`), as Markdown. */
function moduleComment(text) {
  const found = /^\/\*\*\n([\s\S]*?)\n \*\//.exec(text);
  if (found === null || !found[1].includes("@module")) return undefined;
  const lines = found[1].split("\n").map((line) => line.replace(/^ \* ?/, ""));
  return lines.filter((line) => line !== "@module").join("\n").trim();
}

/** The names a module exports through `export { ... }` lists and declarations. */
function exported(text) {
  const names = new Set();
  for (const [, list] of text.matchAll(/export \{([^}]*)\}/g)) {
    for (const item of list.split(",")) {
      const name = item.trim().replace(/^type /, "");
      if (name) names.add(name);
    }
  }
  for (const [, name] of text.matchAll(/export (?:declare )?(?:abstract )?(?:const|function|class|interface|type) (\w+)/g)) names.add(name);
  return names;
}

/** Each module's heading (a module re-exported by index.ts needs one here). */
const TITLES = {
  analysis: "Post-game analysis",
  board: "Board and locations",
  bots: "Bots",
  search: "Searching bots: hard and expert",
  public: "Checked helpers",
  cards: "Cards",
  errors: "Errors",
  events: "Events",
  movegen: "Legal moves and their order",
  moves: "Moves and their notation",
  notation: "Reading and writing moves: shorthands",
  perft: "Perft",
  position: "Position text",
  records: "Game records",
  rules: "Rules and house rules",
  rulings: "Rulings",
  serialize: "JSON documents",
  compare: "Comparing states",
  state: "The game state and the deal",
  turn: "A turn",
  validate: "Validating a state",
  verdict: "Verdicts",
  views: "Views",
};

const index = readFileSync(new URL("index.ts", src), "utf8");
const render = readFileSync(new URL("render.ts", src), "utf8");
const entries = [
  ["index", exported(index)],
  ["render", exported(render)],
];
const modules = [...new Set([...index.matchAll(/from "\.\/(\w+)\.js"/g)].map((m) => m[1]))];

const sections = modules.flatMap((name) => {
  const comment = moduleComment(readFileSync(new URL(`${name}.ts`, src), "utf8"));
  if (comment === undefined) return []; // version.ts: a constant with a comment of its own
  const body = comment.replace(/\{@link (\w+)\}/g, (link, target) => {
    const entry = entries.find(([, names]) => names.has(target));
    return entry === undefined ? `\`${target}\`` : `{@link ${entry[0]}!${target} | ${target}}`;
  });
  if (!(name in TITLES)) throw new Error(`scripts/contracts.mjs has no heading for src/${name}.ts`);
  return [`## ${TITLES[name]}\n\n${body}\n\n(\`src/${name}.ts\`)\n`];
});

mkdirSync(new URL(".", out), { recursive: true });
writeFileSync(
  out,
  `---\ntitle: Contracts\n---\n\n# Contracts\n\nWhat each part of the package promises, from the comment at the head of its source\nmodule (\`src/NAME.ts\`; import everything from \`pegs-rules\`, the board picture from\n\`pegs-rules/render\`).\n\n${sections.join("\n")}`,
);
