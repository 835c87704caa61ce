import { col, isCount, type Column, type ColumnKind, type Row, type Table } from "../report/model.js";
import { formatterFor, type Formatter } from "./kinds.js";
import { sanitize } from "./sanitize.js";
import { formatInt } from "../report/int-format.js";

const blank = (v: unknown) => v === null || v === undefined || v === "";

/**
 * A cell's text: its kind's formatter (or the column's placeholder), then the first mark whose field is set; `empty` for nothing.
 * `format` picks the formatter per kind: markdown has a number style of its own.
 */
export function cellText(row: Row, c: Column, empty = "", format: (kind: ColumnKind) => Formatter = formatterFor): string {
  let v = c.display !== undefined && row[c.display] !== undefined ? row[c.display] : row[c.key];
  if (c.quote !== undefined) {
    // Only the quote is cut, here, after --redact saw it whole.
    const q = row[c.quote];
    if (Array.isArray(q) && q.length === 3 && q.every((x) => typeof x === "string")) {
      const [before, quote, after] = q as [string, string, string];
      v = `${before}${c.cut !== undefined && quote.length > c.cut ? cutText(quote, c.cut) : quote}${after}`;
    }
  } else if (c.cut !== undefined && typeof v === "string" && v.length > c.cut) v = cutText(v, c.cut);
  let s: string;
  // A null growth can still say something (a compaction's reset): its kind decides.
  if (blank(v) || (v === 0 && c.blankZero)) s = (c.kind === "delta" ? format(c.kind)(null, row, c) : "") || (c.empty ?? "");
  else s = isCount(v) ? `${countText(v.count)} ${sanitize(v.noun)}` : format(c.kind)(v, row, c);
  // A column's own placeholder is a value (`?` for a count the evidence lacks): it keeps its marks.
  if (s !== "") s += markOf(row, c);
  return s === "" ? empty : s;
}

/** The table as the human formats show it: without its `hideBlank` columns that no row or footer row fills (CSV keeps every column). */
export function shownColumns(t: Table): Table {
  const rows = [...t.rows, ...(t.footer ?? [])];
  const hidden = t.columns.filter(
    (c) => c.hideBlank && rows.every((r) => blank(r[c.key]) && (c.display === undefined || blank(r[c.display]))),
  );
  return hidden.length === 0 ? t : { ...t, columns: t.columns.filter((c) => !hidden.includes(c)) };
}

/** The first `n` characters and `…`, without a high surrogate the cut would leave alone. */
function cutText(s: string, n: number): string {
  const c = s.charCodeAt(n - 1);
  return `${s.slice(0, c >= 0xd800 && c <= 0xdbff ? n - 1 : n)}…`;
}

/** toLocaleString keeps up to three decimals; an integer count (every one) writes the same either way. */
const countText = (n: number) => (Number.isInteger(n) ? formatInt(n) : n.toLocaleString("en-US"));

function markOf(row: Row, c: Column): string {
  for (const m of c.marks ?? []) {
    const v = row[m.key];
    if (blank(v) || v === false) continue;
    return v === true ? m.text : `${m.text}${sanitize(String(v))}`;
  }
  return "";
}

/** One value outside a table (summary lines). */
export function formatValue(v: unknown, kind: ColumnKind, empty = "", format?: (kind: ColumnKind) => Formatter): string {
  return cellText({ v }, col("v", "", kind), empty, format);
}
