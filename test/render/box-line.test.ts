import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Box, type Align, type Cell } from "../../src/render/box.js";

// Box.line as it was: one template per cell, padding built with repeat.
function slowLine(widths: number[], aligns: Align[], cells: Cell[]): string {
  let s = "│";
  for (let i = 0; i < widths.length; i++) {
    const c = cells[i]!;
    const pad = Math.max(0, widths[i]! - c.width);
    const text = c.paint ? c.paint(c.text) : c.text;
    s += aligns[i] === "right" ? ` ${" ".repeat(pad)}${text} │` : ` ${text}${" ".repeat(pad)} │`;
  }
  return s;
}

test("Box.line draws every row as the per-cell template did: any widths (past the 256-space run too), alignments, paints, overflowing cells", () => {
  const cell = fc.record({
    text: fc.string({ maxLength: 12 }),
    paint: fc.option(
      fc.constant((s: string) => `<${s}>`),
      { nil: undefined },
    ),
  });
  const column = fc.record({
    width: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 250, max: 300 })),
    align: fc.constantFrom<Align>("left", "right"),
    cell,
  });
  fc.assert(
    fc.property(fc.array(column, { maxLength: 8 }), (cols) => {
      const widths = cols.map((c) => c.width);
      const aligns = cols.map((c) => c.align);
      const cells: Cell[] = cols.map((c) => ({ text: c.cell.text, width: c.cell.text.length, paint: c.cell.paint }));
      assert.equal(new Box(widths, aligns).line(cells), slowLine(widths, aligns, cells));
    }),
    { numRuns: 5_000, seed: 14 },
  );
  assert.equal(new Box([], []).line([]), "│");
  assert.equal(
    new Box([3, 2], ["right", "left"]).line([
      { text: "1", width: 1 },
      { text: "ab", width: 2 },
    ]),
    "│   1 │ ab │",
  );
});
