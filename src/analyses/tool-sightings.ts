import { arr, isObject, str, type JsonObject } from "../records/json.js";
import type { RequestRow } from "./request-row.js";
import type { ToolsScan } from "./tools.js";
import { joinTools } from "./tools-join.js";

/** How one session met a tool: listed as deferred (behind ToolSearch), defined in a prompt snapshot, loaded, called. */
export interface ToolSighting {
  name: string;
  /** The MCP server, as the tools analysis split the name; null for built-ins. */
  server: string | null;
  /** Its full definition reached the model (snapshot, ToolSearch load, or a call). */
  loaded: boolean;
  /** Named in a `deferred_tools_delta` attachment's `addedNames`: listed, loaded only on a ToolSearch. */
  deferred: boolean;
  /** Defined in a `prompt_snapshot`'s tools (loaded into the request), with its definition's JSON size. */
  defined: boolean;
  definitionChars: number | null;
  /** tool_use blocks that called it (every chain). */
  calls: number;
  /** Their ids, where they had one: a resume or fork copies a call with its id. */
  callIds: string[];
  /** The chains it was seen in (a resume copy's chain is labelled with the session it copies). */
  chains: string[];
}

/**
 * The tools a session shows, from the tools analysis (prompt snapshots, deferred-tools deltas, calls and
 * ToolSearch loads), in the shape the fleet aggregates read; the one place that knows that analysis.
 */
export function toolSightings(scan: ToolsScan, requests: Iterable<RequestRow>, servers: Iterable<string>): ToolSighting[] {
  const { tools } = joinTools(scan, requests, { listed: [], servers, init: [] });
  return tools.map((t) => ({
    name: t.name,
    server: t.server,
    deferred: t.deferred === true,
    defined: t.sources.includes("prompt-snapshot"),
    loaded: t.loaded === true,
    definitionChars: t.descriptionChars === null && t.schemaChars === null ? null : (t.descriptionChars ?? 0) + (t.schemaChars ?? 0),
    calls: t.toolUses,
    callIds: scan.tools.get(t.name)?.callIds ?? [],
    chains: [...(scan.tools.get(t.name)?.first.keys() ?? [])],
  }));
}

/** A prompt snapshot's tool definitions (`tools: [{name, description, input_schema}]`), each with its JSON length. */
export function snapshotTools(o: JsonObject): Array<{ name: string; chars: number }> {
  const out: Array<{ name: string; chars: number }> = [];
  for (const t of arr(o.tools) ?? []) {
    if (!isObject(t)) continue;
    const name = str(t.name);
    if (name !== undefined) out.push({ name, chars: JSON.stringify(t).length });
  }
  return out;
}
