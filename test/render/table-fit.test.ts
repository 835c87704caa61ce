import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { col, type Column, type ColumnKind, type OutputDocument, type Table } from "../../src/report/model.js";
import { plain } from "../../src/render/palette.js";
import { renderTerminal } from "../../src/render/table.js";
import { textWidth } from "../../src/render/text-width.js";

const word = fc.array(fc.constantFrom("a", "b", "漢", "é", "/", "-", "_", "1"), { minLength: 1, maxLength: 30 }).map((a) => a.join(""));
const text = fc.array(word, { maxLength: 8 }).map((a) => a.join(" "));
const KINDS: ColumnKind[] = ["int", "signed", "bytes", "text", "time", "bool", "usd"];
const value = (k: ColumnKind) =>
  k === "text"
    ? text
    : k === "time"
      ? fc.constant("2026-01-02T03:04:05.678Z")
      : k === "bool"
        ? fc.boolean()
        : fc.integer({ min: -1e12, max: 1e12 });

const tableArb: fc.Arbitrary<Table> = fc
  .array(fc.record({ header: word, kind: fc.constantFrom(...KINDS) }), { minLength: 1, maxLength: 14 })
  .chain((cs) => {
    const columns: Column[] = cs.map((c, i) => col(`c${i}`, c.header, c.kind));
    const row = fc.tuple(...columns.map((c) => value(c.kind))).map((vs) => Object.fromEntries(vs.map((v, i) => [`c${i}`, v])));
    return fc
      .record({ title: text, rows: fc.array(row, { maxLength: 6 }), notes: fc.array(text, { maxLength: 2 }) })
      .map((t) => ({ id: "t", columns, footer: [], ...t }));
  });

test("with a width, no line of any table is longer: boxes, key/value lines, lists, titles, notes", () => {
  fc.assert(
    fc.property(fc.array(tableArb, { minLength: 1, maxLength: 3 }), fc.integer({ min: 20, max: 160 }), text, (tables, width, title) => {
      const r: OutputDocument = { title, summary: [["a key", title]], tables, warnings: [] };
      const out = renderTerminal(r, plain, { width });
      for (const line of out.split("\n")) assert.ok(textWidth(line) <= width, `${width}: ${line}`);
    }),
    { numRuns: 300 },
  );
});

test("a dropped column is named once under its table; a table that fits gets no note", () => {
  const cols: Column[] = ["alpha", "beta", "gamma", "delta"].map((k, i) => col(k, k, "text", { priority: i === 0 ? 1 : 3 }));
  const rows = [{ alpha: "x".repeat(30), beta: "y".repeat(30), gamma: "z".repeat(30), delta: "w".repeat(30) }];
  const narrow = renderTerminal({ title: "t", tables: [{ id: "t", title: "t", columns: cols, rows }], warnings: [] }, plain, { width: 60 });
  assert.equal(narrow.match(/hidden to fit 60 columns/g)?.length, 1, narrow);
  const wide = renderTerminal({ title: "t", tables: [{ id: "t", title: "t", columns: cols, rows }], warnings: [] }, plain, { width: 200 });
  assert.doesNotMatch(wide, /hidden|shortened/);
});
