import type { RequestsResult } from "../analyses/requests.js";
import { envelopeInputs } from "../assemble/inputs.js";
import type { CommandOutput } from "../report/envelope.js";
import { healthTable, healthWarnings } from "../report/health-table.js";
import { loadTranscripts, type CommonOptions } from "./common.js";
import { transcriptParts } from "../assemble/evidence.js";
import { documentHealth, type Health } from "../records/health.js";

/** `requests [target]`: one row per API request with tokens, delta and what was added in between. */
export async function runRequests(target: string | undefined, opts: CommonOptions): Promise<CommandOutput> {
  if (opts.streamJson !== undefined) return runRequestsWithRun(target, opts);
  const { resolved, health, results } = await loadTranscripts(target, opts, ["requests"]);
  const notes = resolved.mainMissing ? [orphanNote(resolved.sessionId, resolved.inputs.length, resolved.oldLayout)] : [];
  return await requestsOutput(
    resolved.sessionId ?? resolved.target,
    envelopeInputs(resolved.inputs),
    health,
    results.requests,
    opts,
    notes,
  );
}

/** What an orphan subagent folder's requests are: its subagents', the main file being gone (`oldLayout`: 2.0.x agent files beside it). */
export function orphanNote(sessionId: string | null, files: number, oldLayout = false): string {
  const beside = oldLayout ? "its old-layout agent-*.jsonl files" : "its subagents/ folder";
  return `main file missing: ${sessionId ?? "the session"}.jsonl is not beside ${beside}; read its ${files} subagent file(s)`;
}

/** With `--stream-json`: the run's session when no target is given, its own events when that transcript is missing. */
async function runRequestsWithRun(target: string | undefined, opts: CommonOptions): Promise<CommandOutput> {
  // The claude -p readers (stream-json and its parser) load only for a run's output.
  const [{ gatherWithRun }, { pickRequests }] = await Promise.all([
    import("../pipeline/gather-session.js"),
    import("../assemble/headless-output.js"),
  ]);
  const g = await gatherWithRun(target, opts, ["requests"]);
  const t = g.transcripts;
  const { requests, requestsFrom } = pickRequests(t.results.requests, g.headless);
  const health = documentHealth([...transcriptParts(t), ...(g.headless ? [{ health: g.headless.health, share: "whole" as const }] : [])]);
  const notes: string[] = [];
  if (g.transcriptMissing)
    notes.push(`transcript of session ${t.sessionId ?? "?"} not found on this machine (searched: ${t.resolved.searched.join(", ")})`);
  if (requestsFrom === "claude-p-output")
    notes.push("requests read from the claude -p output's assistant events (grouped by message id, max per field)");
  const inputs = envelopeInputs(t.resolved.inputs, g.headless ? [g.headless.input] : []);
  const out = await requestsOutput(t.sessionId ?? t.resolved.target, inputs, health, requests, opts, notes, g.warnings);
  out.data = { ...out.data, requestsFrom, transcriptMissing: g.transcriptMissing };
  return out;
}

async function requestsOutput(
  title: string,
  inputs: CommandOutput["inputs"],
  health: Health,
  r: RequestsResult,
  opts: CommonOptions,
  notes: string[],
  warnings: string[] = [],
): Promise<CommandOutput> {
  // JSON prints the rows themselves: the table builders load for the other formats only.
  const tables = opts.format === "json" ? [] : (await import("../report/requests-tables.js")).requestTables(r);
  if (tables[0] && notes.length) tables[0] = { ...tables[0], notes: [...notes, ...(tables[0].notes ?? [])] };
  // With no request table to carry them (an orphan folder read with --no-subagents), the notes are warnings.
  const orphaned = opts.format !== "json" && !tables[0] ? notes : [];
  return {
    command: "requests",
    inputs,
    health,
    data: { requests: r.requests, totals: r.totals, subagents: r.subagents },
    document: {
      title: `Requests — ${title}`,
      // JSON prints the domain rows, not the tables: a second copy of a million rows is memory for nothing.
      tables: opts.format === "json" ? [] : [...tables, healthTable(health)],
      warnings: [...warnings, ...orphaned, ...healthWarnings(health)],
    },
  };
}
