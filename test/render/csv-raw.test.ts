import { test } from "node:test";
import assert from "node:assert/strict";
import { runCli, sample } from "../helpers.js";

const BASIC = sample("basic", "11111111-2222-4333-8444-555555555555.jsonl");

/** Splits a CSV line with no quoted fields (asserted): raw numbers never need quoting. */
function cells(line: string): string[] {
  assert.doesNotMatch(line, /"/, `no quoted field in ${line}`);
  return line.split(",");
}

test("requests CSV: every token and count cell is a plain number, the 5m/1h split and the marks are columns of their own", async () => {
  const r = await runCli(["requests", BASIC, "--format", "csv"]);
  assert.equal(r.code, 0, r.stderr);
  const [head, ...lines] = r.stdout.split("\r\n\r\n")[0]!.trimEnd().split("\r\n");
  const keys = cells(head!);
  for (const k of [
    "cacheCreation",
    "cacheCreation5m",
    "cacheCreation1h",
    "output",
    "outputPlaceholder",
    "duplicateOf",
    "afterCompaction",
    "addedResults",
    "addedResultChars",
    "addedAttachments",
    "addedAttachmentChars",
    "addedAttachmentCharsExact",
  ]) {
    assert.ok(keys.includes(k), `header has ${k}: ${head}`);
  }
  const numeric = [
    "inputTokens",
    "cacheCreation",
    "cacheCreation5m",
    "cacheCreation1h",
    "cacheReadInputTokens",
    "totalInputTokens",
    "deltaTokens",
    "output",
    "fragments",
    "addedResults",
    "addedResultChars",
    "addedUserText",
    "addedAttachments",
    "addedAttachmentChars",
  ];
  const rows = lines.map((l) => Object.fromEntries(cells(l).map((v, i) => [keys[i], v])));
  assert.equal(rows.length, 5, "four requests and the totals");
  for (const row of rows) {
    for (const k of numeric) assert.match(row[k] ?? "", /^(-?\d+)?$/, `${k} = ${row[k]}`);
    assert.match(row.index!, /^(\d+|total)$/);
  }
  const [first, , third] = rows;
  assert.deepEqual([first!.cacheCreation, first!.cacheCreation5m, first!.cacheCreation1h], ["2194", "0", "2194"]);
  assert.deepEqual([first!.addedAttachments, first!.addedAttachmentChars, first!.addedAttachmentCharsExact], ["2", "307", "false"]);
  assert.deepEqual([third!.output, third!.outputPlaceholder], ["3", "true"]);
  assert.equal(rows[4]!.time, "4", "the totals row counts its requests in the time column");
});

test("the terminal and markdown still compose the raw columns into one cell", async () => {
  const t = await runCli(["requests", BASIC]);
  assert.match(t.stdout, /│ 2,194 \(0\/2,194\)\s+│/);
  assert.match(t.stdout, /│ 3\*\s+│/);
  assert.match(t.stdout, /│ 4 requests\s+│/);
  const m = await runCli(["requests", BASIC, "--format", "markdown"]);
  assert.match(m.stdout, /\| 2 \(≈307\) \|/);
});
