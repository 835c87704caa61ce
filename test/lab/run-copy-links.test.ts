import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { copySessionTree } from "../../src/lab/run-copy.js";
import { setFollowLinks, takeSkipped } from "../../src/sources/guard.js";

// `run` copies claude's session out of claude's config dir by the rule discovery keeps: a project folder
// linked out of the config dir only with --follow-links, and even then no link below it that leads out.

const S = "c0c0c0c0-0000-4000-8000-000000000001";
const SECRET = "SECRET-RUN-COPY-3b7a";
const line = (agentId?: string) =>
  `${JSON.stringify({ type: "user", sessionId: S, ...(agentId ? { agentId, isSidechain: true } : {}), timestamp: "2026-11-01T10:00:00Z" })}\n`;

for (const follow of [false, true])
  test(`run's session copy from a project folder linked out of the config dir: ${follow ? "copied with --follow-links, its link out left behind" : "not copied without --follow-links"}`, async () => {
    const d = realpathSync(mkdtempSync(join(tmpdir(), "ccf-runcopy-")));
    try {
      const home = join(d, "home");
      const far = join(d, "disk", "proj");
      mkdirSync(join(home, ".claude", "projects"), { recursive: true });
      mkdirSync(join(far, S, "subagents"), { recursive: true });
      mkdirSync(join(d, "outside"));
      writeFileSync(join(far, `${S}.jsonl`), line());
      writeFileSync(join(far, S, "subagents", "agent-a1.jsonl"), line("a1"));
      writeFileSync(join(d, "outside", "agent-evil.jsonl"), `${SECRET}\n`);
      symlinkSync(join(d, "outside", "agent-evil.jsonl"), join(far, S, "subagents", "agent-evil.jsonl"));
      symlinkSync(far, join(home, ".claude", "projects", "-p"));
      const runDir = join(d, "run");
      mkdirSync(runDir);
      takeSkipped();
      setFollowLinks(follow);
      let copied;
      try {
        copied = await copySessionTree(S, runDir, { env: { HOME: home }, cwd: runDir });
      } finally {
        setFollowLinks(false);
      }
      const skipped = takeSkipped().map((s) => s.path.slice(s.path.lastIndexOf("/") + 1));
      if (!follow) {
        assert.equal(copied, null);
        assert.deepEqual(skipped, ["-p"]);
        return;
      }
      assert.deepEqual(copied?.files, [
        join("claude", "projects", "-p", `${S}.jsonl`),
        join("claude", "projects", "-p", S, "subagents", "agent-a1.jsonl"),
      ]);
      assert.deepEqual(skipped, ["agent-evil.jsonl"]);
      for (const f of copied!.files) assert.ok(!readFileSync(join(runDir, f), "utf8").includes(SECRET), f);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
