import { test } from "node:test";
import assert from "node:assert/strict";
import { renderMarkdown } from "../../src/render/markdown.js";
import { ShortIds } from "../../src/render/markdown-ids.js";
import { duration, mdRate } from "../../src/render/markdown-style.js";
import { col, type OutputDocument, type Row } from "../../src/report/model.js";

const wide = (rows: number, footer = false): OutputDocument => ({
  title: "t",
  tables: [
    {
      id: "w",
      title: "Wide",
      columns: [
        col("name", "name", "text", { priority: 1 }),
        ...Array.from({ length: 11 }, (_, i) => col(`c${i}`, `col ${i}`, "int", { priority: ((i % 4) + 1) as 1 | 2 | 3 | 4 })),
      ],
      rows: Array.from({ length: rows }, (_, r) => ({
        name: `row${r % 3}`,
        ...Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`c${i}`, 100 + 1000 * r + i])),
      })) as Row[],
      ...(footer ? { footer: [{ name: "total", c0: 99_999 }] } : {}),
    },
  ],
  warnings: [],
});

const tableLines = (md: string) => md.split("\n").filter((l) => l.startsWith("|"));
const widths = (md: string) => tableLines(md).map((l) => l.split(" | ").length);

test("a wide table with many rows splits into a main table and details keyed by #, every cell kept once", () => {
  const out = renderMarkdown(wide(6, true));
  assert.ok(Math.max(...widths(out)) <= 7, out);
  // The names repeat, so they cannot key the pieces: a # column does, in every piece.
  assert.equal(out.match(/^\| # \|/gm)?.length, 2, out);
  assert.match(out, /### Wide, continued\n/);
  // The footer has nothing in the details' columns: no blank bold row there.
  assert.doesNotMatch(out, /^\|(?: +\|)+$/m);
  for (let r = 0; r < 6; r++)
    for (let i = 0; i < 11; i++) {
      const v = (100 + 1000 * r + i).toLocaleString("en-US");
      assert.equal(out.match(new RegExp(`\\| ${v} \\|`, "g"))?.length, 1, `${v}\n${out}`);
    }
  // The most important columns (priority 1, then 2) make the main table, shown in the table's own order.
  assert.match(tableLines(out)[0]!, /^\| # \| name \| col 0 \| col 1 \| col 4 \| col 5 \| col 8 \|$/);
  assert.match(out, /\| \*\*99,999\*\* \|/);
});

test("a wide table with few rows is turned: a line per field, a column per row, the footer bold", () => {
  const out = renderMarkdown(wide(2, true));
  const lines = tableLines(out);
  assert.equal(lines[0], "| name | row0 | row1 | total |");
  assert.equal(lines.length, 2 + 11);
  assert.equal(lines[2], "| col 0 | 100 | 1,100 | **99,999** |");
});

test("short ids stay unique in the document: a shared prefix makes both longer", () => {
  const ids = new ShortIds();
  const a = "c0ffee00-1111-4222-8333-444444444444";
  const b = "c0ffee00-1111-4222-8333-555555555555";
  const c = "abcdef12-0000-4000-8000-000000000000";
  ids.collect([a, { x: [b] }, `path/${c}.jsonl`, "toolu_01DemoBigSizeCheck0001"]);
  assert.equal(ids.shorten(`${a} ${b}`), "c0ffee00-1111-4222-8333-4… c0ffee00-1111-4222-8333-5…");
  assert.equal(ids.shorten(`see /x/${c}.jsonl`), "see /x/abcdef12….jsonl");
  assert.equal(ids.shorten("toolu_01DemoBigSizeCheck0001.json"), "toolu_01DemoBi….json");
  assert.deepEqual(
    ids.list().map((x) => x.full),
    [a, b, c, "toolu_01DemoBigSizeCheck0001"],
  );
});

test("number style: durations in ms or s, rates without exponents", () => {
  assert.deepEqual([312, 999.4, 999.6, 23_363, 593_035].map(duration), ["312 ms", "999 ms", "1.0 s", "23.4 s", "593.0 s"]);
  assert.deepEqual([0.39, 0.019, 0.0033, 1e-7, 0].map(mdRate), ["0.39", "0.019", "0.0033", "0.00000010", "0.00"]);
});

test("an empty table is left out; one whose absence means something says so in a sentence", () => {
  const out = renderMarkdown({
    title: "t",
    tables: [
      { id: "a", title: "Nothing here", columns: [col("x", "x")], rows: [], notes: ["x = a column note"] },
      { id: "b", title: "Instructions", columns: [col("x", "x")], rows: [], whenEmpty: "no instructions in these records" },
    ],
    warnings: [],
  });
  assert.equal(out, "## t\n\n### Instructions\n\nNo instructions in these records.\n");
});
