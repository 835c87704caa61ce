// Builders for the instructions scenarios (samples/instructions/*): the first-turn attachment chain
// of Claude Code 2.1.285 as the seed write-up 000 describes it (prompt, deferred tools, agent
// listing, MCP instructions, skill listing), a prompt snapshot, a debug log and `claude -p`
// stream-json output. Texts that Claude Code itself writes (system prompt, tool descriptions) are
// stand-ins of the right size, marked as such; the formats and the wrappers are the real ones.

import { writeText } from "./lib.mjs";

export const HEADING =
  "# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n";
export const REMOVED = "The following MCP servers have disconnected. Their instructions above no longer apply:";
export const STILL_CONNECTING =
  "The following MCP servers are still connecting — their tools (usually named mcp__*) are not available yet but will appear soon:";

const reminder = (body) => `<system-reminder>\n${body}\n</system-reminder>`;

/** The rendered `mcp_instructions_delta` (FORMATS.md 2.2, 5.1): heading, blocks joined by a blank line, removals. */
export function renderInstructions(blocks, removed = []) {
  const parts = [];
  if (blocks.length) parts.push(HEADING + blocks.join("\n\n"));
  if (removed.length) parts.push(`${REMOVED}\n${removed.join("\n")}`);
  return reminder(parts.join("\n\n"));
}

/** The seed write-up's system prompt was 6,662 chars in every run; this stand-in has that length. */
export function systemPrompt(extra = "") {
  const lines = [
    "You are an interactive command-line coding agent. (Stand-in text written for the ccforensics samples; it is not Claude Code's system prompt.)",
    "# Tone and style\nAnswer briefly and directly. Prefer short sentences. Do not add preambles or summaries unless asked.",
    "# Doing tasks\nRead the relevant files before changing them. Keep changes small and explain why, not what.",
    "# Tool usage\nPrefer the dedicated tools over shell commands for reading, searching and editing files.",
    "# Environment\nWorking directory: /Users/lab/runs/empty\nIs directory a git repo: No\nPlatform: darwin",
  ];
  let s = lines.join("\n\n");
  const filler = "\nKeep the user informed of progress on long tasks, and stop to ask when a request is ambiguous.";
  while (s.length < 6662) s += filler;
  s = s.slice(0, 6662);
  return extra ? `${s}\n\n${extra}` : s;
}

export const BUILTIN_TOOLS = ["Agent", "Bash", "Edit", "Glob", "Grep", "Read", "Skill", "TodoWrite", "ToolSearch", "Write"];
export const DEFERRED_BUILTINS = [
  "AskUserQuestion", "BashOutput", "CronCreate", "CronDelete", "CronList", "ExitPlanMode", "KillShell",
  "ListMcpResourcesTool", "Monitor", "NotebookEdit", "ReadMcpResourceTool", "SlashCommand", "WebFetch", "WebSearch",
];
export const LAB_TOOLS = ["mcp__lab__lookup_part", "mcp__lab__list_bins", "mcp__lab__lab_ping"];
const AGENTS = ["general-purpose", "statusline-setup", "Explore", "Plan"];

/** Tool definitions as the request sends them; descriptions are stand-ins. */
export function toolDefinitions(names = BUILTIN_TOOLS) {
  return names.map((name) => ({
    name,
    description: `${name}: stand-in description for the ccforensics samples.`,
    input_schema: { type: "object", properties: {}, additionalProperties: true },
  }));
}

/** `deferred_tools_delta` (FORMATS.md 5.2), optionally with the pending list and the "still connecting" note. */
export function deferredTools(names, { removed = [], pending = [], store = false } = {}) {
  const a = { type: "deferred_tools_delta", addedNames: names, addedLines: names, removedNames: removed };
  if (pending.length) a.pendingMcpServers = pending;
  if (store) {
    const parts = [];
    if (names.length) parts.push(`The following deferred tools are now available via ToolSearch:\n${names.join("\n")}`);
    if (removed.length) parts.push(`The following deferred tools are no longer available (their MCP server disconnected). Do not search for them — ToolSearch will return no match:\n${removed.join("\n")}`);
    if (pending.length) parts.push(`${STILL_CONNECTING}\n${pending.join("\n")}`);
    a.renderedText = reminder(parts.join("\n\n"));
  }
  return a;
}

export function agentListing({ store = false } = {}) {
  const lines = AGENTS.map((t) => `- ${t}: stand-in agent description`);
  const a = { type: "agent_listing_delta", addedTypes: AGENTS, addedLines: lines, removedTypes: [], isInitial: true, showConcurrencyNote: false };
  if (store) a.renderedText = reminder(`Available agent types for the Agent tool:\n${lines.join("\n")}`);
  return a;
}

export function skillListing() {
  const content = "- init: stand-in skill description\n- review: stand-in skill description";
  return { type: "skill_listing", content, skillCount: 2, names: ["init", "review"] };
}

/** `mcp_instructions_delta` with `## <server>\n<text>` blocks sorted by name (FORMATS.md 5.1). */
export function instructionsDelta(servers, { removed = [], store = false } = {}) {
  const sorted = [...servers].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const blocks = sorted.map((s) => `## ${s.name}\n${s.text}`);
  const a = { type: "mcp_instructions_delta", addedNames: sorted.map((s) => s.name), addedBlocks: blocks, removedNames: removed };
  // The write-up says 2.1.285 stores the rendered text; it does not name the field, this name is ours.
  if (store) a.renderedText = renderInstructions(blocks, removed);
  return a;
}

/** The first user turn of a `claude -p` run: prompt, then the attachment chain in the write-up's order. */
export function firstTurn(s, prompt, { deferred, pending = [], servers = [], store = false }) {
  s.user(prompt, { dt: 900 });
  s.attachment(deferredTools(deferred, { pending, store }));
  s.attachment(agentListing({ store }));
  if (servers.length) s.attachment(instructionsDelta(servers, { store }));
  s.attachment(skillListing());
}

/** `prompt_snapshot` (2.1.285, SEED 000): the system prompt and the tool definitions of the request. */
export function promptSnapshot(s, { system = systemPrompt(), tools = toolDefinitions() } = {}) {
  return s.record(s.env({ type: "prompt_snapshot", systemPrompt: system, tools, timestamp: s.tick(2) }));
}

const iso = (ms) => new Date(ms).toISOString();

/**
 * A debug log (FORMATS.md 7): runtime arm, one connection per server (optionally a truncation line),
 * API requests. Times are ms offsets from `start`.
 */
export function debugLog({ start, servers, requests }) {
  const t0 = Date.parse(start);
  const lines = [];
  const at = (ms, level, msg) => lines.push({ ms, text: `${iso(t0 + ms)} [${level}] ${msg}` });
  at(0, "DEBUG", "mcp runtime arm: v2 (source: growthbook)");
  for (const sv of servers) {
    const p = `MCP server "${sv.name}":`;
    at(sv.startMs ?? 40, "DEBUG", `${p} Starting connection with timeout of 30000ms`);
    at(sv.connectedMs, "DEBUG", `${p} Successfully connected (transport: stdio) in ${sv.connectedMs - (sv.startMs ?? 40)}ms`);
    const caps = { hasTools: true, hasPrompts: false, hasResources: false, serverVersion: { name: sv.name, version: "0.0.1" }, protocolEra: "legacy", negotiatedProtocolVersion: "2025-11-25" };
    at(sv.connectedMs + 1, "DEBUG", `${p} Connection established with capabilities: ${JSON.stringify(caps)}`);
    if (sv.truncatedFrom) at(sv.connectedMs + 2, "DEBUG", `${p} Server instructions truncated from ${sv.truncatedFrom} to 2048 chars`);
    if (sv.disconnectMs) at(sv.disconnectMs, "DEBUG", `${p} STDIO connection closed after ${Math.round((sv.disconnectMs - sv.connectedMs) / 1000)}s (cleanly)`);
  }
  for (const ms of requests) at(ms, "DEBUG", `[API REQUEST] /v1/messages x-client-request-id=00000000-0000-4000-8000-${String(ms).padStart(12, "0")} source=sdk`);
  lines.sort((a, b) => a.ms - b.ms);
  return lines.map((l) => l.text).join("\n") + "\n";
}

/** `claude -p --output-format stream-json --verbose` output for a session: init, its messages, result. */
export function streamJson(s, { mcpServers, tools, result, durationMs }) {
  const sid = s.sessionId;
  const out = [{
    type: "system", subtype: "init", cwd: s.cwd, session_id: sid, tools, mcp_servers: mcpServers, model: s.model,
    permissionMode: "default", slash_commands: ["compact", "context", "cost", "init", "review"], apiKeySource: "none",
    claude_code_version: s.version, output_style: "default", agents: AGENTS, skills: [], plugins: [], uuid: "00000000-0000-4000-8000-00000000a001",
  }];
  for (const e of s.entries) {
    const o = e.obj;
    if (o?.type === "assistant") out.push({ type: "assistant", message: o.message, parent_tool_use_id: null, session_id: sid, uuid: o.uuid });
    if (o?.type === "user" && Array.isArray(o.message.content)) {
      out.push({ type: "user", message: o.message, parent_tool_use_id: null, session_id: sid, uuid: o.uuid, tool_use_result: o.toolUseResult });
    }
  }
  const u = { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 };
  for (const r of s.requests) for (const k of Object.keys(u)) u[k] += r.usage[k];
  const cost = (u.input_tokens * 5 + u.cache_creation_input_tokens * 6.25 + u.cache_read_input_tokens * 0.5 + u.output_tokens * 25) / 1e6;
  out.push({
    type: "result", subtype: "success", is_error: false, duration_ms: durationMs, duration_api_ms: Math.round(durationMs * 0.6),
    num_turns: s.requests.length, result, stop_reason: "end_turn", session_id: sid, total_cost_usd: Number(cost.toFixed(6)),
    usage: { ...u, server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 }, service_tier: "standard" },
    modelUsage: { [s.model]: { inputTokens: u.input_tokens, outputTokens: u.output_tokens, cacheReadInputTokens: u.cache_read_input_tokens, cacheCreationInputTokens: u.cache_creation_input_tokens, webSearchRequests: 0, costUSD: Number(cost.toFixed(6)), contextWindow: 200000, maxOutputTokens: 32000 } },
    permission_denials: [], uuid: "00000000-0000-4000-8000-00000000a002",
  });
  return out.map((o) => JSON.stringify(o)).join("\n") + "\n";
}

export { writeText };
