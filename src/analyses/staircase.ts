import type { Check, ModelSaw } from "../records/tool-output.js";
import type { ToolResultRow } from "./outputs-join.js";
import type { Compaction } from "./requests.js";

/**
 * One step of the size staircase (the seed write-up 003's table): one tool result of one run, with
 * the size it had, what Claude Code made of it and what it cost. Plain data: the table, markdown and
 * a chart are all drawn from these rows.
 */
export interface StaircaseRow {
  /** The target as given (run label, session id or path). */
  run: string;
  sessionId: string | null;
  toolUseId: string;
  tool: string;
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
  for (const { run, rows } of runs) {
    const followUps = new Set(rows.flatMap((r) => r.followUpReads.map((f) => f.toolUseId)));
    for (const r of rows) {
      if (followUps.has(r.toolUseId)) continue;
      if (opts.tool !== undefined && r.tool !== opts.tool && r.toolName !== opts.tool) continue;
      out.push({
        run,
        sessionId: r.sessionId,
        toolUseId: r.toolUseId,
        tool: r.tool,
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
