import type { Check, ModelSaw } from "../records/tool-output.js";
import type { ToolResultRow } from "./outputs-join.js";
import type { Compaction } from "./requests.js";

/**
 * One step of the size staircase (the seed write-up 003's table): one tool result of one run, with
 * the size it had, what Claude Code made of it and what it cost. Plain data: the table, markdown and
 * a chart are all drawn from these rows.
 */
export interface StaircaseRow {
  /** The target as given (run folder, session id or path). */
  run: string;
  /** The configuration's label, for a run read from a runs dir. */
  label: string | null;
  /** The variables the configuration set (`MAX_MCP_OUTPUT_TOKENS=5000`), from run.json. */
  env: string | null;
  /** Request 1 of the run: it should not move between runs of one prompt (seed 003 saw 3,462, then 3,295). */
  firstRequestTokens: number | null;
  sessionId: string | null;
  toolUseId: string;
  /** "" when the result's tool_use is not in the transcript (`paired` false). */
  tool: string;
  paired: boolean;
  /** The output's size in characters (`resultChars`): the x axis; null when no evidence gives it. */
  chars: number | null;
  utf8Bytes: number | null;
  check: Check;
  modelSaw: ModelSaw;
  /** Characters the model was given in place of (or as) the output. */
  visibleChars: number;
  savedFormat: "json" | "text" | null;
  reportedSize: string | null;
  deltaTokens: number | null;
  tokensPerChar: number | null;
  /** The carrying request follows a compaction (then Δ tokens and tok/char are null: a reset, not a cost). */
  compaction: Compaction | null;
  countTokensConsulted: boolean | null;
  followUpReads: number;
  followUpTokens: number | null;
  lastRequestTokens: number | null;
}

export interface StaircaseRun {
  run: string;
  rows: ToolResultRow[];
  label?: string | null;
  env?: string | null;
  firstRequestTokens?: number | null;
}

export interface StaircaseOptions {
  /** Keep only results of this tool: the exact name, or the part after `mcp__<server>__`. */
  tool?: string;
}

/**
 * Rows of many runs, sorted by result size (then run, then position). Reads of a saved file are left
 * out: they are another result's follow-up, already counted in its `followUpReads`.
 */
export function staircaseRows(runs: StaircaseRun[], opts: StaircaseOptions = {}): StaircaseRow[] {
  const out: StaircaseRow[] = [];
  for (const { run, rows, label = null, env = null, firstRequestTokens = null } of runs) {
    const followUps = new Set(rows.flatMap((r) => r.followUpReads.map((f) => f.toolUseId)));
    for (const r of rows) {
      if (followUps.has(r.toolUseId)) continue;
      if (opts.tool !== undefined && r.tool !== opts.tool && r.toolName !== opts.tool) continue;
      out.push({
        run,
        label,
        env,
        firstRequestTokens,
        sessionId: r.sessionId,
        toolUseId: r.toolUseId,
        tool: r.tool,
        paired: r.paired,
        chars: r.resultChars,
        // UTF-8 bytes of the output itself: from toolUseResult, or the visible text when nothing replaced it.
        utf8Bytes: r.fullUtf8Bytes ?? (r.check === "inline" ? r.utf8Bytes : null),
        check: r.check,
        modelSaw: r.modelSaw,
        visibleChars: r.chars,
        savedFormat: r.savedFormat,
        reportedSize: r.reportedSize,
        deltaTokens: r.deltaTokens,
        tokensPerChar: r.tokensPerChar,
        compaction: r.compaction,
        countTokensConsulted: r.countTokensConsulted,
        followUpReads: r.followUpReadCount,
        followUpTokens: r.followUpTokens,
        lastRequestTokens: r.lastRequestTokens,
      });
    }
  }
  // Unknown sizes go last.
  const size = (r: StaircaseRow) => r.chars ?? Number.POSITIVE_INFINITY;
  return out.sort((a, b) => size(a) - size(b) || a.run.localeCompare(b.run) || a.toolUseId.localeCompare(b.toolUseId));
}

/**
 * Where request 1 is not the same in every run: each value with its runs, the most common first.
 * Empty when all agree (or only one run says). Runs of one prompt should agree; different prompts
 * differ by their length, so read this next to the labels.
 */
export function firstRequestDrift(
  runs: Array<{ run: string; firstRequestTokens: number | null }>,
): Array<{ tokens: number; runs: string[] }> {
  const by = new Map<number, string[]>();
  for (const r of runs) if (r.firstRequestTokens !== null) by.set(r.firstRequestTokens, [...(by.get(r.firstRequestTokens) ?? []), r.run]);
  if (by.size < 2) return [];
  return [...by].map(([tokens, rs]) => ({ tokens, runs: rs })).sort((a, b) => b.runs.length - a.runs.length || a.tokens - b.tokens);
}
