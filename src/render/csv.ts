import type { Report } from "../report/model.js";
import { rawValue } from "./values.js";

/** RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote or line break. Raw numbers. */
export function renderCsv(report: Report): string {
  return [...csvLines(report)].join("");
}

/** The CSV document a line at a time (each with its CRLF), so long tables are written as they are formatted. */
export function* csvLines(report: Report): Generator<string> {
  const many = report.tables.length > 1;
  let first = true;
  for (const t of report.tables) {
    if (many && !first) yield "\r\n";
    first = false;
    const cols = t.columns;
    const head = many ? ["table", ...cols.map((c) => c.key)] : cols.map((c) => c.key);
    yield `${head.map(field).join(",")}\r\n`;
    for (const rows of [t.rows, t.footer ?? []]) for (const r of rows) {
      const cells = cols.map((c) => field(rawValue(r[c.key])));
      yield `${(many ? [field(t.id), ...cells] : cells).join(",")}\r\n`;
    }
  }
}

function field(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
