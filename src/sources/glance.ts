import { parseJsonBounded } from "./json-depth.js";
import { closeSync, fstatSync, readSync } from "node:fs";
import { basename } from "node:path";
import { openEvidenceFd } from "./guard.js";
import { sessionIdFromName } from "./discover.js";

/** What a session's first and last records say, read from the file's two ends only. */
export interface Glance {
  cwd: string | null;
  first: string | null;
  last: string | null;
  mtimeMs: number;
  bytes: number;
}

const CHUNK = 65_536;
/** Past this many bytes from either end without a timestamp, the end counts as having none. */
const LIMIT = 8 * 1_048_576;

/**
 * First time and cwd from the head, last time from the tail, so picking the newest of many sessions
 * never reads them whole. Opened through the guard: a FIFO planted in a config dir cannot stall the lookup.
 * The times are those of the file's own session's records (the session its name says, else the first one its
 * records name; a record naming none is the file's), as `sessions` takes them: a resumed file starts with
 * copies of the earlier session's records, whose times are not this session's.
 */
export function glance(path: string): Glance {
  const fd = openEvidenceFd(path);
  try {
    const st = fstatSync(fd);
    const home = { id: sessionIdFromName(basename(path).replace(/\.jsonl$/, "")) };
    const head = fromHead(fd, st.size, home);
    return { ...head, last: fromTail(fd, st.size, home), mtimeMs: st.mtimeMs, bytes: st.size };
  } finally {
    closeSync(fd);
  }
}

/** The file's session, once known. */
interface Home {
  id: string | undefined;
}

/**
 * Whether a record is of the file's own session (FORMATS.md 11: chains are keyed by session, not by file).
 * As the record layer's `ownSessionChain` tells them: another session is one whose id is shaped like one.
 */
function own(r: Record<string, unknown>, home: Home): boolean {
  const s = r.sessionId ?? r.session_id;
  if (typeof s !== "string") return true;
  home.id ??= s;
  return s === home.id || sessionIdFromName(s) === undefined;
}

function fromHead(fd: number, size: number, home: Home): { cwd: string | null; first: string | null } {
  let cwd: string | null = null;
  let first: string | null = null;
  let rest = "";
  for (let pos = 0; pos < Math.min(size, LIMIT) && (cwd === null || first === null); pos += CHUNK) {
    const text = rest + read(fd, pos, Math.min(CHUNK, size - pos));
    const lines = text.split("\n");
    // The last piece may be cut mid-line unless this chunk reached the end of the file.
    rest = pos + CHUNK < size ? lines.pop()! : "";
    for (const l of lines) {
      const r = record(l);
      if (!r) continue;
      if (cwd === null && typeof r.cwd === "string" && r.cwd !== "") cwd = r.cwd;
      if (first === null && own(r, home)) first = timeOf(r);
      if (cwd !== null && first !== null) break;
    }
  }
  return { cwd, first };
}

function fromTail(fd: number, size: number, home: Home): string | null {
  let rest = "";
  for (let end = size; end > 0 && size - end < LIMIT; end -= CHUNK) {
    const start = Math.max(0, end - CHUNK);
    const text = read(fd, start, end - start) + rest;
    const lines = text.split("\n");
    rest = start > 0 ? lines.shift()! : "";
    for (let i = lines.length - 1; i >= 0; i--) {
      const r = record(lines[i]!);
      const t = r && timeOf(r);
      if (t && own(r, home)) return t;
    }
  }
  return null;
}

// latin1 maps each byte to one char, so a chunk edge never splits a character; each whole line is
// decoded as UTF-8 again before it is parsed.
function read(fd: number, pos: number, len: number): string {
  const buf = Buffer.alloc(len);
  const n = readSync(fd, buf, 0, len, pos);
  return buf.subarray(0, n).toString("latin1");
}

function record(line: string): Record<string, unknown> | undefined {
  const t = line.trim();
  if (!t.startsWith("{")) return undefined;
  try {
    const v = parseJsonBounded(Buffer.from(t, "latin1").toString("utf8"), null);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function timeOf(r: Record<string, unknown>): string | null {
  const t = r.timestamp;
  // Only ranking and filtering use it; records/time.ts checks times fully (sources sit below records).
  return typeof t === "string" && /^\d{4}-\d{2}-\d{2}T/.test(t) && Number.isFinite(Date.parse(t)) ? t : null;
}
