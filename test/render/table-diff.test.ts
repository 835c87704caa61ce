import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import Table3 from "cli-table3";
import fc from "fast-check";
import { COMMANDS } from "../../src/commands/index.js";
import { buildParser } from "../../src/commands/parser.js";
import type { Argv } from "../../src/commands/registry.js";
import { col, type Column, type ColumnKind, type OutputDocument, type Table } from "../../src/report/model.js";
import { plain } from "../../src/render/palette.js";
import { renderTerminal } from "../../src/render/table.js";
import { cellText, formatValue, shownColumns } from "../../src/render/cell.js";
import { alignOf } from "../../src/render/kinds.js";
import { sanitize } from "../../src/render/sanitize.js";
import { ROOT } from "../helpers.js";
import { SAMPLE_COMMANDS } from "./sample-commands.js";

/** The renderer this one replaced (cli-table3, compact style), kept here as the reference the box must equal. */
function reference(report: OutputDocument): string {
  const out = [sanitize(report.title)];
  for (const [k, v, kind] of report.summary ?? []) out.push(`${sanitize(k)}: ${formatValue(v, kind ?? "text", "—")}`);
  let section: string | undefined;
  for (const t of report.tables) {
    if (t.section !== undefined && t.section !== section) out.push("", `━━ ${sanitize(t.section)} ━━`);
    section = t.section;
    out.push("", ...referenceTable(t));
  }
  return `${out.join("\n")}\n`;
}

function referenceTable(whole: Table): string[] {
  // The columns a human format shows (a `hideBlank` column no row fills is left out), as the renderer does.
  const t = shownColumns(whole);
  const lines = [sanitize(t.title)];
  if (t.rows.length === 0 && !t.footer?.length) {
    // An empty table's notes or its sentence say what it means; "(none)" stands only alone.
    if (t.whenEmpty !== undefined) lines.push(sanitize(t.whenEmpty));
    else if (!t.notes?.length) lines.push("(none)");
  } else {
    const table = new Table3({
      head: t.columns.map((c) => sanitize(c.header)),
      style: { head: [], border: [], compact: true },
      colAligns: t.columns.map(alignOf),
    });
    for (const r of [...t.rows, ...(t.footer ?? [])]) table.push(t.columns.map((c) => cellText(r, c)));
    lines.push(table.toString());
  }
  for (const n of t.notes ?? []) lines.push(sanitize(n));
  return lines;
}

/** The reports the commands build on the samples, taken before rendering (the parser with a run callback). */
async function sampleReports(): Promise<Array<[string, OutputDocument]>> {
  const reports: Array<[string, OutputDocument]> = [];
  for (const args of SAMPLE_COMMANDS) {
    const parser = buildParser(
      { columns: undefined },
      async (spec, argv: Argv) => {
        Object.assign(argv, {
          format: "table",
          stdin: Readable.from([]),
          env: { TZ: "UTC", HOME: ROOT },
          cwd: ROOT,
          stdinIsTTY: true,
          stderr: { write: () => true, once: () => undefined },
          stderrIsTTY: false,
        });
        reports.push([args.join(" "), (await spec.run(argv)).document]);
      },
      [],
      COMMANDS,
    );
    await parser.parseAsync(args, {}, () => undefined);
  }
  return reports;
}

/** Times on one day print as time of day in both; this reference does not do that, so the comparison leaves times out. */
const withoutTimes = (r: OutputDocument): OutputDocument => ({
  ...r,
  tables: r.tables.map((t) => ({ ...t, columns: t.columns.filter((c) => c.kind !== "time") })).filter((t) => t.columns.length),
});

test("the box equals cli-table3's on every command's report on the samples (piped: every column, natural widths)", async () => {
  const reports = await sampleReports();
  assert.equal(reports.length, SAMPLE_COMMANDS.length);
  let tables = 0;
  for (const [what, report] of reports) {
    const r = withoutTimes(report);
    tables += r.tables.length;
    assert.equal(renderTerminal(r, plain), reference(r), what);
  }
  assert.ok(tables > 40, `only ${tables} tables compared`);
});

// Characters string-width 4 (cli-table3's) and 8 (ours) measure alike: ASCII, CJK (2), a combining accent (0), box and ellipsis.
const CHARS = ["a", "Z", "7", " ", "-", "|", "漢", "字", "ア", "é", "e\u0301", "│", "…", "\u00a0"];
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 12 }).map((a) => a.join(""));
const KINDS: ColumnKind[] = ["int", "signed", "bytes", "ms", "text", "bool", "ratio", "usd"];
const value = (kind: ColumnKind) =>
  kind === "text"
    ? fc.oneof(text, fc.constant(null))
    : kind === "bool"
      ? fc.boolean()
      : fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constant(null), text);

const tableArb = fc.array(fc.record({ header: text, kind: fc.constantFrom(...KINDS) }), { minLength: 1, maxLength: 7 }).chain((cs) => {
  const columns: Column[] = cs.map((c, i) => col(`c${i}`, c.header, c.kind));
  const row = fc.tuple(...columns.map((c) => value(c.kind))).map((vs) => Object.fromEntries(vs.map((v, i) => [`c${i}`, v])));
  return fc
    .record({ rows: fc.array(row, { maxLength: 8 }), footer: fc.array(row, { maxLength: 1 }) })
    .map(({ rows, footer }) => ({ id: "t", title: "t", columns, rows, footer }) as Table);
});

test("the box equals cli-table3's on random tables (CJK, combining marks, empty cells and headers, footers)", () => {
  fc.assert(
    fc.property(tableArb, (t) => {
      const r: OutputDocument = { title: "r", tables: [t], warnings: [] };
      assert.equal(renderTerminal(r, plain), reference(r));
    }),
    { numRuns: 400 },
  );
});
