import { modelSaw, sizeTextMatches, type Check, type ModelSaw, type Variant } from "../records/tool-output.js";
import { baseName, savedName, splitToolName } from "../records/tool-names.js";
import type { ToolDefsByName } from "../records/tools-list.js";
import type { OutputsCollected, ResultSeen, ToolUseSeen } from "./outputs.js";
import { NameMatcher } from "./name-matcher.js";
import { matchAnnotation, matchDebug, type DebugFacts } from "./outputs-evidence.js";
import type { Compaction, RequestRow } from "./requests.js";

/** A later tool call that names a result's saved file (FORMATS.md 6.3 `followUpReads`). */
export interface FollowUpRead {
  toolUseId: string;
  tool: string;
  chain: string;
  line: number;
  inputSummary: string;
  offset: number | null;
  limit: number | null;
  /** The request that carried this read's own result, and what it grew by. */
  requestIndex: number | null;
  deltaTokens: number | null;
  chars: number | null;
  check: Check | null;
}

/** One tool result: CONTRACT.md `outputs` fields first, extras after. */
export interface ToolResultRow {
  toolUseId: string;
  /** The name as Claude Code called it; "" when no tool_use block of the transcript has this result's id (`paired` false). */
  tool: string;
  server: string | null;
  file: string;
  line: number;
  requestIndex: number | null;
  chars: number;
  utf8Bytes: number;
  fullChars: number | null;
  check: Check;
  savedPath: string | null;
  savedFormat: "json" | "text" | null;
  savedExists: boolean | null;
  /** Why the printed saved path was not looked up (it names a place outside the session's tool-results/); null otherwise. */
  savedSuspicious: string | null;
  reportedSize: string | null;
  reportedChars: number | null;
  deltaTokens: number | null;
  followUpReads: FollowUpRead[];
  // extras
  sessionId: string | null;
  chain: string;
  timestamp: string | null;
  /** The tool's own name (`emit_text` of `mcp__big__emit_text`); "" with `tool`. */
  toolName: string;
  /** false when no tool_use block of the transcript has this result's id: `tool` is then "" (CONTRACT.md: a string), tables say (unknown). */
  paired: boolean;
  plugin: boolean;
  inputSummary: string | null;
  isError: boolean;
  codePoints: number;
  fullUtf8Bytes: number | null;
  images: number;
  /** The output's own size: the transcript's text when nothing replaced it there, else `fullChars`, else the characters a token message reports; null when unknown (legacy/Read errors name tokens only). */
  resultChars: number | null;
  variant: Variant;
  /** For `budget` and `cleared`: what the transcript's own tool_result text classified as. */
  originalCheck: Check | null;
  modelSaw: ModelSaw;
  previewChars: number | null;
  reportedLines: number | null;
  reportedTokens: number | null;
  limit: number | null;
  contentFormat: string | null;
  savedResolvedPath: string | null;
  savedBytes: number | null;
  savedLines: number | null;
  savedNewlines: number | null;
  savedLongestLine: number | null;
  /** `reportedSize` equals the saved file's size in Claude Code's 1024-based notation. */
  reportedSizeMatchesFile: boolean | null;
  requestTotalTokens: number | null;
  /** Tool results the carrying request brought in: above 1 its delta is shared. */
  resultsInRequest: number | null;
  /** The carrying request follows a compaction: its growth is a reset, so `deltaTokens` and `tokensPerChar` are null. */
  afterCompaction: boolean;
  /**
   * That compaction; a boundary after this result's line means the result went into the summary, not into a
   * request as such. With `kind: "rewind"` (afterCompaction false): the result is on a branch a rewind
   * abandoned, and the chain's next request in the file grew from an earlier one, so no request carried it.
   */
  compaction: Compaction | null;
  /**
   * deltaTokens / resultChars: ≈0.39 for inline English filler, ≈2 for CJK, ≈0.02 for a saved result. When the
   * request carried several results, over their summed resultChars (the same for each).
   */
  tokensPerChar: number | null;
  /** Total input of the last request of this chain (the write-up's "final request"). */
  lastRequestTokens: number | null;
  countTokensConsulted: boolean | null;
  countTokensRequests: number | null;
  /** Debug-log lines of the count_tokens requests inside this result's window (tool_use to tool_result). */
  countTokensLines: number[];
  persistedLogged: boolean | null;
  persistedSize: string | null;
  maxResultSizeChars: number | null;
  annotated: boolean | null;
  annotationExplains: boolean | null;
  /** Several servers call this bare tool name and the tools/list evidence cannot say which one it lists: annotation left unknown. */
  annotationAmbiguous: boolean;
  followUpReadCount: number;
  followUpTokens: number | null;
  /** MCP results: the token limit the results are held to (`MAX_MCP_OUTPUT_TOKENS`, 25,000 unless the run's env set it); null for built-in tools. */
  mcpTokenLimit: number | null;
  /**
   * An inline MCP result whose measured cost (`deltaTokens`, its request carrying it alone) exceeds
   * `mcpTokenLimit` while no token check acted on it (no count_tokens request in its window, or no debug
   * log to say): Claude Code counts tokens only when chars/4 > limit/2, so token-dense text (CJK, base64)
   * passes uncounted (FORMATS.md 2.5, seed 003's 49,964-token result). false: measured within the limit,
   * or count_tokens was consulted; null: not an inline MCP result, or its cost is not its own.
   */
  overTokenLimitUnchecked: boolean | null;
}

/** Claude Code's MCP output limit in tokens when `MAX_MCP_OUTPUT_TOKENS` is not set (FORMATS.md 6.1). */
export const DEFAULT_MCP_TOKEN_LIMIT = 25_000;

/** `MAX_MCP_OUTPUT_TOKENS` of a run's environment (run.json `env`) as a limit; null when unset or not a positive integer. */
export function mcpTokenLimitOf(env: Record<string, string> | null | undefined): number | null {
  const v = env?.MAX_MCP_OUTPUT_TOKENS?.trim();
  if (v === undefined || !/^\d+$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** What the command found on disk for one printed saved path. */
export interface SavedLookup {
  resolvedPath: string | null;
  exists: boolean | null;
  suspicious: string | null;
  bytes: number | null;
  lines: number | null;
  newlines: number | null;
  longestLine: number | null;
  format: "json" | "text" | null;
}

export interface OutputEvidence {
  /** Read once, a few fields kept: a spooled list is not held whole. */
  requests: Iterable<RequestRow>;
  saved: Map<string, SavedLookup>;
  debug: DebugFacts | null;
  /** Every definition by bare name (records/tools-list.ts `toolDefsByName`). */
  tools: ToolDefsByName | null;
  /** Server names from outside the transcript (debug log), to split `mcp__a__b__c`. */
  servers?: string[];
  /** `MAX_MCP_OUTPUT_TOKENS` of the run when known (run.json env); else DEFAULT_MCP_TOKEN_LIMIT. */
  mcpTokenLimit?: number | null;
  /** Tool results no request carried because a rewind abandoned their branch (RequestsResult.abandoned). */
  abandoned?: { has(id: string): boolean };
}

/** Joins the pass's results with the request table and the side evidence. Pure. */
export function assembleOutputs(c: OutputsCollected, ev: OutputEvidence): ToolResultRow[] {
  const uses = new Map<string, ToolUseSeen>();
  for (const u of c.toolUses) if (!uses.has(u.id)) uses.set(u.id, u);
  const carry = carrier(ev.requests);
  const known = { servers: [...c.knownServers, ...(ev.servers ?? [])], tools: ev.tools ? [...ev.tools.keys()] : [] };
  const callers = ev.tools ? callersByTool(uses, known) : new Map<string, Set<string>>();
  const rows = c.results.map((r) => baseRow(r, uses.get(r.toolUseId), c, carry(r), known, ev, callers));
  const byId = new Map(rows.map((r) => [r.toolUseId, r]));
  const naming = usesNaming(rows, c.toolUses);
  for (const row of rows) if (row.savedPath !== null) linkReads(row, naming.get(baseName(row.savedPath)) ?? [], byId);
  shareRates(rows);
  return rows;
}

/**
 * A request that carried several results grew once for all of them: each row keeps that growth as its
 * `deltaTokens` (CONTRACT: what the request that carried it grew by), but tok/char is the growth over the
 * results' summed size, the same for each of them. Charging the whole growth to each result's own size made
 * five results in one request read five times their cost; `servers` counts a request once too.
 */
function shareRates(rows: ToolResultRow[]): void {
  const sums = new Map<string, number>();
  const key = (r: ToolResultRow) => `${r.sessionId ?? ""}\0${r.chain}\0${r.requestIndex}`;
  const shared = rows.filter((r) => (r.resultsInRequest ?? 0) > 1 && r.deltaTokens !== null && r.requestIndex !== null);
  for (const r of shared) if (r.resultChars) sums.set(key(r), (sums.get(key(r)) ?? 0) + r.resultChars);
  for (const r of shared) {
    const chars = sums.get(key(r));
    r.tokensPerChar = chars ? r.deltaTokens! / chars : null;
  }
}

/** Saved file name → the tool calls (in order) whose inputs contain it, found in one pass over the calls. */
function usesNaming(rows: ToolResultRow[], all: ToolUseSeen[]): Map<string, ToolUseSeen[]> {
  const names = [...new Set(rows.flatMap((r) => (r.savedPath === null ? [] : [baseName(r.savedPath)])))].filter((n) => n !== "");
  const out = new Map<string, ToolUseSeen[]>();
  if (names.length === 0) return out;
  const matcher = new NameMatcher(names);
  const found = new Set<number>();
  for (const u of all) {
    found.clear();
    for (const s of u.refs) matcher.collect(s, found);
    for (const id of found) {
      const list = out.get(names[id]!);
      if (list) list.push(u);
      else out.set(names[id]!, [u]);
    }
  }
  return out;
}

function baseRow(
  r: ResultSeen,
  use: ToolUseSeen | undefined,
  c: OutputsCollected,
  req: Carried,
  known: { servers: string[]; tools: string[] },
  ev: OutputEvidence,
  callers: Map<string, Set<string>>,
): ToolResultRow {
  const name = use?.name ?? null;
  const split = splitToolName(name ?? "", known);
  // Own keys only: a tool_use id is evidence text, and `constructor` must not read as a replacement.
  const repl = Object.hasOwn(c.replacements, r.toolUseId) ? c.replacements[r.toolUseId] : undefined;
  const seen = repl ?? r;
  const msg = seen.message;
  let check: Check = repl ? "budget" : msg.check;
  let originalCheck: Check | null = repl ? r.message.check : null;
  if (check !== "cleared" && Object.hasOwn(c.cleared, r.toolUseId)) {
    originalCheck = check;
    check = "cleared";
  }
  const resultChars = sizeOf(r);
  const saved = msg.savedPath !== null ? ev.saved.get(msg.savedPath) : undefined;
  const sizeBytes = saved?.bytes ?? null;
  // The times only place a result in a debug log: without one, 30,000 rows need no Date.parse.
  const dbg = matchDebug(ev.debug, msg.savedPath, ev.debug && ms(use?.timestamp), ev.debug && ms(r.timestamp));
  const ann = matchAnnotation(ev.tools, split.tool, split.server, resultChars, check, callers.get(split.tool));
  // requests.ts leaves a reset's delta null; the guard keeps a result from ever being charged with a compaction's drop.
  const next = req?.row;
  // A result on a branch a rewind abandoned: the next request in the file grew from elsewhere (requests
  // counts the result as added to none), so it was carried by no request.
  const abandoned = next?.compaction?.kind === "rewind" && ev.abandoned?.has(r.toolUseId) === true;
  const compaction = next?.afterCompaction || abandoned ? next!.compaction : null;
  // A result written before a compaction's boundary reached the model only through the summary: the
  // request after the boundary did not carry it (requests counts it as added to none).
  const q = abandoned || (compaction?.kind === "compact" && compaction.file === r.file && compaction.line > r.line) ? undefined : next;
  const delta = compaction === null ? (q?.deltaTokens ?? null) : null;
  const tokenLimit = split.server === null ? null : (ev.mcpTokenLimit ?? DEFAULT_MCP_TOKEN_LIMIT);
  const alone = q !== undefined && compaction === null && q.toolResults === 1 ? delta : null;
  return {
    toolUseId: r.toolUseId,
    tool: name ?? "",
    server: split.server,
    file: r.file,
    line: r.line,
    requestIndex: q?.index ?? null,
    chars: seen.chars,
    utf8Bytes: seen.utf8Bytes,
    fullChars: r.fullChars,
    check,
    savedPath: msg.savedPath,
    savedFormat: msg.savedPath === null ? null : (saved?.format ?? formatFromName(msg.savedPath)),
    savedExists: msg.savedPath === null ? null : (saved?.exists ?? null),
    savedSuspicious: saved?.suspicious ?? null,
    reportedSize: msg.reportedSize,
    reportedChars: msg.reportedChars,
    deltaTokens: delta,
    followUpReads: [],
    sessionId: r.sessionId,
    chain: r.chain,
    timestamp: r.timestamp,
    toolName: name === null ? "" : split.tool,
    paired: use !== undefined,
    plugin: split.plugin,
    inputSummary: use?.inputSummary ?? null,
    isError: r.isError,
    codePoints: seen.codePoints,
    fullUtf8Bytes: r.fullUtf8Bytes,
    images: r.images,
    resultChars,
    variant: msg.variant,
    originalCheck,
    modelSaw: check === "cleared" ? "cleared" : modelSaw(msg),
    previewChars: msg.preview?.length ?? null,
    reportedLines: msg.reportedLines,
    reportedTokens: msg.reportedTokens,
    limit: msg.limit,
    contentFormat: msg.contentFormat,
    savedResolvedPath: saved?.resolvedPath ?? null,
    savedBytes: sizeBytes,
    savedLines: saved?.lines ?? null,
    savedNewlines: saved?.newlines ?? null,
    savedLongestLine: saved?.longestLine ?? null,
    reportedSizeMatchesFile: sizeBytes !== null && msg.reportedSize !== null ? sizeTextMatches(msg.reportedSize, sizeBytes) : null,
    requestTotalTokens: q?.totalInputTokens ?? null,
    resultsInRequest: q && compaction === null ? q.toolResults : null,
    afterCompaction: compaction !== null && !abandoned,
    compaction,
    tokensPerChar: delta !== null && resultChars ? delta / resultChars : null,
    lastRequestTokens: req?.lastTotal ?? null,
    countTokensConsulted: dbg.countTokensRequests === null ? null : dbg.countTokensRequests > 0,
    countTokensRequests: dbg.countTokensRequests,
    countTokensLines: dbg.countTokensLines,
    persistedLogged: dbg.persistedLogged,
    persistedSize: dbg.persistedSize,
    // Named, not spread: a spread in the literal put the fields after it out of the object (a property
    // array per row).
    annotated: ann.annotated,
    maxResultSizeChars: ann.maxResultSizeChars,
    annotationExplains: ann.annotationExplains,
    annotationAmbiguous: ann.annotationAmbiguous,
    followUpReadCount: 0,
    followUpTokens: null,
    mcpTokenLimit: tokenLimit,
    overTokenLimitUnchecked:
      tokenLimit === null || check !== "inline" || alone === null ? null : (dbg.countTokensRequests ?? 0) > 0 ? false : alone > tokenLimit,
  };
}

/**
 * Size of the output itself. Unreplaced text in the transcript is the output as sent (Read's numbered
 * lines, not its raw file). Behind a stub, `toolUseResult` has the output, except for errors, where it
 * holds the same message (plus `Error: `): that is no size at all.
 */
function sizeOf(r: ResultSeen): number | null {
  if (r.message.check === "inline") return r.chars;
  const fullIsStub = r.fullChars !== null && r.fullChars <= r.chars + "Error: ".length;
  return (fullIsStub ? null : r.fullChars) ?? r.message.reportedChars;
}

/** The servers whose calls name each bare MCP tool name (`search` → {a, b} for `mcp__a__search`, `mcp__b__search`). */
function callersByTool(uses: Map<string, ToolUseSeen>, known: { servers: string[]; tools: string[] }): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const name of new Set([...uses.values()].map((u) => u.name))) {
    const split = splitToolName(name, known);
    if (split.server === null) continue;
    const s = out.get(split.tool);
    if (s) s.add(split.server);
    else out.set(split.tool, new Set([split.server]));
  }
  return out;
}

/** `.json` → the MCP content array layout; any other name → text (FORMATS.md 6.3). */
function formatFromName(path: string): "json" | "text" {
  return savedName(path).extension === "json" ? "json" : "text";
}

/** What a result's row takes from the request that carried it. */
type Carrier = Pick<
  RequestRow,
  "file" | "chain" | "line" | "index" | "totalInputTokens" | "deltaTokens" | "afterCompaction" | "compaction"
> & {
  toolResults: number;
};

/** The request that carried a result, and its chain's last total. */
type Carried = { row: Carrier; lastTotal: number | null } | undefined;

/**
 * The request that first carried a result: the first new request of the same chain in the same file after
 * the result's line (a result between two fragments of one response goes to the next response, as in
 * requests). By chain too, since one file can hold several chains (a sidechain, another session's records).
 */
function carrier(requests: Iterable<RequestRow>): (r: { file: string; chain: string; line: number }) => Carried {
  const key = (file: string, chain: string) => `${chain}\u0000${file}`;
  const byFile = new Map<string, Carrier[]>();
  const lastTotal = new Map<string, number | null>();
  for (const q of requests) {
    const k = key(q.file, q.chain);
    const l = byFile.get(k) ?? [];
    l.push({
      file: q.file,
      chain: q.chain,
      line: q.line,
      index: q.index,
      totalInputTokens: q.totalInputTokens,
      deltaTokens: q.deltaTokens,
      afterCompaction: q.afterCompaction,
      compaction: q.compaction,
      toolResults: q.added.toolResults,
    });
    byFile.set(k, l);
  }
  for (const l of byFile.values()) {
    l.sort((a, b) => a.line - b.line);
    for (const q of l) lastTotal.set(q.chain, q.totalInputTokens);
  }
  return (r) => {
    const l = byFile.get(key(r.file, r.chain));
    if (!l) return undefined;
    let lo = 0;
    let hi = l.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (l[mid]!.line > r.line) hi = mid;
      else lo = mid + 1;
    }
    const q = l[lo];
    return q ? { row: q, lastTotal: lastTotal.get(q.chain) ?? q.totalInputTokens } : undefined;
  };
}

/** Later calls whose inputs name the saved file (Read file_path, Bash command, Grep path…), given the calls that name it. */
function linkReads(row: ToolResultRow, naming: ToolUseSeen[], byId: Map<string, ToolResultRow>): void {
  const after = (u: ToolUseSeen) => (u.file === row.file ? u.line > row.line : (u.timestamp ?? "") >= (row.timestamp ?? ""));
  const reads = naming.filter((u) => u.id !== row.toolUseId && after(u));
  row.followUpReads = reads.map((u) => {
    const res = byId.get(u.id);
    return {
      toolUseId: u.id,
      tool: u.name,
      chain: u.chain,
      line: u.line,
      inputSummary: u.inputSummary,
      offset: u.offset,
      limit: u.limit,
      requestIndex: res?.requestIndex ?? null,
      deltaTokens: res?.deltaTokens ?? null,
      chars: res?.chars ?? null,
      check: res?.check ?? null,
    };
  });
  row.followUpReadCount = reads.length;
  const perRequest = new Map<string, number>();
  for (const f of row.followUpReads)
    if (f.requestIndex !== null && f.deltaTokens !== null) perRequest.set(`${f.chain}#${f.requestIndex}`, f.deltaTokens);
  row.followUpTokens = perRequest.size ? [...perRequest.values()].reduce((a, b) => a + b, 0) : null;
}

function ms(t: string | null | undefined): number | null {
  if (!t) return null;
  const v = Date.parse(t);
  return Number.isNaN(v) ? null : v;
}
