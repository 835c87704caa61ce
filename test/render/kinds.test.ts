import { test } from "node:test";
import assert from "node:assert/strict";
import { cellText, formatValue } from "../../src/render/cell.js";
import { alignOf, formatterFor } from "../../src/render/kinds.js";
import { col, type ColumnKind, type ColumnOptions, type Row } from "../../src/report/model.js";

/** Per kind: [raw row value, companion fields, column options, expected text]. A Record, so a new kind needs its cases here. */
const CASES: Record<ColumnKind, Array<[unknown, Row, ColumnOptions, string]>> = {
  int: [
    [12345, {}, {}, "12,345"],
    [0, {}, {}, "0"],
    [-3, {}, {}, "-3"],
    ["total", {}, {}, "total"],
  ],
  signed: [
    [208, {}, {}, "+208"],
    [-1234, {}, {}, "-1,234"],
    [0, {}, {}, "0"],
    // A delta against a baseline mean: the half token shows, never rounded to +376 or -2 (nor -0).
    [375.5, {}, {}, "+375.5"],
    [1725.5, {}, {}, "+1,725.5"],
    [-1.5, {}, {}, "-1.5"],
    [-0, {}, {}, "0"],
  ],
  delta: [
    [208, {}, {}, "+208"],
    [-3, {}, {}, "-3"],
    [null, { t: "auto", p: 167731 }, { parts: ["t", "p"] }, "reset (auto, 167,731 before)"],
    [null, { t: "manual", p: null }, { parts: ["t", "p"] }, "reset (manual)"],
    [null, { t: "auto", p: 900 }, { parts: ["t", "p"], marks: [{ key: "m", text: " §" }] }, "reset (auto, 900 before)"],
    [null, { t: "auto", p: 900, m: true }, { parts: ["t", "p"], marks: [{ key: "m", text: " §" }] }, "reset (auto, 900 before) §"],
  ],
  bytes: [
    [512, {}, {}, "512 bytes"],
    [52_940, {}, {}, "51.7KB"],
    [2048, {}, {}, "2KB"],
    [3 * 1024 * 1024, {}, {}, "3MB"],
  ],
  ms: [
    [23363, {}, {}, "23,363 ms"],
    [4, {}, {}, "4 ms"],
  ],
  ratio: [
    [0.5, {}, {}, "0.50"],
    [2.004, {}, {}, "2.00"],
    // A spread between repeats that is not zero does not read as 0.00.
    [0.004, {}, {}, "0.0040"],
    [-0.0012, {}, {}, "-0.0012"],
    [0, {}, {}, "0.00"],
  ],
  rate: [
    [0.0031, {}, {}, "0.0031"],
    [0.25, {}, {}, "0.25"],
    [0, {}, {}, "0.00"],
    [1.5, {}, {}, "1.50"],
  ],
  usd: [
    [0.2038021, {}, {}, "$0.2038"],
    // A cost spread too small for four decimals is not $0.0000.
    [0.0000123, {}, {}, "$0.000012"],
    [0, {}, {}, "$0.0000"],
  ],
  usdExact: [[0.2038021, {}, {}, "$0.203802"]],
  time: [["2026-04-02T09:14:05.734Z", {}, {}, "2026-04-02T09:14:05.734Z"]],
  bool: [
    [true, {}, {}, "yes"],
    [false, {}, {}, "no"],
  ],
  text: [
    ["lab", {}, {}, "lab"],
    [["a", "b"], {}, {}, "a, b"],
    ["esc\x1b[31m", {}, {}, "esc\\x1b[31m"],
  ],
  entry: [
    ["Connection error: [\n  {\n  }\n]", {}, {}, "Connection error: [ (+3 lines)"],
    ["x".repeat(200), {}, {}, `${"x".repeat(159)}…`],
    ["esc\x1b[31m", {}, {}, "esc\\x1b[31m"],
  ],
  message: [
    ["Connection error: [\n  {\n  }\n]", {}, {}, "Connection error: [ { } ]"],
    ["y".repeat(200), {}, {}, `${"y".repeat(159)}…`],
  ],
  id: [["toolu_01ABC", {}, {}, "toolu_01ABC"]],
  path: [["/tmp/x.jsonl", {}, {}, "/tmp/x.jsonl"]],
  split: [
    [2194, { a: 0, b: 2194 }, { parts: ["a", "b"] }, "2,194 (0/2,194)"],
    [2194, { a: 12, b: null }, { parts: ["a", "b"] }, "2,194 (12/0)"],
    [3148, {}, { parts: ["a", "b"] }, "3,148"],
  ],
  countOf: [
    [2, { c: 1442 }, { parts: ["c"] }, "2 (1,442)"],
    [2, { c: 307, exact: false }, { parts: ["c", "exact"] }, "2 (≈307)"],
    [1, { c: 161, exact: true }, { parts: ["c", "exact"] }, "1 (161)"],
    [0, { c: 0 }, { parts: ["c"] }, ""],
  ],
  change: [[20000, { to: 2048 }, { parts: ["to"] }, "20000 → 2048"]],
  countGrowth: [
    [2, { t: 1234 }, { parts: ["t"] }, "2 (+1,234)"],
    [1, { t: null }, { parts: ["t"] }, "1"],
    [0, { t: 5 }, { parts: ["t"] }, ""],
  ],
  consulted: [
    [3, {}, {}, "yes (3)"],
    [0, {}, {}, "no"],
  ],
  mixed: [
    [1234, { kind: "int" }, {}, "1,234"],
    [0.203802, { kind: "usdExact" }, {}, "$0.203802"],
    ["plain", {}, {}, "plain"],
    [5, { kind: "mixed" }, {}, "5"],
  ],
};

for (const [kind, cases] of Object.entries(CASES) as Array<[ColumnKind, (typeof CASES)[ColumnKind]]>) {
  test(`column kind ${kind}: raw values print as the tables have always shown them`, () => {
    assert.ok(cases.length > 0);
    for (const [v, companions, o, want] of cases) {
      const c = col("v", "v", kind, o);
      assert.equal(cellText({ ...companions, v }, c), want, `${kind} ${JSON.stringify(v)}`);
      assert.equal(typeof formatterFor(kind)(v, { ...companions, v }, c), "string");
    }
  });
}

test("empty cells: blank in tables, the renderer's placeholder or the column's own", () => {
  for (const kind of Object.keys(CASES) as ColumnKind[]) {
    assert.equal(cellText({ v: null }, col("v", "v", kind)), "");
    assert.equal(cellText({}, col("v", "v", kind), "—"), "—");
  }
  assert.equal(cellText({ v: null }, col("v", "v", "int", { empty: "none" }), "—"), "none");
  assert.equal(formatValue(null, "int", "—"), "—");
  assert.equal(formatValue(1500, "ms"), "1,500 ms");
});

test("marks: the first set field is printed after the value; a value mark carries its value", () => {
  const c = col("index", "#", "int", {
    marks: [
      { key: "duplicateOf", text: " =" },
      { key: "afterCompaction", text: " §" },
    ],
  });
  assert.equal(cellText({ index: 12, duplicateOf: "3", afterCompaction: true }, c), "12 =3");
  assert.equal(cellText({ index: 5, duplicateOf: null, afterCompaction: true }, c), "5 §");
  assert.equal(cellText({ index: 5, duplicateOf: null, afterCompaction: false }, c), "5");
  const out = col("output", "output", "int", { marks: [{ key: "outputPlaceholder", text: "*" }] });
  assert.equal(cellText({ output: 3, outputPlaceholder: true }, out), "3*");
  assert.equal(cellText({ output: null, outputPlaceholder: true }, out), "", "no mark without a value");
  const d = col("d", "delta", "delta", { parts: ["t", "p"], marks: [{ key: "m", text: " §" }] });
  assert.equal(cellText({ d: null, t: null, p: null, m: true }, d), "", "a null growth with no compaction stays blank, unmarked");
});

test("a footer count prints with its noun under any kind", () => {
  assert.equal(cellText({ time: { count: 4, noun: "requests" } }, col("time", "time", "time")), "4 requests");
});

test("alignment: plain numbers right, composed cells and text left, a column may override", () => {
  assert.equal(alignOf(col("n", "n", "int")), "right");
  assert.equal(alignOf(col("n", "n", "rate")), "right");
  assert.equal(alignOf(col("n", "n", "split")), "left");
  assert.equal(alignOf(col("n", "n", "text")), "left");
  assert.equal(alignOf(col("n", "n", "int", { align: "left" })), "left");
});

test("every column gets a priority and a width class from its kind unless it says otherwise", () => {
  assert.deepEqual([col("a", "a", "int").priority, col("a", "a", "int").width], [2, "number"]);
  assert.equal(col("a", "a", "id").width, "id");
  assert.equal(col("a", "a", "path").width, "path");
  assert.equal(col("a", "a", "time").width, "time");
  assert.deepEqual([col("a", "a", "text", { priority: 1, width: "id" }).priority, col("a", "a", "text", { width: "id" }).width], [1, "id"]);
});
