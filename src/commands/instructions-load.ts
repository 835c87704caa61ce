import { debugAnalysis, type DebugServer } from "../analyses/debug.js";
import { emptyHealth, mergeHealth, type Health } from "../analyses/health.js";
import { answerCheck, baselineCheck, pendingServers, type AnswerSummary, type BaselineSummary, type PendingServer } from "../analyses/instructions-checks.js";
import { joinRows, type InstructionRow, type Truncation } from "../analyses/instructions-join.js";
import { instructionsAnalysis } from "../analyses/instructions.js";
import type { ProbePatterns } from "../analyses/probe.js";
import { requestsAnalysis, type RequestsResult } from "../analyses/requests.js";
import { readDebugLog } from "../records/debug.js";
import { readClaudeRun, type McpServerStatus } from "../records/streamjson.js";
import { configDirs } from "../sources/discover.js";
import { evidenceInput, findDebugLog } from "../sources/evidence.js";
import type { InputFile } from "../sources/input.js";
import { loadTranscripts, type CommonOptions } from "./common.js";

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
  const inputs: InputFile[] = [...resolved.inputs];
  const scan = results.instructions;

  const sessionId = resolved.sessionId;
  const debugPath =
    opts.debugFile ?? (sessionId ? findDebugLog(configDirs({ claudeDir: opts.claudeDir, env: opts.env }), sessionId, opts.env ?? process.env) : undefined) ?? null;
  let debug: { file: string; truncations: Truncation[] } | null = null;
  let debugServers: DebugServer[] = [];
  if (debugPath !== null) {
    const input = evidenceInput(debugPath, "debug-log");
    inputs.push(input);
    const read = await readDebug(input);
    debug = { file: debugPath, truncations: read.truncations };
    debugServers = read.servers;
    mergeHealth(health, read.health);
  }

  let init: LoadedInstructions["init"] = null;
  let runAnswer: { file: string; text: string } | null = null;
  if (opts.streamJson) {
    const input = evidenceInput(opts.streamJson, "stream-json");
    inputs.push(input);
    const run = await readClaudeRun(input, { stdin: opts.stdin });
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
    const b = await loadTranscripts(opts.baseline, { ...opts, subagents: false, stdin: undefined }, { requests: requestsAnalysis, instructions: instructionsAnalysis });
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

/** One pass over the debug log: the truncation lines, and the debug command's reducer for connect times. */
async function readDebug(input: InputFile): Promise<{ truncations: Truncation[]; servers: DebugServer[]; health: Health }> {
  // Only the log's bad lines join health: its entries are not transcript records.
  const health = emptyHealth();
  const state = debugAnalysis.init();
  const truncations: Truncation[] = [];
  for await (const r of readDebugLog(input)) {
    if (r.kind === "malformed") {
      health.malformedCount += 1;
      health.malformed.push({ file: r.pos.file, line: r.pos.line, reason: r.reason, excerpt: r.excerpt });
      continue;
    }
    debugAnalysis.step(state, r);
    if (r.event.type === "mcp-instructions-truncated" && r.server !== null) {
      truncations.push({ server: r.server, from: r.event.from, to: r.event.to, file: input.path, line: r.pos.line, ms: r.ms });
    }
  }
  return { truncations, servers: debugAnalysis.finish(state).servers, health };
}
