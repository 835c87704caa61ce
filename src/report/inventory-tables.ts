import type { Health } from "../records/health.js";
import type { Counts, InventoryResult } from "../analyses/inventory.js";
import { healthTable } from "./health-table.js";
import { col, type Table } from "./model.js";

/** One count table per facet, most frequent first; empty facets left out, except record types and health. */
export function inventoryTables(inv: InventoryResult, health: Health): Table[] {
  return [
    countTable("recordTypes", "Record types", inv.recordTypes),
    countTable("attachmentKinds", "Attachment kinds", inv.attachmentKinds),
    countTable("systemSubtypes", "System subtypes", inv.systemSubtypes),
    countTable("progressTypes", "Progress data types", inv.progressTypes),
    countTable("versions", "Claude Code versions", inv.versions),
    countTable("models", "Models (assistant records)", inv.models),
    countTable("chains", "Chains (records per chain)", inv.chains),
    healthTable(health),
  ].filter((t) => t.rows.length > 0 || t.id === "health" || t.id === "recordTypes");
}

function countTable(id: string, title: string, c: Counts): Table {
  const rows = Object.entries(c)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name, count]) => ({ name, count }));
  return { id, title, columns: [col("name", "name", "text", { priority: 1 }), col("count", "count", "int", { priority: 1 })], rows };
}
