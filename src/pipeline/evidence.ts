import { debugAnalysis, type DebugResult } from "../analyses/debug.js";
import { debugFactsAnalysis, serversNamedAnalysis, truncationsAnalysis } from "../analyses/debug-side.js";
import { headlessRunAnalysis, type HeadlessRun } from "../analyses/headless-run.js";
import type { Truncation } from "../analyses/instructions-join.js";
import type { DebugFacts } from "../analyses/outputs-evidence.js";
import { rpcAnalysis, type RpcResult } from "../analyses/rpc.js";
import { savedFileAnalysis, type SavedFileStats } from "../analyses/saved-file.js";
import { rpcToolsAnalysis, toolsListAnalysis } from "../analyses/tool-defs.js";
import { debugLogSource } from "../records/debug.js";
import type { Health } from "../records/health.js";
import { rpcLogSource } from "../records/rpc.js";
import { headlessSource } from "../records/streamjson.js";
import { toolResultSource } from "../records/tool-result-source.js";
import type { ToolMeta } from "../records/tools-list.js";
import { toolsListSource } from "../records/tools-list.js";
import type { InputFile } from "../sources/input.js";
import { runOne, type RunnerOptions } from "./runner.js";

/** One evidence file read through its Source: the input, its own health, and what the analyses found. */
export interface Gathered<T> {
  input: InputFile;
  health: Health;
  result: T;
}

/**
 * Everything the commands take from one Claude Code debug log, read in one pass: the `debug` reducer
 * (servers, events, flags), the facts `outputs` matches results against (count_tokens, persisted,
 * budget lines), the instruction truncation lines `instructions` checks sizes against, and the MCP
 * server names the log mentions.
 */
export interface DebugEvidence {
  debug: DebugResult;
  facts: DebugFacts;
  truncations: Truncation[];
  servers: string[];
}

export async function readDebugEvidence(input: InputFile, opts: RunnerOptions = {}): Promise<Gathered<DebugEvidence>> {
  const { results, health } = await runOne(input, debugLogSource, {
    debug: debugAnalysis,
    facts: debugFactsAnalysis(input.path),
    truncations: truncationsAnalysis(input.path),
    servers: serversNamedAnalysis,
  }, opts);
  return { input, health, result: results };
}

/** An MCP message log in one pass: the handshake classification, and any tools/list answer for the outputs' annotations. */
export interface RpcEvidence {
  rpc: RpcResult;
  tools: ToolMeta[];
}

export async function readRpcEvidence(input: InputFile, opts: RunnerOptions = {}): Promise<Gathered<RpcEvidence>> {
  const { results, health } = await runOne(input, rpcLogSource, { rpc: rpcAnalysis, tools: rpcToolsAnalysis }, opts);
  return { input, health, result: results };
}

/** A `--tools FILE` tools/list response. */
export async function readToolsList(input: InputFile, opts: RunnerOptions = {}): Promise<Gathered<{ tools: ToolMeta[]; error: string | null }>> {
  const { results, health } = await runOne(input, toolsListSource, { list: toolsListAnalysis }, opts);
  return { input, health, result: results.list };
}

/** A headless run's (`claude -p`) output. */
export async function readHeadlessRun(input: InputFile, opts: RunnerOptions = {}): Promise<Gathered<HeadlessRun>> {
  const { results, health } = await runOne(input, headlessSource, { run: headlessRunAnalysis(input.path) }, opts);
  return { input, health, result: results.run };
}

/** A saved tool output, streamed once: bytes, lines, longest line and layout. */
export async function inspectSavedFile(input: InputFile): Promise<SavedFileStats & { bytes: number }> {
  const { results } = await runOne(input, toolResultSource, { stats: savedFileAnalysis });
  return { bytes: input.bytes, ...results.stats };
}
