import { stringify } from "csv-stringify/sync";
import type { OutputDocument } from "../report/model.js";
import { csvKeys, csvRaw } from "./csv-columns.js";
import { sanitize } from "./sanitize.js";
import { csvValue } from "./values.js";

/**
 * RFC 4180 through csv-stringify: CRLF line ends, fields quoted when they hold a comma, quote or line
 * break; several tables one after the other with a `table` column, a blank line between (the column is
 * there for every document of several tables, see csvLines). Numbers stay
 * typed, so a negative number is a number; a text cell that a spreadsheet would run as a formula
 * (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'` (OWASP CSV injection rule). The `table` column
 * and the header are escaped as cells are: a table id can hold a name from evidence (`requests:<agent id>`,
 * `outputs:<run>`), and csv-stringify's formula guard covers every field of a record.
 */
export function renderCsv(report: OutputDocument): string {
  return [...csvLines(report)].join("");
}

/**
 * The CSV document a record at a time (each with its CRLF), so long tables are written as they are formatted.
 * A table with no rows is left out, as markdown and HTML leave it out: a header-only block is a junk row to
 * a spreadsheet or `read_csv`. When every table is empty, the first with columns (the command's main table)
 * is written as its header alone, so the document still says which columns it would have.
 *
 * Whether records begin with the `table` column depends on the command, never on which tables have rows: a
 * document of several tables (every command that reads evidence ends with parse health) always has it,
 * even when only one table is written; a one-table document (`sessions`, `run`) never has it.
 */
export function* csvLines(report: OutputDocument): Generator<string> {
  const filled = report.tables.filter((t) => t.rows.length > 0 || (t.footer?.length ?? 0) > 0);
  const main = report.tables.find((t) => t.columns.length > 0);
  const tables = filled.length > 0 ? filled : main ? [main] : [];
  const many = multiTable(report);
  let first = true;
  for (const t of tables) {
    if (many && !first) yield "\r\n";
    first = false;
    const keys = csvKeys(t);
    const id = sanitize(t.id);
    const head = (many ? ["table", ...keys] : keys).map(sanitize);
    yield stringify([head], OPTIONS);
    for (const rows of [t.rows, t.footer ?? []]) {
      for (const r of rows) {
        const cells = keys.map((k) => csvValue(csvRaw(r, k)));
        yield stringify([many ? [id, ...cells] : cells], OPTIONS);
      }
    }
  }
}

/** Several tables with columns, or the parse-health table that goes with a command's own (requests on an empty input has no other). */
function multiTable(report: OutputDocument): boolean {
  const withColumns = report.tables.filter((t) => t.columns.length > 0);
  return withColumns.length > 1 || withColumns.some((t) => t.id === "health");
}

const OPTIONS = {
  record_delimiter: "\r\n",
  escape_formulas: true,
  // csv-stringify's default writes booleans as 1 and "".
  cast: { boolean: (v: boolean) => String(v) },
} as const;
