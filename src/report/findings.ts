import { col, type Table } from "./model.js";

/** What an analysis flagged, as a one-column table (JSON carries the same list as `flags`). */
export function findingsTable(findings: string[], id = "findings"): Table {
  return {
    id,
    title: "Findings",
    columns: [col("finding", "finding", "text", { priority: 1 })],
    rows: findings.map((finding) => ({ finding })),
  };
}
