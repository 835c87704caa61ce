import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RowSpool, SpooledRows } from "../../src/sources/row-spool.js";

test("RowSpool gives each group its rows in push order, across memory, interleaved groups and rows longer than a read", () => {
  const dir = mkdtempSync(join(tmpdir(), "row-spool-test-"));
  try {
    const spool = new RowSpool<{ g: number; i: number; s: string }>(3, dir);
    const want: Array<Array<{ g: number; i: number; s: string }>> = [[], [], []];
    // Groups come back in runs (0,0,1,0,2,2,1,…) and one row is 1.5 MiB of multi-byte text, so reads split it.
    const order = [0, 0, 1, 0, 2, 2, 1, 1, 0, 2, 0, 0, 1, 2, 2, 2, 0];
    order.forEach((g, i) => {
      const row = { g, i, s: i === 9 ? "é".repeat(800_000) : i % 4 === 0 ? "\ud800 lone" : `r${i}` };
      want[g]!.push(row);
      spool.push(g, row);
    });
    assert.equal(spool.spilled, true);
    assert.deepEqual(readdirSync(dir), []);
    for (const g of [2, 0, 1, 0]) assert.deepEqual([...spool.rowsOf(g)], want[g], `group ${g}`);
    const rows = new SpooledRows(spool, 3, order.length);
    assert.deepEqual([...rows], want.flat());
    assert.deepEqual(JSON.parse(JSON.stringify(rows)), want.flat());
    rows.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
