import { CHECKS, type FleetBy, type FleetRow } from "../analyses/servers.js";
import type { SessionComposition } from "../assemble/fleet-session.js";
import { col, type Column, type Table } from "./model.js";

/** Checks every row shows a column for; the rarer ones get one only when some row has them. */
const ALWAYS = new Set(["inline", "size", "token"]);

/** One row per MCP server (or tool), most expensive first. Checks are a column each, so CSV stays raw. */
export function fleetTable(rows: FleetRow[], by: FleetBy): Table {
  const checks = CHECKS.filter((c) => ALWAYS.has(c) || rows.some((r) => r.checks[c] > 0));
  const columns: Column[] = [
    col("name", by === "server" ? "server" : "tool", "id", { priority: 1 }),
    ...(by === "tool" ? [col("server", "server", "id", { priority: 3 })] : []),
    col("sessions", "sessions", "int", { priority: 1 }),
    ...(by === "server"
      ? [
          col("tools", "tools", "int", { priority: 2 }),
          col("toolsDeferred", "deferred", "int", { priority: 3 }),
          col("toolsLoaded", "loaded", "int", { priority: 3 }),
        ]
      : [col("toolsDeferred", "deferred", "int", { priority: 3 }), col("toolsDefined", "defined", "int", { priority: 4 })]),
    col("toolCalls", "calls", "int", { priority: 2 }),
    col("results", "results", "int", { priority: 2 }),
    col("resultChars", "result chars", "int", { priority: 1 }),
    col("resultCharsMax", "largest", "int", { priority: 2 }),
    ...checks.map((c) => col(`check_${c}`, c, "int", { priority: c === "inline" ? 3 : 2 })),
    col("deltaTokens", "Δ tokens", "int", { priority: 1 }),
    col("tokensPerChar", "tok/char", "rate", { priority: 3 }),
    col("followUpReads", "follow-up reads", "countGrowth", { priority: 3, parts: ["followUpTokens"] }),
    ...(by === "server"
      ? [
          col("instructionsDeliveries", "instr. deliveries", "int", { priority: 2 }),
          col("instructionsChars", "instr. chars", "int", { priority: 3 }),
          col("instructionsTruncated", "instr. truncated", "int", { priority: 2 }),
          col("connectionFailures", "conn. failures", "int", { priority: 3 }),
        ]
      : []),
  ];
  const table = rows.map((r) => ({
    name: r.name,
    server: r.server,
    sessions: r.sessions,
    tools: r.tools,
    toolsDeferred: r.toolsDeferred,
    toolsDefined: r.toolsDefined,
    toolsLoaded: r.toolsLoaded,
    toolCalls: r.toolCalls,
    results: r.results,
    resultChars: r.resultChars,
    resultCharsMax: r.resultCharsMax,
    ...Object.fromEntries(checks.map((c) => [`check_${c}`, r.checks[c]])),
    deltaTokens: r.deltaTokens,
    tokensPerChar: r.tokensPerChar,
    followUpReads: r.followUpReads,
    followUpTokens: r.followUpTokens || null,
    instructionsDeliveries: r.instructions.deliveries,
    instructionsChars: r.instructions.chars,
    instructionsTruncated: r.instructions.truncated,
    connectionFailures: r.debugLogs > 0 ? r.connectionFailures : null,
  }));
  const notes = [
    "Δ tokens: the growth of each request that carried the results, once per request; a request after a compaction boundary (or with no growth known) is left out",
  ];
  const unknown = rows.reduce((n, r) => n + r.deltaTokensUnknown, 0);
  if (unknown) notes.push(`${unknown} result(s) with no known growth (after a compaction, or in no request) are not in Δ tokens`);
  const shared = rows.reduce((n, r) => n + r.sharedRequests, 0);
  if (shared) notes.push(`${shared} request(s) carried other results too: their growth counts for each server or tool they carried`);
  if (by === "server")
    notes.push(
      "conn. failures: sessions whose debug log ends the server failed, timed out, errored, needed auth (HTTP 401) or was killed; blank without a debug log",
    );
  return { id: by === "server" ? "servers" : "tools", title: by === "server" ? "MCP servers" : "MCP tools", columns, rows: table, notes };
}

/** Each session's first request, by what it was made of. */
export function compositionTable(rows: SessionComposition[]): Table {
  return {
    id: "composition",
    title: "First request per session (characters; tokens estimated by share)",
    columns: [
      col("sessionId", "session", "id", { priority: 1 }),
      col("project", "project (cwd)", "path", { priority: 3 }),
      col("firstRequestTokens", "first request (tokens)", "int", { priority: 1 }),
      col("systemPromptChars", "system prompt", "int", { priority: 2 }),
      col("builtinToolChars", "built-in tools", "int", { priority: 3 }),
      col("mcpToolChars", "MCP tools", "int", { priority: 2 }),
      col("perServer", "MCP tools by server", "text", { priority: 4 }),
      col("instructionsChars", "instructions", "int", { priority: 2 }),
      col("otherAttachmentChars", "other attachments", "int", { priority: 3 }),
      col("userTextChars", "user text", "int", { priority: 3 }),
      col("instructionsTokens", "instructions ≈tokens", "int", { priority: 3 }),
      col("toolTokens", "tools ≈tokens", "int", { priority: 3 }),
    ],
    rows: rows.map((r) => ({
      ...r,
      perServer: r.toolDefinitions.map((d) => `${d.server} ${d.tools} (${d.chars.toLocaleString("en-US")})`).join(", "),
    })),
    notes: [
      "characters of what the first request of the main chain was built from; system prompt and tool definitions come from a prompt snapshot (blank without one)",
      "≈tokens: the first request's total input split by character share, an estimate (prose, code and JSON differ in characters per token)",
    ],
  };
}
