/**
 * The neutral document model (OutputDocument) that the table, markdown and CSV renderers see. Rows hold raw values
 * (numbers, null, booleans, ISO times, plain strings); `Column.kind` decides how they print, in
 * src/render/kinds.ts. JSON output does not go through this: it serialises the domain results inside
 * the envelope (report/envelope.ts).
 */
export type ColumnKind =
  /** A count or token number: `12,345`. */
  | "int"
  /** A difference: `+208`, `-3`. */
  | "signed"
  /**
   * A request's growth: `signed`, or where a compaction reset the chain (the value null, `parts` = the
   * boundary's trigger and preTokens) `reset (auto, 167,731 before)`.
   */
  | "delta"
  /** A byte size in Claude Code's own units: `51.7KB`. */
  | "bytes"
  | "ms"
  /** Two decimals: `0.50`. */
  | "ratio"
  /** Tokens per character, 0.003 to 2: two decimals, or two significant digits below 0.1. */
  | "rate"
  /** Money to 4 decimals. */
  | "usd"
  /** Money as Claude Code reports it, 6 decimals (`total_cost_usd`). */
  | "usdExact"
  /** UTC ISO time. */
  | "time"
  | "bool"
  | "text"
  /**
   * A log entry's text, whole in the row: the human formats show its first line, cut at 160 characters,
   * and ` (+N lines)`; CSV, a data format, writes all of it.
   */
  | "entry"
  /** An error message, whole in the row: the human formats join its lines with spaces and cut it at 160 characters; CSV writes all of it. */
  | "message"
  /** Session, message, tool-use ids, labels a reader matches by prefix. */
  | "id"
  | "path"
  /** A number with its split in brackets, from `parts`: `2,194 (0/2,194)`. */
  | "split"
  /** A count with the characters it carries, from `parts` (chars, then optionally an exact flag): `2 (≈307)`. */
  | "countOf"
  /** A value and what it became, from `parts[0]`: `20000 → 2048`. */
  | "change"
  /** A count and the tokens it added, from `parts[0]`: `2 (+1,234)`; blank for none. */
  | "countGrowth"
  /** How many times something was consulted: `no`, `yes (3)`. */
  | "consulted"
  /** Key/value tables: each row's `kind` field names the kind of its value. */
  | "mixed";

/** How a column behaves when space is short: ids and paths shorten in the middle, numbers never. */
export type WidthClass = "id" | "number" | "time" | "flag" | "text" | "path";

/** 1 = always shown; higher numbers are dropped first when space is short. */
export type Priority = 1 | 2 | 3 | 4;

/** A mark printed after a cell's value when the row's `key` is set: `*`, ` §`, ` =` + the value. */
export interface Mark {
  key: string;
  text: string;
}

export interface Column {
  key: string;
  header: string;
  kind: ColumnKind;
  priority: Priority;
  width: WidthClass;
  /** Raw companion fields the kind composes into this cell (a 5m/1h split), or that its `display` label shows; CSV writes each as its own column. */
  parts?: string[];
  /** Marks after the value; the first whose field is set is shown. CSV writes each field as its own column. */
  marks?: Mark[];
  /** Overrides the kind's alignment. */
  align?: "left" | "right";
  /** Printed for a null cell instead of the renderer's blank (e.g. `none` for a request that never came). */
  empty?: string;
  /** A zero reads as nothing added: the human formats leave its cell blank; the row (and CSV) keeps the 0. */
  blankZero?: true;
  /**
   * A row field the human formats show in this cell instead of `key`'s when the row has it: a shortened form
   * of evidence text that `key` holds whole, which CSV writes (a finding quoting a long error, an excerpt); or a
   * totals row's label (`total`, `4 requests`) where `key` is null, so a CSV column never mixes labels with values.
   */
  display?: string;
  /**
   * The human formats show a text value longer than this many characters as its first `cut` and `…` (CSV writes
   * it whole). Cut at render, so after `--redact`: a cut never leaves part of an id the redactor could not see.
   */
  cut?: number;
  /**
   * A row field holding `[before, quote, after]` (a finding that quotes evidence): the human formats show the
   * three with only the quote cut at `cut`, at render (after `--redact`); a row without it shows `key` whole.
   */
  quote?: string;
  /**
   * The human formats leave the column out when no row (footer included) has a value in it (a verbatim check no
   * message log could make); CSV always writes it, so its columns do not change with what the evidence held.
   */
  hideBlank?: true;
}

export type Row = Record<string, unknown>;

/** A count with its noun, for a footer cell where the column's own kind does not apply: `4 requests` (a `display` field; CSV never writes it). */
export interface Count {
  count: number;
  noun: string;
}

export interface Table {
  id: string;
  title: string;
  columns: Column[];
  rows: Row[];
  /** Part of a longer document (report): tables of one section print under one heading. */
  section?: string;
  /** Rows printed after a rule (totals). */
  footer?: Row[];
  notes?: string[];
  /** What it means that the table has no rows, in one sentence: markdown says it instead of an empty table (which it leaves out). */
  whenEmpty?: string;
}

/** What stdout carries for the human formats: a title, summary lines, tables and warnings. "report" is the command; this is the document any command prints. */
export interface OutputDocument {
  title: string;
  /** Key/value lines shown above the tables (summary). */
  summary?: Array<[string, unknown, ColumnKind?]>;
  tables: Table[];
  /** Charts the command can draw from its rows, inline SVG in the HTML page. */
  charts?: Chart[];
  /** Warnings for stderr. */
  warnings: string[];
}

/**
 * `doc` with `tables` built on first read: `--format json` prints the domain results and never reads
 * them, and a session's tables hold a formatted row per request and per tool result.
 */
export function withLazyTables<D extends Omit<OutputDocument, "tables">>(doc: D, build: () => Table[]): D & { tables: Table[] } {
  return lazyProperty(doc, "tables", build);
}

/** `o[key]` built on first read, enumerable and settable like a plain property (added after `o`'s others). */
export function lazyProperty<O extends object, K extends string, V>(o: O, key: K, build: () => V): O & Record<K, V> {
  let v: V | undefined;
  let built = false;
  return Object.defineProperty(o, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      if (!built) ((v = build()), (built = true));
      return v;
    },
    set: (x: V) => void ((v = x), (built = true)),
  }) as O & Record<K, V>;
}

export function isCount(v: unknown): v is Count {
  return typeof v === "object" && v !== null && typeof (v as Count).count === "number" && typeof (v as Count).noun === "string";
}

/** The width class a kind has unless a column says otherwise. */
export function widthOf(kind: ColumnKind): WidthClass {
  switch (kind) {
    case "int":
    case "signed":
    case "delta":
    case "bytes":
    case "ms":
    case "ratio":
    case "rate":
    case "usd":
    case "usdExact":
    case "split":
    case "countOf":
    case "change":
    case "countGrowth":
      return "number";
    case "time":
      return "time";
    case "bool":
    case "consulted":
      return "flag";
    case "id":
      return "id";
    case "path":
      return "path";
    case "text":
    case "entry":
    case "message":
    case "mixed":
      return "text";
    default:
      return kind satisfies never;
  }
}

export type ColumnOptions = Partial<
  Pick<Column, "priority" | "width" | "parts" | "marks" | "align" | "empty" | "blankZero" | "display" | "cut" | "quote" | "hideBlank">
>;

export const col = (key: string, header: string, kind: ColumnKind = "text", o: ColumnOptions = {}): Column => ({
  key,
  header,
  kind,
  priority: o.priority ?? 2,
  width: o.width ?? widthOf(kind),
  ...(o.parts ? { parts: o.parts } : {}),
  ...(o.marks ? { marks: o.marks } : {}),
  ...(o.align ? { align: o.align } : {}),
  ...(o.empty !== undefined ? { empty: o.empty } : {}),
  ...(o.blankZero ? { blankZero: true as const } : {}),
  ...(o.display !== undefined ? { display: o.display } : {}),
  ...(o.cut !== undefined ? { cut: o.cut } : {}),
  ...(o.quote !== undefined ? { quote: o.quote } : {}),
  ...(o.hideBlank ? { hideBlank: true as const } : {}),
});

/** A key/value row of a `mixed` table: the kind travels with the value. */
export const kv = (key: string, value: unknown, kind: ColumnKind = "text"): Row => ({ key, value, kind });

/** A vega-lite chart spec (kept loose: vega-lite validates it); the data it draws is raw, like table rows. */
export type ChartSpec = Record<string, unknown>;

export interface Chart {
  title: string;
  spec: ChartSpec;
  /** Drawn at the head of this section of a longer document; else after the summary. */
  section?: string;
}
