import type { DebugResult } from "../analyses/debug.js";
import type { InstructionsScan } from "../analyses/instructions.js";
import type { Truncation } from "../analyses/instructions-join.js";
import type { FirstRequestComposition } from "../analyses/first-request.js";
import type { InventoryResult } from "../analyses/inventory.js";
import type { OutputsCollected } from "../analyses/outputs.js";
import type { DebugFacts } from "../analyses/outputs-evidence.js";
import type { SavedLookup } from "../analyses/outputs-join.js";
import type { RequestsResult } from "../analyses/requests.js";
import type { RpcResult } from "../analyses/rpc.js";
import type { ToolsScan } from "../analyses/tools.js";
import type { Health, InputHealth } from "../records/health.js";
import type { ToolMeta } from "../records/tools-list.js";
import type { InputFile } from "../sources/input.js";
import type { ResolvedTarget } from "../sources/targets.js";

/**
 * What gathering (src/pipeline/gather*.ts) hands to assembling: every file read once, each with its
 * own health. The assemble functions are pure functions of these.
 */

/** One evidence file read through its Source: the input, its own health, and what the analyses found. */
export interface Gathered<T> {
  input: InputFile;
  health: Health;
  result: T;
}

/** A debug log's pass: the `debug` reducer and what the other commands take from the same lines. */
export interface DebugEvidence {
  debug: DebugResult;
  /** count_tokens, persisted and budget lines, which `outputs` matches results against. */
  facts: DebugFacts;
  /** Instruction truncation lines, which `instructions` checks sizes against. */
  truncations: Truncation[];
  /** MCP server names the log mentions. */
  servers: string[];
}

/** An MCP message log's pass: the handshake classification and any tools/list answer in it. */
export interface RpcEvidence {
  rpc: RpcResult;
  tools: ToolMeta[];
}

/** The analyses a transcript pass can run; each command picks the ones it needs. */
export interface TranscriptResults {
  requests: RequestsResult;
  instructions: InstructionsScan;
  outputs: OutputsCollected;
  inventory: InventoryResult;
  firstRequest: FirstRequestComposition;
  tools: ToolsScan;
}

/** A target's transcripts read in one pass: where they came from, each input's health, the results. */
export interface TranscriptEvidence<K extends keyof TranscriptResults = keyof TranscriptResults> {
  resolved: ResolvedTarget;
  /** The session id from the target, else from the records. */
  sessionId: string | null;
  /** The main transcript's path, or the first input's; null for stdin. */
  transcript: string | null;
  passes: Array<{ input: InputFile; health: Health }>;
  /** Health found only once the pass is done (request totals past 2^53 − 1). */
  derived: Health;
  results: Pick<TranscriptResults, K>;
}

/** A transcript pass's share of a document's health: every input whole, and what the sums found. */
export function transcriptParts(t: { passes: Array<{ health: Health }>; derived: Health }): InputHealth[] {
  return [...t.passes.map((p) => ({ health: p.health, share: "whole" as const })), { health: t.derived, share: "whole" }];
}

/** Every saved output a session's results print, looked up in its tool-results/ folder and streamed once. */
export interface SavedEvidence {
  dir: string | null;
  lookups: Map<string, SavedLookup>;
  inputs: InputFile[];
  warnings: string[];
}

/** A baseline run's first request, for the instructions cost. */
export interface BaselineEvidence {
  inputs: InputFile[];
  passes: Array<{ input: InputFile; health: Health }>;
  derived: Health;
  file: string;
  firstRequestTokens: number | null;
  instructions: number;
}
