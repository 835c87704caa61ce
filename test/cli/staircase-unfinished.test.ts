import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, sample } from "../helpers.js";

/** The shipped staircase runs dir, with some run.json files edited as `ccforensics run` writes them for an unfinished claude. */
function editedStairs(edits: Record<string, (json: any) => unknown>): string {
  const runs = join(mkdtempSync(join(tmpdir(), "ccf-stairs-")), "runs");
  cpSync(sample("outputs", "staircase-runs"), runs, { recursive: true });
  for (const [run, edit] of Object.entries(edits)) {
    const f = join(runs, run, "run.json");
    writeFileSync(f, JSON.stringify(edit(JSON.parse(readFileSync(f, "utf8")))));
  }
  return runs;
}

test("outputs --staircase: a run that timed out or exited non-zero is a listed failed step, no measured point, warned, exit 1 (as compare)", async () => {
  const runs = editedStairs({
    // What run writes when --timeout-ms stops claude (the session and its transcript exist, maybe cut short).
    "words-45000-a": (j) => ({ ...j, exitCode: null, signal: "SIGTERM", timedOut: true, stderr: "stderr.txt" }),
    "words-62000-a": (j) => ({ ...j, exitCode: 3 }),
  });
  const r = await runCli(["outputs", "--staircase", runs, "--json", "--chart", join(runs, "..", "stairs.svg")]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /words-45000-a: claude did not finish: stopped by --timeout-ms \(see stderr\.txt\); left out of the staircase/);
  assert.match(r.stderr, /words-62000-a: claude did not finish: claude exited 3; left out of the staircase/);
  assert.match(r.stderr, /2 of 11 run\(s\) could not be read or did not finish/);
  const j = JSON.parse(r.stdout);
  // Not a measured step: the table, the drift note and the chart are the nine finished runs'.
  assert.deepEqual(
    j.staircase.map((s: any) => s.run),
    [
      "cjk-24000-a",
      "words-30000-a",
      "words-30000-max5000-a",
      "words-52000-a",
      "annotated-66000-a",
      "words-66000-a",
      "words-66000-max50000-a",
      "words-70000-a",
      "annotated-320000-a",
    ],
  );
  assert.deepEqual(j.failedRuns, [
    {
      run: "words-45000-a",
      label: "words-45000",
      error: "claude did not finish: stopped by --timeout-ms (see stderr.txt); left out of the staircase",
    },
    { run: "words-62000-a", label: "words-62000", error: "claude did not finish: claude exited 3; left out of the staircase" },
  ]);
  const svg = readFileSync(join(runs, "..", "stairs.svg"), "utf8");
  assert.doesNotMatch(svg, /words-45000|words-62000/);
  assert.match(svg, /words-52000/);
  // The markdown shows them under "Runs not read" with why.
  const md = await runCli(["outputs", "--staircase", runs, "--format", "markdown"]);
  assert.equal(md.code, 1);
  assert.match(md.stdout, /Runs not read[\s\S]*words-45000-a \| words-45000 \| claude did not finish: stopped by --timeout-ms/);
});
