import { basename, dirname, join } from "node:path";
import { savedName } from "./saved-names.js";
import { plainName, realPath, statPath, within, withinRoots, fileType } from "./guard.js";
import { sessionRoots } from "./discover.js";

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
  if (sessionId === null || !plainName(sessionId)) return null;
  return join(dirname(transcriptPath), sessionId, "tool-results");
}

export interface ResolvedSaved {
  /** The file on this machine, or the best candidate when none exists. */
  path: string | null;
  /** true/false when a place to look was known; null when the session folder is unknown or the name is suspicious. */
  exists: boolean | null;
  /** Why the printed name was not looked up (traversal, absolute path, a link out of tool-results/); null when it was. */
  suspicious: string | null;
}

/**
 * A printed saved path is evidence, not an instruction: only its name under `tool-results/` is used,
 * looked up in the session's own folder, and only when it names a plain file below that folder whose
 * real path stays there. Nothing at the printed location itself is ever opened.
 */
export function resolveSavedPath(printed: string, dir: string | null): ResolvedSaved {
  const rel = savedName(printed).relative;
  const why = suspiciousName(printed, rel);
  if (why !== null) return { path: null, exists: null, suspicious: why };
  if (dir === null) return { path: null, exists: null, suspicious: null };
  const candidate = join(dir, ...rel.split("/"));
  const realDir = realPath(dir);
  if (realDir === undefined) return { path: candidate, exists: false, suspicious: null };
  // The folder is part of the session's tree: a link may take it wherever subagents/ may go (sessionRoots).
  if (!withinRoots(realDir, sessionRoots(dirname(dirname(dir))))) {
    return { path: null, exists: null, suspicious: "the tool-results/ folder links outside the session folder" };
  }
  const real = realPath(candidate);
  if (real === undefined) return { path: candidate, exists: false, suspicious: null };
  if (!within(real, realDir) || real === realDir)
    return { path: null, exists: null, suspicious: "the saved file links outside tool-results/" };
  const st = statPath(real);
  if (st === undefined) return { path: candidate, exists: false, suspicious: null };
  if (!st.isFile()) return { path: null, exists: null, suspicious: `the saved file is ${fileType(st)}` };
  return { path: candidate, exists: true, suspicious: null };
}

/** Names that try to leave the folder: `..`, absolute or drive paths, backslashes, NUL, or any of these URL-encoded. */
export function suspiciousName(printed: string, rel: string): string | null {
  if (rel === "") return "no file name after tool-results/";
  if (/%[0-9a-f]{2}/i.test(rel)) {
    let decoded = rel;
    try {
      decoded = decodeURIComponent(rel);
    } catch {
      return "malformed URL encoding in the name";
    }
    if (/[\\/]|\.\./.test(decoded) || decoded.includes("\0")) return "URL-encoded path separators or .. in the name";
  }
  if (rel.includes("\0")) return "NUL in the name";
  if (/^[\\/]|^[A-Za-z]:/.test(rel)) return "absolute path after tool-results/";
  if (rel.split("/").some((seg) => seg === ".." || seg === "." || seg === "")) return "the name climbs out of tool-results/ (..)";
  // A printed path without any tool-results/ segment is only a name; one with `..` before it still was written to point elsewhere.
  if (printed.replace(/\\/g, "/").split("/").includes("..")) return "the printed path contains .. segments";
  return null;
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
