/**
 * The handshake classification, fed records directly (review L: F2 servers of a Desktop log, F3 no message at all,
 * F11 a notification before the first handshake). The CLI side is in test/cli/rpc-log-shapes.test.ts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rpcAnalysisOf, type RpcResult } from "../../src/analyses/rpc.js";
import { parseRpcLine } from "../../src/records/rpc.js";

function classifyLines(lines: string[]): RpcResult {
  const a = rpcAnalysisOf();
  const s = a.init();
  lines.forEach((text, i) => {
    const buf = Buffer.from(text);
    for (const r of parseRpcLine({ line: i + 1, buf, bytes: buf.length, tooLong: false, unterminated: false }, "log")) a.step(s, r);
  });
  return a.finish(s);
}

const d = (ms: number, server: string, from: "client" | "server", m: object) =>
  `${new Date(Date.UTC(2026, 8, 30, 10, 0, 0) + ms).toISOString()} [${server}] [info] Message from ${from}: ${JSON.stringify(m)}`;
const init = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", clientInfo: { name: "claude-ai" } } };
const answer = (instructions?: string) => ({
  jsonrpc: "2.0",
  id: 0,
  result: { protocolVersion: "2025-06-18", capabilities: {}, ...(instructions ? { instructions } : {}) },
});

test("F2: response ids are matched within a server: the same id 0 from another server answers nothing of this one's", () => {
  const r = classifyLines([
    d(0, "a", "client", init),
    d(1, "b", "client", init),
    // Only b answers: a's initialize stays unanswered, though an id 0 answer is logged.
    d(2, "b", "server", answer("B")),
    d(3, "a", "client", { jsonrpc: "2.0", id: 1, method: "tools/list" }),
    d(4, "b", "client", { jsonrpc: "2.0", id: 1, method: "tools/list" }),
  ]);
  assert.deepEqual(
    r.handshakes.map((h) => [h.index, h.server, h.initialize?.answered, h.initialize?.instructionsChars, h.probeConnection]),
    [
      [1, "a", "none", null, false],
      [2, "b", "result", 1, false],
    ],
  );
  assert.deepEqual(
    r.instructions.map((c) => [c.handshake, c.line]),
    [[2, 3]],
  );
  assert.deepEqual(
    r.servers.map((s) => [s.name, s.handshakes, s.instructionLines]),
    [
      ["a", [1], []],
      ["b", [2], [3]],
    ],
  );
});

test("F2: a log that names no server is one group, as before: no servers, no server on the handshakes", () => {
  const r = classifyLines([
    JSON.stringify(init),
    JSON.stringify(answer()),
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  ]);
  assert.deepEqual(r.servers, []);
  assert.equal(r.server, null);
  assert.deepEqual(
    r.handshakes.map((h) => [h.index, h.server, h.initialize?.answered]),
    [[1, null, "result"]],
  );
});

test("F3: no message in any line: unrecognised says how many lines and what kind of file they look like", () => {
  const stream = classifyLines([
    JSON.stringify({ type: "system", subtype: "init", session_id: "s", tools: [] }),
    JSON.stringify({ type: "result", subtype: "success", total_cost_usd: 0.1, session_id: "s" }),
    "",
  ]);
  assert.deepEqual(stream.unrecognised, { lines: 2, looksLike: "stream-json" });
  assert.match(stream.warnings[0]!, /^no JSON-RPC message recognised in 2 lines; it looks like claude -p output/);
  const transcript = classifyLines([
    JSON.stringify({ type: "summary", summary: "x" }),
    JSON.stringify({ parentUuid: null, isSidechain: false, type: "user", sessionId: "s" }),
  ]);
  assert.deepEqual(transcript.unrecognised, { lines: 2, looksLike: "transcript" });
  // A pretty-printed `claude -p --output-format json`: its lone `{` is malformed here, its lines are read together.
  const pretty = JSON.stringify({ type: "result", subtype: "success", total_cost_usd: 0.1, session_id: "s" }, null, 2).split("\n");
  assert.deepEqual(classifyLines(pretty).unrecognised, { lines: pretty.length, looksLike: "stream-json" });
  // Malformed lines count too; text that looks like nothing known names no kind.
  assert.deepEqual(classifyLines(["hello", '-> {"jsonrpc":']).unrecognised, { lines: 2, looksLike: null });
  // One message anywhere, or nothing but blank lines: not said.
  assert.equal(classifyLines(["hello", JSON.stringify(init)]).unrecognised, null);
  assert.equal(classifyLines(["", "  "]).unrecognised, null);
});

test("F11: notifications and responses before a server's first handshake open no connection of their own", () => {
  const probe = { jsonrpc: "2.0", id: "server-discover-probe-1", method: "server/discover", params: {} };
  const r = classifyLines([
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } }),
    JSON.stringify({ jsonrpc: "2.0", id: 7, result: {} }),
    JSON.stringify(probe),
    JSON.stringify({ jsonrpc: "2.0", id: "server-discover-probe-1", error: { code: -32601, message: "nope" } }),
    JSON.stringify(init),
  ]);
  assert.deepEqual(
    r.handshakes.map((h) => [h.index, h.firstMethod, h.messages, h.style]),
    [[1, "server/discover", 5, "discover-then-initialize"]],
  );
  // A request before the handshake still opens one (a tap started mid-connection), as before.
  const mid = classifyLines([JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }), JSON.stringify(probe)]);
  assert.deepEqual(
    mid.handshakes.map((h) => [h.index, h.firstMethod]),
    [
      [1, "tools/list"],
      [2, "server/discover"],
    ],
  );
});

test("a Desktop log of 40,000 servers, each with instructions, is summarised in linear time (each server's lines were once looked for among every carrier)", () => {
  const n = 40_000;
  const a = rpcAnalysisOf();
  const s = a.init();
  for (let i = 0; i < n; i++) {
    for (const [k, text] of [d(0, `s${i}`, "client", init), d(1, `s${i}`, "server", answer(`I${i}`))].entries()) {
      const buf = Buffer.from(text);
      for (const r of parseRpcLine({ line: i * 2 + k + 1, buf, bytes: buf.length, tooLong: false, unterminated: false }, "log"))
        a.step(s, r);
    }
  }
  const t0 = performance.now();
  const r = a.finish(s);
  const ms = performance.now() - t0;
  assert.equal(r.servers.length, n);
  assert.equal(r.instructions.length, n);
  assert.deepEqual(r.servers[n - 1]!.instructionLines, [n * 2]);
  assert.ok(
    r.servers.every((srv, i) => srv.instructionLines.length === 1 && srv.instructionLines[0] === i * 2 + 2),
    "each server keeps its own carrier's line",
  );
  // Quadratic took over 10 s here; linear takes well under 1 s. The bound leaves room for a loaded machine.
  assert.ok(ms < 4000, `finish took ${Math.round(ms)} ms for ${n} servers`);
});
