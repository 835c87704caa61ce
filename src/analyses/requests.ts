import { renderAttachment } from "../records/attachments.js";
import { imageCount, visibleLength, visibleText } from "../records/content.js";
import { isObject } from "../records/json.js";
import { isStringAt, stringLength } from "../records/lazy-strings.js";
import type {
  AnyRecord,
  AssistantRecord,
  ContentBlock,
  ContentReplacementRecord,
  ProgressRecord,
  SystemRecord,
  UserRecord,
} from "../records/transcript.js";
import { addCounts } from "../records/values.js";
import { RowSpool, SpooledRows, type RowList } from "../sources/row-spool.js";
import type { Analysis } from "./analysis.js";
import type { Added, ChainSource, ChainTotals, Compaction, RequestRow, TotalOverflow } from "./request-row.js";
import { IdSet } from "./id-set.js";
import { TotalsAccumulator } from "./requests-totals.js";
import { applyTaskOutputs } from "./requests-tasks.js";
import { touchChain } from "./open-chains.js";
import { noteRun, rowOfSeq, type Run } from "./row-runs.js";
import { TaskCollector, type LastRequest, type SubagentTask } from "./subagent-tasks.js";
import { embeddedRecord, progressAgent } from "../records/progress-message.js";

export type { Added, ChainSource, ChainTotals, Compaction, OutputSource, RequestRow, TotalOverflow } from "./request-row.js";
export type { SubagentTask } from "./subagent-tasks.js";

export interface RequestsResult {
  /** Chains in order, each chain's rows by index; streamed by `--json`, `toArray()` for joins. */
  requests: RowList<RequestRow>;
  totals: ChainTotals[];
  overflows: TotalOverflow[];
  /** Every Task/Agent result a parent chain holds, joined to its subagent chain where one was read. */
  subagents: SubagentTask[];
}

/**
 * Requests still open to fragments, per chain (of the OPEN_CHAINS most recently active chains). All fragments
 * of a message come before the next message of its chain in real transcripts; a fragment of a message that
 * has left the window counts as a copy of it (`duplicateOf`), as a fragment found in another chain does.
 */
export const REQUEST_WINDOW = 64;

interface ChainState {
  ordinal: number;
  name: string;
  /** Where its records were read: its file (or the file holding it), or only `agent_progress` records (`progressChain`). */
  source: ChainSource;
  /** Rows created so far: the next row's index − 1. */
  rows: number;
  /** The open rows, oldest first, and the key each is found by. */
  open: RequestRow[];
  openKeys: string[];
  byKey: Map<string, RequestRow>;
  /** The total input of the chain's last final row (null when none or unknown): deltas are taken against it. */
  prevTotal: number | null;
  totals: TotalsAccumulator;
  /** The last final row that is no copy: what a parent's Task/Agent result is checked against (read at finish; final rows are not changed before). */
  last: RequestRow | null;
  pending: Added;
  /** Tool result chars counted in `pending`, by tool_use id: a content-replacement may swap one for its stub. */
  pendingResults: Map<string, number> | undefined;
  /** The same for the newest row, while it is open (a replacement written just after its first fragment). */
  lastResults: { row: RequestRow; chars: Map<string, number> } | undefined;
  /** The boundary seen since the last request, if any: the next request starts a segment. */
  compaction: Compaction | null;
  segment: number;
  compactions: number;
  synthetic: number;
  apiErrors: number;
  notRequests: number;
}

interface State {
  chains: Map<string, ChainState>;
  order: ChainState[];
  /** The chain of the last record. */
  active: ChainState | undefined;
  /** Chains with open rows, least recently active first (open-chains.ts): one more closes the first. */
  recent: ChainState[];
  /** message id → sequence number of the row where it first appeared, across chains. */
  seen: IdSet;
  seq: number;
  runs: Run<ChainState>[];
  spool: RowSpool<RequestRow>;
  tasks: TaskCollector;
}

const emptyAdded = (): Added => ({
  toolResults: 0,
  toolResultChars: 0,
  userTextChars: 0,
  attachments: 0,
  attachmentChars: 0,
  attachmentCharsExact: true,
  metaTextChars: 0,
  compactSummaryChars: 0,
  images: 0,
  attachmentKinds: [],
});

export interface RequestsOptions {
  /** Final rows kept in memory before the rest go to a temp file (sources/row-spool.ts). */
  memoryRows?: number;
  /** Where the temp file goes (tests); `os.tmpdir()` otherwise. */
  spoolDir?: string;
  /** tool_use id → subagent chain, from the subagent files' `.meta.json` (sources/subagent-meta.ts). */
  taskLinks?: ReadonlyMap<string, string>;
  /**
   * The agent ids whose chains this pass reads from subagent files. An `agent_progress` record of any other
   * agent gives that agent's chain the record it embeds (`progressChain`); undefined: none does (`--no-subagents`).
   */
  subagentFiles?: ReadonlySet<string>;
}

/**
 * One row per API request. Rows leave the state as they become final (out of the window, or their chain
 * left behind by OPEN_CHAINS others), with their totals and delta; memory holds the open windows, the
 * spool's first rows and a fixed-size key per message id. A chain's rows close oldest first whenever they
 * close, so deltas and output order do not depend on when.
 */
export function requestsAnalysisWith(opts: RequestsOptions = {}): Analysis<State, RequestsResult> {
  const analysis: Analysis<State, RequestsResult> = {
    init: () => ({
      chains: new Map(),
      order: [],
      active: undefined,
      recent: [],
      seen: new IdSet(),
      seq: 0,
      runs: [],
      spool: new RowSpool(opts.memoryRows, opts.spoolDir),
      tasks: new TaskCollector(opts.taskLinks),
    }),
    step(s, rec) {
      if (rec.kind === "malformed") return;
      let c = s.chains.get(rec.chain);
      if (!c) {
        c = {
          ordinal: s.order.length,
          name: rec.chain,
          source: "file",
          rows: 0,
          open: [],
          openKeys: [],
          byKey: new Map(),
          prevTotal: null,
          totals: new TotalsAccumulator(rec.chain),
          last: null,
          pending: emptyAdded(),
          pendingResults: undefined,
          lastResults: undefined,
          compaction: null,
          segment: 1,
          compactions: 0,
          synthetic: 0,
          apiErrors: 0,
          notRequests: 0,
        };
        s.chains.set(rec.chain, c);
        s.order.push(c);
      }
      if (s.active !== c) {
        // Another chain's records between two fragments of a request must not split it: the chain left
        // stays open until OPEN_CHAINS others have been active since.
        const left = touchChain(s.recent, c);
        if (left) closeAll(s, left);
        s.active = c;
      }
      switch (rec.kind) {
        case "assistant":
          onAssistant(s, c, rec);
          s.tasks.assistant(rec);
          break;
        case "user":
          onUser(c, rec);
          s.tasks.user(rec, c);
          break;
        case "progress":
          s.tasks.progress(rec);
          if (opts.subagentFiles) progressChain(s, rec, opts.subagentFiles, analysis.step);
          break;
        case "attachment": {
          const r = renderAttachment(rec.attachment, rec.raw);
          c.pending.attachments += 1;
          c.pending.attachmentChars += r.text.length;
          if (!r.exact) c.pending.attachmentCharsExact = false;
          if (!c.pending.attachmentKinds.includes(rec.attachmentType)) c.pending.attachmentKinds.push(rec.attachmentType);
          break;
        }
        case "content-replacement":
          onReplacement(c, rec);
          break;
        case "system":
          if (rec.subtype === "compact_boundary" || rec.subtype === "microcompact_boundary") onBoundary(c, rec);
          break;
        default:
          break;
      }
    },
    finish(s) {
      for (const c of s.order) closeAll(s, c);
      const totals: ChainTotals[] = [];
      const overflows: TotalOverflow[] = [];
      for (const c of s.order) {
        if (c.rows === 0 && c.synthetic === 0 && c.apiErrors === 0 && c.notRequests === 0) continue;
        overflows.push(...c.totals.overflows());
        totals.push(c.totals.totals(c));
      }
      const { tasks, fixes } = s.tasks.join(new Map(s.order.map((c) => [c.name, c.last && lastRequest(c.last)])));
      return applyTaskOutputs({ requests: new SpooledRows(s.spool, s.order.length, s.seq), totals, overflows, subagents: tasks }, fixes);
    },
  };
  return analysis;
}

/**
 * A subagent whose file this pass does not read (deleted, moved, left out of a snapshot) still has its records
 * in the parent's `agent_progress` records (2.1.14–2.1.39, FORMATS.md 1.4): each embedded assistant or user
 * record goes through `step` as a line of that file would, so its fragments are grouped by message id (max per
 * field) and its tool results counted as added, with the progress record's file and line. The chain says it
 * was read from progress records (`source`). An agent whose file is read takes nothing from them: the file
 * holds every message they copy, and its chain stays as it is.
 */
function progressChain(s: State, rec: ProgressRecord, files: ReadonlySet<string>, step: (s: State, rec: AnyRecord) => void): void {
  const agent = progressAgent(rec);
  if (agent === undefined || files.has(agent)) return;
  const inner = embeddedRecord(rec);
  if (inner === undefined) return;
  const fresh = !s.chains.has(agent);
  step(s, inner);
  if (fresh) s.chains.get(agent)!.source = "progress";
}

export const requestsAnalysis = requestsAnalysisWith();

function onAssistant(s: State, c: ChainState, rec: AssistantRecord): void {
  // API error records carry model "<synthetic>" too: test the flag first.
  if (rec.isApiError) {
    c.apiErrors += 1;
    return;
  }
  if (rec.model === "<synthetic>") {
    c.synthetic += 1;
    return;
  }
  const u = rec.usage;
  // No message or no usage: nothing was billed that this record could show (counted in health).
  if (u === undefined) {
    c.notRequests += 1;
    return;
  }
  const key = rec.messageId ?? rec.requestId ?? rec.uuid ?? `${rec.pos.file}:${rec.pos.line}`;
  // A message's fragments come one after another: the newest open row first, the map for the rest.
  const newest = c.openKeys.length - 1;
  let row = newest >= 0 && c.openKeys[newest] === key ? c.open[newest] : c.byKey.get(key);
  if (!row) {
    row = {
      chain: rec.chain,
      index: c.rows + 1,
      file: rec.pos.file,
      line: rec.pos.line,
      sessionId: rec.sessionId ?? null,
      messageId: rec.messageId ?? null,
      requestId: rec.requestId ?? null,
      model: rec.model ?? null,
      timestamp: rec.timestamp ?? null,
      fragments: 0,
      inputTokens: null,
      cacheCreationInputTokens: null,
      cacheCreation5m: null,
      cacheCreation1h: null,
      cacheReadInputTokens: null,
      outputTokens: null,
      outputTokensRecorded: null,
      outputSource: "placeholder",
      outputPlaceholder: true,
      stopReason: null,
      totalInputTokens: null,
      deltaTokens: null,
      afterCompaction: c.compaction !== null,
      compaction: c.compaction,
      segment: c.compaction !== null ? ++c.segment : c.segment,
      duplicateOf: null,
      toolUses: [],
      added: c.pending,
    };
    c.rows += 1;
    const seq = s.seq++;
    noteRun(s.runs, seq, c, row.index);
    if (rec.messageId) {
      const first = s.seen.getOrAdd(rec.messageId, seq);
      if (first !== undefined) row.duplicateOf = firstLabel(s, first, rec.messageId);
    }
    c.byKey.set(key, row);
    c.open.push(row);
    c.openKeys.push(key);
    c.pending = emptyAdded();
    c.lastResults = c.pendingResults && { row, chars: c.pendingResults };
    c.pendingResults = undefined;
    c.compaction = null;
    if (c.open.length > REQUEST_WINDOW) closeOldest(s, c);
  }
  row.fragments += 1;
  row.inputTokens = maxKnown(row.inputTokens, u.inputTokens);
  row.cacheCreationInputTokens = maxKnown(row.cacheCreationInputTokens, u.cacheCreationInputTokens);
  row.cacheReadInputTokens = maxKnown(row.cacheReadInputTokens, u.cacheReadInputTokens);
  row.outputTokens = maxKnown(row.outputTokens, u.outputTokens);
  row.outputTokensRecorded = row.outputTokens;
  row.cacheCreation5m = maxKnown(row.cacheCreation5m, u.cacheCreation5m);
  row.cacheCreation1h = maxKnown(row.cacheCreation1h, u.cacheCreation1h);
  if (rec.stopReason !== null) {
    row.stopReason = rec.stopReason;
    row.outputPlaceholder = false;
    row.outputSource = "final-fragment";
  }
  for (const b of rec.content) {
    if (b.type === "tool_use" && typeof b.id === "string") row.toolUses.push({ id: b.id, name: typeof b.name === "string" ? b.name : "" });
  }
}

/** "chain#index" of the row with sequence number `seq`, or null when it is an open row under another id. */
function firstLabel(s: State, seq: number, id: string): string | null {
  const row = rowOfSeq(s.runs, seq, id);
  return row && `${row.chain.name}#${row.index}`;
}

/** The oldest open row is final: its total and delta are known, and it goes to the spool. */
function closeOldest(s: State, c: ChainState): void {
  const row = c.open.shift()!;
  c.byKey.delete(c.openKeys.shift()!);
  row.totalInputTokens = addCounts(addCounts(row.inputTokens, row.cacheCreationInputTokens), row.cacheReadInputTokens);
  // Across a compaction the difference is the summary replacing the chain, not the cost of anything added.
  const known = c.prevTotal !== null && row.totalInputTokens !== null && !row.afterCompaction;
  row.deltaTokens = known ? row.totalInputTokens! - c.prevTotal! : null;
  c.prevTotal = row.totalInputTokens;
  if (row.duplicateOf === null) c.last = row;
  c.totals.add(row);
  s.spool.push(c.ordinal, row);
}

/** What the Task/Agent join checks a chain's last row against. */
function lastRequest(row: RequestRow): LastRequest {
  return {
    index: row.index,
    inputTokens: row.inputTokens,
    cacheCreationInputTokens: row.cacheCreationInputTokens,
    cacheReadInputTokens: row.cacheReadInputTokens,
    outputTokens: row.outputTokens,
    placeholder: row.outputPlaceholder,
  };
}

function closeAll(s: State, c: ChainState): void {
  while (c.open.length) closeOldest(s, c);
}

/**
 * After a compaction what was added before the boundary went into the summary, not into the next request
 * as such: it is dropped, so it is neither counted as added to that request nor charged with its delta.
 * After a microcompaction it is sent again (only old tool results were cleared): it stays added, and only
 * the delta is no cost. A compaction among several boundaries decides the kind.
 */
function onBoundary(c: ChainState, rec: SystemRecord): void {
  const micro = rec.subtype === "microcompact_boundary";
  const raw = micro ? rec.raw.microcompactMetadata : rec.raw.compactMetadata;
  const meta = isObject(raw) ? raw : {};
  const boundaries = (c.compaction?.boundaries ?? 0) + 1;
  c.compactions += 1;
  if (micro && c.compaction?.kind === "compact") {
    c.compaction = { ...c.compaction, boundaries };
    return;
  }
  c.compaction = {
    trigger: typeof meta.trigger === "string" ? meta.trigger : null,
    preTokens: safeCount(meta.preTokens),
    file: rec.pos.file,
    line: rec.pos.line,
    boundaries,
    kind: micro ? "micro" : "compact",
    tokensSaved: micro ? safeCount(meta.tokensSaved) : null,
  };
  if (!micro) {
    c.pending = emptyAdded();
    c.pendingResults = undefined;
  }
}

/**
 * A per-message budget stub (FORMATS.md 6.5): the model saw the replacement, not the result the user record
 * holds, so the result's chars become the stub's. For a result of the pending request or of the newest one
 * while it is open; the last replacement of a result wins, as in outputs.
 */
function onReplacement(c: ChainState, rec: ContentReplacementRecord): void {
  for (const r of rec.replacements) {
    if (r.toolUseId === undefined || (r.kind !== undefined && r.kind !== "tool-result")) continue;
    let added: Added;
    let chars: Map<string, number>;
    if (c.pendingResults?.has(r.toolUseId)) ((added = c.pending), (chars = c.pendingResults));
    else if (c.lastResults?.chars.has(r.toolUseId) && c.open[c.open.length - 1] === c.lastResults.row)
      ((added = c.lastResults.row.added), (chars = c.lastResults.chars));
    else continue;
    const n = visibleText(r.replacement).length;
    added.toolResultChars += n - chars.get(r.toolUseId)!;
    chars.set(r.toolUseId, n);
  }
}

function safeCount(v: unknown): number | null {
  return typeof v === "number" && Number.isSafeInteger(v) ? v : null;
}

/** Counts from lengths only: a long text stays undecoded (records/lazy-strings.ts). */
function onUser(c: ChainState, rec: UserRecord): void {
  const a = c.pending;
  const own = stringLength(rec, "content");
  if (own !== undefined) {
    if (rec.isCompactSummary) a.compactSummaryChars += own;
    else if (rec.isMeta) a.metaTextChars += own;
    else a.userTextChars += own;
    return;
  }
  for (const b of (rec.content as ContentBlock[] | undefined) ?? []) {
    if (b.type === "tool_result") {
      const n = visibleLength(b);
      a.toolResults += 1;
      a.toolResultChars += n;
      if (typeof b.tool_use_id === "string") (c.pendingResults ??= new Map()).set(b.tool_use_id, n);
      a.images += imageCount(stringLength(b, "content") === undefined ? b.content : undefined);
    } else if (b.type === "text" && isStringAt(b, "text")) {
      const n = stringLength(b, "text")!;
      if (rec.isCompactSummary) a.compactSummaryChars += n;
      else if (rec.isMeta) a.metaTextChars += n;
      else a.userTextChars += n;
    } else if (b.type === "image") {
      a.images += 1;
    }
  }
}

/** Max over fragments, where an unknown (null) fragment value takes no part. */
function maxKnown(a: number | null, b: number | null): number | null {
  if (b === null) return a;
  return a === null || b > a ? b : a;
}
