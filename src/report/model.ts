/**
 * The neutral document model (OutputDocument) that the table, markdown and CSV renderers see. Rows hold raw values;
 * `Column.kind` decides how they print. JSON output does not go through this: it serialises the
 * domain results inside the envelope (report/envelope.ts).
 */
export type ColumnKind = "int" | "signed" | "bytes" | "ms" | "text" | "time" | "bool" | "ratio" | "usd";

export interface Column {
  key: string;
  header: string;
  kind: ColumnKind;
}

export interface Table {
  id: string;
  title: string;
  columns: Column[];
  rows: Array<Record<string, unknown>>;
  /** Part of a longer document (report): tables of one section print under one heading. */
  section?: string;
  /** Rows printed after a rule (totals). */
  footer?: Array<Record<string, unknown>>;
  notes?: string[];
}

/** What stdout carries for the human formats: a title, summary lines, tables and warnings. "report" is the command; this is the document any command prints. */
export interface OutputDocument {
  title: string;
  /** Key/value lines shown above the tables (summary). */
  summary?: Array<[string, unknown, ColumnKind?]>;
  tables: Table[];
  /** Warnings for stderr. */
  warnings: string[];
}

export const col = (key: string, header: string, kind: ColumnKind = "text"): Column => ({ key, header, kind });

/** A vega-lite chart spec (kept loose: vega-lite validates it); the data it draws is raw, like table rows. */
export type ChartSpec = Record<string, unknown>;
