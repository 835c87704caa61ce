/**
 * Message logs a review found read wrongly (review L: F1, F2, F3, F11): taps with two prefixes on a line,
 * Claude Desktop logs of several servers, files that are no message log, a notification before the first handshake.
 * The logs are built here, in the shapes of the review's cases.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli } from "../helpers.js";

const dir = mkdtempSync(join(tmpdir(), "ccf-rpcshapes-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const rpcOf = async (file: string): Promise<Record<string, any>> => parseEnvelope(await runCli(["rpc", file, "--json"]), "rpc").rpc;

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "claude-code", version: "2.1.285" },
};
/** Probe, -32602, fallback initialize 1.1 s later, its answer, tools/list: a legacy handshake. */
const TAP: Array<[string, "in" | "out", object]> = [
  ["2026-09-30T09:15:00.020Z", "in", { jsonrpc: "2.0", id: "server-discover-probe-1", method: "server/discover", params: { _meta: META } }],
  [
    "2026-09-30T09:15:00.025Z",
    "out",
    { jsonrpc: "2.0", id: "server-discover-probe-1", error: { code: -32602, message: "Invalid params" } },
  ],
  [
    "2026-09-30T09:15:01.125Z",
    "in",
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "claude-code", version: "2.1.285" } },
    },
  ],
  [
    "2026-09-30T09:15:01.130Z",
    "out",
    { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "x", version: "1" } } },
  ],
  ["2026-09-30T09:15:01.131Z", "in", { jsonrpc: "2.0", id: 1, method: "tools/list" }],
];
const tap = (prefix: (t: string, d: "in" | "out") => string, eol = "\n", bom = "") =>
  bom + TAP.map(([t, d, m]) => `${prefix(t, d)}${JSON.stringify(m)}${eol}`).join("");

test("F1: taps with two prefixes on a line read as the legacy handshake they hold, in every variant", async () => {
  const variants: Record<string, string> = {
    "tap.log": tap((t, d) => `[${t}] ${d === "in" ? "Input" : "Output"}: `, "\r\n", "\uFEFF"),
    "nobom-lf.log": tap((t, d) => `[${t}] ${d === "in" ? "Input" : "Output"}: `),
    "ts-arrow.log": tap((t, d) => `[${t}] ${d === "in" ? "->" : "<-"} `),
    "plain-ts.log": tap((t) => `${t} `),
    "other-word.log": tap((_t, d) => `${d === "in" ? "STDIN" : "STDOUT"}: `),
  };
  for (const [name, text] of Object.entries(variants)) {
    const r = await rpcOf(write(name, text));
    assert.equal(r.messages, 5, name);
    assert.equal(r.noise, 0, name);
    assert.equal(r.era, "legacy", name);
    assert.equal(r.firstMethod, "server/discover", name);
    assert.equal(r.probe.errorCode, -32602, name);
    // Where the line gives the time, the 1.1 s between probe and initialize is read from it.
    assert.equal(r.initialize.msAfterProbe, name === "other-word.log" ? null : 1105, name);
    assert.deepEqual(r.sources, { prefixed: 5 }, name);
    assert.deepEqual(r.warnings, [], name);
  }
});

test("F1: report --rpc-log reads a two-prefix tap as well", async () => {
  const file = write(
    "ts-arrow-report.log",
    tap((t, d) => `[${t}] ${d === "in" ? "->" : "<-"} `),
  );
  const j = parseEnvelope(
    await runCli(["report", "--stream-json", "samples/demo/claude-p.stream.jsonl", "--rpc-log", file, "--json"]),
    "report",
  );
  assert.equal(j.rpc.messages, 5);
  assert.equal(j.rpc.era, "legacy");
});

// ---- F2: Claude Desktop mcp.log with several servers ----

const desktop = (ms: number, server: string, from: "client" | "server", m: object) =>
  `${new Date(Date.UTC(2026, 8, 30, 10, 3, 41) + ms).toISOString()} [${server}] [info] Message from ${from}: ${JSON.stringify(m)} { metadata: undefined }\n`;
const init = (version: string) => ({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "claude-ai", version: "0.1.0" } },
});
const initAnswer = (version: string, name: string, instructions?: string) => ({
  jsonrpc: "2.0",
  id: 0,
  result: {
    protocolVersion: version,
    capabilities: { tools: {} },
    serverInfo: { name, version: "1" },
    ...(instructions ? { instructions } : {}),
  },
});
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const toolsList = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };

test("F2: two Desktop servers starting together are two sessions, each with its own handshake and instructions", async () => {
  const file = write(
    "interleaved-mcp.log",
    [
      desktop(134, "alpha", "client", init("2025-06-18")),
      desktop(135, "beta", "client", init("2025-06-18")),
      desktop(139, "alpha", "server", initAnswer("2025-06-18", "alpha", "ALPHA instructions text")),
      desktop(140, "beta", "server", initAnswer("2025-06-18", "beta")),
      desktop(141, "alpha", "client", initialized),
      desktop(142, "beta", "client", initialized),
      desktop(143, "alpha", "client", toolsList),
      desktop(144, "beta", "client", toolsList),
    ].join(""),
  );
  const r = await rpcOf(file);
  assert.deepEqual(
    r.handshakes.map((h: any) => [h.index, h.server, h.probeConnection, h.messages, h.initialize.answered]),
    [
      [1, "alpha", false, 4, "result"],
      [2, "beta", false, 4, "result"],
    ],
  );
  assert.equal(r.probeConnectionCount, 0);
  // Alpha's answer carried the instructions: its handshake, not beta's.
  assert.deepEqual(
    r.instructions.map((c: any) => [c.handshake, c.line, c.chars, c.server]),
    [[1, 3, 23, "alpha"]],
  );
  assert.equal(r.handshake, 1);
  assert.equal(r.server, "alpha");
  assert.deepEqual(
    r.servers.map((s: any) => [s.name, s.messages, s.handshakes, s.handshake, s.era, s.probeConnections, s.instructionLines]),
    [
      ["alpha", 4, [1], 1, "legacy", [], [3]],
      ["beta", 4, [2], 2, "legacy", [], []],
    ],
  );
  assert.deepEqual(r.warnings, []);
  // The table says which server each connection is of, and the summary which server it describes.
  const t = await runCli(["rpc", file, "--wide"]);
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /summary describes: alpha \(handshake 1\)/);
  assert.match(t.stdout, /│ 1 │ alpha +│ session \(summary\)/);
  assert.match(t.stdout, /│ 2 │ beta +│ session +│/);
  assert.doesNotMatch(t.stdout, /probe only/);
});

test("F2: a second Desktop server's lone handshake is neither a probe connection of the first nor a mixed handshake", async () => {
  const file = write(
    "desktop-two-servers.log",
    [
      "2026-09-30T10:03:41.101Z [my lab] [info] Initializing server... { metadata: undefined }\n",
      desktop(134, "my lab", "client", init("2025-06-18")),
      desktop(139, "my lab", "server", initAnswer("2025-06-18", "lab", "hello")),
      desktop(140, "my lab", "client", initialized),
      desktop(141, "my lab", "server", { jsonrpc: "2.0", id: 0, method: "roots/list" }),
      desktop(142, "my lab", "client", { jsonrpc: "2.0", id: 0, result: { roots: [] } }),
      desktop(143, "my lab", "client", toolsList),
      "2026-09-30T10:03:41.150Z [my lab] [error] some stderr noise: Traceback\n",
      desktop(151, "other", "client", init("2024-11-05")),
    ].join(""),
  );
  const r = await rpcOf(file);
  assert.deepEqual(
    r.handshakes.map((h: any) => [h.index, h.server, h.probeConnection, h.protocolVersion]),
    [
      [1, "my lab", false, "2025-06-18"],
      [2, "other", false, "2024-11-05"],
    ],
  );
  assert.equal(r.mixedHandshakes, null);
  assert.equal(r.probeConnectionCount, 0);
  assert.deepEqual(r.warnings, []);
  assert.deepEqual(
    r.servers.map((s: any) => [s.name, s.handshakes, s.mixedHandshakes]),
    [
      ["my lab", [1], null],
      ["other", [2], null],
    ],
  );
});

test("F2: within one Desktop server, probe connections and mixed handshakes are still found, and named by server", async () => {
  const file = write(
    "desktop-mixed-in-one.log",
    [
      desktop(0, "alpha", "client", init("2025-06-18")),
      desktop(2, "alpha", "server", initAnswer("2025-06-18", "alpha")),
      desktop(3, "alpha", "client", initialized),
      desktop(10, "beta", "client", init("2025-06-18")),
      desktop(12, "beta", "server", initAnswer("2025-06-18", "beta")),
      desktop(13, "beta", "client", toolsList),
      desktop(100, "alpha", "client", init("2024-11-05")),
      desktop(102, "alpha", "server", initAnswer("2024-11-05", "alpha")),
      desktop(103, "alpha", "client", toolsList),
    ].join(""),
  );
  const r = await rpcOf(file);
  assert.deepEqual(
    r.handshakes.map((h: any) => [h.index, h.server, h.probeConnection]),
    [
      [1, "alpha", true],
      [2, "beta", false],
      [3, "alpha", false],
    ],
  );
  assert.deepEqual(
    r.servers.map((s: any) => [s.name, s.handshakes, s.handshake, s.probeConnections, s.mixedHandshakes?.protocolVersions ?? null]),
    [
      ["alpha", [1, 3], 3, [1], ["2025-06-18", "2024-11-05"]],
      ["beta", [2], 2, [], null],
    ],
  );
  // The summary describes beta's session (the first that did work); alpha's mix is alpha's.
  assert.equal(r.server, "beta");
  assert.equal(r.mixedHandshakes, null);
  assert.equal(r.warnings.length, 2);
  assert.match(
    r.warnings[0],
    /^server alpha: 1 probe connection that only shook hands \(handshake 1: initialize, notifications\/initialized\)/,
  );
  assert.match(r.warnings[1], /^server alpha: mixed handshakes: .*protocol versions 2025-06-18, 2024-11-05/);
});

// ---- F3: a file that is no message log ----

const STREAM = [
  { type: "system", subtype: "init", session_id: "5e1f7a3c-2b9d-4e60-8c14-9a7d3f0b6e21", tools: ["Bash"], mcp_servers: [] },
  { type: "assistant", message: { id: "msg_1", role: "assistant", content: [{ type: "text", text: "hi" }] }, session_id: "5e1f" },
  { type: "result", subtype: "success", is_error: false, num_turns: 1, result: "hi", total_cost_usd: 0.01, session_id: "5e1f" },
]
  .map((x) => `${JSON.stringify(x)}\n`)
  .join("");
const TRANSCRIPT = [
  { type: "file-history-snapshot", messageId: "m1", snapshot: { messageId: "m1", trackedFileBackups: {} }, isSnapshotUpdate: false },
  { parentUuid: null, isSidechain: false, type: "user", message: { role: "user", content: "hello" }, uuid: "u1", sessionId: "s1" },
  { parentUuid: "u1", isSidechain: false, type: "assistant", message: { role: "assistant", content: [] }, uuid: "a1", sessionId: "s1" },
]
  .map((x) => `${JSON.stringify(x)}\n`)
  .join("");

test("F3: rpc on claude -p output or a transcript warns on stderr that no message was recognised, naming what it looks like", async () => {
  const cases: Array<[string, string, RegExp]> = [
    ["stream.jsonl", STREAM, /looks like claude -p output \(--output-format stream-json\/json\)/],
    ["transcript.jsonl", TRANSCRIPT, /looks like a session transcript/],
    ["chatter.log", "server starting\nlistening on stdio\n", /no JSON-RPC message recognised in 2 lines/],
  ];
  for (const [name, text, kind] of cases) {
    const file = write(name, text);
    const lines = text.trimEnd().split("\n").length;
    const res = await runCli(["rpc", file, "--json"]);
    const r = parseEnvelope(res, "rpc").rpc;
    assert.equal(r.messages, 0, name);
    assert.match(res.stderr, new RegExp(`no JSON-RPC message recognised in ${lines} lines`), name);
    assert.match(res.stderr, kind, name);
    assert.equal(r.warnings.length, 1, name);
    assert.match(r.warnings[0], kind, name);
  }
  // The table form shows it in the findings too, and says it on stderr.
  const t = await runCli(["rpc", write("stream2.jsonl", STREAM)]);
  assert.equal(t.code, 0);
  assert.match(t.stdout, /Findings[\s\S]*no JSON-RPC message recognised in 3 lines/);
  assert.match(t.stderr, /no JSON-RPC message recognised in 3 lines/);
});

test("F3: report --rpc-log with claude -p output says so on stderr and in the MCP message log section", async () => {
  const file = write("stream-as-rpc.jsonl", STREAM);
  const res = await runCli(["report", "--stream-json", "samples/demo/claude-p.stream.jsonl", "--rpc-log", file]);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stderr, /stream-as-rpc\.jsonl: no JSON-RPC message recognised in 3 lines.*claude -p output/);
  const section = res.stdout.slice(res.stdout.indexOf("MCP message log"));
  assert.match(section, /no JSON-RPC message recognised in 3 lines/);
});

test("F3: a real message log, an empty one and Claude Code's own per-server log get no such warning", async () => {
  for (const [name, text] of [
    ["ok.jsonl", tap(() => "")],
    ["empty.jsonl", ""],
    ["client-log.jsonl", '{"debug":"Successfully connected to stdio server in 120ms","timestamp":"2026-09-30T10:00:00.000Z"}\n'],
  ]) {
    const res = await runCli(["rpc", write(name!, text!), "--json"]);
    assert.doesNotMatch(res.stderr, /no JSON-RPC message/, name);
    assert.deepEqual(parseEnvelope(res, "rpc").rpc.warnings, [], name);
  }
});

// ---- F11: a notification before the first handshake ----

test("F11: a client notification before the first probe is no handshake of its own", async () => {
  const lines = [
    { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "previous run" } },
    { jsonrpc: "2.0", id: "server-discover-probe-1", method: "server/discover", params: { _meta: META } },
    {
      jsonrpc: "2.0",
      id: "server-discover-probe-1",
      result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} } },
    },
    { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } },
    { jsonrpc: "2.0", id: 1, result: { tools: [] } },
  ];
  const r = await rpcOf(write("leading-notif.jsonl", lines.map((l) => `${JSON.stringify(l)}\n`).join("")));
  assert.equal(r.handshakes.length, 1);
  assert.equal(r.handshake, 1);
  assert.equal(r.era, "modern");
  assert.equal(r.firstMethod, "server/discover");
  // The notification is counted with the connection it came before, not dropped.
  assert.equal(r.handshakes[0].messages, 5);
  assert.equal(r.handshakes[0].firstMethod, "server/discover");
  assert.equal(r.messages, 5);
});

test("F11: a log of notifications and no handshake is still one connection, as before", async () => {
  const r = await rpcOf(write("only-notifs.jsonl", `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled" })}\n`));
  assert.equal(r.handshakes.length, 1);
  assert.equal(r.handshakes[0].firstMethod, "notifications/cancelled");
  assert.equal(r.firstMethod, "notifications/cancelled");
});
