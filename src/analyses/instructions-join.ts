import { measureText, type SectionEnd, type Uncertain } from "../records/mcp-instructions.js";
import type { McpServerStatus } from "../records/streamjson.js";
import { appearsIn, PLACES, type PendingNote, type Place } from "./instructions-evidence.js";
import type { Carrier, ChainPosition, InstructionsScan, Sighting } from "./instructions.js";
import { extractProbe, type Probe, type ProbePatterns } from "./probe.js";
import type { Compaction, RequestRow, RequestsResult } from "./requests.js";

/** A `Server instructions truncated from N to M chars` debug line (FORMATS.md 7). */
export interface Truncation {
  server: string;
  from: number;
  to: number;
  file: string;
  line: number;
  ms: number | null;
}

export interface DebugCheck {
  file: string;
  line: number | null;
  from: number | null;
  to: number | null;
  status: "match" | "mismatch";
  problem: string | null;
}

export interface LateServer {
  /** Requests of the chain that went out before the one that carried the text. */
  missedRequests: number;
  firstMissed: number;
  lastMissed: number;
  /** No request followed the delivery: the text never reached the model. */
  neverSent: boolean;
  evidence: string[];
}

/** Where a row's `sourceChars` came from: the debug log's truncation line, or a message log's initialize/discover result. */
export type SourceFrom = "debug-log" | "rpc-log";

/** One row of `instructions` (CONTRACT.md fields first, extras after). */
export interface InstructionRow {
  server: string;
  carrier: Carrier;
  file: string;
  line: number;
  requestIndex: number | null;
  chars: number;
  codePoints: number;
  utf8Bytes: number;
  truncated: boolean;
  keptChars: number | null;
  sourceChars: number | null;
  removed: boolean;
  probe: Probe | null;
  /** Which evidence gave `sourceChars`: the debug log first, else a message log's initialize/discover result. */
  sourceFrom: SourceFrom | null;
  /** The message log's answer that gave `sourceChars`, when it did. */
  messageLog: { file: string; line: number; method: string | null; chars: number } | null;
  /**
   * Whether what arrived is the server's text verbatim: the chars before the marker equal the sent
   * text's first chars (a whole text: equals it). null when the sent text is unknown (no message log for the server).
   */
  verbatimPrefix: boolean | null;
  /** Where the delivered text first leaves the sent one (0-based, in chars); null when verbatim or unknown. */
  firstDifferenceAt: number | null;
  /** The logged answer the text was held against. */
  verbatimAgainst: { file: string; line: number; method: string | null; chars: number } | null;
  /** `## ` lines kept inside the text as the server's own markdown (not read as other servers' headings). */
  innerHeadings: string[];
  /**
   * How the rendered section holding the text was found to end: `reminder` (its close), in a system prompt
   * `sent-text` (the last server's sent text, from a message log), `next-section` (a section Claude Code puts
   * after it), `text-end` (the end of the system block); null for a delta.
   */
  sectionEnd: SectionEnd | null;
  /**
   * This text's size rests on a line that may be the server's own (records/mcp-instructions.ts `Uncertain`): it
   * ran to the end of its system block past a top-level heading no Claude Code section has, or ended at (or ran
   * past) a heading a Claude Code section has, or a `## <server>` line in doubt opened its block or cut it short.
   */
  endUncertain: boolean;
  /** That line (`# Notes`, `# Environment`, `## docs`), or null. */
  uncertainHeading: string | null;
  /** Why: `unknown-heading`, `section-heading`, `past-section-heading`, `server-heading`; null when certain. */
  uncertainWhy: Uncertain["why"] | null;
  chain: string;
  /** The carrier record's uuid, or null (a system prompt, a record without one). */
  uuid: string | null;
  timestamp: string | null;
  where: string;
  /** 1-based count of this server's deliveries in the chain; `changed` compares with the previous one. */
  delivery: number;
  changed: boolean | null;
  keptCodePoints: number | null;
  keptUtf8Bytes: number | null;
  splitSurrogate: boolean;
  blockChars: number | null;
  renderedChars: number | null;
  renderedSource: Sighting["renderedSource"];
  renderedDisagrees: boolean;
  serversInCarrier: string[];
  position: ChainPosition | null;
  initStatus: string | null;
  late: LateServer | null;
  debugLog: DebugCheck | null;
  notAppearingIn: Place[];
  alsoAppearingIn: Place[];
  answerMatches: boolean | null;
  /** A compaction came between this delivery and the next request: the text went into the summary, no request carried it (`requestIndex` null). */
  compaction: Compaction | null;
  baselineDeltaTokens: number | null;
  tokensPerChar: number | null;
  textCharsPerToken: number | null;
}

export interface JoinContext {
  probe: ProbePatterns;
  debug: { file: string; truncations: Truncation[] } | null;
  init: { file: string; servers: McpServerStatus[] } | null;
}

/** Builds the rows: sizes, probe, request, position, the debug log's word and the other places checked. */
export function joinRows(scan: InstructionsScan, requests: RequestsResult, ctx: JoinContext): InstructionRow[] {
  // One read of the requests, keeping of each only what the join uses: not toArray(), nor the rows
  // themselves, which held every spooled row twice over while joining (the peak of report at 1 GB).
  const perChain = new Map<string, number>();
  const groups = new Map<string, RequestAt[]>();
  for (const r of requests.requests) {
    perChain.set(r.chain, (perChain.get(r.chain) ?? 0) + 1);
    const k = `${r.chain}\u0000${r.file}`;
    const at: RequestAt = { line: r.line, index: r.index, compaction: r.compaction };
    const g = groups.get(k);
    if (g) g.push(at);
    else groups.set(k, [at]);
  }
  const next = nextRequest(groups);
  const seen = new Map<string, { n: number; text: string | null }>();
  const rows = scan.sightings.map((s) => {
    const found = next(s);
    const compaction = found && found.compaction && summarised(found.compaction, s) ? found.compaction : null;
    const req = compaction ? null : found;
    const key = `${s.chain}\u0000${s.server}`;
    const prev = seen.get(key);
    const delivery = (prev?.n ?? 0) + 1;
    if (!s.removed) seen.set(key, { n: delivery, text: s.text });
    else seen.set(key, { n: delivery, text: prev?.text ?? null });
    const row = toRow(s, req, delivery, s.removed || !prev || prev.text === null ? null : prev.text !== s.text, ctx, scan);
    row.compaction = compaction;
    return row;
  });
  markLate(rows, scan, perChain, ctx);
  checkDebug(rows, ctx);
  return rows;
}

/** The boundary lies after the delivery: what came before it reached the model only through the summary. */
function summarised(c: Compaction, s: { file: string; line: number }): boolean {
  // A microcompaction clears old tool results only: the instructions are sent again as they were.
  return c.kind === "compact" && c.file === s.file && c.line > s.line;
}

/** What the join reads of a request. */
type RequestAt = Pick<RequestRow, "line" | "index" | "compaction">;

/**
 * The first request of the sighting's chain and file that starts after its line. Requests of one file
 * come in line order, so a binary search per sighting replaces a scan of the chain's requests.
 */
function nextRequest(groups: Map<string, RequestAt[]>): (s: { chain: string; file: string; line: number }) => RequestAt | null {
  return (s) => {
    const g = groups.get(`${s.chain}\u0000${s.file}`);
    if (!g) return null;
    let lo = 0;
    let hi = g.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (g[mid]!.line > s.line) hi = mid;
      else lo = mid + 1;
    }
    return g[lo] ?? null;
  };
}

function toRow(
  s: Sighting,
  req: RequestAt | null,
  delivery: number,
  changed: boolean | null,
  ctx: JoinContext,
  scan: InstructionsScan,
): InstructionRow {
  const size = s.text === null ? null : measureText(s.text);
  const needles = s.text === null ? [] : needlesOf(s.text, ctx.probe);
  const ev = scan.evidence.get(s.chain);
  const also: Place[] = [];
  const not: Place[] = [];
  for (const place of PLACES) {
    if (s.removed || place === s.carrier) continue;
    const hit = appearsIn(ev, place, place === "system-prompt" ? [...needles, "# MCP Server Instructions"] : needles);
    if (hit === true) also.push(place);
    else if (hit === false) not.push(place);
  }
  return {
    server: s.server,
    carrier: s.carrier,
    file: s.file,
    line: s.line,
    requestIndex: req?.index ?? null,
    chars: size?.chars ?? 0,
    codePoints: size?.codePoints ?? 0,
    utf8Bytes: size?.utf8Bytes ?? 0,
    truncated: size?.truncated ?? false,
    keptChars: size?.keptChars ?? null,
    sourceChars: null,
    removed: s.removed,
    probe: s.text === null ? null : extractProbe(s.text, ctx.probe),
    sourceFrom: null,
    messageLog: null,
    verbatimPrefix: null,
    firstDifferenceAt: null,
    verbatimAgainst: null,
    innerHeadings: s.innerHeadings,
    sectionEnd: s.sectionEnd,
    endUncertain: s.uncertainHeading !== null,
    uncertainHeading: s.uncertainHeading,
    uncertainWhy: s.uncertainWhy,
    chain: s.chain,
    uuid: s.uuid,
    timestamp: s.timestamp,
    where: s.where,
    delivery,
    changed,
    keptCodePoints: size?.keptCodePoints ?? null,
    keptUtf8Bytes: size?.keptUtf8Bytes ?? null,
    splitSurrogate: size?.splitSurrogate ?? false,
    blockChars: s.block?.length ?? null,
    renderedChars: s.renderedChars,
    renderedSource: s.renderedSource,
    renderedDisagrees: s.renderedDisagrees,
    serversInCarrier: s.serversInCarrier,
    position: s.position,
    initStatus: ctx.init?.servers.find((x) => x.name === s.server)?.status ?? null,
    late: null,
    debugLog: null,
    notAppearingIn: not,
    alsoAppearingIn: also,
    answerMatches: null,
    compaction: null,
    baselineDeltaTokens: null,
    tokensPerChar: null,
    textCharsPerToken: null,
  };
}

/** What to look for elsewhere: the probe codewords when the text has them, else its opening words. */
function needlesOf(text: string, p: ProbePatterns): string[] {
  const probe = extractProbe(text, p);
  const words = [probe?.begin, probe?.end].filter((x): x is string => !!x);
  return words.length > 0 ? words : [text.trim().slice(0, 80)];
}

/**
 * A server's first delivery that rode on request k > 1: requests 1..k-1 went out without it
 * (FORMATS.md 2.4). The init event's `pending` and the deferred-tools note are the evidence.
 */
function markLate(rows: InstructionRow[], scan: InstructionsScan, perChain: Map<string, number>, ctx: JoinContext): void {
  const first = new Set<string>();
  for (const r of rows) {
    const key = `${r.chain}\u0000${r.server}`;
    if (r.removed || first.has(key)) continue;
    first.add(key);
    // Compacted before any request carried it: whether it was late is not what the evidence shows.
    if (r.compaction !== null) continue;
    const total = perChain.get(r.chain) ?? 0;
    const missed = r.requestIndex === null ? total : r.requestIndex - 1;
    if (missed <= 0) continue;
    const evidence: string[] = [];
    if (r.initStatus !== null && r.initStatus !== "connected" && ctx.init) evidence.push(`init event: ${r.initStatus}`);
    for (const n of scan.evidence.get(r.chain)?.pendingNotes ?? []) {
      if (n.file === r.file && n.line < r.line && n.servers.includes(r.server)) evidence.push(pendingEvidence(n));
    }
    r.late = { missedRequests: missed, firstMissed: 1, lastMissed: missed, neverSent: r.requestIndex === null, evidence };
  }
}

/** How a deferred-tools list named a server as still connecting. */
export function pendingEvidence(n: PendingNote): string {
  return `deferred-tools list at line ${n.line}: ${n.sources.join(" + ")}`;
}

// Made on first use: the first Intl formatter of a process loads ICU data (~25 ms at start-up).
let intl: Intl.NumberFormat | undefined;
const INT = { format: (n: number) => (intl ??= new Intl.NumberFormat("en-US")).format(n) };

/**
 * Pairs truncated texts with the log's truncation lines per server, in order (the latest line not after
 * the delivery when both have times). `sourceChars` comes from the log; disagreements are flagged.
 */
function checkDebug(rows: InstructionRow[], ctx: JoinContext): void {
  if (!ctx.debug) return;
  const file = ctx.debug.file;
  const unused = [...ctx.debug.truncations];
  const take = (r: InstructionRow): Truncation | undefined => {
    const cands = unused.filter((t) => t.server === r.server);
    const at = r.timestamp ? Date.parse(r.timestamp) : NaN;
    const before = cands.filter((t) => t.ms !== null && !Number.isNaN(at) && t.ms <= at);
    const pick = before.at(-1) ?? cands[0];
    if (pick) unused.splice(unused.indexOf(pick), 1);
    return pick;
  };
  for (const r of rows.filter((x) => x.truncated)) {
    const t = take(r);
    if (!t) {
      r.debugLog = {
        file,
        line: null,
        from: null,
        to: null,
        status: "mismatch",
        problem: "the transcript text is truncated but the log has no truncation line for this server",
      };
      continue;
    }
    r.sourceChars = t.from;
    r.sourceFrom = "debug-log";
    const ok = t.to === r.keptChars;
    r.debugLog = {
      file,
      line: t.line,
      from: t.from,
      to: t.to,
      status: ok ? "match" : "mismatch",
      problem: ok ? null : `the log says cut to ${INT.format(t.to)} chars, the transcript kept ${INT.format(r.keptChars ?? 0)}`,
    };
  }
  for (const r of rows.filter((x) => !x.truncated && !x.removed)) {
    const t = unused.find((x) => x.server === r.server);
    if (!t) {
      r.debugLog = { file, line: null, from: null, to: null, status: "match", problem: null };
      continue;
    }
    unused.splice(unused.indexOf(t), 1);
    r.debugLog = {
      file,
      line: t.line,
      from: t.from,
      to: t.to,
      status: "mismatch",
      problem: `the log says truncated from ${INT.format(t.from)} to ${INT.format(t.to)} chars, the transcript text is whole (${INT.format(r.chars)} chars)`,
    };
  }
}
