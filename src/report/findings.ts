import { col, type Table } from "./model.js";

/** The longest quote of a finding the human formats show, `…` included (JSON and CSV carry it whole). */
export const FINDING_QUOTE_MAX = 160;

/**
 * What an analysis flagged, as a one-column table (JSON carries the same list as `flags`). Each finding is
 * whole in its row (CSV writes it so); one that quotes evidence has `quoted`, `[before, quote, after]`, and the
 * human formats cut its quote at render, after `--redact`, so a cut never splits an id the redactor must see whole.
 */
export function findingsTable(
  findings: string[],
  id = "findings",
  quotes?: ReadonlyArray<readonly [string, string, string] | undefined>,
): Table {
  const q = quotes?.length === findings.length ? quotes : undefined;
  return {
    id,
    title: "Findings",
    columns: [col("finding", "finding", "text", { priority: 1, quote: "quoted", cut: FINDING_QUOTE_MAX - 1 })],
    rows: findings.map((finding, i) => (q?.[i] ? { finding, quoted: [...q[i]!] } : { finding })),
  };
}
