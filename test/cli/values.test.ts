import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli } from "../helpers.js";
import { assistant, jsonl, userText } from "../builders.js";

const dir = mkdtempSync(join(tmpdir(), "ccf-values-"));
const write = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const FORMATS = ["table", "markdown", "csv", "json"];

/** No crash in any format: exit 0, nothing on stderr that says "internal error". */
async function allFormats(args: string[]): Promise<void> {
  for (const f of FORMATS) {
    const r = await runCli([...args, "--format", f]);
    assert.equal(r.code, 0, `${args.join(" ")} --format ${f}: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /internal error|RangeError/);
  }
}

// The lab log's {t, method, id} with times no Date can hold (FORMATS.md 2.6, 9.5).
const RPC_LINES = [
  '{"t":1e20,"method":"initialize","id":0}',
  '{"t":-1e20,"method":"notifications/initialized"}',
  '{"t":8640000000000001,"method":"tools/list","id":1}',
  '{"ts":"garbage","jsonrpc":"2.0","method":"ping","id":2}',
  '{"time":"2026-02-30T10:00:00Z","jsonrpc":"2.0","method":"ping","id":3}',
  '[9999-99-99T99:99:99Z] {"jsonrpc":"2.0","method":"ping","id":4}',
];

test("rpc: times that cannot be represented are unknown, never a RangeError, in every format", async () => {
  const file = write("rpc-log.jsonl", RPC_LINES.join("\n") + "\n");
  await allFormats(["rpc", file]);
  const j = parseEnvelope(await runCli(["rpc", file, "--json"]), "rpc");
  assert.equal(j.rpc.firstMethod, "initialize");
  assert.equal(j.rpc.messages, RPC_LINES.length);
  assert.equal(j.rpc.initialize.msAfterProbe, null);
});

test("report and outputs --rpc-log read the same log without a crash", async () => {
  const file = write("rpc-log-2.jsonl", RPC_LINES.join("\n") + "\n");
  const common = ["c0ffee00", "--claude-dir", "samples/claude-home", "--rpc-log", file];
  for (const cmd of ["report", "outputs"]) {
    const r = await runCli([cmd, ...common, "--json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /internal error/);
  }
});

test("debug: header times and per-server log timestamps that are no time are unknown", async () => {
  const file = write(
    "debug.txt",
    [
      '9999-99-99T99:99:99Z [DEBUG] MCP server "lab": Successfully connected (transport: stdio) in 120ms',
      "2026-02-30T10:00:00.000Z [DEBUG] mcp runtime arm: v2 (source: growthbook)",
      '2026-09-16T10:00:01.000Z [DEBUG] MCP server "lab": Server instructions truncated from 20000 to 2048 chars',
    ].join("\n") + "\n",
  );
  await allFormats(["debug", file]);
  const j = parseEnvelope(await runCli(["debug", file, "--json"]), "debug");
  assert.deepEqual(
    j.debug.events.map((e: any) => e.time),
    [null, null, "2026-09-16T10:00:01.000Z"],
  );
  const perServer = write("mcp-logs-lab.jsonl", '{"debug":"Connection established","timestamp":"garbage"}\n');
  const p = parseEnvelope(await runCli(["debug", perServer, "--json"]), "debug");
  assert.deepEqual(
    p.debug.events.map((e: any) => e.time),
    [null],
  );
});

test("requests: bad usage values are unknown and named in health; totals finite; garbage timestamps unknown", async () => {
  const bad = assistant({ id: "msg_bad" }) as Record<string, any>;
  bad.message.usage = { input_tokens: 1e308, cache_creation_input_tokens: -500, cache_read_input_tokens: "12", output_tokens: true };
  bad.timestamp = "garbage";
  const file = write(
    "values.jsonl",
    jsonl(userText("hi"), bad, assistant({ id: "msg_ok", usage: { cache_read_input_tokens: 900 } }), {
      ...(assistant() as object),
      message: null,
    }),
  );
  await allFormats(["requests", file]);
  const r = await runCli(["requests", file, "--json"]);
  const j = parseEnvelope(r, "requests");
  assert.equal(j.requests.length, 2);
  assert.deepEqual([j.requests[0].inputTokens, j.requests[0].totalInputTokens, j.requests[0].timestamp], [null, null, null]);
  assert.deepEqual(
    j.health.invalidValues.map((v: any) => [v.line, v.field, v.value]),
    [
      [2, "timestamp", '"garbage"'],
      [2, "message.usage.input_tokens", "1e+308"],
      [2, "message.usage.cache_creation_input_tokens", "-500"],
      [2, "message.usage.cache_read_input_tokens", '"12"'],
      [2, "message.usage.output_tokens", "true"],
    ],
  );
  assert.equal(j.health.invalidValueCount, 5);
  assert.deepEqual(
    j.health.notRequests.map((n: any) => [n.file, n.line]),
    [[file, 4]],
  );
  for (const [k, v] of Object.entries(j.totals[0])) if (typeof v === "number") assert.ok(Number.isSafeInteger(v) && v >= 0, `${k}=${v}`);
  assert.equal(j.totals[0].cacheReadInputTokens, 900);
  assert.match(r.stderr, /values\.jsonl:2: message\.usage\.input_tokens = 1e\+308/);
  const table = await runCli(["requests", file]);
  assert.match(table.stdout, /invalid value in message\.usage\.cache_read_input_tokens/);
  assert.match(table.stdout, /message is null: not a request/);
  assert.doesNotMatch(table.stdout, /Infinity|∞|NaN/);
});

test("stream-json result: bad usage and modelUsage counts are unknown, in health, no infinite total", async () => {
  const debug = write("d2.txt", "2026-09-16T10:00:00.000Z [DEBUG] mcp runtime arm: v2 (source: growthbook)\n");
  const run = write(
    "run.stream.jsonl",
    [
      '{"type":"system","subtype":"init","session_id":"s1","model":"claude-opus-5","tools":[],"mcp_servers":[]}',
      '{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"num_turns":1,"result":"ok","total_cost_usd":0.1,"usage":{"input_tokens":1e308,"output_tokens":-5,"cache_read_input_tokens":"12","cache_creation_input_tokens":0},"modelUsage":{"claude-opus-5":{"inputTokens":1e308,"outputTokens":1,"cacheReadInputTokens":0,"cacheCreationInputTokens":0,"costUSD":0.1}},"session_id":"s1"}',
    ].join("\n") + "\n",
  );
  await allFormats(["debug", debug, "--stream-json", run]);
  const j = parseEnvelope(await runCli(["debug", debug, "--stream-json", run, "--json"]), "debug");
  assert.deepEqual(j.run.result.usage, { inputTokens: null, outputTokens: null, cacheReadInputTokens: null, cacheCreationInputTokens: 0 });
  assert.equal(j.run.models[0].totalInputTokens, null);
  assert.deepEqual(
    j.health.invalidValues.map((v: any) => [v.line, v.field]),
    [
      [2, 'modelUsage["claude-opus-5"].inputTokens'],
      [2, "usage.input_tokens"],
      [2, "usage.output_tokens"],
      [2, "usage.cache_read_input_tokens"],
    ],
  );
  const table = await runCli(["debug", debug, "--stream-json", run]);
  assert.doesNotMatch(table.stdout, /Infinity|∞|100,000,000,000/);
});

test("sessions --since: out-of-range, negative and non-dates are usage errors (exit 2, one line naming the value)", async () => {
  const base = ["sessions", "--claude-dir", "samples/claude-home"];
  for (const v of ["999999999d", "99999999999999999999h", "-7d", "1", "2026-02-30", "2026-13-01", "garbage", "7x", "7 days", ""]) {
    const r = await runCli([...base, `--since=${v}`]);
    assert.equal(r.code, 2, `--since=${v}: ${r.stderr}`);
    const lines = r.stderr.trim().split("\n");
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^ccforensics: --since(: | needs a value)/);
    if (v !== "") assert.ok(lines[0]!.includes(`"${v}"`), lines[0]);
    assert.equal(r.stdout, "");
  }
  for (const v of ["7d", "12h", "30m", "0d", "2026-11-01", "2026-04-03T10:00:00Z", "2000-01-01"]) {
    const r = await runCli([...base, `--since=${v}`, "--json"]);
    assert.equal(r.code, 0, `--since=${v}: ${r.stderr}`);
  }
  const all = parseEnvelope(await runCli([...base, "--since=2000-01-01", "--json"]), "sessions");
  assert.ok(all.sessions.length >= 3);
});
