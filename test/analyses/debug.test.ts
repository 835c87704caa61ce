import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { readFileSync } from "node:fs";
import { debugAnalysis, debugAnalysisWith, EVENT_MEMORY_CHARS, type DebugResult } from "../../src/analyses/debug.js";
import { MAX_ENTRY_CHARS } from "../../src/records/debug.js";
import { joinCountTokens } from "../../src/analyses/debug-count-tokens.js";
import { debugFlags } from "../../src/analyses/debug-flags.js";
import { readDebugLog } from "../read.js";
import { sample } from "../helpers.js";

async function analyse(...p: string[]): Promise<DebugResult> {
  const s = debugAnalysis.init();
  for (const r of await readDebugLog({ path: sample("logs", ...p), kind: "debug-log", bytes: 0, sha256: "" })) debugAnalysis.step(s, r);
  return debugAnalysis.finish(s);
}

test("legacy era with truncated instructions; v2 runtime arm from growthbook is flagged", async () => {
  const r = await analyse("debug", "legacy-truncated.debug.txt");
  assert.equal(r.entries, 14);
  assert.equal(r.runtimeArm, "v2");
  assert.equal(r.runtimeArmSource, "growthbook");
  assert.equal(r.countTokensCalls, 0);
  assert.equal(r.apiRequests, 2);
  assert.deepEqual(r.apiRequestSources, { sdk: 1, generate_session_title: 1 });
  assert.equal(r.servers.length, 1);
  const lab = r.servers[0]!;
  assert.deepEqual(
    {
      name: lab.name,
      connectMs: lab.connectMs,
      transport: lab.transport,
      protocolEra: lab.protocolEra,
      negotiatedProtocolVersion: lab.negotiatedProtocolVersion,
      from: lab.instructionsTruncatedFrom,
      to: lab.instructionsTruncatedTo,
    },
    {
      name: "lab",
      connectMs: 284,
      transport: "stdio",
      protocolEra: "legacy",
      negotiatedProtocolVersion: "2025-11-25",
      from: 20000,
      to: 2048,
    },
  );
  assert.deepEqual(lab.serverVersion, { name: "lab", version: "0.0.1" });
  assert.equal(lab.status, "closed");
  assert.equal(lab.lateByMs, null);
  assert.equal(lab.closed, "STDIO connection closed after 6s (cleanly)");
  assert.equal(r.flags.length, 2);
  // What the log shows: the arm, its source, the variable the docs tie stdio probing to; no probe claimed.
  assert.match(r.flags[0]!, /^mcp runtime arm v2 \(source: growthbook: a feature flag, not MCP_SDK_GENERATION\)/);
  assert.match(r.flags[0]!, /stdio servers only with MCP_PROTOCOL_NEGOTIATION=auto, which a debug log does not record/);
  assert.match(r.flags[0]!, /stdio server "lab": connected legacy, the log shows no probe either way/);
  assert.doesNotMatch(
    r.flags[0]!,
    /MCP_SDK_GENERATION was not set|probes servers with server\/discover before initialize|was probed|so probed/,
  );
  assert.match(r.flags[1]!, /instructions truncated from 20,000 to 2,048/);
  assert.equal(r.events.toArray()[0]!.kind, "startup");
  assert.equal(r.events.toArray()[13]!.offsetMs, 6761);
});

test("modern era: protocolEra modern, negotiated 2026-07-28", async () => {
  const r = await analyse("debug", "modern.debug.txt");
  assert.deepEqual(
    [r.servers[0]!.protocolEra, r.servers[0]!.negotiatedProtocolVersion, r.servers[0]!.connectMs],
    ["modern", "2026-07-28", 212],
  );
  assert.equal(r.servers[0]!.instructionsTruncatedFrom, null);
  // A stdio server in the modern era answered server/discover: that is the evidence of a probe.
  assert.match(r.flags[0]!, /stdio server "lab": connected in the modern era, so probed with server\/discover$/);
});

test("runtime arm finding: only with a stdio server in the log, and a probe only where the era shows one", () => {
  const server = (name: string, transport: string | null, protocolEra: string | null) => ({
    name,
    status: "connected",
    transport,
    protocolEra,
    lateByMs: null,
    connectMs: 10,
    lastError: null,
    forcedShutdown: null,
    closed: null,
    instructionsTruncatedFrom: null,
    instructionsTruncatedTo: null,
  });
  const flags = (arm: string, source: string, servers: ReturnType<typeof server>[]) =>
    debugFlags({ runtimeArm: arm, runtimeArmSource: source, servers, countTokens: [], countTokensFailures: 0, events: [] });
  // HTTP only: v2 probing it is what the docs say, nothing to flag.
  assert.deepEqual(flags("v2", "growthbook", [server("docs", "http", "legacy")]), []);
  assert.deepEqual(flags("v1", "default", [server("lab", "stdio", "legacy")]), []);
  const [f] = flags("v2", "env", [server("a", "stdio", "modern"), server("b", "stdio", null), server("c", "stdio", "legacy")]);
  assert.match(f!, /^mcp runtime arm v2 \(source: env: an environment variable, MCP_SDK_GENERATION\)/);
  assert.match(f!, /stdio server "a": connected in the modern era, so probed with server\/discover/);
  // An era the log does not give is not called legacy.
  assert.match(f!, /stdio servers "b", "c": the log shows no probe either way/);
});

test("late server: connected 7,514 ms after request 1 went out", async () => {
  const r = await analyse("debug", "late-server.debug.txt");
  const lab = r.servers[0]!;
  assert.equal(lab.connectMs, 8312);
  assert.equal(lab.lateByMs, 8323 - 809);
  assert.ok(r.flags.some((f) => f.startsWith('server "lab" connected 7,514 ms after the first API request')));
});

test("large output: count_tokens after the tool call, then the persisted file", async () => {
  const r = await analyse("debug", "large-output.debug.txt");
  assert.equal(r.countTokensCalls, 1);
  assert.deepEqual(
    r.persisted.map((p) => [p.size, p.bytes, p.line]),
    [["51.7KB", 52941, 9]],
  );
  assert.match(r.persisted[0]!.path, /tool-results\/toolu_01Xf7Kq2mP9sR4tV6wY8zA3b\.json$/);
  const big = r.servers[0]!;
  assert.deepEqual([big.toolCalls, big.toolsDone, big.toolMs], [1, 1, 41]);
  const kinds = r.events.toArray().map((e) => e.kind);
  assert.ok(kinds.indexOf("mcp-tool-done") < kinds.lastIndexOf("api-request"));
  assert.equal(r.events.toArray().find((e) => e.kind === "api-request" && e.text.includes("count_tokens"))!.line, 8);
});

test("pasted log: no times, multi-line capabilities, an error without colon, a failed server, budget line", async () => {
  const r = await analyse("debug", "pasted-crlf.debug.txt");
  assert.equal(r.entries, 11);
  assert.equal(r.firstTime, null);
  assert.deepEqual([r.runtimeArm, r.runtimeArmSource], ["v1", "default"]);
  const [filewatch, github] = r.servers;
  assert.deepEqual(
    [filewatch!.name, filewatch!.status, filewatch!.connectMs, filewatch!.transport],
    ["filewatch", "connected", 24, "stdio"],
  );
  assert.deepEqual(filewatch!.serverVersion, { name: "filewatch", version: "0.0.1" });
  assert.deepEqual([github!.name, github!.status, github!.errors], ["github", "failed", 2]);
  assert.deepEqual(
    r.perMessageBudget.map((b) => [b.persisted, b.messages, b.shed, b.reapplied]),
    [[2, 1, "96.4KB", 0]],
  );
  assert.deepEqual(r.levels, { DEBUG: 7, ERROR: 3, WARN: 1 });
  assert.ok(!r.flags.some((f) => f.includes("runtime arm")), "v1 is not flagged");
  const stringified = r.events.toArray().find((e) => e.text.startsWith("Failed to refresh marketplace"));
  assert.equal(
    stringified!.text,
    "Failed to refresh marketplace claude-plugins-official: fetch failed\n    at node:internal/deps/undici/undici:13502:13",
  );
});

test("failures: an errored server keeps its whole error, a killed one ends killed, errors counted, nothing hidden", async () => {
  const r = await analyse("debug", "failures.debug.txt");
  const by = Object.fromEntries(r.servers.map((s) => [s.name, s]));
  const docs = by.docs!;
  assert.deepEqual([docs.status, docs.errors, docs.closed], ["errored", 1, "HTTP connection dropped after 2s uptime"]);
  assert.ok(docs.lastError!.startsWith("Connection error: [\n  {\n"), docs.lastError!);
  assert.ok(docs.lastError!.endsWith("\n]") && docs.lastError!.includes('"name": "ZodError"'), "the multi-line body stays with the error");
  const lab = by.lab!;
  assert.deepEqual(
    [lab.status, lab.forcedShutdown, lab.errors],
    ["killed", "SIGINT → SIGTERM → SIGKILL", 1],
    "a clean close after SIGKILL does not make it connected again",
  );
  assert.equal(lab.lastError, "SIGTERM failed, sending SIGKILL to MCP server process");
  assert.deepEqual(
    [by.notes!.status, by.notes!.closed, by.notes!.errors],
    ["closed", "MCP server process exited cleanly", 0],
    "shut down cleanly: not connected, no failure",
  );
  assert.equal(r.errors, 3, "docs' connection error, lab's forced stop (once), the failed countTokens call");
  assert.equal(r.countTokensFailures, 1);
  const kinds = r.events.toArray().map((e) => e.kind);
  for (const k of ["mcp-connection-error", "mcp-shutdown-forced", "mcp-process-exited", "mcp-subscribe", "count-tokens-failed"])
    assert.ok(kinds.includes(k), k);
  assert.equal(kinds.filter((k) => k === "other").length, 1, "only `Cleared connection cache` is unrecognised");
  assert.ok(r.flags.some((f) => f.startsWith('server "docs" had a connection error') && f.includes("invalid_union")));
  assert.ok(r.flags.includes('server "lab" did not stop when asked and was killed (SIGINT → SIGTERM → SIGKILL)'));
  assert.ok(r.flags.some((f) => /^1 countTokens API call\(s\) failed \(first at line 13: 404 /.test(f)));
});

test("count_tokens: each call with what came just before it; the finding says what was observed, not why", async () => {
  const r = await analyse("debug", "failures.debug.txt");
  assert.deepEqual(
    r.countTokens.map((c) => [c.line, c.before?.line, c.before?.kind, c.before?.what, c.failed !== null]),
    [
      [12, 11, "api-request", "API request /v1/messages (sdk)", true],
      [28, 27, "mcp-tool-done", "MCP tool lookup_part completed (29ms)", false],
    ],
  );
  const f = r.flags.find((x) => x.includes("count_tokens request"))!;
  assert.equal(
    f,
    "2 /v1/messages/count_tokens request(s): after API request /v1/messages (sdk) ×1, after MCP tool lookup_part completed ×1",
  );
  assert.ok(!r.flags.some((x) => /long enough|token check/.test(x)), "no cause is claimed");
  const big = await analyse("debug", "large-output.debug.txt");
  assert.equal(big.countTokens[0]!.before!.what, "MCP tool emit_text completed (41ms)");
});

test("a paste of only headerless lines is a debug log: the truncation and the connect count", async () => {
  const r = await analyse("debug", "pasted-headerless.debug.txt");
  assert.equal(r.entries, 8);
  assert.deepEqual(r.levels, { DEBUG: 1 });
  assert.deepEqual([r.runtimeArm, r.apiRequests], ["v1", 1]);
  const [lab, shop] = r.servers;
  assert.deepEqual(
    [lab!.status, lab!.connectMs, lab!.instructionsTruncatedFrom, lab!.instructionsTruncatedTo, lab!.protocolEra],
    ["connected", 97, 5000, 2048, "legacy"],
  );
  assert.deepEqual([shop!.status, shop!.errors], ["failed", 1]);
  assert.ok(r.events.toArray().every((e) => e.time === null && e.offsetMs === null));
  assert.ok(r.flags.some((f) => f.startsWith('server "lab" instructions truncated from 5,000 to 2,048')));
});

test("count_tokens joined to the transcript: a Read result in flight is named with its size; the finding follows", async () => {
  const read = await analyse("debug", "failures.debug.txt");
  const r = joinCountTokens(read, [
    { toolUseId: "toolu_read", tool: "Read", resultChars: 91_204, file: "s.jsonl", line: 40, countTokensLines: [28] },
    { toolUseId: "toolu_other", tool: "Bash", resultChars: 12, file: "s.jsonl", line: 44, countTokensLines: [] },
  ]);
  assert.deepEqual(
    r.countTokens.map((c) => c.toolResult?.tool ?? null),
    [null, "Read"],
  );
  assert.equal(read.countTokens[1]!.toolResult, null, "the debug result as read is left alone");
  assert.equal(r.countTokens[1]!.toolResult!.chars, 91_204);
  assert.ok(
    r.flags.includes(
      "2 /v1/messages/count_tokens request(s): after API request /v1/messages (sdk) ×1, during a Read result (91,204 chars) ×1",
    ),
    r.flags.join("\n"),
  );
});

async function analyseText(text: string): Promise<DebugResult> {
  const s = debugAnalysis.init();
  const input = { path: "-", kind: "debug-log" as const, bytes: 0, sha256: "" };
  for (const r of await readDebugLog(input, { stdin: Readable.from([Buffer.from(text)]) })) debugAnalysis.step(s, r);
  return debugAnalysis.finish(s);
}

test("server states follow the log to its end: an error before any connect, a reconnect after an error", async () => {
  const t = (ms: number, msg: string) => `2026-10-02T09:41:${String(10 + ms).padStart(2, "0")}.000Z [DEBUG] ${msg}`;
  const r = await analyseText(
    [
      t(0, 'MCP server "a": Connection error: spawn ENOENT'),
      t(1, 'MCP server "b": Successfully connected (transport: stdio) in 20ms'),
      t(2, 'MCP server "b": Connection reset - server may have crashed or restarted'),
      t(3, 'MCP server "b": Successfully connected (transport: stdio) in 25ms'),
      t(4, 'MCP server "c": Successfully connected (transport: stdio) in 30ms'),
      t(5, 'MCP server "c": SIGINT failed, sending SIGTERM to MCP server process'),
      t(6, 'MCP server "c": STDIO connection closed after 1s (cleanly)'),
      t(7, 'MCP server "d": SIGINT failed, sending SIGTERM to MCP server process'),
      t(8, 'MCP server "d": Successfully connected (transport: stdio) in 40ms'),
    ].join("\n") + "\n",
  );
  const [a, b, c, d] = r.servers;
  assert.deepEqual([d!.status, d!.forcedShutdown, d!.errors], ["connected", null, 1], "reconnected after a forced stop");
  assert.deepEqual([a!.status, a!.errors, a!.lastError], ["errored", 1, "Connection error: spawn ENOENT"]);
  assert.ok(r.flags.includes('server "a" had a connection error and did not reconnect in this log: Connection error: spawn ENOENT'));
  assert.deepEqual(
    [b!.status, b!.errors, b!.lastError],
    ["connected", 1, "Connection reset - server may have crashed or restarted"],
    "reconnected: connected, the error still counted and shown",
  );
  assert.deepEqual([c!.status, c!.forcedShutdown, c!.errors], ["killed", "SIGINT → SIGTERM", 1]);
  assert.equal(r.errors, 4);
});

test("a connect is not the end: a later failure, timeout, 401, drop or exit leaves the server not connected; a reconnect heals it", async () => {
  const t = (s: number, level: string, msg: string) => `2026-09-30T08:30:${String(10 + s).padStart(2, "0")}.000Z [${level}] ${msg}`;
  const up = (name: string, s = 0) => t(s, "DEBUG", `MCP server "${name}": Successfully connected (transport: stdio) in 212ms`);
  const r = await analyseText(
    [
      ...["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"].map((n) => up(n)),
      t(1, "DEBUG", 'MCP server "a": Connection timeout triggered after 30000ms (limit: 30000ms)'),
      t(2, "ERROR", 'MCP server "b" Connection failed after 73ms (CONNECTION_CLOSED)'),
      t(3, "DEBUG", 'MCP server "c": STDIO connection dropped after 300s uptime'),
      t(4, "ERROR", 'MCP server "d" Error: Streamable HTTP error: Error POSTing to endpoint (HTTP 401)'),
      t(5, "DEBUG", 'MCP server "e": MCP server process exited with code 1'),
      // Not the end of a connection: a failed tool call, a failed resources/list, another HTTP error.
      t(6, "DEBUG", "MCP server \"f\": Tool 'lookup' failed after 2s: boom"),
      t(7, "ERROR", 'MCP server "g" Error: Failed to fetch resources: MCP error -32601: Method not found'),
      t(8, "ERROR", 'MCP server "h" Error: Streamable HTTP error: Error POSTing to endpoint (HTTP 500)'),
      // A tool whose upstream API said 401: a failed call on a stdio server, not the transport refusing it.
      t(8, "ERROR", 'MCP server "k" Error: Tool call failed: upstream returned 401 Unauthorized'),
      // Shut down as asked: closed, not a failure.
      t(9, "DEBUG", 'MCP server "i": Sending SIGINT to MCP server process'),
      t(10, "DEBUG", 'MCP server "i": MCP server process exited with code 130'),
      t(11, "DEBUG", 'MCP server "i": STDIO connection closed after 10s (cleanly)'),
      // Failed, then connected again.
      t(12, "ERROR", 'MCP server "j" Connection failed after 73ms (CONNECTION_CLOSED)'),
      up("j", 13),
    ].join("\n") + "\n",
  );
  const st = Object.fromEntries(r.servers.map((s) => [s.name, s.status]));
  assert.deepEqual(st, {
    a: "timeout",
    b: "failed",
    c: "errored",
    d: "needs-auth",
    e: "errored",
    f: "connected",
    g: "connected",
    h: "connected",
    i: "closed",
    j: "connected",
    k: "connected",
  });
  assert.ok(r.flags.some((f) => f.startsWith('server "d" was refused with HTTP 401 after connecting')));
  assert.ok(
    r.flags.includes(
      'server "c" had a connection error after connecting and did not reconnect in this log: STDIO connection dropped after 300s uptime',
    ),
  );
  assert.ok(!r.flags.some((f) => /server "[fghijk]"/.test(f)), r.flags.join("\n"));
});

test("a Connection failed line of the transport's own 401 is needs-auth; the failure right after a timeout line stays timeout", async () => {
  const t = (s: number, level: string, msg: string) => `2026-10-02T09:41:${String(10 + s).padStart(2, "0")}.000Z [${level}] ${msg}`;
  const r = await analyseText(
    [
      t(0, "ERROR", 'MCP server "gh" Connection failed: Streamable HTTP error: Error POSTing to endpoint (HTTP 401): unauthorized'),
      t(1, "DEBUG", 'MCP server "sse": SSE connection failed: SSE error: Non-200 status code (401)'),
      t(2, "DEBUG", 'MCP server "c": Starting connection with timeout of 30000ms'),
      t(3, "DEBUG", 'MCP server "c": Connection timeout triggered after 30000ms (limit: 30000ms)'),
      // Another server's line between them does not separate c's timeout from its failure.
      t(3, "DEBUG", 'MCP server "gh": Starting connection with timeout of 30000ms'),
      t(4, "ERROR", 'MCP server "c" Connection failed after 30001ms: Connection to MCP server "c" timed out after 30000ms'),
      // A timeout, then a new attempt that fails otherwise: that attempt failed.
      t(5, "DEBUG", 'MCP server "r": Connection timeout triggered after 30000ms (limit: 30000ms)'),
      t(6, "DEBUG", 'MCP server "r": Starting connection with timeout of 30000ms'),
      t(7, "ERROR", 'MCP server "r" Connection failed after 73ms (CONNECTION_CLOSED)'),
      // A 401 an upstream API gave, named in a failure that is no transport error: failed.
      t(8, "ERROR", 'MCP server "u" Connection failed: upstream returned 401 Unauthorized'),
    ].join("\n") + "\n",
  );
  const st = Object.fromEntries(r.servers.map((s) => [s.name, [s.status, s.errors]]));
  assert.deepEqual(st, { c: ["timeout", 2], gh: ["needs-auth", 1], r: ["failed", 2], sse: ["needs-auth", 1], u: ["failed", 1] });
  assert.ok(
    r.flags.some((f) => f.startsWith('server "gh" was refused with HTTP 401 (needs authentication)')),
    r.flags.join("\n"),
  );
  assert.ok(
    r.flags.includes('server "c" timed out: Connection failed after 30001ms: Connection to MCP server "c" timed out after 30000ms'),
  );
});

test("probe dbg.txt: a connection failure after a connect is the end of lab's connection", async () => {
  const r = await analyseText(
    [
      '2026-09-30T08:30:12.200Z [DEBUG] MCP server "lab": Successfully connected (transport: stdio) in 212ms',
      '2026-09-30T08:30:14.000Z [DEBUG] MCP server "lab": Calling MCP tool: emit_text',
      "2026-09-30T08:30:15.000Z [DEBUG] MCP server \"lab\": Tool 'emit_text' completed successfully in 1s",
      '2026-09-30T08:30:16.000Z [ERROR] MCP server "lab" Connection failed after 73ms (CONNECTION_CLOSED)',
    ].join("\n") + "\n",
  );
  assert.deepEqual([r.servers[0]!.status, r.servers[0]!.connectMs], ["failed", 212]);
});

async function analyseWith(opts: Parameters<typeof debugAnalysisWith>[0], text: string) {
  const a = debugAnalysisWith(opts);
  const s = a.init();
  const input = { path: "-", kind: "debug-log" as const, bytes: 0, sha256: "" };
  for (const r of await readDebugLog(input, { stdin: Readable.from([Buffer.from(text)]) })) a.step(s, r);
  return { r: a.finish(s), spilled: s.events.spilled };
}

test("events past the spool's rows go to a temp file: the same events, and the first failed countTokens call is still quoted", async () => {
  const text = readFileSync(sample("logs", "debug", "failures.debug.txt"), "utf8");
  const kept = await analyseWith({}, text);
  const spilled = await analyseWith({ memoryRows: 1 }, text);
  assert.deepEqual([kept.spilled, spilled.spilled], [false, true]);
  assert.ok(kept.r.countTokensFailures > 0);
  assert.equal(spilled.r.events.length, kept.r.events.length);
  assert.deepEqual(spilled.r.events.toArray(), kept.r.events.toArray());
  assert.deepEqual(spilled.r.flags, kept.r.flags);
  assert.ok(
    spilled.r.flags.some((f) => /countTokens API call\(s\) failed \(first at line \d+: /.test(f)),
    spilled.r.flags.join("\n"),
  );
});

test("events of a megabyte each spill past EVENT_MEMORY_CHARS of text, however few rows", async () => {
  const big = "x".repeat(MAX_ENTRY_CHARS - 100);
  const n = Math.ceil(EVENT_MEMORY_CHARS / big.length) + 2;
  const lines = Array.from({ length: n }, (_, i) => `2026-10-02T09:41:${String(10 + i).padStart(2, "0")}.000Z [DEBUG] ${i} ${big}`);
  const { r, spilled } = await analyseWith({}, lines.join("\n") + "\n");
  assert.ok(spilled);
  assert.equal(r.events.length, n);
  assert.deepEqual(
    r.events.toArray().map((e) => [e.line, e.text.length, e.text.startsWith(`${e.line - 1} x`)]),
    lines.map((l, i) => [i + 1, l.length - "2026-10-02T09:41:10.000Z [DEBUG] ".length, true]),
  );
});
