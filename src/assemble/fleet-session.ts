import type { FirstRequestComposition } from "../analyses/first-request.js";
import { sessionSpan } from "../analyses/inventory.js";
import type { InstructionRow } from "../analyses/instructions-join.js";
import { compileProbe } from "../analyses/probe.js";
import type { SessionFacts } from "../analyses/servers.js";
import { toolSightings } from "../analyses/tool-sightings.js";
import { totalOf } from "../records/counts.js";
import type { InputHealth } from "../records/health.js";
import type { InputFile } from "../sources/input.js";
import type { DebugEvidence, Gathered, SavedEvidence, TranscriptEvidence } from "./evidence.js";
import { assembleInstructions } from "./instructions.js";
import { assembleToolOutputs, type AssembledOutputs } from "./outputs.js";

/** The analyses every fleet session is read with (servers and export need the same ones). */
export const FLEET_KEYS = ["requests", "instructions", "outputs", "inventory", "firstRequest", "tools"] as const;
export type FleetKey = (typeof FLEET_KEYS)[number];

/** One session of a fleet pass: its transcripts, debug log and saved outputs, read once. */
export interface FleetEvidence {
  target: string;
  run: string;
  transcripts: TranscriptEvidence<FleetKey>;
  debug: Gathered<DebugEvidence> | null;
  saved: SavedEvidence;
}

/** One session of a fleet pass, joined: what servers aggregates and export writes as rows. */
export interface FleetSession {
  facts: SessionFacts;
  outputs: AssembledOutputs;
  instructions: InstructionRow[];
  composition: SessionComposition;
  inputs: InputFile[];
  parts: InputHealth[];
  warnings: string[];
}

/**
 * The first request's make-up for one session, in characters, with tokens as shares of the first
 * request's total input (an estimate: characters per token differ between prose, code and JSON).
 */
export interface SessionComposition {
  sessionId: string | null;
  project: string | null;
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  chains: number;
  requests: number;
  firstRequestTokens: number | null;
  snapshot: boolean;
  systemPromptChars: number | null;
  builtinToolChars: number | null;
  mcpToolChars: number | null;
  instructionsChars: number;
  otherAttachmentChars: number;
  userTextChars: number;
  knownChars: number;
  /** Per MCP server: tool definitions in the prompt snapshot. */
  toolDefinitions: FirstRequestComposition["toolDefinitions"];
  /** "estimate": tokens split by character share of the first request; null fields when there is nothing to split. */
  tokensSource: "estimate";
  systemPromptTokens: number | null;
  toolTokens: number | null;
  instructionsTokens: number | null;
  otherTokens: number | null;
}

// The fleet reads no --probe flags: the lab's default patterns only decorate rows no fleet table shows.
const IO = { probe: compileProbe(), wrapperTokens: null };

/** Joins one fleet session's evidence (outputs, instructions, first request). Pure. */
export function assembleFleetSession(ev: FleetEvidence): FleetSession {
  const t = ev.transcripts;
  const outputs = assembleToolOutputs({ target: ev.target, run: ev.run, transcripts: t, debug: ev.debug, saved: ev.saved }, null);
  const instructions = assembleInstructions({ transcripts: t, debug: ev.debug, headless: null, baseline: null }, IO);
  const debugServers = ev.debug?.result.debug.servers ?? [];
  const known = [...t.results.outputs.knownServers, ...(ev.debug?.result.servers ?? [])];
  const facts: SessionFacts = {
    sessionId: t.sessionId,
    results: outputs.rows,
    instructions: instructions.rows,
    tools: toolSightings(t.results.tools, t.results.requests.requests, known),
    debugServers,
    knownServers: known,
  };
  return {
    facts,
    outputs,
    instructions: instructions.rows,
    composition: composition(ev),
    inputs: [...outputs.inputs],
    parts: outputs.parts,
    warnings: outputs.warnings,
  };
}

function composition(ev: FleetEvidence): SessionComposition {
  const r = ev.transcripts.results;
  const c = r.firstRequest;
  const main = r.requests.totals.find((x) => x.chain === "main");
  const inv = r.inventory;
  const cwd = Object.entries(inv.cwds).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
  const builtin = c.snapshot ? c.toolDefinitions.filter((d) => d.server === null).reduce((n, d) => n + d.chars, 0) : null;
  const mcp = c.snapshot ? c.toolDefinitions.filter((d) => d.server !== null).reduce((n, d) => n + d.chars, 0) : null;
  const other = totalOf(c.attachments) + c.userTextChars;
  const known = (c.systemPromptChars ?? 0) + (builtin ?? 0) + (mcp ?? 0) + c.instructionsChars + other;
  const first = main?.firstTotalInputTokens ?? null;
  // The rule `sessions` and the filters use: its own records in its main file, not the subagents' or copies'.
  const span = sessionSpan(inv.ownSpans, ev.transcripts.resolved.mainPath);
  // Without a snapshot the system prompt and tools are unknown, so any split would charge them to what is known.
  const share = (chars: number | null) =>
    !c.snapshot || first === null || chars === null || known === 0 ? null : Math.round((first * chars) / known);
  return {
    sessionId: ev.transcripts.sessionId,
    project: cwd,
    firstTimestamp: span.first,
    lastTimestamp: span.last,
    chains: r.requests.totals.length,
    requests: r.requests.totals.reduce((n, x) => n + x.requests, 0),
    firstRequestTokens: first,
    snapshot: c.snapshot,
    systemPromptChars: c.systemPromptChars,
    builtinToolChars: builtin,
    mcpToolChars: mcp,
    instructionsChars: c.instructionsChars,
    otherAttachmentChars: other - c.userTextChars,
    userTextChars: c.userTextChars,
    knownChars: known,
    toolDefinitions: c.toolDefinitions.filter((d) => d.server !== null),
    tokensSource: "estimate",
    systemPromptTokens: share(c.systemPromptChars),
    toolTokens: builtin === null && mcp === null ? null : share((builtin ?? 0) + (mcp ?? 0)),
    instructionsTokens: share(c.instructionsChars),
    otherTokens: share(other),
  };
}
