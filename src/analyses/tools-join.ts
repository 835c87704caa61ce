import { normalizeServer, splitToolName } from "../records/tool-names.js";
import type { ToolMeta } from "../records/tools-list.js";
import type { RequestRow } from "./request-row.js";
import {
  DESCRIPTION_CAP,
  SOURCE_ORDER,
  type Sighting,
  type SystemPromptRow,
  type ToolRow,
  type ToolSeen,
  type ToolSource,
  type ToolsScan,
} from "./tools.js";

export interface ToolsContext {
  /** Every tool of every tools/list answer read (message log, `--tools FILE`), in order. */
  listed: readonly ToolMeta[];
  /** Server names known from other evidence (debug log, init event): they decide how names split. */
  servers: Iterable<string>;
  /** Tool names of the `claude -p` init event. */
  init: readonly string[];
}

export interface ToolsJoined {
  tools: ToolRow[];
  systemPrompt: SystemPromptRow | null;
  warnings: string[];
}

/**
 * The rows of `tools`: every name the transcripts, the init event or a tools/list answer gave, each
 * with its sizes, truncation, deferral and first request. Requests are read once, in order; a caller
 * that needs no request indices (per-server counts) may pass `[]`, and every index is then null.
 */
export function joinTools(scan: ToolsScan, requests: Iterable<RequestRow>, ctx: ToolsContext): ToolsJoined {
  const warnings: string[] = [];
  const servers = new Set([...scan.servers, ...ctx.servers, ...ctx.listed.flatMap((t) => (t.server ? [t.server] : []))]);
  const tools = new Map(scan.tools);
  for (const n of ctx.init) if (!tools.has(n)) tools.set(n, bare(n, "init"));
  for (const n of ctx.init) tools.get(n)!.sources.add("init");
  const listedBy = matchListed(tools, ctx.listed, servers, warnings);

  const sightings: Sighting[] = [];
  for (const t of tools.values()) sightings.push(...t.first.values(), ...t.loadFirst.values());
  if (scan.systemPrompt) sightings.push(scan.systemPrompt.at);
  const requestOf = assignRequests(sightings, requests);

  const rows = [...tools.values()].map((t) => toRow(t, listedBy.get(t.name) ?? null, servers, requestOf));
  rows.sort((a, b) => (a.server ?? "\uffff").localeCompare(b.server ?? "\uffff") || a.name.localeCompare(b.name));
  const p = scan.systemPrompt;
  const systemPrompt = p
    ? {
        chars: p.chars,
        requestIndex: requestOf.get(p.at)?.index ?? null,
        chain: p.at.chain,
        file: p.at.file,
        line: p.at.line,
        snapshots: p.snapshots,
        maxChars: p.maxChars,
      }
    : null;
  return { tools: rows, systemPrompt, warnings };
}

function bare(name: string, source: ToolSource): ToolSeen {
  return {
    name,
    sources: new Set([source]),
    snapshot: null,
    deferred: false,
    removed: false,
    loadedBySearch: false,
    toolUses: 0,
    callIds: [],
    first: new Map(),
    loadFirst: new Map(),
  };
}

/**
 * A tools/list tool is `mcp__<server>__<tool>` on Claude's side. With its server known (a Desktop log)
 * the name is exact; without it, the one transcript name ending in `__<tool>` is taken, and a tool no
 * name matches gets a row of its own under its server's name for it.
 */
function matchListed(
  tools: Map<string, ToolSeen>,
  listed: readonly ToolMeta[],
  servers: Set<string>,
  warnings: string[],
): Map<string, ToolMeta> {
  const out = new Map<string, ToolMeta>();
  // The transcript's MCP names by their tool part, split once each: a lookup per listed tool, not a scan of
  // every name (a tools/list of many tools against many names was quadratic).
  const byTool = new Map<string, string[]>();
  for (const n of tools.keys()) {
    if (!n.startsWith("mcp__")) continue;
    const tool = splitToolName(n, { servers }).tool;
    const list = byTool.get(tool);
    if (list) list.push(n);
    else byTool.set(tool, [n]);
  }
  let ambiguous = 0;
  for (const l of listed) {
    let name: string | null = null;
    if (l.server) name = `mcp__${normalizeServer(l.server)}__${l.name}`;
    else {
      const hits = byTool.get(l.name) ?? [];
      if (hits.length === 1) name = hits[0]!;
      else if (hits.length > 1 && ++ambiguous <= AMBIGUOUS_SHOWN) {
        const shown = hits.slice(0, AMBIGUOUS_SHOWN).join(", ");
        const more = hits.length > AMBIGUOUS_SHOWN ? `, … (${hits.length} names)` : "";
        warnings.push(`tools/list tool ${l.name} matches ${shown}${more}: kept apart, server unknown`);
      }
    }
    name ??= l.name;
    if (out.has(name)) continue;
    out.set(name, l);
    if (!tools.has(name)) tools.set(name, bare(name, "tools-list"));
    tools.get(name)!.sources.add("tools-list");
  }
  if (ambiguous > AMBIGUOUS_SHOWN)
    warnings.push(
      `… and ${ambiguous - AMBIGUOUS_SHOWN} more tools/list tool(s) matching several transcript names: kept apart, server unknown`,
    );
  return out;
}

/** How many ambiguous tools/list tools are named one by one (and how many names each) before the rest are counted. */
const AMBIGUOUS_SHOWN = 10;

/** Per (chain, file), sightings by line against the requests in line order: one walk over the requests. */
function assignRequests(sightings: Sighting[], requests: Iterable<RequestRow>): Map<Sighting, { index: number }> {
  const groups = new Map<string, { list: Sighting[]; at: number; prev: RequestRow | null }>();
  for (const s of sightings) {
    const k = `${s.chain}\u0000${s.file}`;
    const g = groups.get(k) ?? { list: [], at: 0, prev: null };
    g.list.push(s);
    groups.set(k, g);
  }
  for (const g of groups.values()) g.list.sort((a, b) => a.line - b.line);
  const out = new Map<Sighting, { index: number }>();
  const give = (s: Sighting, r: RequestRow | null) => r && out.set(s, { index: r.index });
  for (const r of requests) {
    const g = groups.get(`${r.chain}\u0000${r.file}`);
    if (!g) continue;
    for (; g.at < g.list.length && g.list[g.at]!.line < r.line; g.at++) {
      const s = g.list[g.at]!;
      give(s, s.mode === "before" ? r : g.prev);
    }
    g.prev = r;
  }
  // A call after the last request's first line belongs to that request; a definition after it was never sent.
  for (const g of groups.values()) for (; g.at < g.list.length; g.at++) if (g.list[g.at]!.mode === "at") give(g.list[g.at]!, g.prev);
  return out;
}

function toRow(t: ToolSeen, l: ToolMeta | null, servers: Set<string>, requestOf: Map<Sighting, { index: number }>): ToolRow {
  const split = splitToolName(t.name, { servers });
  const sources = SOURCE_ORDER.filter((s) => t.sources.has(s));
  const snap = t.snapshot;
  const src = l?.descriptionChars ?? null;
  const first = t.first.get("main") ?? [...t.first.values()][0];
  const req = first ? requestOf.get(first) : undefined;
  const whole = first ? t.loadFirst.get(first.chain) : undefined;
  let truncated: boolean | null = null;
  let basis: ToolRow["truncationBasis"] = null;
  if (snap?.descriptionChars != null) {
    if (snap.marker) [truncated, basis] = [true, "marker"];
    else if (src !== null && src > snap.descriptionChars) [truncated, basis] = [true, "shorter-than-source"];
    else [truncated, basis] = [false, "delivered-whole"];
  } else if (src !== null) [truncated, basis] = [src > DESCRIPTION_CAP, "source-over-cap"];
  const called = t.toolUses > 0;
  return {
    name: t.name,
    server: split.server ?? (l?.server ? normalizeServer(l.server) : null),
    source: sources[0] ?? "tool-use",
    descriptionChars: snap?.descriptionChars ?? src,
    descriptionTruncated: truncated,
    schemaChars: snap?.schemaChars ?? l?.schemaChars ?? null,
    deferred: t.deferred ? true : snap !== null || l?.alwaysLoad === true ? false : null,
    requestIndex: req?.index ?? null,
    chain: req && first ? first.chain : null,
    toolName: split.server === null ? t.name : split.tool,
    sources,
    sourceDescriptionChars: src,
    truncationBasis: basis,
    loaded: snap !== null || t.loadedBySearch || called ? true : t.deferred ? false : null,
    loadedRequestIndex: whole ? (requestOf.get(whole)?.index ?? null) : null,
    removed: t.removed,
    toolUses: t.toolUses,
    alwaysLoad: l?.alwaysLoad ?? null,
  };
}
