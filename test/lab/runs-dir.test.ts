import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { codewordsFor, instructionsText } from "../../src/lab/instructions-text.js";
import { runCli } from "../helpers.js";
import { writeFakeClaude } from "./fake-claude.js";

const PROMPT = "Reply with BEGIN=… END=… LAST=…";
const call = (n: number, tool = "emit_text") =>
  `Call mcp__big__${tool} once with chars=${n}, then reply with the END-MARKER value or NOMARKER.`;
const big = (label: string, n: number, extra: Record<string, unknown> = {}) => ({
  label,
  server: "output",
  serverEntry: { alwaysLoad: true },
  prompt: call(n),
  ...extra,
});

/**
 * One `run` with the stand-in claude, then the config dir it wrote into is deleted and the runs dir
 * moved: what `compare` and `outputs --staircase` read afterwards can only come from the runs dir.
 */
async function runThenMove(): Promise<{ runs: string; home: string; code: number; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), "ccf-runsdir-"));
  const bin = writeFakeClaude(dir);
  const config = join(dir, "claude-config");
  mkdirSync(config);
  const m = {
    prompt: PROMPT,
    claude: join(bin, "claude"),
    env: { CLAUDE_CONFIG_DIR: config },
    configs: [
      { label: "none", serverArgs: ["--lang", "none"] },
      { label: "en-1000", serverArgs: ["--chars", "1000"] },
      { label: "en-20000", serverArgs: ["--chars", "20000"], env: { CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH: "25000" } },
      { label: "ja-3000", serverArgs: ["--chars", "3000", "--lang", "ja"] },
      {
        label: "two",
        servers: [
          { name: "zeta", args: ["--chars", "1000"] },
          { name: "alpha", args: ["--chars", "1200", "--dual"] },
        ],
      },
      { label: "fails", env: { FAKE_FAIL: "1" } },
      big("words-52000", 52000),
      big("words-66000", 66000),
      big("words-30000-max5000", 30000, { env: { MAX_MCP_OUTPUT_TOKENS: "5000" } }),
      big("words-66000-max50000", 66000, { env: { MAX_MCP_OUTPUT_TOKENS: "50000" } }),
      big("json-52000", 52000, { serverArgs: ["--content", "json"] }),
      big("annotated-66000", 66000, { prompt: call(66000, "emit_text_annotated") }),
    ],
  };
  writeFileSync(join(dir, "m.json"), JSON.stringify(m));
  const r = await runCli(["run", join(dir, "m.json"), "--out", join(dir, "runs")]);
  rmSync(config, { recursive: true });
  const runs = join(dir, "moved", "runs");
  mkdirSync(join(dir, "moved"));
  renameSync(join(dir, "runs"), runs);
  const home = join(dir, "other-home");
  mkdirSync(home);
  return { runs, home, code: r.code, stderr: r.stderr };
}

let made: Promise<Awaited<ReturnType<typeof runThenMove>>> | undefined;
const once = () => (made ??= runThenMove());

test("run copies each session into its folder: run.json names the copy, the transcript and saved results are there", async () => {
  const { runs, code, stderr } = await once();
  assert.equal(code, 1, "one claude failed");
  assert.match(stderr, /fails-a: claude exited 1/);
  const j = JSON.parse(readFileSync(join(runs, "words-52000-a", "run.json"), "utf8"));
  assert.equal(j.claudeDir, "claude");
  assert.match(j.sourceClaudeDir, /claude-config$/);
  assert.ok(j.copied.some((f: string) => f.endsWith(`${j.session}.jsonl`)));
  assert.ok(
    j.copied.some((f: string) => /\/tool-results\/toolu_\w+\.json$/.test(f)),
    "the size check's saved .json",
  );
  for (const f of j.copied) assert.ok(existsSync(join(runs, "words-52000-a", f)), f);
  assert.deepEqual(JSON.parse(readFileSync(join(runs, "fails-a", "run.json"), "utf8")).session, null);
});

test("compare on a moved runs dir under another HOME: every run read, the failed one a row with its error, exit 1", async () => {
  const { runs, home } = await once();
  const r = await runCli(["compare", runs, "--json"], { env: { HOME: home } });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /1 of 12 run\(s\) could not be read/);
  const j = JSON.parse(r.stdout);
  const by = Object.fromEntries(j.runs.map((x: any) => [x.label, x]));
  assert.match(by.fails.error, /^no session: claude exited 1 \(see stderr\.txt\)$/);
  assert.deepEqual(
    j.runs.filter((x: any) => x.error !== null).map((x: any) => x.label),
    ["fails"],
  );
  assert.equal(j.baseline, "none");
  assert.equal(by["en-1000"].instructionsRequest, 1);
  assert.ok(by["en-1000"].deltaVsBaseline > 0);
  assert.equal(by["en-20000"].env, "CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH=25000");
  assert.equal(by["en-20000"].truncated, false);
  // The source text's bytes come from the servers' logs (the transcript holds only what was kept).
  const ja = instructionsText(3000, "ja", codewordsFor(3000, "ja", "legacy"));
  assert.equal(by["ja-3000"].sourceUtf8Bytes, Buffer.byteLength(ja));
  assert.equal(by["ja-3000"].utf8Bytes < by["ja-3000"].sourceUtf8Bytes, true);
  assert.equal(by["ja-3000"].script, "cjk");
  // Both servers' logs are read: zeta legacy, alpha dual-era and so modern; both texts' bytes.
  assert.equal(by.two.era, "legacy, modern");
  assert.equal(by.two.sourceUtf8Bytes, 2200);
  assert.equal(by.two.instructionServers, "zeta, alpha");
  assert.ok(j.totalCostUsd > 0.105 && j.totalCostUsd < 0.115, `11 runs at $0.01: ${j.totalCostUsd}`);
  const fitted = j.fit.scripts.find((s: any) => s.script === "latin");
  assert.equal(fitted.wrapperFrom, "fitted");
  assert.ok(fitted.charsPerToken > 2 && fitted.charsPerToken < 4, String(fitted.charsPerToken));
  assert.equal(j.fit.scripts.find((s: any) => s.script === "cjk").wrapperFrom, "shared");
  assert.ok(!j.fit.residuals.some((x: any) => x.label === "two"), "several servers are left out of the fit");
  const md = await runCli(["compare", runs, "--format", "markdown"], { env: { HOME: home } });
  assert.equal(md.code, 1, "the table prints, then exit 1");
  assert.match(md.stdout, /\| fails \| fails-a \|.*\| no session: claude exited 1 \(see stderr\.txt\) \|/);
  assert.match(md.stdout, /### Instructions cost, fitted over the runs/);
});

test("outputs --staircase on a moved runs dir: label, environment, check, count_tokens and Δ tokens per run", async () => {
  const { runs, home } = await once();
  const r = await runCli(["outputs", "--staircase", runs, "--json"], { env: { HOME: home } });
  assert.equal(r.code, 1, "the failed run is reported, then exit 1");
  const j = JSON.parse(r.stdout);
  assert.deepEqual(
    j.failedRuns.map((f: any) => f.run),
    ["fails-a"],
  );
  const by = Object.fromEntries(j.staircase.map((x: any) => [x.label, x]));
  const want: Record<string, [string, boolean | null, string | null]> = {
    "words-52000": ["size", true, null],
    "json-52000": ["size", true, null],
    "words-66000": ["token", true, null],
    "words-30000-max5000": ["token", true, "MAX_MCP_OUTPUT_TOKENS=5000"],
    "words-66000-max50000": ["size", false, "MAX_MCP_OUTPUT_TOKENS=50000"],
    "annotated-66000": ["inline", false, null],
  };
  for (const [label, [check, counted, env]] of Object.entries(want)) {
    const row = by[label];
    assert.ok(row, label);
    assert.deepEqual([row.check, row.countTokensConsulted, row.env], [check, counted, env], label);
    assert.ok(row.deltaTokens > 0, `${label}: Δ tokens from the copied transcript`);
  }
  assert.equal(by["words-52000"].savedFormat, "json");
  assert.equal(j.staircase.length, 6, "one row per tool result, the instruction runs have none");
  assert.deepEqual(
    j.staircase.map((x: any) => x.chars),
    [...j.staircase.map((x: any) => x.chars)].sort((a: number, b: number) => a - b),
  );
  const md = await runCli(["outputs", "--staircase", runs, "--format", "markdown"], { env: { HOME: home } });
  assert.match(md.stdout, /^\| label \| environment \| size \(chars\) \|/m);
  assert.match(md.stdout, /\| words-30000-max5000 \| MAX_MCP_OUTPUT_TOKENS=5000 \| 30,000 \|.*\| token \|/);
  assert.match(md.stdout, /### Runs not read/);
});
