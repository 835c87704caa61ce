import { join } from "node:path";
import { isDir, isFile, safeReaddir } from "../sources/guard.js";
import { readRuns, type RunSpec } from "./manifest.js";
import type { GatherOptions } from "./gather.js";

/** A target of a cross-run command: as given, or one run of a runs dir (with its own files). */
export interface RunTarget {
  target: string | undefined;
  spec: RunSpec | null;
}

/** Each runs dir among the targets (a folder of `<run>/run.json`) becomes its runs; other targets stay as given. */
export async function expandRunsDirs(targets: Array<string | undefined>): Promise<RunTarget[]> {
  const out: RunTarget[] = [];
  for (const target of targets) {
    if (target !== undefined && target !== "" && target !== "-" && isDir(target))
      out.push(...(await readRuns(target)).map((spec) => ({ target: spec.session, spec })));
    else out.push({ target, spec: null });
  }
  return out;
}

/** A folder with at least one `<run>/run.json`: what `ccforensics run --out` writes. */
export function isRunsDir(path: string): boolean {
  return isDir(path) && safeReaddir(path).some((name) => isFile(join(path, name, "run.json")));
}

/** A run's own files replace the command line's, so every run is read from its folder alone. */
export function runGatherOptions<O extends GatherOptions & { rpcLog?: string; streamJson?: string }>(opts: O, spec: RunSpec): O {
  const own = {
    ...opts,
    claudeDir: spec.claudeDir ? [spec.claudeDir] : opts.claudeDir,
    debugFile: spec.debugFile,
    rpcLog: spec.rpcLog,
    streamJson: spec.streamJson,
    baseline: undefined,
  };
  if (!spec.confined) return own;
  // A runs dir's run: its session id is looked up in its own config dir only, and its debug log there too
  // (not in $CLAUDE_CODE_DEBUG_LOGS_DIR, the reader's own), so a shared runs dir reads nothing of the reader's.
  const { CLAUDE_CODE_DEBUG_LOGS_DIR: _, ...env } = opts.env;
  return { ...own, claudeDir: [spec.claudeDir!], env, idOnly: true };
}
