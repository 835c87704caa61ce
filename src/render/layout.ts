import { UsageError } from "../errors.js";
import type { Column, OutputDocument } from "../report/model.js";
import type { Align } from "./box.js";
import type { WidthClass } from "./fit.js";
import { alignOf } from "./kinds.js";

/** How terminal tables are laid out: fitted to `width` columns when given; only the `columns` named, when given. */
export interface TerminalLayout {
  width?: number;
  columns?: string[];
}

const NUMERIC = new Set(["int", "signed", "bytes", "ms", "ratio", "usd"]);

// The report model may carry a priority and a width class per column; until every column does, a
// default keeps the first column and the numbers longest and lets text go first.
type Described = Column & { priority?: number; width?: WidthClass; align?: Align };

export function columnClass(c: Column): WidthClass {
  const w = (c as Described).width;
  if (w) return w;
  return NUMERIC.has(c.kind) ? "number" : c.kind === "time" ? "time" : c.kind === "bool" ? "flag" : "text";
}

export function columnPriority(c: Column, index: number): number {
  return (c as Described).priority ?? (index === 0 ? 1 : NUMERIC.has(c.kind) ? 2 : 3);
}

export function columnAlign(c: Column): Align {
  return alignOf(c);
}

const norm = (s: string) => s.trim().toLowerCase();
const names = (c: Column) => [norm(c.key), norm(c.header)];

/** The named columns a table has, in the order named; a table with none of them keeps all of its columns. */
export function pickColumns(cols: Column[], wanted: string[] | undefined): Column[] {
  if (!wanted?.length) return cols;
  const picked: Column[] = [];
  for (const w of wanted.map(norm)) {
    const c = cols.find((x) => names(x).includes(w));
    if (c && !picked.includes(c)) picked.push(c);
  }
  return picked.length ? picked : cols;
}

/** `--columns` names a column key or header of some table in the document; anything else is a usage error that lists the keys. */
export function checkColumns(report: OutputDocument, wanted: string[] | undefined): void {
  if (!wanted?.length) return;
  const known = new Set(report.tables.flatMap((t) => t.columns.flatMap(names)));
  const bad = wanted.filter((w) => !known.has(norm(w)));
  if (!bad.length) return;
  const keys = [...new Set(report.tables.flatMap((t) => t.columns.map((c) => c.key)))];
  throw new UsageError(
    `--columns: no column ${bad.map((b) => JSON.stringify(b)).join(", ")}; choose from ${keys.join(", ") || "(this output has no tables)"}`,
  );
}

/** `--columns a,b` (repeatable) as names; empty names are a usage error. */
export function parseColumns(v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  const list = [v]
    .flat()
    .flatMap((x) => String(x).split(","))
    .map((x) => x.trim());
  if (list.some((x) => x === ""))
    throw new UsageError("--columns needs a comma-separated list of column keys or headers, e.g. --columns index,delta");
  return list;
}

/** Narrower than this, no box fits: a terminal reported as tiny is laid out at this width. */
export const MIN_WIDTH = 20;

/**
 * The width to fit to: `COLUMNS` when set (piped output too: the user asked), else the terminal's when
 * stdout is one; none for piped output, which keeps every column. `--wide` turns fitting off.
 */
export function fitWidth(
  env: NodeJS.ProcessEnv,
  stdoutIsTTY: boolean,
  ttyColumns: number | undefined,
  wide: boolean,
  warn: (s: string) => void,
): number | undefined {
  if (wide) return undefined;
  const raw = env.COLUMNS;
  if (raw !== undefined && raw !== "") {
    if (/^\d+$/.test(raw.trim()) && Number(raw) > 0) return Math.max(MIN_WIDTH, Number(raw));
    warn(`COLUMNS=${JSON.stringify(raw)} is not a width; ignored`);
  }
  return stdoutIsTTY && ttyColumns ? Math.max(MIN_WIDTH, ttyColumns) : undefined;
}
