import { test } from "node:test";
import assert from "node:assert/strict";
import { rpcAnalysis, type RpcResult } from "../../src/analyses/rpc.js";
import { readRpcLog } from "../read.js";
import { sample } from "../helpers.js";

async function classify(...p: string[]): Promise<RpcResult> {
  const s = rpcAnalysis.init();
  for (const r of await readRpcLog({ path: sample("logs", ...p), kind: "rpc-log", bytes: 0, sha256: "" })) rpcAnalysis.step(s, r);
  return rpcAnalysis.finish(s);
}

test("legacy fallback, received-only lab log of two runs: probe failed (inferred), initialize 5 ms and 1,107 ms after it", async () => {
  const r = await classify("rpc", "legacy-fallback.lab.jsonl");
  assert.equal(r.messages, 8);
  assert.deepEqual(r.methods, [
    "server/discover",
    "initialize",
    "notifications/initialized",
    "tools/list",
    "server/discover",
    "initialize",
    "notifications/initialized",
    "tools/list",
  ]);
  assert.equal(r.firstMethod, "server/discover");
  assert.equal(r.era, "legacy");
  assert.deepEqual(r.probe, {
    id: "server-discover-probe-1",
    protocolVersion: null,
    clientName: null,
    clientVersion: null,
    answered: "none",
    errorCode: null,
  });
  assert.deepEqual(r.initialize, { protocolVersion: null, msAfterProbe: 5 });
  assert.equal(r.probeOutcome, "inferred-failed");
  assert.equal(r.responsesLogged, false);
  assert.equal(r.handshakes.length, 2);
  const second = r.handshakes[1]!;
  assert.equal(second.probe!.protocolVersion, "2026-07-28");
  assert.equal(second.probe!.clientName, "claude-code");
  assert.equal(second.probe!.clientVersion, "2.1.285");
  assert.equal(second.initialize!.msAfterProbe, 1107);
  assert.equal(second.era, "legacy");
  assert.deepEqual(r.sources, { lab: 8 });
  assert.match(r.warnings.join("\n"), /only received messages are logged/);
});

test("modern dual-era success: DiscoverResult carries the instructions, no initialize", async () => {
  const r = await classify("rpc", "modern-dual-era.raw.jsonl");
  assert.equal(r.era, "modern");
  assert.deepEqual(r.probe, {
    id: "server-discover-probe-1",
    protocolVersion: "2026-07-28",
    clientName: "claude-code",
    clientVersion: "2.1.285",
    answered: "result",
    errorCode: null,
  });
  assert.equal(r.initialize, null);
  assert.equal(r.handshakes[0]!.modernRequests, 1);
  assert.deepEqual(r.instructions, [
    { handshake: 1, method: "server/discover", id: "server-discover-probe-1", line: 2, chars: 1000, utf8Bytes: 1000, server: "lab" },
  ]);
  assert.deepEqual(r.warnings, []);
});

test("probe never answered: unanswered, initialize 3,004 ms later, its answer carries the instructions", async () => {
  const r = await classify("rpc", "probe-timeout.wrapped.jsonl");
  assert.equal(r.era, "legacy");
  assert.equal(r.probe!.answered, "none");
  assert.equal(r.probeOutcome, "unanswered");
  assert.deepEqual(r.initialize, { protocolVersion: "2025-11-25", msAfterProbe: 3004 });
  assert.deepEqual(
    r.instructions.map((c) => [c.method, c.chars, c.line]),
    [["initialize", 1000, 4]],
  );
  assert.deepEqual(r.methods, ["server/discover", "notifications/message", "initialize", "notifications/initialized", "tools/list"]);
  assert.deepEqual(r.sources, { wrapper: 7 });
});

test("legacy -32601 answer logged: probe answered with an error code", async () => {
  const s = rpcAnalysis.init();
  const lines = [
    '{"jsonrpc":"2.0","id":"server-discover-probe-1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"claude-code","version":"2.1.285"}}}}',
    '{"jsonrpc":"2.0","id":"server-discover-probe-1","error":{"code":-32601,"message":"Method not found"}}',
    '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"claude-code","version":"2.1.285"}}}',
  ];
  const { parseRpcLine } = await import("../../src/records/rpc.js");
  lines.forEach((l, i) =>
    parseRpcLine({ line: i + 1, buf: Buffer.from(l), bytes: l.length, tooLong: false, unterminated: false }, "x").forEach((rec) =>
      rpcAnalysis.step(s, rec),
    ),
  );
  const r = rpcAnalysis.finish(s);
  assert.deepEqual([r.probe!.answered, r.probe!.errorCode, r.probeOutcome, r.era], ["error", -32601, "error", "legacy"]);
  assert.deepEqual(r.initialize, { protocolVersion: "2025-11-25", msAfterProbe: null });
});

test("dual-era trap: initialize answer had instructions, the modern DiscoverResult had none", async () => {
  const r = await classify("rpc", "dual-era-trap.mixed.log");
  assert.equal(r.noise, 3);
  assert.equal(r.handshakes.length, 2);
  assert.equal(r.handshakes[0]!.firstMethod, "initialize");
  assert.equal(r.firstMethod, "server/discover", "the handshake with the probe is the one reported");
  assert.equal(r.era, "modern");
  assert.equal(r.probe!.answered, "result");
  assert.deepEqual(
    r.instructions.map((c) => [c.handshake, c.method, c.chars]),
    [[1, "initialize", 1000]],
  );
  // The manual initialize check only shook hands: a probe connection, and a second client of another era.
  assert.equal(r.handshake, 2);
  assert.deepEqual(r.probeConnections, [{ handshake: 1, line: 2, methods: ["initialize"] }]);
  assert.deepEqual(r.mixedHandshakes?.clients, ["manual-check 0", "claude-code 2.1.285"]);
  assert.equal(r.warnings.length, 3);
  assert.match(r.warnings[0]!, /^1 probe connection that only shook hands \(handshake 1: initialize\)/);
  assert.match(r.warnings[1]!, /^mixed handshakes: .*clients manual-check 0, claude-code 2\.1\.285\)/);
  assert.match(r.warnings[2]!, /^dual-era trap \(handshake 2\).*line 3 carried 1,000 chars/);
});

test("Claude Desktop log: its own legacy initialize, no probe", async () => {
  const r = await classify("rpc", "desktop-mcp-server-lab.log");
  assert.equal(r.messages, 5);
  assert.equal(r.noise, 3);
  assert.equal(r.probe, null);
  assert.equal(r.era, "legacy");
  assert.deepEqual(r.initialize, { protocolVersion: "2025-06-18", msAfterProbe: null });
  assert.equal(r.handshakes[0]!.initialize!.clientName, "claude-ai");
});

test("Claude Code per-server log: no frames, era from its capabilities line", async () => {
  const r = await classify("claude-cache", "-Users-lab-runs-empty", "mcp-logs-lab", "2026-09-30T08-30-12-404Z.jsonl");
  assert.equal(r.messages, 0);
  assert.equal(r.era, "modern");
  assert.deepEqual(r.clientLog, {
    entries: 6,
    protocolEra: "modern",
    negotiatedProtocolVersion: "2026-07-28",
    connectMs: 212,
    transport: "stdio",
  });
});
