import { renderAttachment } from "../records/attachments.js";
import { imageCount, visibleText } from "../records/content.js";
import type { AssistantRecord, UserRecord } from "../records/transcript.js";
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
  inputTokens: number;
  cacheCreationInputTokens: number;
  cacheCreation5m: number | null;
  cacheCreation1h: number | null;
  cacheReadInputTokens: number;
  outputTokens: number;
  /** No fragment carried a stop_reason: the output count is a streaming snapshot, not the final figure. */
  outputPlaceholder: boolean;
  stopReason: string | null;
  totalInputTokens: number;
  deltaTokens: number | null;
  /** A compaction boundary lies between the previous request and this one. */
  afterCompaction: boolean;
  /** "chain#index" of the first request with the same id when this one is a copy (fork, progress, resume). */
  duplicateOf: string | null;
  toolUses: Array<{ id: string; name: string }>;
  added: Added;
}

export interface ChainTotals {
  chain: string;
  requests: number;
  inputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  outputTokens: number;
  totalInputTokens: number;
  firstTotalInputTokens: number | null;
  lastTotalInputTokens: number | null;
  maxTotalInputTokens: number | null;
  outputPlaceholders: number;
  duplicates: number;
  synthetic: number;
  apiErrors: number;
}

export interface RequestsResult {
  requests: RequestRow[];
  totals: ChainTotals[];
}

interface ChainState {
  rows: RequestRow[];
  byKey: Map<string, RequestRow>;
  pending: Added;
  compacted: boolean;
  synthetic: number;
  apiErrors: number;
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
    if (!c) s.chains.set(rec.chain, (c = { rows: [], byKey: new Map(), pending: emptyAdded(), compacted: false, synthetic: 0, apiErrors: 0 }));
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
    for (const [chain, c] of s.chains) {
      if (c.rows.length === 0 && c.synthetic === 0 && c.apiErrors === 0) continue;
      let prev: RequestRow | undefined;
      for (const r of c.rows) {
        r.totalInputTokens = r.inputTokens + r.cacheCreationInputTokens + r.cacheReadInputTokens;
        r.deltaTokens = prev ? r.totalInputTokens - prev.totalInputTokens : null;
        prev = r;
        requests.push(r);
      }
      totals.push(totalsOf(chain, c));
    }
    return { requests, totals };
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
  const key = rec.messageId ?? rec.requestId ?? rec.uuid ?? `${rec.pos.file}:${rec.pos.line}`;
  const u = rec.usage;
  let row = c.byKey.get(key);
  if (!row) {
    row = {
      chain: rec.chain, index: c.rows.length + 1, file: rec.pos.file, line: rec.pos.line,
      sessionId: rec.sessionId ?? null, messageId: rec.messageId ?? null, requestId: rec.requestId ?? null,
      model: rec.model ?? null, timestamp: rec.timestamp ?? null, fragments: 0,
      inputTokens: 0, cacheCreationInputTokens: 0, cacheCreation5m: null, cacheCreation1h: null,
      cacheReadInputTokens: 0, outputTokens: 0, outputPlaceholder: true, stopReason: null,
      totalInputTokens: 0, deltaTokens: null, afterCompaction: c.compacted, duplicateOf: null,
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
  if (u) {
    row.inputTokens = Math.max(row.inputTokens, u.inputTokens);
    row.cacheCreationInputTokens = Math.max(row.cacheCreationInputTokens, u.cacheCreationInputTokens);
    row.cacheReadInputTokens = Math.max(row.cacheReadInputTokens, u.cacheReadInputTokens);
    row.outputTokens = Math.max(row.outputTokens, u.outputTokens);
    if (u.cacheCreation5m !== null) row.cacheCreation5m = Math.max(row.cacheCreation5m ?? 0, u.cacheCreation5m);
    if (u.cacheCreation1h !== null) row.cacheCreation1h = Math.max(row.cacheCreation1h ?? 0, u.cacheCreation1h);
  }
  if (rec.stopReason !== null) {
    row.stopReason = rec.stopReason;
    row.outputPlaceholder = false;
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

function totalsOf(chain: string, c: ChainState): ChainTotals {
  const rows = c.rows.filter((r) => r.duplicateOf === null);
  const sum = (f: (r: RequestRow) => number) => rows.reduce((n, r) => n + f(r), 0);
  const totalsIn = rows.map((r) => r.totalInputTokens);
  return {
    chain,
    requests: rows.length,
    inputTokens: sum((r) => r.inputTokens),
    cacheCreationInputTokens: sum((r) => r.cacheCreationInputTokens),
    cacheReadInputTokens: sum((r) => r.cacheReadInputTokens),
    outputTokens: sum((r) => r.outputTokens),
    totalInputTokens: sum((r) => r.totalInputTokens),
    firstTotalInputTokens: totalsIn[0] ?? null,
    lastTotalInputTokens: totalsIn.at(-1) ?? null,
    maxTotalInputTokens: totalsIn.length ? totalsIn.reduce((m, x) => (x > m ? x : m)) : null,
    outputPlaceholders: rows.filter((r) => r.outputPlaceholder).length,
    duplicates: c.rows.length - rows.length,
    synthetic: c.synthetic,
    apiErrors: c.apiErrors,
  };
}

