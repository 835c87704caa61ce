import { stringify } from "csv-stringify/sync";
import type { OutputDocument } from "../report/model.js";
import { csvKeys, csvRaw } from "./csv-columns.js";
import { csvValue } from "./values.js";

/**
 * RFC 4180 through csv-stringify: CRLF line ends, fields quoted when they hold a comma, quote or line
 * break; several tables one after the other with a `table` column, a blank line between. Numbers stay
 * typed, so a negative number is a number; a text cell that a spreadsheet would run as a formula
 * (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'` (OWASP CSV injection rule).
 */
export function renderCsv(report: OutputDocument): string {
  return [...csvLines(report)].join("");
}

/** The CSV document a record at a time (each with its CRLF), so long tables are written as they are formatted. */
export function* csvLines(report: OutputDocument): Generator<string> {
  const many = report.tables.length > 1;
  let first = true;
  for (const t of report.tables) {
    if (many && !first) yield "\r\n";
    first = false;
    const keys = csvKeys(t);
    const head = many ? ["table", ...keys] : keys;
    yield stringify([head], OPTIONS);
    for (const rows of [t.rows, t.footer ?? []]) {
      for (const r of rows) {
        const cells = keys.map((k) => csvValue(csvRaw(r, k)));
        yield stringify([many ? [t.id, ...cells] : cells], OPTIONS);
      }
    }
  }
}

const OPTIONS = {
  record_delimiter: "\r\n",
  escape_formulas: true,
  // csv-stringify's default writes booleans as 1 and "".
  cast: { boolean: (v: boolean) => String(v) },
} as const;
