/** The session filters of every command that looks sessions up (`--project`, `--since`, `--until`). */
export interface SessionFilter {
  project?: string;
  since?: string;
  until?: string;
}

/** True when any of the three was given. */
export const filtering = (f: SessionFilter): boolean => f.project !== undefined || f.since !== undefined || f.until !== undefined;

/**
 * Whether a session passes the filter: `--project` is a case-insensitive substring of its cwd or
 * project folder; it was active in the window (last record at or after `--since`, first at or before `--until`).
 */
export function sessionMatches(
  f: SessionFilter,
  s: { cwd: string | null; projectDir: string; first: string | null; last: string | null },
): boolean {
  if (f.project !== undefined && !`${s.cwd ?? ""}\n${s.projectDir}`.toLowerCase().includes(f.project.toLowerCase())) return false;
  // As instants, not text: "…09:30:00Z" sorts after "…09:30:00.500Z" as a string.
  if (f.since !== undefined && !(msOf(s.last) >= Date.parse(f.since))) return false;
  if (f.until !== undefined && !(msOf(s.first) <= Date.parse(f.until))) return false;
  return true;
}

const msOf = (t: string | null): number => (t === null ? NaN : Date.parse(t));
