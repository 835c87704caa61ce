import { test } from "node:test";
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { defineLazy } from "../../src/records/lazy-strings.js";
import { readTuning, reuse } from "../../src/sources/reused-buffers.js";
import { filesUnder, ROOT, runCli } from "../helpers.js";

// Files are read into one buffer that is filled again once a chunk's lines were handed on
// (sources/line-chunks.ts). Anything that kept a view into a line past its records' step would now
// see other bytes. Here every read is tiny, lines longer than the buffer take every path (grown,
// handed to the splitter in pieces), and reused memory is filled with 0xff before the next read: every
// command over every sample must print exactly what it prints with the real read size.

const SAMPLES = join(ROOT, "samples");
const transcripts = filesUnder(SAMPLES, (p) => p.endsWith(".jsonl") && !p.includes("/tool-results/"));
const runs: string[][] = [
  ...transcripts.flatMap((f) => ["requests", "outputs", "instructions", "inventory", "report"].map((c) => [c, f, "--json"])),
  ...filesUnder(join(SAMPLES, "logs", "debug"), (p) => p.endsWith(".txt")).map((f) => ["debug", f, "--json"]),
  ...filesUnder(join(SAMPLES, "logs", "rpc"), (p) => !p.endsWith(".md")).map((f) => ["rpc", f, "--json"]),
  ["demo", "--json"],
  ["demo", "--format", "markdown"],
  // The cross-session and cross-run commands keep rows longer than one session's pass.
  ...transcripts.slice(0, 40).map((f) => ["tools", f, "--json"]),
  ["sessions", "--claude-dir", join(SAMPLES, "claude-home"), "--json"],
  ["servers", "--claude-dir", join(SAMPLES, "claude-home"), "--json"],
  ["servers", "--claude-dir", join(SAMPLES, "claude-home"), "--by", "tool", "--json"],
  ["compare", join(SAMPLES, "runs"), "--json"],
  ["outputs", "--staircase", join(SAMPLES, "outputs", "staircase-runs"), "--json"],
];

async function all(): Promise<string[]> {
  const out: string[] = [];
  for (const args of runs) {
    const r = await runCli(args);
    out.push(`${args.map((a) => relative(ROOT, a)).join(" ")}\nexit ${r.code}\n${r.stdout}\n${r.stderr}`);
  }
  return out;
}

test("every command over every sample prints the same when read buffers are tiny, reused and poisoned", async () => {
  assert.ok(transcripts.length > 100, "the samples are found");
  const normal = await all();
  const saved = { ...readTuning };
  Object.assign(readTuning, { chunk: 64, maxChunk: 512, poison: true });
  let tuned: string[];
  try {
    tuned = await all();
  } finally {
    Object.assign(readTuning, saved);
  }
  for (let i = 0; i < runs.length; i++) assert.equal(tuned[i], normal[i]);
  assert.ok(
    normal.some((o) => /"records": [1-9]/.test(o)),
    "the runs read records",
  );
});

test("an undecoded string read after its buffer was reused fails loudly instead of decoding other bytes", () => {
  const buf = Buffer.allocUnsafeSlow(64);
  buf.write('{"a":"kept for later"}');
  const early: Record<string, unknown> = {};
  const late: Record<string, unknown> = {};
  defineLazy(early, "a", { line: buf, from: 5, to: 21, units: 14 });
  defineLazy(late, "a", { line: buf, from: 5, to: 21, units: 14 });
  assert.equal(early.a, "kept for later");
  reuse(buf);
  buf.write('{"a":"other bytes!!!"}');
  assert.equal(early.a, "kept for later", "a string decoded in time keeps its value");
  assert.throws(() => late.a, /read after its line's read buffer was reused/);
});
