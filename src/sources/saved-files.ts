import { statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join } from "node:path";
import { savedName } from "./saved-names.js";

/**
 * Where a session keeps its saved outputs: `<project dir>/<sessionId>/tool-results/`, shared with its
 * subagents (FORMATS.md 3). Printed paths name the machine that wrote them (`~/.claude/…`, another
 * user's home, a folder since moved), so a saved file is looked up by its name in this folder first.
 */
export function toolResultsDir(transcriptPath: string | null, sessionId: string | null): string | null {
  if (transcriptPath === null || transcriptPath === "-") return null;
  // A subagent file sits at <project>/<session>/subagents/[workflows/<run>/]agent-x.jsonl; an old-layout
  // one (2.0.x) beside the main file, which the session id then places.
  let d = dirname(transcriptPath);
  for (let i = 0; i < 4 && basename(transcriptPath).startsWith("agent-"); i++) {
    if (basename(d) === "subagents") return join(dirname(d), "tool-results");
    d = dirname(d);
  }
  if (sessionId === null) return null;
  return join(dirname(transcriptPath), sessionId, "tool-results");
}

export interface ResolvedSaved {
  /** The file on this machine, or the best candidate when none exists. */
  path: string | null;
  /** true/false when a place to look was known; null when neither the session folder nor the printed path could be used. */
  exists: boolean | null;
}

/** Joins the printed path's name onto the session's `tool-results/` folder; falls back to the printed path itself. */
export function resolveSavedPath(printed: string, dir: string | null, home = homedir()): ResolvedSaved {
  const rel = savedName(printed).relative;
  const candidates: string[] = [];
  if (dir !== null && rel !== "") candidates.push(join(dir, ...rel.split("/")));
  const literal = printed.startsWith("~/") ? join(home, printed.slice(2)) : printed;
  // Only a path inside some tool-results/ folder: a transcript must not make us read files elsewhere.
  if (isAbsolute(literal) && /[\\/]tool-results[\\/]/.test(literal)) candidates.push(literal);
  for (const c of candidates) if (isFile(c)) return { path: c, exists: true };
  if (dir !== null) return { path: candidates[0] ?? null, exists: false };
  return { path: candidates[0] ?? null, exists: null };
}

/** JS string length of UTF-8 bytes: one unit per lead byte, two for a 4-byte sequence (a surrogate pair). */
export function utf16Length(buf: Buffer): number {
  let n = 0;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i]!;
    if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
