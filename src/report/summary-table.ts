import type { ColumnKind, Table } from "./model.js";
import { col } from "./model.js";
import { formatValue } from "../render/values.js";

/** Key/value lines as a two-column table, for summaries that sit inside a longer document. */
export function summaryTable(id: string, title: string, pairs: Array<[string, unknown, ColumnKind?]>): Table {
  return {
    id,
    title,
    columns: [col("key", "what"), col("value", "value")],
    rows: pairs.map(([key, v, kind]) => ({ key, value: formatValue(v, kind ?? "text", "—") })),
  };
}
