import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli, sample } from "../helpers.js";
import { compareChart } from "../../src/render/chart.js";

/** A runs dir of sample runs; `edit` changes a copied file (path under the dir) before compare reads it. */
function runsDir(folders: string[], edit: (dir: string) => void = () => {}): string {
  const dir = mkdtempSync(join(tmpdir(), "ccf-basediff-"));
  for (const f of folders) cpSync(sample("runs", f), join(dir, f), { recursive: true });
  edit(dir);
  return dir;
}

/** The one transcript of a run folder. */
function transcriptOf(run: string): string {
  const p = join(run, "claude", "projects", "-tmp-lab");
  return join(
    p,
    readdirSync(p).find((f) => f.endsWith(".jsonl"))!,
  );
}

/** none-b's request 1 three tokens larger: the baseline runs are 20,138 and 20,141, mean 20,139.5. */
const drifted = (dir: string) => {
  const t = transcriptOf(join(dir, "none-b"));
  writeFileSync(t, readFileSync(t, "utf8").replaceAll('"cache_creation_input_tokens":6498', '"cache_creation_input_tokens":6501'));
};

test("compare: a delta is against the exact baseline mean, not a rounded one (20,138 and 20,141 → en-1000 +375.5)", async () => {
  const dir = runsDir(["none-a", "none-b", "en-1000-a", "ja-3000-a"], drifted);
  const j = parseEnvelope(await runCli(["compare", dir, "--json"]), "compare");
  const by = Object.fromEntries(j.runs.map((r: any) => [r.run, r]));
  assert.deepEqual(
    ["none-a", "none-b", "en-1000-a", "ja-3000-a"].map((r) => [by[r].firstRequestTokens, by[r].deltaVsBaseline]),
    [
      [20138, -1.5],
      [20141, 1.5],
      [20515, 375.5],
      [21865, 1725.5],
    ],
  );
  assert.equal(by["en-1000-a"].tokensPerChar, 375.5 / 1000);
  const g = Object.fromEntries(j.groups.map((x: any) => [x.label, x]));
  assert.equal(g.none.deltaVsBaseline, 0, "the baseline's own mean delta is 0, not -0 or a rounded -0.5");
  assert.equal(g["en-1000"].deltaVsBaseline, 375.5);
  // Human formats show the half token; a whole delta stays whole.
  const table = (await runCli(["compare", dir, "--columns", "label,run,deltaVsBaseline"])).stdout;
  assert.match(table, /en-1000-a\s+│\s+\+375\.5 │/);
  assert.match(table, /none-a\s+│\s+-1\.5 │/);
  assert.match(table, /none-b\s+│\s+\+1\.5 │/);
  assert.doesNotMatch(table, /-0\b/);
  const md = (await runCli(["compare", dir, "--format", "markdown", "--columns", "label,run,deltaVsBaseline"])).stdout;
  assert.match(md, /\| en-1000 \| en-1000-a \| \+375\.5 \|/);
  assert.match(md, /\| ja-3000 \| ja-3000-a \| \+1,725\.5 \|/);
  const csv = (await runCli(["compare", dir, "--format", "csv", "--columns", "label,run,deltaVsBaseline"])).stdout;
  assert.match(csv, /runs,en-1000,en-1000-a,375\.5\r\n/);
});

test("compare: the fit takes the exact deltas", async () => {
  const dir = runsDir(["none-a", "none-b", "en-1000-a", "en-5000-a", "ja-3000-a"], drifted);
  const j = parseEnvelope(await runCli(["compare", dir, "--json"]), "compare");
  const res = Object.fromEntries(j.fit.residuals.map((r: any) => [r.run, r.deltaTokens]));
  assert.deepEqual([res["en-1000-a"], res["en-5000-a"], res["ja-3000-a"]], [375.5, 719.5, 1725.5]);
});

test("compare: a tool-search-off run has no comparable baseline: its Δ is kept, marked and explained in every format", async () => {
  const dir = runsDir(["none-a", "none-b", "en-1000-a", "en-5000-a"], (d) => {
    cpSync(join(d, "en-1000-a"), join(d, "en-1000-nts-a"), { recursive: true });
    const f = join(d, "en-1000-nts-a", "run.json");
    const run = JSON.parse(readFileSync(f, "utf8"));
    writeFileSync(f, JSON.stringify({ ...run, label: "en-1000-nts", env: { ENABLE_TOOL_SEARCH: "false" } }));
  });
  const j = parseEnvelope(await runCli(["compare", dir, "--json"]), "compare");
  const by = Object.fromEntries(j.runs.map((r: any) => [r.run, r]));
  const nts = by["en-1000-nts-a"];
  assert.equal(nts.deltaVsBaseline, 377, "the number stays");
  assert.equal(nts.baselineDiffers, "ENABLE_TOOL_SEARCH=false (none: unset)");
  assert.equal(nts.tokensPerChar, null, "no cost per char against another configuration");
  assert.equal(by["en-1000-a"].baselineDiffers, null);
  assert.equal(by["none-a"].baselineDiffers, null);
  assert.equal(j.groups.find((g: any) => g.label === "en-1000-nts").baselineDiffers, "ENABLE_TOOL_SEARCH=false (none: unset)");
  assert.ok(!j.fit.residuals.some((r: any) => r.run === "en-1000-nts-a"), "left out of the fit");
  const note = /† no comparable baseline: en-1000-nts ran with ENABLE_TOOL_SEARCH=false \(none: unset\)/;
  const table = (await runCli(["compare", dir, "--columns", "label,run,deltaVsBaseline"])).stdout;
  assert.match(table, /en-1000-nts-a\s+│\s+\+377 † │/);
  assert.match(table, /en-1000-a\s+│\s+\+377 │/);
  assert.match(table, note);
  const md = (await runCli(["compare", dir, "--format", "markdown", "--columns", "label,run,deltaVsBaseline"])).stdout;
  assert.match(md, /\| en-1000-nts \| en-1000-nts-a \| \+377 † \|/);
  assert.match(md, note);
  const csv = (await runCli(["compare", dir, "--format", "csv", "--columns", "label,run,deltaVsBaseline"])).stdout;
  assert.match(csv, /^table,label,run,deltaVsBaseline,baselineDiffersMark\r\n/);
  assert.match(csv, /runs,en-1000-nts,en-1000-nts-a,377,true\r\n/);
  assert.match(csv, /runs,en-1000,en-1000-a,377,false\r\n/);
  const chart = compareChart(j.runs, "m").spec;
  assert.match(JSON.stringify(chart), /\+377 † \(baseline differs\)/);
});

test("compare: the same variable in the run and its baseline is a comparable baseline; without any, CSV has no mark column", async () => {
  const dir = runsDir(["none-a", "en-1000-a"], (d) => {
    for (const r of ["none-a", "en-1000-a"]) {
      const f = join(d, r, "run.json");
      writeFileSync(f, JSON.stringify({ ...JSON.parse(readFileSync(f, "utf8")), env: { ENABLE_TOOL_SEARCH: "false" } }));
    }
  });
  const j = parseEnvelope(await runCli(["compare", dir, "--json"]), "compare");
  assert.deepEqual(
    j.runs.map((r: any) => r.baselineDiffers),
    [null, null],
  );
  const csv = (await runCli(["compare", runsDir(["none-a", "en-1000-a"]), "--format", "csv", "--columns", "label,run,deltaVsBaseline"]))
    .stdout;
  assert.match(csv, /^table,label,run,deltaVsBaseline\r\n/);
});

test("compare on the sample runs: the fit labels its slope ratio and prints the write-up's 2.4× beside it", async () => {
  const out = (await runCli(["compare", "samples/runs", "--wide"])).stdout;
  assert.match(out, /│ × latin per char │ Δ × latin same chars │ at chars │/);
  assert.match(out, /│ cjk .*│ +2\.49 │ +2\.40 │ +2,061 │/);
  assert.match(out, /cjk 1,727 \/ latin 721 at 2,061 chars/);
  const j = parseEnvelope(await runCli(["compare", "samples/runs", "--json"]), "compare");
  const cjk = j.fit.scripts.find((s: any) => s.script === "cjk");
  assert.deepEqual([cjk.deltaRatio, cjk.deltaRatioChars], [1727 / 721, 2061]);
});

test("instructions --baseline: the per-char figure says the wrapper is in it", async () => {
  const out = (
    await runCli([
      "instructions",
      "e1000000",
      "--claude-dir",
      "samples/instructions/en-1000",
      "--claude-dir",
      "samples/instructions/baseline",
      "--baseline",
      "b0000000",
    ])
  ).stdout;
  assert.match(out, /tokens per char \(delta over the text's chars, wrapper included\): 0\.377/);
  assert.doesNotMatch(out, /tokens per char of text/);
});
