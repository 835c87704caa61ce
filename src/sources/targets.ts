import { basename } from "node:path";
import { UsageError } from "../errors.js";
import type { InputFile } from "./input.js";
import {
  configDirs,
  findSession,
  findSubagents,
  isEvidenceSessionId,
  sessionIdFromName,
  sessionIdFromPath,
  sessionRoot,
  type ConfigDirOptions,
  type SessionFile,
} from "./discover.js";
import { checkNamedFile, pathExists } from "./guard.js";
import { readSubagentToolUseId } from "./subagent-meta.js";
import { describe, filterSessions, newestSession, noSessionError, type Picked } from "./newest.js";
import { filtering, type SessionFilter } from "./session-filter.js";

export interface TargetOptions extends ConfigDirOptions {
  subagents?: boolean;
  stdinIsTTY?: boolean;
  /** `--project`, `--since`, `--until`: which sessions a lookup (by id, or the newest) may pick. */
  filter?: SessionFilter;
  /**
   * The target was read from evidence (a `claude -p` output's session id, a run.json's `session`): it is
   * looked up only as a session id, exactly, never stat'ed or opened as a path (REFERENCE.md "Safety").
   */
  idOnly?: boolean;
}

/** What a target resolved to: the transcript inputs, each its own chain, and the session they belong to. */
export interface ResolvedTarget {
  target: string;
  sessionId: string | null;
  mainPath: string | null;
  inputs: InputFile[];
  searched: string[];
  /** The session's main file is gone (an orphan subagent folder): its inputs are its subagents only. */
  mainMissing?: boolean;
  /** Such a session of the old layout (2.0.x): its subagents are `agent-*.jsonl` files beside where its main file was. */
  oldLayout?: boolean;
  /** Set when no target was given on a terminal and the newest session was picked (the CLI names it on stderr). */
  picked?: Picked;
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
  const filter = opts.filter ?? {};
  if (opts.idOnly) return fromEvidenceId(target, opts, dirs);
  if (target === undefined && opts.stdinIsTTY === true) {
    const picked = newestSession(dirs, filter);
    if (!picked) throw noSessionError(dirs, filter);
    const from = picked.file.mainMissing
      ? fromOrphan(picked.file.id, picked.file, opts, dirs)
      : fromPath(picked.file.id, picked.file.path, opts, dirs);
    return { ...(await from), picked };
  }
  const given = target === undefined || target === "-" ? "stdin" : pathExists(target) ? "a transcript path" : undefined;
  if (given && filtering(filter)) {
    throw new UsageError(
      `${describe(filter)} picks among the sessions under the config dirs; it does not apply to ${given}: give a session id, or no target`,
    );
  }
  if (target === undefined || target === "-") {
    return { target: "-", sessionId: null, mainPath: null, inputs: [input("-", "transcript", "main")], searched: dirs };
  }
  if (pathExists(target)) return fromPath(target, target, opts, dirs);
  if (/[\\/]/.test(target) || target.endsWith(".jsonl")) throw new UsageError(`no such file: ${target}`);
  const narrow = filtering(filter)
    ? { keep: (hits: SessionFile[]) => filterSessions(hits, filter), by: `matching ${describe(filter)}` }
    : undefined;
  const found = findSession(target, dirs, narrow);
  return found.mainMissing ? fromOrphan(target, found, opts, dirs) : fromPath(target, found.path, opts, dirs);
}

/**
 * A session id named by evidence: only a plain id (`isEvidenceSessionId`) is looked up, exactly, as
 * `projects/*\/<id>.jsonl` under the config dirs; anything else is refused before any file is touched.
 */
async function fromEvidenceId(target: string | undefined, opts: TargetOptions, dirs: string[]): Promise<ResolvedTarget> {
  if (target === undefined || !isEvidenceSessionId(target)) throw new NotASessionId(target ?? "");
  const filter = opts.filter ?? {};
  const narrow = filtering(filter)
    ? { keep: (hits: SessionFile[]) => filterSessions(hits, filter), by: `matching ${describe(filter)}` }
    : undefined;
  const found = findSession(target, dirs, narrow, true);
  return found.mainMissing ? fromOrphan(target, found, opts, dirs) : fromPath(target, found.path, opts, dirs);
}

/** A session id read from evidence that is not shaped like one (a path, `..`, a dot): it is not used. */
export class NotASessionId extends UsageError {
  constructor(readonly value: string) {
    super(
      `not a session id: ${JSON.stringify(value.length > 120 ? `${value.slice(0, 120)}…` : value)} (an id read from evidence is never used as a path)`,
    );
  }
}

/** A session whose main file is gone: its subagents are all there is to read (FORMATS.md 11). */
async function fromOrphan(target: string, f: SessionFile, opts: TargetOptions, dirs: string[]): Promise<ResolvedTarget> {
  const home = sessionIdFromName(f.id);
  const subs = opts.subagents === false ? [] : await findSubagents(f.path, f.id);
  const inputs = subs.map((s) => subagentInput(s.path, s.agentId, f.configDir, home));
  return {
    target,
    sessionId: f.id,
    mainPath: null,
    inputs,
    searched: dirs,
    mainMissing: true,
    ...(f.oldLayout ? { oldLayout: true } : {}),
  };
}

async function fromPath(target: string, path: string, opts: TargetOptions, dirs: string[]): Promise<ResolvedTarget> {
  checkNamedFile(path, "transcript");
  const agent = AGENT_FILE.exec(basename(path));
  if (agent) {
    return { target, sessionId: null, mainPath: null, inputs: [input(path, "subagent-transcript", agent[1]!)], searched: dirs };
  }
  const sessionId = sessionIdFromPath(path);
  const home = sessionIdFromName(sessionId);
  const inputs = [input(path, "transcript", "main", home)];
  if (opts.subagents !== false) {
    const root = sessionRoot(path);
    for (const s of await findSubagents(path, sessionId)) inputs.push(subagentInput(s.path, s.agentId, root, home));
  }
  return { target, sessionId, mainPath: path, inputs, searched: dirs };
}

function input(path: string, kind: InputFile["kind"], chain: string, sessionId?: string): InputFile {
  return { path, kind, bytes: 0, sha256: "", chain, ...(sessionId !== undefined ? { sessionId } : {}) };
}

/** A subagent transcript of a session, with its parent's tool_use id when its `.meta.json` names one (FORMATS.md 4.6). */
function subagentInput(path: string, agentId: string, root: string, sessionId?: string): InputFile {
  const i = input(path, "subagent-transcript", agentId, sessionId);
  const toolUseId = readSubagentToolUseId(path, root);
  if (toolUseId !== undefined) i.parentToolUseId = toolUseId;
  return i;
}
