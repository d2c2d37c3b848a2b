// The size of the engine as a frontend ships it: dist/index.js bundled and minified with
// esbuild, then gzipped (level 9). Fails above the budget of 40 KB (40,960 bytes).
// The board drawing (dist/render.js, the entry point pegs-rules/render) is no part of the
// engine and of its budget: its size is printed too, alone and as what it adds to the engine.
//
//   node scripts/size.mjs        (after npm run build)
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const BUDGET = 40 * 1024;
const DIST = new URL("../dist/", import.meta.url).pathname;

/** The minified and the gzipped size of a bundle made with `options`. */
async function measure(options) {
  const result = await build({ bundle: true, minify: true, format: "esm", platform: "neutral", write: false, ...options });
  const code = result.outputFiles[0].contents;
  return [code.length, gzipSync(code, { level: 9 }).length];
}

const [minified, gzipped] = await measure({ entryPoints: [`${DIST}index.js`] });
console.log(`engine bundle: ${minified} bytes minified, ${gzipped} bytes gzipped (budget ${BUDGET})`);
const [render, renderGzipped] = await measure({ entryPoints: [`${DIST}render.js`] });
const both = 'export * from "./index.js"; export * from "./render.js";';
const [together, togetherGzipped] = await measure({ stdin: { contents: both, resolveDir: DIST } });
console.log(
  `board drawing (pegs-rules/render): ${render} bytes minified, ${renderGzipped} bytes gzipped; ` +
    `beside the engine, ${together - minified} and ${togetherGzipped - gzipped} bytes more`,
);
if (gzipped > BUDGET) {
  console.error("the engine bundle is over its budget");
  process.exit(1);
}
