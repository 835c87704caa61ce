import { test } from "node:test";
import assert from "node:assert/strict";
import { golden, parseEnvelope, runCli, sample } from "../helpers.js";

const HOME = sample("claude-home");
const DEMO = [
  "c0ffee00",
  "--claude-dir",
  "samples/claude-home",
  "--rpc-log",
  "samples/demo/rpc-log.jsonl",
  "--stream-json",
  "samples/demo/claude-p.stream.jsonl",
];

test("report: every section of the demo session, read once each, figures from the raw files", async () => {
  const j = parseEnvelope(await runCli(["report", ...DEMO, "--json"]), "report");
  for (const k of ["summary", "requests", "totals", "instructions", "toolResults", "debug", "rpc", "run", "inventory"])
    assert.ok(k in j, `section ${k} missing`);
  assert.deepEqual(
    j.requests.map((r: any) => r.totalInputTokens),
    [21046, 22058, 23162, 23571],
  );
  assert.deepEqual(
    j.requests.map((r: any) => r.deltaTokens),
    [null, 1012, 1104, 409],
  );
  const lab = j.instructions.find((i: any) => i.server === "lab");
  assert.deepEqual([lab.chars, lab.keptChars, lab.sourceChars, lab.truncated, lab.requestIndex], [2061, 2048, 5000, true, 1]);
  assert.deepEqual(lab.probe && [lab.probe.begin, lab.probe.end, lab.probe.lastMarker], ["SWALLOW-7421", null, 2009]);
  assert.deepEqual(
    j.toolResults.map((r: any) => r.check),
    ["size", "token", "inline"],
  );
  assert.equal(j.toolResults[0].reportedSize, "51.7KB");
  assert.equal(j.toolResults[0].savedExists, true);
  assert.equal(j.debug.runtimeArm, "v2");
  assert.equal(j.debug.countTokensCalls, 2);
  assert.equal(j.rpc.firstMethod, "server/discover");
  assert.equal(j.rpc.era, "legacy");
  assert.equal(j.run.result.totalCostUsd ?? j.run.result.costUsd ?? j.summary.costUsd, j.summary.costUsd);
  assert.equal(j.summary.firstRequestTokens, 21046);
  assert.equal(j.summary.costUsd, 0.203802);
  const kinds = j.inputs.map((i: any) => i.kind).sort();
  assert.deepEqual(kinds, ["debug-log", "rpc-log", "stream-json", "tool-result", "tool-result", "transcript"]);
  assert.equal(new Set(j.inputs.map((i: any) => `${i.kind}:${i.path}`)).size, j.inputs.length, "each input listed once");
});

test("report: the session named in a claude -p output is found without a target", async () => {
  const j = parseEnvelope(
    await runCli(["report", "--claude-dir", HOME, "--stream-json", "samples/demo/claude-p.stream.jsonl", "--json"]),
    "report",
  );
  assert.equal(j.summary.sessionId, "c0ffee00-1111-4222-8333-444444444444");
});

test("report: sections without evidence are null or empty, never missing", async () => {
  const j = parseEnvelope(await runCli(["report", sample("basic", "11111111-2222-4333-8444-555555555555.jsonl"), "--json"]), "report");
  assert.equal(j.debug, null);
  assert.equal(j.rpc, null);
  assert.equal(j.run, null);
  assert.deepEqual(j.instructions, []);
  assert.equal(j.requests.length, 4);
  assert.equal(j.systemPrompt, null);
  assert.ok(Array.isArray(j.tools));
});

test("report: markdown is a write-up appendix with a heading per section", async () => {
  const r = await runCli(["report", ...DEMO, "--format", "markdown"]);
  assert.equal(r.code, 0, r.stderr);
  for (const h of [
    "## Session report — c0ffee00-1111-4222-8333-444444444444",
    "### Summary",
    "### Requests",
    "### MCP server instructions",
    "### Tool definitions",
    "### Tool outputs",
    "### Debug log",
    "### MCP message log",
    "### claude -p run",
    // Parse health found nothing to list: its one line is in the Evidence list, not an empty section.
    "### Evidence",
  ]) {
    assert.ok(r.stdout.includes(`\n${h}\n`) || r.stdout.startsWith(`${h}\n`), `missing heading ${h}`);
  }
  assert.doesNotMatch(r.stdout, /### Parse health|_\(none\)_/);
  assert.match(r.stdout, /\nParse health: 36 lines, 36 records, 0 blank, 0 malformed, 0 of an unknown type\.\n$/);
  golden("demo/report.md", r.stdout);
});

test("report --redact: no home path or full id in the demo report", async () => {
  for (const format of ["markdown", "json"]) {
    const r = await runCli(["report", ...DEMO, "--redact", "--format", format]);
    assert.equal(r.code, 0);
    assert.ok(
      !/\/home\/dev|c0ffee00-1111-4222-8333-444444444444|toolu_01DemoBigSizeCheck0001/.test(r.stdout.replace(/"sha256": "[0-9a-f]+"/g, "")),
      `${format}: something survived`,
    );
  }
});

test("report reads the message log once for both the handshake and the tools' maxResultSizeChars", async () => {
  const j = parseEnvelope(
    await runCli([
      "report",
      "5e1c0a52-0003-4000-8000-a00000066000",
      "--claude-dir",
      "samples/outputs/staircase/claude",
      "--rpc-log",
      "samples/outputs/staircase/rpc-tap.jsonl",
      "--json",
    ]),
    "report",
  );
  const r = j.toolResults[0];
  assert.equal(r.tool, "mcp__big__emit_text_annotated");
  assert.equal(r.maxResultSizeChars, 300000);
  assert.equal(r.check, "inline");
  assert.equal(j.inputs.filter((i: any) => i.kind === "rpc-log").length, 1);
  assert.ok(j.rpc.messages > 0);
});
