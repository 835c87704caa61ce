import { documentHealth, type Health, type InputHealth } from "../records/health.js";
import { inventoryAnalysis, type InventoryResult } from "../analyses/inventory.js";
import { instructionsAnalysis } from "../analyses/instructions.js";
import { outputsAnalysis } from "../analyses/outputs.js";
import type { ProbePatterns } from "../analyses/probe.js";
import { requestsAnalysis, type RequestsResult } from "../analyses/requests.js";
import type { RpcResult } from "../analyses/rpc.js";
import { UsageError } from "../errors.js";
import { headlessSessionId, type HeadlessRun } from "../analyses/headless-run.js";
import { toolsByName } from "../records/tools-list.js";
import { readHeadlessRun, readRpcEvidence, type DebugEvidence, type Gathered } from "../pipeline/evidence.js";
import { debugEvidenceFor } from "../pipeline/locate.js";
import { runSection, type RunSection } from "../report/run-tables.js";
import { evidenceInput } from "../sources/evidence.js";
import type { InputFile } from "../sources/input.js";
import type { ResolvedTarget } from "../sources/targets.js";
import { loadTranscripts, type CommonOptions } from "./common.js";
import { envelopeInputs } from "./inputs.js";
import { instructionsFromPass, type LoadedInstructions } from "./instructions-load.js";
import { outputsFromPass, type LoadedOutputs } from "./outputs-load.js";

/** Everything ccforensics knows about one session: the sections of `report` and one row of `compare`. */
export interface SessionAnalysis {
  resolved: ResolvedTarget;
  sessionId: string | null;
  transcript: string | null;
  requests: RequestsResult;
  inventory: InventoryResult;
  instructions: LoadedInstructions;
  outputs: LoadedOutputs;
  debug: Gathered<DebugEvidence> | null;
  rpc: { input: InputFile; result: RpcResult } | null;
  run: { input: InputFile; run: HeadlessRun; section: RunSection } | null;
  inputs: InputFile[];
  health: Health;
  warnings: string[];
}

export interface SessionOptions {
  probe: ProbePatterns;
  wrapperTokens: number | null;
}

/**
 * One pass over the transcripts with every analysis side by side, then each other evidence file read
 * once: the `claude -p` output (whose session id finds the transcript when no target is given), the
 * debug log (given or `<config dir>/debug/<session>.txt`), the MCP message log, the saved tool results.
 */
export async function analyseSession(target: string | undefined, opts: CommonOptions, so: SessionOptions): Promise<SessionAnalysis> {
  const warnings: string[] = [];
  let run: SessionAnalysis["run"] = null;
  let runHealth: InputHealth | null = null;
  if (opts.streamJson) {
    const g = await readHeadlessRun(evidenceInput(opts.streamJson, "stream-json"), { stdin: opts.stdin });
    run = { input: g.input, run: g.result, section: runSection(g.result) };
    runHealth = { health: g.health, share: "whole" };
    // No target: the run's own session id finds the transcript ("-" still reads stdin).
    if (target === undefined) {
      const id = headlessSessionId(g.result);
      if (!id) throw new UsageError(`${opts.streamJson}: no session id in its init or result event; give the session as a target`);
      target = id;
    }
  }
  const { resolved, passes, results } = await loadTranscripts(target, opts, {
    requests: requestsAnalysis,
    instructions: instructionsAnalysis,
    outputs: outputsAnalysis,
    inventory: inventoryAnalysis,
  });
  const transcriptHealth: InputHealth[] = passes.map((p) => ({ health: p.health, share: "whole" }));
  const sessionId = resolved.sessionId ?? results.outputs.sessionIds[0] ?? null;
  const first = resolved.inputs[0]?.path ?? null;
  const transcript = resolved.mainPath ?? (first !== "-" ? first : null);
  const debug = await debugEvidenceFor(transcript, sessionId, opts);

  // One read of the message log: the handshake, and any tools/list answer for the outputs' annotations.
  let rpc: SessionAnalysis["rpc"] = null;
  let rpcHealth: InputHealth | null = null;
  const toolDefs = [];
  if (opts.rpcLog) {
    const g = await readRpcEvidence(evidenceInput(opts.rpcLog, "rpc-log"), { stdin: opts.stdin });
    rpc = { input: g.input, result: g.result.rpc };
    rpcHealth = { health: g.health, share: "bad-lines" };
    toolDefs.push(...g.result.tools);
  }

  const instructions = await instructionsFromPass(resolved, transcriptHealth, { requests: results.requests, instructions: results.instructions }, opts, so, {
    debug,
    run: run && runHealth ? { input: run.input, health: runHealth.health, result: run.run } : null,
  });
  const tools = rpc ? toolsByName(toolDefs) : null;
  const outputs = await outputsFromPass(target, resolved, transcriptHealth, results.outputs, results.requests.requests, opts, { tools, debug });
  // Tool annotations from the message log are a bonus here: say they are missing only when an MCP result could use them.
  if (rpc && toolDefs.length === 0 && outputs.rows.some((r) => r.server !== null && r.check !== "inline")) {
    warnings.push(`${rpc.input.path}: no tools/list response in the message log; tool annotations unknown`);
  }
  warnings.push(...outputs.warnings);

  const inputs = envelopeInputs(
    resolved.inputs,
    debug ? [debug.input] : [],
    run ? [run.input] : [],
    rpc ? [rpc.input] : [],
    outputs.inputs,
    instructions.inputs,
  );
  // The instructions join already holds the transcripts, the debug log, the run and the baseline; the message log joins here.
  const health = documentHealth([...instructions.parts, ...(rpcHealth ? [rpcHealth] : [])]);
  return { resolved, sessionId, transcript, requests: results.requests, inventory: results.inventory, instructions, outputs, debug, rpc, run, inputs, health, warnings };
}
