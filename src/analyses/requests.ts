import { renderAttachment } from "../records/attachments.js";
import { imageCount, visibleText } from "../records/content.js";
import type { AssistantRecord, UserRecord } from "../records/transcript.js";
import { addCounts } from "../records/values.js";
import type { Analysis } from "./analysis.js";

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
  /** A compaction boundary lies between the previous request and this one. */
  afterCompaction: boolean;
  /** "chain#index" of the first request with the same id when this one is a copy (fork, progress, resume). */
  duplicateOf: string | null;
  toolUses: Array<{ id: string; name: string }>;
  added: Added;
}

export type OutputSource = "final-fragment" | "parent-task-result" | "claude-p-result" | "placeholder";

/** Sums over the chain's requests whose value is known; null only when a sum would pass 2^53 − 1 (see `overflows`). */
export interface ChainTotals {
  chain: string;
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
}

/** A total that would pass 2^53 − 1: named at the request that pushed it over, for health. */
export interface TotalOverflow {
  file: string;
  line: number;
  field: string;
  value: string;
}

export interface RequestsResult {
  requests: RequestRow[];
  totals: ChainTotals[];
  overflows: TotalOverflow[];
}

interface ChainState {
  rows: RequestRow[];
  byKey: Map<string, RequestRow>;
  pending: Added;
  compacted: boolean;
  synthetic: number;
  apiErrors: number;
  notRequests: number;
}

interface State {
  chains: Map<string, ChainState>;
  /** message id → "chain#index" of its first appearance, across chains. */
  seen: Map<string, string>;
}

const emptyAdded = (): Added => ({
  toolResults: 0, toolResultChars: 0, userTextChars: 0, attachments: 0, attachmentChars: 0,
  attachmentCharsExact: true, metaTextChars: 0, images: 0, attachmentKinds: [],
});

export const requestsAnalysis: Analysis<State, RequestsResult> = {
  id: "requests",
  init: () => ({ chains: new Map(), seen: new Map() }),
  step(s, rec) {
    if (rec.kind === "malformed") return;
    let c = s.chains.get(rec.chain);
    if (!c) s.chains.set(rec.chain, (c = { rows: [], byKey: new Map(), pending: emptyAdded(), compacted: false, synthetic: 0, apiErrors: 0, notRequests: 0 }));
    switch (rec.kind) {
      case "assistant":
        onAssistant(s, c, rec);
        break;
      case "user":
        onUser(c.pending, rec);
        break;
      case "attachment": {
        const r = renderAttachment(rec.attachment, rec.raw);
        c.pending.attachments += 1;
        c.pending.attachmentChars += r.text.length;
        if (!r.exact) c.pending.attachmentCharsExact = false;
        if (!c.pending.attachmentKinds.includes(rec.attachmentType)) c.pending.attachmentKinds.push(rec.attachmentType);
        break;
      }
      case "system":
        if (rec.subtype === "compact_boundary") c.compacted = true;
        break;
      default:
        break;
    }
  },
  finish(s) {
    const requests: RequestRow[] = [];
    const totals: ChainTotals[] = [];
    const overflows: TotalOverflow[] = [];
    for (const [chain, c] of s.chains) {
      if (c.rows.length === 0 && c.synthetic === 0 && c.apiErrors === 0 && c.notRequests === 0) continue;
      let prev: RequestRow | undefined;
      for (const r of c.rows) {
        r.totalInputTokens = addCounts(addCounts(r.inputTokens, r.cacheCreationInputTokens), r.cacheReadInputTokens);
        r.deltaTokens = prev && prev.totalInputTokens !== null && r.totalInputTokens !== null ? r.totalInputTokens - prev.totalInputTokens : null;
        prev = r;
        requests.push(r);
      }
      totals.push(totalsOf(chain, c, overflows));
    }
    return { requests, totals, overflows };
  },
};

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
  let row = c.byKey.get(key);
  if (!row) {
    row = {
      chain: rec.chain, index: c.rows.length + 1, file: rec.pos.file, line: rec.pos.line,
      sessionId: rec.sessionId ?? null, messageId: rec.messageId ?? null, requestId: rec.requestId ?? null,
      model: rec.model ?? null, timestamp: rec.timestamp ?? null, fragments: 0,
      inputTokens: null, cacheCreationInputTokens: null, cacheCreation5m: null, cacheCreation1h: null,
      cacheReadInputTokens: null, outputTokens: null, outputTokensRecorded: null, outputSource: "placeholder", outputPlaceholder: true, stopReason: null,
      totalInputTokens: null, deltaTokens: null, afterCompaction: c.compacted, duplicateOf: null,
      toolUses: [], added: c.pending,
    };
    const first = rec.messageId ? s.seen.get(rec.messageId) : undefined;
    if (first) row.duplicateOf = first;
    else if (rec.messageId) s.seen.set(rec.messageId, `${rec.chain}#${row.index}`);
    c.byKey.set(key, row);
    c.rows.push(row);
    c.pending = emptyAdded();
    c.compacted = false;
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

function onUser(a: Added, rec: UserRecord): void {
  const content = rec.content;
  if (typeof content === "string") {
    if (rec.isMeta) a.metaTextChars += content.length;
    else a.userTextChars += content.length;
    return;
  }
  for (const b of content ?? []) {
    if (b.type === "tool_result") {
      a.toolResults += 1;
      a.toolResultChars += visibleText(b.content).length;
      a.images += imageCount(b.content);
    } else if (b.type === "text" && typeof b.text === "string") {
      if (rec.isMeta) a.metaTextChars += b.text.length;
      else a.userTextChars += b.text.length;
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

function totalsOf(chain: string, c: ChainState, overflows: TotalOverflow[]): ChainTotals {
  const rows = c.rows.filter((r) => r.duplicateOf === null);
  const sum = (field: string, f: (r: RequestRow) => number | null): number | null => {
    let n = 0;
    for (const r of rows) {
      const v = f(r);
      if (v === null) continue;
      if (!Number.isSafeInteger(n + v)) {
        overflows.push({ file: r.file, line: r.line, field: `totals.${field} (chain ${chain})`, value: "sum passes 2^53 − 1" });
        return null;
      }
      n += v;
    }
    return n;
  };
  const totalsIn = rows.map((r) => r.totalInputTokens).filter((x): x is number => x !== null);
  return {
    chain,
    requests: rows.length,
    inputTokens: sum("inputTokens", (r) => r.inputTokens),
    cacheCreationInputTokens: sum("cacheCreationInputTokens", (r) => r.cacheCreationInputTokens),
    cacheReadInputTokens: sum("cacheReadInputTokens", (r) => r.cacheReadInputTokens),
    outputTokens: sum("outputTokens", (r) => r.outputTokens),
    totalInputTokens: sum("totalInputTokens", (r) => r.totalInputTokens),
    firstTotalInputTokens: rows[0]?.totalInputTokens ?? null,
    lastTotalInputTokens: rows.at(-1)?.totalInputTokens ?? null,
    maxTotalInputTokens: totalsIn.length ? totalsIn.reduce((m, x) => (x > m ? x : m)) : null,
    outputPlaceholders: rows.filter((r) => r.outputPlaceholder).length,
    duplicates: c.rows.length - rows.length,
    synthetic: c.synthetic,
    apiErrors: c.apiErrors,
    notRequests: c.notRequests,
  };
}
