import { joinCountTokens } from "../analyses/debug-count-tokens.js";
import type { HeadlessRun } from "../analyses/headless-run.js";
import type { InventoryResult } from "../analyses/inventory.js";
import type { RequestsResult } from "../analyses/requests.js";
import type { ToolResultRow } from "../analyses/outputs-join.js";
import { withSavedSizes } from "../analyses/outputs-evidence.js";
import type { DebugResult } from "../analyses/debug.js";
import { unrecognisedText, type RpcResult } from "../analyses/rpc.js";
import { toolDefsByName, type ToolMeta } from "../records/tools-list.js";
import { documentHealth, type Health } from "../records/health.js";
import type { InputFile } from "../sources/input.js";
import type { ResolvedTarget } from "../sources/targets.js";
import type { BaselineEvidence, DebugEvidence, Gathered, RpcEvidence, SavedEvidence, TranscriptEvidence } from "./evidence.js";
import { pickRequests } from "./headless-output.js";
import { headlessSection, type HeadlessSection } from "./headless-section.js";
import { assembleInstructions, type AssembledInstructions, type InstructionsOptions } from "./instructions.js";
import { envelopeInputs } from "./inputs.js";
import { assembleToolOutputs, type AssembledOutputs } from "./outputs.js";
import { assembleTools, type AssembledTools } from "./tools.js";

/** Everything gathered about one session (pipeline/gather-session.ts). */
export interface SessionEvidence {
  target: string;
  run: string;
  transcripts: TranscriptEvidence<"requests" | "instructions" | "outputs" | "inventory" | "tools">;
  debug: Gathered<DebugEvidence> | null;
  /** With the requests the run's own events show, when they were read (report). */
  headless: (Gathered<HeadlessRun> & { requests?: RequestsResult }) | null;
  /** The session the run names is in no config dir searched: the run is the only evidence of its requests. */
  transcriptMissing?: boolean;
  rpc: Gathered<RpcEvidence> | null;
  /** The message logs of a run's other servers (compare): their instructions answers give source lengths too. */
  otherRpc?: Array<Gathered<RpcEvidence>>;
  /** The config's server name of a message log, by its path (run.json `rpcLogs`). */
  rpcServers?: Record<string, string>;
  toolsList: Gathered<{ tools: ToolMeta[]; error: string | null }> | null;
  saved: SavedEvidence;
  baseline: BaselineEvidence | null;
  /** What gathering refused to use (a `claude -p` session id that is no session id). */
  warnings?: string[];
}

/** Everything ccforensics knows about one session: the sections of `report` and one row of `compare`. */
export interface AssembledSession {
  resolved: ResolvedTarget;
  sessionId: string | null;
  transcript: string | null;
  requests: RequestsResult;
  /** Where the requests were read: the transcripts, or the `claude -p` output's events when there was no transcript. */
  requestsFrom: "transcript" | "claude-p-output";
  transcriptMissing: boolean;
  inventory: InventoryResult;
  instructions: AssembledInstructions;
  outputs: AssembledOutputs;
  /** The tool definitions (`tools`); its inputs and health are already among the session's. */
  tools: AssembledTools;
  debug: Gathered<DebugEvidence> | null;
  rpc: { input: InputFile; result: RpcResult } | null;
  /** The `--tools FILE` given, if any. */
  toolsList: InputFile | null;
  run: { input: InputFile; run: HeadlessRun; section: HeadlessSection } | null;
  inputs: InputFile[];
  health: Health;
  warnings: string[];
}

/** The instructions and outputs joins over one session's evidence, plus the message log's sections. Pure. */
export function assembleSession(ev: SessionEvidence, io: InstructionsOptions): AssembledSession {
  const t = ev.transcripts;
  const rpcLogs = [...(ev.rpc ? [ev.rpc] : []), ...(ev.otherRpc ?? [])].map((r) => ({
    file: r.input.path,
    rpc: r.result.rpc,
    server: ev.rpcServers?.[r.input.path],
  }));
  const instructions = assembleInstructions(
    { transcripts: t, debug: ev.debug, headless: ev.headless, baseline: ev.baseline, rpc: rpcLogs },
    io,
  );
  const toolDefs = [...(ev.rpc?.result.tools ?? []), ...(ev.toolsList?.result.tools ?? [])];
  const tools = ev.rpc || ev.toolsList ? toolDefsByName(toolDefs) : null;
  const outputs = assembleToolOutputs({ target: ev.target, run: ev.run, transcripts: t, debug: ev.debug, saved: ev.saved }, tools);
  const warnings: string[] = [...(ev.warnings ?? [])];
  const tl = ev.toolsList;
  if (tl?.result.error) warnings.push(`${tl.input.path}: stopped reading the tools/list response: ${tl.result.error}`);
  if (tl && tl.result.tools.length === 0) warnings.push(`${tl.input.path}: no tools found (expected a tools/list response)`);
  // Tool annotations from the message log are a bonus here: say they are missing only when an MCP result could use them.
  if (ev.rpc && !tl && toolDefs.length === 0 && outputs.rows.some((r) => r.server !== null && r.check !== "inline")) {
    warnings.push(`${ev.rpc.input.path}: no tools/list response in the message log; tool annotations unknown`);
  }
  const unread = ev.rpc?.result.rpc.unrecognised;
  if (ev.rpc && unread) warnings.push(`${ev.rpc.input.path}: ${unrecognisedText(unread)}`);
  warnings.push(...outputs.warnings);
  const toolDefinitions = assembleTools({
    target: ev.target,
    transcripts: t,
    debug: ev.debug,
    rpc: ev.rpc,
    toolsList: tl,
    headless: ev.headless,
  });
  // Only what the join itself found: the logs' own warnings are said above.
  warnings.push(...toolDefinitions.warnings.filter((w) => w.startsWith("tools/list tool ")));
  const run = ev.headless ? { input: ev.headless.input, run: ev.headless.result, section: headlessSection(ev.headless.result) } : null;
  const inputs = envelopeInputs(
    t.resolved.inputs,
    ev.debug ? [ev.debug.input] : [],
    run ? [run.input] : [],
    ev.rpc ? [ev.rpc.input] : [],
    tl ? [tl.input] : [],
    outputs.inputs,
    instructions.inputs,
  );
  // The instructions join holds the transcripts, the debug log, the run and the baseline; the message log and tools/list join here.
  const alongside = [ev.rpc, tl].filter((g) => g !== null).map((g) => ({ health: g.health, share: "bad-lines" as const }));
  const health = documentHealth([...instructions.parts, ...alongside]);
  return {
    resolved: t.resolved,
    sessionId: t.sessionId,
    transcript: t.transcript,
    ...pickRequests(t.results.requests, ev.headless),
    transcriptMissing: ev.transcriptMissing === true,
    inventory: t.results.inventory,
    instructions,
    outputs,
    tools: toolDefinitions,
    // count_tokens requests inside a result's window get that result (a tool result of N chars, a Read).
    // Persisted sizes: the saved file's bytes where it was found, not the rounded `51.7KB`.
    debug: ev.debug ? { ...ev.debug, result: { ...ev.debug.result, debug: joinDebug(ev.debug.result.debug, outputs.rows) } } : null,
    rpc: ev.rpc ? { input: ev.rpc.input, result: ev.rpc.result.rpc } : null,
    toolsList: tl?.input ?? null,
    run,
    inputs,
    health,
    warnings,
  };
}

/** Rows whose tool_use was found: an unpaired result has no call, so no time window a count_tokens request could fall in. */
function pairedRows(rows: ToolResultRow[]): ToolResultRow[] {
  return rows.filter((r) => r.paired);
}

function joinDebug(d: DebugResult, rows: ToolResultRow[]): DebugResult {
  const j = joinCountTokens(d, pairedRows(rows));
  const persisted = withSavedSizes(j.persisted, rows);
  return persisted === j.persisted ? j : { ...j, persisted };
}
