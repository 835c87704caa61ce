import { assembleOutputs, type ToolResultRow } from "../analyses/outputs-join.js";
import { documentHealth, type Health, type InputHealth } from "../records/health.js";
import type { ToolDefsByName } from "../records/tools-list.js";
import type { InputFile } from "../sources/input.js";
import { transcriptParts, type DebugEvidence, type Gathered, type SavedEvidence, type TranscriptEvidence } from "./evidence.js";

/** One target's tool results with everything read to explain them. */
export interface AssembledOutputs {
  target: string;
  /** Short label for cross-run tables: the session id, else the file name. */
  run: string;
  sessionId: string | null;
  transcript: string | null;
  toolResultsDir: string | null;
  debugLog: string | null;
  rows: ToolResultRow[];
  /** Results left out as copies of one listed (a fork's or resume's copy of the history). */
  copies: number;
  /** Results whose id no tool_use block of the transcript has: their `tool` is null. */
  unpaired: number;
  inputs: InputFile[];
  /** Each input's health with its share (transcripts whole, the debug log its bad lines). */
  parts: InputHealth[];
  health: Health;
  warnings: string[];
}

/** The gathered evidence `outputs` joins for one target. */
export interface OutputsEvidence {
  target: string;
  run: string;
  transcripts: TranscriptEvidence<"requests" | "outputs">;
  debug: Gathered<DebugEvidence> | null;
  saved: SavedEvidence;
}

/** The transcript's results with the request table, the saved files, the debug log and the tool annotations. Pure. */
export function assembleToolOutputs(
  ev: OutputsEvidence,
  tools: ToolDefsByName | null,
  opts: { mcpTokenLimit?: number | null } = {},
): AssembledOutputs {
  const t = ev.transcripts;
  const inputs: InputFile[] = [...t.resolved.inputs, ...ev.saved.inputs];
  const parts: InputHealth[] = transcriptParts(t);
  if (ev.debug) {
    inputs.push(ev.debug.input);
    parts.push({ health: ev.debug.health, share: "bad-lines" });
  }
  const rows = assembleOutputs(t.results.outputs, {
    requests: t.results.requests.requests,
    saved: ev.saved.lookups,
    debug: ev.debug?.result.facts ?? null,
    tools,
    servers: ev.debug?.result.servers ?? [],
    mcpTokenLimit: opts.mcpTokenLimit ?? null,
    abandoned: t.results.requests.abandoned,
  });
  const unpaired = rows.reduce((n, r) => n + (r.paired ? 0 : 1), 0);
  return {
    target: ev.target,
    run: ev.run,
    sessionId: t.sessionId,
    transcript: t.transcript,
    toolResultsDir: ev.saved.dir,
    debugLog: ev.debug?.input.path ?? null,
    rows,
    copies: t.results.outputs.copies,
    unpaired,
    inputs,
    parts,
    health: documentHealth(parts),
    warnings: [...ev.saved.warnings, ...(unpaired ? [unpairedWarning(rows)] : [])],
  };
}

/** Said once per target: the count and where the first few are (the call may be in a file not read, or the transcript was cut). */
function unpairedWarning(rows: ToolResultRow[]): string {
  const list = rows.filter((r) => !r.paired);
  const first = list.slice(0, 3).map((r) => `${r.file}:${r.line}`);
  return `${list.length} tool result(s) have no tool_use with their id in the transcript: tool unknown ("", paired false) for ${first.join(", ")}${list.length > 3 ? ", …" : ""}`;
}
