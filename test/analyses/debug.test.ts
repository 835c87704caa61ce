import { test } from "node:test";
import assert from "node:assert/strict";
import { debugAnalysis, type DebugResult } from "../../src/analyses/debug.js";
import { readDebugLog } from "../read.js";
import { sample } from "../helpers.js";

async function analyse(...p: string[]): Promise<DebugResult> {
  const s = debugAnalysis.init();
  for (const r of await readDebugLog({ path: sample("logs", ...p), kind: "debug-log", bytes: 0, sha256: "" })) debugAnalysis.step(s, r);
  return debugAnalysis.finish(s);
}

test("legacy era with truncated instructions; v2 runtime arm from growthbook is flagged", async () => {
  const r = await analyse("debug", "legacy-truncated.debug.txt");
  assert.equal(r.entries, 14);
  assert.equal(r.runtimeArm, "v2");
  assert.equal(r.runtimeArmSource, "growthbook");
  assert.equal(r.countTokensCalls, 0);
  assert.equal(r.apiRequests, 2);
  assert.deepEqual(r.apiRequestSources, { sdk: 1, generate_session_title: 1 });
  assert.equal(r.servers.length, 1);
  const lab = r.servers[0]!;
  assert.deepEqual(
    { name: lab.name, connectMs: lab.connectMs, transport: lab.transport, protocolEra: lab.protocolEra, negotiatedProtocolVersion: lab.negotiatedProtocolVersion, from: lab.instructionsTruncatedFrom, to: lab.instructionsTruncatedTo },
    { name: "lab", connectMs: 284, transport: "stdio", protocolEra: "legacy", negotiatedProtocolVersion: "2025-11-25", from: 20000, to: 2048 },
  );
  assert.deepEqual(lab.serverVersion, { name: "lab", version: "0.0.1" });
  assert.equal(lab.status, "connected");
  assert.equal(lab.lateByMs, null);
  assert.equal(lab.closed, "STDIO connection closed after 6s (cleanly)");
  assert.equal(r.flags.length, 2);
  assert.match(r.flags[0]!, /^mcp runtime arm v2 with no opt-in variable \(source: growthbook\)/);
  assert.match(r.flags[1]!, /instructions truncated from 20000 to 2048/);
  assert.equal(r.events[0]!.kind, "startup");
  assert.equal(r.events[13]!.offsetMs, 6761);
});

test("modern era: protocolEra modern, negotiated 2026-07-28", async () => {
  const r = await analyse("debug", "modern.debug.txt");
  assert.deepEqual([r.servers[0]!.protocolEra, r.servers[0]!.negotiatedProtocolVersion, r.servers[0]!.connectMs], ["modern", "2026-07-28", 212]);
  assert.equal(r.servers[0]!.instructionsTruncatedFrom, null);
});

test("late server: connected 7,514 ms after request 1 went out", async () => {
  const r = await analyse("debug", "late-server.debug.txt");
  const lab = r.servers[0]!;
  assert.equal(lab.connectMs, 8312);
  assert.equal(lab.lateByMs, 8323 - 809);
  assert.ok(r.flags.some((f) => f.startsWith('server "lab" connected 7514 ms after the first API request')));
});

test("large output: count_tokens after the tool call, then the persisted file", async () => {
  const r = await analyse("debug", "large-output.debug.txt");
  assert.equal(r.countTokensCalls, 1);
  assert.deepEqual(r.persisted.map((p) => [p.size, p.bytes, p.line]), [["51.7KB", 52941, 9]]);
  assert.match(r.persisted[0]!.path, /tool-results\/toolu_01Xf7Kq2mP9sR4tV6wY8zA3b\.json$/);
  const big = r.servers[0]!;
  assert.deepEqual([big.toolCalls, big.toolsDone, big.toolMs], [1, 1, 41]);
  const kinds = r.events.map((e) => e.kind);
  assert.ok(kinds.indexOf("mcp-tool-done") < kinds.lastIndexOf("api-request"));
  assert.equal(r.events.find((e) => e.kind === "api-request" && e.text.includes("count_tokens"))!.line, 8);
});

test("pasted log: no times, multi-line capabilities, an error without colon, a failed server, budget line", async () => {
  const r = await analyse("debug", "pasted-crlf.debug.txt");
  assert.equal(r.entries, 11);
  assert.equal(r.firstTime, null);
  assert.deepEqual([r.runtimeArm, r.runtimeArmSource], ["v1", "default"]);
  const [filewatch, github] = r.servers;
  assert.deepEqual([filewatch!.name, filewatch!.status, filewatch!.connectMs, filewatch!.transport], ["filewatch", "connected", 24, "stdio"]);
  assert.deepEqual(filewatch!.serverVersion, { name: "filewatch", version: "0.0.1" });
  assert.deepEqual([github!.name, github!.status, github!.errors], ["github", "failed", 2]);
  assert.deepEqual(r.perMessageBudget.map((b) => [b.persisted, b.messages, b.shed, b.reapplied]), [[2, 1, "96.4KB", 0]]);
  assert.deepEqual(r.levels, { DEBUG: 7, ERROR: 3, WARN: 1 });
  assert.ok(!r.flags.some((f) => f.includes("runtime arm")), "v1 is not flagged");
  const stringified = r.events.find((e) => e.text.startsWith("Failed to refresh marketplace"));
  assert.equal(stringified!.text, "Failed to refresh marketplace claude-plugins-official: fetch failed\n    at node:internal/deps/undici/undici:13502:13");
});
