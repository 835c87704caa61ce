import { createWriteStream, mkdirSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { pipeline } from "node:stream/promises";
import { sessionRoot, sessionRoots } from "../sources/discover.js";
import { admitDiscovered, admitDiscoveredDir, openEvidence, safeReaddir } from "../sources/guard.js";
import { resolveTarget } from "../sources/targets.js";

/** The copy of a run's session tree inside its folder: `<run>/claude/projects/<key>/…`, a config dir of its own. */
export const RUN_CLAUDE_DIR = "claude";

export interface CopiedSession {
  /** The config dir the transcript was found in. */
  from: string;
  /** Paths written, relative to the run folder. */
  files: string[];
}

/**
 * Copies a finished run's transcript, its subagents and its saved tool results into the run folder,
 * so the runs dir is evidence on its own: `compare` and `outputs --staircase` read it after it is moved,
 * under another HOME, with the config dir gone. Each file is found and opened through the guard
 * (no link out of the config dir is followed) and streamed, never read whole.
 */
export async function copySessionTree(
  sessionId: string,
  runDir: string,
  o: { env: Record<string, string>; cwd: string },
): Promise<CopiedSession | null> {
  let resolved;
  try {
    // claude's own output names the session: an id looked up in the config dir, never a path to copy from.
    resolved = await resolveTarget(sessionId, {
      claudeDir: undefined,
      env: o.env,
      cwd: o.cwd,
      subagents: true,
      stdinIsTTY: true,
      idOnly: true,
    });
  } catch {
    return null;
  }
  const main = resolved.mainPath;
  if (main === null) return null;
  const root = sessionRoot(main);
  const project = dirname(main);
  const dest = join(runDir, RUN_CLAUDE_DIR, "projects", basename(project));
  const files = new Set(resolved.inputs.map((i) => i.path));
  for (const f of listTree(join(project, sessionId), sessionRoots(project))) files.add(f);
  const written: string[] = [];
  for (const f of [...files].sort()) {
    const to = join(dest, relative(project, f));
    mkdirSync(dirname(to), { recursive: true });
    await pipeline(openEvidence(f), createWriteStream(to));
    written.push(relative(runDir, to));
  }
  return { from: root, files: written };
}

/** Every regular file below `<project>/<session>/` (subagents/**, tool-results/*) that stays inside the session's roots (`sessionRoots`). */
function listTree(dir: string, root: readonly string[]): string[] {
  if (admitDiscoveredDir(dir, root) === undefined) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = (d: string) => {
    const real = admitDiscoveredDir(d, root);
    if (real === undefined || seen.has(real)) return;
    seen.add(real);
    for (const name of safeReaddir(d)) {
      const p = join(d, name);
      if (admitDiscoveredDir(p, root) !== undefined) walk(p);
      else if (admitDiscovered(p, root) !== undefined) out.push(p);
    }
  };
  walk(dir);
  return out;
}
