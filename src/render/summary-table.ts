import type { ColumnKind, Table } from "../report/model.js";
import { col } from "../report/model.js";
import { formatValue } from "./values.js";

/**
 * Key/value lines as a two-column table, for summaries that sit inside a longer document. Values are
 * formatted here, per line, because a summary column mixes kinds; it lives with the renderers for that.
 */
export function summaryTable(id: string, title: string, pairs: Array<[string, unknown, ColumnKind?]>): Table {
  return {
    id,
    title,
    columns: [col("key", "what"), col("value", "value")],
    rows: pairs.map(([key, v, kind]) => ({ key, value: formatValue(v, kind ?? "text", "—") })),
  };
}
