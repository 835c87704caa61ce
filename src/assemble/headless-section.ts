import type { HeadlessRun } from "../analyses/headless-run.js";
import { modelRoles, type ModelUsage, type HeadlessInit, type HeadlessResult } from "../records/streamjson.js";
import { addCounts } from "../records/values.js";

export interface HeadlessModelUsage extends ModelUsage {
  model: string;
  /** `main` is the model `usage` describes; the rest are background calls (FORMATS.md 1.14). */
  role: "main" | "background";
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
  /** Cost of the background models, so `totalCostUsd − backgroundCostUsd` is the main model's. */
  backgroundCostUsd: number | null;
  assistantMessages: number;
  apiResponses: number;
  /** `tool_result` blocks in the run's `user` events (every chain). */
  toolResults: number;
  /** MCP servers the init event lists as `pending`: a snapshot before connections finished, not a failure. */
  pendingServers: string[];
  inits: number;
}

/** Domain data for JSON; shared by `debug --stream-json`, `report` and `compare`. */
export function headlessSection(run: HeadlessRun): HeadlessSection {
  const init = run.init;
  const res = run.result;
  const roles: Record<string, "main" | "background"> = res ? modelRoles(res, init?.model ?? null) : {};
  const models: HeadlessModelUsage[] = res
    ? Object.entries(res.modelUsage)
        .map(([model, u]) => ({
          model,
          role: Object.hasOwn(roles, model) ? roles[model]! : "background",
          ...u,
          totalInputTokens: inputTotal(u),
        }))
        .sort((a, b) => (a.role === b.role ? a.model.localeCompare(b.model) : a.role === "main" ? -1 : 1))
    : [];
  const bg = models.filter((m) => m.role === "background");
  // Models past the cap (records/counts.ts MAX_NAMES) are summed in result.modelUsageOther: background calls, counted.
  const rest = res?.modelUsageOther?.costUSD ?? 0;
  return {
    file: run.file,
    format: run.format,
    init: init && { ...strip(init), line: init.pos.line },
    result: res && { ...strip(res), line: res.pos.line },
    models,
    mainModel: models.find((m) => m.role === "main")?.model ?? null,
    backgroundCostUsd: res ? bg.reduce((n, m) => n + (m.costUSD ?? 0), rest) : null,
    assistantMessages: run.assistantMessages,
    apiResponses: run.apiResponses,
    toolResults: run.toolResults,
    pendingServers: (init?.mcpServers ?? []).filter((s) => s.status === "pending").map((s) => s.name),
    inits: run.inits.length,
  };
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
