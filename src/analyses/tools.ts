import { arr, isObject, str, type JsonObject } from "../records/json.js";
import { isStringAt } from "../records/lazy-strings.js";
import { schemaChars } from "../records/tools-list.js";
import type { ContentBlock } from "../records/transcript.js";
import type { Analysis } from "./analysis.js";

/**
 * Tool definitions as the model was given them (FORMATS.md 4.1 `prompt_snapshot`, 5.2
 * `deferred_tools_delta`, 9.4 names and `_meta`). This file holds the transcript reducer and the
 * exported row types; tools-join.ts turns a scan into rows, and `serverToolCounts` gives other
 * commands (`servers`) the per-server counts.
 */

/** Where a tool was seen, best evidence of its size first. `init` (the `claude -p` init event's tool names) is ours, not CONTRACT's. */
export type ToolSource = "prompt-snapshot" | "tools-list" | "deferred-tools" | "tool-use" | "init";

export const SOURCE_ORDER: readonly ToolSource[] = ["prompt-snapshot", "tools-list", "deferred-tools", "tool-use", "init"];

/** Claude Code's cap on MCP tool descriptions and instructions, and the marker it appends (FORMATS.md 5.1). */
export const DESCRIPTION_CAP = 2048;
export const TRUNCATION_MARKER = "… [truncated]";

/** One row of `tools` (CONTRACT.md fields first, extras after). Unknown is null, never 0. */
export interface ToolRow {
  /** The name as Claude Code called it (`mcp__lab__lookup_part`, `Bash`); a listed tool no transcript named keeps its server's name. */
  name: string;
  server: string | null;
  source: ToolSource;
  /** Chars of the description as delivered (prompt snapshot), else the server's own (tools/list); null when neither shows it. */
  descriptionChars: number | null;
  /** true: the delivered text ends in the marker or is shorter than the server's; from tools/list alone, the server's text is over 2,048. */
  descriptionTruncated: boolean | null;
  schemaChars: number | null;
  /** true: listed behind ToolSearch; false: its full definition was sent (snapshot) or tools/list says alwaysLoad. */
  deferred: boolean | null;
  /** The first request that carried it (its chain in `chain`); for a call, the request whose answer called it. */
  requestIndex: number | null;
  chain: string | null;
  /** The MCP tool's own name (after `mcp__<server>__`), or the built-in's. */
  toolName: string;
  sources: ToolSource[];
  /** The server's description length from its tools/list answer, when the message log has it. */
  sourceDescriptionChars: number | null;
  /** How `descriptionTruncated` was decided. */
  truncationBasis: "marker" | "shorter-than-source" | "source-over-cap" | "delivered-whole" | null;
  /** The full definition reached the model: in a snapshot, loaded through ToolSearch, or called. */
  loaded: boolean | null;
  /** The first request that carried the full definition (same chain as `requestIndex` when known). */
  loadedRequestIndex: number | null;
  /** A deferred-tools delta later said it was no longer available. */
  removed: boolean;
  toolUses: number;
  /** tools/list `_meta["anthropic/alwaysLoad"]`. */
  alwaysLoad: boolean | null;
}

export interface SystemPromptRow {
  /** JS length of the first prompt snapshot's system prompt. */
  chars: number;
  requestIndex: number | null;
  chain: string;
  file: string;
  line: number;
  /** Snapshots that held a system prompt, and the largest one's length (they can change between requests). */
  snapshots: number;
  maxChars: number;
}

/** Per MCP server: what `servers` needs. Built-ins are under the server null. */
export interface ServerToolCounts {
  server: string | null;
  /** Tools known by any evidence. */
  tools: number;
  /** In a tools/list answer. */
  listed: number;
  loaded: number;
  deferred: number;
  called: number;
  truncatedDescriptions: number;
}

/** A place in a chain: a record's line, and whether the tool went out with the next request (`before`) or the record's own (`at`, a call). */
export interface Sighting {
  chain: string;
  file: string;
  line: number;
  mode: "before" | "at";
}

/** What one snapshot said of a tool. */
export interface SnapshotDef {
  descriptionChars: number | null;
  marker: boolean;
  schemaChars: number | null;
}

/** What the transcripts said of one tool name. */
export interface ToolSeen {
  name: string;
  sources: Set<ToolSource>;
  /** The first snapshot that defined it. */
  snapshot: SnapshotDef | null;
  deferred: boolean;
  removed: boolean;
  loadedBySearch: boolean;
  toolUses: number;
  /** The ids of the tool_use blocks counted in `toolUses` (a fleet pass counts each id once across sessions). */
  callIds: string[];
  /** The first sighting per chain. */
  first: Map<string, Sighting>;
  /** Per chain, the first place its full definition went out: a snapshot, a ToolSearch load, a call. */
  loadFirst: Map<string, Sighting>;
}

export interface PromptSeen {
  chars: number;
  at: Sighting;
  snapshots: number;
  maxChars: number;
}

export interface ToolsScan {
  tools: Map<string, ToolSeen>;
  systemPrompt: PromptSeen | null;
  /** Server names from `mcp_instructions_delta` addedNames: they decide how `mcp__a__b__c` splits. */
  servers: Set<string>;
  /** Ids of the tool_use blocks counted. */
  callIds: Set<string>;
}

/** One pass over a session's transcripts: prompt snapshots, deferred-tools deltas, tool calls and ToolSearch loads. */
export const toolsAnalysis: Analysis<ToolsScan, ToolsScan> = {
  init: () => ({ tools: new Map(), systemPrompt: null, servers: new Set(), callIds: new Set() }),
  step(s, rec) {
    if (rec.kind === "malformed") return;
    const at = (mode: Sighting["mode"]): Sighting => ({ chain: rec.chain, file: rec.pos.file, line: rec.pos.line, mode });
    if (rec.kind === "meta" && rec.type === "prompt_snapshot") return onSnapshot(s, rec.raw, at("before"));
    if (rec.kind === "attachment") {
      const a = rec.attachment;
      if (rec.attachmentType === "prompt_snapshot") return onSnapshot(s, a, at("before"));
      if (rec.attachmentType === "mcp_instructions_delta") for (const n of strings(a.addedNames)) s.servers.add(n);
      if (rec.attachmentType !== "deferred_tools_delta") return;
      for (const n of [...strings(a.addedNames), ...strings(a.readdedNames)]) {
        const t = seen(s, n, "deferred-tools", at("before"));
        t.deferred = true;
        t.removed = false;
      }
      for (const n of strings(a.removedNames)) seen(s, n, "deferred-tools", at("before")).removed = true;
      return;
    }
    if (rec.kind === "assistant") {
      for (const b of rec.content) {
        if (b.type !== "tool_use" || typeof b.name !== "string") continue;
        // A fork's or resume's copy of a call is the same call (FORMATS.md 1 trap 4): counted once.
        if (typeof b.id === "string") {
          if (s.callIds.has(b.id)) continue;
          s.callIds.add(b.id);
        }
        const t = loadedAt(seen(s, b.name, "tool-use", at("at")), at("at"));
        t.toolUses += 1;
        if (typeof b.id === "string") t.callIds.push(b.id);
      }
      return;
    }
    if (rec.kind === "user" && Array.isArray(rec.content)) {
      for (const b of rec.content)
        if (b.type === "tool_result")
          for (const n of toolReferences(b)) loadedAt(seen(s, n, "deferred-tools", at("before")), at("before")).loadedBySearch = true;
    }
  },
  finish: (s) => s,
};

function loadedAt(t: ToolSeen, at: Sighting): ToolSeen {
  if (!t.loadFirst.has(at.chain)) t.loadFirst.set(at.chain, at);
  return t;
}

function seen(s: ToolsScan, name: string, source: ToolSource, at: Sighting): ToolSeen {
  let t = s.tools.get(name);
  if (!t) {
    t = {
      name,
      sources: new Set(),
      snapshot: null,
      deferred: false,
      removed: false,
      loadedBySearch: false,
      toolUses: 0,
      callIds: [],
      first: new Map(),
      loadFirst: new Map(),
    };
    s.tools.set(name, t);
  }
  t.sources.add(source);
  if (!t.first.has(at.chain)) t.first.set(at.chain, at);
  return t;
}

/**
 * A prompt snapshot (2.1.285; field names are not documented, so the shapes the API itself uses are
 * read): `systemPrompt` or `system` as a string or text blocks, `tools` as `{name, description,
 * input_schema | inputSchema}`.
 */
function onSnapshot(s: ToolsScan, o: JsonObject, at: Sighting): void {
  const prompt = promptText(o.systemPrompt ?? o.system);
  if (prompt !== null) {
    const p = (s.systemPrompt ??= { chars: prompt.length, at, snapshots: 0, maxChars: 0 });
    p.snapshots += 1;
    p.maxChars = Math.max(p.maxChars, prompt.length);
  }
  for (const d of arr(o.tools) ?? []) {
    if (!isObject(d) || typeof d.name !== "string") continue;
    const t = loadedAt(seen(s, d.name, "prompt-snapshot", at), at);
    const desc = str(d.description);
    t.snapshot ??= {
      descriptionChars: desc?.length ?? null,
      marker: desc?.endsWith(TRUNCATION_MARKER) ?? false,
      schemaChars: schemaChars(d.input_schema ?? d.inputSchema ?? d.parameters),
    };
  }
}

function promptText(v: unknown): string | null {
  if (typeof v === "string") return v;
  if (!Array.isArray(v)) return null;
  const texts = v.flatMap((b) => (isObject(b) && typeof b.text === "string" ? [b.text] : typeof b === "string" ? [b] : []));
  return texts.length > 0 ? texts.join("\n\n") : null;
}

/** ToolSearch answers with `tool_reference` blocks naming the tools it loaded (the API's tool-search result shape). */
function toolReferences(b: ContentBlock): string[] {
  // Most results are text: reading it would decode it.
  if (isStringAt(b, "content")) return [];
  return (arr(b.content) ?? []).flatMap((c) =>
    isObject(c) && c.type === "tool_reference" && typeof c.tool_name === "string" ? [c.tool_name] : [],
  );
}

const strings = (v: unknown): string[] => (arr(v) ?? []).filter((x): x is string => typeof x === "string");

/** Per-server counts over `tools` rows, sorted by server (built-ins, null, last). */
export function serverToolCounts(rows: readonly ToolRow[]): ServerToolCounts[] {
  const by = new Map<string | null, ServerToolCounts>();
  for (const r of rows) {
    let c = by.get(r.server);
    if (!c) by.set(r.server, (c = { server: r.server, tools: 0, listed: 0, loaded: 0, deferred: 0, called: 0, truncatedDescriptions: 0 }));
    c.tools += 1;
    if (r.sources.includes("tools-list")) c.listed += 1;
    if (r.loaded === true) c.loaded += 1;
    if (r.deferred === true) c.deferred += 1;
    if (r.toolUses > 0) c.called += 1;
    if (r.descriptionTruncated === true) c.truncatedDescriptions += 1;
  }
  return [...by.values()].sort((a, b) => (a.server === null ? 1 : b.server === null ? -1 : a.server.localeCompare(b.server)));
}
