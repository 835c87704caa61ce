import { col, type Table } from "./model.js";

/**
 * What an analysis flagged, as a one-column table (JSON carries the same list as `flags`). `shown`, one per
 * finding, is what the human formats print (the quoted evidence cut); CSV writes each finding whole.
 */
export function findingsTable(findings: string[], id = "findings", shown?: string[]): Table {
  const short = shown?.length === findings.length ? shown : null;
  return {
    id,
    title: "Findings",
    columns: [col("finding", "finding", "text", { priority: 1, ...(short ? { display: "shown" } : {}) })],
    rows: findings.map((finding, i) => (short && short[i] !== finding ? { finding, shown: short[i] } : { finding })),
  };
}
