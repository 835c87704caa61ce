import { bump, MAX_NAMES, newCounts, otherNames, setOwn, type OtherNames } from "./counts.js";
import { arr, bool, isObject, num, str, type JsonObject } from "./json.js";
import type { Pos } from "./pos.js";
import { addCounts, countField, valueText, type InvalidValue } from "./values.js";

/** `mcp_servers[]` of the init event: a snapshot taken before connections finish (`pending` is not a failure). */
export interface McpServerStatus {
  name: string;
  status: string;
}

/** The `system/init` event of `claude -p` (FORMATS.md 8). */
export interface HeadlessInit {
  pos: Pos;
  sessionId: string | null;
  cwd: string | null;
  model: string | null;
  tools: string[];
  mcpServers: McpServerStatus[];
  /**
   * Past MAX_NAMES distinct names (records/counts.ts) a list keeps the first ones and counts the rest here (present
   * only then): a hostile init of millions of tools or servers stays a bounded table.
   */
  toolsOther?: OtherNames;
  mcpServersOther?: OtherNames;
  /** `claude_code_version`. */
  version: string | null;
  permissionMode: string | null;
  apiKeySource: string | null;
  outputStyle: string | null;
  slashCommands: string[];
  agents: string[];
  skills: string[];
  plugins: string[];
}

/**
 * `usage` of the result: the main model only; background calls are in `modelUsage` (FORMATS.md 1.14).
 * Counts as in transcripts: absent is 0, a value that is no count is null (unknown, listed in health).
 */
export interface HeadlessUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadInputTokens: number | null;
  cacheCreationInputTokens: number | null;
}

/**
 * The `modelUsage` entries past MAX_NAMES models: how many (`names`, `records`: one entry per model) and their
 * usage summed, so the per-model rows and this still add up to what the result reported.
 */
export interface ModelUsageOther extends OtherNames {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadInputTokens: number | null;
  cacheCreationInputTokens: number | null;
  costUSD: number | null;
}

export interface ModelUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadInputTokens: number | null;
  cacheCreationInputTokens: number | null;
  costUSD: number | null;
  contextWindow: number | null;
  webSearchRequests: number | null;
  maxOutputTokens: number | null;
}

/** The `result` message. */
export interface HeadlessResult {
  pos: Pos;
  subtype: string | null;
  isError: boolean;
  durationMs: number | null;
  durationApiMs: number | null;
  numTurns: number | null;
  /** The final text (`result`); absent on error subtypes. */
  result: string | null;
  totalCostUsd: number | null;
  usage: HeadlessUsage | null;
  modelUsage: Record<string, ModelUsage>;
  /** Present only past MAX_NAMES models. */
  modelUsageOther?: ModelUsageOther;
  permissionDenials: unknown[];
  sessionId: string | null;
  stopReason: string | null;
  errors: string[];
}

const strings = (v: unknown): string[] =>
  (arr(v) ?? [])
    .map((x) => (typeof x === "string" ? x : isObject(x) && typeof x.name === "string" ? x.name : null))
    .filter((x): x is string => x !== null);

/** The items whose names are among the first MAX_NAMES distinct ones (repeats kept, as listed), and the rest counted. */
function capped<T>(items: T[], name: (t: T) => string): { listed: T[]; other: OtherNames | undefined } {
  const seen = newCounts();
  const listed: T[] = [];
  for (const t of items) {
    const k = name(t);
    bump(seen, k);
    if (Object.hasOwn(seen, k)) listed.push(t);
  }
  return { listed, other: otherNames(seen) };
}

export function toHeadlessInit(m: JsonObject, pos: Pos): HeadlessInit {
  const servers = capped(
    (arr(m.mcp_servers) ?? []).filter(isObject).map((s) => ({ name: str(s.name) ?? "", status: str(s.status) ?? "" })),
    (s) => s.name,
  );
  const tools = capped(strings(m.tools), (t) => t);
  return {
    pos,
    sessionId: str(m.session_id) ?? str(m.sessionId) ?? null,
    cwd: str(m.cwd) ?? null,
    model: str(m.model) ?? null,
    tools: tools.listed,
    mcpServers: servers.listed,
    ...(tools.other ? { toolsOther: tools.other } : {}),
    ...(servers.other ? { mcpServersOther: servers.other } : {}),
    version: str(m.claude_code_version) ?? null,
    permissionMode: str(m.permissionMode) ?? str(m.permission_mode) ?? null,
    apiKeySource: str(m.apiKeySource) ?? null,
    outputStyle: str(m.output_style) ?? null,
    slashCommands: strings(m.slash_commands),
    agents: strings(m.agents),
    skills: strings(m.skills),
    plugins: strings(m.plugins),
  };
}

/** The `result` message; fields whose value is no count go to `invalid` (field paths from the message). */
export function toHeadlessResult(m: JsonObject, pos: Pos, invalid: InvalidValue[] = []): HeadlessResult {
  const u = isObject(m.usage) ? m.usage : null;
  const count = (o: JsonObject, key: string, path: string) => {
    const v = countField(o, key, path, invalid);
    return v === undefined ? 0 : v;
  };
  const modelUsage: Record<string, ModelUsage> = {};
  let listed = 0;
  let modelUsageOther: ModelUsageOther | undefined;
  if (isObject(m.modelUsage)) {
    for (const [model, v] of Object.entries(m.modelUsage)) {
      if (!isObject(v)) continue;
      const path = `modelUsage[${JSON.stringify(model)}]`;
      const u: ModelUsage = {
        inputTokens: count(v, "inputTokens", path),
        outputTokens: count(v, "outputTokens", path),
        cacheReadInputTokens: count(v, "cacheReadInputTokens", path),
        cacheCreationInputTokens: count(v, "cacheCreationInputTokens", path),
        costUSD: cost(v, "costUSD", path, invalid) ?? null,
        contextWindow: num(v.contextWindow) ?? null,
        webSearchRequests: num(v.webSearchRequests) ?? null,
        maxOutputTokens: num(v.maxOutputTokens) ?? null,
      };
      // setOwn: a model named `__proto__` is a key like any other (records/counts.ts). Past MAX_NAMES models (the
      // keys of one object are distinct) the rest are summed, not listed.
      if (listed < MAX_NAMES) {
        setOwn(modelUsage, model, u);
        listed += 1;
        continue;
      }
      const o = (modelUsageOther ??= {
        names: 0,
        records: 0,
        inputTokens: 0,
        outputTokens: 0,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        costUSD: 0,
      });
      o.names += 1;
      o.records += 1;
      o.inputTokens = addCounts(o.inputTokens, u.inputTokens);
      o.outputTokens = addCounts(o.outputTokens, u.outputTokens);
      o.cacheReadInputTokens = addCounts(o.cacheReadInputTokens, u.cacheReadInputTokens);
      o.cacheCreationInputTokens = addCounts(o.cacheCreationInputTokens, u.cacheCreationInputTokens);
      if (o.costUSD !== null && u.costUSD !== null) o.costUSD += u.costUSD;
    }
  }
  return {
    pos,
    subtype: str(m.subtype) ?? null,
    isError: bool(m.is_error) ?? false,
    durationMs: countField(m, "duration_ms", "result", invalid) ?? null,
    durationApiMs: countField(m, "duration_api_ms", "result", invalid) ?? null,
    numTurns: countField(m, "num_turns", "result", invalid) ?? null,
    result: str(m.result) ?? null,
    totalCostUsd: cost(m, "total_cost_usd", "result", invalid) ?? cost(m, "cost_usd", "result", invalid) ?? null,
    usage: u
      ? {
          inputTokens: count(u, "input_tokens", "usage"),
          outputTokens: count(u, "output_tokens", "usage"),
          cacheReadInputTokens: count(u, "cache_read_input_tokens", "usage"),
          cacheCreationInputTokens: count(u, "cache_creation_input_tokens", "usage"),
        }
      : null,
    modelUsage,
    ...(modelUsageOther ? { modelUsageOther } : {}),
    permissionDenials: arr(m.permission_denials) ?? [],
    sessionId: str(m.session_id) ?? null,
    stopReason: str(m.stop_reason) ?? null,
    errors: (arr(m.errors) ?? []).map((e) => (typeof e === "string" ? e : JSON.stringify(e))),
  };
}

/** A cost in USD: a finite non-negative number (not a count: fractions are the point). */
function cost(o: JsonObject, key: string, path: string, invalid: InvalidValue[]): number | null | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v === "number" && Number.isFinite(v) && v >= 0 && v < 1e15) return v;
  invalid.push({ field: `${path}.${key}`, value: valueText(v) });
  return null;
}

/**
 * Which `modelUsage` entry is the main model and which are background calls (the Haiku call of
 * FORMATS.md 1.14). Main: the entry whose tokens equal `usage`; else the one named like the init
 * model (`claude-opus-5[1m]` matches `claude-opus-5`); else the most expensive.
 */
export function modelRoles(result: HeadlessResult, initModel: string | null): Record<string, "main" | "background"> {
  const names = Object.keys(result.modelUsage);
  const u = result.usage;
  const same = (m: ModelUsage) =>
    u !== null &&
    m.inputTokens === u.inputTokens &&
    m.cacheReadInputTokens === u.cacheReadInputTokens &&
    m.cacheCreationInputTokens === u.cacheCreationInputTokens;
  const base = withoutBracketTail;
  let main =
    names.find((n) => same(result.modelUsage[n]!)) ??
    (initModel !== null ? (names.find((n) => n === initModel) ?? names.find((n) => base(n) === base(initModel))) : undefined);
  if (main === undefined && names.length > 0) {
    main = [...names].sort((a, b) => (result.modelUsage[b]!.costUSD ?? 0) - (result.modelUsage[a]!.costUSD ?? 0) || a.localeCompare(b))[0];
  }
  const out: Record<string, "main" | "background"> = {};
  for (const n of names) setOwn(out, n, n === main ? "main" : "background");
  return out;
}

/** The model name without a closing `[…]` (`claude-opus-5[1m]`): what /\[[^\]]*\]$/ took off, without its scan to the end from every `[`. */
export function withoutBracketTail(s: string): string {
  const k = s.endsWith("]") ? s.indexOf("[", s.lastIndexOf("]", s.length - 2) + 1) : -1;
  return k >= 0 && k <= s.length - 2 ? s.slice(0, k) : s;
}
