import { sizeTextExact } from "../records/tool-output.js";
import { lineEndFrom } from "../records/linear-text.js";
import type { DebugEntry, DebugRecord } from "../records/debug.js";
import { bump, newCounts, otherNames, type Counts, type OtherNames } from "../records/counts.js";
import { RowSpool, SpooledRows, type RowList } from "../sources/row-spool.js";
import type { Analysis } from "./analysis.js";
import { debugFlags } from "./debug-flags.js";
import { emptyCountTokens, stepCountTokens, type CountTokensCall, type CountTokensState } from "./debug-count-tokens.js";

export type DebugServerStatus = "connected" | "failed" | "timeout" | "errored" | "needs-auth" | "killed" | "closed" | "started" | "seen";

/** Per-server summary of a debug log (CONTRACT.md `debug.servers`, plus extras). */
export interface DebugServer {
  name: string;
  connectMs: number | null;
  transport: string | null;
  protocolEra: string | null;
  negotiatedProtocolVersion: string | null;
  instructionsTruncatedFrom: number | null;
  instructionsTruncatedTo: number | null;
  serverVersion: unknown;
  /** Time of `Starting connection…` and of `Successfully connected…`. */
  startedAt: string | null;
  connectedAt: string | null;
  /**
   * The last state the log shows (docs/REFERENCE.md, debug): connected; failed or timeout (the last
   * connect attempt failed or timed out, before or after an earlier connect); errored (a connection
   * error, a dropped connection, a close with errors or an unasked-for process exit); needs-auth (the
   * server answered HTTP 401); killed (did not stop on SIGINT: SIGTERM or SIGKILL sent); closed (shut
   * down or exited cleanly, no failure); started (never connected in this log); seen (only mentioned).
   * Only a new connect makes a server connected again.
   */
  status: DebugServerStatus;
  /** `SIGINT → SIGTERM → SIGKILL` when the server had to be forced to stop. */
  forcedShutdown: string | null;
  /** Connected after the first main API request went out: its tools and instructions missed request 1. */
  lateByMs: number | null;
  toolCalls: number;
  toolsDone: number;
  toolsFailed: number;
  toolMs: number;
  /** ERROR-level lines and failures for this server (stderr counted apart). */
  errors: number;
  stderrLines: number;
  lastError: string | null;
  closed: string | null;
}

export interface DebugEvent {
  time: string | null;
  level: string | null;
  kind: string;
  server: string | null;
  text: string;
  line: number;
  offsetMs: number | null;
}

export interface DebugResult {
  entries: number;
  runtimeArm: string | null;
  runtimeArmSource: string | null;
  countTokensCalls: number;
  /** Each count_tokens request with the entry just before it (observed, not a cause). */
  countTokens: CountTokensCall[];
  countTokensFailures: number;
  /** Entries that report a failure: ERROR level, connection errors, forced shutdowns, failed countTokens calls. */
  errors: number;
  servers: DebugServer[];
  /**
   * Past MAX_NAMES (records/counts.ts) distinct server names, a new one gets no row: `serversOther` counts those
   * names and their entries (present only then), so a log naming millions of servers stays bounded.
   */
  serversOther?: OtherNames;
  /**
   * `bytes` is read off the size text (`51.7KB` → 52,941), so it is rounded unless `bytesExact`; `report`
   * puts the saved file's own size there when it found the file (`bytesFrom`).
   */
  persisted: Array<{
    path: string;
    size: string;
    bytes: number | null;
    bytesExact: boolean;
    bytesFrom: "size-text" | "saved-file";
    line: number;
    time: string | null;
  }>;
  /** Every entry, in log order: the first ones in memory, the rest in a temp file (sources/row-spool.ts), streamed when written. */
  events: RowList<DebugEvent>;
  apiRequests: number;
  /** Requests per `source=`, at most MAX_NAMES names; `apiRequestSourcesOther` (present only past them) counts the rest. */
  apiRequestSources: Record<string, number>;
  apiRequestSourcesOther?: OtherNames;
  firstTime: string | null;
  lastTime: string | null;
  levels: Record<string, number>;
  perMessageBudget: Array<{ persisted: number; messages: number; shed: string; reapplied: number; line: number }>;
  flags: string[];
}

interface State {
  r: DebugResult;
  servers: Map<string, DebugServer>;
  /** Entries per server name, capped as every name count is: a server has a row only while its name is listed here. */
  serverEntries: Counts;
  firstMs: number | null;
  firstApiMs: number | null;
  connectedMs: Map<string, number>;
  ct: CountTokensState;
  /** The events so far: a log of any length holds a bounded number of them (and of their text) in memory. */
  events: RowSpool<DebugEvent>;
  eventCount: number;
  /** Servers whose last entry was `Connection timeout triggered …`: the `Connection failed … timed out` after it is that timeout. */
  timedOut: Set<string>;
}

export interface DebugOptions {
  /** Events kept in memory before the rest go to a temp file (sources/row-spool.ts `SPOOL_MEMORY_ROWS` unless given). */
  memoryRows?: number;
  /** Where the temp file goes (tests); `os.tmpdir()` otherwise. */
  spoolDir?: string;
}

/** Characters of event text kept in memory before the rest spill: 5,000 entries of a megabyte each must not stay. */
export const EVENT_MEMORY_CHARS = 8 << 20;

/** Sources of requests that are not the main conversation (title, token counts, quota probes). */
const SIDE_SOURCES = /count_tokens|title|quota|summar|prompt_suggestion|compact|haiku/i;

/** The `debug` reducer, its events spooled as `opts` says. */
export function debugAnalysisWith(opts: DebugOptions = {}): Analysis<State, DebugResult, DebugRecord> {
  return {
    init: () => initState(opts),
    step(s: State, rec: DebugRecord): void {
      if (rec.kind !== "debug") return;
      stepEntry(s, rec);
    },
    finish,
  };
}

export const debugAnalysis: Analysis<State, DebugResult, DebugRecord> = debugAnalysisWith();

function initState(opts: DebugOptions): State {
  const events = new RowSpool<DebugEvent>(opts.memoryRows, opts.spoolDir, EVENT_MEMORY_CHARS);
  return {
    r: {
      // The contract's fields first, in its order.
      entries: 0,
      runtimeArm: null,
      runtimeArmSource: null,
      countTokensCalls: 0,
      servers: [],
      persisted: [],
      events: new SpooledRows(events, 1, 0),
      countTokens: [],
      countTokensFailures: 0,
      errors: 0,
      apiRequests: 0,
      apiRequestSources: newCounts(),
      firstTime: null,
      lastTime: null,
      levels: newCounts(),
      perMessageBudget: [],
      flags: [],
    },
    servers: new Map(),
    serverEntries: newCounts(),
    firstMs: null,
    firstApiMs: null,
    connectedMs: new Map(),
    ct: emptyCountTokens(),
    events,
    eventCount: 0,
    timedOut: new Set(),
  };
}

function finish(s: State): DebugResult {
  const r = s.r;
  r.events = new SpooledRows(s.events, 1, s.eventCount);
  for (const sv of s.servers.values()) {
    const at = s.connectedMs.get(sv.name);
    if (at !== undefined && s.firstApiMs !== null && at > s.firstApiMs) sv.lateByMs = at - s.firstApiMs;
  }
  r.servers = [...s.servers.values()].sort((a, b) => a.name.localeCompare(b.name));
  r.countTokens = s.ct.calls;
  const servers = otherNames(s.serverEntries);
  if (servers !== undefined) r.serversOther = servers;
  const sources = otherNames(r.apiRequestSources);
  if (sources !== undefined) r.apiRequestSourcesOther = sources;
  r.flags = debugFlags(r);
  return r;
}

/** The server's row, made at its first entry; null for a name past the cap (counted in `serversOther`). */
function server(s: State, name: string): DebugServer | null {
  bump(s.serverEntries, name);
  let sv = s.servers.get(name);
  if (!sv && !Object.hasOwn(s.serverEntries, name)) return null;
  if (!sv) {
    sv = {
      name,
      connectMs: null,
      transport: null,
      protocolEra: null,
      negotiatedProtocolVersion: null,
      instructionsTruncatedFrom: null,
      instructionsTruncatedTo: null,
      serverVersion: null,
      startedAt: null,
      connectedAt: null,
      status: "seen",
      forcedShutdown: null,
      lateByMs: null,
      toolCalls: 0,
      toolsDone: 0,
      toolsFailed: 0,
      toolMs: 0,
      errors: 0,
      stderrLines: 0,
      lastError: null,
      closed: null,
    };
    s.servers.set(name, sv);
  }
  return sv;
}

function stepEntry(s: State, e: DebugEntry): void {
  const r = s.r;
  r.entries += 1;
  // Prototype-free (records/counts.ts): a level or source read from the log counts whatever its name. A level is
  // one of five (records/debug.ts); sources are any text, so past MAX_NAMES of them the rest count apart.
  if (e.level) bump(r.levels, e.level, 1, Infinity);
  if (e.time) {
    r.firstTime ??= e.time;
    r.lastTime = e.time;
  }
  if (e.ms !== null) s.firstMs ??= e.ms;
  s.events.push(
    0,
    {
      time: e.time,
      level: e.level,
      kind: e.event.type,
      server: e.server,
      text: e.text,
      line: e.pos.line,
      offsetMs: e.ms !== null && s.firstMs !== null ? e.ms - s.firstMs : null,
    },
    e.text.length,
  );
  s.eventCount += 1;
  const ev = e.event;
  const sv = e.server !== null ? server(s, e.server) : null;
  // Only the server's very next entry can be the failure its timeout line announced.
  const timedOut = sv !== null && s.timedOut.delete(sv.name);
  if (sv && ev.type === "mcp-connection-timeout") s.timedOut.add(sv.name);
  stepCountTokens(s.ct, e);
  if ((e.level === "ERROR" && ev.type !== "mcp-stderr") || FAILURES.has(ev.type)) r.errors += 1;
  if (sv && e.level === "ERROR" && ev.type !== "mcp-stderr") {
    sv.errors += 1;
    sv.lastError = bare(e.text);
  }
  // At ERROR level the line above has counted it already.
  const failure = (text: string) => {
    if (!sv) return;
    if (e.level !== "ERROR") sv.errors += 1;
    sv.lastError = text;
  };
  switch (ev.type) {
    case "mcp-starting":
      if (sv) {
        sv.startedAt ??= e.time;
        if (sv.status === "seen") sv.status = "started";
      }
      break;
    case "mcp-connected":
      if (sv) {
        sv.connectMs = ev.ms;
        sv.transport = ev.transport;
        sv.connectedAt = e.time;
        sv.status = "connected";
        // A new connection: a forced stop of the old one no longer describes where the server ended.
        sv.forcedShutdown = null;
        if (e.ms !== null) s.connectedMs.set(sv.name, e.ms);
      }
      break;
    case "mcp-subscribe":
      // `[MCP] Server "x" connected with subscribe=…` is a connect of its own (a paste may hold only it).
      if (sv && sv.status !== "connected") {
        sv.status = "connected";
        sv.connectedAt ??= e.time;
      }
      break;
    case "mcp-capabilities":
      if (sv) {
        sv.protocolEra = ev.protocolEra ?? sv.protocolEra;
        sv.negotiatedProtocolVersion = ev.negotiatedProtocolVersion ?? sv.negotiatedProtocolVersion;
        sv.serverVersion = ev.serverVersion ?? sv.serverVersion;
      }
      break;
    case "mcp-instructions-truncated":
      if (sv) {
        sv.instructionsTruncatedFrom = ev.from;
        sv.instructionsTruncatedTo = ev.to;
      }
      break;
    case "mcp-connection-failed":
    case "mcp-connection-timeout":
      // Also after a connect: the connection (or the attempt to make it again) is gone. A failure that is the
      // transport's own 401 needs auth; one right after the timeout line is that timeout, said again.
      if (sv && sv.status !== "killed") {
        if (ev.type === "mcp-connection-timeout") sv.status = "timeout";
        else if (isHttp401(ev.error)) sv.status = "needs-auth";
        else if (!(timedOut && sv.status === "timeout")) sv.status = "failed";
      }
      failure(bare(e.text));
      break;
    case "mcp-connection-error":
      if (sv && sv.status !== "killed") sv.status = "errored";
      failure(bare(e.text));
      break;
    case "mcp-error":
      // Most ERROR lines (a failed tool call, a failed resources/list) leave the connection up; a 401 does not.
      if (sv && sv.status !== "killed" && isHttp401(ev.error)) sv.status = "needs-auth";
      break;
    case "mcp-shutdown-forced":
      if (sv) {
        // One forced stop is one failure, however many signals it took.
        if (sv.status !== "killed") {
          sv.errors += e.level === "ERROR" ? 0 : 1;
          r.errors += e.level === "ERROR" ? 0 : 1;
        }
        sv.status = "killed";
        sv.forcedShutdown = sv.forcedShutdown === null ? `${ev.failed} → ${ev.signal}` : `${sv.forcedShutdown} → ${ev.signal}`;
        sv.lastError = bare(e.text);
      }
      break;
    case "mcp-shutdown-error":
      failure(bare(e.text));
      break;
    case "count-tokens-failed":
      r.countTokensFailures += 1;
      break;
    case "mcp-tool-call":
      if (sv) sv.toolCalls += 1;
      break;
    case "mcp-tool-done":
      if (sv) {
        sv.toolsDone += 1;
        sv.toolMs += ev.ms ?? 0;
      }
      break;
    case "mcp-tool-failed":
      if (sv) {
        sv.toolsFailed += 1;
        sv.toolMs += ev.ms ?? 0;
      }
      break;
    case "mcp-stderr":
      if (sv) sv.stderrLines += 1;
      break;
    case "mcp-closing":
      if (sv) ended(sv, ev);
      break;
    case "mcp-connection-closed":
    case "mcp-connection-dropped":
    case "mcp-shutdown":
    case "mcp-process-exited":
      if (sv) {
        sv.closed = bare(e.text);
        ended(sv, ev);
      }
      break;
    case "runtime-arm":
      r.runtimeArm ??= ev.arm;
      r.runtimeArmSource ??= ev.source;
      break;
    case "api-request":
      r.apiRequests += 1;
      if (ev.source) bump(r.apiRequestSources, ev.source);
      if (ev.countTokens) r.countTokensCalls += 1;
      else if (s.firstApiMs === null && e.ms !== null && !SIDE_SOURCES.test(ev.source ?? "")) s.firstApiMs = e.ms;
      break;
    case "persisted":
      r.persisted.push({
        path: ev.path,
        size: ev.size,
        bytes: ev.bytes,
        bytesExact: ev.bytes !== null && sizeTextExact(ev.size),
        bytesFrom: "size-text",
        line: e.pos.line,
        time: e.time,
      });
      break;
    case "per-message-budget":
      r.perMessageBudget.push({ persisted: ev.persisted, messages: ev.messages, shed: ev.shed, reapplied: ev.reapplied, line: e.pos.line });
      break;
    default:
      break;
  }
}

/**
 * The transport's own 401 (`Streamable HTTP error: … (HTTP 401)`, an SSE error with 401): the server wants
 * (new) credentials and every later request fails too. A 401 named anywhere else (a tool whose upstream
 * API refused it: "upstream returned 401 Unauthorized") is a failed call, and the connection stays up.
 */
const HTTP_401_HEAD = /\b(?:Streamable HTTP|SSE) error\b/gi;

/**
 * `/\b(?:Streamable HTTP|SSE) error\b.*(?:\(HTTP 401\)|\bHTTP 401\b|\b401\b)/i` (each 401 form holds
 * `\b401\b`), one line at a time: the regex read the rest of the line again after every `SSE error`.
 */
export function isHttp401(error: string): boolean {
  HTTP_401_HEAD.lastIndex = 0;
  for (let m = HTTP_401_HEAD.exec(error); m; m = HTTP_401_HEAD.exec(error)) {
    const from = m.index + m[0].length;
    const end = lineEndFrom(error, from);
    if (/\b401\b/.test(error.slice(from, end))) return true;
    // A later head on the same line sees less of it.
    HTTP_401_HEAD.lastIndex = end;
  }
  return false;
}

/**
 * The end of a connection that was up: an end nobody asked for (dropped, closed with errors, a
 * transport closed on an error, the process exiting other than cleanly before any shutdown) is
 * errored; an asked-for or clean end is closed. A failure already shown (errored, killed, …) stays.
 */
function ended(sv: DebugServer, ev: DebugEntry["event"]): void {
  // Before any connect `started` says more (the flag says it never connected); after a failure, the failure does.
  if (sv.status !== "connected" && sv.status !== "closed") return;
  const shuttingDown = sv.status === "closed";
  if (ev.type === "mcp-connection-dropped") sv.status = "errored";
  else if (ev.type === "mcp-closing") sv.status = /error/i.test(ev.reason) && !shuttingDown ? "errored" : "closed";
  else if (ev.type === "mcp-connection-closed") sv.status = ev.clean || shuttingDown ? "closed" : "errored";
  else if (ev.type === "mcp-process-exited") sv.status = /^cleanly\b/i.test(ev.how) || shuttingDown ? "closed" : "errored";
  else sv.status = "closed";
}

/** Event kinds that are failures whatever their level (Claude Code logs most of them at DEBUG). */
const FAILURES = new Set([
  "mcp-connection-failed",
  "mcp-connection-timeout",
  "mcp-connection-error",
  "mcp-shutdown-error",
  "count-tokens-failed",
  "mcp-tool-failed",
]);

/** The message without its `MCP server "x"` prefix. */
const bare = (text: string) => text.replace(/^MCP server "[^"]+":? /, "");
