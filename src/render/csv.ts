import type { Report } from "../report/model.js";
import { csvKeys, csvRaw } from "./csv-columns.js";
import { rawValue } from "./values.js";

/** RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote or line break. Raw numbers. */
export function renderCsv(report: Report): string {
  const out: string[] = [];
  const many = report.tables.length > 1;
  for (const t of report.tables) {
    if (many && out.length > 0) out.push("");
    const keys = csvKeys(t);
    const head = many ? ["table", ...keys] : keys;
    out.push(head.map(field).join(","));
    for (const r of [...t.rows, ...(t.footer ?? [])]) {
      const cells = keys.map((k) => field(rawValue(csvRaw(r, k))));
      out.push((many ? [field(t.id), ...cells] : cells).join(","));
    }
  }
  return out.length ? `${out.join("\r\n")}\r\n` : "";
}

function field(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
