import type { ToolResultRow } from "../analyses/outputs-join.js";
import type { StaircaseRow } from "../analyses/staircase.js";
import { baseName } from "../records/tool-names.js";
import { ABANDONED_NOTE, compactionNotes, compactionTrigger } from "./compaction-note.js";
import type { Compaction } from "../analyses/request-row.js";
import { col, type Column, type Table } from "./model.js";
import type { AssembledOutputs } from "../assemble/outputs.js";

// Made on first use: the first Intl formatter of a process loads ICU data (~25 ms at start-up).
let INT: Intl.NumberFormat | undefined;
const n = (v: number) => (INT ??= new Intl.NumberFormat("en-US")).format(v);

/** Δ tokens of a result: its request's growth, or that request's reset after a compaction (marked §). */
const deltaColumn = (o: Pick<Column, "priority">): Column =>
  col("deltaTokens", "Δ tokens", "delta", {
    ...o,
    parts: ["compactionTrigger", "compactionPreTokens"],
    marks: [{ key: "afterCompaction", text: " §" }],
  });

/** The raw fields `deltaColumn` composes, for one result. */
export const compactionCells = (r: { compaction: Pick<Compaction, "trigger" | "preTokens" | "kind"> | null }) => ({
  afterCompaction: r.compaction !== null && r.compaction.kind !== "rewind",
  compactionTrigger: compactionTrigger(r.compaction),
  compactionPreTokens: r.compaction?.preTokens ?? null,
});

export const RESULT_COLUMNS = [
  col("line", "line", "int", { priority: 2 }),
  col("tool", "tool", "id", { priority: 1 }),
  col("input", "input", "text", { priority: 4 }),
  col("requestIndex", "req", "int", { priority: 3, display: "requestShown" }),
  col("resultChars", "size (chars)", "int", { priority: 1 }),
  col("chars", "model saw (chars)", "int", { priority: 2 }),
  col("check", "check", "text", { priority: 1 }),
  col("modelSaw", "model saw", "text", { priority: 3 }),
  col("reported", "reported", "text", { priority: 4 }),
  col("saved", "saved file", "text", { priority: 3, width: "path" }),
  deltaColumn({ priority: 1 }),
  col("tokensPerChar", "tok/char", "rate", { priority: 2 }),
  col("countTokensRequests", "count_tokens", "consulted", { priority: 3 }),
  col("followUpReadCount", "follow-up reads", "countGrowth", { priority: 3, parts: ["followUpTokens"] }),
];

/** The per-result table of one target, in transcript order. */
export function resultsTable(l: AssembledOutputs): Table {
  const rows = l.rows.map((r) => ({
    line: r.line,
    tool: r.chain === "main" ? toolText(r) : `${toolText(r)} (${r.chain})`,
    input: r.inputSummary ?? "",
    requestIndex: r.requestIndex,
    requestShown: abandoned(r) ? "none ↶" : undefined,
    resultChars: r.resultChars,
    chars: r.chars,
    check:
      r.originalCheck !== null
        ? `${r.check} (was ${r.originalCheck})`
        : r.overTokenLimitUnchecked
          ? `${r.check} (over ${n(r.mcpTokenLimit!)} tok, unchecked)`
          : r.check,
    modelSaw: r.modelSaw,
    reported: reportedText(r),
    saved: savedText(r),
    deltaTokens: r.deltaTokens,
    ...compactionCells(r),
    tokensPerChar: r.tokensPerChar,
    countTokensRequests: r.countTokensRequests,
    followUpReadCount: r.followUpReadCount,
    followUpTokens: r.followUpTokens,
  }));
  const counts = new Map<string, number>();
  for (const r of l.rows) counts.set(r.check, (counts.get(r.check) ?? 0) + 1);
  const notes = [`checks: ${[...counts].map(([k, v]) => `${k} ×${v}`).join(", ") || "none"}`];
  if (l.debugLog === null) notes.push("no debug log given or found: count_tokens and persist lines unknown (--debug-file FILE)");
  const shared = l.rows.filter((r) => (r.resultsInRequest ?? 0) > 1).length;
  if (shared)
    notes.push(
      `${shared} result(s) share their request with other results: Δ tokens covers them together, and tok/char is over their summed size`,
    );
  const over = l.rows.filter((r) => r.overTokenLimitUnchecked === true);
  if (over.length) {
    const limits = [...new Set(over.map((r) => r.mcpTokenLimit!))].map(n).join("/");
    const lines = over.slice(0, 5).map((r) => r.line);
    notes.push(
      `${over.length} inline MCP result(s) cost more than the ${limits}-token MCP limit (MAX_MCP_OUTPUT_TOKENS) with no token check: ` +
        `Claude Code counts tokens only when chars/4 > limit/2, so token-dense text (CJK, base64) can go in whole ` +
        `(line ${lines.join(", ")}${over.length > lines.length ? ", …" : ""}; Δ tokens of a request that carried that result alone` +
        `${l.debugLog === null ? "; without a debug log, count_tokens is not known to have been skipped" : ""})`,
    );
  }
  if (l.unpaired)
    notes.push(`${l.unpaired} result(s) have no tool_use with their id in the transcript: tool ${UNKNOWN_TOOL} ("" in JSON, paired false)`);
  if (l.copies) notes.push(`${l.copies} result(s) repeat a tool_use id listed earlier (fork or resume copy of the history): listed once`);
  notes.push(...compactionNotes(l.rows.map((r) => r.compaction)));
  if (l.rows.some(abandoned)) notes.push(ABANDONED_NOTE);
  return { id: `outputs:${l.run}`, title: `Tool results — ${l.run}`, columns: RESULT_COLUMNS, rows, notes };
}

/** A result no request carried because a rewind abandoned its branch. */
const abandoned = (r: { compaction: Pick<Compaction, "kind"> | null }) => r.compaction?.kind === "rewind";

/** How a table names the tool of a result whose tool_use was not found. */
export const UNKNOWN_TOOL = "(unknown)";
const toolText = (r: { tool: string; paired?: boolean }): string => (r.paired === false ? UNKNOWN_TOOL : r.tool);

/** `51.7KB`, `66,000 chars / 1,116 lines`, `25,712 tok > 25,000`, `limit 25,000`. */
export function reportedText(r: ToolResultRow): string {
  const parts: string[] = [];
  if (r.reportedSize !== null) parts.push(r.reportedSize);
  if (r.reportedChars !== null)
    parts.push(
      `${n(r.reportedChars)} chars${r.reportedLines !== null ? ` / ${n(r.reportedLines)} line${r.reportedLines === 1 ? "" : "s"}` : ""}`,
    );
  if (r.reportedTokens !== null) parts.push(`${n(r.reportedTokens)} tok${r.limit !== null ? ` > ${n(r.limit)}` : ""}`);
  else if (r.limit !== null) parts.push(`limit ${n(r.limit)}`);
  return parts.join(", ");
}

/** `toolu_01….json · json · 5 lines, longest 52,891` or `… (not found)`. */
export function savedText(r: ToolResultRow): string {
  if (r.savedPath === null) return "";
  const name = baseName(r.savedPath);
  if (r.savedSuspicious !== null) return `${name} (suspicious: ${r.savedSuspicious})`;
  if (r.savedExists === false) return `${name} (not found)`;
  if (r.savedExists === null) return `${name} (session folder unknown)`;
  const lines =
    r.savedLines !== null ? `, ${n(r.savedLines)} line${r.savedLines === 1 ? "" : "s"}, longest ${n(r.savedLongestLine ?? 0)}` : "";
  return `${name} · ${r.savedFormat ?? "?"}${lines}`;
}

/** Saved files: where each was found, its layout and whether Claude Code's size text describes it. */
export function savedTable(all: AssembledOutputs[]): Table {
  const rows = all.flatMap((l) =>
    l.rows
      .filter((r) => r.savedPath !== null)
      .map((r) => ({
        toolUseId: r.toolUseId,
        name: baseName(r.savedPath!),
        printed: r.savedPath,
        found: foundText(r),
        format: r.savedFormat,
        bytes: r.savedBytes,
        lines: r.savedLines,
        longest: r.savedLongestLine,
        reported: r.reportedSize,
        matches: r.reportedSizeMatchesFile,
        persisted: r.persistedLogged,
      })),
  );
  return {
    id: "saved",
    title: "Saved outputs (tool-results/)",
    columns: [
      col("toolUseId", "result", "id", { priority: 1 }),
      col("name", "file", "path", { priority: 1 }),
      col("found", "found"),
      col("format", "format"),
      col("bytes", "bytes", "int"),
      col("lines", "lines", "int"),
      col("longest", "longest line", "int"),
      col("reported", "reported size"),
      col("matches", "size matches", "bool"),
      col("persisted", "debug: persisted", "bool"),
    ],
    rows,
    notes: [
      "found: looked up by name in the session's own tool-results/ folder only, whatever home or folder the printed path names; a name that would lead elsewhere is suspicious and not opened",
    ],
  };
}

function foundText(r: ToolResultRow): string {
  if (r.savedSuspicious !== null) return `suspicious: ${r.savedSuspicious}`;
  if (r.savedExists === null) return "session folder unknown";
  if (!r.savedExists) return "missing";
  return "session's tool-results/";
}

/** Later Read/Bash/Grep calls that named a saved file, with the request that carried each. */
export function readsTable(all: AssembledOutputs[]): Table {
  const rows = all.flatMap((l) =>
    l.rows.flatMap((r) =>
      r.followUpReads.map((f) => ({
        of: r.toolUseId,
        tool: f.tool,
        input: f.inputSummary,
        offset: f.offset,
        limit: f.limit,
        requestIndex: f.requestIndex,
        deltaTokens: f.deltaTokens,
        chars: f.chars,
      })),
    ),
  );
  return {
    id: "reads",
    title: "Follow-up reads of saved outputs",
    columns: [
      col("of", "of result", "id", { priority: 1 }),
      col("tool", "tool", "id"),
      col("input", "input", "text", { priority: 3 }),
      col("offset", "offset", "int"),
      col("limit", "limit", "int"),
      col("requestIndex", "req", "int"),
      col("deltaTokens", "Δ tokens", "signed"),
      col("chars", "chars read", "int"),
    ],
    rows,
  };
}

/** Tools with a declared `anthropic/maxResultSizeChars`, and whether it accounts for what happened. */
export function annotationsTable(all: AssembledOutputs[]): Table {
  const rows = all.flatMap((l) =>
    l.rows
      .filter((r) => r.annotated !== null || r.annotationAmbiguous)
      .map((r) => ({
        toolUseId: r.toolUseId,
        tool: toolText(r),
        max: r.maxResultSizeChars,
        size: r.resultChars,
        check: r.check,
        explains: r.annotationAmbiguous
          ? "ambiguous: several servers call this name and the tools/list does not say whose it is"
          : r.annotationExplains === null
            ? r.annotated
              ? "not involved"
              : "no annotation"
            : r.annotationExplains
              ? "yes"
              : "no",
      })),
  );
  return {
    id: "annotations",
    title: "Tool annotations (tools/list _meta)",
    columns: [
      col("toolUseId", "result", "id", { priority: 1 }),
      col("tool", "tool", "id", { priority: 1 }),
      col("max", "maxResultSizeChars", "int"),
      col("size", "size (chars)", "int"),
      col("check", "check"),
      col("explains", "explains the check"),
    ],
    rows,
  };
}

export const STAIRCASE_COLUMNS = [
  col("chars", "size (chars)", "int", { priority: 1 }),
  col("utf8Bytes", "UTF-8 bytes", "int", { priority: 4 }),
  col("tool", "tool", "id", { priority: 2 }),
  col("check", "check", "text", { priority: 1 }),
  col("modelSaw", "model saw", "text", { priority: 3 }),
  col("visibleChars", "seen (chars)", "int", { priority: 2 }),
  col("savedFormat", "saved file", "text", { priority: 3 }),
  col("reportedSize", "reported", "text", { priority: 3 }),
  deltaColumn({ priority: 1 }),
  col("tokensPerChar", "tok/char", "rate", { priority: 2 }),
  col("countTokensConsulted", "count_tokens", "bool", { priority: 3 }),
  col("followUpReads", "reads", "int", { priority: 3 }),
  col("lastRequestTokens", "final request", "int", { priority: 3 }),
  col("run", "run", "id", { priority: 1 }),
];

/** Shown when the runs came from a runs dir: which configuration, with which variables. */
const RUN_COLUMNS = [col("label", "label", "id", { priority: 1 }), col("env", "environment", "text", { priority: 1 })];

/** The size staircase: rows already sorted by size; `drift` is request 1 where the runs disagree on it. */
export function staircaseTable(rows: StaircaseRow[], drift: Array<{ tokens: number; runs: string[] }> = []): Table {
  const labelled = rows.some((r) => r.label !== null);
  const notes = ["Δ tokens: growth of the request that first carried the result (tool call included); tok/char = Δ tokens / size"];
  if (drift.length && rows.length) {
    const n = (x: number) => x.toLocaleString("en-US");
    const [most, ...rest] = drift;
    const others =
      rest.length <= 3
        ? rest.map((d) => `${n(d.tokens)} in ${d.runs.join(", ")}`).join("; ")
        : `${rest.length} other values from ${n(Math.min(...rest.map((d) => d.tokens)))} to ${n(Math.max(...rest.map((d) => d.tokens)))}`;
    notes.push(
      `request 1 is not the same in every run: ${n(most!.tokens)} in ${most!.runs.length} run(s); ${others} (compare Δ tokens within a run, not request 1 across runs)`,
    );
  }
  notes.push(...compactionNotes(rows.map((r) => r.compaction)));
  return {
    id: "staircase",
    title: "Size staircase",
    columns: labelled ? [...RUN_COLUMNS, ...STAIRCASE_COLUMNS] : STAIRCASE_COLUMNS,
    rows: rows.map((r) => ({ ...r, tool: toolText(r), ...compactionCells(r), followUpReads: r.followUpReads || null })),
    notes,
  };
}

/** Runs of a runs dir with nothing to read: a claude that failed, a transcript that is not there. */
export function failedRunsTable(rows: Array<{ run: string; label: string; error: string }>): Table {
  return {
    id: "failedRuns",
    title: "Runs not read",
    columns: [
      col("run", "run", "id", { priority: 1 }),
      col("label", "label", "id", { priority: 2 }),
      col("error", "error", "text", { priority: 1 }),
    ],
    rows: rows.map((r) => ({ ...r })),
  };
}
