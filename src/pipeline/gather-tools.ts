import type { InputHealth } from "../records/health.js";
import { toolDefsByName, type ToolDefsByName, type ToolMeta } from "../records/tools-list.js";
import { evidenceInput } from "../sources/evidence.js";
import type { InputFile } from "../sources/input.js";
import { readRpcEvidence, readToolsList } from "./evidence.js";

export interface GatheredTools {
  /** Every definition by bare name (two servers may list the same name); null when neither flag was given. */
  tools: ToolDefsByName | null;
  inputs: InputFile[];
  parts: InputHealth[];
  warnings: string[];
}

/**
 * Tool definitions from `--tools FILE` (a tools/list response) and/or `--rpc-log FILE` (any MCP message
 * log the rpc reader accepts: every `result` with a `tools` array counts). Both are read alongside the
 * sessions, so they add only their bad lines to health.
 */
export async function gatherTools(opts: { tools?: string; rpcLog?: string }): Promise<GatheredTools> {
  const out: GatheredTools = { tools: null, inputs: [], parts: [], warnings: [] };
  if (opts.tools === undefined && opts.rpcLog === undefined) return out;
  const all: ToolMeta[] = [];
  if (opts.tools !== undefined) {
    const ev = await readToolsList({ ...evidenceInput(opts.tools, "rpc-log"), toolsList: true });
    out.inputs.push(ev.input);
    out.parts.push({ health: ev.health, share: "bad-lines" });
    if (ev.result.error) out.warnings.push(`${opts.tools}: stopped reading the tools/list response: ${ev.result.error}`);
    if (ev.result.tools.length === 0) out.warnings.push(`${opts.tools}: no tools found (expected a tools/list response)`);
    all.push(...ev.result.tools);
  }
  if (opts.rpcLog !== undefined) {
    const ev = await readRpcEvidence(evidenceInput(opts.rpcLog, "rpc-log"));
    out.inputs.push(ev.input);
    out.parts.push({ health: ev.health, share: "bad-lines" });
    if (ev.result.tools.length === 0)
      out.warnings.push(`${opts.rpcLog}: no tools/list response in the message log; tool annotations unknown`);
    all.push(...ev.result.tools);
  }
  out.tools = toolDefsByName(all);
  return out;
}
