import { basename } from "node:path";
import { UsageError } from "../errors.js";
import type { InputFile } from "./input.js";
import { configDirs, findSession, findSubagents, sessionIdFromPath, type ConfigDirOptions } from "./discover.js";
import { checkNamedFile, pathExists } from "./guard.js";

export interface TargetOptions extends ConfigDirOptions {
  subagents?: boolean;
  stdinIsTTY?: boolean;
}

/** What a target resolved to: the transcript inputs, each its own chain, and the session they belong to. */
export interface ResolvedTarget {
  target: string;
  sessionId: string | null;
  mainPath: string | null;
  inputs: InputFile[];
  searched: string[];
}

const AGENT_FILE = /^agent-(.+)\.jsonl$/;

/**
 * Resolves a target as CONTRACT.md fixes it: "-" or nothing (stdin not a TTY) → stdin; an existing
 * path → that transcript (plus its subagents for a main session); else a session id or unique prefix.
 */
export async function resolveTarget(target: string | undefined, opts: TargetOptions): Promise<ResolvedTarget> {
  const dirs = configDirs(opts);
  // yargs hands a lone "-" positional over as "".
  if (target === "") target = "-";
  if (target === undefined || target === "-") {
    if (target === undefined && opts.stdinIsTTY === true) {
      throw new UsageError("no target: give a session id, a transcript path, or pipe JSONL into stdin (-)");
    }
    return { target: "-", sessionId: null, mainPath: null, inputs: [input("-", "transcript", "main")], searched: dirs };
  }
  if (pathExists(target)) return fromPath(target, target, opts, dirs);
  if (/[\\/]/.test(target) || target.endsWith(".jsonl")) throw new UsageError(`no such file: ${target}`);
  const found = findSession(target, dirs);
  return fromPath(target, found.path, opts, dirs);
}

async function fromPath(target: string, path: string, opts: TargetOptions, dirs: string[]): Promise<ResolvedTarget> {
  checkNamedFile(path, "transcript");
  const agent = AGENT_FILE.exec(basename(path));
  if (agent) {
    return { target, sessionId: null, mainPath: null, inputs: [input(path, "subagent-transcript", agent[1]!)], searched: dirs };
  }
  const sessionId = sessionIdFromPath(path);
  const inputs = [input(path, "transcript", "main")];
  if (opts.subagents !== false) {
    for (const s of await findSubagents(path, sessionId)) inputs.push(input(s.path, "subagent-transcript", s.agentId));
  }
  return { target, sessionId, mainPath: path, inputs, searched: dirs };
}

function input(path: string, kind: InputFile["kind"], chain: string): InputFile {
  return { path, kind, bytes: 0, sha256: "", chain };
}
