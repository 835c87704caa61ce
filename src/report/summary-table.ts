import { col, kv, type ColumnKind, type Table } from "./model.js";

/** Key/value lines as a two-column table, for summaries that sit inside a longer document; each value keeps its kind. */
export function summaryTable(id: string, title: string, pairs: Array<[string, unknown, ColumnKind?]>): Table {
  return {
    id,
    title,
    columns: [col("key", "what", "text", { priority: 1 }), col("value", "value", "mixed", { priority: 1, empty: "—" })],
    rows: pairs.map(([key, v, kind]) => kv(key, v, kind)),
  };
}
