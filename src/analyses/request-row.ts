import type { SubagentTask } from "./subagent-tasks.js";

/** The shapes `requests` produces (CONTRACT.md `requests`, `totals`), apart so its helpers can share them. */
/** What entered a chain between one request and the next: the seed write-ups' "request N+1 − request N". */
export interface Added {
  toolResults: number;
  toolResultChars: number;
  userTextChars: number;
  attachments: number;
  attachmentChars: number;
  /** false when some attachment's text had to be estimated (kind without a stored or known rendering). */
  attachmentCharsExact: boolean;
  /** Text of `isMeta` user records (injected `<system-reminder>`s, hook feedback). */
  metaTextChars: number;
  /** The summary a compaction left (`isCompactSummary` user record): the start of the new segment, not user text. */
  compactSummaryChars: number;
  images: number;
  attachmentKinds: string[];
}

/** One API request: the assistant records sharing a message id, usage fields taken as the max over fragments. */
export interface RequestRow {
  chain: string;
  index: number;
  file: string;
  line: number;
  sessionId: string | null;
  messageId: string | null;
  requestId: string | null;
  model: string | null;
  timestamp: string | null;
  fragments: number;
  /** Token fields: max over the fragments whose value is a count; null when none had one (FORMATS.md 4.4). */
  inputTokens: number | null;
  cacheCreationInputTokens: number | null;
  cacheCreation5m: number | null;
  cacheCreation1h: number | null;
  cacheReadInputTokens: number | null;
  outputTokens: number | null;
  /** The file's own figure (max over the fragments); `outputTokens` may be replaced by a confirmed one (CONTRACT.md). */
  outputTokensRecorded: number | null;
  /** Where `outputTokens` comes from: "final-fragment", "parent-task-result", "claude-p-result" or "placeholder". */
  outputSource: OutputSource;
  /** No fragment carried a stop_reason: the output count is a streaming snapshot, not the final figure. */
  outputPlaceholder: boolean;
  stopReason: string | null;
  /** null when a part is unknown: a guess would move every delta after it. */
  totalInputTokens: number | null;
  deltaTokens: number | null;
  /** A compaction boundary lies between the previous request and this one: the row starts a new segment and `deltaTokens` is null (a reset, not a cost). */
  afterCompaction: boolean;
  /**
   * The (last) boundary before this request when `afterCompaction`; or, with `kind: "rewind"` (and
   * `afterCompaction` false), the rewind this request follows: its `parentUuid` path leaves the request before
   * it in the file, so `deltaTokens` and `added` are taken against `baseIndex`, the nearest request on its own
   * path (docs/REFERENCE.md, "Rewinds"); else null.
   */
  compaction: Compaction | null;
  /** 1-based within the chain: 1 until the first compaction, then one more after each. */
  segment: number;
  /** "chain#index" of the first request with the same id when this one is a copy (fork, progress, resume). */
  duplicateOf: string | null;
  toolUses: Array<{ id: string; name: string }>;
  added: Added;
}

/**
 * What lies between a request and the one before it in the file, when it is not a plain continuation.
 *
 * A `system` record of subtype `compact_boundary` or `microcompact_boundary` (FORMATS.md 4.2, 11). After a
 * compaction (`compact`) Claude Code summarised the chain and the next request starts over from the
 * summary, so nothing before it is carried as such. After a microcompaction (`micro`) it cleared old tool
 * results (`compactedToolIds`) and the rest is sent again: what was added still counts as added, but the
 * next request's difference to the one before mixes it with what was cleared, so it is no cost either.
 */
export interface Compaction {
  /** `compactMetadata.trigger` (`microcompactMetadata.trigger`): "auto" or "manual" (null when absent). */
  trigger: string | null;
  /** `preTokens` of the metadata: the context Claude Code counted just before it compacted. */
  preTokens: number | null;
  file: string;
  line: number;
  /** Boundaries between the two requests (more than one when a compaction was repeated with no request between). */
  boundaries: number;
  /** "compact" when any boundary between the two requests was a `compact_boundary`, else "micro"; "rewind" for a rewind (below). */
  kind: "compact" | "micro" | "rewind";
  /** `microcompactMetadata.tokensSaved` of a microcompaction (null for a compaction, or when absent). */
  tokensSaved: number | null;
  /**
   * Only with `kind: "rewind"` (a rewind, an edited message: docs/REFERENCE.md "Rewinds"; `boundaries` 0, trigger, preTokens
   * and tokensSaved null; `file`/`line` the first record of the branch after the request before in the file):
   * the index of the request the delta is taken against, or null when the branch starts over from the
   * conversation's first message (the delta is then null, as for a chain's first request).
   */
  baseIndex?: number | null;
}

/** Sums over the chain's requests whose value is known; null only when a sum would pass 2^53 − 1 (see `overflows`). */
export interface ChainTotals {
  chain: string;
  /** "file": read from its transcript file (a subagent's own, or the file holding it); "progress": only from the parent's `agent_progress` records, its file not read. */
  source: ChainSource;
  requests: number;
  inputTokens: number | null;
  cacheCreationInputTokens: number | null;
  cacheReadInputTokens: number | null;
  outputTokens: number | null;
  totalInputTokens: number | null;
  firstTotalInputTokens: number | null;
  lastTotalInputTokens: number | null;
  maxTotalInputTokens: number | null;
  outputPlaceholders: number;
  duplicates: number;
  synthetic: number;
  apiErrors: number;
  /** Assistant records with no message or no usage object (listed in health). */
  notRequests: number;
  /** `compact_boundary` and `microcompact_boundary` records in the chain: the requests fall into compactions + 1 segments. */
  compactions: number;
  /** Requests whose output count came from the parent's Task/Agent results: the chain's last, and each leg's last of a resumed subagent. */
  outputFromParent: number;
  /** A subagent chain's Task/Agent result in its parent, when one was joined to it; null otherwise. */
  task: SubagentTask | null;
}

/** A total that would pass 2^53 − 1: named at the request that pushed it over, for health. */
export interface TotalOverflow {
  file: string;
  line: number;
  field: string;
  value: string;
}

export type ChainSource = "file" | "progress";

export type OutputSource = "final-fragment" | "parent-task-result" | "claude-p-result" | "placeholder";
