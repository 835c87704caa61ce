import { UsageError } from "../errors.js";
import { filtering, sessionMatches, type SessionFilter } from "./session-filter.js";
import { listAllSessions, orphanFiles, type SessionFile } from "./discover.js";
import { glance, type Glance } from "./glance.js";
import { CANNOT_LIST, skip, skippedSoFar, statPath } from "./guard.js";

export interface Picked {
  file: SessionFile;
  glance: Glance;
  /** The time it was ranked by: its last record's, or the file's mtime when no record has one. */
  time: string;
  byMtime: boolean;
}

/**
 * The newest session under the config dirs that passes the filter: latest last-record time, or file
 * mtime for a session without times. Files are visited newest mtime first and only their two ends are
 * read; since a transcript is appended as its records happen, its mtime is at or after its last record,
 * so once a file's mtime is older than the best time found no later file can beat it.
 */
export function newestSession(dirs: string[], filter: SessionFilter): Picked | undefined {
  // An orphan session (subagents, no main file) is ranked by its newest subagent file and glanced at through all
  // of them, as `sessions` reads them all for its row: the same files, whichever folder under subagents/ holds them.
  const files = listAllSessions(dirs).flatMap((f) => {
    const paths = f.mainMissing ? orphanFiles(f) : [f.path];
    let mtime = -Infinity;
    for (const p of paths) mtime = Math.max(mtime, mtimeOf(p));
    return paths.length === 0 ? [] : [{ f, paths, mtime }];
  });
  files.sort((a, b) => b.mtime - a.mtime || a.f.id.localeCompare(b.f.id));
  let best: Picked | undefined;
  let bestMs = -Infinity;
  for (const { f, paths, mtime } of files) {
    if (mtime < bestMs) break;
    const g = glanceAll(paths);
    if (!g || !matches(filter, f, g)) continue;
    const ms = g.last !== null ? Date.parse(g.last) : g.mtimeMs;
    if (ms > bestMs || (ms === bestMs && best !== undefined && f.id < best.file.id)) {
      best = { file: f, glance: g, time: g.last ?? new Date(g.mtimeMs).toISOString(), byMtime: g.last === null };
      bestMs = ms;
    }
  }
  return best;
}

/** Why nothing was picked: what was searched and which filters were on. */
export function noSessionError(dirs: string[], filter: SessionFilter): UsageError {
  const by = filtering(filter) ? ` matching ${describe(filter)}` : "";
  // A folder that could not be listed or a transcript that could not be read may hold the newest session.
  const passed = skippedSoFar()
    .map((s) => (s.reason.startsWith(CANNOT_LIST) ? `\n  not searched ${s.path}: ${s.reason}` : `\n  skipped ${s.path}: ${s.reason}`))
    .join("");
  return new UsageError(
    `no target, and no session${by} under ${dirs.join(", ")}: give a session id, a transcript path, or pipe JSONL into stdin (-)${passed}`,
  );
}

/** Keeps the lookup candidates that pass the filter (an id prefix plus --since narrows to one). */
export function filterSessions(files: SessionFile[], filter: SessionFilter): SessionFile[] {
  if (!filtering(filter)) return files;
  return files.filter((f) => {
    const g = glanceSession(f);
    return g !== undefined && matches(filter, f, g);
  });
}

export function describe(f: SessionFilter): string {
  return [f.project !== undefined ? `--project ${f.project}` : "", f.since ? `--since ${f.since}` : "", f.until ? `--until ${f.until}` : ""]
    .filter(Boolean)
    .join(" ");
}

function matches(filter: SessionFilter, f: SessionFile, g: Glance): boolean {
  const fileTime = new Date(g.mtimeMs).toISOString();
  return sessionMatches(filter, { cwd: g.cwd, projectDir: f.projectDir, first: g.first ?? fileTime, last: g.last ?? fileTime });
}

/** An orphan session (no main file) is glanced at through all its subagent files. */
function glanceSession(f: SessionFile): Glance | undefined {
  return glanceAll(f.mainMissing ? orphanFiles(f) : [f.path]);
}

/**
 * One glance for a session's files (one for a main session; an orphan's subagent files): its first and last
 * times are the earliest and latest of theirs, its cwd that of the file its first record is in (a main
 * session's is its first record's), its mtime the latest. A file that cannot be read is named and the session
 * passed over.
 */
function glanceAll(paths: string[]): Glance | undefined {
  if (paths.length === 1) return safeGlance(paths[0]!);
  // An orphan whose subagents/ holds no transcript: nothing to judge it by.
  if (paths.length === 0) return undefined;
  const read: Glance[] = [];
  for (const p of paths) {
    const g = safeGlance(p);
    // As in `sessions`, which passes over a session one of whose files cannot be read: it is not listed, nor picked.
    if (!g) return undefined;
    read.push(g);
  }
  // Earliest start first (a file without times last), in path order among equals: the session's first cwd.
  const start = (g: Glance) => (g.first === null ? Infinity : Date.parse(g.first));
  const byStart = read.sort((a, b) => (start(a) < start(b) ? -1 : start(a) > start(b) ? 1 : 0));
  let last: string | null = null;
  let mtimeMs = -Infinity;
  let bytes = 0;
  for (const g of byStart) {
    if (g.last !== null && (last === null || Date.parse(g.last) > Date.parse(last))) last = g.last;
    mtimeMs = Math.max(mtimeMs, g.mtimeMs);
    bytes += g.bytes;
  }
  return { cwd: byStart.find((g) => g.cwd !== null)?.cwd ?? null, first: byStart[0]!.first, last, mtimeMs, bytes };
}

/** A file that cannot be glanced at is passed over and listed (health.skipped), never silently. */
function safeGlance(path: string): Glance | undefined {
  try {
    return glance(path);
  } catch (e) {
    skip(path, `not read to find the newest session: ${(e as Error).message}`);
    return undefined;
  }
}

function mtimeOf(path: string): number {
  return statPath(path)?.mtimeMs ?? -Infinity;
}
