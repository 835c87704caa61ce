import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { MAX_ENTRY_CHARS, type DebugEntry, type DebugRecord } from "../../src/records/debug.js";
import type { InputFile } from "../../src/sources/input.js";
import { makeRedactor } from "../../src/report/redact.js";
import { readDebugLog } from "../read.js";

// A debug entry is clipped at MAX_ENTRY_CHARS (memory: one runaway message cannot hold the file). The clip is a
// cut like any other: marked `…`, so an id it splits reaches --redact as a cut head it shortens, never as a
// fragment no id pattern recognises (31 of a session id's 36 characters, printed as they are).

test("a debug entry clipped at MAX_ENTRY_CHARS ends in `…`, and an id the clip split is redacted to its kind's prefix", async () => {
  const id = "5eed1234-aaaa-4bbb-8ccc-0123456789ab";
  const head = '2026-10-02T09:41:10.069Z [ERROR] MCP server "docs": Connection error: ';
  // The entry's text starts after the header; the clip falls 31 characters into the id.
  const text = `Connection error: ${"x".repeat(MAX_ENTRY_CHARS - "Connection error: ".length - 32)} ${id} and more`;
  const input: InputFile = { path: "-", kind: "debug-log", bytes: 0, sha256: "" };
  const line = `${head.slice(0, head.indexOf("Connection error: "))}${text}\n`;
  const recs: DebugRecord[] = await readDebugLog(input, { stdin: Readable.from([Buffer.from(line)]) });
  const e = recs.find((r): r is DebugEntry => r.kind === "debug")!;
  assert.equal(e.clipped, true);
  assert.ok(e.text.endsWith("…"), e.text.slice(-50));
  assert.ok(e.text.length <= MAX_ENTRY_CHARS);
  const cutId = e.text.slice(e.text.lastIndexOf(" ") + 1, -1);
  assert.ok(cutId.length >= 9 && id.startsWith(cutId) && cutId !== id, `the clip splits the id: ${cutId}`);
  const r = makeRedactor();
  r.collect(e.text);
  const shown = r.apply(e.text);
  assert.ok(shown.endsWith(" 5eed1234…"), shown.slice(-40));
  assert.ok(!shown.includes(id.slice(0, 9)));
});
