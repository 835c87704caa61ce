import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { boxWidth, fitColumns, type WidthClass } from "../../src/render/fit.js";
import { shorten, textWidth, wrap } from "../../src/render/text-width.js";

test("ids keep their prefix, paths their file name, prose its start; widths count CJK as 2", () => {
  assert.equal(shorten("c0ffee00-1111-4222-8333-444444444444", 13, "middle-id"), "c0ffee00…4444");
  assert.equal(shorten("/home/dev/project/tool-results/toolu_01.json", 20, "middle-path"), "/home/…toolu_01.json");
  assert.equal(shorten("a long sentence of text", 10), "a long se…");
  assert.equal(shorten("漢字漢字漢字", 7), "漢字漢…");
  assert.equal(textWidth(shorten("漢字漢字漢字", 6)), 5);
  assert.equal(shorten("short", 10), "short");
});

test("wrap breaks at spaces, long paths after a slash, and never returns a line wider than asked", () => {
  assert.deepEqual(wrap("one two three", 8), ["one two", "three"]);
  assert.deepEqual(wrap("/aaaa/bbbb/cccc", 8), ["/aaaa/", "bbbb/", "cccc"]);
  fc.assert(
    fc.property(fc.array(fc.constantFrom("a", " ", "/", "漢", "é", "-"), { maxLength: 60 }), fc.integer({ min: 2, max: 30 }), (cs, w) => {
      const s = cs.join("");
      for (const l of wrap(s, w)) assert.ok(textWidth(l) <= w, JSON.stringify([s, w, l]));
    }),
  );
});

const CLASSES: WidthClass[] = ["id", "number", "time", "flag", "text", "path"];
const colsArb = fc.array(
  fc.record({ priority: fc.integer({ min: 1, max: 4 }), width: fc.constantFrom(...CLASSES), natural: fc.integer({ min: 0, max: 90 }) }),
  { minLength: 1, maxLength: 16 },
);

test("a fitted box is never wider than the width, keeps the first column, and hides only what it says", () => {
  fc.assert(
    fc.property(colsArb, fc.integer({ min: 20, max: 200 }), (cols, total) => {
      const f = fitColumns(cols, total);
      assert.ok(boxWidth(f.widths) <= total, JSON.stringify({ cols, total, f }));
      assert.equal(f.shown[0], 0);
      assert.deepEqual(
        [...f.shown, ...f.hidden].sort((a, b) => a - b),
        cols.map((_, i) => i),
      );
      f.shown.forEach((i, j) => assert.ok(f.widths[j]! <= cols[i]!.natural || cols[i]!.natural === 0));
      if (boxWidth(cols.map((c) => c.natural)) <= total) assert.deepEqual(f.hidden, []);
    }),
    { numRuns: 2000 },
  );
});

test("the least important column goes first; numbers are never cut while a column can go", () => {
  const f = fitColumns(
    [
      { priority: 1, width: "id", natural: 36 },
      { priority: 2, width: "number", natural: 10 },
      { priority: 4, width: "text", natural: 40 },
      { priority: 3, width: "number", natural: 12 },
    ],
    60,
  );
  assert.deepEqual(f.hidden, [2]);
  assert.deepEqual(f.widths.slice(1), [10, 12]);
});

test("a hanging indent: lines after the first start with it, and still fit", () => {
  assert.deepEqual(wrap("alpha beta gamma delta", 11, "  "), ["alpha beta", "  gamma", "  delta"]);
  fc.assert(
    fc.property(fc.array(fc.constantFrom("ab", " ", "/", "漢", "cde"), { maxLength: 40 }), fc.integer({ min: 4, max: 30 }), (cs, w) => {
      const lines = wrap(cs.join(""), w, "  ");
      lines.forEach((l, i) => {
        assert.ok(textWidth(l) <= w);
        if (i > 0) assert.ok(l.startsWith("  "));
      });
    }),
  );
});

test("a narrow column dropped before a wide one comes back when it fits in the room the wide one left", () => {
  // At the soft minimum: 16 + 20 + 5 plus borders is 51 > 40. The flag goes first (priority 4), which is not
  // enough (43); the text goes too (20). The flag fits beside the id again (28 ≤ 40) and must be shown.
  const f = fitColumns(
    [
      { priority: 1, width: "id", natural: 20 },
      { priority: 3, width: "text", natural: 40 },
      { priority: 4, width: "flag", natural: 5 },
    ],
    40,
  );
  assert.deepEqual(f.shown, [0, 2]);
  assert.deepEqual(f.hidden, [1]);
  assert.deepEqual(f.widths, [20, 5]);
});

/** What a column takes at the soft minimum (fit.ts SOFT): numbers, times and flags are never cut. */
const SOFT_MIN: Record<WidthClass, number> = { id: 16, path: 24, text: 20, number: Infinity, time: Infinity, flag: Infinity };
const softMin = (c: { width: WidthClass; natural: number }) => Math.min(c.natural, SOFT_MIN[c.width]);

test("no hidden column would fit: with every shown column at its soft minimum, adding any hidden one overflows", () => {
  fc.assert(
    fc.property(colsArb, fc.integer({ min: 20, max: 200 }), (cols, total) => {
      const f = fitColumns(cols, total);
      const base = boxWidth(f.shown.map((i) => softMin(cols[i]!)));
      for (const h of f.hidden) assert.ok(base + softMin(cols[h]!) + 3 > total, JSON.stringify({ cols, total, f, h }));
    }),
    { numRuns: 2000 },
  );
});
