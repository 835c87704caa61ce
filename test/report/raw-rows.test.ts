import { test } from "node:test";
import assert from "node:assert/strict";
import { isAbsolute, relative } from "node:path";
import { alignOf } from "../../src/render/kinds.js";
import type { ColumnKind, Row, Table } from "../../src/report/model.js";
import { ROOT } from "../helpers.js";
import { commandOutput, firstFile, sampleCommands } from "./commands.js";

const NUMERIC: ColumnKind[] = ["int", "signed", "bytes", "ms", "ratio", "rate", "usd", "usdExact", "split", "countOf", "change"];
/** A number already formatted for reading: `2,194 (0/2,194)`, `3*`, `4 requests`, `12 =3`, `0.0031`. */
const FORMATTED = /^[\d,.]+( |$|\*|\()/;

function kindOf(row: Row, kind: ColumnKind): ColumnKind {
  return kind === "mixed" && typeof row.kind === "string" ? (row.kind as ColumnKind) : kind;
}

function formattedCells(t: Table): string[] {
  const bad: string[] = [];
  for (const [where, rows] of [
    ["row", t.rows],
    ["footer", t.footer ?? []],
  ] as const) {
    rows.forEach((r, i) => {
      for (const c of t.columns) {
        const v = r[c.key];
        if (typeof v === "string" && NUMERIC.includes(kindOf(r, c.kind)) && FORMATTED.test(v))
          bad.push(`${t.id} ${where} ${i} ${c.key}: ${JSON.stringify(v)}`);
        for (const k of [...(c.parts ?? []), ...(c.marks ?? []).map((m) => m.key)]) {
          const p = r[k];
          if (typeof p === "string" && FORMATTED.test(p) && c.marks?.every((m) => m.key !== k))
            bad.push(`${t.id} ${where} ${i} ${k}: ${JSON.stringify(p)}`);
        }
      }
    });
  }
  return bad;
}

test("the check itself: a pre-formatted number under a numeric kind is caught", () => {
  const t: Table = {
    id: "t",
    title: "t",
    columns: [{ key: "n", header: "n", kind: "int", priority: 1, width: "number" }],
    rows: [{ n: "2,194 (0/2,194)" }, { n: "3*" }],
    footer: [{ n: "4 requests" }],
  };
  assert.equal(formattedCells(t).length, 3);
  assert.deepEqual(formattedCells({ ...t, rows: [{ n: 2194 }, { n: "total" }], footer: [{ n: { count: 4, noun: "requests" } }] }), []);
});

for (const args of sampleCommands(firstFile)) {
  test(`raw rows: ${args.map((a) => (isAbsolute(a) ? relative(ROOT, a) : a)).join(" ")}`, async () => {
    const out = await commandOutput(args);
    assert.ok(out.document.tables.length > 0, "the document has tables");
    const bad = out.document.tables.flatMap(formattedCells);
    assert.deepEqual(bad, [], "cells under numeric kinds hold numbers, not formatted text");
    for (const t of out.document.tables) {
      // A width-aware renderer drops columns by priority: each table must keep at least one.
      if (t.columns.length)
        assert.ok(
          t.columns.some((c) => c.priority === 1),
          `${t.id} has a column that is always shown`,
        );
      for (const c of t.columns) {
        assert.ok([1, 2, 3, 4].includes(c.priority), `${t.id}.${c.key} has a priority`);
        assert.ok(c.width, `${t.id}.${c.key} has a width class`);
        assert.ok(alignOf(c));
      }
    }
  });
}
