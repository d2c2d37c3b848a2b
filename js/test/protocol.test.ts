// The engine protocol's bounds: a request line longer than MAX_REQUEST bytes is refused unread,
// and an error quotes at most MAX_ERROR characters of anything (specs/protocol.md, Transport).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { handle, handleLine, MAX_ERROR, MAX_REQUEST, refusal, RequestLines } from "../src/protocol.js";

const BIN = fileURLToPath(new URL("../dist/bin/protocol.js", import.meta.url));
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const parse = (line: string | null): Record<string, unknown> => JSON.parse(line ?? "") as Record<string, unknown>;

/** `request` as a line of exactly `size` bytes before its line end. */
function padded(request: Record<string, unknown>, size: number): string {
  const line = JSON.stringify({ ...request, pad: "" });
  return line.slice(0, -2) + "x".repeat(size - line.length) + line.slice(-2);
}

describe("request lines", () => {
  test("the limits are the ones specs/protocol.md gives", () => {
    expect([MAX_REQUEST, MAX_ERROR]).toEqual([1_048_576, 1000]);
    expect(parse(refusal())).toEqual({ id: null, error: "a request line longer than 1,048,576 bytes" });
  });

  test("come out the same in any pieces, a line too long as null", () => {
    const line = fc.oneof(fc.string({ unit: "grapheme", maxLength: 20 }), fc.constantFrom(MAX_REQUEST, MAX_REQUEST + 1, MAX_REQUEST + 9));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 5 }), (lines, ending, cuts) => {
        const texts = lines.map((l) => (typeof l === "number" ? "y".repeat(l) : l));
        const bytes = encode(texts.join("\n") + (ending ? "\n" : ""));
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const reader = new RequestLines();
        const got: (string | null)[] = [];
        [0, ...at].forEach((from, i) => got.push(...reader.push(bytes.subarray(from, at[i] ?? bytes.length))));
        got.push(...reader.end());
        const want = texts.map((t) => (encode(t).length > MAX_REQUEST ? null : t));
        expect(got).toEqual(ending || want.at(-1) !== "" ? want : want.slice(0, -1));
      }),
      { numRuns: 40 },
    );
  });
});

describe("errors", () => {
  test("quote a long request cut short", () => {
    const junk = "pegs 0: " + "x".repeat(900_000);
    const error = parse(handleLine(JSON.stringify({ id: 5, type: "legal", position: junk })))["error"];
    expect(error).toHaveLength(MAX_ERROR + 3);
    expect(error).toMatch(/xx\.\.\.$/);
    const kind = "\u{1F0CF}".repeat(3000); // cut between characters, not inside one
    const start = "unknown request type '"; // then the first 978 of the 3000 two-unit characters
    expect(handle({ id: 6, type: kind })?.["error"]).toBe(`${start}${kind.slice(0, 2 * (MAX_ERROR - start.length))}...`);
  });
});

describe("the protocol command", () => {
  test("refuses a line longer than the limit, unread, and goes on", () => {
    const input = [
      padded({ id: 1, type: "hello", protocol: 1 }, MAX_REQUEST),
      padded({ id: 2, type: "hello", protocol: 1 }, MAX_REQUEST + 1),
      "[".repeat(3 * MAX_REQUEST),
      `${JSON.stringify({ id: 3, type: "hello", protocol: 1 })}\r`,
      JSON.stringify({ id: 4, type: "hello", protocol: 1 }), // the last line may go without a line end
    ].join("\n");
    const done = spawnSync(process.execPath, [BIN], { input, encoding: "utf8" });
    expect(done.status).toBe(0);
    const answers = done.stdout.trimEnd().split("\n").map(parse);
    expect(answers.map((a) => a["id"])).toEqual([1, null, null, 3, 4]);
    expect(answers[1]?.["error"]).toBe("a request line longer than 1,048,576 bytes");
    expect(answers[2]).toEqual(answers[1]);
    expect(answers.filter((a) => a["engine"] === "pegs-rules-js")).toHaveLength(3);
  });
});
