import { isCount, type Row, type Table } from "../report/model.js";

/** CSV's fields for a table: each column's key, then its parts and mark fields, each once. */
export function csvKeys(t: Table): string[] {
  const keys = t.columns.flatMap((c) => [c.key, ...(c.parts ?? []), ...(c.marks ?? []).map((m) => m.key)]);
  return [...new Set(keys)];
}

/**
 * The raw value of one field. A Count (`4 requests`) is a label for the human formats: CSV leaves it out
 * rather than put a count in a column of another kind (the count has a column of its own, see REQUEST_COLUMNS).
 */
export function csvRaw(row: Row, key: string): unknown {
  const v = row[key];
  return isCount(v) ? null : v;
}
