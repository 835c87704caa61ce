import { assembleFleetSession, type FleetSession } from "../assemble/fleet-session.js";
import { envelopeInputs } from "../assemble/inputs.js";
import { fleetSessions, planFleet, type FleetPlan } from "../pipeline/gather-fleet.js";
import { documentHealth, emptyHealth, mergeHealth, type Health } from "../records/health.js";
import type { FleetEvidence } from "../assemble/fleet-session.js";
import type { InputFile } from "../sources/input.js";
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
  for await (const ev of fleetSessions(plan, gather, targets.length === 0)) {
    const s = assembleFleetSession(ev);
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
