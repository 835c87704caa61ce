import { test } from "node:test";
import assert from "node:assert/strict";
import { progressReporter } from "../../src/commands/progress.js";

test("progress goes to stderr only when it is a terminal, and is cleared at the end", () => {
  const out: string[] = [];
  const stream = { write: (s: string | Uint8Array) => out.push(String(s)) > 0, once: () => undefined };
  assert.equal(progressReporter(stream, false), undefined);
  const p = progressReporter(stream, true)!;
  p.update("a.jsonl", 3 * 1048576);
  p.done();
  assert.match(out[0]!, /file 1: 3\.0 MB read/);
  assert.equal(out.at(-1), "\r\x1b[K");
});

test("nothing but the document reaches stdout, and no progress escape reaches a non-TTY stderr", async () => {
  const { runCli, sample } = await import("../helpers.js");
  const r = await runCli(["sessions", "--claude-dir", sample("subagents", "claude"), "--json"]);
  assert.equal(r.code, 0);
  JSON.parse(r.stdout);
  assert.ok(!r.stderr.includes("\x1b"), "no escape codes on a non-TTY stderr");
});
