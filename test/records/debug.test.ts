import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { classifyMessage, durationMs, sizeBytes, type DebugRecord, type DebugEntry } from "../../src/records/debug.js";
import { findDebugLog, findRpcLogs, projectKey } from "../../src/sources/evidence.js";
import type { InputFile } from "../../src/sources/input.js";
import { sample } from "../helpers.js";
import { readDebugLog } from "../read.js";

async function read(text: string, chunk = 4096, path = "-"): Promise<DebugRecord[]> {
  const buf = Buffer.from(text, "utf8");
  const chunks: Buffer[] = [];
  for (let i = 0; i < buf.length; i += chunk) chunks.push(buf.subarray(i, i + chunk));
  const input: InputFile = { path, kind: "debug-log", bytes: 0, sha256: "" };
  const out: DebugRecord[] = [];
  out.push(...(await readDebugLog(input, { stdin: Readable.from(chunks) })));
  return out;
}
const entries = (rs: DebugRecord[]) => rs.filter((r): r is DebugEntry => r.kind === "debug");
const ev = (text: string, level = "DEBUG") => classifyMessage(text, level);

test("header: time, level, message; ms from the time", async () => {
  const [e] = entries(await read('2026-09-30T04:26:18.442Z [DEBUG] MCP server "lab": Starting connection with timeout of 30000ms\n'));
  assert.equal(e!.time, "2026-09-30T04:26:18.442Z");
  assert.equal(e!.ms, Date.parse("2026-09-30T04:26:18.442Z"));
  assert.equal(e!.level, "DEBUG");
  assert.equal(e!.server, "lab");
  assert.deepEqual(e!.event, { type: "mcp-starting", timeoutMs: 30000 });
  assert.deepEqual(e!.pos, { file: "-", line: 1 });
});

test("lines without timestamp (older pastes) are entries with time null", async () => {
  const rs = entries(await read('[DEBUG] MCP server "filewatch": Successfully connected (transport: stdio) in 24ms\n[ERROR] boom\n'));
  assert.equal(rs.length, 2);
  assert.equal(rs[0]!.time, null);
  assert.equal(rs[0]!.ms, null);
  assert.deepEqual(rs[0]!.event, { type: "mcp-connected", ms: 24, transport: "stdio" });
  assert.equal(rs[1]!.level, "ERROR");
});

test("multi-line continuation: pasted capabilities JSON across lines, blank lines inside kept, trailing ones dropped", async () => {
  const log = [
    '[DEBUG] MCP server "filewatch": Connection established with capabilities:',
    '        {"hasTools":false,"hasPrompts":false,"hasResources":false,"hasResourceSubscribe":false,',
    '         "serverVersion":{"name":"filewatch","version":"0.0.1"}}',
    "2026-09-30T04:26:19.000Z [ERROR] Error: spawn failed",
    "    at ChildProcess.spawn (node:internal/child_process:421:11)",
    "",
    "    at next (file.js:1:1)",
    "",
    "",
    "2026-09-30T04:26:20.000Z [DEBUG] done",
    "",
  ].join("\n");
  for (const size of [1, 7, 4096]) {
    const rs = await read(log, size);
    assert.equal(rs.length, 3, `chunk ${size}`);
    const [caps, err, done] = entries(rs);
    assert.equal(caps!.lines, 3);
    assert.equal(caps!.event.type, "mcp-capabilities");
    if (caps!.event.type === "mcp-capabilities") {
      assert.deepEqual(caps!.event.serverVersion, { name: "filewatch", version: "0.0.1" });
      assert.equal(caps!.event.capabilities!.hasTools, false);
      assert.equal(caps!.event.protocolEra, null);
    }
    assert.equal(
      err!.text,
      "Error: spawn failed\n    at ChildProcess.spawn (node:internal/child_process:421:11)\n\n    at next (file.js:1:1)",
    );
    assert.equal(err!.pos.line, 4);
    assert.equal(done!.pos.line, 10);
  }
});

test("CRLF line ends give the same entries and positions", async () => {
  const lf =
    '2026-09-30T04:26:18.597Z [DEBUG] MCP server "lab": Successfully connected (transport: stdio) in 164ms\ncontinued\n2026-09-30T04:26:18.598Z [DEBUG] mcp runtime arm: v2 (source: growthbook)\n';
  const a = await read(lf);
  for (const size of [1, 7, 4096]) assert.deepEqual(await read(lf.replace(/\n/g, "\r\n"), size), a);
  assert.equal(entries(a)[0]!.text, 'MCP server "lab": Successfully connected (transport: stdio) in 164ms\ncontinued');
});

test("JSON-stringified messages (stream-json runs) are unquoted, then classified", async () => {
  const rs = entries(
    await read(
      '2026-09-30T04:26:18.000Z [ERROR] "Failed to refresh marketplace claude-plugins-official: fetch failed\\n    at x (y.js:1:2)"\n' +
        '2026-09-30T04:26:18.100Z [DEBUG] "MCP server \\"lab\\": Server instructions truncated from 20000 to 2048 chars"\n' +
        '2026-09-30T04:26:18.200Z [DEBUG] "just quoted" and more"\n',
    ),
  );
  assert.equal(rs[0]!.stringified, true);
  assert.equal(rs[0]!.text, "Failed to refresh marketplace claude-plugins-official: fetch failed\n    at x (y.js:1:2)");
  assert.equal(rs[1]!.server, "lab");
  assert.deepEqual(rs[1]!.event, { type: "mcp-instructions-truncated", from: 20000, to: 2048 });
  assert.equal(rs[2]!.stringified, false);
  assert.equal(rs[2]!.text, '"just quoted" and more"');
});

test("headerless lines before any entry, NUL remnants are malformed; leading blank lines are not", async () => {
  const rs = await read("\nsome pasted prose\n\u0000\u0000\u0000\n[INFO] ok\n");
  assert.deepEqual(
    rs.map((r) => [r.kind, r.pos.line]),
    [
      ["malformed", 2],
      ["malformed", 3],
      ["debug", 4],
    ],
  );
  assert.match((rs[0] as { reason: string }).reason, /no `\[LEVEL\]` header/);
  assert.match((rs[1] as { reason: string }).reason, /NUL/);
});

test("MCP server prefix: colon for debug, none for errors", () => {
  assert.deepEqual(ev('MCP server "lab": Calling MCP tool: lookup_part'), {
    server: "lab",
    event: { type: "mcp-tool-call", tool: "lookup_part" },
  });
  assert.deepEqual(ev('MCP server "my server" Connection failed: spawn npx ENOENT', "ERROR"), {
    server: "my server",
    event: { type: "mcp-connection-failed", ms: null, error: "spawn npx ENOENT" },
  });
  assert.deepEqual(ev('MCP server "lab" McpError: MCP error -32000: Connection closed', "ERROR"), {
    server: "lab",
    event: { type: "mcp-error", error: "McpError: MCP error -32000: Connection closed" },
  });
  assert.deepEqual(ev('MCP server "lab": something new'), { server: "lab", event: { type: "other" } });
});

test("connected: transport form and the older `to stdio server` form", () => {
  assert.deepEqual(ev('MCP server "unreal": Successfully connected (transport: http) in 736ms').event, {
    type: "mcp-connected",
    ms: 736,
    transport: "http",
  });
  assert.deepEqual(ev('MCP server "a": Successfully connected to stdio server in 2272ms').event, {
    type: "mcp-connected",
    ms: 2272,
    transport: "stdio",
  });
});

test("capabilities with protocolEra and negotiatedProtocolVersion (both eras)", () => {
  const legacy = ev(
    'MCP server "spike001": Connection established with capabilities: {"hasTools":true,"hasPrompts":false,"hasResources":false,"hasResourceSubscribe":false,"serverVersion":{"name":"spike-001-stub","version":"0.0.0"},"protocolEra":"legacy","negotiatedProtocolVersion":"2025-11-25"}',
  ).event;
  assert.equal(legacy.type, "mcp-capabilities");
  if (legacy.type !== "mcp-capabilities") return;
  assert.equal(legacy.protocolEra, "legacy");
  assert.equal(legacy.negotiatedProtocolVersion, "2025-11-25");
  assert.deepEqual(legacy.serverVersion, { name: "spike-001-stub", version: "0.0.0" });
  const modern = ev(
    'MCP server "lab": Connection established with capabilities: {"hasTools":true,"serverVersion":{"name":"lab","version":"0.0.1"},"protocolEra":"modern","negotiatedProtocolVersion":"2026-07-28"}',
  ).event;
  assert.ok(modern.type === "mcp-capabilities" && modern.protocolEra === "modern" && modern.negotiatedProtocolVersion === "2026-07-28");
  const broken = ev('MCP server "lab": Connection established with capabilities: {"hasTools":true,').event;
  assert.equal(broken.type, "other");
  const bad = ev('MCP server "lab": Connection established with capabilities: {"hasTools":tru}').event;
  assert.ok(bad.type === "mcp-capabilities" && bad.capabilities === null);
});

test("instructions truncated", () => {
  assert.deepEqual(ev('MCP server "lab": Server instructions truncated from 5000 to 2048 chars').event, {
    type: "mcp-instructions-truncated",
    from: 5000,
    to: 2048,
  });
});

test("connection failures, timeouts, drops, closes, shutdown, stderr", () => {
  assert.deepEqual(ev('MCP server "x": Connection failed after 73ms (CONNECTION_CLOSED)').event, {
    type: "mcp-connection-failed",
    ms: 73,
    error: "CONNECTION_CLOSED",
  });
  assert.deepEqual(ev('MCP server "x": Connection failed after 30036ms: timed out').event, {
    type: "mcp-connection-failed",
    ms: 30036,
    error: "timed out",
  });
  assert.deepEqual(
    ev('MCP server "serena": Connection failed after 30019ms (CONNECT_TIMEOUT): MCP server "serena" connection timed out after 30000ms')
      .event,
    {
      type: "mcp-connection-failed",
      ms: 30019,
      error: 'CONNECT_TIMEOUT: MCP server "serena" connection timed out after 30000ms',
    },
  );
  assert.deepEqual(ev('MCP server "h": HTTP Connection failed after 12ms: fetch failed (code: ECONNREFUSED, errno: none)').event, {
    type: "mcp-connection-failed",
    ms: 12,
    error: "fetch failed (code: ECONNREFUSED, errno: none)",
  });
  assert.deepEqual(ev('MCP server "x": Connection timeout triggered after 30002ms (limit: 30000ms)').event, {
    type: "mcp-connection-timeout",
    ms: 30002,
    limitMs: 30000,
  });
  assert.deepEqual(ev('MCP server "x": STDIO connection dropped after 0s uptime').event, {
    type: "mcp-connection-dropped",
    transport: "stdio",
    uptimeS: 0,
  });
  assert.deepEqual(ev('MCP server "x": STDIO connection closed after 3s (cleanly)').event, {
    type: "mcp-connection-closed",
    transport: "stdio",
    uptimeS: 3,
    clean: true,
  });
  assert.deepEqual(ev('MCP server "x": HTTP connection closed after 61s (with errors)').event, {
    type: "mcp-connection-closed",
    transport: "http",
    uptimeS: 61,
    clean: false,
  });
  assert.deepEqual(ev('MCP server "x": Closing transport (stdio transport error: ZodError)').event, {
    type: "mcp-closing",
    reason: "stdio transport error: ZodError",
  });
  assert.deepEqual(ev('MCP server "spike001": Sending SIGINT to MCP server process').event, { type: "mcp-shutdown", signal: "SIGINT" });
  assert.deepEqual(ev('MCP server "n1": Terminating MCP server process tree').event, { type: "mcp-shutdown", signal: null });
  assert.deepEqual(ev('MCP server "serena" Server stderr: INFO starting', "ERROR").event, { type: "mcp-stderr", text: "INFO starting" });
});

test("tool calls and durations", () => {
  assert.deepEqual(ev("MCP server \"big\": Tool 'emit_text' completed successfully in 16ms").event, {
    type: "mcp-tool-done",
    tool: "emit_text",
    duration: "16ms",
    ms: 16,
  });
  assert.deepEqual(ev("MCP server \"big\": Tool 'emit_text' completed successfully in 1.2s").event, {
    type: "mcp-tool-done",
    tool: "emit_text",
    duration: "1.2s",
    ms: 1200,
  });
  assert.deepEqual(ev("MCP server \"a\": Tool 'lazy_accept' failed after 0s: STOP").event, {
    type: "mcp-tool-failed",
    tool: "lazy_accept",
    duration: "0s",
    ms: 0,
    error: "STOP",
  });
  assert.deepEqual(ev("MCP server \"a\": Tool 'slow' still running (30s elapsed)").event, {
    type: "mcp-tool-running",
    tool: "slow",
    duration: "30s",
    ms: 30000,
  });
  assert.equal(durationMs("2m 5s"), 125000);
  assert.equal(durationMs("soon"), null);
});

test("runtime arm, API requests, count_tokens, persisted, per-message budget, startup", () => {
  assert.deepEqual(ev("mcp runtime arm: v2 (source: growthbook)"), {
    server: null,
    event: { type: "runtime-arm", arm: "v2", source: "growthbook" },
  });
  assert.deepEqual(ev("mcp runtime arm: v1 (source: default)").event, { type: "runtime-arm", arm: "v1", source: "default" });
  assert.deepEqual(ev("MCP_SDK_GENERATION=v3 is invalid; expected 'v1' or 'v2' — ignoring", "WARN").event, {
    type: "runtime-arm-invalid",
    value: "v3",
  });
  assert.deepEqual(
    ev("[API REQUEST] /v1/messages x-client-request-id=3f1c2a9e-7b1d-4c55-9a0e-1d2b3c4d5e6f source=repl_main_thread").event,
    {
      type: "api-request",
      path: "/v1/messages",
      clientRequestId: "3f1c2a9e-7b1d-4c55-9a0e-1d2b3c4d5e6f",
      source: "repl_main_thread",
      countTokens: false,
    },
  );
  assert.deepEqual(ev("[API REQUEST] /v1/messages/count_tokens source=count_tokens").event, {
    type: "api-request",
    path: "/v1/messages/count_tokens",
    clientRequestId: null,
    source: "count_tokens",
    countTokens: true,
  });
  assert.deepEqual(ev("[API REQUEST] /v1/messages?beta=true source=sdk").event, {
    type: "api-request",
    path: "/v1/messages?beta=true",
    clientRequestId: null,
    source: "sdk",
    countTokens: false,
  });
  assert.deepEqual(ev("Persisted tool result to /Users/a/.claude/projects/-tmp-x/4f1e/tool-results/toolu_01Xf.json (51.7KB)").event, {
    type: "persisted",
    path: "/Users/a/.claude/projects/-tmp-x/4f1e/tool-results/toolu_01Xf.json",
    size: "51.7KB",
    bytes: 52941,
  });
  assert.deepEqual(ev("Per-message budget: persisted 2 tool results across 1 over-budget message(s), shed ~96.4KB, 0 re-applied").event, {
    type: "per-message-budget",
    persisted: 2,
    messages: 1,
    shed: "96.4KB",
    reapplied: 0,
  });
  assert.deepEqual(ev("[STARTUP] MCP configs resolved in 294ms (awaited at +353ms)").event, {
    type: "startup",
    what: "MCP configs resolved",
    ms: 294,
  });
  assert.deepEqual(ev("[STARTUP] Loading MCP configs...").event, { type: "startup", what: "Loading MCP configs...", ms: null });
  assert.deepEqual(ev("[MCP] --mcp-config servers running fully async (nonblocking)").event, {
    type: "mcp-nonblocking",
    what: "--mcp-config servers",
  });
  assert.deepEqual(ev('[MCP] Server "filewatch" connected with subscribe=false'), {
    server: "filewatch",
    event: { type: "mcp-subscribe", subscribe: false },
  });
  assert.deepEqual(ev("Some unknown line").event, { type: "other" });
  assert.equal(sizeBytes("4.8MB"), 5033165);
  assert.equal(sizeBytes("900 bytes"), 900);
  assert.equal(sizeBytes("big"), null);
});

test("per-server mcp-logs JSONL: server from the directory, level from the key, time from timestamp", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-"));
  const logDir = join(dir, "-Users-a-proj", "mcp-logs-serena");
  mkdirSync(logDir, { recursive: true });
  const file = join(logDir, "2026-08-11T06-19-12-814Z.jsonl");
  writeFileSync(
    file,
    [
      '{"debug":"Starting connection with timeout of 30000ms","timestamp":"2026-08-11T06:19:12.814Z","sessionId":"s1","cwd":"/Users/a/proj"}',
      '{"error":"Server stderr: INFO 2026-08-11 06:19:23,467 serena.agent - Starting","timestamp":"2026-08-11T06:19:23.470Z"}',
      '{"debug":"Successfully connected (transport: stdio) in 12495ms","timestamp":"2026-08-11T06:19:25.302Z"}',
      "",
    ].join("\n"),
  );
  const input: InputFile = { path: file, kind: "debug-log", bytes: 0, sha256: "" };
  const rs: DebugRecord[] = [];
  rs.push(...(await readDebugLog(input)));
  const es = entries(rs);
  assert.equal(es.length, 3);
  assert.deepEqual(
    es.map((e) => [e.server, e.level, e.event.type, e.time]),
    [
      ["serena", "DEBUG", "mcp-starting", "2026-08-11T06:19:12.814Z"],
      ["serena", "ERROR", "mcp-stderr", "2026-08-11T06:19:23.470Z"],
      ["serena", "DEBUG", "mcp-connected", "2026-08-11T06:19:25.302Z"],
    ],
  );
  assert.deepEqual(findRpcLogs({ cacheDirs: [dir] }), [{ server: "serena", path: file }]);
  assert.deepEqual(findRpcLogs({ cacheDirs: [dir], cwd: "/Users/a/proj" }), [{ server: "serena", path: file }]);
  assert.deepEqual(findRpcLogs({ cacheDirs: [dir], server: "other" }), []);
  assert.equal(projectKey("/Users/a/.claude"), "-Users-a--claude");
});

test("findDebugLog: <configDir>/debug/<sessionId>.txt, first dir wins", () => {
  const a = mkdtempSync(join(tmpdir(), "ccf-a-"));
  const b = mkdtempSync(join(tmpdir(), "ccf-b-"));
  mkdirSync(join(b, "debug"));
  writeFileSync(join(b, "debug", "c0ffee00-1111-4222-8333-444455556666.txt"), "[DEBUG] x\n");
  assert.equal(
    findDebugLog([a, b], "c0ffee00-1111-4222-8333-444455556666", {}),
    join(b, "debug", "c0ffee00-1111-4222-8333-444455556666.txt"),
  );
  assert.equal(findDebugLog([a], "c0ffee00-1111-4222-8333-444455556666", {}), undefined);
});

test("debug events: a count no double holds exactly is no fact (the entry stays, as `other`)", () => {
  const huge = "9".repeat(400);
  assert.equal(classifyMessage(`MCP server "lab": Successfully connected (transport: stdio) in ${huge}ms`, "DEBUG").event.type, "other");
  assert.equal(classifyMessage(`MCP server "lab": Server instructions truncated from ${huge} to 2048 chars`, "DEBUG").event.type, "other");
  assert.equal(
    classifyMessage(`MCP server "lab": Server instructions truncated from 9007199254740992 to 2048 chars`, "DEBUG").event.type,
    "other",
  );
  assert.deepEqual(classifyMessage(`MCP server "lab": Server instructions truncated from 20000 to 2048 chars`, "DEBUG").event, {
    type: "mcp-instructions-truncated",
    from: 20000,
    to: 2048,
  });
  assert.equal(sizeBytes(`${huge}KB`), null);
  assert.equal(durationMs(`${huge}s`), null);
});

test("pasted lines without their header: MCP lines without time or level are entries of unknown time; other prose stays malformed", async () => {
  const rs = await read(
    [
      "Here is what the log said:",
      'MCP server "lab": Server instructions truncated from 5000 to 2048 chars',
      'MCP server "lab": Connection error: [',
      '  { "code": "invalid_type", "path": ["jsonrpc"], "message": "Required" }',
      "]",
      '[MCP] Server "lab" connected with subscribe=false',
      '[DEBUG] MCP server "lab": Successfully connected (transport: stdio) in 97ms',
      'MCP server "shop" Connection failed: spawn npx ENOENT',
    ].join("\n") + "\n",
  );
  assert.deepEqual(
    rs.map((r) => [r.kind, r.pos.line]),
    [
      ["malformed", 1],
      ["debug", 2],
      ["debug", 3],
      ["debug", 6],
      ["debug", 7],
      ["debug", 8],
    ],
  );
  const es = entries(rs);
  assert.deepEqual(
    es.map((e) => [e.time, e.level, e.server, e.event.type]),
    [
      [null, null, "lab", "mcp-instructions-truncated"],
      [null, null, "lab", "mcp-connection-error"],
      [null, null, "lab", "mcp-subscribe"],
      [null, "DEBUG", "lab", "mcp-connected"],
      [null, null, "shop", "mcp-connection-failed"],
    ],
  );
  assert.deepEqual(es[0]!.event, { type: "mcp-instructions-truncated", from: 5000, to: 2048 });
  assert.equal(es[1]!.lines, 3, "the body stays with its entry");
  assert.equal((es[1]!.event as { error: string }).error, '[\n  { "code": "invalid_type", "path": ["jsonrpc"], "message": "Required" }\n]');
  for (const size of [1, 7, 4096]) {
    const again = await read(readFileSync(sample("logs", "debug", "pasted-headerless.debug.txt"), "utf8"), size);
    assert.deepEqual(
      again.map((r) => r.kind),
      ["debug", "debug", "debug", "debug", "debug", "debug", "debug", "debug"],
      `chunks of ${size}`,
    );
  }
});

test("failure lines that read like prose: connection errors, forced shutdowns, exits, subscribe connects, countTokens failures", () => {
  const e = (t: string, level = "DEBUG") => classifyMessage(t, level).event;
  assert.deepEqual(e('MCP server "docs": Connection error: [\n  {\n    "name": "ZodError"\n  }\n]'), {
    type: "mcp-connection-error",
    error: '[\n  {\n    "name": "ZodError"\n  }\n]',
  });
  assert.deepEqual(e('MCP server "docs": Connection reset - server may have crashed or restarted'), {
    type: "mcp-connection-error",
    error: "Connection reset - server may have crashed or restarted",
  });
  assert.deepEqual(e('MCP server "lab": SIGINT failed, sending SIGTERM to MCP server process'), {
    type: "mcp-shutdown-forced",
    failed: "SIGINT",
    signal: "SIGTERM",
  });
  assert.deepEqual(e('MCP server "lab": SIGTERM failed, sending SIGKILL to MCP server process'), {
    type: "mcp-shutdown-forced",
    failed: "SIGTERM",
    signal: "SIGKILL",
  });
  assert.deepEqual(e('MCP server "lab": Error sending SIGINT: Error: kill ESRCH'), {
    type: "mcp-shutdown-error",
    signal: "SIGINT",
    error: "Error: kill ESRCH",
  });
  assert.deepEqual(e('MCP server "notes": MCP server process exited cleanly'), { type: "mcp-process-exited", how: "cleanly" });
  assert.deepEqual(e('[MCP] Server "docs" connected with subscribe=true'), { type: "mcp-subscribe", subscribe: true });
  assert.deepEqual(e('countTokens API call failed: 404 {"type":"error"}', "ERROR"), {
    type: "count-tokens-failed",
    status: 404,
    error: '{"type":"error"}',
  });
  assert.deepEqual(e("countTokens API call failed: fetch failed", "ERROR"), {
    type: "count-tokens-failed",
    status: null,
    error: "fetch failed",
  });
});

test("the failures sample reads the same in chunks of 1, 7 and 4096, with LF and CRLF: the error body stays whole", async () => {
  const text = readFileSync(sample("logs", "debug", "failures.debug.txt"), "utf8");
  const shape = (rs: DebugRecord[]) =>
    rs.map((r) => (r.kind === "debug" ? [r.pos.line, r.event.type, r.lines, r.text] : [r.pos.line, r.kind]));
  const want = shape(await read(text));
  assert.deepEqual(want.find((x) => x[1] === "mcp-connection-error")!.slice(0, 3), [15, "mcp-connection-error", 11]);
  for (const size of [1, 7, 4096]) {
    assert.deepEqual(shape(await read(text, size)), want, `LF, chunks of ${size}`);
    assert.deepEqual(shape(await read(text.replace(/\n/g, "\r\n"), size)), want, `CRLF, chunks of ${size}`);
  }
});

test("blanks after a message, before a crash's trailing NUL run or alone, do not stop it being recognised", async () => {
  const closed = '2026-09-14T21:44:24.379Z [DEBUG] MCP server "lab": STDIO connection closed after 15s (cleanly)';
  for (const end of [" \0\0\0", " ", "\t \0"]) {
    const [e] = entries(await read(`${closed}${end}\n`));
    assert.equal(e!.text, 'MCP server "lab": STDIO connection closed after 15s (cleanly)', JSON.stringify(end));
    assert.equal(e!.server, "lab");
    assert.equal(e!.event?.type, "mcp-connection-closed", JSON.stringify(end));
  }
});

test("after a leading NUL run, a blank before the next entry's header is skipped; a continuation line keeps its indent", async () => {
  const rs = await read(
    [
      '2026-09-14T21:44:08.000Z [DEBUG] MCP server "lab": Successfully connected (transport: stdio) in 24ms',
      "\0\0\0 2026-09-14T21:44:08.257Z [DEBUG] [API REQUEST] /v1/messages x-client-request-id=21f05ac7-d0ec-4b26-b787-ab6a334e0dd1 source=sdk",
      "\0\0\0\t2026-09-14T21:44:09.000Z [ERROR] boom",
      "\0\0    at frame (x.js:1:2)",
      "",
    ].join("\n"),
  );
  const es = entries(rs);
  assert.deepEqual(
    es.map((e) => [e.pos.line, e.time, e.event?.type ?? null, e.text]),
    [
      [1, "2026-09-14T21:44:08.000Z", "mcp-connected", 'MCP server "lab": Successfully connected (transport: stdio) in 24ms'],
      [
        2,
        "2026-09-14T21:44:08.257Z",
        "api-request",
        "[API REQUEST] /v1/messages x-client-request-id=21f05ac7-d0ec-4b26-b787-ab6a334e0dd1 source=sdk",
      ],
      [3, "2026-09-14T21:44:09.000Z", "other", "boom\n    at frame (x.js:1:2)"],
    ],
  );
});
