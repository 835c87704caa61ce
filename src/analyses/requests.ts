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
  TranscriptRecord,
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
import { lastRequest, TaskCollector, type SubagentTask } from "./subagent-tasks.js";
import { embeddedRecord, progressAgent } from "../records/progress-message.js";
import { NONE, PathTable, RequestRing, UNKNOWN } from "./uuid-paths.js";

export type { Added, ChainSource, ChainTotals, Compaction, OutputSource, RequestRow, TotalOverflow } from "./request-row.js";
export type { SubagentTask } from "./subagent-tasks.js";

export interface RequestsResult {
  /** Chains in order, each chain's rows by index; streamed by `--json`, `toArray()` for joins. */
  requests: RowList<RequestRow>;
  totals: ChainTotals[];
  overflows: TotalOverflow[];
  /** Every Task/Agent result a parent chain holds, joined to its subagent chain where one was read. */
  subagents: SubagentTask[];
  /**
   * Tool results (by tool_use id) on a branch a rewind abandoned: written after a request, then the chain's
   * next request in the file grew from an earlier one (`compaction.kind` "rewind"), so no request carried them.
   */
  abandoned: IdSet;
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
  /** Sequence number of the chain's newest row (-1 before the first): records whose path leads to it continue the chain as written. */
  lastSeq: number;
  /**
   * Whether the newest row's path was known (its first fragment's parent seen): only then does a user message
   * with `parentUuid: null` read as the conversation starting over, not as a file that links nothing.
   */
  linked: boolean;
  /** Sequence numbers of the open rows, as `open`. */
  openSeqs: number[];
  /**
   * What records whose path leads elsewhere than `lastSeq` added since the last request, by the request
   * their path leads to (or NONE, UNKNOWN): only a rewind reads them, to count what is on its own path. At
   * most BRANCHES; more, and the rest count as UNKNOWN. `pending` still holds everything, as written.
   */
  branches: Branch[] | undefined;
  /** The base request (sequence number) of each open rewind row. */
  rewindBases: Map<RequestRow, number> | undefined;
  segment: number;
  compactions: number;
  synthetic: number;
  apiErrors: number;
  notRequests: number;
}

/** What the records of one branch added since the chain's last request (ChainState.branches). */
interface Branch {
  /** The request the records' path leads to (a sequence number), NONE or UNKNOWN. */
  base: number;
  added: Added;
  results: Map<string, number> | undefined;
  /** The first record of the branch: where the rewind shows. */
  file: string;
  line: number;
  /** That record is a prompt (user text, not meta, no tool result): only then is the branch a rewind. */
  prompt: boolean;
}

/** Branches kept apart between two requests of a chain; the rest count as UNKNOWN. */
const BRANCHES = 8;

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
  /** uuid → the nearest request on its parentUuid path (uuid-paths.ts), and the recent requests themselves. */
  paths: PathTable;
  ring: RequestRing;
  abandoned: IdSet;
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
      paths: new PathTable(),
      ring: new RequestRing(),
      abandoned: new IdSet(),
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
          lastSeq: -1,
          linked: false,
          openSeqs: [],
          branches: undefined,
          rewindBases: undefined,
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
      // The nearest request on this record's path; a request's own fragments are that request (onAssistant).
      const base = baseOf(s.paths, rec);
      let own = base;
      // Off the chain as written (a rewind's new branch, or a side branch): also counted apart.
      const branch =
        base !== c.lastSeq && c.rows > 0 && c.compaction === null && rec.kind !== "assistant" ? branchOf(c, base, rec) : undefined;
      switch (rec.kind) {
        case "assistant":
          own = onAssistant(s, c, rec, base);
          s.tasks.assistant(rec);
          break;
        case "user":
          c.pendingResults = onUser(c.pending, c.pendingResults, rec);
          if (branch) branch.results = onUser(branch.added, branch.results, rec);
          s.tasks.user(rec, c);
          break;
        case "progress":
          s.tasks.progress(rec);
          if (opts.subagentFiles) progressChain(s, rec, opts.subagentFiles, analysis.step);
          break;
        case "attachment": {
          const r = renderAttachment(rec.attachment, rec.raw);
          addAttachment(c.pending, r, rec.attachmentType);
          if (branch) addAttachment(branch.added, r, rec.attachmentType);
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
      if (rec.uuid !== undefined) s.paths.set(rec.uuid, own);
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
      return applyTaskOutputs(
        { requests: new SpooledRows(s.spool, s.order.length, s.seq), totals, overflows, subagents: tasks, abandoned: s.abandoned },
        fixes,
      );
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

/**
 * The nearest request on the record's parentUuid path (uuid-paths.ts): the parent's, once seen. A user
 * message with `parentUuid: null` starts the conversation (NONE: no request before it on its path); any other
 * root (a compaction boundary, a hook's record before the first prompt) and a parent never seen are UNKNOWN.
 */
function baseOf(paths: PathTable, rec: TranscriptRecord): number {
  const p = rec.parentUuid;
  if (p !== undefined) return paths.get(p);
  return rec.kind === "user" && !rec.isMeta && !rec.isCompactSummary && rec.raw.parentUuid === null ? NONE : UNKNOWN;
}

/** The branch of `base` since the chain's last request, made at its first record; past BRANCHES, UNKNOWN's. */
function branchOf(c: ChainState, base: number, rec: TranscriptRecord): Branch {
  const list = (c.branches ??= []);
  for (const b of list) if (b.base === base) return b;
  if (list.length >= BRANCHES && base !== UNKNOWN) return branchOf(c, UNKNOWN, rec);
  const b: Branch = { base, added: emptyAdded(), results: undefined, file: rec.pos.file, line: rec.pos.line, prompt: isPrompt(rec) };
  list.push(b);
  return b;
}

/** A message the user typed: a user record, not meta or a summary, with text and no tool result. */
function isPrompt(rec: TranscriptRecord): boolean {
  if (rec.kind !== "user" || rec.isMeta || rec.isCompactSummary) return false;
  if (stringLength(rec, "content") !== undefined) return true;
  const blocks = rec.content;
  return Array.isArray(blocks) && blocks.some((b) => b.type === "text") && !blocks.some((b) => b.type === "tool_result");
}

function addAttachment(a: Added, r: { text: string; exact: boolean }, kind: string): void {
  a.attachments += 1;
  a.attachmentChars += r.text.length;
  if (!r.exact) a.attachmentCharsExact = false;
  if (!a.attachmentKinds.includes(kind)) a.attachmentKinds.push(kind);
}

/**
 * A rewind: the new request's path leads to `base`, not to the chain's newest request, and no compaction
 * lies between (that case stays a reset). Its delta and `added` are taken against `base` when the ring still
 * holds it in this chain; a path that starts over (NONE) has no base. Else null: the file order stands.
 */
function rewindOf(s: State, c: ChainState, base: number, rec: AssistantRecord): Compaction | null {
  if (c.compaction !== null || c.rows === 0 || base === c.lastSeq || base === UNKNOWN || (base === NONE && !c.linked)) return null;
  // The branch starts with a prompt the user typed again. Not a record Claude Code wrote beside the last
  // reply (a stop-hook summary under the reply's parent, the next prompt under it: anthropics/claude-code#88597).
  const at = c.branches?.find((b) => b.base === base);
  if (!at?.prompt) return null;
  const baseIndex = base === NONE ? null : s.ring.indexOf(base, c.ordinal);
  if (baseIndex === null && base !== NONE) return null;
  // A copy of a message seen before (a fragment past the window, a fork's copy) is no new branch.
  if (rec.messageId !== undefined && s.seen.has(rec.messageId)) return null;
  return { trigger: null, preTokens: null, file: at.file, line: at.line, boundaries: 0, kind: "rewind", tokensSaved: null, baseIndex };
}

/**
 * What the rewind's request carried: what its own branch and records of no known path added (as the file
 * order would have counted them); the rest of `pending` was on the abandoned branch, and its tool results are
 * noted as carried by no request.
 */
function rewindAdded(s: State, c: ChainState, base: number): { added: Added; results: Map<string, number> | undefined } {
  const mine = c.branches?.find((b) => b.base === base);
  const unknown = base === UNKNOWN ? undefined : c.branches?.find((b) => b.base === UNKNOWN);
  const added = mine?.added ?? emptyAdded();
  let results = mine?.results;
  if (unknown) {
    mergeAdded(added, unknown.added);
    if (unknown.results) for (const [id, n] of unknown.results) (results ??= new Map()).set(id, n);
  }
  if (c.pendingResults) for (const id of c.pendingResults.keys()) if (!results?.has(id)) s.abandoned.getOrAdd(id, 0);
  return { added, results };
}

function mergeAdded(a: Added, b: Added): void {
  a.toolResults += b.toolResults;
  a.toolResultChars += b.toolResultChars;
  a.userTextChars += b.userTextChars;
  a.attachments += b.attachments;
  a.attachmentChars += b.attachmentChars;
  a.attachmentCharsExact &&= b.attachmentCharsExact;
  a.metaTextChars += b.metaTextChars;
  a.compactSummaryChars += b.compactSummaryChars;
  a.images += b.images;
  for (const k of b.attachmentKinds) if (!a.attachmentKinds.includes(k)) a.attachmentKinds.push(k);
}

/** Returns what the record's own uuid leads to: its request's sequence number, or `base` when it is no request. */
function onAssistant(s: State, c: ChainState, rec: AssistantRecord, base: number): number {
  // API error records carry model "<synthetic>" too: test the flag first.
  if (rec.isApiError) {
    c.apiErrors += 1;
    return base;
  }
  if (rec.model === "<synthetic>") {
    c.synthetic += 1;
    return base;
  }
  const u = rec.usage;
  // No message or no usage: nothing was billed that this record could show (counted in health).
  if (u === undefined) {
    c.notRequests += 1;
    return base;
  }
  const key = rec.messageId ?? rec.requestId ?? rec.uuid ?? `${rec.pos.file}:${rec.pos.line}`;
  // A message's fragments come one after another: the newest open row first, the map for the rest.
  const newest = c.openKeys.length - 1;
  let row = newest >= 0 && c.openKeys[newest] === key ? c.open[newest] : c.byKey.get(key);
  let seq: number;
  if (row) seq = newest >= 0 && c.open[newest] === row ? c.openSeqs[newest]! : c.openSeqs[c.open.indexOf(row)]!;
  else {
    const rewind = rewindOf(s, c, base, rec);
    const carried = rewind ? rewindAdded(s, c, base) : { added: c.pending, results: c.pendingResults };
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
      compaction: c.compaction ?? rewind,
      segment: c.compaction !== null ? ++c.segment : c.segment,
      duplicateOf: null,
      toolUses: [],
      added: carried.added,
    };
    c.rows += 1;
    seq = s.seq++;
    noteRun(s.runs, seq, c, row.index);
    s.ring.add(seq, c.ordinal, row.index);
    if (rewind?.baseIndex != null) (c.rewindBases ??= new Map()).set(row, base);
    if (rec.messageId) {
      const first = s.seen.getOrAdd(rec.messageId, seq);
      if (first !== undefined) row.duplicateOf = firstLabel(s, first, rec.messageId);
    }
    c.byKey.set(key, row);
    c.open.push(row);
    c.openKeys.push(key);
    c.openSeqs.push(seq);
    c.pending = emptyAdded();
    c.lastResults = carried.results && { row, chars: carried.results };
    c.pendingResults = undefined;
    c.branches = undefined;
    c.compaction = null;
    c.lastSeq = seq;
    c.linked = base !== UNKNOWN;
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
  return seq;
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
  const seq = c.openSeqs.shift()!;
  row.totalInputTokens = addCounts(addCounts(row.inputTokens, row.cacheCreationInputTokens), row.cacheReadInputTokens);
  s.ring.close(seq, row.totalInputTokens);
  // Across a compaction the difference is the summary replacing the chain, not the cost of anything added;
  // after a rewind it is the growth from the request the branch left from (null when it starts over).
  const rewind = row.compaction?.kind === "rewind" ? row.compaction : null;
  let prev = c.prevTotal;
  if (rewind !== null) {
    const base = c.rewindBases?.get(row);
    c.rewindBases?.delete(row);
    prev = base === undefined ? null : (s.ring.totalOf(base) ?? null);
  }
  const known = prev !== null && row.totalInputTokens !== null && !row.afterCompaction;
  row.deltaTokens = known ? row.totalInputTokens! - prev! : null;
  c.prevTotal = row.totalInputTokens;
  if (row.duplicateOf === null) c.last = row;
  c.totals.add(row);
  s.spool.push(c.ordinal, row);
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
  // What follows a boundary is a reset, not a rewind: branches apart are no longer read.
  c.branches = undefined;
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
    // The same result counted on its branch too (only `pending` holds the results of the chain as written).
    if (added === c.pending)
      for (const b of c.branches ?? []) {
        const m = b.results?.get(r.toolUseId);
        if (m === undefined) continue;
        b.added.toolResultChars += n - m;
        b.results!.set(r.toolUseId, n);
      }
  }
}

function safeCount(v: unknown): number | null {
  return typeof v === "number" && Number.isSafeInteger(v) ? v : null;
}

/**
 * Counts from lengths only: a long text stays undecoded (records/lazy-strings.ts). Returns `results` with the
 * record's tool results added (chars by tool_use id), made when there was none.
 */
function onUser(a: Added, results: Map<string, number> | undefined, rec: UserRecord): Map<string, number> | undefined {
  const own = stringLength(rec, "content");
  if (own !== undefined) {
    if (rec.isCompactSummary) a.compactSummaryChars += own;
    else if (rec.isMeta) a.metaTextChars += own;
    else a.userTextChars += own;
    return results;
  }
  for (const b of (rec.content as ContentBlock[] | undefined) ?? []) {
    if (b.type === "tool_result") {
      const n = visibleLength(b);
      a.toolResults += 1;
      a.toolResultChars += n;
      if (typeof b.tool_use_id === "string") (results ??= new Map()).set(b.tool_use_id, n);
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
  return results;
}

/** Max over fragments, where an unknown (null) fragment value takes no part. */
function maxKnown(a: number | null, b: number | null): number | null {
  if (b === null) return a;
  return a === null || b > a ? b : a;
}
