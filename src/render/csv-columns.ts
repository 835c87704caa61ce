import { isCount, type Row, type Table } from "../report/model.js";

/** CSV's fields for a table: each column's key, then its parts and mark fields, each once. */
export function csvKeys(t: Table): string[] {
  const keys = t.columns.flatMap((c) => [c.key, ...(c.parts ?? []), ...(c.marks ?? []).map((m) => m.key)]);
  return [...new Set(keys)];
}

/** The raw value of one field; a footer's `4 requests` is its count. */
export function csvRaw(row: Row, key: string): unknown {
  const v = row[key];
  return isCount(v) ? v.count : v;
}
