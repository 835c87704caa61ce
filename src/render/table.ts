import Table3 from "cli-table3";
import type { Column, OutputDocument, Row, Table } from "../report/model.js";
import type { Palette } from "./palette.js";
import { cellText, formatValue } from "./cell.js";
import { alignOf } from "./kinds.js";
import { displayZone, isUtcZone, timeInZone } from "./zone.js";
import { sanitize } from "./sanitize.js";

/** Rows per cli-table3 block. */
export const BLOCK_ROWS = 500;

/** Terminal rendering with cli-table3: one boxed table per report table, numbers right-aligned. */
export function renderTerminal(report: OutputDocument, p: Palette): string {
  return [...terminalChunks(report, p)].join("");
}

/** The terminal document a block at a time (a heading, a note, up to BLOCK_ROWS rows of a table). */
export function* terminalChunks(report: OutputDocument, p: Palette): Generator<string> {
  for (const line of terminalLines(report, p)) yield `${line}\n`;
}

function* terminalLines(report: OutputDocument, p: Palette): Generator<string> {
  yield p.heading(sanitize(report.title));
  for (const [k, v, kind] of report.summary ?? []) yield `${p.dim(`${sanitize(k)}:`)} ${formatValue(v, kind ?? "text", "—")}`;
  let section: string | undefined;
  for (const t of report.tables) {
    if (t.section !== undefined && t.section !== section) yield* ["", p.heading(`━━ ${sanitize(t.section)} ━━`)];
    section = t.section;
    yield "";
    yield* tableLines(t, p);
  }
}

function* tableLines(t: Table, p: Palette): Generator<string> {
  yield p.heading(sanitize(t.title));
  if (t.rows.length === 0 && !t.footer?.length) {
    yield p.dim("(none)");
  } else {
    const shortTimes = sameDay(t);
    // cli-table3's layout time grows with the square of the rows: lay long tables out in blocks.
    const blocks = Math.max(1, Math.ceil(t.rows.length / BLOCK_ROWS));
    for (let b = 0; b < blocks; b++) {
      const table = new Table3({
        head: t.columns.map((c) => sanitize(c.header)),
        style: { head: [], border: [], compact: true },
        colAligns: t.columns.map(alignOf),
      });
      const rows = t.rows.slice(b * BLOCK_ROWS, (b + 1) * BLOCK_ROWS);
      for (const r of rows) table.push(t.columns.map((c) => paint(cell(r, c, shortTimes), c.kind, r[c.key], p)));
      if (b === blocks - 1) for (const r of t.footer ?? []) table.push(t.columns.map((c) => p.heading(cellText(r, c))));
      if (blocks > 1) yield p.dim(`rows ${b * BLOCK_ROWS + 1}–${b * BLOCK_ROWS + rows.length} of ${t.rows.length}`);
      yield table.toString();
    }
    if (shortTimes) yield p.dim(`times are ${zoneName()} on ${shortTimes}`);
  }
  for (const n of t.notes ?? []) yield p.dim(sanitize(n));
}

// Group 2 keeps the Z in UTC so UTC tables read as before; a zone's offset goes to the note instead.
const ISO = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|(?=[+-])))([+-]\d{2}:\d{2})?$/;
const local = (v: string) => timeInZone(v, displayZone());
const zoneName = () => (isUtcZone(displayZone()) ? "UTC" : displayZone());

/** When every time in a table falls on one day (in the --tz zone), the terminal shows the time of day only (the title or summary has the date). */
function sameDay(t: Table): string | undefined {
  const days = new Set<string>();
  for (const c of t.columns) if (c.kind === "time") for (const r of t.rows) {
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

function paint(s: string, kind: string, v: unknown, p: Palette): string {
  if (kind === "signed" && typeof v === "number" && v !== 0) return p.delta(s);
  return s;
}
