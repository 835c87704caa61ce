import { debugAnalysisWith, type DebugResult } from "../analyses/debug.js";
import { debugFactsAnalysis, serversNamedAnalysis, truncationsAnalysis } from "../analyses/debug-side.js";
import { headlessRequestsAnalysis } from "../analyses/headless-requests.js";
import { headlessRunAnalysis, type HeadlessRun } from "../analyses/headless-run.js";
import type { RequestsResult } from "../analyses/requests.js";
import { rpcAnalysisOf } from "../analyses/rpc.js";
import { savedFileAnalysis, type SavedFileStats } from "../analyses/saved-file.js";
import { rpcToolsAnalysis, toolsListAnalysis } from "../analyses/tool-defs.js";
import { debugLogSource } from "../records/debug.js";
import type { DebugEvidence, Gathered, RpcEvidence } from "../assemble/evidence.js";
import { rpcLogSource } from "../records/rpc.js";
import { headlessSource } from "../records/streamjson.js";
import { toolResultSource } from "../records/tool-result-source.js";
import { toolsListSource, type ToolMeta } from "../records/tools-list.js";
import type { InputFile } from "../sources/input.js";
import { spoolRowsFrom } from "../sources/row-spool.js";
import { runOne, type RunnerOptions } from "./runner.js";

/** The readers of single evidence files: each is one runner pass with the analyses its kind feeds. */

/**
 * A debug log: the `debug` reducer, the facts `outputs` and `instructions` join against, the servers it names. `env`:
 * `CCFORENSICS_SPOOL_ROWS`, the events kept in memory before the rest spill (sources/row-spool.ts).
 */
export async function readDebugEvidence(
  input: InputFile,
  opts: RunnerOptions = {},
  env: NodeJS.ProcessEnv = {},
): Promise<Gathered<DebugEvidence>> {
  const { results, health } = await runOne(
    input,
    debugLogSource,
    {
      debug: debugAnalysisWith({ memoryRows: spoolRowsFrom(env) }),
      facts: debugFactsAnalysis(input.path),
      truncations: truncationsAnalysis(input.path),
      servers: serversNamedAnalysis,
    },
    opts,
  );
  return { input, health, result: results };
}

/**
 * A debug log read for the `debug` reducer alone (the `debug` command): the facts the joins take from it would be a
 * second copy of every persisted and count_tokens line, used by nothing.
 */
export async function readDebugLogOnly(
  input: InputFile,
  opts: RunnerOptions = {},
  env: NodeJS.ProcessEnv = {},
): Promise<Gathered<DebugResult>> {
  const { results, health } = await runOne(input, debugLogSource, { debug: debugAnalysisWith({ memoryRows: spoolRowsFrom(env) }) }, opts);
  return { input, health, result: results.debug };
}

/**
 * An MCP message log: the handshake classification and every tools/list answer. `sentTexts`: also keep its distinct
 * instructions texts (rpc.ts `sentEntry`) for the verbatim check and a section's end; the commands that never check them keep none.
 */
export async function readRpcEvidence(
  input: InputFile,
  opts: RunnerOptions = {},
  keep: { sentTexts?: boolean } = {},
): Promise<Gathered<RpcEvidence>> {
  const rpc = rpcAnalysisOf({ sentTexts: keep.sentTexts === true });
  const { results, health } = await runOne(input, rpcLogSource, { rpc, tools: rpcToolsAnalysis }, opts);
  return { input, health, result: results };
}

/** A `--tools FILE` tools/list response. */
export async function readToolsList(
  input: InputFile,
  opts: RunnerOptions = {},
): Promise<Gathered<{ tools: ToolMeta[]; error: string | null }>> {
  const { results, health } = await runOne(input, toolsListSource, { list: toolsListAnalysis }, opts);
  return { input, health, result: results.list };
}

/** A headless run's (`claude -p`) output. */
export async function readHeadlessRun(input: InputFile, opts: RunnerOptions = {}): Promise<Gathered<HeadlessRun>> {
  const { results, health } = await runOne(input, headlessSource, { run: headlessRunAnalysis(input.path) }, opts);
  return { input, health, result: results.run };
}

/** A headless run's output with the requests its own events show (the evidence when its transcript is missing). */
export async function readHeadlessEvidence(
  input: InputFile,
  opts: RunnerOptions = {},
): Promise<Gathered<HeadlessRun> & { requests: RequestsResult }> {
  const { results, health } = await runOne(
    input,
    headlessSource,
    { run: headlessRunAnalysis(input.path), requests: headlessRequestsAnalysis },
    opts,
  );
  return { input, health, result: results.run, requests: results.requests };
}

/** A saved tool output, streamed once: bytes, lines, longest line and layout. */
export async function inspectSavedFile(input: InputFile): Promise<SavedFileStats & { bytes: number }> {
  const { results } = await runOne(input, toolResultSource, { stats: savedFileAnalysis });
  return { bytes: input.bytes, ...results.stats };
}
