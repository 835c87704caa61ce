import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { inventoryAnalysis, sessionGlanceAnalysis, sessionSpan, type InventoryResult } from "../../src/analyses/inventory.js";
import { Fanout } from "../../src/analyses/analysis.js";
import type { InputFile } from "../../src/sources/input.js";
import { scanTranscripts } from "../read.js";
import { filesUnder, sample } from "../helpers.js";

/**
 * What `sessions` showed from the full inventory before the glance: the row's cwd, versions and times; the
 * times are the session's own records' (`sessionSpan`: a resumed file's copies left out), as export's are.
 */
function fromInventory(inv: InventoryResult) {
  const span = sessionSpan(inv.ownSpans, null);
  return {
    cwd: Object.entries(inv.cwds).sort((a, b) => b[1] - a[1])[0]?.[0] ?? null,
    versions: Object.keys(inv.versions).sort((a, b) => a.localeCompare(b, "en", { numeric: true })),
    firstTimestamp: span.first,
    lastTimestamp: span.last,
  };
}

async function both(inputs: InputFile[], stdin?: Buffer) {
  const fan = new Fanout({ inventory: inventoryAnalysis, glance: sessionGlanceAnalysis });
  await scanTranscripts(inputs, (r) => fan.step(r), stdin ? { stdin: Readable.from([stdin]) } : {});
  const r = fan.finish();
  return { full: fromInventory(r.inventory), glance: r.glance };
}

test("the glance gives every sample transcript the cwd, versions and times the full inventory gives", async () => {
  const files = filesUnder(sample());
  assert.ok(files.length > 50, `${files.length} sample transcripts`);
  let withCwd = 0;
  for (const path of files) {
    const { full, glance } = await both([{ path, kind: "transcript", bytes: 0, sha256: "", chain: "main" }]);
    assert.deepEqual(glance, full, path);
    if (glance.cwd !== null) withCwd += 1;
  }
  assert.ok(withCwd > 20, `${withCwd} samples name a cwd`);
});

const rec = (cwd: unknown, version: unknown, t: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: "user", cwd, version, timestamp: t, message: { role: "user", content: "x" }, ...extra });

// Ties (first counted wins, but integer-like keys sort first in a plain object), names of Object.prototype
// (`__proto__` and `constructor` count like any name: records/counts.ts), versions that compare equal
// numerically, invalid timestamps, malformed lines, values of the wrong type, escapes and surrogates.
const cases: Record<string, string[]> = {
  empty: [],
  "one cwd": [rec("/a", "2.1.1", "2026-01-01T00:00:00Z")],
  "a tie, first wins": [rec("/b", "2.1.1", "2026-01-01T00:00:02Z"), rec("/a", "2.1.10", "2026-01-01T00:00:01Z")],
  "a tie with an integer-like key": [rec("/b", "1", "2026-01-01T00:00:00Z"), rec("7", "01", "2026-01-01T00:00:00Z")],
  "most common later": [rec("/a", "2.1.9", "2026-01-01T00:00:00Z"), rec("/b", "2.1.10", "2026-01-02T00:00:00Z"), rec("/b", "2.1.9", "x")],
  "__proto__ alone": [rec("__proto__", "__proto__", "2026-01-01T00:00:00Z")],
  "__proto__ and another": [
    rec("__proto__", "2", "2026-01-01T00:00:00Z"),
    rec("__proto__", "2", "2026-01-01T00:00:00Z"),
    rec("/c", "1", "2026-01-01T00:00:00Z"),
  ],
  constructor: [
    rec("constructor", "toString", "2026-01-01T00:00:00Z"),
    rec("/d", "valueOf", "2026-01-01T00:00:00Z"),
    rec("/d", "1", "2026-01-01T00:00:00Z"),
  ],
  "constructor alone": [rec("constructor", "hasOwnProperty", "2026-01-01T00:00:00Z")],
  "wrong types": [
    rec(5, 2, "2026-01-01T00:00:00Z"),
    rec(null, null, "garbage"),
    rec(["/x"], {}, "2026-02-30T00:00:00Z"),
    rec("/e", "2.0.0", "2026-01-01T00:00:00Z"),
  ],
  "malformed lines": ["{not json", rec("/f", "2.0.1", "2026-03-01T00:00:00Z"), '{"cwd": "/g"', "[1,2]"],
  "escapes and surrogates": [
    rec("/h\\u00e9\ud83d\ude00", "2.1.1", "2026-01-01T00:00:00Z"),
    `{"type":"user","cwd":"/h\\u00e9\\ud83d\\ude00","timestamp":"2026-01-01T00:00:00Z"}`,
    rec("/lone\ud800", "2", "2026-01-01T00:00:00Z"),
  ],
  "no cwd": [rec(undefined, undefined, "2026-01-01T00:00:00Z")],
  "empty cwd": [rec("", "", "2026-01-01T00:00:00Z")],
};

for (const [name, lines] of Object.entries(cases))
  test(`the glance agrees with the full inventory: ${name}`, async () => {
    for (const eol of ["\n", "\r\n"]) {
      const text = Buffer.from(lines.map((l) => l + eol).join(""));
      const { full, glance } = await both([{ path: "-", kind: "transcript", bytes: 0, sha256: "", chain: "main" }], text);
      assert.deepEqual(glance, full);
    }
  });

test("the glance's answers are the ones written down (a comparison of two wrong answers proves nothing)", async () => {
  const get = async (lines: string[]) =>
    (await both([{ path: "-", kind: "transcript", bytes: 0, sha256: "", chain: "main" }], Buffer.from(lines.map((l) => `${l}\n`).join(""))))
      .glance;
  assert.deepEqual(await get(cases["a tie with an integer-like key"]!), {
    cwd: "7",
    // "1" is an array index, so a plain object lists it first; numerically the two tie and keep that order.
    versions: ["1", "01"],
    firstTimestamp: "2026-01-01T00:00:00Z",
    lastTimestamp: "2026-01-01T00:00:00Z",
  });
  // Counted like any other name (a plain {} once set the prototype instead, and lost them).
  assert.equal((await get(cases["__proto__ alone"]!)).cwd, "__proto__");
  assert.deepEqual((await get(cases["__proto__ alone"]!)).versions, ["__proto__"]);
  assert.equal((await get(cases["__proto__ and another"]!)).cwd, "__proto__");
  assert.deepEqual((await get(cases["__proto__ and another"]!)).versions, ["1", "2"]);
  assert.deepEqual((await get(cases["constructor"]!)).versions, ["1", "toString", "valueOf"]);
  assert.equal((await get(cases["constructor"]!)).cwd, "/d");
  assert.equal((await get(cases["constructor alone"]!)).cwd, "constructor");
  assert.equal((await get(cases["most common later"]!)).cwd, "/b");
  assert.equal((await get(cases.empty!)).cwd, null);
  assert.equal((await get(cases["empty cwd"]!)).cwd, "");
});
