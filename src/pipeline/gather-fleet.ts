import { FLEET_KEYS, type FleetEvidence } from "../assemble/fleet-session.js";
import { UnreadableError, UsageError } from "../errors.js";
import { skip } from "../sources/guard.js";
import {
  configDirs,
  configDirSource,
  knowFolders,
  listOrphanSessions,
  listSessionFiles,
  missingConfigDirs,
  SubagentIndex,
  unreadableReason,
} from "../sources/discover.js";
import { filterSessions } from "../sources/newest.js";
import { filtering } from "../sources/session-filter.js";
import { gatherDebug, gatherSaved, gatherTranscripts, runLabel, type GatherOptions } from "./gather.js";
import { totalBytes } from "./newest-note.js";

/** Where a fleet pass reads: the targets given, else every session under the config dirs that passes the filters. */
export interface FleetPlan {
  targets: string[];
  /** The config dirs searched (for the document and the output guard). */
  searched: string[];
  /** Bytes of the main transcripts listed, when known (progress). */
  bytes?: number;
  /** Named config dirs that are no directory, as warnings (a listing only). */
  missing?: string[];
}

/**
 * No target means every session under the config dirs, never stdin (CONTRACT.md `servers`, `export`):
 * only `-` reads stdin. The filters pick among the sessions listed, and narrow an id prefix given.
 */
export function planFleet(targets: string[], opts: GatherOptions): FleetPlan {
  const searched = configDirs({ claudeDir: opts.claudeDir, env: opts.env, cwd: opts.cwd });
  if (targets.length > 0) {
    if (targets.filter((t) => t === "-" || t === "").length > 1) throw new UsageError("stdin (-) can be given once");
    return { targets, searched };
  }
  const files = filterSessions([...listSessionFiles(searched), ...listOrphanSessions(searched)], opts.filter ?? {});
  // An orphan subagent folder has no main file to name: its id finds it, and reads its subagents.
  const listed = files.map((f) => (f.mainMissing ? f.id : f.path));
  return {
    targets: listed,
    searched,
    bytes: totalBytes(files.filter((f) => !f.mainMissing).map((f) => ({ path: f.path }))),
    missing: missingConfigDirs(searched, configDirSource(opts)),
  };
}

/**
 * The sessions of a plan one at a time: the caller folds each into its aggregates (or writes its rows)
 * before the next is read, so memory follows one session, not the fleet.
 */
export async function* fleetSessions(plan: FleetPlan, opts: GatherOptions, listed: boolean): AsyncGenerator<FleetEvidence> {
  // A listed session is a path the filters already passed; given to resolveTarget with them, a path is a usage error.
  const per: GatherOptions = listed && filtering(opts.filter ?? {}) ? { ...opts, filter: undefined } : opts;
  for (const target of plan.targets) {
    // A listed orphan is named by its folder's name: a session id to look up, not a path in the cwd.
    const o = listed && !/[\\/]/.test(target) ? { ...per, idOnly: true } : per;
    let ev: FleetEvidence;
    try {
      const transcripts = await gatherTranscripts(target === "" ? "-" : target, o, [...FLEET_KEYS]);
      const saved = await gatherSaved(transcripts.results.outputs, transcripts);
      const debug = await gatherDebug(transcripts, per);
      ev = { target, run: runLabel(target, transcripts.sessionId), transcripts, debug, saved };
    } catch (e) {
      // A session the listing found whose files cannot be read is passed over and said (health.skipped);
      // one the user named is a runtime failure.
      if (!listed || !(e instanceof UnreadableError)) throw e;
      skip(e.path, unreadableReason(e));
      continue;
    }
    yield ev;
  }
  if (listed) {
    // An old-layout agent file of no listed session is read by none: said (health.skipped), not dropped.
    const index = new SubagentIndex();
    knowFolders(plan.searched, index);
    await index.reportUnmatched();
  }
}
