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
  }
  const requests = rows.slice(0, 4);
  for (const row of requests) {
    assert.match(row.index!, /^\d+$/);
    assert.match(row.time!, /^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
    assert.equal(row.requests, "", "a request row has no count of requests");
  }
  const [first, , third] = rows;
  assert.deepEqual([first!.cacheCreation, first!.cacheCreation5m, first!.cacheCreation1h], ["2194", "0", "2194"]);
  assert.deepEqual([first!.addedAttachments, first!.addedAttachmentChars, first!.addedAttachmentCharsExact], ["2", "307", "false"]);
  assert.deepEqual([third!.output, third!.outputPlaceholder], ["3", "true"]);
  // The totals row: its count of requests in a column of its own, index and time empty (each column one kind),
  // and its output marked as a placeholder's is, since it adds request 3's placeholder count.
  const total = rows[4]!;
  assert.deepEqual([total.index, total.time, total.requests], ["", "", "4"]);
  assert.deepEqual([total.output, total.outputPlaceholder], ["212", "true"]);
  assert.equal(keys.indexOf("requests"), keys.indexOf("time") + 1, "requests follows time");
});

test("the terminal and markdown still compose the raw columns into one cell", async () => {
  const t = await runCli(["requests", BASIC]);
  assert.match(t.stdout, /│ 2,194 \(0\/2,194\)\s+│/);
  assert.match(t.stdout, /│ 3\*\s+│/);
  assert.match(t.stdout, /│ total │ 4 requests\s+│/);
  assert.match(t.stdout, /│ 212\*\s+│/, "the total adds a placeholder count: marked");
  assert.match(t.stdout, /the total output includes 1 placeholder count\(s\)/);
  const m = await runCli(["requests", BASIC, "--format", "markdown"]);
  assert.match(m.stdout, /\| 2 \(≈307\) \|/);
});
