// The package's tests on other Node.js versions than the machine's: by default the oldest its
// `engines` field allows (">=20.19": 20.19.0) and the latest of the LTS line 24, each fetched from
// the npm registry as the `node` package (npx caches it). CI runs this after `npm test`, which
// builds dist/ (the protocol command's tests run it with the Node under test).
//
//   npm run test:node --prefix js            # 20.19.0 and 24
//   npm run test:node --prefix js -- 22 26   # other versions
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { engines } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const oldest = /^>=(\d+)\.(\d+)$/.exec(engines.node);
if (oldest === null) throw new Error(`engines.node is ${engines.node}, not ">=MAJOR.MINOR"`);
const versions = process.argv.length > 2 ? process.argv.slice(2) : [`${oldest[1]}.${oldest[2]}.0`, "24"];

let failed = 0;
for (const version of versions) {
  const node = ["-y", `node@${version}`];
  const which = spawnSync("npx", [...node, "--version"], { cwd: root, encoding: "utf8" });
  console.log(`+ Node.js ${which.stdout.trim() || `${version} (not found)`}: vitest run`);
  const done = spawnSync("npx", [...node, "node_modules/vitest/vitest.mjs", "run"], { cwd: root, stdio: "inherit" });
  if (done.status !== 0) {
    console.log(`the tests failed on Node.js ${version}`);
    failed++;
  }
}
process.exit(failed === 0 ? 0 : 1);
