import type { DebugServer } from "../analyses/debug.js";
import { mergeHealth, type Health } from "../analyses/health.js";
import { answerCheck, baselineCheck, pendingServers, type AnswerSummary, type BaselineSummary, type PendingServer } from "../analyses/instructions-checks.js";
import { joinRows, type InstructionRow, type Truncation } from "../analyses/instructions-join.js";
import { instructionsAnalysis } from "../analyses/instructions.js";
import type { ProbePatterns } from "../analyses/probe.js";
import { requestsAnalysis, type RequestsResult } from "../analyses/requests.js";
import { readClaudeRun, type ClaudeRun, type McpServerStatus } from "../records/streamjson.js";
import { evidenceInput } from "../sources/evidence.js";
import type { ResolvedTarget } from "../sources/targets.js";
import type { ResultOf } from "../analyses/analysis.js";
import { debugEvidenceFor, malformedOnly, type DebugEvidence } from "./debug-evidence.js";
import type { InputFile } from "../sources/input.js";
import { loadTranscripts, type CommonOptions } from "./common.js";

// --project/--since/--until pick the session measured; the baseline is named outright and must not be filtered away.
const NO_FILTER = { project: undefined, since: undefined, until: undefined };

export interface InstructionsOptions {
  probe: ProbePatterns;
  wrapperTokens: number | null;
}

/** Everything `instructions` found for one target, before it becomes tables. */
export interface LoadedInstructions {
  target: string;
  sessionId: string | null;
  rows: InstructionRow[];
  requests: RequestsResult;
  answer: AnswerSummary | null;
  baseline: BaselineSummary | null;
  pending: PendingServer[];
  debugLog: string | null;
  /** Per-server facts of the debug log (connect time, late by), when one was read. */
  debugServers: DebugServer[];
  /** Truncation lines no transcript text accounts for. */
  unmatchedTruncations: Truncation[];
  init: { file: string; servers: McpServerStatus[] } | null;
  inputs: InputFile[];
  health: Health;
}

/**
 * One pass over the target's transcripts (requests and instructions side by side), then the debug log
 * (given, or `<config dir>/debug/<session>.txt`), the `claude -p` output and the baseline run.
 */
export async function loadInstructions(target: string | undefined, opts: CommonOptions, io: InstructionsOptions): Promise<LoadedInstructions> {
  const { resolved, health, results } = await loadTranscripts(target, opts, { requests: requestsAnalysis, instructions: instructionsAnalysis });
  const transcript = resolved.mainPath ?? (resolved.inputs[0]?.path !== "-" ? (resolved.inputs[0]?.path ?? null) : null);
  const debugEv = await debugEvidenceFor(transcript, resolved.sessionId, opts);
  let run: { input: InputFile; run: ClaudeRun } | null = null;
  if (opts.streamJson) {
    const input = evidenceInput(opts.streamJson, "stream-json");
    run = { input, run: await readClaudeRun(input, { stdin: opts.stdin }) };
  }
  return instructionsFromPass(resolved, health, results, opts, io, { debug: debugEv, run });
}

/** Evidence read outside the transcript pass, once, by whoever calls (loadInstructions or report). */
export interface InstructionsEvidence {
  debug: DebugEvidence | null;
  run: { input: InputFile; run: ClaudeRun } | null;
}

/**
 * What follows the transcript pass: the debug log's truncation lines and connect times, the `claude -p`
 * init statuses and answer, the join, and the baseline run. Exported so `report` can run
 * `instructionsAnalysis` in its own single pass.
 */
export async function instructionsFromPass(
  resolved: ResolvedTarget,
  health: Health,
  results: { requests: RequestsResult; instructions: ResultOf<typeof instructionsAnalysis> },
  opts: CommonOptions,
  io: InstructionsOptions,
  ev: InstructionsEvidence,
): Promise<LoadedInstructions> {
  const inputs: InputFile[] = [...resolved.inputs];
  const scan = results.instructions;
  const sessionId = resolved.sessionId;
  const debugPath = ev.debug?.input.path ?? null;
  let debug: { file: string; truncations: Truncation[] } | null = null;
  let debugServers: DebugServer[] = [];
  if (ev.debug) {
    inputs.push(ev.debug.input);
    debug = { file: ev.debug.input.path, truncations: ev.debug.truncations };
    debugServers = ev.debug.result.servers;
    mergeHealth(health, malformedOnly(ev.debug.health));
  }

  let init: LoadedInstructions["init"] = null;
  let runAnswer: { file: string; text: string } | null = null;
  if (ev.run) {
    const { input, run } = ev.run;
    inputs.push(input);
    mergeHealth(health, run.health);
    if (run.init) init = { file: input.path, servers: run.init.mcpServers };
    if (run.result?.result) runAnswer = { file: input.path, text: run.result.result };
  }

  const rows = joinRows(scan, results.requests, { probe: io.probe, debug, init });
  for (const r of rows) {
    const late = debugServers.find((d) => d.name === r.server)?.lateByMs;
    if (r.late && late != null) r.late.evidence.push(`debug log: connected ${late.toLocaleString("en-US")} ms after the first API request`);
  }
  const answer = answerCheck(rows, scan, results.requests, runAnswer);

  let baseline: BaselineSummary | null = null;
  if (opts.baseline) {
    const b = await loadTranscripts(opts.baseline, { ...opts, subagents: false, ...NO_FILTER }, { requests: requestsAnalysis, instructions: instructionsAnalysis });
    inputs.push(...b.resolved.inputs);
    mergeHealth(health, b.health);
    const first = b.results.requests.totals.find((t) => t.chain === "main")?.firstTotalInputTokens ?? null;
    const file = b.resolved.mainPath ?? b.resolved.inputs[0]?.path ?? opts.baseline;
    baseline = baselineCheck(rows, results.requests, { file, firstRequestTokens: first, instructions: b.results.instructions.sightings.length }, io.wrapperTokens);
  }

  const used = new Set(rows.map((r) => r.debugLog?.line).filter((l): l is number => typeof l === "number"));
  return {
    target: resolved.target,
    sessionId,
    rows,
    requests: results.requests,
    answer,
    baseline,
    pending: pendingServers(rows, scan, init),
    debugLog: debugPath,
    debugServers,
    unmatchedTruncations: debug?.truncations.filter((t) => !used.has(t.line)) ?? [],
    init,
    inputs,
    health,
  };
}
