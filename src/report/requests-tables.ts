import type { ChainTotals, RequestRow, RequestsResult } from "../analyses/requests.js";
import { COMPACTION_NOTE } from "./compaction-note.js";
import { col, type Row, type Table } from "./model.js";

export const REQUEST_COLUMNS = [
  col("index", "#", "int", {
    priority: 1,
    marks: [
      { key: "duplicateOf", text: " =" },
      { key: "afterCompaction", text: " §" },
    ],
  }),
  col("time", "time", "time", { priority: 2 }),
  col("model", "model", "id", { priority: 3 }),
  col("inputTokens", "input", "int", { priority: 3 }),
  // "?" where the evidence held no count (see health).
  col("cacheCreation", "cache write (5m/1h)", "split", { priority: 2, parts: ["cacheCreation5m", "cacheCreation1h"], empty: "?" }),
  col("cacheReadInputTokens", "cache read", "int", { priority: 2 }),
  col("totalInputTokens", "total input", "int", { priority: 1 }),
  col("deltaTokens", "delta", "delta", { priority: 1, parts: ["compactionTrigger", "compactionPreTokens"] }),
  // Left-aligned since its `*` mark was first printed that way.
  col("output", "output", "int", { priority: 2, align: "left", marks: [{ key: "outputPlaceholder", text: "*" }], empty: "?" }),
  col("fragments", "recs", "int", { priority: 4 }),
  col("addedResults", "+results (chars)", "countOf", { priority: 3, parts: ["addedResultChars"] }),
  col("addedUserText", "+user chars", "int", { priority: 3 }),
  col("addedAttachments", "+attach (chars)", "countOf", { priority: 3, parts: ["addedAttachmentChars", "addedAttachmentCharsExact"] }),
];

/** The per-request table, one per chain, with a totals footer each. */
export function requestTables(r: RequestsResult): Table[] {
  // Grouped in one pass: a filter per chain is quadratic with 100,000 subagents.
  const byChain = new Map<string, RequestRow[]>();
  for (const q of r.requests) {
    const list = byChain.get(q.chain);
    if (list) list.push(q);
    else byChain.set(q.chain, [q]);
  }
  const totals = new Map(r.totals.map((t) => [t.chain, t]));
  return [...byChain].map(([chain, requests]) => {
    const t = totals.get(chain);
    const notes: string[] = [];
    const placeholders = requests.filter((x) => x.outputPlaceholder).length;
    if (placeholders) notes.push(`* output is a streaming placeholder on ${placeholders} request(s): no fragment carried a stop_reason`);
    const confirmed = requests.filter((x) => x.outputSource === "claude-p-result").length;
    if (confirmed)
      notes.push(
        `output on ${confirmed} request(s) has no stop_reason but is final: the counts add up to the claude -p result's usage.output_tokens`,
      );
    const dups = requests.filter((x) => x.duplicateOf).length;
    if (dups) notes.push(`${dups} request(s) repeat a message id seen earlier (fork, resume or progress copy); left out of the totals`);
    if (t && (t.synthetic || t.apiErrors || t.notRequests)) {
      const noUsage = t.notRequests ? `, ${t.notRequests} assistant record(s) without message or usage (see health)` : "";
      notes.push(`not requests: ${t.synthetic} <synthetic> record(s), ${t.apiErrors} API error record(s)${noUsage}`);
    }
    if (requests.some((x) => x.afterCompaction) || (t && t.compactions > 0)) notes.push(COMPACTION_NOTE);
    // One model for the whole chain (the usual case): say it once instead of in every row.
    const models = new Set(requests.map((x) => x.model ?? ""));
    const columns = models.size === 1 ? REQUEST_COLUMNS.filter((c) => c.key !== "model") : REQUEST_COLUMNS;
    if (models.size === 1) notes.unshift(`model: ${[...models][0] || "(none)"}`);
    return {
      id: `requests:${chain}`,
      title: chain === "main" ? "Requests (main chain)" : `Requests (subagent ${chain})`,
      columns,
      rows: requests.map(requestRow),
      footer: t ? [totalsRow(t)] : [],
      notes,
    };
  });
}

function requestRow(q: RequestRow): Row {
  const a = q.added;
  return {
    index: q.index,
    duplicateOf: q.duplicateOf,
    afterCompaction: q.afterCompaction,
    time: q.timestamp,
    model: q.model,
    inputTokens: q.inputTokens,
    cacheCreation: q.cacheCreationInputTokens,
    cacheCreation5m: q.cacheCreation5m,
    cacheCreation1h: q.cacheCreation1h,
    cacheReadInputTokens: q.cacheReadInputTokens,
    totalInputTokens: q.totalInputTokens,
    deltaTokens: q.deltaTokens,
    compactionTrigger: q.compaction ? (q.compaction.trigger ?? "compaction") : null,
    compactionPreTokens: q.compaction?.preTokens ?? null,
    output: q.outputTokens,
    outputPlaceholder: q.outputPlaceholder,
    fragments: q.fragments,
    addedResults: a.toolResults,
    addedResultChars: a.toolResultChars,
    addedUserText: a.userTextChars || null,
    addedAttachments: a.attachments,
    addedAttachmentChars: a.attachmentChars,
    addedAttachmentCharsExact: a.attachmentCharsExact,
  };
}

function totalsRow(t: ChainTotals): Row {
  return {
    index: "total",
    ...(t.compactions > 0 ? { afterCompaction: true } : {}),
    time: { count: t.requests, noun: "requests" },
    inputTokens: t.inputTokens,
    cacheCreation: t.cacheCreationInputTokens,
    cacheReadInputTokens: t.cacheReadInputTokens,
    totalInputTokens: t.totalInputTokens,
    deltaTokens:
      t.firstTotalInputTokens !== null && t.lastTotalInputTokens !== null && t.compactions === 0
        ? t.lastTotalInputTokens - t.firstTotalInputTokens
        : null,
    output: t.outputTokens,
  };
}
