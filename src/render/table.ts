import Table3 from "cli-table3";
import type { Report, Table } from "../report/model.js";
import type { Palette } from "./palette.js";
import { formatValue } from "./values.js";
import { sanitize } from "./sanitize.js";

const NUMERIC = new Set(["int", "signed", "bytes", "ms", "ratio", "usd"]);

/** Terminal rendering with cli-table3: one boxed table per report table, numbers right-aligned. */
export function renderTerminal(report: Report, p: Palette): string {
  const out: string[] = [p.heading(sanitize(report.title))];
  for (const [k, v, kind] of report.summary ?? []) out.push(`${p.dim(`${k}:`)} ${formatValue(v, kind ?? "text", "—")}`);
  for (const t of report.tables) out.push("", renderOne(t, p));
  return `${out.join("\n")}\n`;
}

function renderOne(t: Table, p: Palette): string {
  const lines = [p.heading(sanitize(t.title))];
  if (t.rows.length === 0 && !t.footer?.length) {
    lines.push(p.dim("(none)"));
  } else {
    const table = new Table3({
      head: t.columns.map((c) => c.header),
      style: { head: [], border: [], compact: false },
      colAligns: t.columns.map((c) => (NUMERIC.has(c.kind) ? "right" : "left")),
    });
    for (const r of t.rows) table.push(t.columns.map((c) => paint(formatValue(r[c.key], c.kind), c.kind, r[c.key], p)));
    for (const r of t.footer ?? []) table.push(t.columns.map((c) => p.heading(formatValue(r[c.key], c.kind))));
    lines.push(table.toString());
  }
  for (const n of t.notes ?? []) lines.push(p.dim(sanitize(n)));
  return lines.join("\n");
}

function paint(s: string, kind: string, v: unknown, p: Palette): string {
  if (kind === "signed" && typeof v === "number" && v !== 0) return p.delta(s);
  return s;
}
