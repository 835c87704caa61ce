import type { ChainTotals, RequestRow, RequestsResult } from "../analyses/requests.js";
import { envelopeInputs } from "../assemble/inputs.js";
import type { CommandOutput } from "../report/envelope.js";
import { healthTable, healthWarnings } from "../report/health-table.js";
import { col, type Table } from "../report/model.js";
import { loadTranscripts, type CommonOptions } from "./common.js";

/** `requests [target]`: one row per API request with tokens, delta and what was added in between. */
export async function runRequests(target: string | undefined, opts: CommonOptions): Promise<CommandOutput> {
  const { resolved, health, results } = await loadTranscripts(target, opts, ["requests"]);
  const r = results.requests;
  return {
    command: "requests",
    inputs: envelopeInputs(resolved.inputs),
    health,
    data: { requests: r.requests, totals: r.totals },
    document: {
      title: `Requests — ${resolved.sessionId ?? resolved.target}`,
      // JSON prints the domain rows, not the tables: a second copy of a million rows is memory for nothing.
      tables: opts.format === "json" ? [] : [...requestTables(r), healthTable(health)],
      warnings: healthWarnings(health),
    },
  };
}

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
    const rows = requests.map(requestRow);
    const t = totals.get(chain);
    const notes: string[] = [];
    const placeholders = rows.filter((x) => x.outputPlaceholder).length;
    if (placeholders) notes.push(`* output is a streaming placeholder on ${placeholders} request(s): no fragment carried a stop_reason`);
    const dups = rows.filter((x) => x.duplicateOf).length;
    if (dups) notes.push(`${dups} request(s) repeat a message id seen earlier (fork, resume or progress copy); left out of the totals`);
    if (t && (t.synthetic || t.apiErrors || t.notRequests)) {
      const noUsage = t.notRequests ? `, ${t.notRequests} assistant record(s) without message or usage (see health)` : "";
      notes.push(`not requests: ${t.synthetic} <synthetic> record(s), ${t.apiErrors} API error record(s)${noUsage}`);
    }
    if (rows.some((x) => x.afterCompaction)) notes.push("§ a compaction boundary precedes this request: its delta spans the compaction");
    // One model for the whole chain (the usual case): say it once instead of in every row.
    const models = new Set(rows.map((x) => x.model));
    const columns = models.size === 1 ? REQUEST_COLUMNS.filter((c) => c.key !== "model") : REQUEST_COLUMNS;
    if (models.size === 1) notes.unshift(`model: ${[...models][0] || "(none)"}`);
    return {
      id: `requests:${chain}`,
      title: chain === "main" ? "Requests (main chain)" : `Requests (subagent ${chain})`,
      columns,
      rows,
      footer: t ? [totalsRow(t)] : [],
      notes,
    };
  });
}

export const REQUEST_COLUMNS = [
  col("index", "#", "int"),
  col("time", "time", "time"),
  col("model", "model"),
  col("inputTokens", "input", "int"),
  col("cacheCreation", "cache write (5m/1h)"),
  col("cacheReadInputTokens", "cache read", "int"),
  col("totalInputTokens", "total input", "int"),
  col("deltaTokens", "delta", "signed"),
  col("output", "output"),
  col("fragments", "recs", "int"),
  col("addedResults", "+results (chars)"),
  col("addedUserText", "+user chars", "int"),
  col("addedAttachments", "+attach (chars)"),
];

const INT = new Intl.NumberFormat("en-US");
/** A token count for a composite cell; "?" where the evidence held no count (see health). */
const count = (n: number | null) => (n === null ? "?" : INT.format(n));

function requestRow(q: RequestRow): Record<string, unknown> & { outputPlaceholder: boolean; duplicateOf: string | null; afterCompaction: boolean } {
  const split = q.cacheCreation5m !== null || q.cacheCreation1h !== null ? ` (${INT.format(q.cacheCreation5m ?? 0)}/${INT.format(q.cacheCreation1h ?? 0)})` : "";
  const a = q.added;
  return {
    index: q.duplicateOf ? `${q.index} =${q.duplicateOf}` : q.afterCompaction ? `${q.index} §` : q.index,
    time: q.timestamp ?? "",
    model: q.model ?? "",
    inputTokens: q.inputTokens,
    cacheCreation: `${count(q.cacheCreationInputTokens)}${split}`,
    cacheReadInputTokens: q.cacheReadInputTokens,
    totalInputTokens: q.totalInputTokens,
    deltaTokens: q.deltaTokens,
    output: `${count(q.outputTokens)}${q.outputPlaceholder ? "*" : ""}`,
    fragments: q.fragments,
    addedResults: a.toolResults ? `${a.toolResults} (${INT.format(a.toolResultChars)})` : "",
    addedUserText: a.userTextChars || null,
    addedAttachments: a.attachments ? `${a.attachments} (${a.attachmentCharsExact ? "" : "≈"}${INT.format(a.attachmentChars)})` : "",
    outputPlaceholder: q.outputPlaceholder,
    duplicateOf: q.duplicateOf,
    afterCompaction: q.afterCompaction,
  };
}

function totalsRow(t: ChainTotals): Record<string, unknown> {
  return {
    index: "total",
    time: `${t.requests} requests`,
    inputTokens: t.inputTokens,
    cacheCreation: count(t.cacheCreationInputTokens),
    cacheReadInputTokens: t.cacheReadInputTokens,
    totalInputTokens: t.totalInputTokens,
    deltaTokens: t.firstTotalInputTokens !== null && t.lastTotalInputTokens !== null ? t.lastTotalInputTokens - t.firstTotalInputTokens : null,
    output: count(t.outputTokens),
  };
}
