// The size of the engine as a frontend ships it: dist/index.js bundled and minified with
// esbuild, then gzipped (level 9). Fails above the budget of 40 KB (40,960 bytes).
//
//   node scripts/size.mjs        (after npm run build)
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const BUDGET = 40 * 1024;
const result = await build({
  entryPoints: [new URL("../dist/index.js", import.meta.url).pathname],
  bundle: true,
  minify: true,
  format: "esm",
  platform: "neutral",
  write: false,
});
const code = result.outputFiles[0].contents;
const gzipped = gzipSync(code, { level: 9 }).length;
console.log(`engine bundle: ${code.length} bytes minified, ${gzipped} bytes gzipped (budget ${BUDGET})`);
if (gzipped > BUDGET) {
  console.error("the engine bundle is over its budget");
  process.exit(1);
}
