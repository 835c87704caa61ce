import { test } from "node:test";
import assert from "node:assert/strict";
import { progressLine, progressReporter } from "../../src/commands/progress.js";

test("progress goes to stderr only when it is a terminal, and is cleared at the end", () => {
  const out: string[] = [];
  const stream = { write: (s: string | Uint8Array) => out.push(String(s)) > 0, once: () => undefined };
  assert.equal(progressReporter(stream, false), undefined);
  const p = progressReporter(stream, true)!;
  p.update("a.jsonl", 3 * 1048576);
  p.done();
  assert.match(out[0]!, /3\.0 MB read/);
  assert.equal(out.at(-1), "\r\x1b[K");
});

test("nothing but the document reaches stdout, and no progress escape reaches a non-TTY stderr", async () => {
  const { runCli, sample } = await import("../helpers.js");
  const r = await runCli(["sessions", "--claude-dir", sample("subagents", "claude"), "--json"]);
  assert.equal(r.code, 0);
  JSON.parse(r.stdout);
  assert.ok(!r.stderr.includes("\x1b"), "no escape codes on a non-TTY stderr");
});

test("with a total: bytes of the total, a percentage, and time left once a second of reading has gone by", () => {
  const out: string[] = [];
  const stream = { write: (s: string | Uint8Array) => out.push(String(s)) > 0, once: () => undefined };
  let now = 0;
  const p = progressReporter(stream, true, { total: 40 * 1048576, clock: () => now, everyMs: 0 })!;
  now = 500;
  p.update("a.jsonl", 4 * 1048576);
  assert.equal(out.at(-1), "\r\x1b[K4.0 MB of 40.0 MB · 10%");
  now = 2000;
  p.update("a.jsonl", 10 * 1048576);
  p.update("b.jsonl", 0);
  // 10 MB in 2 s: 30 MB more takes 6 s.
  assert.equal(out.at(-1), "\r\x1b[K10.0 MB of 40.0 MB · 25% · about 6 s left");
  now = 3000;
  p.update("b.jsonl", 30 * 1048576);
  assert.equal(out.at(-1), "\r\x1b[K40.0 MB of 40.0 MB · 100% · about 0 s left");
});

test("progressLine: long estimates read in minutes and hours; no total shows bytes read only", () => {
  assert.equal(progressLine(1048576, 100 * 1048576, 10_000), "1.0 MB of 100.0 MB · 1% · about 16 min 30 s left");
  assert.equal(progressLine(1048576, 1000 * 1048576, 10_000), "1.0 MB of 1000.0 MB · 0% · about 2 h 46 min left");
  assert.equal(progressLine(5 * 1048576, undefined, 10_000), "5.0 MB read");
});
