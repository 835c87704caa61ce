import { emptyHealth, mergeHealth, type Health } from "../analyses/health.js";
import { inventoryAnalysis, type InventoryResult } from "../analyses/inventory.js";
import { instructionsAnalysis } from "../analyses/instructions.js";
import { outputsAnalysis } from "../analyses/outputs.js";
import type { ProbePatterns } from "../analyses/probe.js";
import { requestsAnalysis, type RequestsResult } from "../analyses/requests.js";
import type { RpcResult } from "../analyses/rpc.js";
import { UsageError } from "../errors.js";
import { readClaudeRun, runSessionId, type ClaudeRun } from "../records/streamjson.js";
import { readToolsList, toolsByName, toolsFromResult, type ToolMeta } from "../records/tools-list.js";
import { runSection, type RunSection } from "../report/run-tables.js";
import { evidenceInput } from "../sources/evidence.js";
import type { InputFile } from "../sources/input.js";
import type { ResolvedTarget } from "../sources/targets.js";
import { loadTranscripts, type CommonOptions } from "./common.js";
import { joinCountTokens } from "../analyses/debug-count-tokens.js";
import { debugEvidenceFor, type DebugEvidence } from "./debug-evidence.js";
import { envelopeInputs } from "./inputs.js";
import { instructionsFromPass, type LoadedInstructions } from "./instructions-load.js";
import { outputsFromPass, type LoadedOutputs } from "./outputs-load.js";
import { analyseRpcLog } from "./rpc.js";

/** Everything ccforensics knows about one session: the sections of `report` and one row of `compare`. */
export interface SessionAnalysis {
  resolved: ResolvedTarget;
  sessionId: string | null;
  transcript: string | null;
  requests: RequestsResult;
  inventory: InventoryResult;
  instructions: LoadedInstructions;
  outputs: LoadedOutputs;
  debug: DebugEvidence | null;
  rpc: { input: InputFile; result: RpcResult } | null;
  /** The `--tools FILE` given, if any. */
  toolsList: InputFile | null;
  run: { input: InputFile; run: ClaudeRun; section: RunSection } | null;
  inputs: InputFile[];
  health: Health;
  warnings: string[];
}

export interface SessionOptions {
  probe: ProbePatterns;
  wrapperTokens: number | null;
  /** `--tools FILE`: a tools/list response, for the servers whose message log is not given. */
  toolsFile?: string;
}

/**
 * One pass over the transcripts with every analysis side by side, then each other evidence file read
 * once: the `claude -p` output (whose session id finds the transcript when no target is given), the
 * debug log (given or `<config dir>/debug/<session>.txt`), the MCP message log, the saved tool results.
 */
export async function analyseSession(target: string | undefined, opts: CommonOptions, so: SessionOptions): Promise<SessionAnalysis> {
  const health = emptyHealth();
  const warnings: string[] = [];
  let run: SessionAnalysis["run"] = null;
  if (opts.streamJson) {
    const input = evidenceInput(opts.streamJson, "stream-json");
    const r = await readClaudeRun(input, { stdin: opts.stdin });
    run = { input, run: r, section: runSection(r) };
    mergeHealth(health, r.health);
    // No target: the run's own session id finds the transcript ("-" still reads stdin).
    if (target === undefined) {
      const id = runSessionId(r);
      if (!id) throw new UsageError(`${opts.streamJson}: no session id in its init or result event; give the session as a target`);
      target = id;
    }
  }
  const { resolved, health: th, results } = await loadTranscripts(target, opts, {
    requests: requestsAnalysis,
    instructions: instructionsAnalysis,
    outputs: outputsAnalysis,
    inventory: inventoryAnalysis,
  });
  mergeHealth(health, th);
  const sessionId = resolved.sessionId ?? results.outputs.sessionIds[0] ?? null;
  const first = resolved.inputs[0]?.path ?? null;
  const transcript = resolved.mainPath ?? (first !== "-" ? first : null);
  const debug = await debugEvidenceFor(transcript, sessionId, opts);
  if (debug) mergeHealth(health, debug.health);

  // One read of the message log: the handshake, and any tools/list answer for the outputs' annotations.
  let rpc: SessionAnalysis["rpc"] = null;
  const toolDefs: ToolMeta[] = [];
  if (opts.rpcLog) {
    const input = evidenceInput(opts.rpcLog, "rpc-log");
    const r = await analyseRpcLog(input, opts, (rec) => {
      if (rec.kind === "rpc" && rec.shape === "result") toolDefs.push(...toolsFromResult(rec.message.result));
    });
    rpc = { input, result: r.result };
    mergeHealth(health, r.health);
  }
  let toolsInput: InputFile | null = null;
  if (so.toolsFile !== undefined) {
    toolsInput = evidenceInput(so.toolsFile, "rpc-log");
    const res = await readToolsList(toolsInput);
    if (res.error) warnings.push(`${so.toolsFile}: stopped reading the tools/list response: ${res.error}`);
    if (res.tools.length === 0) warnings.push(`${so.toolsFile}: no tools found (expected a tools/list response)`);
    toolDefs.push(...res.tools);
  }

  // The join steps merge the extra evidence's health themselves; give them scratch health so nothing counts twice.
  const instructions = await instructionsFromPass(resolved, emptyHealth(), { requests: results.requests, instructions: results.instructions }, opts, so, {
    debug,
    run: run ? { input: run.input, run: run.run } : null,
  });
  const tools = rpc || toolsInput ? toolsByName(toolDefs) : null;
  const outputs = await outputsFromPass(target, resolved, emptyHealth(), results.outputs, results.requests.requests, opts, { tools, debug });
  // Tool annotations from the message log are a bonus here: say they are missing only when an MCP result could use them.
  if (rpc && !toolsInput && toolDefs.length === 0 && outputs.rows.some((r) => r.server !== null && r.check !== "inline")) {
    warnings.push(`${rpc.input.path}: no tools/list response in the message log; tool annotations unknown`);
  }
  warnings.push(...outputs.warnings);
  // count_tokens requests inside a result's window get that result (a tool result of N chars, a Read).
  if (debug) joinCountTokens(debug.result, outputs.rows);

  const inputs = envelopeInputs(
    resolved.inputs,
    debug ? [debug.input] : [],
    run ? [run.input] : [],
    rpc ? [rpc.input] : [],
    toolsInput ? [toolsInput] : [],
    outputs.inputs,
    instructions.inputs,
  );
  return { resolved, sessionId, transcript, requests: results.requests, inventory: results.inventory, instructions, outputs, debug, rpc, toolsList: toolsInput, run, inputs, health, warnings };
}
