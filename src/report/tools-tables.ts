import { serverToolCounts, type ToolRow } from "../analyses/tools.js";
import type { AssembledTools } from "../assemble/tools.js";
import { healthTable, healthWarnings } from "./health-table.js";
import { col, type ColumnKind, type OutputDocument, type Table } from "./model.js";

/** The neutral document of `tools`: the system prompt and counts in the summary, one row per tool, the counts per server. */
export function toolsDocument(a: AssembledTools): OutputDocument {
  return {
    title: `Tool definitions — ${a.sessionId ?? a.target}`,
    summary: toolsSummary(a),
    tables: [...toolsTables(a), healthTable(a.health)],
    warnings: [...a.warnings, ...healthWarnings(a.health)],
  };
}

/** The tables `report` shows in its "Tool definitions" section (no health: the report has its own). */
export function toolsTables(a: AssembledTools): Table[] {
  return [definitionsTable(a), serversTable(a.rows)];
}

export function toolsSummary(a: AssembledTools): Array<[string, unknown, ColumnKind?]> {
  const p = a.systemPrompt;
  const count = (f: (r: ToolRow) => boolean) => a.rows.filter(f).length;
  return [
    ["system prompt (chars)", p?.chars ?? "not in the evidence (no prompt snapshot)", p ? "int" : "text"],
    ...(p ? [["system prompt first sent in request", p.requestIndex ?? "none"] as [string, unknown]] : []),
    ...(p && p.snapshots > 1
      ? [["prompt snapshots", `${p.snapshots} (largest ${p.maxChars.toLocaleString("en-US")} chars)`] as [string, unknown]]
      : []),
    ["tools", a.rows.length, "int"],
    ["MCP tools", count((r) => r.server !== null), "int"],
    ["deferred (ToolSearch)", count((r) => r.deferred === true), "int"],
    ["full definition sent", count((r) => r.loaded === true), "int"],
    ["descriptions truncated", count((r) => r.descriptionTruncated === true), "int"],
    ["tools/list answers read", a.evidence.rpcLog || a.evidence.toolsList ? `${a.listed} tools` : "none given (--rpc-log, --tools)"],
  ];
}

function definitionsTable(a: AssembledTools): Table {
  const notes = [
    "desc = JS length of the description as delivered (prompt snapshot), else the server's own from tools/list; MCP descriptions are cut at 2,048 chars + the 13-char `… [truncated]` marker",
    "schema = input schema as compact JSON, in chars; request = first request that carried it, by name alone when deferred (for a call, the request that made it); whole from = first request with its full definition (snapshot, ToolSearch load or call); blank = unknown",
  ];
  if (a.rows.length === 0)
    notes.unshift(
      "no tool definitions in this evidence: no prompt snapshot, deferred-tools list, tool call, init event or tools/list answer",
    );
  if (a.rows.some((r) => r.truncationBasis === "source-over-cap"))
    notes.push(
      "† truncation inferred from the server's length alone (default 2,048 cap; CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH raises it)",
    );
  return {
    id: "tools",
    title: "Tool definitions",
    columns: [
      col("name", "tool", "id", { priority: 1 }),
      col("server", "server", "text", { priority: 2 }),
      col("source", "source", "text", { priority: 3 }),
      col("descriptionChars", "desc", "int", { priority: 1 }),
      col("descriptionTruncated", "truncated", "bool", { priority: 1, marks: [{ key: "inferred", text: " †" }] }),
      col("sourceDescriptionChars", "server desc", "int", { priority: 2 }),
      col("schemaChars", "schema", "int", { priority: 3 }),
      col("deferred", "deferred", "bool", { priority: 1 }),
      col("requestIndex", "request", "int", { priority: 1 }),
      col("loaded", "sent whole", "bool", { priority: 4 }),
      col("loadedRequestIndex", "whole from", "int", { priority: 2 }),
      col("toolUses", "calls", "int", { priority: 3 }),
    ],
    rows: a.rows.map((r) => ({
      name: r.chain === null || r.chain === "main" ? r.name : `${r.name} (${r.chain})`,
      server: r.server,
      source: r.source,
      descriptionChars: r.descriptionChars,
      descriptionTruncated: r.descriptionTruncated,
      inferred: r.truncationBasis === "source-over-cap",
      sourceDescriptionChars: r.sourceDescriptionChars,
      schemaChars: r.schemaChars,
      deferred: r.deferred,
      loaded: r.loaded,
      loadedRequestIndex: r.loadedRequestIndex,
      requestIndex: r.requestIndex,
      toolUses: r.toolUses,
    })),
    notes,
  };
}

function serversTable(rows: ToolRow[]): Table {
  return {
    id: "tools-servers",
    title: "Tools per server",
    columns: [
      col("server", "server", "text", { priority: 1, empty: "(built-in)" }),
      col("tools", "tools", "int", { priority: 1 }),
      col("listed", "in tools/list", "int", { priority: 2 }),
      col("loaded", "sent whole", "int", { priority: 1 }),
      col("deferred", "deferred", "int", { priority: 1 }),
      col("called", "called", "int", { priority: 2 }),
      col("truncatedDescriptions", "truncated", "int", { priority: 2 }),
    ],
    rows: serverToolCounts(rows).map((c) => ({ ...c })),
  };
}
