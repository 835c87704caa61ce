import { basename, dirname } from "node:path";
import { readLines, type InputFile, type ReadOptions } from "../sources/input.js";
import { classifyMessage, type DebugEvent } from "./debug-events.js";
import { depthExceeds, excerptOf, isObject, MAX_DEPTH } from "./json.js";
import type { Pos } from "./pos.js";
import { parseIsoTime } from "./time.js";

export { classifyMessage, durationMs, sizeBytes, type DebugEvent, type DebugEventType } from "./debug-events.js";

/** One debug-log entry: a header line plus the raw continuation lines that followed it. */
export interface DebugEntry {
  kind: "debug";
  /** File and 1-based physical line of the entry's first line. */
  pos: Pos;
  /** ISO timestamp, or null (older pastes have none). */
  time: string | null;
  /** `Date.parse(time)`, or null. */
  ms: number | null;
  /** DEBUG | INFO | WARN | ERROR | VERBOSE, or null for a pasted line that lost its header. */
  level: string | null;
  /** The whole message, continuation lines joined with "\n", JSON-unquoted when the log stringified it. */
  text: string;
  /** From `MCP server "<name>"` (colon at DEBUG, no colon at ERROR), or the `mcp-logs-<name>` dir of a per-server log. */
  server: string | null;
  event: DebugEvent;
  /** Physical lines the entry spans. */
  lines: number;
  /** The message was written JSON-stringified (`[ERROR] "…"`, debug logs of stream-json runs). */
  stringified: boolean;
  /** The text was longer than `MAX_ENTRY_CHARS` and was cut there. */
  clipped: boolean;
}

export interface MalformedDebugLine {
  kind: "malformed";
  pos: Pos;
  reason: string;
  excerpt: string;
}

export type DebugRecord = DebugEntry | MalformedDebugLine;

/** Header `<ISO time> [<LEVEL>] <message>`; the time is optional (older pastes), the message may be empty. */
export const DEBUG_HEADER =
  /^(?:(?<ts>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})) )?\[(?<level>VERBOSE|DEBUG|INFO|WARN|ERROR)\](?: (?<msg>.*))?$/;

/**
 * `MCP server "x": …` (or the ERROR form without the colon, or `[MCP] Server "x" …`) with no `[LEVEL]` header: a line pasted
 * from a log (FORMATS.md 11). A raw continuation line of this shape would be read as an entry too;
 * Claude Code's multi-line messages (stack traces, JSON bodies) do not start that way.
 */
const HEADERLESS_MCP = /^(?:MCP server "[^"]+":? |\[MCP\] Server "[^"]+" )\S/;

/** A headerless line that is a message this reader knows (`[API REQUEST] …`, `mcp runtime arm: …`), not prose. */
function pastedMessage(line: string): boolean {
  return line.trim() !== "" && !/^\s/.test(line) && classifyMessage(line, null).event.type !== "other";
}

/** Continuation text kept per entry; beyond it the entry is clipped so one runaway message cannot hold the file. */
export const MAX_ENTRY_CHARS = 1 << 20;

/** A per-server log line (`~/.cache/claude-cli-nodejs/<project>/mcp-logs-<server>/*.jsonl`): `{"debug"|"error": msg, "timestamp"?, …}`. */
const JSONL_LEVELS: Record<string, string> = { debug: "DEBUG", error: "ERROR", info: "INFO", warn: "WARN" };

/** The server a per-server MCP log belongs to, from its `mcp-logs-<server>` directory. */
export function serverFromLogPath(path: string): string | null {
  const dir = basename(dirname(path));
  return dir.startsWith("mcp-logs-") ? dir.slice("mcp-logs-".length) : null;
}

/** Physical lines seen (blank ones too), for parse health. */
export interface LineStats {
  lines: number;
  blankLines: number;
}

export interface DebugReadOptions extends ReadOptions {
  stats?: LineStats;
}

interface Pending {
  pos: Pos;
  time: string | null;
  level: string | null;
  parts: string[];
  chars: number;
  lines: number;
  clipped: boolean;
  /** Per-server JSONL entries are complete on their line. */
  closed: boolean;
  /** Started by a line without header (a paste): its neighbours may have lost theirs too. */
  pasted: boolean;
  serverHint: string | null;
}

/**
 * Streams a Claude Code debug log (FORMATS.md 7). A line without the `[LEVEL]` header continues the
 * previous entry, unless it is a pasted `MCP server "x": …` line (an entry of unknown time and level);
 * other headerless lines before the first entry, NUL-padded and over-long lines are `malformed`. Also reads per-server `mcp-logs-<server>/*.jsonl` files, whose lines are JSON objects.
 */
export async function* readDebugLog(input: InputFile, opts: DebugReadOptions = {}): AsyncGenerator<DebugRecord> {
  const hint = serverFromLogPath(input.path);
  const stats = opts.stats ?? { lines: 0, blankLines: 0 };
  let cur: Pending | null = null;
  for await (const raw of readLines(input, opts)) {
    stats.lines += 1;
    const pos: Pos = { file: input.path, line: raw.line };
    if (raw.tooLong) {
      yield { kind: "malformed", pos, reason: `line of ${raw.bytes} bytes is longer than a string can hold`, excerpt: "" };
      continue;
    }
    const line = raw.buf.toString("utf8");
    if (line.trim() === "") stats.blankLines += 1;
    if (raw.buf.indexOf(0) >= 0) {
      yield { kind: "malformed", pos, reason: "NUL bytes (crash remnant)", excerpt: excerptOf(line.replace(/\u0000+/g, "")) };
      continue;
    }
    const head = DEBUG_HEADER.exec(line);
    if (head) {
      if (cur) yield finish(cur);
      cur = open(pos, head.groups!.ts ?? null, head.groups!.level!, head.groups!.msg ?? "", hint);
      continue;
    }
    // Copied into articles and issues without its header: still an entry, with time and level unknown.
    // Inside a paste (or before any entry) a line Claude Code's messages are recognised by starts one too.
    if (HEADERLESS_MCP.test(line) || ((cur === null || cur.pasted) && pastedMessage(line))) {
      if (cur) yield finish(cur);
      cur = open(pos, null, null, line, hint);
      cur.pasted = true;
      continue;
    }
    const json = line.startsWith("{") ? jsonlEntry(line, pos, hint) : null;
    if (json) {
      if (cur) yield finish(cur);
      cur = json;
      continue;
    }
    if (cur && !cur.closed) {
      append(cur, line);
      continue;
    }
    if (line.trim() === "") continue;
    yield { kind: "malformed", pos, reason: cur ? "line after a complete JSON log entry" : "no `[LEVEL]` header and no entry before it to continue", excerpt: excerptOf(line) };
  }
  if (cur) yield finish(cur);
}

function open(pos: Pos, time: string | null, level: string | null, msg: string, serverHint: string | null): Pending {
  const p: Pending = { pos, time, level, parts: [], chars: 0, lines: 0, clipped: false, closed: false, pasted: false, serverHint };
  append(p, msg);
  return p;
}

function append(p: Pending, text: string): void {
  p.lines += 1;
  if (p.clipped) return;
  const room = MAX_ENTRY_CHARS - p.chars;
  if (text.length > room) {
    text = text.slice(0, room);
    p.clipped = true;
  }
  p.parts.push(text);
  p.chars += text.length + 1;
}

function jsonlEntry(line: string, pos: Pos, hint: string | null): Pending | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(v) || depthExceeds(v, MAX_DEPTH)) return null;
  for (const key of Object.keys(JSONL_LEVELS)) {
    const msg = v[key];
    if (typeof msg !== "string") continue;
    const time = typeof v.timestamp === "string" ? v.timestamp : null;
    const p = open(pos, time, JSONL_LEVELS[key]!, msg, hint);
    p.closed = true;
    return p;
  }
  return null;
}

function finish(p: Pending): DebugEntry {
  // Trailing blank lines belong to the gap before the next entry, not to the message.
  while (p.parts.length > 1 && p.parts[p.parts.length - 1]!.trim() === "") p.parts.pop();
  let text = p.parts.join("\n");
  let stringified = false;
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      const v: unknown = JSON.parse(text);
      if (typeof v === "string") {
        text = v;
        stringified = true;
      }
    } catch {
      // a message that merely starts and ends with a quote
    }
  }
  const { server, event } = classifyMessage(text, p.level, p.serverHint);
  // `9999-99-99T…` matches the header yet is no time: unknown, like a pasted line without one.
  const ms = p.time === null ? undefined : parseIsoTime(p.time);
  return {
    kind: "debug",
    pos: p.pos,
    time: ms === undefined ? null : p.time,
    ms: ms ?? null,
    level: p.level,
    text,
    server,
    event,
    lines: p.lines,
    stringified,
    clipped: p.clipped,
  };
}
