import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveSavedPath, toolResultsDir, utf16Length } from "../../src/sources/saved-files.js";
import { inspectSavedFile } from "../../src/pipeline/evidence.js";

test("toolResultsDir: main session, subagent (nested workflows too), old layout, stdin", () => {
  assert.equal(toolResultsDir("/c/projects/k/s1.jsonl", "s1"), join("/c/projects/k", "s1", "tool-results"));
  assert.equal(toolResultsDir("/c/projects/k/s1/subagents/agent-a1.jsonl", null), join("/c/projects/k/s1", "tool-results"));
  assert.equal(toolResultsDir("/c/projects/k/s1/subagents/workflows/wf_1/agent-a2.jsonl", null), join("/c/projects/k/s1", "tool-results"));
  assert.equal(toolResultsDir("/c/projects/k/agent-1a2b3c4d.jsonl", "s1"), join("/c/projects/k", "s1", "tool-results"));
  assert.equal(toolResultsDir("-", "s1"), null);
});

test("resolveSavedPath: by name in the session's folder whatever the printed home; missing; no folder known", () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-saved-"));
  try {
    const tr = join(dir, "k", "s1", "tool-results");
    mkdirSync(tr, { recursive: true });
    writeFileSync(join(tr, "toolu_01A.json"), "[]");
    for (const printed of ["~/.claude/projects/k/s1/tool-results/toolu_01A.json", "/home/other/.claude/projects/k/s1/tool-results/toolu_01A.json", "C:\\Users\\x\\.claude\\projects\\k\\s1\\tool-results\\toolu_01A.json"]) {
      assert.deepEqual(resolveSavedPath(printed, tr), { path: join(tr, "toolu_01A.json"), exists: true }, printed);
    }
    assert.deepEqual(resolveSavedPath("~/.claude/x/tool-results/toolu_gone.json", tr), { path: join(tr, "toolu_gone.json"), exists: false });
    // Without the session folder, the printed path is tried as is (~ is this user's home).
    assert.deepEqual(resolveSavedPath(join(tr, "toolu_01A.json"), null), { path: join(tr, "toolu_01A.json"), exists: true });
    assert.deepEqual(resolveSavedPath("~/nowhere/tool-results/x.txt", null, "/no-home"), { path: "/no-home/nowhere/tool-results/x.txt", exists: null });
    // A printed path outside any tool-results/ folder is never opened.
    writeFileSync(join(dir, "secret.txt"), "x");
    assert.deepEqual(resolveSavedPath(join(dir, "secret.txt"), null), { path: null, exists: null });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("inspectSavedFile: the JSON content-array layout vs plain text, lines and longest line in JS chars", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-saved-"));
  try {
    const text = "BEGIN-MARKER\n" + "漢".repeat(10) + "\nEND-MARKER: end-1\n";
    const json = JSON.stringify([{ type: "text", text }], null, 2);
    writeFileSync(join(dir, "a.json"), json);
    writeFileSync(join(dir, "b.txt"), text);
    const j = await inspectSavedFile({ path: join(dir, "a.json"), kind: "tool-result", bytes: 0, sha256: "" });
    assert.deepEqual(j, { bytes: Buffer.byteLength(json), lines: 6, newlines: 5, longestLine: Math.max(...json.split("\n").map((l) => l.length)), format: "json" });
    const t = await inspectSavedFile({ path: join(dir, "b.txt"), kind: "tool-result", bytes: 0, sha256: "" });
    assert.deepEqual(t, { bytes: Buffer.byteLength(text), lines: 3, newlines: 3, longestLine: 17, format: "text" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("utf16Length counts JS string length from UTF-8 bytes", () => {
  for (const s of ["", "abc", "漢字", "😀x", "é\u00a0ü", "a\u{10FFFF}"]) assert.equal(utf16Length(Buffer.from(s)), s.length, s);
});
