import { test } from "node:test";
import assert from "node:assert/strict";
import { isAbsolute, relative } from "node:path";
import { csvKeys, csvRaw } from "../../src/render/csv-columns.js";
import type { ColumnKind, Row, Table } from "../../src/report/model.js";
import { ROOT } from "../helpers.js";
import { commandOutput, firstFile, sampleCommands } from "./commands.js";

// A CSV loader types each column from its values (DuckDB read_csv, pandas): a column must hold one kind of
// value in every row, footer (totals) rows included. A totals row's labels (`total`, `4 requests`) are for
// the human formats; CSV gets null there, and the count of requests has a column of its own.

const NUMBER: ColumnKind[] = [
  "int",
  "signed",
  "delta",
  "bytes",
  "ms",
  "ratio",
  "rate",
  "usd",
  "usdExact",
  "split",
  "countOf",
  "change",
  "countGrowth",
];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

function ofKind(v: unknown, kind: ColumnKind): boolean {
  if (v === null || v === undefined) return true;
  if (NUMBER.includes(kind)) return typeof v === "number";
  if (kind === "time") return typeof v === "string" && ISO.test(v);
  if (kind === "bool") return typeof v === "boolean";
  return true;
}

/** Every written field of a row or footer row whose raw value is not of its column's kind. */
function mixed(t: Table): string[] {
  const bad: string[] = [];
  const keys = new Set(csvKeys(t));
  for (const [where, rows] of [
    ["row", t.rows],
    ["footer", t.footer ?? []],
  ] as const)
    rows.forEach((r: Row, i) => {
      for (const c of t.columns) {
        if (!keys.has(c.key) || c.kind === "mixed") continue;
        const v = csvRaw(r, c.key);
        if (!ofKind(v, c.kind)) bad.push(`${t.id} ${where} ${i} ${c.key} (${c.kind}): ${JSON.stringify(v)}`);
      }
    });
  return bad;
}

test("the check itself: a label or a count in a time column of a footer is caught", () => {
  const t: Table = {
    id: "t",
    title: "t",
    columns: [
      { key: "index", header: "#", kind: "int", priority: 1, width: "number" },
      { key: "time", header: "time", kind: "time", priority: 1, width: "time" },
    ],
    rows: [{ index: 1, time: "2026-03-01T10:00:02.000Z" }],
    footer: [{ index: "total", time: 4 }],
  };
  assert.equal(mixed(t).length, 2);
  assert.deepEqual(mixed({ ...t, footer: [{ index: null, time: { count: 4, noun: "requests" } }] }), []);
});

for (const args of sampleCommands(firstFile)) {
  test(`CSV columns hold one kind: ${args.map((a) => (isAbsolute(a) ? relative(ROOT, a) : a)).join(" ")}`, async () => {
    const out = await commandOutput(args);
    assert.deepEqual(out.document.tables.flatMap(mixed), []);
  });
}
