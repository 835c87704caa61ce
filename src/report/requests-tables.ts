import { basename } from "node:path";
import type { ChainTotals, RequestRow, RequestsResult, SubagentTask } from "../analyses/requests.js";
import { chainKind } from "../records/chains.js";
import { COMPACTION_NOTE, REWIND_NOTE, compactionNotes, compactionTrigger } from "./compaction-note.js";
import { col, type Row, type Table } from "./model.js";

export const REQUEST_COLUMNS = [
  col("index", "#", "int", {
    priority: 1,
    marks: [
      { key: "duplicateOf", text: " =" },
      { key: "afterCompaction", text: " §" },
      { key: "rewoundFrom", text: " ↶" },
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
  col("output", "output", "int", {
    priority: 2,
    align: "left",
    marks: [
      { key: "outputPlaceholder", text: "*" },
      { key: "outputFromParent", text: "^" },
    ],
    empty: "?",
  }),
  col("fragments", "recs", "int", { priority: 4 }),
  col("addedResults", "+results (chars)", "countOf", { priority: 3, parts: ["addedResultChars"] }),
  col("addedUserText", "+user chars", "int", { priority: 3, blankZero: true }),
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
  const tables: Table[] = [...byChain].map(([chain, requests]) => {
    const t = totals.get(chain);
    const notes: string[] = [];
    const placeholders = requests.filter((x) => x.outputPlaceholder).length;
    if (placeholders) notes.push(`* output is a streaming placeholder on ${placeholders} request(s): no fragment carried a stop_reason`);
    const confirmed = requests.filter((x) => x.outputSource === "claude-p-result").length;
    const taken = requests.find((x) => x.outputSource === "claude-p-result" && x.outputTokens !== x.outputTokensRecorded);
    if (taken)
      notes.push(
        `output of request ${taken.index} is the claude -p result's usage.output_tokens (the run's one request, whose input side equals the result's); the file recorded ${taken.outputTokensRecorded ?? "no count"}`,
      );
    else if (confirmed)
      notes.push(
        `output on ${confirmed} request(s) has no stop_reason but is final: the counts add up to the claude -p result's usage.output_tokens`,
      );
    const fromParent = requests.find((x) => x.outputSource === "parent-task-result");
    if (fromParent)
      notes.push(
        `^ output of request ${fromParent.index} is the parent's ${t?.task?.tool ?? "Task"} result (toolUseResult.usage.output_tokens${t?.task ? ` at ${basename(t.task.file)}:${t.task.line}` : ""}), whose input side equals this request's; the file recorded ${fromParent.outputTokensRecorded ?? "no count"}`,
      );
    const dups = requests.filter((x) => x.duplicateOf).length;
    if (dups) notes.push(`${dups} request(s) repeat a message id seen earlier (fork, resume or progress copy); left out of the totals`);
    if (t && (t.synthetic || t.apiErrors || t.notRequests)) {
      const noUsage = t.notRequests ? `, ${t.notRequests} assistant record(s) without message or usage (see health)` : "";
      notes.push(`not requests: ${t.synthetic} <synthetic> record(s), ${t.apiErrors} API error record(s)${noUsage}`);
    }
    const resets = compactionNotes(requests.map((x) => x.compaction));
    notes.push(...(resets.length === 0 && t && t.compactions > 0 ? [COMPACTION_NOTE] : resets));
    if (requests.some((x) => x.compaction?.kind === "rewind")) notes.push(REWIND_NOTE);
    // One model for the whole chain (the usual case): say it once instead of in every row.
    const models = new Set(requests.map((x) => x.model ?? ""));
    const columns = models.size === 1 ? REQUEST_COLUMNS.filter((c) => c.key !== "model") : REQUEST_COLUMNS;
    if (models.size === 1) notes.unshift(`model: ${[...models][0] || "(none)"}`);
    return {
      id: `requests:${chain}`,
      title: chainTitle(chain),
      columns,
      rows: requests.map(requestRow),
      footer: t ? [totalsRow(t)] : [],
      notes,
    };
  });
  if (r.subagents.length) tables.push(subagentsTable(r.subagents));
  return tables;
}

const SUBAGENT_COLUMNS = [
  col("agent", "agent", "id", { priority: 1 }),
  col("tool", "tool", "text", { priority: 3 }),
  col("status", "status", "text", { priority: 3 }),
  col("joinedBy", "joined by", "text", { priority: 3 }),
  col("totalDurationMs", "duration", "ms", { priority: 2 }),
  col("totalToolUseCount", "tool uses", "int", { priority: 2 }),
  col("totalTokens", "total tokens", "int", { priority: 2 }),
  col("lastRequest", "last request", "int", { priority: 3 }),
  col("outputTokens", "output (parent)", "int", { priority: 1 }),
  col("matches", "input side matches", "bool", { priority: 2 }),
  col("at", "result at", "path", { priority: 4 }),
];

/** Each subagent as its parent's Task/Agent result describes it (FORMATS.md 11), joined to its chain where one was read. */
export function subagentsTable(tasks: SubagentTask[]): Table {
  const unjoined = tasks.filter((t) => t.chain === null).length;
  const mismatched = tasks.filter((t) => t.matchesLastRequest === false).length;
  const noUsage = tasks.filter((t) => t.usage === null).length;
  const notes: string[] = [];
  if (noUsage < tasks.length) notes.push("output (parent): toolUseResult.usage.output_tokens, the final count a subagent's own file lacks");
  if (noUsage) notes.push(`${noUsage} result(s) carry no usage: their chains keep their own output counts`);
  if (unjoined) notes.push(`${unjoined} result(s) joined to no chain read (subagent file missing, or --no-subagents)`);
  if (mismatched)
    notes.push(`${mismatched} result(s) whose usage differs from their chain's last request: that request keeps its own output`);
  return {
    id: "subagents",
    title: "Subagents (the parent's Task/Agent results)",
    columns: SUBAGENT_COLUMNS,
    rows: tasks.map((t) => ({
      agent: t.chain ?? t.agentId ?? t.toolUseId,
      tool: t.tool,
      status: t.status,
      joinedBy: t.joinedBy ?? "none",
      totalDurationMs: t.totalDurationMs,
      totalToolUseCount: t.totalToolUseCount,
      totalTokens: t.totalTokens,
      lastRequest: t.lastRequestIndex,
      outputTokens: t.usage?.outputTokens ?? null,
      matches: t.matchesLastRequest,
      at: `${basename(t.file)}:${t.line}`,
    })),
    notes,
  };
}

/** A chain's table title: the main chain, a subagent, or another session's records found in the file. */
export function chainTitle(chain: string): string {
  const kind = chainKind(chain);
  if (kind === "main") return "Requests (main chain)";
  if (kind === "session") return `Requests (session ${chain}, records of another session)`;
  const at = chain.indexOf("@");
  return at < 0 ? `Requests (subagent ${chain})` : `Requests (subagent ${chain.slice(0, at)} of session ${chain.slice(at + 1)})`;
}

function requestRow(q: RequestRow): Row {
  const a = q.added;
  return {
    index: q.index,
    duplicateOf: q.duplicateOf,
    afterCompaction: q.afterCompaction,
    // After a rewind: the request the delta is counted from (true: none, the branch starts over).
    rewoundFrom: q.compaction?.kind === "rewind" ? (q.compaction.baseIndex ?? true) : null,
    time: q.timestamp,
    model: q.model,
    inputTokens: q.inputTokens,
    cacheCreation: q.cacheCreationInputTokens,
    cacheCreation5m: q.cacheCreation5m,
    cacheCreation1h: q.cacheCreation1h,
    cacheReadInputTokens: q.cacheReadInputTokens,
    totalInputTokens: q.totalInputTokens,
    deltaTokens: q.deltaTokens,
    compactionTrigger: compactionTrigger(q.compaction),
    compactionPreTokens: q.compaction?.preTokens ?? null,
    output: q.outputTokens,
    outputPlaceholder: q.outputPlaceholder,
    outputFromParent: q.outputSource === "parent-task-result",
    fragments: q.fragments,
    addedResults: a.toolResults,
    addedResultChars: a.toolResultChars,
    addedUserText: a.userTextChars,
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
