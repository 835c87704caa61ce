import { modelRoles, type ClaudeRun, type ModelUsage, type RunInit, type RunResult } from "../records/streamjson.js";
import { addCounts } from "../records/values.js";
import { col, type Table } from "./model.js";

export interface RunModelUsage extends ModelUsage {
  model: string;
  /** `main` is the model `usage` describes; the rest are background calls (FORMATS.md 1.14). */
  role: "main" | "background";
  /** null when a part is unknown or the sum passes 2^53 − 1. */
  totalInputTokens: number | null;
}

/** The `run` section of `report` (CONTRACT.md): the init event and the result of a `claude -p` run. */
export interface RunSection {
  file: string;
  format: ClaudeRun["format"];
  init: (Omit<RunInit, "pos"> & { line: number }) | null;
  result: (Omit<RunResult, "pos" | "modelUsage"> & { line: number; modelUsage: Record<string, ModelUsage> }) | null;
  models: RunModelUsage[];
  mainModel: string | null;
  /** Cost of the background models, so `totalCostUsd − backgroundCostUsd` is the main model's. */
  backgroundCostUsd: number | null;
  assistantMessages: number;
  apiResponses: number;
  /** MCP servers the init event lists as `pending`: a snapshot before connections finished, not a failure. */
  pendingServers: string[];
  inits: number;
}

/** Domain data for JSON; shared by `debug --stream-json`, `report` and `compare`. */
export function runSection(run: ClaudeRun): RunSection {
  const init = run.init;
  const res = run.result;
  const roles = res ? modelRoles(res, init?.model ?? null) : {};
  const models: RunModelUsage[] = res
    ? Object.entries(res.modelUsage)
        .map(([model, u]) => ({ model, role: roles[model] ?? "background", ...u, totalInputTokens: inputTotal(u) }))
        .sort((a, b) => (a.role === b.role ? a.model.localeCompare(b.model) : a.role === "main" ? -1 : 1))
    : [];
  const bg = models.filter((m) => m.role === "background");
  return {
    file: run.file,
    format: run.format,
    init: init && { ...strip(init), line: init.pos.line },
    result: res && { ...strip(res), line: res.pos.line },
    models,
    mainModel: models.find((m) => m.role === "main")?.model ?? null,
    backgroundCostUsd: res ? bg.reduce((n, m) => n + (m.costUSD ?? 0), 0) : null,
    assistantMessages: run.assistantMessages,
    apiResponses: run.apiResponses,
    pendingServers: (init?.mcpServers ?? []).filter((s) => s.status === "pending").map((s) => s.name),
    inits: run.inits.length,
  };
}

function inputTotal(u: { inputTokens: number | null; cacheReadInputTokens: number | null; cacheCreationInputTokens: number | null }): number | null {
  return addCounts(addCounts(u.inputTokens, u.cacheReadInputTokens), u.cacheCreationInputTokens);
}

function strip<T extends { pos: unknown }>(x: T): Omit<T, "pos"> {
  const { pos: _pos, ...rest } = x;
  return rest;
}

/** Tables for a `claude -p` run: init, MCP server statuses, result, and usage per model (main vs background). */
export function runTables(s: RunSection): Table[] {
  const tables: Table[] = [];
  const kv = (id: string, title: string, rows: Array<[string, unknown]>, notes: string[] = []): Table => ({
    id,
    title,
    columns: [col("field", "field"), col("value", "value")],
    rows: rows.map(([field, value]) => ({ field, value })),
    notes,
  });
  if (s.init) {
    const i = s.init;
    tables.push(
      kv("run:init", "claude -p init", [
        ["session", i.sessionId],
        ["model", i.model],
        ["version", i.version],
        ["cwd", i.cwd],
        ["permission mode", i.permissionMode],
        ["tools", `${i.tools.length}: ${i.tools.join(", ")}`],
      ], s.inits > 1 ? [`${s.inits} init events (one per turn); the first is shown`] : []),
    );
    tables.push({
      id: "run:mcpServers",
      title: "MCP servers at init",
      columns: [col("name", "server"), col("status", "status"), col("tools", "tools", "int")],
      rows: i.mcpServers.map((m) => ({ name: m.name, status: m.status, tools: i.tools.filter((t) => t.startsWith(`mcp__${m.name.replace(/[^a-zA-Z0-9_-]/g, "_")}__`)).length })),
      notes: s.pendingServers.length
        ? [`pending = not yet connected when the init event was written: ${s.pendingServers.join(", ")} — its tools and instructions can miss request 1 and arrive with a later request`]
        : [],
    });
  }
  if (s.result) {
    const r = s.result;
    tables.push(
      kv("run:result", "claude -p result", [
        ["subtype", r.isError ? `${r.subtype} (error)` : r.subtype],
        ["turns", r.numTurns],
        ["duration", r.durationMs === null ? null : `${r.durationMs} ms (API ${r.durationApiMs ?? "?"} ms)`],
        ["total cost", r.totalCostUsd === null ? null : `$${r.totalCostUsd.toFixed(6)}`],
        ["background cost", s.backgroundCostUsd === null ? null : `$${s.backgroundCostUsd.toFixed(6)}`],
        ["permission denials", r.permissionDenials.length],
        ["session", r.sessionId],
        ["result", r.result],
      ]),
    );
    const footer = r.usage
      ? [{ model: "usage (main model only)", role: "", inputTokens: r.usage.inputTokens, cacheCreationInputTokens: r.usage.cacheCreationInputTokens, cacheReadInputTokens: r.usage.cacheReadInputTokens, outputTokens: r.usage.outputTokens, totalInputTokens: inputTotal(r.usage) }]
      : [];
    tables.push({
      id: "run:modelUsage",
      title: "Usage per model (modelUsage)",
      columns: [
        col("model", "model"),
        col("role", "role"),
        col("inputTokens", "input", "int"),
        col("cacheCreationInputTokens", "cache create", "int"),
        col("cacheReadInputTokens", "cache read", "int"),
        col("totalInputTokens", "total input", "int"),
        col("outputTokens", "output", "int"),
        col("costUSD", "cost", "usd"),
        col("contextWindow", "context", "int"),
      ],
      rows: s.models.map((m) => ({ ...m })),
      footer,
      notes: ["result.usage counts the main model only; modelUsage and total_cost_usd include background calls"],
    });
  }
  return tables;
}
