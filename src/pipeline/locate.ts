import { basename, dirname } from "node:path";
import { configDirs } from "../sources/discover.js";
import { evidenceInput, findDebugLog } from "../sources/evidence.js";
import type { DebugEvidence, Gathered } from "../assemble/evidence.js";
import { readDebugEvidence } from "./evidence.js";

/** The options discovery reads (a command's CommonOptions carry them). */
export interface LocateOptions {
  debugFile?: string;
  claudeDir?: string[];
  /** The CLI's io: nothing below reads `process` for these. */
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin: NodeJS.ReadableStream;
  stdinIsTTY: boolean;
}

/**
 * The debug log of a session: `--debug-file` if given, else `<config dir>/debug/<session>.txt`, looking
 * first in the config dir the transcript itself sits in (`<dir>/projects/<key>/<id>.jsonl`).
 */
export function locateDebugLog(transcript: string | null, sessionId: string | null, opts: LocateOptions): string | null {
  if (opts.debugFile) return opts.debugFile;
  if (!sessionId) return null;
  const home = transcript !== null && basename(dirname(dirname(transcript))) === "projects" ? [dirname(dirname(dirname(transcript)))] : [];
  return findDebugLog([...home, ...configDirs({ claudeDir: opts.claudeDir, env: opts.env, cwd: opts.cwd })], sessionId, opts.env) ?? null;
}

/** Reads the session's debug log if there is one. */
export async function debugEvidenceFor(
  transcript: string | null,
  sessionId: string | null,
  opts: LocateOptions,
): Promise<Gathered<DebugEvidence> | null> {
  const path = locateDebugLog(transcript, sessionId, opts);
  return path === null ? null : readDebugEvidence(evidenceInput(path, "debug-log"), { stdin: opts.stdin }, opts.env);
}
