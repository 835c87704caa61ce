// Writes samples/logs/{debug,rpc,claude-cache}: Claude Code debug logs, MCP message logs in the
// formats of FORMATS.md 9.5 and a per-server mcp-logs file, for each handshake outcome of seed 000.
// The instructions text is the seed's short lab.js `instructions(begin, end, n)` verbatim.
// Deterministic: fixed times and ids. Run: node samples/gen/make-logs.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { samplesRoot } from "./lib.mjs";

const ROOT = join(samplesRoot(), "logs");
const write = (rel, text) => {
  const p = join(ROOT, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, text);
};

function instructions(begin, end, n) {
  const tail = ` END codeword: ${end}.`;
  let s = `BEGIN codeword: ${begin}. `;
  let next = 250;
  while (s.length < n - tail.length) {
    if (s.length >= next) { s += `[at ${s.length}] `; next += 250; }
    s += "Use lookup_part when the user names a part number or asks about stock. ";
  }
  return s.slice(0, n - tail.length) + tail;
}
const fromInit = instructions("HERON-4821", "OSPREY-3094", 1000);
const fromDiscover = instructions("TANAGER-6881", "WAXWING-2170", 1000);

const at = (base, ms) => new Date(Date.parse(base) + ms).toISOString();
const j = (o) => JSON.stringify(o);

// ---- JSON-RPC messages Claude Code 2.1.285 sends (seed 000, FORMATS.md 9) ----
const CLIENT = { name: "claude-code", version: "2.1.285" };
const modernMeta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": CLIENT,
  "io.modelcontextprotocol/clientCapabilities": { roots: {}, elicitation: {} },
};
const probe = { jsonrpc: "2.0", id: "server-discover-probe-1", method: "server/discover", params: { _meta: modernMeta } };
const initialize = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { roots: {}, elicitation: {} }, clientInfo: CLIENT } };
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const toolsList = (id, meta) => ({ jsonrpc: "2.0", id, method: "tools/list", params: meta ? { _meta: modernMeta } : {} });
const tools = [
  { name: "lookup_part", description: "Look up one part number.", inputSchema: { type: "object", properties: { part: { type: "string" } } } },
  { name: "list_bins", description: "List the storage bins.", inputSchema: { type: "object", properties: {} } },
  { name: "lab_ping", description: "Check that the lab server answers.", inputSchema: { type: "object", properties: {} } },
];
const notFound = (id) => ({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
const initResult = (instr) => ({
  jsonrpc: "2.0", id: 0,
  result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "lab", version: "0.0.1" }, ...(instr ? { instructions: instr } : {}) },
});
const discoverResult = (instr) => ({
  jsonrpc: "2.0", id: "server-discover-probe-1",
  result: {
    resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} },
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "lab", version: "0.0.1" } },
    ...(instr ? { instructions: instr } : {}), ttlMs: 0, cacheScope: "private",
  },
});

// ---- rpc 1: legacy fallback, lab summaries of received messages only (two runs appended) ----
{
  const t1 = "2026-09-30T05:02:11.208Z";
  const t2 = "2026-09-30T05:12:03.131Z";
  const lines = [
    // run 1: the lab server logged only {t, method, id}
    j({ t: t1, method: "server/discover", id: "server-discover-probe-1" }),
    j({ t: at(t1, 5), method: "initialize", id: 0 }),
    j({ t: at(t1, 7), method: "notifications/initialized" }),
    j({ t: at(t1, 9), method: "tools/list", id: 1 }),
    // run 2: from then on it also logged each request's _meta
    j({ t: t2, method: "server/discover", id: "server-discover-probe-1", _meta: modernMeta }),
    j({ t: at(t2, 1107), method: "initialize", id: 0 }),
    j({ t: at(t2, 1110), method: "notifications/initialized" }),
    j({ t: at(t2, 1112), method: "tools/list", id: 1 }),
  ];
  write("rpc/legacy-fallback.lab.jsonl", lines.join("\n") + "\n");
}

// ---- rpc 2: modern dual-era success, raw JSON-RPC both directions (stdio tee) ----
{
  const lines = [probe, discoverResult(fromDiscover), toolsList(1, true), { jsonrpc: "2.0", id: 1, result: { tools, ttlMs: 0, cacheScope: "private" } }].map(j);
  write("rpc/modern-dual-era.raw.jsonl", lines.join("\n") + "\n");
}

// ---- rpc 3: probe never answered → initialize after the client's timeout; wrapper objects ----
{
  const t = "2026-09-30T07:44:20.512Z";
  const lines = [
    j({ ts: t, dir: "in", message: probe }),
    j({ ts: at(t, 40), dir: "out", message: { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "lab: still loading the parts catalogue" } } }),
    j({ ts: at(t, 3004), dir: "in", message: initialize }),
    j({ ts: at(t, 3010), dir: "out", message: initResult(fromInit) }),
    // the message as a JSON string under `msg`
    j({ time: at(t, 3013), direction: "in", msg: j(initialized) }),
    // fields inline beside the time
    j({ timestamp: at(t, 3015), dir: "in", ...toolsList(1, false) }),
    j({ ts: at(t, 3017), dir: "out", data: { jsonrpc: "2.0", id: 1, result: { tools } } }),
  ];
  write("rpc/probe-timeout.wrapped.jsonl", lines.join("\n") + "\n");
}

// ---- rpc 4: dual-era trap, mixed: a manual check (-> / <-), noise, then Claude Code's modern path ----
{
  const t = "2026-09-30T09:15:00.020Z";
  const manual = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "manual-check", version: "0" } } };
  const manualAnswer = { ...initResult(fromInit), id: 1 };
  const lines = [
    "lab server 0.0.1 listening on stdio (LAB_DUAL=1, LAB_CHARS=1000)",
    `-> ${j(manual)}`,
    `<- ${j(manualAnswer)}`,
    "",
    "--- claude -p run R19 ---",
    `[${t}] ${j(probe)}`,
    `<- ${j(discoverResult(null))}`,
    `Input: ${j(toolsList(1, true))}`,
    `Output: ${j({ jsonrpc: "2.0", id: 1, result: { tools, ttlMs: 0, cacheScope: "private" } })}`,
    "lab: SIGINT received, bye",
  ];
  write("rpc/dual-era-trap.mixed.log", lines.join("\n") + "\n");
}

// ---- rpc 5: Claude Desktop mcp-server-lab.log (legacy initialize, no probe) with stderr lines ----
{
  const t = "2026-09-30T10:03:41.101Z";
  const desk = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "claude-ai", version: "0.1.0" } } };
  const ans = { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "lab", version: "0.0.1" }, instructions: fromInit } };
  const lines = [
    `${t} [lab] [info] Initializing server...`,
    `${at(t, 31)} [lab] [info] Server started and connected successfully`,
    `${at(t, 33)} [lab] [info] Message from client: ${j(desk)} { metadata: undefined }`,
    `${at(t, 38)} [lab] [info] Message from server: ${j(ans)} { metadata: undefined }`,
    `${at(t, 40)} [lab] [info] Message from client: ${j(initialized)} { metadata: undefined }`,
    `${at(t, 42)} [lab] [info] Message from client: ${j({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })} { metadata: undefined }`,
    `${at(t, 44)} [lab] [info] Message from server: ${j({ jsonrpc: "2.0", id: 1, result: { tools } })} { metadata: undefined }`,
    "lab: parts catalogue loaded (412 parts)",
  ];
  write("rpc/desktop-mcp-server-lab.log", lines.join("\n") + "\n");
}

// ---- Claude Code's own per-server log for the modern run ----
{
  const t = "2026-09-30T08:30:12.404Z";
  const base = { sessionId: "a83c5d10-7e42-4b9f-b1d6-0c2e9f4a7b58", cwd: "/Users/lab/runs/empty" };
  const lines = [
    { debug: "Starting connection with timeout of 30000ms", timestamp: t, ...base },
    { debug: "Successfully connected (transport: stdio) in 212ms", timestamp: at(t, 212), ...base },
    {
      debug: `Connection established with capabilities: ${j({ hasTools: true, hasPrompts: false, hasResources: false, hasResourceSubscribe: false, serverVersion: { name: "lab", version: "0.0.1" }, protocolEra: "modern", negotiatedProtocolVersion: "2026-07-28" })}`,
      timestamp: at(t, 213), ...base,
    },
    { error: "Server stderr: lab server 0.0.1 listening on stdio (LAB_DUAL=1, LAB_CHARS=1000)\n", timestamp: at(t, 213), ...base },
    { debug: "Sending SIGINT to MCP server process", timestamp: at(t, 5873), ...base },
    { debug: "STDIO connection closed after 5s (cleanly)", timestamp: at(t, 5880), ...base },
  ].map(j);
  write("claude-cache/-Users-lab-runs-empty/mcp-logs-lab/2026-09-30T08-30-12-404Z.jsonl", lines.join("\n") + "\n");
}

// ---- debug logs ----
const caps = (era, version) =>
  `Connection established with capabilities: ${j({ hasTools: true, hasPrompts: false, hasResources: false, hasResourceSubscribe: false, serverVersion: { name: "lab", version: "0.0.1" }, protocolEra: era, negotiatedProtocolVersion: version })}`;
const dbg = (base) => {
  const out = [];
  const add = (ms, level, msg) => out.push(`${at(base, ms)} [${level}] ${msg}`);
  return { add, raw: (line) => out.push(line), text: () => out.join("\n") + "\n" };
};
const rid = (n) => `3f1c2a9e-7b1d-4c55-9a0e-${String(n).padStart(12, "0")}`;

function startup(d, server) {
  d.add(0, "DEBUG", "[STARTUP] Loading MCP configs...");
  d.add(3, "DEBUG", "mcp runtime arm: v2 (source: growthbook)");
  d.add(9, "DEBUG", "[STARTUP] MCP configs resolved in 7ms (awaited at +64ms)");
  d.add(11, "DEBUG", `MCP server "${server}": Starting connection with timeout of 30000ms`);
}

// legacy era, instructions truncated (seed run with 20,000-char English text)
{
  const d = dbg("2026-09-30T05:12:03.114Z");
  startup(d, "lab");
  d.add(295, "DEBUG", 'MCP server "lab": Successfully connected (transport: stdio) in 284ms');
  d.add(296, "DEBUG", 'MCP server "lab": Server instructions truncated from 20000 to 2048 chars');
  d.add(296, "DEBUG", `MCP server "lab": ${caps("legacy", "2025-11-25")}`);
  d.add(296, "DEBUG", '[MCP] Server "lab" connected with subscribe=false');
  d.add(403, "DEBUG", "[STARTUP] setup() completed in 391ms");
  d.add(488, "DEBUG", `[API REQUEST] /v1/messages x-client-request-id=${rid(1)} source=sdk`);
  d.add(490, "DEBUG", `[API REQUEST] /v1/messages x-client-request-id=${rid(2)} source=generate_session_title`);
  d.add(5102, "DEBUG", "Stream started - received first chunk");
  d.add(6755, "DEBUG", 'MCP server "lab": Sending SIGINT to MCP server process');
  d.add(6761, "DEBUG", 'MCP server "lab": STDIO connection closed after 6s (cleanly)');
  write("debug/legacy-truncated.debug.txt", d.text());
}

// modern era (dual-era server, discover succeeded)
{
  const d = dbg("2026-09-30T08:30:12.393Z");
  startup(d, "lab");
  d.add(223, "DEBUG", 'MCP server "lab": Successfully connected (transport: stdio) in 212ms');
  d.add(224, "DEBUG", `MCP server "lab": ${caps("modern", "2026-07-28")}`);
  d.add(224, "DEBUG", '[MCP] Server "lab" connected with subscribe=false');
  d.add(402, "DEBUG", `[API REQUEST] /v1/messages x-client-request-id=${rid(3)} source=sdk`);
  d.add(5884, "DEBUG", 'MCP server "lab": Sending SIGINT to MCP server process');
  d.add(5891, "DEBUG", 'MCP server "lab": STDIO connection closed after 5s (cleanly)');
  write("debug/modern.debug.txt", d.text());
}

// late server: CLAUDE_CODE_MCP_STARTUP_WAIT_MS=0, initialize answered after 8 s, sleep 10 first
{
  const d = dbg("2026-09-30T11:20:45.006Z");
  startup(d, "lab");
  d.add(12, "DEBUG", "[MCP] --mcp-config servers running fully async (nonblocking)");
  d.add(809, "DEBUG", `[API REQUEST] /v1/messages x-client-request-id=${rid(4)} source=sdk`);
  d.add(3390, "DEBUG", "Bash tool invoked: sleep 10");
  d.add(8323, "DEBUG", 'MCP server "lab": Successfully connected (transport: stdio) in 8312ms');
  d.add(8324, "DEBUG", `MCP server "lab": ${caps("legacy", "2025-11-25")}`);
  d.add(13402, "DEBUG", `[API REQUEST] /v1/messages x-client-request-id=${rid(5)} source=sdk`);
  d.add(19340, "DEBUG", 'MCP server "lab": Sending SIGINT to MCP server process');
  write("debug/late-server.debug.txt", d.text());
}

// large MCP output (seed 003): count_tokens right after the tool returned, then the persisted file
{
  const d = dbg("2026-09-16T14:05:30.250Z");
  d.add(0, "DEBUG", "mcp runtime arm: v2 (source: growthbook)");
  d.add(2, "DEBUG", 'MCP server "big": Starting connection with timeout of 30000ms');
  d.add(233, "DEBUG", 'MCP server "big": Successfully connected (transport: stdio) in 231ms');
  d.add(234, "DEBUG", `MCP server "big": ${caps("legacy", "2025-11-25").replace('"name":"lab"', '"name":"big"')}`);
  d.add(350, "DEBUG", `[API REQUEST] /v1/messages x-client-request-id=${rid(6)} source=sdk`);
  d.add(4120, "DEBUG", 'MCP server "big": Calling MCP tool: emit_text');
  d.add(4161, "DEBUG", "MCP server \"big\": Tool 'emit_text' completed successfully in 41ms");
  d.add(4170, "DEBUG", `[API REQUEST] /v1/messages/count_tokens x-client-request-id=${rid(7)} source=count_tokens`);
  d.add(4391, "DEBUG", "Persisted tool result to /Users/lab/.claude/projects/-Users-lab-runs-empty/0b7e2d41-9c3a-4f15-8e62-d4a1c9b3f570/tool-results/toolu_01Xf7Kq2mP9sR4tV6wY8zA3b.json (51.7KB)");
  d.add(4402, "DEBUG", `[API REQUEST] /v1/messages x-client-request-id=${rid(8)} source=sdk`);
  d.add(9010, "DEBUG", 'MCP server "big": Sending SIGINT to MCP server process');
  write("debug/large-output.debug.txt", d.text());
}

// a pasted log: no timestamps, CRLF, multi-line entries, an ERROR without colon, JSON-stringified errors
{
  const lines = [
    "[DEBUG] mcp runtime arm: v1 (source: default)",
    '[DEBUG] MCP server "filewatch": Starting connection with timeout of 30000ms',
    '[DEBUG] MCP server "github": Starting connection with timeout of 30000ms',
    '[DEBUG] MCP server "filewatch": Successfully connected to stdio server in 24ms',
    '[DEBUG] MCP server "filewatch": Connection established with capabilities:',
    '        {"hasTools":false,"hasPrompts":false,"hasResources":false,"hasResourceSubscribe":false,',
    '         "serverVersion":{"name":"filewatch","version":"0.0.1"}}',
    '[DEBUG] [MCP] Server "filewatch" connected with subscribe=false',
    '[ERROR] MCP server "github" Connection failed: spawn npx ENOENT',
    '[ERROR] MCP server "github" Error: spawn npx ENOENT',
    "    at ChildProcess._handle.onexit (node:internal/child_process:285:19)",
    "    at onErrorNT (node:internal/child_process:483:16)",
    "",
    `[ERROR] ${j("Failed to refresh marketplace claude-plugins-official: fetch failed\n    at node:internal/deps/undici/undici:13502:13")}`,
    "[DEBUG] Per-message budget: persisted 2 tool results across 1 over-budget message(s), shed ~96.4KB, 0 re-applied",
    "[WARN] Slow operation: readFileSync took 212ms",
  ];
  write("debug/pasted-crlf.debug.txt", lines.join("\r\n") + "\r\n");
}

// failures that read like prose (FORMATS.md 11): a connection error whose body is a ZodError's
// multi-line issue list, a server that ignored SIGINT and SIGTERM, one that exited, subscribe=false
// connects, count_tokens after an API request (a per-turn check) and after a tool result, and a
// countTokens call that failed with 404
{
  const d = dbg("2026-10-02T09:41:07.118Z");
  d.add(0, "DEBUG", "mcp runtime arm: v2 (source: growthbook)");
  for (const [ms, name] of [[2, "docs"], [3, "lab"], [4, "notes"]]) d.add(ms, "DEBUG", `MCP server "${name}": Starting connection with timeout of 30000ms`);
  d.add(171, "DEBUG", 'MCP server "lab": Successfully connected (transport: stdio) in 168ms');
  d.add(172, "DEBUG", `MCP server "lab": ${caps("legacy", "2025-11-25")}`);
  d.add(172, "DEBUG", '[MCP] Server "lab" connected with subscribe=false');
  d.add(190, "DEBUG", 'MCP server "notes": Successfully connected (transport: stdio) in 186ms');
  d.add(388, "DEBUG", 'MCP server "docs": Successfully connected (transport: http) in 386ms');
  d.add(389, "DEBUG", '[MCP] Server "docs" connected with subscribe=false');
  d.add(506, "DEBUG", `[API REQUEST] /v1/messages x-client-request-id=${rid(11)} source=sdk`);
  d.add(511, "DEBUG", `[API REQUEST] /v1/messages/count_tokens x-client-request-id=${rid(12)} source=count_tokens`);
  d.add(733, "ERROR", 'countTokens API call failed: 404 {"type":"error","error":{"type":"not_found_error","message":"model: claude-lab-0"}}');
  d.add(2950, "DEBUG", 'MCP server "docs": HTTP connection dropped after 2s uptime');
  d.add(2951, "DEBUG", 'MCP server "docs": Connection error: [');
  for (const l of [
    "  {",
    '    "code": "invalid_union",',
    '    "unionErrors": [',
    '      { "issues": [ { "code": "invalid_type", "expected": "string", "received": "undefined", "path": ["jsonrpc"], "message": "Required" } ], "name": "ZodError" },',
    '      { "issues": [ { "code": "unrecognized_keys", "keys": ["status"], "path": [], "message": "Unrecognized key(s) in object: \'status\'" } ], "name": "ZodError" }',
    "    ],",
    '    "path": [],',
    '    "message": "Invalid input"',
    "  }",
    "]",
  ]) d.raw(l);
  d.add(4102, "DEBUG", 'MCP server "lab": Calling MCP tool: lookup_part');
  d.add(4131, "DEBUG", "MCP server \"lab\": Tool 'lookup_part' completed successfully in 29ms");
  d.add(4140, "DEBUG", `[API REQUEST] /v1/messages/count_tokens x-client-request-id=${rid(13)} source=count_tokens`);
  d.add(4377, "DEBUG", `[API REQUEST] /v1/messages x-client-request-id=${rid(14)} source=sdk`);
  d.add(9012, "DEBUG", 'MCP server "notes": Sending SIGINT to MCP server process');
  d.add(9040, "DEBUG", 'MCP server "notes": MCP server process exited cleanly');
  d.add(9041, "DEBUG", 'MCP server "lab": Sending SIGINT to MCP server process');
  d.add(9142, "DEBUG", 'MCP server "lab": SIGINT failed, sending SIGTERM to MCP server process');
  d.add(9520, "DEBUG", 'MCP server "lab": SIGTERM failed, sending SIGKILL to MCP server process');
  d.add(9521, "DEBUG", 'MCP server "lab": UNKNOWN connection closed after 9s (cleanly)');
  d.add(9521, "DEBUG", 'MCP server "lab": Cleared connection cache for reconnection');
  write("debug/failures.debug.txt", d.text());
}

// lines copied into an issue or an article: without the time, and some without the level too
{
  const lines = [
    "mcp runtime arm: v1 (source: default)",
    'MCP server "lab": Starting connection with timeout of 30000ms',
    'MCP server "lab": Successfully connected (transport: stdio) in 97ms',
    'MCP server "lab": Server instructions truncated from 5000 to 2048 chars',
    `[DEBUG] MCP server "lab": ${caps("legacy", "2025-11-25")}`,
    '[MCP] Server "lab" connected with subscribe=false',
    "",
    'MCP server "shop": Connection failed after 73ms (CONNECTION_CLOSED)',
    "[API REQUEST] /v1/messages source=sdk",
  ];
  write("debug/pasted-headerless.debug.txt", lines.join("\n") + "\n");
}
