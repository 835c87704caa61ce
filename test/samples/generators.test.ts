import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "../helpers.js";

const run = promisify(execFile);

/** Every generator under samples/gen/ that writes sample evidence (make-outputs-more is a library of make-outputs). */
const GENERATORS = [
  "make-foundation.mjs",
  "make-demo.mjs",
  "make-logs.mjs",
  "make-outputs.mjs",
  "make-instructions.mjs",
  "make-tools.mjs",
  "make-chains.mjs",
  "make-compaction.mjs",
  "make-rewind.mjs",
];

/** Committed sample files no generator writes: said so in their folder's README. */
const BY_HAND = [/^\.gitattributes$/, /^logs\/claude-p\//, /^lab\//, /^logs\/(?:[^/]+\/)?README\.md$/, /^matrices\//];

function files(dir: string, skip?: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (p !== skip) walk(p);
      } else out.push(relative(dir, p).split("\\").join("/"));
    }
  };
  walk(dir);
  return out.sort();
}

test("samples are current: every generator, run into a temp dir, writes exactly the committed bytes", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "ccf-samples-"));
  try {
    await Promise.all(
      GENERATORS.map((g) => run(process.execPath, [join(ROOT, "samples", "gen", g)], { env: { ...process.env, CCF_SAMPLES_ROOT: tmp }, maxBuffer: 1 << 26 })),
    );
    const samples = join(ROOT, "samples");
    const made = files(tmp);
    const committed = files(samples, join(samples, "gen"));
    assert.ok(made.length > 100, `generators wrote only ${made.length} files`);
    const differ = made.filter((f) => {
      try {
        return !readFileSync(join(tmp, f)).equals(readFileSync(join(samples, f)));
      } catch {
        return true;
      }
    });
    assert.deepEqual(differ, [], "generated samples differ from the committed ones (run the generator and commit, or fix it)");
    const madeSet = new Set(made);
    const orphans = committed.filter((f) => !madeSet.has(f) && !BY_HAND.some((re) => re.test(f)));
    assert.deepEqual(orphans, [], "committed sample files that no generator writes (stale, or add them to a generator)");
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
