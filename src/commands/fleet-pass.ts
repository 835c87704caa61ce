import { assembleFleetSession, type FleetSession } from "../assemble/fleet-session.js";
import { envelopeInputs } from "../assemble/inputs.js";
import { fleetSessions, planFleet, type FleetPlan } from "../pipeline/gather-fleet.js";
import { documentHealth, emptyHealth, mergeHealth, type Health } from "../records/health.js";
import type { FleetEvidence } from "../assemble/fleet-session.js";
import type { InputFile } from "../sources/input.js";
import { realPath } from "../sources/guard.js";
import type { SessionFilter } from "../sources/session-filter.js";
import type { CommonOptions } from "./common.js";
import { progressReporter } from "./progress.js";

/** Warnings kept word for word; past this many only their number is (20,000 sessions can each miss a saved file). */
export const WARNINGS_KEPT = 50;

export interface FleetPass {
  plan: FleetPlan;
  sessions: number;
  inputs: InputFile[];
  health: Health;
  warnings: string[];
}

/**
 * The one loop of `servers` and `export`: each session is gathered, joined and handed to `each`, then
 * dropped; what is kept across sessions is the health, the inputs list and a bounded set of warnings.
 */
export async function foldFleet(
  targets: string[],
  opts: CommonOptions & { filter?: SessionFilter; tz?: string },
  each: (s: FleetSession, ev: FleetEvidence) => Promise<void> | void,
  plan: FleetPlan = planFleet(targets, opts),
): Promise<FleetPass> {
  const progress = progressReporter(opts.stderr, opts.stderrIsTTY, { total: plan.bytes });
  const health = emptyHealth();
  const inputs: InputFile[][] = [];
  const warnings: string[] = [...(plan.missing ?? [])];
  let dropped = 0;
  let sessions = 0;
  // Per-session progress.done() would end the line after every session; the pass ends it once.
  const gather = { ...opts, progress: progress ? { update: progress.update, done: () => undefined } : undefined };
  // Which files were read, and under which key each session id was written (F4: keys never collide).
  const readFiles = new Map<string, string>();
  const keys = new Map<string, Array<{ key: string; path: string }>>();
  for await (const ev of fleetSessions(plan, gather, targets.length === 0)) {
    const file = fileKey(ev);
    const again = file === undefined ? undefined : readFiles.get(file);
    if (again !== undefined) {
      // The same file reached twice (a repeated target, an id and its path): read once.
      if (warnings.length < WARNINGS_KEPT) warnings.push(`${ev.target}: the same transcript as ${again}, read once`);
      else dropped++;
      continue;
    }
    if (file !== undefined) readFiles.set(file, ev.target);
    const s = assembleFleetSession(ev);
    const id = s.composition.sessionId;
    if (id !== null) {
      // Another file with this session id (a copy in a second config dir or project): both are kept, the later keyed apart.
      const seen = keys.get(id) ?? [];
      const path = ev.transcripts.transcript ?? ev.target;
      const key = seen.length === 0 ? id : `${id}~${seen.length + 1}`;
      if (seen.length > 0) {
        s.composition.sessionId = key;
        const w = `session id ${id} is in ${seen.length + 1} different files: ${path} is keyed ${key} (${seen.map((x) => `${x.key}: ${x.path}`).join(", ")})`;
        if (warnings.length < WARNINGS_KEPT) warnings.push(w);
        else dropped++;
      }
      seen.push({ key, path });
      keys.set(id, seen);
    }
    sessions++;
    mergeHealth(health, documentHealth(s.parts));
    inputs.push(s.inputs);
    for (const w of s.warnings)
      if (warnings.length < WARNINGS_KEPT) warnings.push(w);
      else dropped++;
    await each(s, ev);
  }
  progress?.done();
  if (dropped > 0) warnings.push(`… and ${dropped.toLocaleString("en-US")} more warning(s) like these`);
  return { plan, sessions, inputs: envelopeInputs(...inputs), health, warnings };
}

/**
 * What makes two fleet sessions the same evidence: the real path of the main transcript, or for an orphan
 * (no main file) of its subagent files; stdin has none.
 */
function fileKey(ev: FleetEvidence): string | undefined {
  const r = ev.transcripts.resolved;
  if (r.mainPath !== null) return realPath(r.mainPath) ?? r.mainPath;
  const paths = r.inputs.map((i) => i.path).filter((p) => p !== "-");
  if (paths.length === 0) return undefined;
  return paths
    .map((p) => realPath(p) ?? p)
    .sort()
    .join("\n");
}
