import { depthExceeds, isObject, MAX_DEPTH, parseJsonBounded } from "./json.js";
import { lineEndFrom } from "./linear-text.js";

/**
 * Typed events of a Claude Code debug-log message (FORMATS.md section 7). MCP lines are matched on
 * the `rest` after `MCP server "<name>"` (colon at DEBUG, none at ERROR); unknown lines are `other`.
 */
export type DebugEvent =
  | { type: "mcp-starting"; timeoutMs: number }
  | { type: "mcp-connected"; ms: number; transport: string | null }
  | {
      type: "mcp-capabilities";
      capabilities: Record<string, unknown> | null;
      protocolEra: string | null;
      negotiatedProtocolVersion: string | null;
      serverVersion: unknown;
    }
  | { type: "mcp-instructions-truncated"; from: number; to: number }
  | { type: "mcp-connection-failed"; ms: number | null; error: string }
  | { type: "mcp-connection-timeout"; ms: number; limitMs: number | null }
  | { type: "mcp-connection-dropped"; transport: string; uptimeS: number }
  | { type: "mcp-connection-closed"; transport: string; uptimeS: number; clean: boolean }
  | { type: "mcp-closing"; reason: string }
  | { type: "mcp-shutdown"; signal: string | null }
  /** `SIGINT failed, sending SIGTERM …`, `SIGTERM failed, sending SIGKILL …`: the server did not stop when asked. */
  | { type: "mcp-shutdown-forced"; failed: string; signal: string }
  | { type: "mcp-shutdown-error"; signal: string; error: string }
  /** `MCP server process exited cleanly`, `… exited with code 1`. */
  | { type: "mcp-process-exited"; how: string }
  /** The transport's onerror: `Connection error: <message>` (a ZodError's message is a multi-line JSON array), or its named forms (`Connection reset - …`). */
  | { type: "mcp-connection-error"; error: string }
  | { type: "mcp-subscribe"; subscribe: boolean }
  | { type: "mcp-stderr"; text: string }
  | { type: "mcp-tool-call"; tool: string }
  | { type: "mcp-tool-done"; tool: string; duration: string; ms: number | null }
  | { type: "mcp-tool-failed"; tool: string; duration: string; ms: number | null; error: string }
  | { type: "mcp-tool-running"; tool: string; duration: string; ms: number | null }
  /** Any other ERROR-level `MCP server "x" …` line (the error form has no colon). */
  | { type: "mcp-error"; error: string }
  | { type: "mcp-nonblocking"; what: string }
  | { type: "runtime-arm"; arm: string; source: string }
  | { type: "runtime-arm-invalid"; value: string }
  | { type: "api-request"; path: string; clientRequestId: string | null; source: string | null; countTokens: boolean }
  | { type: "persisted"; path: string; size: string; bytes: number | null }
  /** `countTokens API call failed: 404 …`: a token count Claude Code asked for and did not get. */
  | { type: "count-tokens-failed"; status: number | null; error: string }
  | { type: "per-message-budget"; persisted: number; messages: number; shed: string; reapplied: number }
  | { type: "startup"; what: string; ms: number | null }
  | { type: "other" };

export type DebugEventType = DebugEvent["type"];

export const MCP_PREFIX = /^MCP server "(?<server>[^"]+)"(?<colon>:)? (?<rest>[\s\S]*)$/;
/** `[MCP] Server "x" connected with subscribe=…` names its server the other way round. */
const MCP_TAG_SERVER = /^\[MCP\] Server "(?<server>[^"]+)"/;

export const RX = {
  starting: /^Starting connection with timeout of (?<ms>\d+)ms$/,
  connected: /^Successfully connected (?:\(transport: (?<t>[\w-]+)\)|to (?<t2>[\w-]+) server) in (?<ms>\d+)ms$/,
  capabilities: /^Connection established with capabilities:\s*(?<json>\{[\s\S]*\})\s*$/,
  truncated: /^Server instructions truncated from (?<from>\d+) to (?<to>\d+) chars$/,
  failed: /^(?:(?:HTTP|SSE|claude\.ai proxy) )?[Cc]onnection failed(?: after (?<ms>\d+)ms)?(?:: | \((?<code>[^)]*)\):? ?)?(?<err>[\s\S]*)$/,
  timeout: /^Connection timeout triggered after (?<ms>\d+)ms(?: \(limit: (?<limit>\d+)ms\))?$/,
  dropped: /^(?<t>[A-Z][\w-]*) connection dropped after (?<s>\d+)s uptime$/,
  closed: /^(?<t>[A-Z][\w-]*) connection closed after (?<s>\d+)s \((?<how>cleanly|with errors)\)$/,
  closing: /^Closing transport \((?<reason>.*)\)$/,
  shutdown: /^(?:Sending (?<sig>SIG[A-Z]+) to|Terminating) MCP server process/,
  forced: /^(?<failed>SIG[A-Z]+) failed, sending (?<sig>SIG[A-Z]+) to MCP server process/,
  shutdownError: /^Error sending (?<sig>SIG[A-Z]+): (?<err>[\s\S]*)$/,
  exited: /^(?:MCP server )?process exited(?<how>[\s\S]*)$/i,
  connectionError: /^Connection error: (?<err>[\s\S]*)$/,
  connectionErrorNamed:
    /^(?:Connection (?:reset|timeout|refused)|Broken pipe|Host unreachable|Process not found|Failed to spawn process) - [\s\S]*$/,
  subscribe: /^\[MCP\] Server "[^"]+" connected with subscribe=(?<sub>true|false)\s*$/,
  countTokensFailed: /^countTokens API call failed:?\s*(?<status>\d{3})?\b\s*(?<err>[\s\S]*)$/,
  stderr: /^Server stderr: (?<text>[\s\S]*)$/,
  toolCall: /^Calling MCP tool: (?<tool>.+)$/,
  nonblocking: /^\[MCP\] (?<what>.+) running fully async \(nonblocking\)$/,
  runtimeArm: /^mcp runtime arm: (?<arm>v[12]) \(source: (?<src>\w+)\)$/,
  runtimeArmInvalid: /^MCP_SDK_GENERATION=(?<v>.*) is invalid/,
  apiRequest: /^\[API REQUEST\] (?<path>\/\S*)(?: x-client-request-id=(?<rid>\S+))?(?: source=(?<source>\S+))?$/,
  countTokens: /\/v1\/messages\/count_tokens/,
  budget:
    /^Per-message budget: persisted (?<n>\d+) tool results? across (?<m>\d+) over-budget message\(s\), shed ~?(?<shed>\S+), (?<k>\d+) re-applied$/,
  // Tool done/failed/running, persisted and startup lines are read by the functions below, not by a
  // regex: theirs took the square of the entry's length (minutes on one entry of a megabyte).
} as const;

const TOOL = "Tool '";
const DONE = "' completed successfully in ";
const FAILED = "' failed after ";
const RUNNING = "' still running (";
const ELAPSED = " elapsed)";

/** `Tool '<tool>' completed successfully in <dur>`: the last `' completed successfully in ` of a one-line text. */
export function toolDoneMatch(rest: string): { tool: string; dur: string } | null {
  if (!rest.startsWith(TOOL) || lineEndFrom(rest, TOOL.length) < rest.length) return null;
  const k = rest.lastIndexOf(DONE, rest.length - DONE.length - 1);
  return k >= TOOL.length + 1 ? { tool: rest.slice(TOOL.length, k), dur: rest.slice(k + DONE.length) } : null;
}

/**
 * `Tool '<tool>' failed after <dur>[: <error>]`: the last `' failed after ` before a line end whose duration runs to the end or
 * to a `: `. The first `:` after each candidate is kept while walking back, so the text is read once.
 */
export function toolFailedMatch(rest: string): { tool: string; dur: string; err?: string } | null {
  if (!rest.startsWith(TOOL)) return null;
  const n = rest.length;
  const lineEnd = lineEndFrom(rest, TOOL.length);
  let colon = -1;
  let seen = n;
  for (let k = rest.lastIndexOf(FAILED, lineEnd); k >= TOOL.length + 1; k = rest.lastIndexOf(FAILED, k - 1)) {
    const j = k + FAILED.length;
    for (let q = seen - 1; q >= j; q--) if (rest.charCodeAt(q) === 0x3a) colon = q;
    seen = Math.min(seen, j);
    if (j >= n || colon === j) continue;
    const tool = rest.slice(TOOL.length, k);
    if (colon < 0) return { tool, dur: rest.slice(j) };
    if (rest.startsWith(": ", colon)) return { tool, dur: rest.slice(j, colon), err: rest.slice(colon + 2) };
  }
  return null;
}

/** `Tool '<tool>' still running (<dur> elapsed)`: a one-line text ending ` elapsed)`, the last `' still running (` before it. */
export function toolRunningMatch(rest: string): { tool: string; dur: string } | null {
  if (!rest.startsWith(TOOL) || !rest.endsWith(ELAPSED) || lineEndFrom(rest, TOOL.length) < rest.length) return null;
  const end = rest.length - ELAPSED.length;
  const k = rest.lastIndexOf(RUNNING, end - RUNNING.length - 1);
  return k >= TOOL.length + 1 ? { tool: rest.slice(TOOL.length, k), dur: rest.slice(k + RUNNING.length, end) } : null;
}

const PERSISTED = "Persisted tool result to ";

/** `Persisted tool result to <path> (<size>)`: the last ` (` before a line end whose size, up to the closing `)`, holds no `)`. */
export function persistedMatch(text: string): { path: string; size: string } | null {
  const n = text.length;
  if (!text.startsWith(PERSISTED) || text.charCodeAt(n - 1) !== 0x29) return null;
  const k = text.lastIndexOf(" (", Math.min(lineEndFrom(text, PERSISTED.length), n - 4));
  if (k < PERSISTED.length + 1 || text.lastIndexOf(")", n - 2) >= k + 2) return null;
  return { path: text.slice(PERSISTED.length, k), size: text.slice(k + 2, n - 1) };
}

const STARTUP = "[STARTUP] ";
const IN_MS = / in (\d+(?:\.\d+)?)ms\b/g;

/** `[STARTUP] <what>[ in <N>ms…]`: a one-line text; the first ` in Nms` ends what started. */
export function startupMatch(text: string): { what: string; ms: string | undefined } | null {
  if (!text.startsWith(STARTUP) || lineEndFrom(text, STARTUP.length) < text.length) return null;
  IN_MS.lastIndex = STARTUP.length;
  const m = IN_MS.exec(text);
  return m ? { what: text.slice(STARTUP.length, m.index), ms: m[1] } : { what: text.slice(STARTUP.length), ms: undefined };
}

export interface Classified {
  server: string | null;
  event: DebugEvent;
}

/** Classifies one (already unquoted) message. `level` decides the MCP error form. */
export function classifyMessage(text: string, level: string | null, serverHint: string | null = null): Classified {
  const mcp = MCP_PREFIX.exec(text);
  if (mcp) return { server: mcp.groups!.server!, event: counted(mcpEvent(mcp.groups!.rest!, level, mcp.groups!.colon !== undefined)) };
  if (serverHint !== null) return { server: serverHint, event: counted(mcpEvent(text, level, level !== "ERROR")) };
  const tagged = MCP_TAG_SERVER.exec(text);
  return { server: tagged ? tagged.groups!.server! : null, event: counted(plainEvent(text)) };
}

/**
 * `connected … in 99999999999999999999ms` is no duration: a count no double holds exactly makes the
 * line an unrecognised entry (kept, with its text) instead of a fact with Infinity or a rounded number.
 */
function counted(ev: DebugEvent): DebugEvent {
  for (const v of Object.values(ev)) if (typeof v === "number" && !Number.isSafeInteger(v)) return { type: "other" };
  return ev;
}

function mcpEvent(rest: string, level: string | null, colon: boolean): DebugEvent {
  let m: RegExpExecArray | null;
  if ((m = RX.connected.exec(rest)))
    return { type: "mcp-connected", ms: Number(m.groups!.ms), transport: m.groups!.t ?? m.groups!.t2 ?? null };
  if ((m = RX.capabilities.exec(rest))) return capabilitiesEvent(m.groups!.json!);
  if ((m = RX.truncated.exec(rest))) return { type: "mcp-instructions-truncated", from: Number(m.groups!.from), to: Number(m.groups!.to) };
  if ((m = RX.starting.exec(rest))) return { type: "mcp-starting", timeoutMs: Number(m.groups!.ms) };
  if ((m = RX.toolCall.exec(rest))) return { type: "mcp-tool-call", tool: m.groups!.tool! };
  let t: ReturnType<typeof toolFailedMatch>;
  if ((t = toolDoneMatch(rest))) return { type: "mcp-tool-done", tool: t.tool, duration: t.dur, ms: durationMs(t.dur) };
  if ((t = toolFailedMatch(rest)))
    return { type: "mcp-tool-failed", tool: t.tool, duration: t.dur, ms: durationMs(t.dur), error: t.err ?? "" };
  if ((t = toolRunningMatch(rest))) return { type: "mcp-tool-running", tool: t.tool, duration: t.dur, ms: durationMs(t.dur) };
  if ((m = RX.timeout.exec(rest)))
    return { type: "mcp-connection-timeout", ms: Number(m.groups!.ms), limitMs: m.groups!.limit ? Number(m.groups!.limit) : null };
  if ((m = RX.failed.exec(rest))) {
    const err = [m.groups!.code, m.groups!.err].filter((s) => s !== undefined && s !== "").join(": ");
    return { type: "mcp-connection-failed", ms: m.groups!.ms ? Number(m.groups!.ms) : null, error: err };
  }
  if ((m = RX.dropped.exec(rest)))
    return { type: "mcp-connection-dropped", transport: m.groups!.t!.toLowerCase(), uptimeS: Number(m.groups!.s) };
  if ((m = RX.closed.exec(rest)))
    return {
      type: "mcp-connection-closed",
      transport: m.groups!.t!.toLowerCase(),
      uptimeS: Number(m.groups!.s),
      clean: m.groups!.how === "cleanly",
    };
  if ((m = RX.closing.exec(rest))) return { type: "mcp-closing", reason: m.groups!.reason! };
  if ((m = RX.shutdown.exec(rest))) return { type: "mcp-shutdown", signal: m.groups!.sig ?? null };
  if ((m = RX.forced.exec(rest))) return { type: "mcp-shutdown-forced", failed: m.groups!.failed!, signal: m.groups!.sig! };
  if ((m = RX.shutdownError.exec(rest))) return { type: "mcp-shutdown-error", signal: m.groups!.sig!, error: m.groups!.err! };
  if ((m = RX.exited.exec(rest))) return { type: "mcp-process-exited", how: m.groups!.how!.trim() };
  if ((m = RX.connectionError.exec(rest))) return { type: "mcp-connection-error", error: m.groups!.err! };
  if (RX.connectionErrorNamed.test(rest)) return { type: "mcp-connection-error", error: rest };
  if ((m = RX.stderr.exec(rest))) return { type: "mcp-stderr", text: m.groups!.text! };
  if (!colon || level === "ERROR") return { type: "mcp-error", error: rest };
  return { type: "other" };
}

function plainEvent(text: string): DebugEvent {
  let m: RegExpExecArray | null;
  if ((m = RX.apiRequest.exec(text))) {
    const path = m.groups!.path!;
    return {
      type: "api-request",
      path,
      clientRequestId: m.groups!.rid ?? null,
      source: m.groups!.source ?? null,
      countTokens: RX.countTokens.test(path),
    };
  }
  const p = persistedMatch(text);
  if (p) return { type: "persisted", path: p.path, size: p.size, bytes: sizeBytes(p.size) };
  if ((m = RX.runtimeArm.exec(text))) return { type: "runtime-arm", arm: m.groups!.arm!, source: m.groups!.src! };
  if ((m = RX.runtimeArmInvalid.exec(text))) return { type: "runtime-arm-invalid", value: m.groups!.v! };
  if ((m = RX.budget.exec(text)))
    return {
      type: "per-message-budget",
      persisted: Number(m.groups!.n),
      messages: Number(m.groups!.m),
      shed: m.groups!.shed!,
      reapplied: Number(m.groups!.k),
    };
  if ((m = RX.nonblocking.exec(text))) return { type: "mcp-nonblocking", what: m.groups!.what! };
  if ((m = RX.subscribe.exec(text))) return { type: "mcp-subscribe", subscribe: m.groups!.sub === "true" };
  if ((m = RX.countTokensFailed.exec(text)))
    return { type: "count-tokens-failed", status: m.groups!.status ? Number(m.groups!.status) : null, error: m.groups!.err! };
  const st = startupMatch(text);
  if (st) return { type: "startup", what: st.what, ms: st.ms ? Number(st.ms) : null };
  return { type: "other" };
}

function capabilitiesEvent(json: string): DebugEvent {
  let caps: Record<string, unknown> | null = null;
  try {
    const v: unknown = parseJsonBounded(json, null);
    // A value nested past MAX_DEPTH would overflow the stack wherever it is walked or written out.
    if (isObject(v) && !depthExceeds(v, MAX_DEPTH)) caps = v;
  } catch {
    caps = null;
  }
  const s = (k: string) => (caps && typeof caps[k] === "string" ? (caps[k] as string) : null);
  return {
    type: "mcp-capabilities",
    capabilities: caps,
    protocolEra: s("protocolEra"),
    negotiatedProtocolVersion: s("negotiatedProtocolVersion"),
    serverVersion: caps ? (caps.serverVersion ?? null) : null,
  };
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 };

/** `16ms`, `0s`, `1.2s`, `2m 5s` → milliseconds; null when the text is not a duration. */
export function durationMs(text: string): number | null {
  const parts = text.trim().split(/\s+/);
  let total = 0;
  for (const p of parts) {
    const m = /^(\d+(?:\.\d+)?)(ms|s|min|m|h)$/.exec(p);
    if (!m) return null;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return parts.length > 0 && Number.isSafeInteger(Math.round(total)) ? Math.round(total) : null;
}

const SIZE_UNIT: Record<string, number> = { B: 1, bytes: 1, byte: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };

/** `51.7KB` (1024-based, FORMATS.md 1.10), `4.8MB`, `900 bytes` → bytes; null when unrecognised. */
export function sizeBytes(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(bytes?|B|KB|MB|GB)$/.exec(text.trim());
  const n = m ? Math.round(Number(m[1]) * SIZE_UNIT[m[2]!]!) : null;
  return n !== null && Number.isSafeInteger(n) ? n : null;
}
