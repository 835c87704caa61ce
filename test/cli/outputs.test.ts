import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { golden, parseEnvelope, runCli, sample } from "../helpers.js";

const STAIRS = sample("outputs", "staircase", "claude");
const id = (tail: string) => `5e1c0a52-0003-4000-8000-${tail}`;
const RUNS = [
  "000000030000",
  "000000045000",
  "000000052000",
  "000000062000",
  "000000066000",
  "000000070000",
  "c00000024000",
  "e50000066000",
  "e60000030000",
  "a00000066000",
  "a00000320000",
].map(id);

async function one(target: string, ...args: string[]) {
  const j = parseEnvelope(await runCli(["outputs", target, ...args, "--json"]), "outputs");
  assert.equal(j.toolResults.length >= 1, true);
  return j;
}

test("outputs: size check at 52,000 chars — preview, the .json content array found by name, 51.7KB, count_tokens and persist logged", async () => {
  const j = await one(id("000000052000"), "--claude-dir", STAIRS);
  const r = j.toolResults[0];
  assert.deepEqual(
    [r.tool, r.server, r.check, r.requestIndex, r.chars, r.fullChars],
    ["mcp__big__emit_text", "big", "size", 2, 2265, 52000],
  );
  assert.deepEqual(
    [r.reportedSize, r.savedFormat, r.savedExists, r.savedBytes, r.savedLines, r.savedNewlines, r.savedLongestLine],
    ["51.7KB", "json", true, 52925, 6, 5, 52893],
  );
  assert.match(r.savedPath, /^~\/\.claude\/projects\/.+\/tool-results\/toolu_[A-Za-z0-9]+\.json$/);
  assert.equal(r.reportedSizeMatchesFile, true);
  assert.deepEqual([r.deltaTokens, r.modelSaw, r.previewChars], [1027, "preview", 2000]);
  assert.deepEqual([r.countTokensConsulted, r.countTokensRequests, r.persistedLogged, r.persistedSize], [true, 1, true, "51.7KB"]);
  assert.deepEqual(
    j.inputs.map((i: any) => i.kind),
    ["transcript", "tool-result", "debug-log"],
  );
  assert.equal(j.inputs[1].bytes, 52925);
  assert.match(j.inputs[1].sha256, /^[0-9a-f]{64}$/);
});

test("outputs: token check at 66,000 chars — the path only, a plain-text .txt of 1,115 lines none over 67 chars", async () => {
  const r = (await one(id("000000066000"), "--claude-dir", STAIRS)).toolResults[0];
  assert.deepEqual(
    [r.check, r.variant, r.modelSaw, r.reportedChars, r.savedFormat, r.savedExists],
    ["token", "token-saved", "path", 66000, "text", true],
  );
  assert.match(
    r.savedPath,
    /^\/Users\/rulestack\/\.claude\/projects\/.+\/tool-results\/mcp-big-emit_text-\d{13}\.txt$/,
    "no sentence period",
  );
  assert.deepEqual([r.savedLines, r.savedLongestLine, r.savedBytes], [1115, 67, 66000]);
  assert.deepEqual([r.deltaTokens, r.countTokensConsulted, r.contentFormat], [1012, true, "Plain text"]);
});

test("outputs: 24,000 CJK chars went inline uncounted — 71,078 bytes, +49,964 tokens, no count_tokens", async () => {
  const r = (await one(id("c00000024000"), "--claude-dir", STAIRS)).toolResults[0];
  assert.deepEqual([r.check, r.chars, r.utf8Bytes, r.codePoints, r.deltaTokens], ["inline", 24000, 71078, 24000, 49964]);
  assert.deepEqual([r.countTokensConsulted, r.persistedLogged, r.savedPath], [false, false, null]);
  assert.equal(r.tokensPerChar.toFixed(2), "2.08");
});

test("outputs --tools: the annotated tool's 300,000-char limit explains 66,000 inline and 320,000 saved (317.8KB)", async () => {
  const tools = sample("outputs", "staircase", "tools-list.json");
  const j = parseEnvelope(
    await runCli([
      "outputs",
      id("a00000066000"),
      id("a00000320000"),
      id("000000066000"),
      "--claude-dir",
      STAIRS,
      "--tools",
      tools,
      "--json",
    ]),
    "outputs",
  );
  const [a66, a320, plain] = j.toolResults;
  assert.deepEqual([a66.check, a66.maxResultSizeChars, a66.annotationExplains, a66.deltaTokens], ["inline", 300000, true, 25568]);
  assert.deepEqual([a320.check, a320.reportedSize, a320.annotationExplains, a320.countTokensConsulted], ["size", "317.8KB", true, false]);
  assert.deepEqual([plain.annotated, plain.maxResultSizeChars], [false, null]);
  assert.ok(j.inputs.some((i: any) => i.kind === "rpc-log" && i.path.endsWith("tools-list.json")));
  const viaLog = parseEnvelope(
    await runCli([
      "outputs",
      id("a00000066000"),
      "--claude-dir",
      STAIRS,
      "--rpc-log",
      sample("outputs", "staircase", "rpc-tap.jsonl"),
      "--json",
    ]),
    "outputs",
  );
  assert.deepEqual(
    [viaLog.toolResults[0].maxResultSizeChars, viaLog.toolResults[0].annotationExplains],
    [300000, true],
    "the tools/list response found in an MCP message log",
  );
});

test("outputs --staircase: 11 runs sorted by size, ready for a write-up (golden markdown)", async () => {
  const r = await runCli(["outputs", "--staircase", ...RUNS, "--claude-dir", STAIRS, "--format", "markdown"]);
  assert.equal(r.code, 0, r.stderr);
  golden("outputs/staircase.md", r.stdout);
  const j = parseEnvelope(await runCli(["outputs", "--staircase", ...RUNS, "--claude-dir", STAIRS, "--json"]), "outputs");
  const steps = j.staircase.map((s: any) => [s.chars, s.check, s.modelSaw, s.savedFormat, s.deltaTokens]);
  assert.deepEqual(steps, [
    [24000, "inline", "inline", null, 49964],
    [30000, "inline", "inline", null, 11687],
    [30000, "token", "path", "text", 1009],
    [45000, "inline", "inline", null, 17514],
    [52000, "size", "preview", "json", 1027],
    [62000, "size", "preview", "json", 1034],
    [66000, "token", "path", "text", 1012],
    [66000, "inline", "inline", null, 25568],
    [66000, "size", "preview", "json", 1065],
    [70000, "token", "path", "text", 1013],
    [320000, "size", "preview", "json", 1058],
  ]);
  assert.equal(j.toolResults.length, 11);
  // Transcript paths instead of ids: the debug logs are still found in the config dir the paths sit in.
  const paths = RUNS.map((r) =>
    sample("outputs", "staircase", "claude", "projects", `-private-var-folders-7x-q1l2m3n4-T-tmp-${r.slice(-6)}`, `${r}.jsonl`),
  );
  const byPath = parseEnvelope(await runCli(["outputs", "--staircase", ...paths, "--json"]), "outputs");
  assert.deepEqual(byPath.staircase, j.staircase);
  const only = parseEnvelope(
    await runCli(["outputs", "--staircase", ...RUNS, "--claude-dir", STAIRS, "--only", "emit_text_annotated", "--json"]),
    "outputs",
  );
  assert.deepEqual(
    only.staircase.map((s: any) => s.chars),
    [66000, 320000],
  );
});

test("outputs: follow-up Reads — one targeted Read at offset 1100 (final request 5,245), three parallel 400-line Reads", async () => {
  const dir = sample("outputs", "reads", "claude");
  const t = await one(id("b10000066000"), "--claude-dir", dir, "--debug-file", sample("outputs", "reads", "debug-targeted.txt"));
  const r = t.toolResults[0];
  assert.deepEqual(
    r.followUpReads.map((f: any) => [f.tool, f.offset, f.limit, f.requestIndex, f.deltaTokens]),
    [["Read", 1100, null, 3, 365]],
  );
  assert.deepEqual([r.lastRequestTokens, r.followUpTokens, r.countTokensConsulted], [5245, 365, true]);
  assert.equal(t.inputs.find((i: any) => i.kind === "debug-log").path.endsWith("debug-targeted.txt"), true);
  const z = (await one(id("b20000066000"), "--claude-dir", dir)).toolResults[0];
  assert.deepEqual(
    z.followUpReads.map((f: any) => [f.offset, f.limit]),
    [
      [1, 400],
      [401, 400],
      [801, 400],
    ],
  );
  assert.deepEqual([z.followUpReadCount, z.followUpTokens, z.lastRequestTokens], [3, 28304, 33185]);
  const js = await one(id("b30000052000"), "--claude-dir", dir, "--debug-file", sample("outputs", "reads", "debug-json.txt"));
  const [size, read] = js.toolResults;
  assert.deepEqual([size.check, size.savedFormat, size.followUpReadCount, size.lastRequestTokens], ["size", "json", 1, 26269]);
  assert.deepEqual(
    [read.tool, read.check, read.countTokensConsulted],
    ["Read", "inline", true],
    "count_tokens fired for the long Read result too",
  );
});

test("outputs: per-message budget (content-replacement) and cleared results", async () => {
  const b = await one("5e1c0a52-0b0d-4000-8000-000000200000", "--claude-dir", sample("outputs", "budget", "claude"));
  const budget = b.toolResults.filter((r: any) => r.check === "budget");
  assert.equal(budget.length, 1);
  const r = budget[0];
  assert.deepEqual(
    [r.originalCheck, r.modelSaw, r.savedFormat, r.savedExists, r.reportedSizeMatchesFile, r.persistedLogged],
    ["inline", "preview", "text", true, true, true],
  );
  assert.equal(r.resultChars, r.savedBytes, "the saved file is the text the model would have seen");
  assert.ok(b.toolResults.reduce((n: number, x: any) => n + x.resultChars, 0) > 200_000, "over the 200,000-char budget");
  const c = await one("5e1c0a52-0c1e-4000-8000-000000000001", "--claude-dir", sample("outputs", "cleared", "claude"));
  assert.deepEqual(
    c.toolResults.map((x: any) => [x.tool, x.check, x.originalCheck]),
    [
      ["Bash", "cleared", "inline"],
      ["Grep", "inline", null],
      ["Bash", "cleared", "inline"],
      ["Bash", "cleared", null],
    ],
  );
});

test("outputs: message variants, locale numbers, odd server names, a session copied from another home", async () => {
  const dir = sample("outputs", "variants", "claude");
  const legacy = (await one("5e1c0a52-0e0a-4000-8000-000000000098", "--claude-dir", dir)).toolResults;
  assert.deepEqual(
    legacy.map((r: any) => [r.check, r.reportedTokens, r.limit, r.resultChars]),
    [
      ["token-legacy", 25712, 25000, null],
      ["read-limit", 85812, 25000, null],
    ],
  );
  const m = (await one("5e1c0a52-0e0b-4000-8000-000000000220", "--claude-dir", dir)).toolResults;
  const by = Object.fromEntries(m.map((r: any) => [r.tool, r]));
  const plugin = by["mcp__plugin_trade_composer__backtest_symphony"];
  assert.deepEqual(
    [plugin.server, plugin.plugin, plugin.check, plugin.reportedChars, plugin.reportedLines, plugin.contentFormat],
    ["plugin_trade_composer", true, "token", 78005, 1, "JSON"],
  );
  assert.deepEqual([plugin.savedExists, plugin.savedLines, plugin.savedLongestLine], [true, 1, 78005]);
  assert.match(plugin.savedPath, /^\/home\/other\//);
  const failed = by["mcp__my__docs__search"];
  assert.deepEqual(
    [failed.server, failed.toolName, failed.variant, failed.reportedChars, failed.savedPath, failed.savedExists],
    ["my__docs", "search", "token-save-failed", 61234, null, null],
  );
  const page = by["mcp__lab-server__get__page"];
  assert.deepEqual([page.server, page.toolName, page.check, page.savedExists], ["lab-server", "get__page", "size", false]);
  assert.deepEqual([by["mcp__rollbar__list-items"].check, by["mcp__rollbar__list-items"].limit], ["truncated", 25000]);
  const bash = m.filter((r: any) => r.tool === "Bash");
  assert.deepEqual(
    bash.map((r: any) => [r.check, r.variant, r.savedFormat]),
    [
      ["size", "persisted-output", "text"],
      ["inline", "empty", null],
    ],
  );
  assert.equal(m.find((r: any) => r.tool === "Read").check, "read-limit");
});

test("outputs: stdin, a missing saved file warns on stderr, usage errors exit 2", async () => {
  const path = sample("outputs", "variants", "claude", "projects", "-home-other-trade", "5e1c0a52-0e0b-4000-8000-000000000220.jsonl");
  const viaStdin = parseEnvelope(await runCli(["outputs", "-", "--json"], { stdin: readFileSync(path) }), "outputs");
  assert.equal(viaStdin.toolResults.length, 7);
  assert.equal(
    viaStdin.toolResults.find((r: any) => r.tool === "mcp__lab-server__get__page").savedExists,
    null,
    "no session folder to look in",
  );
  const warned = await runCli(["outputs", path]);
  assert.equal(warned.code, 0);
  assert.match(warned.stderr, /saved output not found: ~\/\.claude\/.+toolu_[A-Za-z0-9]+\.json/);
  assert.equal((await runCli(["outputs", RUNS[0]!, RUNS[1]!, "--claude-dir", STAIRS, "--debug-file", path])).code, 2);
  assert.equal((await runCli(["outputs", RUNS[0]!, "--claude-dir", STAIRS, "--tools", "no/such/tools.json"])).code, 2);
});
