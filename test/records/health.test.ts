import { test } from "node:test";
import assert from "node:assert/strict";
import { countMalformed, countParsed, documentHealth, emptyHealth, type Health } from "../../src/records/health.js";

function healthOf(file: string, lines: number, malformedAt: number[], invalid = 0): Health {
  const h = emptyHealth();
  h.lines = lines;
  for (let i = 1; i <= lines; i++) {
    if (malformedAt.includes(i)) countMalformed(h, { pos: { file, line: i }, reason: "invalid JSON", excerpt: "{" });
    else countParsed(h, { file, line: i }, i <= invalid ? { invalid: [{ field: "usage.input_tokens", value: "-1" }] } : undefined);
  }
  return h;
}

test("documentHealth: whole inputs add everything, inputs read alongside add their bad lines and invalid values only", () => {
  const transcript = healthOf("t.jsonl", 10, [3]);
  const debug = healthOf("debug.txt", 35, [7], 1);
  const h = documentHealth([
    { health: transcript, share: "whole" },
    { health: debug, share: "bad-lines" },
  ]);
  assert.equal(h.lines, 10);
  assert.equal(h.records, 9);
  assert.equal(h.malformedCount, 2);
  assert.deepEqual(
    h.malformed.map((m) => `${m.file}:${m.line}`),
    ["t.jsonl:3", "debug.txt:7"],
  );
  assert.equal(h.invalidValueCount, 1);
  assert.deepEqual(documentHealth([{ health: debug, share: "whole" }]), debug, "a log given as the command's own file counts whole");
});

test("documentHealth does not change the per-input healths it merges", () => {
  const a = healthOf("a", 4, [2]);
  const before = structuredClone(a);
  documentHealth([
    { health: a, share: "whole" },
    { health: a, share: "bad-lines" },
  ]);
  assert.deepEqual(a, before);
});
