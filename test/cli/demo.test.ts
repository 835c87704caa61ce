import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli, sample } from "../helpers.js";

const DEMO_ID = "c0ffee00-1111-4222-8333-444444444444";

async function inEmptyDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "ccf-demo-"));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("demo: the report on the package's own evidence, from any cwd, with no warning and one next-step line", async () => {
  const r = await inEmptyDir((cwd) => runCli(["demo"], { cwd }));
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stdout.startsWith(`Session report — ${DEMO_ID}\n`), r.stdout.slice(0, 200));
  for (const title of ["Tool annotations (tools/list _meta)", "Handshake", "Parse health"])
    assert.ok(r.stdout.includes(title), `missing ${title}`);
  assert.equal(
    r.stderr,
    `next: ccforensics sessions to list your own sessions, then ccforensics report <id>; this demo's requests alone: ccforensics requests c0ffee00 --claude-dir ${sample("claude-home")}\n`,
  );
});

test("demo --json is report on the same files under its own command name, the big server's tools/list included", async () => {
  const demo = parseEnvelope(await inEmptyDir((cwd) => runCli(["demo", "--json"], { cwd })), "demo");
  const report = parseEnvelope(
    await runCli([
      "report",
      DEMO_ID,
      "--claude-dir",
      sample("claude-home"),
      "--rpc-log",
      sample("demo", "rpc-log.jsonl"),
      "--stream-json",
      sample("demo", "claude-p.stream.jsonl"),
      "--tools",
      sample("demo", "big-tools-list.json"),
      "--json",
    ]),
    "report",
  );
  // The envelope names the command run (CONTRACT.md, every command); everything else is report's.
  assert.deepEqual({ ...demo, command: "report" }, report);
  assert.equal(demo.summary.toolsList, sample("demo", "big-tools-list.json"));
  assert.deepEqual(
    demo.toolResults.map((t: any) => [t.tool, t.check, t.annotated]),
    [
      ["mcp__big__emit_text", "size", false],
      ["mcp__big__emit_text", "token", false],
      ["Read", "inline", null],
    ],
  );
  assert.equal(demo.inputs.length, 7);
});

test("demo: the lab log goes both ways, so the probe's -32601, initialize's version and the gap are read, not inferred", async () => {
  const j = parseEnvelope(await inEmptyDir((cwd) => runCli(["demo", "--json"], { cwd })), "demo");
  assert.deepEqual(j.rpc.probe, {
    id: "server-discover-probe-1",
    protocolVersion: "2026-07-28",
    clientName: "claude-code",
    clientVersion: "2.1.285",
    answered: "error",
    errorCode: -32601,
  });
  assert.deepEqual(j.rpc.initialize, { protocolVersion: "2025-11-25", msAfterProbe: 37 });
  assert.equal(j.rpc.probeOutcome, "error");
  assert.deepEqual(j.rpc.warnings, []);
  // The same 5,000 chars in the message log, the debug log's truncation line and the transcript's row.
  assert.deepEqual(
    j.rpc.instructions.map((c: any) => [c.method, c.chars]),
    [["initialize", 5000]],
  );
  const lab = j.instructions.find((r: any) => r.server === "lab");
  assert.deepEqual([lab.sourceChars, lab.debugLog.from, lab.keptChars, lab.chars], [5000, 5000, 2048, 2061]);
});

test("demo takes the report's format options and refuses evidence flags and targets (exit 2)", async () => {
  const md = await runCli(["demo", "--format", "markdown"]);
  assert.equal(md.code, 0, md.stderr);
  assert.ok(md.stdout.startsWith(`## Session report — ${DEMO_ID}`));
  const red = await runCli(["demo", "--redact", "--format", "csv"]);
  assert.equal(red.code, 0, red.stderr);
  assert.ok(!red.stdout.includes(DEMO_ID));
  for (const args of [
    ["--claude-dir", "x"],
    ["--rpc-log", "x"],
    ["--stream-json", "x"],
    ["--debug-file", "x"],
    ["--baseline", "x"],
    [DEMO_ID],
    ["--tools", "x"],
  ]) {
    const r = await runCli(["demo", ...args]);
    assert.equal(r.code, 2, `demo ${args.join(" ")}: ${r.stderr}`);
    assert.equal(r.stdout, "");
  }
});

test("report --tools: annotations from a tools/list file; a file with no tools is named on stderr", async () => {
  const base = ["report", DEMO_ID, "--claude-dir", "samples/claude-home", "--rpc-log", "samples/demo/rpc-log.jsonl"];
  // A received-only lab log (the old format) has no tools/list answer to take annotations from.
  const received = ["report", DEMO_ID, "--claude-dir", "samples/claude-home", "--rpc-log", "samples/logs/rpc/legacy-fallback.lab.jsonl"];
  const warned = await runCli(received);
  assert.match(warned.stderr, /legacy-fallback\.lab\.jsonl: no tools\/list response/);
  const given = await runCli([...base, "--tools", "samples/demo/big-tools-list.json"]);
  assert.equal(given.code, 0, given.stderr);
  assert.equal(given.stderr, "");
  const empty = await runCli([...base, "--tools", "samples/logs/rpc/legacy-fallback.lab.jsonl"]);
  assert.equal(empty.code, 0, empty.stderr);
  assert.match(empty.stderr, /legacy-fallback\.lab\.jsonl: no tools found \(expected a tools\/list response\)/);
  const missing = await runCli([...base, "--tools", "samples/demo/nope.json"]);
  assert.equal(missing.code, 2, missing.stderr);
});

test("report: each count_tokens request with the tool result in flight (the tool's own size), not a claimed cause", async () => {
  const j = parseEnvelope(await inEmptyDir((cwd) => runCli(["demo", "--json"], { cwd })), "demo");
  assert.deepEqual(
    j.debug.countTokens.map((c: any) => [c.before.kind, c.toolResult.tool, c.toolResult.chars]),
    [
      ["mcp-tool-done", "mcp__big__emit_text", 52000],
      ["mcp-tool-done", "mcp__big__emit_text", 66000],
    ],
  );
  assert.ok(
    j.debug.flags.includes("2 /v1/messages/count_tokens request(s): during a mcp__big__emit_text result (52,000 chars, 66,000 chars) ×2"),
  );
});
