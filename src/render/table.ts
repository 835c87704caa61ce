import type { Column, OutputDocument, Row, Table } from "../report/model.js";
import type { Palette } from "./palette.js";
import { cellText, formatValue, shownColumns } from "./cell.js";
import { displayZone, isUtcZone, timeInZone } from "./zone.js";
import { sanitize } from "./sanitize.js";
import { Box, type Align, type Cell } from "./box.js";
import { cutOf, fitColumns, type Fit } from "./fit.js";
import { columnAlign, columnClass, columnPriority, pickColumns, type TerminalLayout } from "./layout.js";
import { listLines } from "./list-lines.js";
import { shorten, textWidth, wrap } from "./text-width.js";

export type { TerminalLayout } from "./layout.js";

/** Rows per block: a table of a million rows is measured and drawn 500 rows at a time, so memory holds one block. */
export const BLOCK_ROWS = 500;

/** Terminal rendering: one boxed table per report table, numbers right-aligned. */
export function renderTerminal(report: OutputDocument, p: Palette, layout: TerminalLayout = {}): string {
  return [...terminalChunks(report, p, layout)].join("");
}

/** The terminal document a line at a time; with `layout.width` every line fits that many columns. */
export function* terminalChunks(report: OutputDocument, p: Palette, layout: TerminalLayout = {}): Generator<string> {
  for (const line of terminalLines(report, p, layout)) yield `${line}\n`;
}

function* terminalLines(report: OutputDocument, p: Palette, layout: TerminalLayout): Generator<string> {
  const fitted = (s: string, paint: (x: string) => string, indent = "") => fitLines(s, layout.width, indent).map(paint);
  yield* fitted(sanitize(report.title), p.heading);
  for (const [k, v, kind] of report.summary ?? []) {
    const key = `${sanitize(k)}:`;
    const lines = fitLines(`${key} ${formatValue(v, kind ?? "text", "—")}`, layout.width, "  ");
    // The key is dimmed; it always sits on the first line (a summary key is short).
    yield lines[0]!.startsWith(key) ? `${p.dim(key)}${lines[0]!.slice(key.length)}` : lines[0]!;
    yield* lines.slice(1);
  }
  let section: string | undefined;
  for (const t of report.tables) {
    if (t.section !== undefined && t.section !== section) yield* ["", ...fitted(`━━ ${sanitize(t.section)} ━━`, p.heading)];
    section = t.section;
    yield "";
    yield* tableLines(t, p, layout);
  }
}

/** Without a width, the text as one line (as it always was); with one, wrapped at spaces. */
function fitLines(s: string, width: number | undefined, indent = ""): string[] {
  return width === undefined ? [s] : wrap(s, width, indent);
}

function* tableLines(whole: Table, p: Palette, layout: TerminalLayout): Generator<string> {
  const t = shownColumns(whole);
  yield* fitLines(sanitize(t.title), layout.width).map(p.heading);
  if (t.rows.length === 0 && !t.footer?.length) {
    // Notes (the health table's counts) say what the empty table means; "(none)" only stands alone.
    if (t.whenEmpty !== undefined) yield* fitLines(sanitize(t.whenEmpty), layout.width).map(p.dim);
    else if (!t.notes?.length) yield p.dim("(none)");
  } else {
    const shortTimes = sameDay(t);
    const cols = pickColumns(t.columns, layout.columns);
    const cellsOf = (r: Row) => cols.map((c) => measured(cell(r, c, shortTimes), deltaPaint(c, r[c.key], p)));
    const footerOf = (r: Row) => cols.map((c) => measured(cellText(r, c), p.heading));
    let shown = cols;
    if (layout.width !== undefined && cols.length <= 2) yield* listLines(t, cols, cellsOf, footerOf, layout.width, p);
    else shown = yield* boxed(t, cols, cellsOf, footerOf, layout.width, p);
    // The date goes with the times: no time column left, no note.
    if (shortTimes && shown.some((c) => c.kind === "time"))
      yield* fitLines(`times are ${zoneName()} on ${shortTimes}`, layout.width).map(p.dim);
  }
  for (const n of t.notes ?? []) yield* fitLines(sanitize(n), layout.width, "  ").map(p.dim);
}

type Cells = (r: Row) => Cell[];

/** The table as boxes of up to BLOCK_ROWS rows; returns the columns it showed. */
function* boxed(
  t: Table,
  cols: Column[],
  cellsOf: Cells,
  footerOf: Cells,
  width: number | undefined,
  p: Palette,
): Generator<string, Column[]> {
  const heads = cols.map((c) => measured(sanitize(c.header)));
  const aligns: Align[] = cols.map(columnAlign);
  const footer = (t.footer ?? []).map(footerOf);
  const blocks = Math.max(1, Math.ceil(t.rows.length / BLOCK_ROWS));
  const block = (b: number) => t.rows.slice(b * BLOCK_ROWS, (b + 1) * BLOCK_ROWS).map(cellsOf);
  const only = blocks === 1 ? block(0) : undefined;
  const rowsOf = (b: number) => only ?? block(b);
  let fit: Fit | undefined;
  if (width !== undefined) {
    // One fit for the whole table, so every block shows the same columns at the same widths.
    const natural = naturalWidths(heads, footer);
    for (let b = 0; b < blocks; b++) widen(natural, rowsOf(b));
    fit = fitColumns(
      cols.map((c, i) => ({ priority: columnPriority(c, i), width: columnClass(c), natural: natural[i]! })),
      width,
    );
  }
  for (let b = 0; b < blocks; b++) {
    const rows = rowsOf(b);
    const all = b === blocks - 1 ? [...rows, ...footer] : rows;
    let shown = heads;
    let shownRows = all;
    let widths: number[];
    let shownAligns = aligns;
    if (fit) {
      const f = fit;
      const cut = (cs: Cell[]) => f.shown.map((i, j) => clip(cs[i]!, f.widths[j]!, cutOf(columnClass(cols[i]!))));
      shown = f.shown.map((i, j) => clip(heads[i]!, f.widths[j]!, "end"));
      shownRows = all.map(cut);
      widths = f.widths;
      shownAligns = f.shown.map((i) => aligns[i]!);
    } else {
      widths = naturalWidths(heads, all);
    }
    const box = new Box(widths, shownAligns);
    if (blocks > 1) yield p.dim(`rows ${b * BLOCK_ROWS + 1}–${b * BLOCK_ROWS + rows.length} of ${t.rows.length}`);
    yield box.top;
    yield box.line(shown);
    yield box.mid;
    for (const r of shownRows) yield box.line(r);
    yield box.bottom;
  }
  if (fit && (fit.hidden.length || fit.shortened.length)) yield* fitLines(hiddenNote(cols, fit, width!), width, "  ").map(p.dim);
  return fit ? fit.shown.map((i) => cols[i]!) : cols;
}

/** What was hidden or cut to fit, and how to see it: one note under the table. */
function hiddenNote(cols: Column[], fit: Fit, width: number): string {
  const names = (ix: number[]) => ix.map((i) => sanitize(cols[i]!.header)).join(", ");
  if (!fit.hidden.length) return `… marks cells shortened to fit ${width} columns (${names(fit.shortened)}); --wide shows them whole`;
  const example = [cols[fit.shown[0]!]!, ...fit.hidden.slice(0, 2).map((i) => cols[i]!)].map((c) => c.key).join(",");
  const n = fit.hidden.length;
  return `${n} column${n === 1 ? "" : "s"} hidden to fit ${width} columns: ${names(fit.hidden)}; --wide shows every column, --columns picks (e.g. --columns ${example})`;
}

function measured(text: string, paint?: (s: string) => string): Cell {
  return { text, width: textWidth(text), paint };
}

function clip(c: Cell, width: number, how: Parameters<typeof shorten>[2]): Cell {
  if (c.width <= width) return c;
  const text = shorten(c.text, width, how);
  return { text, width: textWidth(text), paint: c.paint };
}

function naturalWidths(heads: Cell[], rows: Cell[][]): number[] {
  const w = heads.map((h) => h.width);
  widen(w, rows);
  return w;
}

function widen(w: number[], rows: Cell[][]): void {
  for (const r of rows) for (let i = 0; i < w.length; i++) if (r[i]!.width > w[i]!) w[i] = r[i]!.width;
}

// Group 2 keeps the Z in UTC so UTC tables read as before; a zone's offset goes to the note instead.
const ISO = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|(?=[+-])))([+-]\d{2}:\d{2})?$/;
const local = (v: string) => timeInZone(v, displayZone());
const zoneName = () => (isUtcZone(displayZone()) ? "UTC" : displayZone());

/** When every time in a table falls on one day (in the --tz zone), the terminal shows the time of day only (the title or summary has the date). */
function sameDay(t: Table): string | undefined {
  const days = new Set<string>();
  for (const c of t.columns)
    if (c.kind === "time")
      for (const r of t.rows) {
        const m = ISO.exec(local(String(r[c.key] ?? "")));
        if (m) days.add(m[1]!);
        else if (r[c.key]) return undefined;
      }
  return days.size === 1 ? [...days][0] : undefined;
}

function cell(r: Row, c: Column, shortTimes: string | undefined): string {
  const v = r[c.key];
  if (c.kind === "time" && shortTimes && typeof v === "string") {
    const m = ISO.exec(local(v));
    if (m) return m[2]!;
  }
  return cellText(r, c);
}

function deltaPaint(c: Column, v: unknown, p: Palette): ((s: string) => string) | undefined {
  return c.kind === "signed" && typeof v === "number" && v !== 0 ? p.delta : undefined;
}
