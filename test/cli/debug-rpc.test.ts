import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { golden, parseEnvelope, runCli, sample } from "../helpers.js";

const DEBUG = "samples/logs/debug/legacy-truncated.debug.txt";
const RPC = "samples/logs/rpc/legacy-fallback.lab.jsonl";
const ext = (f: string) => (f === "markdown" ? "md" : f === "table" ? "txt" : f);

test("debug --json: the contract's fields", async () => {
  const j = parseEnvelope(await runCli(["debug", DEBUG, "--json"]), "debug");
  const d = j.debug;
  assert.deepEqual(Object.keys(d).slice(0, 7), [
    "entries",
    "runtimeArm",
    "runtimeArmSource",
    "countTokensCalls",
    "servers",
    "persisted",
    "events",
  ]);
  assert.equal(d.entries, 14);
  assert.equal(d.runtimeArm, "v2");
  assert.equal(d.runtimeArmSource, "growthbook");
  assert.equal(d.countTokensCalls, 0);
  const s = d.servers[0];
  for (const k of [
    "name",
    "connectMs",
    "transport",
    "protocolEra",
    "negotiatedProtocolVersion",
    "instructionsTruncatedFrom",
    "instructionsTruncatedTo",
  ])
    assert.ok(k in s, k);
  assert.deepEqual([s.instructionsTruncatedFrom, s.instructionsTruncatedTo], [20000, 2048]);
  assert.deepEqual(Object.keys(d.events[0]).slice(0, 5), ["time", "level", "kind", "server", "text"]);
  assert.equal(d.events.length, 14);
  assert.deepEqual(j.inputs, [{ path: DEBUG, kind: "debug-log", bytes: readFileSync(DEBUG).length, sha256: j.inputs[0].sha256 }]);
  assert.equal(j.health.lines, 14);
});

test("debug: persisted results and count_tokens; --stream-json adds the init statuses", async () => {
  const j = parseEnvelope(await runCli(["debug", "samples/logs/debug/large-output.debug.txt", "--json"]), "debug");
  assert.equal(j.debug.countTokensCalls, 1);
  assert.deepEqual(
    j.debug.persisted.map((p: any) => [p.size]),
    [["51.7KB"]],
  );
  const late = parseEnvelope(
    await runCli([
      "debug",
      "samples/logs/debug/late-server.debug.txt",
      "--stream-json",
      "samples/logs/claude-p/late-server.stream.jsonl",
      "--json",
    ]),
    "debug",
  );
  assert.equal(late.debug.servers[0].initStatus, "pending");
  assert.ok(late.debug.flags.includes('server "lab" was pending in the claude -p init event'));
  assert.deepEqual(late.run.pendingServers, ["lab"]);
  assert.equal(late.run.mainModel, "claude-opus-5-5");
  assert.deepEqual(
    late.run.models.map((m: any) => [m.model, m.role, m.inputTokens]),
    [
      ["claude-opus-5-5", "main", 12],
      ["claude-haiku-4-5-20251001", "background", 961],
    ],
  );
  assert.deepEqual(
    late.inputs.map((i: any) => i.kind),
    ["debug-log", "stream-json"],
  );
});

test("rpc --json: the contract's fields", async () => {
  const j = parseEnvelope(await runCli(["rpc", RPC, "--json"]), "rpc");
  const r = j.rpc;
  assert.deepEqual(Object.keys(r).slice(0, 6), ["messages", "methods", "firstMethod", "era", "probe", "initialize"]);
  assert.equal(r.messages, 8);
  assert.equal(r.firstMethod, "server/discover");
  assert.equal(r.era, "legacy");
  assert.deepEqual(Object.keys(r.probe), ["id", "protocolVersion", "clientName", "clientVersion", "answered", "errorCode"]);
  assert.deepEqual(r.initialize, { protocolVersion: null, msAfterProbe: 5 });
  const modern = parseEnvelope(await runCli(["rpc", "samples/logs/rpc/modern-dual-era.raw.jsonl", "--json"]), "rpc").rpc;
  assert.deepEqual([modern.era, modern.probe.answered, modern.initialize], ["modern", "result", null]);
});

test("rpc: the dual-era trap goes to the findings; stdin works", async () => {
  const text = readFileSync(sample("logs", "rpc", "dual-era-trap.mixed.log"));
  const r = await runCli(["rpc", "-", "--format", "markdown"], { stdin: text });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /\| dual-era trap \(handshake 2\)/);
  const j = parseEnvelope(await runCli(["rpc", "-", "--json"], { stdin: text }), "rpc");
  assert.equal(j.inputs[0].path, "-");
  assert.equal(j.rpc.noise, 3);
});

test("missing file is a usage error (exit 2); malformed lines fail only under --strict", async () => {
  for (const cmd of ["debug", "rpc"]) {
    const r = await runCli([cmd, "samples/logs/nope.txt"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no such file: samples\/logs\/nope\.txt/);
  }
  const bad = '{"jsonrpc":"2.0","id":1,"method":"initialize"}\n{"jsonrpc":\n';
  assert.equal((await runCli(["rpc", "-"], { stdin: bad })).code, 0);
  const strict = await runCli(["rpc", "-", "--strict"], { stdin: bad });
  assert.equal(strict.code, 1);
  assert.match(strict.stderr, /-:2: invalid JSON/);
});

test("empty input is an empty report", async () => {
  const j = parseEnvelope(await runCli(["debug", "-", "--json"], { stdin: "" }), "debug");
  assert.equal(j.debug.entries, 0);
  assert.deepEqual(j.debug.servers, []);
  const r = parseEnvelope(await runCli(["rpc", "-", "--json"], { stdin: "" }), "rpc");
  assert.deepEqual([r.rpc.messages, r.rpc.era, r.rpc.probe, r.rpc.initialize], [0, "unknown", null, null]);
});

for (const format of ["table", "markdown", "json", "csv"] as const) {
  test(`golden: debug on ${DEBUG} as ${format}`, async () => {
    const r = await runCli(["debug", DEBUG, "--format", format]);
    assert.equal(r.code, 0, r.stderr);
    golden(`logs/debug.${ext(format)}`, r.stdout);
  });
  test(`golden: rpc on ${RPC} as ${format}`, async () => {
    const r = await runCli(["rpc", RPC, "--format", format]);
    assert.equal(r.code, 0, r.stderr);
    golden(`logs/rpc.${ext(format)}`, r.stdout);
  });
}

test("tables stop at 1,000 rows unless --all-events; --json keeps every event", async () => {
  const log =
    Array.from(
      { length: 1500 },
      (_, i) => `2026-09-30T05:12:03.${String(i % 1000).padStart(3, "0")}Z [DEBUG] [API REQUEST] /v1/messages source=sdk`,
    ).join("\n") + "\n";
  const table = await runCli(["debug", "-", "--format", "markdown"], { stdin: log });
  assert.match(table.stdout, /first 1000 of 1500 events shown/);
  assert.equal(table.stdout.split("\n").filter((l) => l.includes("| api-request |")).length, 1000);
  const all = await runCli(["debug", "-", "--format", "markdown", "--all-events"], { stdin: log });
  assert.equal(all.stdout.split("\n").filter((l) => l.includes("| api-request |")).length, 1500);
  const j = parseEnvelope(await runCli(["debug", "-", "--json"], { stdin: log }), "debug");
  assert.equal(j.debug.events.length, 1500);
  assert.equal(j.debug.apiRequests, 1500);
});

test("debug on failures: killed and errored servers with their last error in the summary; failures on the default timeline", async () => {
  const r = await runCli(["debug", "samples/logs/debug/failures.debug.txt", "--format", "markdown"]);
  assert.equal(r.code, 0, r.stderr);
  // Three servers and fifteen columns: markdown turns the table, a column per server.
  assert.match(r.stdout, /\| server \| docs \| lab \| notes \|\n/);
  assert.match(r.stdout, /\| status \| errored \| killed \(SIGINT → SIGTERM → SIGKILL\) \| closed \|/);
  assert.match(r.stdout, /\| transport \| http \| stdio \| stdio \|/);
  assert.match(
    r.stdout,
    /\| last error \| Connection error: \\\[ \{ "code": "invalid_union".*\| SIGTERM failed, sending SIGKILL to MCP server process \|/,
  );
  assert.match(r.stdout, /- \*\*errors\*\*: 3/);
  for (const kind of ["mcp-connection-error", "mcp-shutdown-forced", "mcp-process-exited", "mcp-subscribe", "count-tokens-failed"])
    assert.match(r.stdout, new RegExp(`\\| ${kind} \\|`), kind);
  assert.match(r.stdout, /### count_tokens requests and what came just before them/);
  const j = parseEnvelope(await runCli(["debug", "samples/logs/debug/failures.debug.txt", "--json"]), "debug");
  assert.equal(j.debug.servers.find((s: any) => s.name === "docs").lastError.split("\n").length, 11, "JSON keeps the whole body");
  assert.deepEqual(
    j.debug.countTokens.map((c: any) => c.before.kind),
    ["api-request", "mcp-tool-done"],
  );
});

test("debug on a paste without headers: read, not malformed", async () => {
  const j = parseEnvelope(await runCli(["debug", "samples/logs/debug/pasted-headerless.debug.txt", "--json"]), "debug");
  assert.equal(j.health.malformedCount, 0);
  assert.equal(j.debug.entries, 8);
  assert.deepEqual([j.debug.servers[0].instructionsTruncatedFrom, j.debug.servers[0].instructionsTruncatedTo], [5000, 2048]);
});

test("rpc: a batch line is read as its messages, not as noise (the fallback initialize sent as a one-element batch)", async () => {
  const text = [
    '{"jsonrpc":"2.0","id":"server-discover-probe-1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"claude-code","version":"2.1.285"}}}}',
    '{"jsonrpc":"2.0","id":"server-discover-probe-1","error":{"code":-32601,"message":"Method not found"}}',
    '[{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"claude-code","version":"2.1.285"}}}]',
    '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-03-26","capabilities":{},"serverInfo":{"name":"x","version":"1"}}}',
  ].join("\n");
  const j = parseEnvelope(await runCli(["rpc", "-", "--json"], { stdin: text + "\n" }), "rpc");
  assert.deepEqual(j.rpc.methods, ["server/discover", "initialize"]);
  assert.deepEqual(j.rpc.initialize, { protocolVersion: "2025-03-26", msAfterProbe: null });
  assert.equal(j.rpc.era, "legacy");
  assert.equal(j.rpc.noise, 0);
  assert.equal(j.rpc.messages, 4);
});
