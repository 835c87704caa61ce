import { basename } from "node:path";
import type { ChainSource, ChainTotals, RequestRow, RequestsResult, SubagentTask } from "../analyses/requests.js";
import { chainKind } from "../records/chains.js";
import { COMPACTION_NOTE, REWIND_NOTE, compactionNotes, compactionTrigger } from "./compaction-note.js";
import { idlessRepeatsNote } from "./idless-repeats.js";
import { col, type Row, type Table } from "./model.js";

export const REQUEST_COLUMNS = [
  // A totals row shows `total` and `4 requests` here (`indexShown`, `timeShown`); its raw index and time are
  // null, so each CSV column holds one kind of value, and CSV has its count of requests in `requests` (set
  // on totals rows only).
  col("index", "#", "int", {
    priority: 1,
    display: "indexShown",
    marks: [
      { key: "duplicateOf", text: " =" },
      { key: "afterCompaction", text: " §" },
      { key: "rewoundFrom", text: " ↶" },
    ],
  }),
  col("time", "time", "time", { priority: 2, display: "timeShown", parts: ["requests"] }),
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
  // Which result each request's output was taken from: a lookup per row would be quadratic with 100,000 subagents.
  const taskAt = new Map<string, SubagentTask>();
  for (const t of r.subagents) if (t.chain !== null && t.lastRequestIndex !== null) taskAt.set(`${t.chain}#${t.lastRequestIndex}`, t);
  const tables: Table[] = [...byChain].map(([chain, requests]) => {
    const t = totals.get(chain);
    const notes: string[] = [];
    const placeholders = requests.filter((x) => x.outputPlaceholder).length;
    // The total's `*`: it adds placeholder counts (duplicates are left out of it, so its own count).
    const inTotal = t?.outputPlaceholders ?? 0;
    if (placeholders)
      notes.push(
        `* output is a streaming placeholder on ${placeholders} request(s): no fragment carried a stop_reason${inTotal ? `; the total output includes ${inTotal} placeholder count(s)` : ""}`,
      );
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
    const fromParent = requests.filter((x) => x.outputSource === "parent-task-result");
    if (fromParent.length) notes.push(parentOutputNote(fromParent, taskAt, t?.task ?? null));
    const idless = idlessRepeatsNote(requests);
    if (idless) notes.push(idless);
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
      title: chainTitle(chain, t?.source),
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
  // The chain the result was joined to, else the agentId it names; "?" (null in CSV) when neither is known:
  // its tool_use id is its own column (the last), never shown as an agent id.
  col("agent", "agent", "id", { priority: 1, empty: "?" }),
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
  col("toolUseId", "tool_use id", "id", { priority: 4 }),
];

/** Each subagent as its parent's Task/Agent result describes it (FORMATS.md 11), joined to its chain where one was read. */
export function subagentsTable(tasks: SubagentTask[]): Table {
  const mismatched = tasks.filter((t) => t.matchesLastRequest === false).length;
  const noUsage = tasks.filter((t) => t.usage === null).length;
  const notes: string[] = [];
  if (noUsage < tasks.length) notes.push("output (parent): toolUseResult.usage.output_tokens, the final count a subagent's own file lacks");
  if (noUsage) notes.push(`${noUsage} result(s) carry no usage: their chains keep their own output counts`);
  notes.push(...unjoinedNotes(tasks));
  if (mismatched)
    notes.push(`${mismatched} result(s) whose usage differs from their chain's last request: that request keeps its own output`);
  return {
    id: "subagents",
    title: "Subagents (the parent's Task/Agent results)",
    columns: SUBAGENT_COLUMNS,
    rows: tasks.map((t) => ({
      agent: t.chain ?? t.agentId,
      toolUseId: t.toolUseId,
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

/** Why results were joined to no chain, one note per reason (FORMATS.md 4.6: the links, then the prompt). */
function unjoinedNotes(tasks: SubagentTask[]): string[] {
  const count = (reason: SubagentTask["unjoinedReason"]) => tasks.filter((t) => t.chain === null && t.unjoinedReason === reason).length;
  const notes: string[] = [];
  const notRead = count("not-read");
  if (notRead)
    notes.push(
      `${notRead} result(s) whose agentId or tool_use link names a subagent that was not read (its file missing, or --no-subagents)`,
    );
  const noLink = count("no-link");
  if (noLink)
    notes.push(
      `${noLink} result(s) with no agentId and no tool_use link (agent_progress, .meta.json), whose prompt starts no subagent chain read: joined to no chain`,
    );
  const shared = tasks.filter((t) => t.chain === null && t.unjoinedReason === "prompt-shared");
  if (shared.length) {
    const by = [...new Set(shared.map((t) => t.promptChains ?? 0))].sort((a, b) => a - b).join(" or ");
    notes.push(
      `${shared.length} result(s) whose prompt ${by} subagent chains start with, and whose usage matches no single one of them on the input side: joined to no chain`,
    );
  }
  const taken = count("taken");
  if (taken) notes.push(`${taken} result(s) whose prompt starts a chain another result was joined to already: joined to no chain`);
  const other = tasks.filter((t) => t.chain === null && t.unjoinedReason === null).length;
  if (other) notes.push(`${other} result(s) joined to no chain read`);
  return notes;
}

/** The `^` note: which result each request's output count comes from (one per leg of a resumed subagent). */
function parentOutputNote(rows: RequestRow[], taskAt: ReadonlyMap<string, SubagentTask>, fallback: SubagentTask | null): string {
  const taskOf = (q: RequestRow) => taskAt.get(`${q.chain}#${q.index}`) ?? fallback;
  const at = (task: SubagentTask | null) => (task ? ` at ${basename(task.file)}:${task.line}` : "");
  const recorded = (q: RequestRow) => `${q.outputTokensRecorded ?? "no count"}`;
  if (rows.length === 1) {
    const q = rows[0]!;
    const task = taskOf(q);
    return `^ output of request ${q.index} is the parent's ${task?.tool ?? "Task"} result (toolUseResult.usage.output_tokens${at(task)}), whose input side equals this request's; the file recorded ${recorded(q)}`;
  }
  const shown = rows.slice(0, 10);
  const more = rows.length > shown.length ? `, … (${rows.length} in all)` : "";
  const list = (f: (q: RequestRow) => string) => shown.map(f).join(", ") + more;
  const tasksAt = list((q) => at(taskOf(q)).slice(4) || "?");
  return `^ output of requests ${list((q) => `${q.index}`)} is the parent's ${taskOf(rows[0]!)?.tool ?? "Task"} results' toolUseResult.usage.output_tokens (a resumed subagent: one result per leg, at ${tasksAt}), whose input side equals each request's; the file recorded ${list(recorded)}`;
}

/**
 * A chain's table title: the main chain, a subagent, or another session's records found in the file; a subagent
 * whose file was not read says its requests come from the parent's `agent_progress` records.
 */
export function chainTitle(chain: string, source: ChainSource = "file"): string {
  const kind = chainKind(chain);
  if (kind === "main") return "Requests (main chain)";
  if (kind === "session") return `Requests (session ${chain}, records of another session)`;
  if (source === "progress") return `Requests (subagent ${chain}, read from the parent's progress records: its file was not read)`;
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
    index: null,
    indexShown: "total",
    ...(t.compactions > 0 ? { afterCompaction: true } : {}),
    time: null,
    timeShown: { count: t.requests, noun: "requests" },
    requests: t.requests,
    inputTokens: t.inputTokens,
    cacheCreation: t.cacheCreationInputTokens,
    cacheReadInputTokens: t.cacheReadInputTokens,
    totalInputTokens: t.totalInputTokens,
    deltaTokens:
      t.firstTotalInputTokens !== null && t.lastTotalInputTokens !== null && t.compactions === 0
        ? t.lastTotalInputTokens - t.firstTotalInputTokens
        : null,
    output: t.outputTokens,
    // Marked as a row's placeholder is: the sum is no more final than the counts it adds.
    outputPlaceholder: t.outputPlaceholders > 0,
  };
}
