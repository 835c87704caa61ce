import type { HeadlessRun } from "../analyses/headless-run.js";
import type { RequestsResult } from "../analyses/requests.js";
import { joinTools } from "../analyses/tools-join.js";
import type { SystemPromptRow, ToolRow } from "../analyses/tools.js";
import { documentHealth, type Health, type InputHealth } from "../records/health.js";
import { MAX_NAMES, otherLabel } from "../records/counts.js";
import type { ToolMeta } from "../records/tools-list.js";
import type { InputFile } from "../sources/input.js";
import { transcriptParts, type DebugEvidence, type Gathered, type RpcEvidence, type TranscriptEvidence } from "./evidence.js";

/** The evidence `tools` joins: the transcripts' pass, and what the logs add. */
export interface ToolsEvidence {
  target: string;
  transcripts: TranscriptEvidence<"requests" | "tools">;
  debug: Gathered<DebugEvidence> | null;
  rpc: Gathered<RpcEvidence> | null;
  toolsList: Gathered<{ tools: ToolMeta[]; error: string | null }> | null;
  headless: Gathered<HeadlessRun> | null;
}

export interface AssembledTools {
  target: string;
  sessionId: string | null;
  rows: ToolRow[];
  systemPrompt: SystemPromptRow | null;
  /** Where each kind of evidence came from, for the document's summary; null when not read. */
  evidence: { debugLog: string | null; rpcLog: string | null; toolsList: string | null; streamJson: string | null };
  /** The message log or tools/list file was read and held tools/list answers. */
  listed: number;
  inputs: InputFile[];
  health: Health;
  warnings: string[];
}

/** The tool rows of one session: transcripts joined with the message log's tools/list, the debug log's and init event's server names. Pure. */
export function assembleTools(ev: ToolsEvidence): AssembledTools {
  const t = ev.transcripts;
  const inputs: InputFile[] = [...t.resolved.inputs];
  const parts: InputHealth[] = transcriptParts(t);
  const warnings: string[] = [];
  const listed: ToolMeta[] = [];
  const servers: string[] = [];
  if (ev.debug) {
    inputs.push(ev.debug.input);
    parts.push({ health: ev.debug.health, share: "bad-lines" });
    servers.push(...ev.debug.result.servers);
  }
  if (ev.rpc) {
    inputs.push(ev.rpc.input);
    parts.push({ health: ev.rpc.health, share: "bad-lines" });
    listed.push(...ev.rpc.result.tools);
    if (ev.rpc.result.tools.length === 0)
      warnings.push(`${ev.rpc.input.path}: no tools/list response in the message log; source description lengths unknown`);
  }
  const tl = ev.toolsList;
  if (tl) {
    inputs.push(tl.input);
    parts.push({ health: tl.health, share: "bad-lines" });
    listed.push(...tl.result.tools);
    if (tl.result.error) warnings.push(`${tl.input.path}: stopped reading the tools/list response: ${tl.result.error}`);
    if (tl.result.tools.length === 0) warnings.push(`${tl.input.path}: no tools found (expected a tools/list response)`);
  }
  const init = ev.headless?.result.init ?? null;
  if (ev.headless) {
    inputs.push(ev.headless.input);
    parts.push({ health: ev.headless.health, share: "whole" });
    if (init) servers.push(...init.mcpServers.map((s) => s.name));
    // Its lists are capped as every name list is (records/counts.ts): what they left out is counted, and said.
    if (init?.toolsOther)
      warnings.push(
        `${ev.headless.input.path}: init event: ${otherLabel(init.toolsOther)} of tools past the first ${MAX_NAMES.toLocaleString("en-US")}, counted, not listed`,
      );
    if (init?.mcpServersOther)
      warnings.push(
        `${ev.headless.input.path}: init event: ${otherLabel(init.mcpServersOther)} of MCP servers past the first ${MAX_NAMES.toLocaleString("en-US")}, counted, not listed`,
      );
  }
  const requests: RequestsResult = t.results.requests;
  const joined = joinTools(t.results.tools, requests.requests, { listed, servers, init: init?.tools ?? [] });
  warnings.push(...joined.warnings);
  return {
    target: ev.target,
    sessionId: t.sessionId,
    rows: joined.tools,
    systemPrompt: joined.systemPrompt,
    evidence: {
      debugLog: ev.debug?.input.path ?? null,
      rpcLog: ev.rpc?.input.path ?? null,
      toolsList: tl?.input.path ?? null,
      streamJson: ev.headless?.input.path ?? null,
    },
    listed: listed.length,
    inputs,
    health: documentHealth(parts),
    warnings,
  };
}
