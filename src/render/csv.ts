import { stringify } from "csv-stringify/sync";
import type { Report } from "../report/model.js";
import { csvValue } from "./values.js";

/**
 * RFC 4180 through csv-stringify: CRLF line ends, fields quoted when they hold a comma, quote or line
 * break; several tables one after the other with a `table` column, a blank line between. Numbers stay
 * typed, so a negative number is a number; a text cell that a spreadsheet would run as a formula
 * (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'` (OWASP CSV injection rule).
 */
export function renderCsv(report: Report): string {
  const many = report.tables.length > 1;
  return report.tables
    .map((t) => {
      const head = many ? ["table", ...t.columns.map((c) => c.key)] : t.columns.map((c) => c.key);
      const rows = [...t.rows, ...(t.footer ?? [])].map((r) => {
        const cells = t.columns.map((c) => csvValue(r[c.key]));
        return many ? [t.id, ...cells] : cells;
      });
      return stringify([head, ...rows], OPTIONS);
    })
    .join("\r\n");
}

const OPTIONS = {
  record_delimiter: "\r\n",
  escape_formulas: true,
  // csv-stringify's default writes booleans as 1 and "".
  cast: { boolean: (v: boolean) => String(v) },
} as const;
