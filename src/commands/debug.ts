import type { DebugResult } from "../analyses/debug.js";
import { oneLine as condensed } from "../analyses/debug-flags.js";
import { mergeHealth, type Health } from "../analyses/health.js";
import { readClaudeRun } from "../records/streamjson.js";
import type { CommandOutput } from "../report/envelope.js";
import { findingsTable } from "../report/findings.js";
import { healthTable, healthWarnings } from "../report/health-table.js";
import { col, type Table } from "../report/model.js";
import { runSection, runTables, type RunSection } from "../report/run-tables.js";
import { evidenceInput } from "../sources/evidence.js";
import type { InputFile } from "../sources/input.js";
import type { CommonOptions } from "./common.js";
import type { CommandSpec } from "./registry.js";
import { readDebugEvidence } from "./debug-evidence.js";

export interface DebugOptions extends CommonOptions {
  allEvents?: boolean;
}

export const debugCommand: CommandSpec = {
  command: "debug <file>",
  describe: "events and per-server summary from a Claude Code debug log (or a per-server mcp-logs-<server>/*.jsonl)",
  examples: [
    ["ccforensics debug samples/logs/debug/legacy-truncated.debug.txt", "MCP servers, runtime arm, truncation and the timeline of one run"],
    ["ccforensics debug samples/logs/debug/late-server.debug.txt --stream-json samples/logs/claude-p/late-server.stream.jsonl --format markdown", "a late server, with the init event's `pending` status and the run's cost per model"],
  ],
  positionals: { file: { describe: "debug log (--debug-file output, ~/.claude/debug/<session>.txt), or - for stdin" } },
  options: { "all-events": { type: "boolean", describe: "list every entry in the tables, not only recognised events, warnings and errors, and not only the first 1,000" } },
  run: (argv) => runDebug(String(argv.file), argv as DebugOptions),
};

/** Reads a debug log in one pass; optionally a `claude -p` output for the init event's server statuses. */
export async function runDebug(file: string, opts: DebugOptions): Promise<CommandOutput> {
  const input = evidenceInput(file, "debug-log");
  const { result, health } = await analyseDebugLog(input, opts);
  const inputs: InputFile[] = [input];
  let run: RunSection | null = null;
  if (opts.streamJson) {
    const runInput = evidenceInput(opts.streamJson, "stream-json");
    const r = await readClaudeRun(runInput, { stdin: opts.stdin });
    run = runSection(r);
    inputs.push(runInput);
    mergeHealth(health, r.health);
  }
  const flags = [...result.flags];
  for (const name of run?.pendingServers ?? []) flags.push(`server "${name}" was pending in the claude -p init event`);
  const servers = result.servers.map((s) => ({ ...s, initStatus: run?.init?.mcpServers.find((m) => m.name === s.name)?.status ?? null }));
  return {
    command: "debug",
    inputs,
    health,
    data: { debug: { ...result, servers, flags }, ...(run ? { run } : {}) },
    report: {
      title: `Debug log — ${input.path}`,
      summary: debugSummary(result),
      tables: [...debugTables({ ...result, flags }, opts.allEvents === true), ...(run ? runTables(run) : []), healthTable(health)],
      warnings: healthWarnings(health),
    },
  };
}

/** The one pass over a debug log (shared with report, outputs and instructions). */
export async function analyseDebugLog(input: InputFile, opts: CommonOptions): Promise<{ result: DebugResult; health: Health }> {
  const ev = await readDebugEvidence(input, { stdin: opts.stdin });
  return { result: ev.result, health: ev.health };
}

function debugSummary(r: DebugResult): Array<[string, unknown, ("int" | "text")?]> {
  const sources = Object.entries(r.apiRequestSources).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return [
    ["entries", r.entries, "int"],
    ["first", r.firstTime],
    ["last", r.lastTime],
    ["levels", Object.entries(r.levels).map(([k, v]) => `${k} ${v}`).join(", ")],
    ["mcp runtime arm", r.runtimeArm === null ? null : `${r.runtimeArm} (source: ${r.runtimeArmSource})`],
    ["API requests", r.apiRequests ? `${r.apiRequests}${sources.length ? ` (${sources.map(([k, v]) => `${k} ${v}`).join(", ")})` : ""}` : 0],
    ["errors", r.errors, "int"],
    ["count_tokens calls", r.countTokensCalls, "int"],
    ["persisted tool results", r.persisted.length, "int"],
  ];
}

/** Rows per table unless --all-events: more is unreadable, and cli-table3 lays tables out in quadratic time. */
export const MAX_TIMELINE_ROWS = 1000;

/** Servers, findings, persisted results and the timeline; reused by `report`. */
export function debugTables(r: DebugResult, allEvents = false): Table[] {
  const tables: Table[] = [];
  tables.push({
    id: "debug:servers",
    title: "MCP servers",
    columns: [
      col("name", "server"),
      col("status", "status"),
      col("transport", "transport"),
      col("connectMs", "connect", "ms"),
      col("lateByMs", "after req 1", "ms"),
      col("protocolEra", "era"),
      col("negotiatedProtocolVersion", "negotiated"),
      col("truncated", "instructions truncated"),
      col("toolCalls", "tool calls", "int"),
      col("toolsFailed", "failed", "int"),
      col("toolMs", "tool time", "ms"),
      col("errors", "errors", "int"),
      col("stderrLines", "stderr", "int"),
      col("closed", "closed"),
      col("lastError", "last error"),
    ],
    rows: r.servers.map((s) => ({
      ...s,
      truncated: s.instructionsTruncatedFrom === null ? "" : `${s.instructionsTruncatedFrom} → ${s.instructionsTruncatedTo}`,
      status: s.forcedShutdown === null ? s.status : `${s.status} (${s.forcedShutdown})`,
      lastError: s.lastError === null ? null : condensed(s.lastError),
    })),
  });
  if (r.flags.length) tables.push(findingsTable(r.flags));
  if (r.persisted.length) {
    const rows = allEvents ? r.persisted : r.persisted.slice(0, MAX_TIMELINE_ROWS);
    tables.push({
      id: "debug:persisted",
      title: "Persisted tool results",
      columns: [col("line", "line", "int"), col("time", "time", "time"), col("size", "size"), col("bytes", "bytes", "int"), col("path", "path")],
      rows: rows.map((p) => ({ ...p })),
      notes: rows.length < r.persisted.length ? [`first ${rows.length} of ${r.persisted.length} shown (--all-events lists them; --json has all)`] : [],
    });
  }
  if (r.countTokens.length) {
    const rows = allEvents ? r.countTokens : r.countTokens.slice(0, MAX_TIMELINE_ROWS);
    tables.push({
      id: "debug:count-tokens",
      title: "count_tokens requests and what came just before them",
      columns: [
        col("line", "line", "int"), col("time", "time", "time"), col("beforeLine", "before: line", "int"), col("before", "before: entry"),
        // Only with a transcript (report): the result whose call was in flight.
        ...(rows.some((c) => c.toolResult !== null) ? [col("toolResult", "during tool result"), col("toolResultChars", "its chars", "int")] : []),
        col("failed", "failed"),
      ],
      rows: rows.map((c) => ({
        line: c.line, time: c.time, beforeLine: c.before?.line ?? null,
        before: c.before === null ? "(start of log)" : `${c.before.server ? `${c.before.server}: ` : ""}${c.before.what}`,
        toolResult: c.toolResult === null ? null : `${c.toolResult.tool} (transcript line ${c.toolResult.line})`, toolResultChars: c.toolResult?.chars ?? null,
        failed: c.failed,
      })),
      notes: [
        "what the log shows just before each request, not why Claude Code made it: a long MCP result, Read's own size check and a per-turn check all call count_tokens",
        ...(rows.length < r.countTokens.length ? [`first ${rows.length} of ${r.countTokens.length} shown (--all-events lists them; --json has all)`] : []),
      ],
    });
  }
  const wanted = r.events.filter((e) => allEvents || e.kind !== "other" || e.level === "ERROR" || e.level === "WARN");
  const shown = allEvents ? wanted : wanted.slice(0, MAX_TIMELINE_ROWS);
  const notes: string[] = [];
  const other = r.events.length - wanted.length;
  if (other) notes.push(`${other} other entr${other === 1 ? "y" : "ies"} not shown (--all-events lists them; --json has all)`);
  if (shown.length < wanted.length) notes.push(`first ${shown.length} of ${wanted.length} events shown (--all-events lists them; --json has all)`);
  tables.push({
    id: "debug:events",
    title: "Timeline",
    columns: [col("line", "line", "int"), col("offsetMs", "+ms", "int"), col("level", "level"), col("server", "server"), col("kind", "kind"), col("text", "text")],
    rows: shown.map((e) => ({ ...e, text: oneLine(e.text, e.server) })),
    notes,
  });
  return tables;
}

/** The first line of an entry without the server prefix (already in its own column), cut for a table cell. */
function oneLine(text: string, server: string | null): string {
  let t = server !== null ? text.replace(/^MCP server "[^"]+":? /, "") : text;
  const nl = t.indexOf("\n");
  const more = nl >= 0 ? ` (+${t.split("\n").length - 1} lines)` : "";
  if (nl >= 0) t = t.slice(0, nl);
  return (t.length > 160 ? `${t.slice(0, 159)}…` : t) + more;
}
