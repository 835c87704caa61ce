import type { Column, Table } from "../report/model.js";
import type { Cell } from "./box.js";
import { cutOf } from "./fit.js";
import { columnClass } from "./layout.js";
import type { Palette } from "./palette.js";
import { sanitize } from "./sanitize.js";
import { shorten, textWidth, wrap } from "./text-width.js";

type Cells = (r: Record<string, unknown>) => Cell[];

/** Keys take at most this share of the line; the value gets the rest. */
const KEY_SHARE = 0.45;

/**
 * Two-column tables (key/value summaries) as aligned `key  value` lines, one-column tables as a list:
 * on a terminal a box around them only costs width. Values wrap inside the width, under themselves.
 */
export function* listLines(t: Table, cols: Column[], cellsOf: Cells, footerOf: Cells, width: number, p: Palette): Generator<string> {
  const rows = [...t.rows.map(cellsOf), ...(t.footer ?? []).map(footerOf)];
  const paint = (c: Cell, s: string) => (c.paint ? c.paint(s) : s);
  if (cols.length === 1) {
    for (const [c] of rows) {
      const lines = wrap(c!.text, width - 2);
      for (let i = 0; i < lines.length; i++) yield `${i === 0 ? "- " : "  "}${paint(c!, lines[i]!)}`;
    }
    return;
  }
  // A summary's header ("what" or "field", then "value") says nothing; any other pair of columns keeps its header line.
  const withHeader = cols[0]!.key !== "key" && cols[1]!.key !== "value";
  const heads = cols.map((c) => sanitize(c.header));
  const keyWidth = Math.min(
    Math.max(...rows.map((r) => r[0]!.width), withHeader ? textWidth(heads[0]!) : 0),
    Math.floor(width * KEY_SHARE),
  );
  const valueWidth = width - keyWidth - 2;
  const cut = cutOf(columnClass(cols[0]!));
  const gap = (key: string) => " ".repeat(Math.max(0, keyWidth - textWidth(key)) + 2);
  if (withHeader) yield p.dim(`${shorten(heads[0]!, keyWidth)}${gap(shorten(heads[0]!, keyWidth))}${shorten(heads[1]!, valueWidth)}`);
  for (const [k, v] of rows) {
    const key = shorten(k!.text, keyWidth, cut);
    const values = wrap(v!.text, valueWidth);
    yield values[0] ? `${paint(k!, key)}${gap(key)}${paint(v!, values[0])}` : paint(k!, key);
    for (const more of values.slice(1)) yield `${" ".repeat(keyWidth + 2)}${paint(v!, more)}`;
  }
}
