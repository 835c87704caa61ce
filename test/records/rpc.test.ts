import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { readFileSync } from "node:fs";
import { readRpcLog } from "../read.js";
import { parseRpcLine, type RpcMessage, type RpcRecord } from "../../src/records/rpc.js";
import type { InputFile } from "../../src/sources/input.js";
import { sample } from "../helpers.js";

const lineAll = (text: string, n = 1) =>
  parseRpcLine({ line: n, buf: Buffer.from(text), bytes: Buffer.byteLength(text), tooLong: false, unterminated: false }, "log");
/** The one record of a line that is no batch (null for a blank line). */
const line = (text: string, n = 1) => {
  const recs = lineAll(text, n);
  assert.ok(recs.length <= 1, text);
  return recs[0] ?? null;
};
const msg = (text: string) => {
  const r = line(text);
  assert.equal(r?.kind, "rpc", text);
  return r as RpcMessage;
};
async function readAll(text: string, chunk: number): Promise<RpcRecord[]> {
  const buf = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < buf.length; i += chunk) chunks.push(buf.subarray(i, i + chunk));
  const input: InputFile = { path: "-", kind: "rpc-log", bytes: 0, sha256: "" };
  const out: RpcRecord[] = [];
  out.push(...(await readRpcLog(input, { stdin: Readable.from(chunks) })));
  return out;
}

test("raw JSON-RPC: shape, and direction inferred from it", () => {
  const probe = msg(
    '{"jsonrpc":"2.0","id":"server-discover-probe-1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}',
  );
  assert.deepEqual(
    [probe.shape, probe.dir, probe.dirLogged, probe.source, probe.id, probe.method],
    ["request", "c2s", false, "raw", "server-discover-probe-1", "server/discover"],
  );
  const err = msg('{"jsonrpc":"2.0","id":"server-discover-probe-1","error":{"code":-32601,"message":"Method not found"}}');
  assert.deepEqual([err.shape, err.dir, err.method], ["error", "s2c", null]);
  assert.equal(msg('{"jsonrpc":"2.0","method":"notifications/initialized"}').shape, "notification");
  assert.equal(msg('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}').dir, "s2c");
  assert.equal(msg('{"jsonrpc":"2.0","id":7,"method":"roots/list"}').dir, "s2c");
});

test("lab summaries {t, method, id, _meta}: received messages, _meta moved under params", () => {
  const m = msg(
    '{"t":"2026-09-30T05:12:03.131Z","method":"server/discover","id":"server-discover-probe-1","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}',
  );
  assert.equal(m.source, "lab");
  assert.equal(m.dir, "c2s");
  assert.equal(m.time, "2026-09-30T05:12:03.131Z");
  assert.equal(m.ms, Date.parse("2026-09-30T05:12:03.131Z"));
  assert.deepEqual(m.message, {
    method: "server/discover",
    id: "server-discover-probe-1",
    params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
  });
  const n = msg('{"t":"2026-09-30T05:12:03.138Z","method":"notifications/initialized"}');
  assert.deepEqual([n.shape, n.id], ["notification", null]);
});

test("wrapper objects: time/dir/message keys, a message given as a JSON string, fields inline", () => {
  const a = msg(
    '{"ts":"2026-09-30T07:44:20.512Z","dir":"out","message":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}}',
  );
  assert.deepEqual([a.source, a.dir, a.dirLogged, a.shape, a.time], ["wrapper", "s2c", true, "result", "2026-09-30T07:44:20.512Z"]);
  const b = msg(
    '{"time":"2026-09-30T07:44:23.525Z","direction":"in","msg":"{\\"jsonrpc\\":\\"2.0\\",\\"method\\":\\"notifications/initialized\\"}"}',
  );
  assert.deepEqual([b.source, b.dir, b.method], ["wrapper", "c2s", "notifications/initialized"]);
  const c = msg('{"timestamp":"2026-09-30T07:44:23.527Z","dir":"in","jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}');
  assert.deepEqual([c.source, c.dir, c.method, c.id, c.time], ["wrapper", "c2s", "tools/list", 1, "2026-09-30T07:44:23.527Z"]);
  assert.deepEqual(c.message, { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
  const d = msg('{"timestamp":1790754263527,"direction":"server->client","data":{"jsonrpc":"2.0","id":1,"result":{}}}');
  assert.deepEqual([d.dir, d.time], ["s2c", "2026-09-30T07:44:23.527Z"]);
});

test("Claude Desktop mcp.log lines, with and without the metadata tail; other Desktop lines are noise", () => {
  const m = msg(
    '2026-09-30T10:03:41.134Z [lab] [info] Message from client: {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}} { metadata: undefined }',
  );
  assert.deepEqual([m.source, m.server, m.dir, m.method, m.time], ["desktop", "lab", "c2s", "initialize", "2026-09-30T10:03:41.134Z"]);
  assert.equal(msg('2026-09-30T10:03:41.139Z [lab] [info] Message from server: {"jsonrpc":"2.0","id":0,"result":{}}').dir, "s2c");
  assert.equal(line("2026-09-30T10:03:41.101Z [lab] [info] Initializing server...")?.kind, "noise");
});

test("-> / <- / Input: / Output: / [time] prefixes", () => {
  assert.deepEqual(
    [msg('-> {"jsonrpc":"2.0","id":1,"method":"initialize"}').dir, msg('<- {"jsonrpc":"2.0","id":1,"result":{}}').dir],
    ["c2s", "s2c"],
  );
  assert.equal(msg('Input: {"jsonrpc":"2.0","id":1,"method":"tools/list"}').dir, "c2s");
  assert.equal(msg('Output: {"jsonrpc":"2.0","id":1,"result":{}}').dir, "s2c");
  const t = msg('[2026-09-30T09:15:00.020Z] {"jsonrpc":"2.0","id":"server-discover-probe-1","method":"server/discover"}');
  assert.deepEqual([t.time, t.source, t.dirLogged], ["2026-09-30T09:15:00.020Z", "prefixed", false]);
});

test("noise, malformed, blank, per-server Claude Code log lines", () => {
  assert.deepEqual(line("lab server 0.0.1 listening on stdio"), {
    kind: "noise",
    pos: { file: "log", line: 1 },
    excerpt: "lab server 0.0.1 listening on stdio",
    head: "lab server 0.0.1 listening on stdio",
  });
  assert.equal(line('{"jsonrpc":"2.0","id":1,"resu')?.kind, "malformed");
  assert.equal(line('-> {"jsonrpc":')?.kind, "malformed");
  assert.equal(line("   "), null);
  assert.equal(line('{"config":{"debug":true}}')?.kind, "noise");
  assert.deepEqual(
    line('{"debug":"Successfully connected (transport: stdio) in 212ms","timestamp":"2026-09-30T08:30:12.616Z","sessionId":"s"}'),
    {
      kind: "client-log",
      pos: { file: "log", line: 1 },
      time: "2026-09-30T08:30:12.616Z",
      level: "debug",
      text: "Successfully connected (transport: stdio) in 212ms",
    },
  );
});

test("a batch line: each element is a message of its own, in order; an array of no messages stays one line of noise", () => {
  const b = lineAll(
    '[{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}},{"jsonrpc":"2.0","method":"notifications/initialized"}]',
    3,
  ) as RpcMessage[];
  assert.deepEqual(
    b.map((m) => [m.kind, m.method, m.id, m.shape, m.dir, m.source, m.pos.line]),
    [
      ["rpc", "initialize", 0, "request", "c2s", "raw", 3],
      ["rpc", "notifications/initialized", null, "notification", "c2s", "raw", 3],
    ],
  );
  const answers = lineAll(
    '<- [ {"jsonrpc":"2.0","id":0,"result":{}}, {"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}} ]',
  ) as RpcMessage[];
  assert.deepEqual(
    answers.map((m) => [m.shape, m.id, m.dir, m.dirLogged, m.source]),
    [
      ["result", 0, "s2c", true, "prefixed"],
      ["error", 1, "s2c", true, "prefixed"],
    ],
  );
  const wrapped = lineAll(
    '{"t":"2026-09-30T08:30:12.616Z","dir":"in","message":[{"jsonrpc":"2.0","id":2,"method":"tools/list"}]}',
  ) as RpcMessage[];
  assert.deepEqual(
    wrapped.map((m) => [m.method, m.time, m.dir, m.source]),
    [["tools/list", "2026-09-30T08:30:12.616Z", "c2s", "wrapper"]],
  );
  assert.equal(line('[{"level":"info"},{"level":"warn"}]')?.kind, "noise");
  assert.equal(line("[1,2,3]")?.kind, "noise");
  assert.equal(line("[]")?.kind, "noise");
});

test("every sample reads the same in chunks of 1, 7 and 4096 bytes, LF or CRLF", async () => {
  for (const f of ["dual-era-trap.mixed.log", "probe-timeout.wrapped.jsonl", "desktop-mcp-server-lab.log"]) {
    const text = readFileSync(sample("logs", "rpc", f), "utf8");
    const want = await readAll(text, 4096);
    for (const size of [1, 7]) assert.deepEqual(await readAll(text, size), want, `${f} @${size}`);
    assert.deepEqual(await readAll(text.replace(/\n/g, "\r\n"), 7), want, `${f} CRLF`);
  }
});
