import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { codewordsFor } from "../../src/lab/instructions-text.js";
import { emitMarkers } from "../../src/lab/output-text.js";
import { parseEnvelope, runCli, runCliSpawned, sample } from "../helpers.js";
import { StdioClient, killAll } from "./stdio-client.js";

after(killAll);

const PROBE = {
  id: "server-discover-probe-1",
  method: "server/discover",
  params: {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "claude-code", version: "2.1.285" },
    },
  },
};
const INIT = {
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "claude-code", version: "2.1.285" } },
};
const tmp = () => mkdtempSync(join(tmpdir(), "ccf-lab-"));

test("lab instructions: legacy handshake — probe refused with -32601, initialize echoes the version, tools/list, ping, unknown method", async () => {
  const c = new StdioClient(["lab", "instructions", "--chars", "5000"]);
  const probe = await c.request(PROBE);
  assert.deepEqual(probe.error.code, -32601);
  assert.equal(probe.id, "server-discover-probe-1");
  const init = await c.request(INIT);
  assert.equal(init.result.protocolVersion, "2025-11-25");
  assert.deepEqual(init.result.serverInfo.name, "lab");
  assert.equal(init.result.instructions.length, 5000);
  const cw = codewordsFor(5000, "en", "legacy");
  assert.ok(init.result.instructions.startsWith(`BEGIN codeword: ${cw.begin}. `));
  assert.ok(!("resultType" in init.result));
  c.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const list = await c.request({ id: 2, method: "tools/list" });
  assert.deepEqual(
    list.result.tools.map((t: any) => t.name),
    ["lookup_part", "list_bins", "lab_ping"],
  );
  assert.deepEqual((await c.request({ id: 3, method: "ping" })).result, {});
  const call = await c.request({ id: 4, method: "tools/call", params: { name: "lab_ping", arguments: {} } });
  assert.equal(call.result.content[0].text, "pong");
  const unknown = await c.request({ id: "x", method: "resources/list" });
  assert.deepEqual([unknown.id, unknown.error.code], ["x", -32601]);
  assert.equal(c.lines.length, 6, "a notification gets no reply");
  assert.equal(await c.end(), 0);
});

test("lab instructions --dual: server/discover answered as 2026-07-28 with the OTHER codeword pair", async () => {
  const c = new StdioClient(["lab", "instructions", "--dual", "--chars", "1000"]);
  const d = (await c.request(PROBE)).result;
  assert.equal(d.resultType, "complete");
  assert.deepEqual(d.supportedVersions, ["2026-07-28"]);
  assert.deepEqual(d._meta["io.modelcontextprotocol/serverInfo"].name, "lab");
  assert.deepEqual([d.ttlMs, d.cacheScope], [0, "private"]);
  assert.deepEqual(d.capabilities, { tools: {} });
  const modern = codewordsFor(1000, "en", "modern");
  const legacy = codewordsFor(1000, "en", "legacy");
  assert.ok(d.instructions.startsWith(`BEGIN codeword: ${modern.begin}.`) && d.instructions.endsWith(`END codeword: ${modern.end}.`));
  const init = (await c.request(INIT)).result;
  assert.ok(init.instructions.startsWith(`BEGIN codeword: ${legacy.begin}.`));
  assert.notEqual(modern.begin, legacy.begin);
  const bad = await c.request({
    id: 9,
    method: "server/discover",
    params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
  });
  assert.deepEqual([bad.error.code, bad.error.data.requested], [-32022, "2099-01-01"]);
  const list = (await c.request({ id: 2, method: "tools/list", params: PROBE.params })).result;
  assert.equal(list.tools.length, 3);
  assert.equal(list.cacheScope, "private");
  await c.end();
});

test("lab instructions: --lang none sends no instructions field; ja counts chars, not bytes; env vars configure it", async () => {
  const none = new StdioClient(["lab", "instructions", "--lang", "none"]);
  assert.ok(!("instructions" in (await none.request(INIT)).result));
  await none.end();
  const ja = new StdioClient(["lab", "instructions"], { LAB_CHARS: "3000", LAB_LANG: "ja", LAB_DUAL: "1" });
  const text = (await ja.request(INIT)).result.instructions as string;
  assert.equal(text.length, 3000);
  assert.equal(Buffer.byteLength(text), 7956);
  assert.ok((await ja.request(PROBE)).result, "LAB_DUAL=1 answers the probe");
  await ja.end();
});

test("lab servers survive bad input: malformed line → -32700 id null, blank lines ignored, invalid shapes → -32600, split writes", async () => {
  const c = new StdioClient(["lab", "instructions"]);
  c.raw("\n\r\n   \n");
  c.raw("{not json\n");
  c.raw("[1,2]\n");
  c.raw('{"jsonrpc":"2.0","id":5}\n');
  c.raw('"just a string"\n');
  const msg = JSON.stringify({ jsonrpc: "2.0", ...INIT });
  for (const part of [msg.slice(0, 7), msg.slice(7, 30), `${msg.slice(30)}\r\n`]) {
    c.raw(part);
    await new Promise((r) => setTimeout(r, 20));
  }
  const r = await c.replies(5);
  assert.deepEqual([r[0].id, r[0].error.code], [null, -32700]);
  assert.deepEqual([r[1].id, r[1].error.code], [null, -32600]);
  assert.deepEqual([r[2].id, r[2].error.code], [5, -32600]);
  assert.deepEqual([r[3].id, r[3].error.code], [null, -32600]);
  assert.equal(r[4].result.serverInfo.name, "lab");
  assert.equal(await c.end(), 0);
  assert.match(c.stderr, /Parse error/);
  for (const l of c.lines) assert.doesNotThrow(() => JSON.parse(l.text), "stdout carries JSON-RPC only");
});

test("lab instructions --init-delay-ms: initialize answered late, other requests meanwhile; a pending reply is flushed at stdin end", async () => {
  const c = new StdioClient(["lab", "instructions", "--init-delay-ms", "600"]);
  await c.request({ id: 0, method: "ping" }); // the server is up: time from here
  const t0 = Date.now();
  c.send({ jsonrpc: "2.0", ...INIT });
  c.send({ jsonrpc: "2.0", id: 2, method: "ping" });
  const r = await c.replies(3);
  assert.equal(r[1].id, 2, "ping overtakes the late initialize");
  assert.equal(r[2].id, 1);
  assert.ok(c.lines[2]!.at - t0 >= 550, `initialize after ${c.lines[2]!.at - t0} ms`);
  assert.ok(c.lines[1]!.at - t0 < 550, `ping after ${c.lines[1]!.at - t0} ms`);
  await c.end();
  // The lab server owns the real stdio, so this one runs as a child process.
  const piped = await runCliSpawned(["lab", "instructions", "--init-delay-ms", "200"], {
    stdin: `${JSON.stringify({ jsonrpc: "2.0", ...INIT })}\n`,
  });
  assert.equal(piped.code, 0);
  assert.equal(JSON.parse(piped.stdout).id, 1);
});

test("lab --log: every message both ways, whole, with time and direction; `rpc` shows the -32601, initialize's version and the gap", async () => {
  const dir = tmp();
  const log = join(dir, "rpc-log.jsonl");
  const c = new StdioClient(["lab", "instructions", "--log", log]);
  await c.request(PROBE);
  await new Promise((res) => setTimeout(res, 30));
  await c.request(INIT);
  c.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await c.request({ id: 2, method: "tools/list" });
  c.raw("oops\n");
  await c.replies(4);
  await c.end();
  const lines = readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => [l.dir, l.method ?? (l.error ? `error ${l.error.code}` : l.result ? "result" : "malformed")]),
    [
      ["in", "server/discover"],
      ["out", "error -32601"],
      ["in", "initialize"],
      ["out", "result"],
      ["in", "notifications/initialized"],
      ["in", "tools/list"],
      ["out", "result"],
      ["in", "malformed"],
      ["out", "error -32700"],
    ],
  );
  assert.deepEqual(Object.keys(lines[0]), ["t", "dir", "jsonrpc", "id", "method", "params"]);
  assert.deepEqual(lines[0].params, PROBE.params, "params logged whole, _meta included");
  assert.deepEqual(lines[2].params, INIT.params);
  assert.equal(lines[3].result.instructions.length, 1000, "the result is logged whole");
  assert.deepEqual(
    lines[6].result.tools.map((t: any) => t.name),
    ["lookup_part", "list_bins", "lab_ping"],
  );
  assert.ok(!("id" in lines[4]), "notifications have no id");
  assert.match(lines[0].t, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const j = parseEnvelope(await runCli(["rpc", log, "--json"]), "rpc");
  assert.deepEqual(
    [j.rpc.firstMethod, j.rpc.era, j.rpc.probe.id, j.rpc.probe.clientName],
    ["server/discover", "legacy", "server-discover-probe-1", "claude-code"],
  );
  assert.deepEqual(
    [j.rpc.probe.answered, j.rpc.probe.errorCode, j.rpc.probeOutcome, j.rpc.responsesLogged],
    ["error", -32601, "error", true],
  );
  assert.equal(j.rpc.initialize.protocolVersion, "2025-11-25");
  assert.ok(j.rpc.initialize.msAfterProbe >= 30 && j.rpc.initialize.msAfterProbe < 60000, String(j.rpc.initialize.msAfterProbe));
  assert.deepEqual(
    j.rpc.instructions.map((x: any) => [x.method, x.chars]),
    [["initialize", 1000]],
  );
  const received = await runCli(["outputs", "-", "--rpc-log", sample("logs", "rpc", "legacy-fallback.lab.jsonl"), "--json"], { stdin: "" });
  assert.match(received.stderr, /no tools\/list response in the message log/, "the old received-only log had no results");
  const both = await runCli(["outputs", "-", "--rpc-log", log, "--json"], { stdin: "" });
  assert.equal(both.code, 0);
  assert.doesNotMatch(both.stderr, /no tools\/list response/, "outputs finds the tools/list result in the lab log");

  const dual = join(dir, "dual.jsonl");
  const d = new StdioClient(["lab", "instructions", "--dual"], { LAB_LOG: dual });
  await d.request(PROBE);
  await d.request({ id: 1, method: "tools/list", params: PROBE.params });
  await d.end();
  const jd = parseEnvelope(await runCli(["rpc", dual, "--json"]), "rpc");
  assert.deepEqual([jd.rpc.era, jd.rpc.initialize, jd.rpc.probe.answered], ["modern", null, "result"]);
});

test("lab output: emit_text / emit_text_annotated exact sizes, _meta maxResultSizeChars, bad chars → -32602, --cjk", async () => {
  const c = new StdioClient(["lab", "output", "--max-result-size-chars", "123456"]);
  const init = (await c.request(INIT)).result;
  assert.equal(init.serverInfo.name, "big");
  assert.ok(!("instructions" in init));
  const tools = (await c.request({ id: 2, method: "tools/list" })).result.tools;
  assert.deepEqual(
    tools.map((t: any) => t.name),
    ["emit_text", "emit_text_annotated"],
  );
  assert.deepEqual(tools[1]._meta, { "anthropic/maxResultSizeChars": 123456 });
  assert.ok(!("_meta" in tools[0]));
  let id = 10;
  for (const n of [30000, 52000, 66000]) {
    for (const name of ["emit_text", "emit_text_annotated"]) {
      const r = await c.request({ id: id++, method: "tools/call", params: { name, arguments: { chars: n } } });
      const t = r.result.content[0].text as string;
      assert.equal(t.length, n, `${name} ${n}`);
      assert.ok(t.endsWith(`END-MARKER: ${emitMarkers(n).end}\n`));
    }
  }
  for (const chars of [-1, 1.5, "abc", null]) {
    const r = await c.request({ id: id++, method: "tools/call", params: { name: "emit_text", arguments: { chars } } });
    assert.equal(r.error.code, -32602, JSON.stringify(chars));
  }
  assert.equal((await c.request({ id: id++, method: "tools/call", params: { name: "nope", arguments: {} } })).error.code, -32602);
  await c.end();
  const cjk = new StdioClient(["lab", "output"], { LAB_CJK: "1" });
  const r = await cjk.request({ id: 1, method: "tools/call", params: { name: "emit_text", arguments: { chars: 24000 } } });
  const t = r.result.content[0].text as string;
  assert.equal(t.length, 24000);
  assert.match(t.split("\n")[1]!, /^[\u4e00-\u9fa5]{59}$/);
  assert.deepEqual((await cjk.request({ id: 2, method: "tools/list" })).result.tools[1]._meta, { "anthropic/maxResultSizeChars": 300000 });
  await cjk.end();
});

test("lab: bad options are usage errors (exit 2), nothing on stdout", async () => {
  for (const [args, env, msg] of [
    [["lab", "nope"], {}, /unknown lab server/],
    [["lab", "instructions", "--cjk"], {}, /option of `lab output`/],
    [["lab", "output", "--dual"], {}, /option of `lab instructions`/],
    [["lab", "instructions", "--lang", "fr"], {}, /--lang must be en, ja or none/],
    [["lab", "instructions", "--chars", "20"], {}, /cannot hold both codewords/],
    [["lab", "instructions"], { LAB_CHARS: "5k" }, /LAB_CHARS must be a whole number/],
    [["lab", "instructions"], { LAB_DUAL: "maybe" }, /LAB_DUAL must be 1 or 0/],
    [["lab", "instructions", "--log", "/nonexistent-dir/x.jsonl"], {}, /cannot open the message log/],
  ] as const) {
    const r = await runCli([...args], { env });
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, msg);
  }
});
