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

// A `--output-format json --verbose` array torn or damaged: every element that closed before the tear is
// kept, the tear is one malformed entry with its line and byte, the same in any chunking.
const legacy = () => readFileSync(file("legacy.verbose.json"));
const LEGACY_SID = "e27b4c90-3d1a-4f86-a5c2-6b9e0f3d8a17";

async function everyChunking(text: string | Buffer, check: (r: ClaudeRun) => void) {
  for (const size of [1, 7, 4096, 1 << 20]) {
    const r = await fromText(text, size);
    try {
      check(r);
    } catch (e) {
      (e as Error).message = `chunks of ${size}: ${(e as Error).message}`;
      throw e;
    }
  }
}

test("array torn in its last event (the fuzz repro, 2,300 of 2,523 bytes): init and assistant kept, the tear said", async () => {
  const cut = legacy().subarray(0, 2300);
  const resultAt = cut.indexOf('{"type":"result"');
  assert.equal(resultAt, 1477);
  await everyChunking(cut, (r) => {
    assert.equal(r.format, "json-array");
    assert.equal(r.init!.sessionId, LEGACY_SID);
    assert.equal(runSessionId(r), LEGACY_SID);
    assert.equal(r.inits.length, 1);
    assert.equal(r.assistantMessages, 1);
    assert.equal(r.apiResponses, 1);
    assert.equal(r.result, null);
    assert.deepEqual(r.types, { "system/init": 1, assistant: 1 });
    assert.equal(r.health.records, 2);
    assert.equal(r.health.malformedCount, 1);
    assert.deepEqual(r.health.malformed[0], {
      file: "-",
      line: 1,
      reason: "JSON array cut off inside element 3 (it starts at byte 1478; the input ends at byte 2300 before it closes)",
      excerpt: cut.toString("utf8", resultAt, resultAt + 120) + "…",
    });
  });
});

test("array torn inside its first event: nothing kept, one malformed entry", async () => {
  await everyChunking(legacy().subarray(0, 200), (r) => {
    assert.equal(r.format, "json-array");
    assert.equal(r.init, null);
    assert.equal(r.health.records, 0);
    assert.deepEqual(r.types, {});
    assert.equal(r.health.malformedCount, 1);
    assert.equal(r.health.malformed[0]!.line, 1);
    assert.equal(
      r.health.malformed[0]!.reason,
      "JSON array cut off inside element 1 (it starts at byte 2; the input ends at byte 200 before it closes)",
    );
    assert.match(r.health.malformed[0]!.excerpt, /^\{"type":"system","subtype":"init"/);
  });
});

test('an empty output or whitespace only is empty (no malformed line: the commands warn of it); only "[" is malformed', async () => {
  for (const text of ["", "\n\n", "\ufeff"]) {
    const r = await fromText(text);
    assert.equal(r.format, "empty");
    assert.deepEqual(r.health.malformed, []);
    assert.equal(r.health.malformedCount, 0);
    assert.equal(r.health.records, 0);
  }
  await everyChunking("[", (r) => {
    assert.equal(r.format, "json-array");
    assert.deepEqual(
      r.health.malformed.map((m) => [m.line, m.reason]),
      [[1, 'JSON array cut off before its first element: the input ends at byte 1 without the closing "]"']],
    );
  });
  const r = await fromText("[]");
  assert.deepEqual(r.health.malformed, []);
});

test('trailing garbage after "]" is reported; every event before it is kept', async () => {
  const whole = legacy();
  const text = Buffer.concat([whole, Buffer.from(" xyz")]);
  await everyChunking(text, (r) => {
    assert.equal(r.init!.sessionId, LEGACY_SID);
    assert.equal(r.assistantMessages, 1);
    assert.equal(r.result!.totalCostUsd, 0.133673);
    assert.deepEqual(r.health.malformed, [
      {
        file: "-",
        line: 2,
        reason: `trailing garbage after the JSON array's closing "]" (from byte ${whole.length + 2}); not read`,
        excerpt: "xyz",
      },
    ]);
  });
});

test("a pretty-printed array (jq .) torn: its elements are read at their own lines, the tear at the torn element's", async () => {
  const events = JSON.parse(legacy().toString("utf8")) as object[];
  const pretty = JSON.stringify(events, null, 2);
  const resultAt = pretty.indexOf('{\n    "type": "result"');
  const resultLine = pretty.slice(0, resultAt).split("\n").length;
  await everyChunking(pretty.slice(0, resultAt + 200), (r) => {
    assert.equal(r.init!.sessionId, LEGACY_SID);
    assert.equal(r.init!.pos.line, 2);
    assert.equal(r.assistantMessages, 1);
    assert.equal(r.result, null);
    assert.equal(r.health.malformedCount, 1);
    assert.equal(r.health.malformed[0]!.line, resultLine);
    assert.match(r.health.malformed[0]!.reason, new RegExp(`^JSON array cut off inside element 3 \\(it starts at byte ${resultAt + 1};`));
  });
});

test("a JSON object instead of an array, torn: one line (--output-format json) or pretty-printed (jq .)", async () => {
  const obj = readFileSync(file("dual-era.json"), "utf8");
  const line = await fromText(obj.slice(0, 300));
  assert.equal(line.result, null);
  assert.deepEqual(
    line.health.malformed.map((m) => [m.line, m.reason]),
    [[1, "half-written last line (Unterminated string in JSON at position 300)"]],
  );
  const pretty = JSON.stringify(JSON.parse(obj), null, 2).slice(0, 400);
  await everyChunking(pretty, (r) => {
    assert.equal(r.format, "json-pretty");
    assert.equal(r.result, null);
    assert.deepEqual(
      r.health.malformed.map((m) => [m.line, m.reason]),
      [[1, "JSON text cut off inside value 1 (it starts at byte 1; the input ends at byte 400 before it closes)"]],
    );
  });
});

test("a bad element costs only itself; a broken structure stops the read after the elements before it", async () => {
  const init = '{"type":"system","subtype":"init","session_id":"s-9","model":"m"}';
  const asst = '{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"a \\"]}\\" [{ b"}]}}';
  const res = '{"type":"result","subtype":"success","session_id":"s-9","num_turns":1}';
  const good = await fromText(`[${init},${asst},5,{"a":tru},"x",${res}]`, 3);
  assert.equal(good.init!.sessionId, "s-9");
  assert.equal(good.assistantMessages, 1);
  assert.equal(good.result!.numTurns, 1);
  const at = (needle: string) => `[${init},${asst},5,{"a":tru},"x",${res}]`.indexOf(needle) + 1;
  assert.deepEqual(
    good.health.malformed.map((m) => m.reason.replace(/\(Unexpected.*\)$/, "(…)")),
    [
      `element 3 (from byte ${at(",5,") + 1}): expected a JSON object, got a number`,
      `element 4 (from byte ${at('{"a":tru}')}): invalid JSON (…)`,
      `element 5 (from byte ${at('"x"')}): expected a JSON object, got a string`,
    ],
  );
  const mismatched = await fromText(`[${init},{"a":[1},${res}]`);
  assert.equal(mismatched.init!.sessionId, "s-9");
  assert.equal(mismatched.result, null);
  assert.deepEqual(
    mismatched.health.malformed.map((m) => m.reason),
    [
      `element 2 (from byte ${init.length + 3}) is not valid JSON: "}" at byte ${init.length + 10} closes where "]" was expected; the rest of the input is not read`,
    ],
  );
  const glued = await fromText(`[${init}${res}]`);
  assert.equal(glued.inits.length, 1);
  assert.equal(glued.result, null);
  assert.deepEqual(
    glued.health.malformed.map((m) => m.reason),
    [
      `JSON array stops being valid JSON at byte ${init.length + 2}: expected "," or "]" after element 1, found "{"; the rest of the input is not read`,
    ],
  );
});

test("a UTF-8 BOM before the array is skipped in any chunking, and byte offsets count it", async () => {
  const text = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), legacy().subarray(0, 2300)]);
  await everyChunking(text, (r) => {
    assert.equal(r.init!.sessionId, LEGACY_SID);
    assert.equal(r.assistantMessages, 1);
    assert.match(r.health.malformed[0]!.reason, /inside element 3 \(it starts at byte 1481; the input ends at byte 2303 /);
  });
});

test("an element's damage says which element and where it starts: its byte positions count from that element", async () => {
  const init = '{"type":"system","subtype":"init","session_id":"s-9","model":"m"}';
  // Two bytes that are not UTF-8 in the element's text, and an array 201 deep after them (its levels past 200 cut).
  const head = Buffer.from('{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"a');
  const deep = "[".repeat(201) + "]".repeat(201);
  const asst = Buffer.concat([head, Buffer.from([0xff, 0xfe]), Buffer.from(`"}]},"x":${deep}}`)]);
  const res = '{"type":"result","subtype":"success","session_id":"s-9","num_turns":1}';
  const text = Buffer.concat([Buffer.from(`[${init},`), asst, Buffer.from(`,${res}]`)]);
  const from = init.length + 3;
  const cutAt = asst.indexOf("[[]]");
  await everyChunking(text, (r) => {
    assert.equal(r.assistantMessages, 1);
    assert.equal(r.result!.numTurns, 1);
    assert.deepEqual(
      r.health.damaged.map((d) => [d.line, d.reason, d.bytes]),
      [
        [1, `element 2 (from byte ${from}): 2 bytes of invalid UTF-8 from byte ${head.length + 1}, read as U+FFFD`, 2],
        [1, `element 2 (from byte ${from}): a value nested deeper than 200 levels (4 bytes from byte ${cutAt + 1}) read as null`, 4],
      ],
    );
    // The element's byte, counted from its own start, is the file's byte `from + n - 1`.
    assert.equal(text[from - 1 + head.length], 0xff);
  });
});

test('a crash\'s NUL run before the array\'s "[" or after its "]" is skipped and listed as damage, not a tear', async () => {
  const whole = legacy();
  const nuls = Buffer.alloc(512);
  const lead = Buffer.concat([nuls, Buffer.from("\n "), whole]);
  await everyChunking(lead, (r) => {
    assert.equal(r.init!.sessionId, LEGACY_SID);
    assert.equal(r.assistantMessages, 1);
    assert.equal(r.result!.totalCostUsd, 0.133673);
    assert.deepEqual(r.health.malformed, []);
    assert.deepEqual(
      r.health.damaged.map((d) => [d.line, d.reason, d.bytes]),
      [[1, "512 NUL bytes before byte 515 (crash remnant), skipped", 512]],
    );
  });
  const tail = Buffer.concat([whole, nuls]);
  await everyChunking(tail, (r) => {
    assert.equal(r.init!.sessionId, LEGACY_SID);
    assert.equal(r.result!.totalCostUsd, 0.133673);
    assert.deepEqual(r.health.malformed, []);
    assert.deepEqual(
      r.health.damaged.map((d) => [d.line, d.reason, d.bytes]),
      [[2, `512 trailing NUL bytes from byte ${whole.length + 1} (crash remnant), skipped`, 512]],
    );
  });
  // NULs with something else after them are still trailing garbage, from the first NUL.
  await everyChunking(Buffer.concat([whole, Buffer.from([0, 0]), Buffer.from("xyz")]), (r) => {
    assert.equal(r.result!.totalCostUsd, 0.133673);
    assert.deepEqual(
      r.health.malformed.map((m) => [m.line, m.reason]),
      [[2, `trailing garbage after the JSON array's closing "]" (from byte ${whole.length + 1}); not read`]],
    );
    assert.deepEqual(r.health.damaged, []);
  });
});

test("a pretty-printed object (jq .) after a crash's NUL run, or followed by one, is read; the runs are damage", async () => {
  const obj = JSON.stringify({ type: "result", subtype: "success", session_id: "s-9", num_turns: 2 }, null, 2);
  const text = Buffer.concat([Buffer.alloc(3), Buffer.from(`\n${obj}\n`), Buffer.alloc(5)]);
  await everyChunking(text, (r) => {
    assert.equal(r.result!.numTurns, 2);
    assert.deepEqual(r.health.malformed, []);
    assert.deepEqual(
      r.health.damaged.map((d) => [d.line, d.reason, d.bytes]),
      [
        [1, "3 NUL bytes before byte 5 (crash remnant), skipped", 3],
        [8, `5 trailing NUL bytes from byte ${obj.length + 6} (crash remnant), skipped`, 5],
      ],
    );
  });
});
