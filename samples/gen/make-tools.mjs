// Writes samples/tools/long-description/: one `claude -p` run whose MCP server `docs` lists a tool with
// a 3,000-char description (alwaysLoad, so its definition is in the prompt snapshot, cut to 2,048 chars
// + `… [truncated]`), a deferred tool with a 2,500-char description (never sent whole: its cut is
// inferred from the server's length) that ToolSearch later loads and the model calls, and a short
// deferred tool. The config dir holds the transcript and debug log; beside it are the server's raw
// stdio tap (both directions, tools/list answer included) and the stream-json output.
// Deterministic: the same bytes on every run.
//   node samples/gen/make-tools.mjs

import { rmSync } from "node:fs";
import { join } from "node:path";
import {
  BUILTIN_TOOLS, DEFERRED_BUILTINS, agentListing, debugLog, deferredTools, promptSnapshot, skillListing, streamJson,
  systemPrompt, toolDefinitions, writeText,
} from "./instructions-lib.mjs";
import { labInstructions, truncateLikeClaudeCode } from "./lab-text.mjs";
import { projectKey, session, text, toolUse, samplesRoot } from "./lib.mjs";

const OUT = join(samplesRoot(), "tools", "long-description");
const GEN = "`node samples/gen/make-tools.mjs`";
const ID = "7001de00-0000-4000-8000-000000000007";
const START = "2026-10-05T11:00:00.000Z";
const CWD = "/Users/lab/runs/empty";
const MODEL = "claude-opus-5-5";

// Descriptions reuse the lab's filler so their lengths are exact; the codewords mark where a cut falls.
const manual = labInstructions("CURLEWS-7001", "PLOVERS-7002", 3000);
const search = labInstructions("DUNLINS-7003", "AVOCETS-7004", 2500);
const SERVER_TOOLS = [
  { name: "fetch_manual", description: manual, inputSchema: { type: "object", properties: { part: { type: "string" } }, required: ["part"] }, _meta: { "anthropic/alwaysLoad": true } },
  { name: "search_docs", description: search, inputSchema: { type: "object", properties: { query: { type: "string" }, limit: { type: "integer" } }, required: ["query"] } },
  { name: "get_page", description: "Returns one page of the shop handbook by number.", inputSchema: { type: "object", properties: { page: { type: "integer" } }, required: ["page"] } },
];
const DOCS_DEFERRED = ["mcp__docs__search_docs", "mcp__docs__get_page"];

rmSync(OUT, { recursive: true, force: true });
const s = session({ sessionId: ID, cwd: CWD, version: "2.1.285", model: MODEL, start: START, seed: `tools/${ID}`, cacheTtl: "5m" });
s.user("Find what the handbook says about returning a damaged part, then answer in one line.", { dt: 900 });
s.attachment(deferredTools([...DEFERRED_BUILTINS, ...DOCS_DEFERRED], { store: true }));
s.attachment(agentListing({ store: true }));
s.attachment(skillListing());
const manualDef = { name: "mcp__docs__fetch_manual", description: truncateLikeClaudeCode(manual), input_schema: SERVER_TOOLS[0].inputSchema };
promptSnapshot(s, { system: systemPrompt(), tools: [...toolDefinitions(BUILTIN_TOOLS), manualDef] });
const [, find] = s.assistantSplit({ blocks: [text("I will look for the docs tools."), toolUse("ToolSearch", { query: "select:mcp__docs__search_docs", max_results: 1 })], usage: { input_tokens: 6, cache_creation_input_tokens: 22408, cache_read_input_tokens: 0, output_tokens: 41 } });
const findId = find.obj.message.content[0].id;
s.toolResult(findId, [{ type: "tool_reference", tool_name: "mcp__docs__search_docs" }], { matches: ["mcp__docs__search_docs"], query: "select:mcp__docs__search_docs", total_deferred_tools: 16 });
const [call] = s.assistantSplit({ blocks: [toolUse("mcp__docs__search_docs", { query: "damaged part return" })], usage: { input_tokens: 6, cache_creation_input_tokens: 1013, cache_read_input_tokens: 22408, output_tokens: 38 } });
const callId = call.obj.message.content[0].id;
const hit = "Handbook 4.2: a damaged part goes back within 30 days with its bin label.";
s.toolResult(callId, [{ type: "text", text: hit }], [{ type: "text", text: hit }]);
s.assistantSplit({ blocks: [text("Return a damaged part within 30 days, with its bin label (handbook 4.2).")], usage: { input_tokens: 6, cache_creation_input_tokens: 61, cache_read_input_tokens: 23421, output_tokens: 22 } });
s.write(join(OUT, "projects", projectKey(CWD), `${ID}.jsonl`));

writeText(join(OUT, "debug", `${ID}.txt`), debugLog({ start: START, servers: [{ name: "docs", connectedMs: 540 }], requests: [1200, 4100, 6900] }));

// The server's stdio tap: what it received and what it sent, one JSON-RPC message per line.
const tap = [
  { jsonrpc: "2.0", id: "server-discover-probe-1", method: "server/discover", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "claude-code", version: "2.1.285" } } } },
  { jsonrpc: "2.0", id: "server-discover-probe-1", error: { code: -32601, message: "Method not found" } },
  { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "claude-code", version: "2.1.285" } } },
  { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "docs", version: "0.1" } } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
  { jsonrpc: "2.0", id: 1, result: { tools: SERVER_TOOLS } },
  { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "search_docs", arguments: { query: "damaged part return" } } },
  { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: hit }] } },
];
writeText(join(OUT, "rpc-log.jsonl"), tap.map((m) => JSON.stringify(m)).join("\n") + "\n");

const tools = [...BUILTIN_TOOLS, ...DEFERRED_BUILTINS, "mcp__docs__fetch_manual", ...DOCS_DEFERRED];
writeText(join(OUT, "run.stream.jsonl"), streamJson(s, { mcpServers: [{ name: "docs", status: "connected" }], tools, result: "Return a damaged part within 30 days, with its bin label (handbook 4.2).", durationMs: 8400 }));

writeText(
  join(OUT, "README.md"),
  [
    "`claude -p` run with one MCP server, `docs`, whose tools/list (in `rpc-log.jsonl`, a raw stdio tap of both directions) has three tools:",
    `\`fetch_manual\` (${manual.length.toLocaleString("en-US")}-char description, \`anthropic/alwaysLoad\`: its definition is in the prompt snapshot, cut to 2,048 chars + \`… [truncated]\` = ${manualDef.description.length.toLocaleString("en-US")}),`,
    `\`search_docs\` (${search.length.toLocaleString("en-US")} chars, deferred behind ToolSearch; ToolSearch loads it with a \`tool_reference\` block and the model calls it in request 2) and \`get_page\` (short, deferred, never loaded).`,
    `The prompt snapshot's system prompt is ${systemPrompt().length.toLocaleString("en-US")} chars (a stand-in of the seed write-up's length). Debug log in \`debug/\`, the run's stream-json output in \`run.stream.jsonl\`.`,
    `Session \`${ID}\`. Generated by ${GEN}; do not edit by hand. Try: \`ccforensics tools 7001de00 --claude-dir samples/tools/long-description --rpc-log samples/tools/long-description/rpc-log.jsonl\`.`,
  ].join("\n") + "\n",
);
