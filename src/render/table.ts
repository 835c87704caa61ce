import Table3 from "cli-table3";
import type { OutputDocument, Table } from "../report/model.js";
import type { Palette } from "./palette.js";
import { formatValue } from "./values.js";
import { sanitize } from "./sanitize.js";

const NUMERIC = new Set(["int", "signed", "bytes", "ms", "ratio", "usd"]);
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
        colAligns: t.columns.map((c) => (NUMERIC.has(c.kind) ? "right" : "left")),
      });
      const rows = t.rows.slice(b * BLOCK_ROWS, (b + 1) * BLOCK_ROWS);
      for (const r of rows) table.push(t.columns.map((c) => paint(cell(r[c.key], c.kind, shortTimes), c.kind, r[c.key], p)));
      if (b === blocks - 1) for (const r of t.footer ?? []) table.push(t.columns.map((c) => p.heading(formatValue(r[c.key], c.kind))));
      if (blocks > 1) yield p.dim(`rows ${b * BLOCK_ROWS + 1}–${b * BLOCK_ROWS + rows.length} of ${t.rows.length}`);
      yield table.toString();
    }
    if (shortTimes) yield p.dim(`times are UTC on ${shortTimes}`);
  }
  for (const n of t.notes ?? []) yield p.dim(sanitize(n));
}

const ISO = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)$/;

/** When every time in a table falls on one UTC day, the terminal shows the time of day only (the title or summary has the date). */
function sameDay(t: Table): string | undefined {
  const days = new Set<string>();
  for (const c of t.columns) if (c.kind === "time") for (const r of t.rows) {
    const m = ISO.exec(String(r[c.key] ?? ""));
    if (m) days.add(m[1]!);
    else if (r[c.key]) return undefined;
  }
  return days.size === 1 ? [...days][0] : undefined;
}

function cell(v: unknown, kind: string, shortTimes: string | undefined): string {
  if (kind === "time" && shortTimes && typeof v === "string") {
    const m = ISO.exec(v);
    if (m) return m[2]!;
  }
  return formatValue(v, kind as never);
}

function paint(s: string, kind: string, v: unknown, p: Palette): string {
  if (kind === "signed" && typeof v === "number" && v !== 0) return p.delta(s);
  return s;
}
