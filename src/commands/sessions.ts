import { emptyHealth, mergeHealth } from "../records/health.js";
import { sessionGlanceAnalysis } from "../analyses/inventory.js";
import { sessionRequestsAnalysis } from "../analyses/session-requests.js";
import { healthWarnings } from "../report/health-table.js";
import { sessionsTable, type SessionListing } from "../report/sessions-tables.js";
import {
  configDirs,
  configDirSource,
  findSubagents,
  listAllSessions,
  missingConfigDirs,
  sessionIdFromName,
  SubagentIndex,
  unreadableReason,
  type SessionFile,
} from "../sources/discover.js";
import { UnreadableError } from "../errors.js";
import { skip, statPath } from "../sources/guard.js";
import type { InputFile } from "../sources/input.js";
import { Prefetch } from "../sources/prefetch.js";
import { readTranscripts } from "../pipeline/transcripts.js";
import { sessionMatches } from "../sources/session-filter.js";
import { totalBytes } from "../pipeline/newest-note.js";
import { CONFIG_DIR, FILTERS, OUTPUT } from "./options.js";
import { progressReporter } from "./progress.js";
import { sessionFilter } from "./since.js";
import type { CommandSpec } from "./registry.js";

export { parseSince } from "./since.js";

/** A listed session: what the table shows, plus where it lies (JSON). */
export interface SessionRow extends SessionListing {
  projectDir: string;
  path: string;
}

export const sessionsCommand: CommandSpec = {
  command: "sessions",
  describe: "sessions found under the config dirs, newest first: id, project (from the records' cwd), times, size, requests, subagents",
  examples: [
    ["ccforensics sessions", "every session under ~/.config/claude and ~/.claude"],
    ["ccforensics sessions --project widget --since 7d", "sessions of projects whose cwd contains 'widget', active in the last 7 days"],
    [
      "ccforensics sessions --claude-dir samples/claude-home --until 2026-04-30 --tz Europe/Berlin",
      "the sample sessions active until the end of April, times in Berlin time",
    ],
  ],
  common: [...OUTPUT, "strict", ...CONFIG_DIR, ...FILTERS],
  async run(argv) {
    const dirs = configDirs({ claudeDir: argv.claudeDir, env: argv.env, cwd: argv.cwd });
    const filter = sessionFilter(argv as { project?: unknown; since?: unknown; until?: unknown; tz?: unknown });
    // Merged as each session is kept, in order: what documentHealth over all of them would give, without
    // holding 20,000 healths to the end.
    const health = emptyHealth();
    const inputs: InputFile[] = [];
    const rows: SessionRow[] = [];
    const index = new SubagentIndex();
    const files = listAllSessions(dirs, index);
    // The total is for a progress line on a terminal; elsewhere it would be a stat of every session for nothing.
    const progress = progressReporter(argv.stderr, argv.stderrIsTTY, { total: argv.stderrIsTTY ? totalBytes(files) : undefined });
    // The main files, in the order they are read: a worker reads the small ones ahead.
    const ahead = new Prefetch(files.filter((s) => !s.mainMissing).map((s) => s.path));
    const readAhead = (path: string) => ahead.take(path);
    try {
      for await (const s of thenOldLayoutOrphans(files, index)) {
        const subs = await findSubagents(s.path, s.id, index);
        const home = sessionIdFromName(s.id);
        const at = (path: string, kind: InputFile["kind"], chain: string): InputFile => ({
          path,
          kind,
          bytes: 0,
          sha256: "",
          chain,
          ...(home ? { sessionId: home } : {}),
        });
        // An orphan folder's subagents stand in for the main file it lacks: its times, cwd and versions are theirs.
        const read = s.mainMissing ? subs.map((f) => at(f.path, "subagent-transcript", f.agentId)) : [at(s.path, "transcript", "main")];
        let pass;
        try {
          pass = await readTranscripts(
            read,
            { requests: sessionRequestsAnalysis, inventory: sessionGlanceAnalysis },
            { onProgress: progress?.update, readAhead },
          );
        } catch (e) {
          // One unreadable transcript among many is passed over and said (health.skipped), not the end of the listing.
          if (!(e instanceof UnreadableError)) throw e;
          skip(e.path, unreadableReason(e));
          continue;
        }
        const res = pass.results;
        const inv = res.inventory;
        let malformed = 0;
        let damaged = 0;
        for (const p of pass.inputs) {
          malformed += p.health.malformedCount;
          damaged += p.health.damagedCount;
        }
        const row: SessionRow = {
          sessionId: s.id,
          project: inv.cwd,
          projectDir: s.projectDir,
          path: s.path,
          firstTimestamp: inv.firstTimestamp,
          lastTimestamp: inv.lastTimestamp,
          bytes: s.mainMissing
            ? read.reduce((n, f) => n + f.bytes, 0)
            : read[0]!.bytes + subs.reduce((n, f) => n + (f.bytes ?? safeSize(f.path)), 0),
          requests: res.requests,
          subagents: subs.length,
          versions: inv.versions,
          malformed,
          damaged,
          mainFileMissing: s.mainMissing === true,
        };
        if (!sessionMatches(filter, { cwd: row.project, projectDir: row.projectDir, first: row.firstTimestamp, last: row.lastTimestamp }))
          continue;
        for (const p of pass.inputs) mergeHealth(health, p.health);
        inputs.push(...read);
        rows.push(row);
      }
      // An old-layout agent file of no session here is read by no row: said, not dropped.
      await index.reportUnmatched();
    } finally {
      ahead.close();
    }
    progress?.done();
    rows.sort((a, b) => (b.lastTimestamp ?? "").localeCompare(a.lastTimestamp ?? "") || a.sessionId.localeCompare(b.sessionId));
    return {
      command: "sessions",
      inputs,
      health,
      data: { sessions: rows, searched: dirs },
      document: {
        title: "Sessions",
        summary: [
          ["searched", dirs.join(", ")],
          ["sessions", rows.length, "int"],
        ],
        tables: [sessionsTable(rows)],
        warnings: [...missingConfigDirs(dirs, configDirSource(argv)), ...sharedIds(rows), ...healthWarnings(health)],
      },
    };
  },
};

/**
 * The sessions listed, then the old-layout orphans (2.0.x agent files whose session has no main file), found
 * from the peeks the lookups of the listed sessions' subagents made: the same sessions the other listings see.
 */
async function* thenOldLayoutOrphans(files: SessionFile[], index: SubagentIndex): AsyncGenerator<SessionFile> {
  yield* files;
  yield* await index.oldLayoutOrphans();
}

function safeSize(p: string): number {
  return statPath(p)?.size ?? 0;
}

/** Session ids, and files of one id, that the shared-id warning names; the rest are counted (every file is its own row). */
export const SHARED_SHOWN = 10;

/**
 * One session id in several files (a copy in a second config dir or project folder): each is its own row,
 * told apart only by where it lies, so the warning names them in the order `servers` and `export` read
 * them, with the keys export writes them under (`<id>~2`, …). A copied config dir shares every id: the
 * first SHARED_SHOWN ids are named, the rest counted, not one stderr line each.
 */
export function sharedIds(rows: readonly Pick<SessionRow, "sessionId" | "path">[]): string[] {
  const byId = new Map<string, string[]>();
  for (const r of rows) {
    const same = byId.get(r.sessionId);
    if (same) same.push(r.path);
    else byId.set(r.sessionId, [r.path]);
  }
  const out: string[] = [];
  let more = 0;
  for (const [id, same] of byId) {
    if (same.length < 2) continue;
    if (out.length >= SHARED_SHOWN) {
      more++;
      continue;
    }
    const paths = same.sort((a, b) => a.localeCompare(b));
    const named = paths.slice(0, SHARED_SHOWN).map((p, i) => `${i === 0 ? id : `${id}~${i + 1}`}: ${p}`);
    const rest = paths.length - named.length;
    out.push(`session id ${id} is in ${same.length} different files: ${named.join(", ")}${rest > 0 ? ` … and ${rest} more` : ""}`);
  }
  if (more > 0) out.push(`… and ${more} more session id${more === 1 ? "" : "s"} in several files (each file is its own row)`);
  return out;
}
