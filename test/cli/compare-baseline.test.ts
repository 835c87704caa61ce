import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli, sample } from "../helpers.js";

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
