import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { readFileSync } from "node:fs";
import { modelRoles } from "../../src/records/streamjson.js";
import { headlessSessionId as runSessionId } from "../../src/analyses/headless-run.js";
import { readClaudeRun } from "../read.js";
type ClaudeRun = Awaited<ReturnType<typeof readClaudeRun>>;
import type { InputFile } from "../../src/sources/input.js";
import { sample } from "../helpers.js";

const file = (name: string) => sample("logs", "claude-p", name);
const run = (path: string) => readClaudeRun({ path, kind: "stream-json", bytes: 0, sha256: "" });
async function fromText(text: string | Buffer, chunk = 4096): Promise<ClaudeRun> {
  const buf = Buffer.isBuffer(text) ? text : Buffer.from(text, "utf8");
  const chunks: Buffer[] = [];
  for (let i = 0; i < buf.length; i += chunk) chunks.push(buf.subarray(i, i + chunk));
  const input: InputFile = { path: "-", kind: "stream-json", bytes: 0, sha256: "" };
  return readClaudeRun(input, { stdin: Readable.from(chunks) });
}

test("stream-json NDJSON: pending server in init, result with main and background models", async () => {
  const r = await run(file("late-server.stream.jsonl"));
  assert.equal(r.format, "stream-json");
  assert.equal(r.init!.sessionId, "5e1f7a3c-2b9d-4e60-8c14-9a7d3f0b6e21");
  assert.equal(r.init!.model, "claude-opus-5-5");
  assert.equal(r.init!.version, "2.1.285");
  assert.equal(r.init!.permissionMode, "default");
  assert.equal(r.init!.cwd, "/Users/lab/runs/empty");
  assert.deepEqual(r.init!.mcpServers, [{ name: "lab", status: "pending" }]);
  assert.equal(r.init!.tools.length, 16);
  assert.ok(!r.init!.tools.some((t) => t.startsWith("mcp__lab__")));
  assert.equal(r.inits.length, 1);
  assert.equal(r.assistantMessages, 3);
  assert.equal(r.apiResponses, 2);
  assert.equal(r.userMessages, 1);
  assert.deepEqual(r.types, { "system/init": 1, assistant: 3, user: 1, result: 1 });
  const res = r.result!;
  assert.equal(res.subtype, "success");
  assert.equal(res.isError, false);
  assert.equal(res.numTurns, 2);
  assert.equal(res.durationMs, 19342);
  assert.equal(res.durationApiMs, 9127);
  assert.equal(res.result, "BEGIN=HERON-4821 END=OSPREY-3094 LAST=763");
  assert.equal(res.totalCostUsd, 0.146171);
  assert.deepEqual(res.usage, { inputTokens: 12, outputTokens: 89, cacheReadInputTokens: 20584, cacheCreationInputTokens: 21202 });
  assert.equal(res.modelUsage["claude-haiku-4-5-20251001"]!.inputTokens, 961);
  assert.equal(res.modelUsage["claude-opus-5-5"]!.costUSD, 0.14509);
  assert.equal(res.modelUsage["claude-opus-5-5"]!.contextWindow, 200000);
  assert.deepEqual(modelRoles(res, r.init!.model), { "claude-opus-5-5": "main", "claude-haiku-4-5-20251001": "background" });
  assert.equal(runSessionId(r), "5e1f7a3c-2b9d-4e60-8c14-9a7d3f0b6e21");
  assert.deepEqual(r.health.malformed, []);
  assert.equal(r.health.lines, 6);
  assert.equal(r.health.records, 6);
});

test("--output-format json: one result object, no init; session id from the result", async () => {
  const r = await run(file("dual-era.json"));
  assert.equal(r.format, "json");
  assert.equal(r.init, null);
  assert.equal(r.result!.result, "BEGIN=TANAGER-6881 END=WAXWING-2170 LAST=763");
  assert.equal(r.result!.modelUsage["claude-haiku-4-5-20251001"]!.inputTokens, 954);
  assert.deepEqual(modelRoles(r.result!, null), { "claude-opus-5-5": "main", "claude-haiku-4-5-20251001": "background" });
  assert.equal(runSessionId(r), "a83c5d10-7e42-4b9f-b1d6-0c2e9f4a7b58");
});

test("--output-format json --verbose: one-line array streamed, same answer in any chunking", async () => {
  const text = readFileSync(file("legacy.verbose.json"));
  const whole = await run(file("legacy.verbose.json"));
  assert.equal(whole.format, "json-array");
  assert.deepEqual(whole.init!.mcpServers, [{ name: "lab", status: "connected" }]);
  assert.equal(whole.init!.tools.filter((t) => t.startsWith("mcp__lab__")).length, 3);
  assert.equal(whole.assistantMessages, 1);
  assert.equal(whole.result!.totalCostUsd, 0.133673);
  assert.deepEqual(modelRoles(whole.result!, whole.init!.model), { "claude-haiku-4-5-20251001": "background", "claude-opus-5-5": "main" });
  assert.equal(whole.health.lines, 1);
  for (const size of [1, 7, 4096]) {
    const r = await fromText(text, size);
    assert.deepEqual(
      { ...r, file: "x" },
      {
        ...whole,
        file: "x",
        init: { ...whole.init!, pos: { file: "-", line: 1 } },
        inits: r.inits,
        result: { ...whole.result!, pos: { file: "-", line: 1 } },
        results: r.results,
      },
    );
  }
});

test("pretty-printed object (jq .) goes through the streaming parser", async () => {
  const obj = JSON.parse(readFileSync(file("dual-era.json"), "utf8"));
  const r = await fromText(JSON.stringify(obj, null, 2) + "\n");
  assert.equal(r.format, "json-pretty");
  assert.equal(r.result!.numTurns, 1);
  assert.equal(r.health.lines, JSON.stringify(obj, null, 2).split("\n").length);
});

test("bad lines are counted, not fatal; unknown types are counted; CRLF is fine", async () => {
  const text = [
    '{"type":"system","subtype":"init","session_id":"s-1","model":"claude-sonnet-5","tools":["Bash"],"mcp_servers":[{"name":"a","status":"failed"},{"name":"b","status":"needs-auth"}]}',
    '{"type":"assistant","message":{"id":"msg_1","content":[{"type":"text","text":"hi"}]}',
    '{"type":"brand_new_event"}',
    "",
    '{"type":"system","subtype":"init","session_id":"s-1","model":"claude-sonnet-5"}',
    '{"type":"result","subtype":"error_max_turns","is_error":true,"num_turns":3,"session_id":"s-1","errors":["max turns"]}',
  ].join("\r\n");
  const r = await fromText(text, 7);
  assert.equal(r.format, "stream-json");
  assert.equal(r.health.malformedCount, 1);
  assert.equal(r.health.malformed[0]!.line, 2);
  assert.deepEqual(r.health.unknownTypes, { brand_new_event: 1 });
  assert.equal(r.inits.length, 2);
  assert.deepEqual(
    r.init!.mcpServers.map((s) => s.status),
    ["failed", "needs-auth"],
  );
  assert.equal(r.result!.subtype, "error_max_turns");
  assert.equal(r.result!.isError, true);
  assert.equal(r.result!.result, null);
  assert.deepEqual(r.result!.errors, ["max turns"]);
  assert.equal(r.result!.usage, null);
});

test("a truncated JSON array keeps the messages before the break and reports the break", async () => {
  const text = readFileSync(file("legacy.verbose.json"), "utf8");
  const cut = text.slice(0, text.indexOf('{"type":"result"') + 40);
  const r = await fromText(cut);
  assert.equal(r.format, "json-array");
  assert.ok(r.init);
  assert.equal(r.assistantMessages, 1);
  assert.equal(r.result, null);
  assert.equal(r.health.malformedCount, 1);
  assert.match(r.health.malformed[0]!.reason, /JSON array/);
});

test("empty input is an empty run", async () => {
  const r = await fromText("\n\n");
  assert.equal(r.format, "empty");
  assert.equal(r.init, null);
  assert.equal(r.result, null);
});

test("stream-json result: counts, durations and costs that are not what they claim are unknown and in health", async () => {
  const result = {
    type: "result",
    subtype: "success",
    is_error: false,
    duration_ms: -10,
    duration_api_ms: "5",
    num_turns: 1.5,
    result: "ok",
    total_cost_usd: 1e308,
    session_id: "s1",
    usage: { input_tokens: 1e308, output_tokens: 7, cache_read_input_tokens: null },
    modelUsage: {
      "claude-opus-5": { inputTokens: -1, outputTokens: 7, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, costUSD: -0.5 },
      haiku: { inputTokens: 900, outputTokens: 3, costUSD: 1e308 },
    },
  };
  const r = await fromText(
    JSON.stringify({ type: "system", subtype: "init", session_id: "s1", model: "claude-opus-5" }) + "\n" + JSON.stringify(result) + "\n",
  );
  const res = r.result!;
  assert.deepEqual([res.durationMs, res.durationApiMs, res.numTurns, res.totalCostUsd], [null, null, null, null]);
  assert.deepEqual(res.usage, { inputTokens: null, outputTokens: 7, cacheReadInputTokens: null, cacheCreationInputTokens: 0 });
  assert.equal(res.modelUsage["claude-opus-5"]!.inputTokens, null);
  assert.equal(res.modelUsage.haiku!.costUSD, null);
  assert.equal(r.health.invalidValueCount, 9);
  assert.ok(r.health.invalidValues.every((v) => v.file === "-" && v.line === 2));
  assert.deepEqual(r.health.invalidValues.map((v) => v.field).sort(), [
    'modelUsage["claude-opus-5"].costUSD',
    'modelUsage["claude-opus-5"].inputTokens',
    'modelUsage["haiku"].costUSD',
    "result.duration_api_ms",
    "result.duration_ms",
    "result.num_turns",
    "result.total_cost_usd",
    "usage.cache_read_input_tokens",
    "usage.input_tokens",
  ]);
});
