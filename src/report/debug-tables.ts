import type { DebugEvent, DebugResult } from "../analyses/debug.js";
import { debugFindings } from "../analyses/debug-flags.js";
import { findingsTable } from "./findings.js";
import { col, type Table } from "./model.js";
import { approxSizeText } from "../records/tool-output.js";
import { MAX_NAMES, otherLabel } from "../records/counts.js";
import { formatInt } from "./int-format.js";

/** Rows per table unless --all-events: a timeline longer than this is unreadable in a terminal (--json keeps every event). */
export const MAX_TIMELINE_ROWS = 1000;

/** Servers, findings, persisted results and the timeline; reused by `report`. */
export function debugTables(r: DebugResult, allEvents = false): Table[] {
  const tables: Table[] = [];
  tables.push({
    id: "debug:servers",
    title: "MCP servers",
    columns: [
      col("name", "server", "id", { priority: 1 }),
      col("status", "status", "text", { priority: 1 }),
      col("transport", "transport", "text", { priority: 3 }),
      col("connectMs", "connect", "ms", { priority: 1 }),
      col("lateByMs", "after req 1", "ms", { priority: 2 }),
      col("protocolEra", "era", "text", { priority: 2 }),
      col("negotiatedProtocolVersion", "negotiated", "text", { priority: 3 }),
      col("instructionsTruncatedFrom", "instructions truncated", "change", { priority: 2, parts: ["instructionsTruncatedTo"] }),
      col("toolCalls", "tool calls", "int"),
      col("toolsFailed", "failed", "int"),
      col("toolMs", "tool time", "ms"),
      col("errors", "errors", "int"),
      col("stderrLines", "stderr", "int"),
      col("closed", "closed", "text", { priority: 4 }),
      col("lastError", "last error", "message", { priority: 3 }),
    ],
    rows: r.servers.map((s) => ({
      ...s,
      status: s.forcedShutdown === null ? s.status : `${s.status} (${s.forcedShutdown})`,
    })),
    // Past the cap on names (records/counts.ts) the servers not listed are counted, as every capped list says.
    notes: r.serversOther
      ? [`${otherLabel(r.serversOther)}: servers past the first ${formatInt(MAX_NAMES)} named are counted, not listed`]
      : [],
  });
  // Each finding whole (JSON's flags, CSV); the human formats cut a quote at render, after --redact. The flags
  // the analysis made come first (a command may add its own after them, which quote nothing).
  if (r.flags.length) {
    const found = debugFindings(r);
    const quotes = r.flags.map((f, i) => (found[i]?.text === f ? found[i]!.quote : undefined));
    tables.push(findingsTable(r.flags, "findings", quotes));
  }
  if (r.persisted.length) {
    const rows = allEvents ? r.persisted : r.persisted.slice(0, MAX_TIMELINE_ROWS);
    tables.push({
      id: "debug:persisted",
      title: "Persisted tool results",
      columns: [
        col("line", "line", "int", { priority: 1 }),
        col("time", "time", "time", { priority: 3 }),
        col("size", "size", "text", { priority: 2 }),
        // The row keeps the byte count, CSV writes it and whether it is exact; a size read off `51.7KB` is
        // rounded, so the human formats show `≈51.7 KB` instead of a count that looks exact.
        col("bytes", "bytes", "int", { priority: 1, parts: ["bytesExact"], display: "bytesShown" }),
        col("path", "path", "path", { priority: 2 }),
      ],
      rows: rows.map((p) => ({
        line: p.line,
        time: p.time,
        size: p.size,
        bytes: p.bytes,
        bytesExact: p.bytesExact,
        bytesShown: p.bytesExact || p.bytes === null ? undefined : approxSizeText(p.size),
        path: p.path,
      })),
      notes:
        rows.length < r.persisted.length
          ? [`first ${rows.length} of ${r.persisted.length} shown (--all-events lists them; --json has all)`]
          : [],
    });
  }
  if (r.countTokens.length) {
    const rows = allEvents ? r.countTokens : r.countTokens.slice(0, MAX_TIMELINE_ROWS);
    tables.push({
      id: "debug:count-tokens",
      title: "count_tokens requests and what came just before them",
      columns: [
        col("line", "line", "int", { priority: 1 }),
        col("time", "time", "time", { priority: 2 }),
        col("beforeLine", "before: line", "int", { priority: 2 }),
        // Evidence text whole in the row (JSON, CSV); the human formats cut it at render, after --redact.
        col("before", "before: entry", "entry", { priority: 1 }),
        // Only with a transcript (report): the result whose call was in flight. CSV always has the columns;
        // the human formats leave them out when no request fell during one.
        col("toolResult", "during tool result", "text", { hideBlank: true }),
        col("toolResultChars", "its chars", "int", { hideBlank: true }),
        col("failed", "failed", "entry"),
      ],
      rows: rows.map((c) => ({
        line: c.line,
        time: c.time,
        beforeLine: c.before?.line ?? null,
        before: c.before === null ? "(start of log)" : `${c.before.server ? `${c.before.server}: ` : ""}${c.before.what}`,
        toolResult: c.toolResult === null ? null : `${c.toolResult.tool} (transcript line ${c.toolResult.line})`,
        toolResultChars: c.toolResult?.chars ?? null,
        failed: c.failed,
      })),
      notes: [
        "what the log shows just before each request, not why Claude Code made it: a long MCP result, Read's own size check and a per-turn check all call count_tokens",
        ...(rows.length < r.countTokens.length
          ? [`first ${rows.length} of ${r.countTokens.length} shown (--all-events lists them; --json has all)`]
          : []),
      ],
    });
  }
  // The events may be spooled to a file (analyses/debug.ts): walked once, keeping only the rows shown.
  const shown: DebugEvent[] = [];
  let wanted = 0;
  for (const e of r.events) {
    if (!(allEvents || e.kind !== "other" || e.level === "ERROR" || e.level === "WARN")) continue;
    wanted += 1;
    if (allEvents || shown.length < MAX_TIMELINE_ROWS) shown.push(e);
  }
  const notes: string[] = [];
  const other = r.events.length - wanted;
  if (other) notes.push(`${other} other entr${other === 1 ? "y" : "ies"} not shown (--all-events lists them; --json has all)`);
  if (shown.length < wanted) notes.push(`first ${shown.length} of ${wanted} events shown (--all-events lists them; --json has all)`);
  tables.push({
    id: "debug:events",
    title: "Timeline",
    columns: [
      col("line", "line", "int", { priority: 1 }),
      col("offsetMs", "+ms", "int", { priority: 2 }),
      col("level", "level", "text", { priority: 3 }),
      col("server", "server", "id", { priority: 2 }),
      col("kind", "kind", "text", { priority: 1 }),
      col("text", "text", "entry", { priority: 1 }),
    ],
    rows: shown.map((e) => ({ ...e, text: unprefixed(e.text, e.server) })),
    notes,
  });
  return tables;
}

/**
 * An entry without the server prefix (already in its own column), whole: the human formats show its first
 * line (the "entry" kind), CSV all of it.
 */
function unprefixed(text: string, server: string | null): string {
  return server !== null ? text.replace(/^MCP server "[^"]+":? /, "") : text;
}
