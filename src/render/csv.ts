import type { Report } from "../report/model.js";
import { rawValue } from "./values.js";

/** RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote or line break. Raw numbers. */
export function renderCsv(report: Report): string {
  const out: string[] = [];
  const many = report.tables.length > 1;
  for (const t of report.tables) {
    if (many && out.length > 0) out.push("");
    const cols = t.columns;
    const head = many ? ["table", ...cols.map((c) => c.key)] : cols.map((c) => c.key);
    out.push(head.map(field).join(","));
    for (const r of [...t.rows, ...(t.footer ?? [])]) {
      const cells = cols.map((c) => field(rawValue(r[c.key])));
      out.push((many ? [field(t.id), ...cells] : cells).join(","));
    }
  }
  return out.length ? `${out.join("\r\n")}\r\n` : "";
}

function field(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
