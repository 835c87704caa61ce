/**
 * Taps that put more than one prefix before the message (`[time] ->`, `[time] Input:`, a bare ISO time, `STDIN:`):
 * FORMATS.md 9.5 says parse from the first `{` to the end of the line. These lines once read as noise, all of them.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseRpcLine, type RpcMessage } from "../../src/records/rpc.js";

const recs = (text: string | Buffer) => {
  const buf = typeof text === "string" ? Buffer.from(text) : text;
  return parseRpcLine({ line: 1, buf, bytes: buf.length, tooLong: false, unterminated: false }, "log");
};
const one = (text: string | Buffer) => {
  const r = recs(text);
  assert.equal(r.length, 1, String(text));
  return r[0]!;
};
const msg = (text: string | Buffer) => {
  const r = one(text);
  assert.equal(r.kind, "rpc", `${String(text)} → ${JSON.stringify(r)}`);
  return r as RpcMessage;
};
const facts = (m: RpcMessage) => [m.time, m.dir, m.dirLogged, m.source, m.method, m.id];

const T = "2026-09-30T09:15:00.020Z";
const REQ = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}';
const RES = '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}';

test("a [time] then a direction word or arrow: time and direction both read", () => {
  assert.deepEqual(facts(msg(`[${T}] Input: ${REQ}`)), [T, "c2s", true, "prefixed", "initialize", 0]);
  assert.deepEqual(facts(msg(`[${T}] Output: ${RES}`)), [T, "s2c", true, "prefixed", null, 0]);
  assert.deepEqual(facts(msg(`[${T}] -> ${REQ}`)), [T, "c2s", true, "prefixed", "initialize", 0]);
  assert.deepEqual(facts(msg(`[${T}] <- ${RES}`)), [T, "s2c", true, "prefixed", null, 0]);
  // The other order, and no space before the message.
  assert.deepEqual(facts(msg(`-> [${T}]${REQ}`)), [T, "c2s", true, "prefixed", "initialize", 0]);
});

test("a bare ISO time before the message, with or without a direction", () => {
  assert.deepEqual(facts(msg(`${T} ${REQ}`)), [T, "c2s", false, "prefixed", "initialize", 0]);
  assert.deepEqual(facts(msg(`${T} <- ${RES}`)), [T, "s2c", true, "prefixed", null, 0]);
  assert.deepEqual(facts(msg(`2026-09-30 09:15:00.020 Output: ${RES}`)).slice(1), ["s2c", true, "prefixed", null, 0]);
});

test("a word the reader does not know before the message: taken when it is JSON-RPC; STDIN/STDOUT give the direction", () => {
  assert.deepEqual(facts(msg(`STDIN: ${REQ}`)), [null, "c2s", true, "prefixed", "initialize", 0]);
  assert.deepEqual(facts(msg(`STDOUT: ${RES}`)), [null, "s2c", true, "prefixed", null, 0]);
  // Unknown words say no direction: it comes from the shape, and the record says the log did not give it.
  assert.deepEqual(facts(msg(`[${T}] [tap:lab] relay ${RES}`)), [T, "s2c", false, "prefixed", null, 0]);
  // `[time] [level] text {…}` that is no JSON-RPC stays noise (a debug line with JSON in it), as does text with a brace.
  assert.equal(one(`${T} [DEBUG] config loaded {"a":1}`).kind, "noise");
  assert.equal(one(`error: cannot parse {"jsonrpc":"2.0", truncated`).kind, "noise");
  assert.equal(one("Server listening on port 3000 {ready}").kind, "noise");
});

test("a batch after two prefixes: one record per message, with the line's time and direction", () => {
  const r = recs(`[${T}] -> [${REQ},{"jsonrpc":"2.0","method":"notifications/initialized"}]`) as RpcMessage[];
  assert.deepEqual(
    r.map((m) => [m.kind, m.time, m.dir, m.method]),
    [
      ["rpc", T, "c2s", "initialize"],
      ["rpc", T, "c2s", "notifications/initialized"],
    ],
  );
});

test("a BOM, CRLF, NUL runs and bytes that are not UTF-8 around a two-prefix line are handled as on other lines", () => {
  assert.deepEqual(facts(msg(`\uFEFF[${T}] Input: ${REQ}\r`)), [T, "c2s", true, "prefixed", "initialize", 0]);
  // A crash's NUL run at the start, as on raw lines.
  assert.equal(msg(Buffer.concat([Buffer.alloc(8), Buffer.from(`[${T}] -> ${REQ}`)])).method, "initialize");
  // NULs inside the line: malformed, as before.
  assert.equal(one(`[${T}] -> {"jsonrpc":"2.0","id":0,\u0000"method":"x"}`).kind, "malformed");
  // Invalid UTF-8 in the prefix: the message still reads.
  assert.equal(msg(Buffer.concat([Buffer.from([0xff, 0xfe, 0x20]), Buffer.from(`-> ${REQ}`)])).method, "initialize");
});

test("what single prefixes read as before is unchanged", () => {
  assert.deepEqual(facts(msg(`[${T}] ${REQ}`)), [T, "c2s", false, "prefixed", "initialize", 0]);
  assert.deepEqual(facts(msg(`Input: ${REQ}`)), [null, "c2s", true, "prefixed", "initialize", 0]);
  assert.deepEqual(facts(msg(`<- ${RES}`)), [null, "s2c", true, "prefixed", null, 0]);
  assert.equal(one(`-> {not json`).kind, "malformed");
  assert.equal(one("plain stderr chatter").kind, "noise");
});

test("hostile prefixes read in linear time: a megabyte of brackets, arrows, times and braces", () => {
  const n = 1 << 20;
  const shapes = [
    "[".repeat(n) + REQ,
    "[ ".repeat(n / 2) + "{",
    `${"-> ".repeat(n / 3)}${REQ}`,
    `${`[${T}] `.repeat(n / 28)}${REQ}`,
    `${"2026-09-30T09:15:00.0".repeat(n / 21)} ${REQ}`,
    `${"a".repeat(n)}{"jsonrpc":"2.0"${" ".repeat(n)}`,
    `${"x{".repeat(n / 2)}`,
  ];
  for (const s of shapes) {
    const t0 = performance.now();
    recs(s);
    const ms = performance.now() - t0;
    assert.ok(ms < 2000, `${s.slice(0, 20)}…: ${ms.toFixed(0)} ms`);
  }
});
