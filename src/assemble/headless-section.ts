import type { DebugResult, DebugServer } from "../analyses/debug.js";
import { serverStatuses, type HeadlessRun, type ServerStatus } from "../analyses/headless-run.js";
import { summarize } from "../analyses/outputs.js";
import { excerptOf, isObject } from "../records/json.js";
import { modelRoles, type ModelUsage, type HeadlessInit, type HeadlessResult } from "../records/streamjson.js";
import { addCounts } from "../records/values.js";

/**
 * `main` is the model `usage` describes; `subagent` a model the run's subagent events (`parent_tool_use_id` set) used;
 * `background` one no event of the run used (the Haiku call of FORMATS.md 1.14); `other` a model of an output with no
 * assistant events (plain `json`), which cannot tell a background call from a subagent.
 */
export type ModelRole = "main" | "subagent" | "background" | "other";

export interface HeadlessModelUsage extends ModelUsage {
  model: string;
  role: ModelRole;
  /** null when a part is unknown or the sum passes 2^53 − 1. */
  totalInputTokens: number | null;
}

/** The `run` section of `report` (CONTRACT.md): the init event and the result of a `claude -p` run. */
export interface HeadlessSection {
  file: string;
  format: HeadlessRun["format"];
  init: (Omit<HeadlessInit, "pos"> & { line: number }) | null;
  result: (Omit<HeadlessResult, "pos" | "modelUsage"> & { line: number; modelUsage: Record<string, ModelUsage> }) | null;
  models: HeadlessModelUsage[];
  mainModel: string | null;
  /**
   * Cost of the background models, so `totalCostUsd − backgroundCostUsd − subagentCostUsd` is the main model's. Null
   * when unknown: no result, no `modelUsage` (older `cost_usd` output), or a model whose role is `other`.
   */
  backgroundCostUsd: number | null;
  /** Cost of the models only subagents used; null as `backgroundCostUsd`. */
  subagentCostUsd: number | null;
  /** Why both are null when a result was read: `no-model-usage` or `roles-unknown`; else null. */
  costSplitUnknown: "no-model-usage" | "roles-unknown" | null;
  /** The result's `permission_denials[]`: tool, tool_use_id and a short summary of the input. */
  denials: Array<{ tool: string | null; toolUseId: string | null; input: string | null }>;
  assistantMessages: number;
  apiResponses: number;
  /** Models of the run's subagent `assistant` events (`parent_tool_use_id` set). */
  subagentModels: string[];
  /** `tool_result` blocks in the run's `user` events (every chain). */
  toolResults: number;
  /** Each server the init events name, with the status of the latest init event that lists it (one init per turn). */
  serverStatuses: ServerStatus[];
  /** MCP servers the latest init event that lists them says are `pending`: a snapshot before connections finished, not a failure. */
  pendingServers: string[];
  inits: number;
}

/** Domain data for JSON; shared by `debug --stream-json`, `report` and `compare`. */
export function headlessSection(run: HeadlessRun): HeadlessSection {
  const init = run.init;
  const res = run.result;
  const roles = res ? modelRoles(res, init?.model ?? null) : {};
  const role = (model: string): ModelRole =>
    Object.hasOwn(roles, model) && roles[model] === "main"
      ? "main"
      : run.subagentModels.includes(model)
        ? "subagent"
        : run.assistantMessages > 0
          ? "background"
          : "other";
  const order: ModelRole[] = ["main", "subagent", "background", "other"];
  const models: HeadlessModelUsage[] = res
    ? Object.entries(res.modelUsage)
        .map(([model, u]) => ({ model, role: role(model), ...u, totalInputTokens: inputTotal(u) }))
        .sort((a, b) => order.indexOf(a.role) - order.indexOf(b.role) || a.model.localeCompare(b.model))
    : [];
  // Models past the cap (records/counts.ts MAX_NAMES) are summed in result.modelUsageOther without their names: no
  // subagent event can be matched to them, so their role, and the split of the cost, is unknown.
  const costSplitUnknown = !res
    ? null
    : models.length === 0
      ? "no-model-usage"
      : models.some((m) => m.role === "other") || res.modelUsageOther
        ? "roles-unknown"
        : null;
  const costOf = (r: ModelRole) =>
    !res || costSplitUnknown ? null : models.filter((m) => m.role === r).reduce((n, m) => n + (m.costUSD ?? 0), 0);
  const statuses = serverStatuses(run.inits);
  return {
    file: run.file,
    format: run.format,
    init: init && { ...strip(init), line: init.pos.line },
    result: res && { ...strip(res), line: res.pos.line },
    models,
    mainModel: models.find((m) => m.role === "main")?.model ?? null,
    backgroundCostUsd: costOf("background"),
    subagentCostUsd: costOf("subagent"),
    costSplitUnknown,
    denials: (res?.permissionDenials ?? []).map(denial),
    assistantMessages: run.assistantMessages,
    apiResponses: run.apiResponses,
    subagentModels: run.subagentModels,
    toolResults: run.toolResults,
    serverStatuses: statuses,
    pendingServers: statuses.filter((s) => s.status === "pending").map((s) => s.name),
    inits: run.inits.length,
  };
}

/** One `permission_denials[]` entry: `tool_name`, `tool_use_id` and its input as `key=value` pairs, long strings shortened. */
function denial(d: unknown): HeadlessSection["denials"][number] {
  if (!isObject(d)) return { tool: null, toolUseId: null, input: typeof d === "string" ? excerptOf(d) : null };
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  const input = d.tool_input;
  return {
    tool: str(d.tool_name),
    toolUseId: str(d.tool_use_id),
    input: isObject(input) ? summarize(input) : typeof input === "string" ? excerptOf(input) : null,
  };
}

/**
 * The debug log's servers with the `claude -p` init events' status beside each (`initStatus`: the latest init event
 * that lists it, null when none does), and a flag per server the init events leave pending. Shared by `debug
 * --stream-json` and `report`.
 */
export function debugWithRun(
  debug: DebugResult,
  run: HeadlessSection | null,
): Omit<DebugResult, "servers"> & { servers: Array<DebugServer & { initStatus: string | null }> } {
  const flags = [...debug.flags];
  for (const name of run?.pendingServers ?? []) flags.push(`server "${name}" was pending in the claude -p init event`);
  const servers = debug.servers.map((s) => ({ ...s, initStatus: run?.serverStatuses.find((m) => m.name === s.name)?.status ?? null }));
  return { ...debug, servers, flags };
}

/** Input side of a usage: input + cache read + cache creation; null when a part is unknown or the sum passes 2^53 − 1. */
export function inputTotal(u: {
  inputTokens: number | null;
  cacheReadInputTokens: number | null;
  cacheCreationInputTokens: number | null;
}): number | null {
  return addCounts(addCounts(u.inputTokens, u.cacheReadInputTokens), u.cacheCreationInputTokens);
}

function strip<T extends { pos: unknown }>(x: T): Omit<T, "pos"> {
  const { pos: _pos, ...rest } = x;
  return rest;
}
