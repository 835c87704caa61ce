import type { DebugEntry } from "../records/debug.js";

/** The entry a count_tokens request followed, as the log shows it. */
export interface CountTokensBefore {
  line: number;
  kind: string;
  server: string | null;
  /** What it was, in the log's own terms: `MCP tool emit_text completed (41ms)`, `API request /v1/messages (sdk)`. */
  what: string;
}

/** One `/v1/messages/count_tokens` request and what came just before it in the log. */
export interface CountTokensCall {
  line: number;
  time: string | null;
  source: string | null;
  /** The nearest earlier recognised entry that is not itself about count_tokens; null at the start of the log. */
  before: CountTokensBefore | null;
  /** A `countTokens API call failed` line after it, before the next request. */
  failed: string | null;
  /** With a transcript: the tool result whose call was in flight when the request went out. */
  toolResult: { toolUseId: string; tool: string; chars: number | null; file: string; line: number } | null;
}

export interface CountTokensState {
  calls: CountTokensCall[];
  last: CountTokensBefore | null;
  open: CountTokensCall | null;
}

export const emptyCountTokens = (): CountTokensState => ({ calls: [], last: null, open: null });

/**
 * Records what preceded each count_tokens request. Claude Code calls it for a long MCP result
 * (FORMATS.md 2.5), for Read's own size check and in some builds on every turn (section 11), so the
 * log's neighbour is reported as observed, never as the cause.
 */
export function stepCountTokens(s: CountTokensState, e: DebugEntry): void {
  const ev = e.event;
  if (ev.type === "api-request" && ev.countTokens) {
    s.open = { line: e.pos.line, time: e.time, source: ev.source, before: s.last, failed: null, toolResult: null };
    s.calls.push(s.open);
    return;
  }
  if (ev.type === "count-tokens-failed") {
    if (s.open && s.open.failed === null) s.open.failed = firstLine(e.text);
    return;
  }
  if (ev.type === "other") return;
  if (ev.type === "api-request") s.open = null;
  s.last = { line: e.pos.line, kind: ev.type, server: e.server, what: describe(e) };
}

function describe(e: DebugEntry): string {
  const ev = e.event;
  switch (ev.type) {
    case "mcp-tool-done":
      return `MCP tool ${ev.tool} completed (${ev.duration})`;
    case "mcp-tool-failed":
      return `MCP tool ${ev.tool} failed (${ev.duration})`;
    case "api-request":
      return `API request ${ev.path}${ev.source ? ` (${ev.source})` : ""}`;
    case "persisted":
      return `tool result persisted (${ev.size})`;
    default:
      return `${ev.type}: ${firstLine(e.text.replace(/^MCP server "[^"]+":? /, ""))}`;
  }
}

/**
 * The first line, whole: the human formats cut it at render (report/debug-tables.ts, kind `entry`), after
 * `--redact`; cut here, an id the cut split would reach the redactor as a fragment it cannot recognise.
 */
function firstLine(t: string): string {
  const nl = t.indexOf("\n");
  return nl >= 0 ? t.slice(0, nl) : t;
}

/** `after MCP tool emit_text completed ×2, after API request /v1/messages (sdk) ×5`: counts by what preceded. */
export function precededSummary(calls: CountTokensCall[]): string {
  const by = new Map<string, { n: number; chars: number[] }>();
  for (const c of calls) {
    const k =
      c.toolResult !== null
        ? `during a ${c.toolResult.tool} result`
        : c.before === null
          ? "at the start of the log"
          : `after ${c.before.kind === "mcp-tool-done" || c.before.kind === "mcp-tool-failed" ? withoutParenTail(c.before.what) : c.before.kind === "api-request" ? c.before.what : c.before.kind}`;
    const g = by.get(k) ?? { n: 0, chars: [] };
    g.n += 1;
    if (c.toolResult?.chars != null) g.chars.push(c.toolResult.chars);
    by.set(k, g);
  }
  return [...by.entries()]
    .sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]))
    .map(
      ([k, g]) =>
        `${k}${g.chars.length ? ` (${g.chars.map((n) => `${(INT ??= new Intl.NumberFormat("en-US")).format(n)} chars`).join(", ")})` : ""} ×${g.n}`,
    )
    .join(", ");
}

// Made on first use: the first Intl formatter of a process loads ICU data (~25 ms at start-up).
let INT: Intl.NumberFormat | undefined;

export const countTokensFlag = (calls: CountTokensCall[]): string =>
  `${calls.length} /v1/messages/count_tokens request(s): ${precededSummary(calls)}`;

/**
 * Pairs count_tokens requests with the transcript's tool results whose window held them (the outputs
 * join matched them by time), and rewrites the finding to say so. Returns a new result; the input is left as read.
 */
export function joinCountTokens<R extends { countTokens: CountTokensCall[]; flags: string[] }>(
  r: R,
  results: ReadonlyArray<{
    toolUseId: string;
    tool: string;
    resultChars: number | null;
    file: string;
    line: number;
    countTokensLines: number[];
  }>,
): R {
  const byLine = new Map<number, (typeof results)[number]>();
  for (const t of results) for (const l of t.countTokensLines) if (!byLine.has(l)) byLine.set(l, t);
  if (!r.countTokens.some((c) => byLine.has(c.line))) return r;
  const countTokens = r.countTokens.map((c) => {
    const t = byLine.get(c.line);
    // The tool's output size, not the stub the model saw: that is what any size check looked at.
    return t ? { ...c, toolResult: { toolUseId: t.toolUseId, tool: t.tool, chars: t.resultChars, file: t.file, line: t.line } } : c;
  });
  const flags = r.flags.map((f) => (/ \/v1\/messages\/count_tokens request\(s\): /.test(f) ? countTokensFlag(countTokens) : f));
  return { ...r, countTokens, flags };
}

/**
 * The text without a closing ` (…)` that holds no `)` (`emit (16ms)` → `emit`): what `/ \([^)]*\)$/` took
 * off, found with two searches instead of a scan to the end from every ` (`.
 */
export function withoutParenTail(s: string): string {
  if (!s.endsWith(")")) return s;
  const k = s.indexOf(" (", Math.max(0, s.lastIndexOf(")", s.length - 2) - 1));
  return k >= 0 && k <= s.length - 3 ? s.slice(0, k) : s;
}
