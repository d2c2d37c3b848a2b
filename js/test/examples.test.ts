// The documentation's examples, run: every ```ts and ```js block of the doc comments in src/
// (the API reference shows them) and of README.md (the npm registry's page) runs against the
// build in dist/ (npm test builds it first; a block that calls require() runs as CommonJS), and
// the ```ts ones type-check against its declarations there (strict, with
// noUncheckedIndexedAccess). What a console.log line says it prints (`// prints ...`) is what
// it must print. The docs' page javascript.rst includes examples/quickstart.mjs, which
// tests/test_js_package.py runs.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

interface Example {
  readonly where: string;
  readonly lang: string;
  readonly code: string;
}

/** The ```ts and ```js blocks of a text (doc comments: their ` * ` taken off first). */
function blocks(where: string, text: string, comments: boolean): Example[] {
  const lines = comments ? text.split("\n").map((line) => line.replace(/^\s*\* ?/, "")) : text.split("\n");
  const found: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(ts|js)$/.exec(lines[i] ?? "");
    if (open === null) continue;
    const end = lines.indexOf("```", i + 1);
    found.push({ where: `${where}:${i + 2}`, lang: open[1] as string, code: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return found;
}

const EXAMPLES = [
  ...readdirSync(join(ROOT, "src"))
    .filter((name) => name.endsWith(".ts"))
    .sort()
    .flatMap((name) => blocks(`src/${name}`, readFileSync(join(ROOT, "src", name), "utf8"), true)),
  ...blocks("README.md", readFileSync(join(ROOT, "README.md"), "utf8"), false),
];

/** `code` importing the package from its build in `base`. */
function pointed(code: string, base: string): string {
  return code.replace(/(["'])pegs-rules(\/render)?\1/g, (_, quote: string, render?: string) => `${quote}${join(ROOT, base, render === undefined ? "index.js" : "render.js")}${quote}`);
}

test("the docs hold examples: the package's, the board's, README's", () => {
  expect(EXAMPLES.map((e) => e.where.split(":")[0])).toEqual(["src/index.ts", "src/render.ts", "README.md", "README.md"]);
});

test("the TypeScript examples type-check as the package does", () => {
  const dir = mkdtempSync(join(tmpdir(), "pegs-examples-"));
  const files = EXAMPLES.filter((e) => e.lang === "ts").map((example, i) => {
    const file = join(dir, `example${i}.mts`);
    writeFileSync(file, pointed(example.code, "dist"));
    return [file, example.where] as const;
  });
  // what the examples use of a host: console.log
  const host = join(dir, "host.d.ts");
  writeFileSync(host, "declare const console: { log(...values: unknown[]): void };\n");
  const program = ts.createProgram([host, ...files.map(([file]) => file)], {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts"],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
    skipLibCheck: true,
    noEmit: true,
  });
  const where = new Map<string, string>(files);
  const problems = ts.getPreEmitDiagnostics(program).map((d) => {
    const at = d.file === undefined ? "" : `${where.get(d.file.fileName) ?? d.file.fileName}: `;
    return at + ts.flattenDiagnosticMessageText(d.messageText, "\n");
  });
  expect(problems).toEqual([]);
});

describe.each(EXAMPLES)("the example at $where", (example) => {
  const cjs = /\brequire\(/.test(example.code);
  test("runs and prints what it says", () => {
    const js = ts.transpileModule(pointed(example.code, "dist"), {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: cjs ? ts.ModuleKind.CommonJS : ts.ModuleKind.ESNext },
    }).outputText;
    const file = join(mkdtempSync(join(tmpdir(), "pegs-example-")), cjs ? "example.cjs" : "example.mjs");
    writeFileSync(file, js);
    const done = spawnSync(process.execPath, [file], { encoding: "utf8" });
    expect(done.stderr).toBe("");
    expect(done.status).toBe(0);
    const said = example.code
      .split("\n")
      .filter((line) => /^console\.log\(.*\); *\/\/ prints /.test(line))
      .map((line) => line.slice(line.indexOf("// prints ") + 10));
    const printed = done.stdout.trimEnd().split("\n");
    for (const [i, text] of said.entries()) expect(printed[i]).toBe(text);
  });
});
