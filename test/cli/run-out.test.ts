import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers.js";

const MATRIX = { prompt: "p", configs: [{ label: "a", server: "none" }] };

test("run --out refuses a copied evidence tree that was never named, also through a symlink; a source ~/projects is fine", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-runout-"));
  try {
    const m = join(dir, "m.json");
    writeFileSync(m, JSON.stringify(MATRIX));
    const copy = join(dir, "evidence-copy");
    mkdirSync(join(copy, "projects", "-home-u-app"), { recursive: true });
    writeFileSync(join(copy, "projects", "-home-u-app", "s1.jsonl"), "{}\n");
    symlinkSync(join(copy, "projects"), join(dir, "link"));
    for (const out of [copy, join(copy, "runs", "new"), join(copy, "projects", "x"), join(dir, "link", "runs")]) {
      const r = await runCli(["run", m, "--out", out, "--dry-run"]);
      assert.equal(r.code, 2, `${out}: ${r.stderr}`);
      assert.match(r.stderr, /refusing to write inside .*evidence-copy, which holds Claude Code transcripts/);
      assert.equal(existsSync(join(copy, "runs")), false);
    }
    // A home with a source-code projects/ folder (no transcripts in it) is not evidence.
    const home = join(dir, "home");
    mkdirSync(join(home, "projects", "app", "src"), { recursive: true });
    const ok = await runCli(["run", m, "--out", join(home, "runs"), "--dry-run"]);
    assert.equal(ok.code, 0, ok.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
