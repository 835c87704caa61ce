import type { DebugRecord } from "../records/debug.js";
import { baseName, normalizeServer } from "../records/tool-names.js";
import type { ToolDefsByName, ToolMeta } from "../records/tools-list.js";

/**
 * The debug-log lines that tell what Claude Code did between a tool's return and the next request
 * (FORMATS.md 2.5, 7): `count_tokens` requests of the token check and `Persisted tool result to …`.
 */
export interface DebugFacts {
  path: string;
  countTokens: Array<{ ms: number | null; line: number }>;
  persisted: Array<{ ms: number | null; line: number; path: string; size: string; bytes: number | null }>;
  budget: Array<{ ms: number | null; line: number; persisted: number; shed: string }>;
  /** Entries with a timestamp; without any, time windows cannot be used. */
  timed: number;
}

export function emptyDebugFacts(path: string): DebugFacts {
  return { path, countTokens: [], persisted: [], budget: [], timed: 0 };
}

/** Keeps the few debug events outputs needs; everything else is passed over. */
export function addDebugRecord(f: DebugFacts, r: DebugRecord): void {
  if (r.kind !== "debug") return;
  if (r.ms !== null) f.timed += 1;
  const e = r.event;
  if (e.type === "api-request" && e.countTokens) f.countTokens.push({ ms: r.ms, line: r.pos.line });
  else if (e.type === "persisted") f.persisted.push({ ms: r.ms, line: r.pos.line, path: e.path, size: e.size, bytes: e.bytes });
  else if (e.type === "per-message-budget") f.budget.push({ ms: r.ms, line: r.pos.line, persisted: e.persisted, shed: e.shed });
}

/** What the debug log says about one result: the window runs from the tool_use record to the tool_result record. */
export interface DebugMatch {
  countTokensRequests: number | null;
  countTokensLines: number[];
  persistedLogged: boolean | null;
  persistedSize: string | null;
  persistedLine: number | null;
}

/** Transcript and debug log share one clock (one process); the result record is written after persisting. */
const SLACK_MS = 250;

export function matchDebug(f: DebugFacts | null, savedPath: string | null, startMs: number | null, endMs: number | null): DebugMatch {
  if (f === null)
    return { countTokensRequests: null, countTokensLines: [], persistedLogged: null, persistedSize: null, persistedLine: null };
  const timed = f.timed > 0 && startMs !== null && endMs !== null;
  const ix = indexOf(f);
  const ct = timed ? inWindowOf(ix.countTokens, startMs! - SLACK_MS, endMs! + SLACK_MS).map((i) => f.countTokens[i]!) : [];
  const name = savedPath === null ? null : baseName(savedPath);
  const byName = name !== null ? ix.persistedByName.get(name) : undefined;
  const p =
    byName !== undefined
      ? f.persisted[byName]
      : timed
        ? f.persisted[inWindowOf(ix.persisted, startMs! - SLACK_MS, endMs! + SLACK_MS)[0] ?? -1]
        : undefined;
  return {
    countTokensRequests: timed ? ct.length : null,
    countTokensLines: ct.map((c) => c.line),
    persistedLogged: p !== undefined ? true : name !== null || timed ? false : null,
    persistedSize: p?.size ?? null,
    persistedLine: p?.line ?? null,
  };
}

/** Entries sorted by time, as [ms, index in the log's order]. */
type TimeIndex = Array<[number, number]>;

interface FactsIndex {
  countTokens: TimeIndex;
  persisted: TimeIndex;
  /** Saved-file name → the first `Persisted tool result` line naming it. */
  persistedByName: Map<string, number>;
}

/**
 * One result is matched at a time, but a long session has thousands of results and a long debug log
 * thousands of events: both lists are indexed once (the facts are complete by then) instead of scanned per result.
 */
const indexes = new WeakMap<DebugFacts, { sizes: [number, number]; ix: FactsIndex }>();

function indexOf(f: DebugFacts): FactsIndex {
  const cached = indexes.get(f);
  if (cached && cached.sizes[0] === f.countTokens.length && cached.sizes[1] === f.persisted.length) return cached.ix;
  const timeIndex = (list: Array<{ ms: number | null }>): TimeIndex =>
    list
      .flatMap((x, i): Array<[number, number]> => (x.ms === null || Number.isNaN(x.ms) ? [] : [[x.ms, i]]))
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const persistedByName = new Map<string, number>();
  f.persisted.forEach((x, i) => {
    const n = baseName(x.path);
    if (!persistedByName.has(n)) persistedByName.set(n, i);
  });
  const ix = { countTokens: timeIndex(f.countTokens), persisted: timeIndex(f.persisted), persistedByName };
  indexes.set(f, { sizes: [f.countTokens.length, f.persisted.length], ix });
  return ix;
}

/** Indexes (in the log's order) of the entries with from ≤ ms ≤ to. */
function inWindowOf(ix: TimeIndex, from: number, to: number): number[] {
  let lo = 0;
  let hi = ix.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ix[mid]![0] < from) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let i = lo; i < ix.length && ix[i]![0] <= to; i++) out.push(ix[i]![1]);
  return out.sort((a, b) => a - b);
}

/** Claude Code's persist threshold for tool text without an annotation (FORMATS.md 6.1). */
export const DEFAULT_PERSIST_CHARS = 50_000;

export interface AnnotationMatch {
  /** true: the tool declares `anthropic/maxResultSizeChars`; false: it is listed without; null: tools not known (or ambiguous). */
  annotated: boolean | null;
  maxResultSizeChars: number | null;
  /**
   * Whether the declared limit accounts for the check seen: over it → `size`; within it but over the
   * default 50,000 → `inline`. null when the annotation played no part.
   */
  annotationExplains: boolean | null;
  /**
   * The tools evidence lists this bare name but cannot say it is this server's: several servers of the
   * session call the name and the definition names no server (or this server's definitions disagree).
   * The annotation is then left unknown, not taken from whichever server's list came first.
   */
  annotationAmbiguous: boolean;
}

const UNKNOWN: AnnotationMatch = { annotated: null, maxResultSizeChars: null, annotationExplains: null, annotationAmbiguous: false };
const AMBIGUOUS: AnnotationMatch = { ...UNKNOWN, annotationAmbiguous: true };

/**
 * This server's definition of a bare tool name: one the evidence attributes to the server (a Claude
 * Desktop log's `[server]`, a runs dir's per-server log), else one naming no server, if no other server
 * of the session calls the same name. "ambiguous" when the evidence cannot tell; null when not listed.
 */
export function pickDefinition(
  defs: readonly ToolMeta[] | undefined,
  server: string,
  callers: ReadonlySet<string> | undefined,
): ToolMeta | "ambiguous" | null {
  if (!defs || defs.length === 0) return null;
  const own = defs.filter((d) => d.server != null && normalizeServer(d.server) === server);
  const pick = own.length ? own : defs.filter((d) => d.server == null);
  if (pick.length === 0) return null;
  if (own.length === 0 && [...(callers ?? [])].some((s) => s !== server)) return "ambiguous";
  return pick.every((d) => d.maxResultSizeChars === pick[0]!.maxResultSizeChars) ? pick[0]! : "ambiguous";
}

/**
 * The annotation of `tool` on `server`; `callers` are the servers whose results call this bare name in
 * the session (the outputs join counts them).
 */
export function matchAnnotation(
  tools: ToolDefsByName | null,
  tool: string,
  server: string | null,
  size: number | null,
  check: string,
  callers?: ReadonlySet<string>,
): AnnotationMatch {
  if (tools === null || server === null) return UNKNOWN;
  const t = pickDefinition(tools.get(tool), server, callers);
  if (t === null) return UNKNOWN;
  if (t === "ambiguous") return AMBIGUOUS;
  const m = t.maxResultSizeChars;
  if (m === null) return { annotated: false, maxResultSizeChars: null, annotationExplains: null, annotationAmbiguous: false };
  let explains: boolean | null = null;
  if (size === null) explains = null;
  else if (size > m) explains = check === "size" || check === "budget";
  else if (size > DEFAULT_PERSIST_CHARS) explains = check === "inline";
  return { annotated: true, maxResultSizeChars: m, annotationExplains: explains, annotationAmbiguous: false };
}

/**
 * The debug log's persisted entries with the saved file's own size where the outputs join found the file
 * (by name, as `matchDebug` pairs them): `51.7KB` is one decimal of KB, the file is the byte count.
 */
export function withSavedSizes<P extends { path: string; bytes: number | null; bytesExact: boolean; bytesFrom: string }>(
  persisted: P[],
  rows: ReadonlyArray<{ savedPath: string | null; savedBytes: number | null }>,
): P[] {
  const sizes = new Map<string, number>();
  for (const r of rows) if (r.savedPath !== null && r.savedBytes !== null) sizes.set(baseName(r.savedPath), r.savedBytes);
  if (sizes.size === 0) return persisted;
  return persisted.map((p) => {
    const bytes = sizes.get(baseName(p.path));
    return bytes === undefined ? p : { ...p, bytes, bytesExact: true, bytesFrom: "saved-file" };
  });
}
