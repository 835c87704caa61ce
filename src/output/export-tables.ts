import type { RequestRow } from "../analyses/requests.js";
import type { InstructionRow } from "../analyses/instructions-join.js";
import type { ToolResultRow } from "../analyses/outputs-join.js";
import { CHECKS, type FleetRow } from "../analyses/servers.js";
import type { ToolSighting } from "../analyses/tool-sightings.js";
import type { SessionComposition } from "../assemble/fleet-session.js";

/** Column types as the files carry them: Parquet INT64, DOUBLE, BOOLEAN, UTF8 and TIMESTAMP_MILLIS; NDJSON numbers, booleans, strings, ISO times. */
export type ExportType = "string" | "int" | "double" | "bool" | "timestamp";

export interface ExportColumn<R> {
  name: string;
  type: ExportType;
  /** What a number counts (`tokens`, `chars`, `bytes`, `count`); null for names, flags and times. */
  unit: string | null;
  description: string;
  get(row: R): unknown;
}

export interface ExportTable<R> {
  name: string;
  description: string;
  /** The columns that identify a row. */
  key: string[];
  columns: ExportColumn<R>[];
}

/** A session-scoped row: the entity with the session it came from. */
export interface InSession<T> {
  session: string | null;
  row: T;
  /** 1-based order of the entity in its session (results, instructions), where the entity has no index of its own. */
  index: number;
  /**
   * Where the first copy of this row was written when it is a copy (`chain#index` in its own session,
   * `session/chain#index` in an earlier one of the export); null for the row that counts.
   */
  copyOf?: string | null;
  /** tools: of its calls, those whose tool_use id a row written before already had. */
  copiedCalls?: number;
}

const c = <R>(name: string, type: ExportType, unit: string | null, description: string, get: (row: R) => unknown): ExportColumn<R> => ({
  name,
  type,
  unit,
  description,
  get,
});

type S<T> = InSession<T>;
const session = <T>(): ExportColumn<S<T>> => c("session_id", "string", null, "session id (the transcript's file name)", (r) => r.session);

export const SESSIONS: ExportTable<
  SessionComposition & { transcript: string | null; malformed: number; damaged: number; debugLog: string | null }
> = {
  name: "sessions",
  description: "one row per session read: where it lies, its time span, its requests and what its first request was made of",
  key: ["session_id"],
  columns: [
    c("session_id", "string", null, "session id", (r) => r.sessionId),
    c("project", "string", null, "the records' most frequent cwd", (r) => r.project),
    c("transcript", "string", null, "path of the main transcript", (r) => r.transcript),
    c("debug_log", "string", null, "path of the debug log read alongside, if any", (r) => r.debugLog),
    c(
      "first_timestamp",
      "timestamp",
      null,
      "first time of the session's own records in its main file, as `sessions` and --since/--until take it (UTC)",
      (r) => r.firstTimestamp,
    ),
    c(
      "last_timestamp",
      "timestamp",
      null,
      "last time of the session's own records in its main file, as `sessions` and --since/--until take it (UTC)",
      (r) => r.lastTimestamp,
    ),
    c("chains", "int", "count", "chains with requests (main and subagents)", (r) => r.chains),
    c("requests", "int", "count", "requests over every chain", (r) => r.requests),
    c("first_request_tokens", "int", "tokens", "total input tokens of the main chain's first request", (r) => r.firstRequestTokens),
    c("prompt_snapshot", "bool", null, "a prompt snapshot gave the system prompt and tool definitions", (r) => r.snapshot),
    c("system_prompt_chars", "int", "chars", "system prompt of the first request (null without a snapshot)", (r) => r.systemPromptChars),
    c("builtin_tool_chars", "int", "chars", "built-in tool definitions, as JSON", (r) => r.builtinToolChars),
    c("mcp_tool_chars", "int", "chars", "MCP tool definitions, as JSON", (r) => r.mcpToolChars),
    c("instructions_chars", "int", "chars", "MCP instructions attachments before the first request", (r) => r.instructionsChars),
    c("other_attachment_chars", "int", "chars", "other attachments before the first request", (r) => r.otherAttachmentChars),
    c("user_text_chars", "int", "chars", "user text before the first request", (r) => r.userTextChars),
    c("malformed_lines", "int", "count", "malformed lines in the session's transcripts", (r) => r.malformed),
    c(
      "damaged_entries",
      "int",
      "count",
      "entries of damage in lines read as records despite it (health.damagedCount: NUL runs skipped, bytes not UTF-8)",
      (r) => r.damaged,
    ),
  ],
};

export const REQUESTS: ExportTable<S<RequestRow>> = {
  name: "requests",
  description: "one row per API request (assistant records merged by message id, usage the max over fragments), as `requests --json`",
  key: ["session_id", "chain", "request_index"],
  columns: [
    session(),
    c("chain", "string", null, '"main" or the subagent id', (r) => r.row.chain),
    c("request_index", "int", null, "1-based within its chain", (r) => r.row.index),
    c("file", "string", null, "transcript of the first record", (r) => r.row.file),
    c("line", "int", null, "line of the first record", (r) => r.row.line),
    c("message_id", "string", null, "message.id", (r) => r.row.messageId),
    c("request_id", "string", null, "requestId", (r) => r.row.requestId),
    c("model", "string", null, "message.model", (r) => r.row.model),
    c("timestamp", "timestamp", null, "first record time (UTC)", (r) => r.row.timestamp),
    c("fragments", "int", "count", "records merged", (r) => r.row.fragments),
    c("input_tokens", "int", "tokens", "usage.input_tokens", (r) => r.row.inputTokens),
    c("cache_creation_input_tokens", "int", "tokens", "usage.cache_creation_input_tokens", (r) => r.row.cacheCreationInputTokens),
    c("cache_read_input_tokens", "int", "tokens", "usage.cache_read_input_tokens", (r) => r.row.cacheReadInputTokens),
    c("output_tokens", "int", "tokens", "final output count where known (see output_source)", (r) => r.row.outputTokens),
    c("output_source", "string", null, "final-fragment, parent-task-result, claude-p-result or placeholder", (r) => r.row.outputSource),
    c("total_input_tokens", "int", "tokens", "input + cache creation + cache read", (r) => r.row.totalInputTokens),
    c(
      "delta_tokens",
      "int",
      "tokens",
      "growth vs the previous request of the chain (null for the first and after a compaction boundary); after a rewind, vs request rewound_from",
      (r) => r.row.deltaTokens,
    ),
    c("after_compaction", "bool", null, "a compaction boundary lies before this request", (r) => r.row.afterCompaction),
    c(
      "rewound",
      "bool",
      null,
      "a rewind (Esc Esc, /rewind, an edited message) lies before this request: its branch does not grow from the request before it in the file",
      (r) => r.row.compaction?.kind === "rewind",
    ),
    c(
      "rewound_from",
      "int",
      null,
      "after a rewind, the request_index (same session and chain) delta_tokens and added_* are counted from; null when not rewound, and when the branch starts over at the first prompt (delta_tokens null then)",
      (r) => (r.row.compaction?.kind === "rewind" ? (r.row.compaction.baseIndex ?? null) : null),
    ),
    c(
      "duplicate_of",
      "string",
      null,
      "where the first copy is: chain#index in this session, session/chain#index in an earlier one (left out of totals)",
      (r) => (r.copyOf === undefined ? r.row.duplicateOf : r.copyOf),
    ),
    c("added_tool_results", "int", "count", "tool results added since the previous request", (r) => r.row.added.toolResults),
    c("added_tool_result_chars", "int", "chars", "their model-visible characters", (r) => r.row.added.toolResultChars),
    c("added_user_text_chars", "int", "chars", "user text added", (r) => r.row.added.userTextChars),
    c("added_attachments", "int", "count", "attachments added", (r) => r.row.added.attachments),
    c("added_attachment_chars", "int", "chars", "their characters", (r) => r.row.added.attachmentChars),
  ],
};

export const TOOL_RESULTS: ExportTable<S<ToolResultRow>> = {
  name: "tool_results",
  description: "one row per tool result, as `outputs --json`",
  key: ["session_id", "result_index"],
  columns: [
    session(),
    c("chain", "string", null, '"main" or the subagent id', (r) => r.row.chain),
    c(
      "result_index",
      "int",
      null,
      "1-based order of the result in its session, counted over all its chains (not per chain): unique with session_id",
      (r) => r.index,
    ),
    c("tool_use_id", "string", null, "tool_use id", (r) => r.row.toolUseId),
    c("tool", "string", null, "the name as Claude Code called it (mcp__big__emit_text, Bash)", (r) => r.row.tool),
    c("server", "string", null, "MCP server, null for built-ins", (r) => r.row.server),
    c("file", "string", null, "transcript", (r) => r.row.file),
    c("line", "int", null, "line of the result", (r) => r.row.line),
    c("timestamp", "timestamp", null, "time of the result record (UTC)", (r) => r.row.timestamp),
    c("request_index", "int", null, "request of the chain that first carried it", (r) => r.row.requestIndex),
    c("chars", "int", "chars", "model-visible text", (r) => r.row.chars),
    c("utf8_bytes", "int", "bytes", "model-visible text, UTF-8", (r) => r.row.utf8Bytes),
    c("full_chars", "int", "chars", "full output kept in toolUseResult", (r) => r.row.fullChars),
    c("result_chars", "int", "chars", "the output's own size (null when unknown)", (r) => r.row.resultChars),
    c("check", "string", null, `which check fired: ${CHECKS.join(", ")}`, (r) => r.row.check),
    c("saved_path", "string", null, "saved file as printed", (r) => r.row.savedPath),
    c("saved_format", "string", null, "json, text or null", (r) => r.row.savedFormat),
    c("saved_exists", "bool", null, "found in the session's tool-results/", (r) => r.row.savedExists),
    c("reported_size", "string", null, "size text as printed (51.7KB)", (r) => r.row.reportedSize),
    c("reported_chars", "int", "chars", "characters the message reports", (r) => r.row.reportedChars),
    c("delta_tokens", "int", "tokens", "growth of the carrying request (null after a compaction boundary)", (r) => r.row.deltaTokens),
    c("results_in_request", "int", "count", "results that request carried (above 1 the growth is shared)", (r) => r.row.resultsInRequest),
    c("follow_up_read_count", "int", "count", "later calls that named its saved file", (r) => r.row.followUpReadCount),
    c("follow_up_tokens", "int", "tokens", "growth of the requests that carried those reads", (r) => r.row.followUpTokens),
    c("is_error", "bool", null, "tool_result is_error", (r) => r.row.isError),
    c(
      "duplicate_of",
      "string",
      null,
      "session/chain/result#result_index of the first copy (a resume's, a fork's; left out of servers); /result: the number is a result_index, not a request's",
      (r) => r.copyOf ?? null,
    ),
  ],
};

export const INSTRUCTIONS: ExportTable<S<InstructionRow>> = {
  name: "instructions",
  description: "one row per MCP instructions delivery, as `instructions --json`",
  key: ["session_id", "delivery_index"],
  columns: [
    session(),
    c("chain", "string", null, '"main" or the subagent id', (r) => r.row.chain),
    c(
      "delivery_index",
      "int",
      null,
      "1-based order of the delivery in its session, counted over all its chains (not per chain): unique with session_id",
      (r) => r.index,
    ),
    c("server", "string", null, "MCP server", (r) => r.row.server),
    c("carrier", "string", null, "mcp_instructions_delta, system-reminder or system-prompt", (r) => r.row.carrier),
    c("file", "string", null, "transcript", (r) => r.row.file),
    c("line", "int", null, "line of the carrier", (r) => r.row.line),
    c("timestamp", "timestamp", null, "time of the carrier (UTC)", (r) => r.row.timestamp),
    c("request_index", "int", null, "first request that carried it", (r) => r.row.requestIndex),
    c("chars", "int", "chars", "JS string length as delivered, marker included", (r) => r.row.chars),
    c("code_points", "int", "count", "code points", (r) => r.row.codePoints),
    c("utf8_bytes", "int", "bytes", "UTF-8 bytes", (r) => r.row.utf8Bytes),
    c("truncated", "bool", null, "ends in the … [truncated] marker", (r) => r.row.truncated),
    c("kept_chars", "int", "chars", "characters before the marker (null when not truncated)", (r) => r.row.keptChars),
    c("source_chars", "int", "chars", "original length from the debug log (null when unknown)", (r) => r.row.sourceChars),
    c("removed", "bool", null, "a removal, not a delivery", (r) => r.row.removed),
    c(
      "duplicate_of",
      "string",
      null,
      "session/chain/delivery#delivery_index of the first copy (same record uuid; left out of servers)",
      (r) => r.copyOf ?? null,
    ),
  ],
};

export const TOOLS: ExportTable<S<ToolSighting>> = {
  name: "tools",
  description: "one row per tool a session shows (deferred-tools lists, prompt-snapshot definitions, tool_use calls)",
  key: ["session_id", "tool"],
  columns: [
    session(),
    c("tool", "string", null, "the name as Claude Code calls it", (r) => r.row.name),
    c("server", "string", null, "MCP server, null for built-ins", (r) => r.row.server),
    c("deferred", "bool", null, "listed in a deferred_tools_delta (loaded through ToolSearch)", (r) => r.row.deferred),
    c("defined", "bool", null, "defined in a prompt snapshot", (r) => r.row.defined),
    c("loaded", "bool", null, "its full definition reached the model (snapshot, ToolSearch load or call)", (r) => r.row.loaded),
    c("definition_chars", "int", "chars", "its definition as JSON", (r) => r.row.definitionChars),
    c("calls", "int", "count", "tool_use blocks calling it", (r) => r.row.calls),
    c(
      "copied_calls",
      "int",
      "count",
      "of those, calls (by tool_use id) a row written before already had: calls - copied_calls gives servers' tool_calls",
      (r) => r.copiedCalls ?? 0,
    ),
  ],
};

export const SERVERS: ExportTable<FleetRow> = {
  name: "servers",
  description: "one row per MCP server over every session exported, as `servers --json`",
  key: ["server"],
  columns: [
    c("server", "string", null, "MCP server", (r) => r.name),
    c("sessions", "int", "count", "sessions it appeared in", (r) => r.sessions),
    c("tools", "int", "count", "distinct tools seen", (r) => r.tools),
    c("tools_deferred", "int", "count", "of which deferred", (r) => r.toolsDeferred),
    c("tools_loaded", "int", "count", "of which loaded in some session", (r) => r.toolsLoaded),
    c("tool_calls", "int", "count", "tool_use calls", (r) => r.toolCalls),
    c("results", "int", "count", "tool results", (r) => r.results),
    c("result_chars", "int", "chars", "Σ result_chars", (r) => r.resultChars),
    c("result_chars_max", "int", "chars", "largest result", (r) => r.resultCharsMax),
    ...CHECKS.map((k) =>
      c<FleetRow>(`check_${k.replace("-", "_")}`, "int", "count", `results where the ${k} check fired`, (r) => r.checks[k]),
    ),
    c("delta_tokens", "int", "tokens", "Σ growth of the distinct requests that carried its results", (r) => r.deltaTokens),
    c("delta_tokens_unknown", "int", "count", "results whose request growth is unknown (compaction)", (r) => r.deltaTokensUnknown),
    c("follow_up_reads", "int", "count", "reads of its saved outputs", (r) => r.followUpReads),
    c("follow_up_tokens", "int", "tokens", "their requests' growth", (r) => r.followUpTokens),
    c("instruction_deliveries", "int", "count", "instructions deliveries", (r) => r.instructions.deliveries),
    c("instruction_chars", "int", "chars", "their characters", (r) => r.instructions.chars),
    c("instructions_truncated", "int", "count", "deliveries cut at the cap", (r) => r.instructions.truncated),
    c(
      "connection_failures",
      "int",
      "count",
      "sessions whose debug log ends it failed, timed out, errored, needed auth (HTTP 401) or was killed",
      (r) => r.connectionFailures,
    ),
  ],
};

/** The tables in the order they are written and listed. */
export const EXPORT_TABLES = [SESSIONS, REQUESTS, TOOL_RESULTS, INSTRUCTIONS, TOOLS, SERVERS] as const;

/** The schema file's content: every table's columns with type, unit and meaning. */
export function schemaDocument(format: string) {
  return {
    format,
    tables: EXPORT_TABLES.map((t) => ({
      name: t.name,
      file: `${t.name}.${format === "parquet" ? "parquet" : "ndjson"}`,
      description: t.description,
      key: t.key,
      columns: (t.columns as ExportColumn<unknown>[]).map((col) => ({
        name: col.name,
        type: col.type,
        unit: col.unit,
        description: col.description,
      })),
    })),
  };
}
