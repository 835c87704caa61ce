import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { golden, parseEnvelope, runCli, sample } from "../helpers.js";

const EXPECTED = JSON.parse(readFileSync(sample("runs", "EXPECTED.json"), "utf8"));

test("compare samples/runs: source bytes from the lab logs, every server log's era, spreads, drift, the grand total", async () => {
  const j = parseEnvelope(await runCli(["compare", "samples/runs", "--json"]), "compare");
  const by = Object.fromEntries(j.runs.map((r: any) => [r.run, r]));
  for (const e of EXPECTED.runs) {
    assert.equal(by[e.folder].sourceUtf8Bytes, e.sourceUtf8Bytes, `${e.folder}: the source text's bytes`);
    assert.equal(by[e.folder].instructionsRequest, e.instructions ? 1 : null, e.folder);
    assert.equal(
      by[e.folder].env,
      Object.keys(e.env).length
        ? Object.entries(e.env)
            .map(([k, v]) => `${k}=${v}`)
            .join(" ")
        : null,
    );
  }
  assert.equal(by["ja-3000-a"].sourceUtf8Bytes, 7956, "seed 000: 7,956 bytes at the source");
  assert.equal(by["dual-era-a"].sourceUtf8Bytes, 1000, "dual era: the DiscoverResult's text, the one the client took");
  const total = EXPECTED.runs.reduce((n: number, e: any) => n + e.cost.total, 0);
  assert.ok(Math.abs(j.totalCostUsd - total) < 1e-9, `${j.totalCostUsd} vs ${total}`);
  const g = Object.fromEntries(j.groups.map((x: any) => [x.label, x]));
  assert.equal(g["dual-era"].spreads.firstRequestTokens, 4);
  assert.equal(g["dual-era"].spreads.deltaVsBaseline, 4);
  assert.equal(g["en-1000"].spreads.firstRequestTokens, 0);
  assert.equal(g["en-1000"].spreads.initializeMsAfterProbe, 1107 - 37, "every numeric column, not only request 1");
  assert.deepEqual(
    j.groups.filter((x: any) => x.drift).map((x: any) => x.label),
    ["dual-era"],
  );
});

test("compare samples/runs fits the wrapper and chars per token per script: seed 000's ≈51 tokens, 3.06 and 1.23, 2.4×", async () => {
  const j = parseEnvelope(await runCli(["compare", "samples/runs", "--json"]), "compare");
  const s = Object.fromEntries(j.fit.scripts.map((x: any) => [x.script, x]));
  assert.deepEqual(Object.keys(s).sort(), ["cjk", "latin"]);
  assert.equal(s.latin.wrapperFrom, "fitted");
  assert.ok(Math.abs(s.latin.wrapperTokens - 51) < 1, String(s.latin.wrapperTokens));
  assert.equal(s.latin.charsPerToken.toFixed(2), "3.06");
  assert.equal(s.cjk.wrapperFrom, "shared");
  assert.equal(s.cjk.wrapperTokens, s.latin.wrapperTokens);
  assert.equal(s.cjk.charsPerToken.toFixed(2), "1.23");
  assert.ok(s.cjk.ratio > 2.4 && s.cjk.ratio < 2.6, String(s.cjk.ratio));
  const en5000 = j.fit.residuals.find((r: any) => r.run === "en-5000-a");
  assert.ok(Math.abs(en5000.residual) < 3, "the truncated English block is predicted within 3 tokens");
  assert.equal(
    j.fit.residuals.some((r: any) => r.label === "none"),
    false,
    "the baseline is not a point",
  );
});

test("compare: a late server's instructions are credited to request 2, not to request 1's delta", async () => {
  const d = mkdtempSync(join(tmpdir(), "ccf-late-"));
  const f = join(d, "m.json");
  const root = join(process.cwd(), "samples", "instructions");
  writeFileSync(
    f,
    JSON.stringify([
      { label: "none", session: "b0000000-0000-4000-8000-000000000000", claudeDir: join(root, "baseline") },
      { label: "late", session: "1a7e0000-0000-4000-8000-000000000002", claudeDir: join(root, "late-server") },
    ]),
  );
  const j = parseEnvelope(await runCli(["compare", f, "--json"]), "compare");
  const late = j.runs.find((r: any) => r.label === "late");
  assert.equal(late.instructionsRequest, 2);
  assert.equal(late.instructionChars, 1000);
  assert.equal(late.tokensPerChar, null, "request 1 did not carry them");
  assert.deepEqual(j.fit.residuals, [], "and it is no point of the fit");
  const md = await runCli(["compare", f, "--format", "markdown", "--columns", "label,instructionsRequest,deltaVsBaseline,tokensPerChar"]);
  assert.match(md.stdout, /\| late \| 2 \| \+376 \| — \|/);
  assert.match(md.stdout, /instr\. request &gt; 1: the instructions arrived after request 1/);
});

test("compare a runs dir with a failed run (session null) and a lost transcript: both rows keep their errors, the table prints, exit 1", async () => {
  const d = join(mkdtempSync(join(tmpdir(), "ccf-failed-")), "runs");
  cpSync(sample("runs"), d, { recursive: true });
  mkdirSync(join(d, "crashed-a"));
  writeFileSync(
    join(d, "crashed-a", "run.json"),
    JSON.stringify({ label: "crashed", session: null, exitCode: 1, stderr: "stderr.txt", streamJson: "stream.jsonl" }),
  );
  mkdirSync(join(d, "lost-a"));
  writeFileSync(join(d, "lost-a", "run.json"), JSON.stringify({ label: "lost", session: "0badc0de-0000-4000-8000-000000000000" }));
  // The terminal table (piped: every column), one line per run.
  const r = await runCli(["compare", d]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /2 of 14 run\(s\) could not be read/);
  assert.match(r.stdout, /│ crashed\s+│ crashed-a\s+│.*│ no session: claude exited 1 \(see stderr\.txt\)\s*│$/m);
  assert.match(r.stdout, /│ lost\s+│ lost-a\s+│.*│ no session matches "0badc0de-0000-4000-8000-000000000000".*│$/m);
  assert.match(r.stdout, /│ en-5000\s+│ en-5000-a\s+│\s+20,859 │\s+\+721 │/, "the other runs are all there");
  const j = JSON.parse((await runCli(["compare", d, "--json"])).stdout);
  assert.equal(j.runs.find((x: any) => x.label === "crashed").firstRequestTokens, null);
});

test("outputs --staircase on the staircase runs dir: seed 003's table in one command, labels and environment, request-1 drift noted", async () => {
  const r = await runCli(["outputs", "--staircase", "samples/outputs/staircase-runs", "--json"]);
  const j = parseEnvelope(r, "outputs");
  const by = Object.fromEntries(j.staircase.map((x: any) => [x.label, x]));
  const want: Record<string, [string, boolean, number, string | null]> = {
    "words-30000": ["inline", false, 11687, null],
    "words-45000": ["inline", false, 17514, null],
    "words-52000": ["size", true, 1027, null],
    "words-62000": ["size", true, 1034, null],
    "words-66000": ["token", true, 1012, null],
    "words-70000": ["token", true, 1013, null],
    "cjk-24000": ["inline", false, 49964, null],
    "words-66000-max50000": ["size", false, 1065, "MAX_MCP_OUTPUT_TOKENS=50000"],
    "words-30000-max5000": ["token", true, 1009, "MAX_MCP_OUTPUT_TOKENS=5000"],
    "annotated-66000": ["inline", false, 25568, null],
    "annotated-320000": ["size", false, 1058, null],
  };
  assert.equal(j.staircase.length, Object.keys(want).length);
  for (const [label, [check, counted, delta, env]] of Object.entries(want))
    assert.deepEqual(
      [by[label].check, by[label].countTokensConsulted, by[label].deltaTokens, by[label].env],
      [check, counted, delta, env],
      label,
    );
  assert.deepEqual(
    j.staircase.filter((x: any) => x.firstRequestTokens === 3462).map((x: any) => x.label),
    ["words-30000", "words-45000", "words-52000"],
  );
  assert.deepEqual(j.failedRuns, []);
  const md = await runCli(["outputs", "--staircase", "samples/outputs/staircase-runs", "--format", "markdown"]);
  assert.equal(md.code, 0, md.stderr);
  assert.equal(md.stderr, "", "the runs' own message logs carry the tools/list annotations");
  assert.match(
    md.stdout,
    /request 1 is not the same in every run: 3,295 in 8 run\(s\); 3,462 in words-30000-a, words-45000-a, words-52000-a/,
  );
  golden("outputs/staircase-runs.md", md.stdout);
  const plain = await runCli(["outputs", "samples/outputs/staircase-runs"]);
  assert.equal(plain.code, 2);
  assert.match(plain.stderr, /is a runs dir; use outputs --staircase samples\/outputs\/staircase-runs/);
});
