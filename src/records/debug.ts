import { isUtf8 } from "node:buffer";
import { basename, dirname } from "node:path";
import { classifyMessage, type DebugEvent } from "./debug-events.js";
import {
  depthExceeds,
  excerptOf,
  isObject,
  MAX_DEPTH,
  notUtf8,
  nulDamage,
  nulRuns,
  nulTailDamage,
  parseJsonBounded,
  utf8Damage,
  type LineDamage,
} from "./json.js";
import type { Pos } from "./pos.js";
import { DEFAULT_MAX_LINE_BYTES, type RawLine } from "../sources/lines.js";
import { giantStream, giantText, withoutNuls, type GiantLine } from "./giant-line.js";
import { decodeLines, tooLongLine, type BlankLine, type LineDecoder, type MalformedLine, type Source } from "./source.js";
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

export type DebugRecord = DebugEntry | MalformedLine;

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
  /** Lines of the entry with bytes that are not UTF-8 (read as U+FFFD), each with its physical line. */
  damage: LineDamage[] | null;
}

/** Entries read from damaged lines, for health; not a field of the entry. */
const damagedEntries = new WeakMap<object, LineDamage[]>();

/**
 * A Claude Code debug log (FORMATS.md 7). A line without the `[LEVEL]` header continues the previous
 * entry, unless it is a pasted `MCP server "x": …` line (an entry of unknown time and level); other
 * headerless lines before the first entry, lines of NULs only or with NULs inside, and over-long lines
 * are `malformed`. A NUL run a line starts or ends with is cut and listed as the entry's damage.
 * Also reads per-server `mcp-logs-<server>/*.jsonl` files, whose lines are JSON objects.
 */
function debugDecoder(file: string, giantAt: number): LineDecoder<DebugRecord> {
  const hint = serverFromLogPath(file);
  let cur: Pending | null = null;
  return {
    line(raw, out) {
      const pos: Pos = { file, line: raw.line };
      if (raw.tooLong || raw.streamed === "tooLong") {
        out.push(tooLongLine(pos, raw));
        return;
      }
      const read = raw.streamed ? giantRead(raw.streamed as GiantLine, pos, out) : heldRead(raw, pos, out);
      if (read === null) return;
      let line = read.line;
      const bad = read.bad;
      if (read.lead) {
        // The blank kept after a leading run is a continuation line's indent; before an entry's own header (the
        // next write landed after the remnant, a space apart) it is no part of the line.
        if (line !== (line = line.trimStart())) {
          const h = DEBUG_HEADER.exec(line);
          if (!(h && h.groups!.ts) && !(line.startsWith("{") && jsonlEntry(line, pos, hint))) line = read.line;
        }
      }
      const head = DEBUG_HEADER.exec(line);
      if (head) {
        if (cur) out.push(finish(cur));
        cur = open(pos, head.groups!.ts ?? null, head.groups!.level!, head.groups!.msg ?? "", hint);
        damaged(cur, bad, raw.line);
        return;
      }
      // Copied into articles and issues without its header: still an entry, with time and level unknown.
      // Inside a paste (or before any entry) a line Claude Code's messages are recognised by starts one too.
      if (HEADERLESS_MCP.test(line) || ((cur === null || cur.pasted) && pastedMessage(line))) {
        if (cur) out.push(finish(cur));
        cur = open(pos, null, null, line, hint);
        cur.pasted = true;
        damaged(cur, bad, raw.line);
        return;
      }
      const json = line.startsWith("{") ? jsonlEntry(line, pos, hint) : null;
      if (json) {
        if (cur) out.push(finish(cur));
        cur = json;
        damaged(cur, bad, raw.line);
        return;
      }
      if (cur && !cur.closed) {
        append(cur, line);
        damaged(cur, bad, raw.line);
        return;
      }
      if (line.trim() === "") return;
      out.push({
        kind: "malformed",
        pos,
        reason: cur ? "line after a complete JSON log entry" : "no `[LEVEL]` header and no entry before it to continue",
        excerpt: excerptOf(line),
      });
    },
    end(out) {
      if (cur) out.push(finish(cur));
      cur = null;
    },
    // Only a per-server JSONL line (`{` after any NUL run) must be parsed whole; any other is read by its head.
    stream: giantStream(giantAt, {
      headBytes: DEBUG_HEAD_BYTES,
      hold: (t) => t.length > 0 && t[0] === 0x7b,
      maxHold: DEFAULT_MAX_LINE_BYTES,
    }),
  };
}

/** What a line says once its NUL runs are cut: its text, its damage, whether a leading run was cut; null when it was said already (malformed). */
interface LineRead {
  line: string;
  bad: LineDamage[];
  lead: boolean;
}

/** A held line: decoded whole. */
function heldRead(raw: RawLine, pos: Pos, out: Array<DebugRecord | BlankLine>): LineRead | null {
  let line = raw.buf.toString("utf8");
  // A blank line is counted as one and still belongs to the message it sits in.
  if (line.trim() === "") out.push({ kind: "blank", pos });
  // Bytes that are not UTF-8 were read as U+FFFD, silently: the entry the line belongs to says so, naming the line.
  const bad: LineDamage[] = [];
  let lead = false;
  if (raw.buf.indexOf(0) >= 0) {
    const cut = nulCut(line, raw.buf);
    if (typeof cut === "string") {
      out.push({ kind: "malformed", pos, reason: cut, excerpt: excerptOf(line.replace(/\u0000+/g, "")) });
      return null;
    }
    line = cut.line;
    bad.push(...cut.damage);
    lead = cut.lead;
  }
  if (!isUtf8(raw.buf)) {
    const d = notUtf8(raw.buf);
    if (d) bad.push(d);
  }
  return { line, bad, lead };
}

/**
 * Bytes of a line's text a line too long to hold is read by (records/giant-line.ts): past MAX_ENTRY_CHARS an entry
 * is clipped, and every pattern the reader matches (the header, a pasted message, classifyMessage's events) is
 * anchored at the start, so no verdict needs more; three bytes a character at most, and some to spare.
 */
export const DEBUG_HEAD_BYTES = 3 * MAX_ENTRY_CHARS + 64 * 1024;

/** Lines this long are read by their head (records/giant-line.ts) instead of held: a 300 MB logged body cost 940 MB. */
export const DEBUG_GIANT_BYTES = 8 * 1024 * 1024;

/**
 * A line too long to hold, from what GiantLineSink kept: the same verdicts as `heldRead` and `nulCut` on the whole
 * line. Its text is the head (a per-server JSONL line, which must be parsed, is held whole); a CR, U+2028 or
 * U+2029 past the head is kept as one CR, so that `.` in the header pattern fails on it as it would on the line.
 */
function giantRead(g: GiantLine, pos: Pos, out: Array<DebugRecord | BlankLine>): LineRead | null {
  const anyNul = g.leadNuls > 0 || g.nulAfterLead >= 0;
  if (!anyNul && g.nulWsOnly) out.push({ kind: "blank", pos });
  const bad: LineDamage[] = [];
  let end = g.bytes;
  if (anyNul) {
    const reason = g.nulWsOnly
      ? "NUL bytes only (crash remnant)"
      : g.nulAfterLead >= 0 && g.nulAfterLead < (g.tailNuls > 0 ? g.tailFirstNul : g.bytes)
        ? "NUL bytes (crash remnant)"
        : null;
    if (reason) {
      out.push({ kind: "malformed", pos, reason, excerpt: excerptOf(withoutNuls(g)) });
      return null;
    }
    if (g.leadNuls > 0) bad.push(nulDamage(g.leadNuls, g.leadNulEnd));
    if (g.tailNuls > 0) {
      bad.push(nulTailDamage(g.tailNuls, g.tailFirstNul));
      end = g.tailFirstNul;
    }
  }
  if (g.badUtf8 > 0) bad.push(utf8Damage(g.badUtf8, g.firstBadUtf8));
  let line = giantText(g, g.leadNulEnd, end);
  if (!g.whole && end - g.leadNulEnd > g.head.length && g.breakPastHead) line += "\r";
  return { line, bad, lead: g.leadNuls > 0 };
}

/**
 * A debug log's first non-blank line has the `[LEVEL]` header (time optional), is a per-server JSONL
 * entry, or is a line pasted without its header (`MCP server "x": …`, a message this reader knows).
 */
const DEBUG_HEAD = /^(?:\S+ )?\[(?:VERBOSE|DEBUG|INFO|WARN|ERROR)\]|^\{"(?:debug|error|info|warn)":/;
const recogniseDebug = (head: string): boolean => {
  // A crash remnant may open the file: NULs before the first entry.
  const first = head.replace(/^[\0\s]+/, "");
  return DEBUG_HEAD.test(first) || HEADERLESS_MCP.test(first) || pastedMessage(first.split(/\r?\n/, 1)[0]!);
};

export const debugLogSource: Source<DebugRecord> = {
  kind: "debug-log",
  recognise: recogniseDebug,
  records: (chunks, input) => decodeLines(chunks, debugDecoder(input.file, input.streamLineBytes ?? DEBUG_GIANT_BYTES)),
  facts: (rec) => {
    const damaged = rec.kind === "debug" ? damagedEntries.get(rec) : undefined;
    return damaged ? { damaged } : undefined;
  },
};

function damaged(p: Pending, ds: readonly LineDamage[], line: number): void {
  for (const d of ds) (p.damage ??= []).push({ ...d, line });
}

/**
 * A line's NUL runs, as transcripts and message logs read them (json.ts `nulRuns`, one rule): a run before the
 * entry (a crash remnant the next write landed after) or after it (the zero-filled tail a crash leaves) is cut and
 * listed as damage, the whitespace after a leading run's last NUL kept (a continuation line's indent), and the
 * whitespace before a trailing run's first NUL too. A line of NULs only, or with NULs inside its text, is no line
 * to read: the malformed reason. Linear in the line (byte loops and one indexOf; both runs are one byte a
 * character, so their offsets are byte offsets).
 */
function nulCut(line: string, buf: Buffer): { line: string; damage: LineDamage[]; lead: boolean } | string {
  if (line.replaceAll("\u0000", "").trim() === "") return "NUL bytes only (crash remnant)";
  const runs = nulRuns(buf);
  const bodyEnd = runs.tailNuls > 0 ? runs.tailFirstNul : buf.length;
  const inner = buf.indexOf(0, runs.leadNulEnd);
  if (inner >= 0 && inner < bodyEnd) return "NUL bytes (crash remnant)";
  const damage: LineDamage[] = [];
  if (runs.leadNuls > 0) damage.push(nulDamage(runs.leadNuls, runs.leadNulEnd));
  if (runs.tailNuls > 0) damage.push(nulTailDamage(runs.tailNuls, runs.tailFirstNul));
  return { line: line.slice(runs.leadNulEnd, line.length - (buf.length - bodyEnd)), damage, lead: runs.leadNuls > 0 };
}

function open(pos: Pos, time: string | null, level: string | null, msg: string, serverHint: string | null): Pending {
  const p: Pending = {
    pos,
    time,
    level,
    parts: [],
    chars: 0,
    lines: 0,
    clipped: false,
    closed: false,
    pasted: false,
    serverHint,
    damage: null,
  };
  append(p, msg);
  return p;
}

function append(p: Pending, text: string): void {
  p.lines += 1;
  if (p.clipped) return;
  const room = MAX_ENTRY_CHARS - p.chars;
  if (text.length > room) {
    // The cut is marked `…`, as every cut of evidence text is: an id it splits is then shortened by
    // --redact as a cut head (report/redact.ts), not left as a fragment no id pattern recognises.
    let keep = Math.max(0, room - 1);
    const c = text.charCodeAt(keep - 1);
    if (c >= 0xd800 && c <= 0xdbff) keep -= 1;
    text = `${text.slice(0, keep)}…`;
    p.clipped = true;
  }
  p.parts.push(text);
  p.chars += text.length + 1;
}

function jsonlEntry(line: string, pos: Pos, hint: string | null): Pending | null {
  let v: unknown;
  try {
    v = parseJsonBounded(line, null);
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
  const text = p.parts.join("\n");
  // Blanks after the message (a space before a crash's trailing NUL run, or just written) are no part of what
  // it says: the message is classified, and shown, without them.
  let said = text.trimEnd();
  let stringified = false;
  if (said.length >= 2 && said.startsWith('"') && said.endsWith('"')) {
    try {
      const v: unknown = JSON.parse(said);
      if (typeof v === "string") {
        said = v;
        stringified = true;
      }
    } catch {
      // a message that merely starts and ends with a quote
    }
  }
  const { server, event } = classifyMessage(said, p.level, p.serverHint);
  // `9999-99-99T…` matches the header yet is no time: unknown, like a pasted line without one.
  const ms = p.time === null ? undefined : parseIsoTime(p.time);
  const entry: DebugEntry = {
    kind: "debug",
    pos: p.pos,
    time: ms === undefined ? null : p.time,
    ms: ms ?? null,
    level: p.level,
    text: said,
    server,
    event,
    lines: p.lines,
    stringified,
    clipped: p.clipped,
  };
  if (p.damage) damagedEntries.set(entry, p.damage);
  return entry;
}
