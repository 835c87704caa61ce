import type { Health } from "../records/health.js";
import type { CountFacet, InventoryDoc } from "../analyses/inventory.js";
import { byCount, otherLabel } from "../records/counts.js";
import { healthTable } from "./health-table.js";
import { col, type Table } from "./model.js";

/** One count table per facet, most frequent first; empty facets left out, except record types and health. */
export function inventoryTables(inv: InventoryDoc, health: Health): Table[] {
  return [
    countTable("recordTypes", "Record types", inv),
    countTable("attachmentKinds", "Attachment kinds", inv),
    countTable("systemSubtypes", "System subtypes", inv),
    countTable("progressTypes", "Progress data types", inv),
    countTable("versions", "Claude Code versions", inv),
    countTable("models", "Models (assistant records)", inv),
    countTable("chains", "Chains (records per chain)", inv),
    healthTable(health),
  ].filter((t) => t.rows.length > 0 || t.id === "health" || t.id === "recordTypes");
}

/** A facet's names, most frequent first; past the cap (`<facet>Other`), one last row counts the names not listed. */
function countTable(id: CountFacet, title: string, inv: InventoryDoc): Table {
  const rows: Array<{ name: string; count: number }> = byCount(inv[id]).map(([name, count]) => ({ name, count }));
  const other = inv[`${id}Other`];
  if (other !== undefined) rows.push({ name: otherLabel(other), count: other.records });
  return { id, title, columns: [col("name", "name", "text", { priority: 1 }), col("count", "count", "int", { priority: 1 })], rows };
}
