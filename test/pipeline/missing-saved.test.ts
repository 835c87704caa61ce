import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { abridgedPath, missingWarnings } from "../../src/pipeline/gather.js";
import { parseEnvelope, runCli } from "../helpers.js";

const SID = "5e1c0a52-0e0b-4000-8000-00000000a001";

test("missing saved outputs: one warning with the count, the folder and three names; verbose names all", () => {
  const paths = ["/h/a/tool-results/x1.json", "C:\\h\\tool-results\\x2.txt", "/h/a/tool-results/x3.json", "/h/a/tool-results/x4.json"];
  assert.deepStrictEqual(missingWarnings([], "/d", false), []);
  assert.deepStrictEqual(missingWarnings(paths.slice(0, 1), "/d", false), [
    "saved output not found: /h/a/tool-results/x1.json (looked in /d)",
  ]);
  assert.deepStrictEqual(missingWarnings(paths.slice(0, 3), "/d", false), [
    "3 saved outputs not found (looked in /d): x1.json, x2.txt, x3.json",
  ]);
  assert.deepStrictEqual(missingWarnings(paths, "/d", false), [
    "4 saved outputs not found (looked in /d): x1.json, x2.txt, x3.json … and 1 more (--verbose lists them)",
  ]);
  assert.deepStrictEqual(missingWarnings(paths, "/d", true), ["4 saved outputs not found (looked in /d):", ...paths.map((p) => `  ${p}`)]);
});

test("missing saved outputs: a printed path past 512 characters is quoted by its head and tail, a real one whole", () => {
  const real = `/home/someone/.claude/projects/-home-someone-work-a-rather-long-project-name/5e1c0a52-0e0b-4000-8000-00000000a001/tool-results/mcp-lab-server-get__page-1789422257974.txt${"/x".repeat(80)}`;
  assert.ok(real.length > 300 && real.length <= 512);
  assert.deepStrictEqual(missingWarnings([real], "/d", false), [`saved output not found: ${real} (looked in /d)`]);
  const hostile = `x${" ".repeat(200_000)}y`;
  const [w] = missingWarnings([hostile], "/d", false);
  assert.equal(w, `saved output not found: x${" ".repeat(254)}…${" ".repeat(255)}y (looked in /d)`);
  assert.equal(abridgedPath(hostile).length, 512);
  const [head, line] = missingWarnings([hostile, real], "/d", true);
  assert.equal(head, "2 saved outputs not found (looked in /d):");
  assert.equal(line, `  ${abridgedPath(hostile)}`);
  assert.ok(missingWarnings([hostile, real], "/d", false)[0]!.length < 1000);
});

/** A session of `n` size-checked results whose saved files were not copied, but for the first one. */
function session(n: number): { dir: string; transcript: string } {
  const dir = mkdtempSync(join(tmpdir(), "ccf-missing-"));
  const project = join(dir, "projects", "-tmp-x");
  const results = join(project, SID, "tool-results");
  mkdirSync(results, { recursive: true });
  const lines: string[] = [];
  for (let i = 1; i <= n; i++) {
    const id = `toolu_0${i}`;
    const ts = `2026-11-02T09:00:${String(i).padStart(2, "0")}.000Z`;
    lines.push(
      JSON.stringify({
        type: "assistant",
        sessionId: SID,
        timestamp: ts,
        message: {
          id: `msg_${i}`,
          role: "assistant",
          model: "m",
          content: [{ type: "tool_use", id, name: "Bash", input: { command: "x" } }],
        },
      }),
      JSON.stringify({
        type: "user",
        sessionId: SID,
        timestamp: ts,
        message: {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: id,
              content: `<persisted-output>\nOutput too large (51.7KB). Full output saved to: /home/u/.claude/projects/-tmp-x/${SID}/tool-results/${id}.txt\n\nPreview (first 2KB):\nabc\n...\n</persisted-output>`,
            },
          ],
        },
      }),
    );
  }
  writeFileSync(join(results, "toolu_01.txt"), "x".repeat(52940));
  const transcript = join(project, `${SID}.jsonl`);
  writeFileSync(transcript, `${lines.join("\n")}\n`);
  return { dir, transcript };
}

test("outputs and report on a session missing 7 saved outputs: one stderr line, every one with --verbose, all in the rows", async () => {
  const { dir, transcript } = session(8);
  try {
    for (const cmd of ["outputs", "report"]) {
      const r = await runCli([cmd, transcript, "--json"]);
      assert.equal(r.code, 0, r.stderr);
      const warned = r.stderr.split("\n").filter((l) => l.includes("saved output"));
      assert.equal(warned.length, 1, r.stderr);
      assert.match(
        warned[0]!,
        new RegExp(
          `7 saved outputs not found \\(looked in .*tool-results\\): toolu_02\\.txt, toolu_03\\.txt, toolu_04\\.txt … and 4 more \\(--verbose lists them\\)$`,
        ),
      );
      const rows = parseEnvelope(r, cmd).toolResults as Array<{ savedExists: boolean | null }>;
      assert.deepStrictEqual(
        rows.map((x) => x.savedExists),
        [true, false, false, false, false, false, false, false],
      );
      const v = await runCli([cmd, transcript, "--json", "--verbose"]);
      assert.equal(v.code, 0, v.stderr);
      const named = v.stderr.split("\n").filter((l) => /tool-results\/toolu_0\d\.txt$/.test(l));
      assert.equal(named.length, 7, v.stderr);
      assert.equal(v.stdout, r.stdout, "--verbose changes stderr only");
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
