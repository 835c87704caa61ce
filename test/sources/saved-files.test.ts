import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onAccess } from "../../src/sources/guard.js";
import { resolveSavedPath, toolResultsDir, utf16Length } from "../../src/sources/saved-files.js";
import { inspectSavedFile } from "../../src/pipeline/evidence.js";

test("toolResultsDir: main session, subagent (nested workflows too), old layout, stdin", () => {
  assert.equal(toolResultsDir("/c/projects/k/s1.jsonl", "s1"), join("/c/projects/k", "s1", "tool-results"));
  assert.equal(toolResultsDir("/c/projects/k/s1/subagents/agent-a1.jsonl", null), join("/c/projects/k/s1", "tool-results"));
  assert.equal(toolResultsDir("/c/projects/k/s1/subagents/workflows/wf_1/agent-a2.jsonl", null), join("/c/projects/k/s1", "tool-results"));
  assert.equal(toolResultsDir("/c/projects/k/agent-1a2b3c4d.jsonl", "s1"), join("/c/projects/k", "s1", "tool-results"));
  assert.equal(toolResultsDir("-", "s1"), null);
  // The session id comes from the records when the file name does not carry it: it must stay one folder name.
  for (const evil of ["../../..", "a/b", "/etc"]) assert.equal(toolResultsDir("/c/projects/k/x.jsonl", evil), null, evil);
});

test("resolveSavedPath: by name in the session's folder whatever the printed home; missing; no folder known", () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-saved-"));
  try {
    const tr = join(dir, "k", "s1", "tool-results");
    mkdirSync(tr, { recursive: true });
    writeFileSync(join(tr, "toolu_01A.json"), "[]");
    for (const printed of [
      "~/.claude/projects/k/s1/tool-results/toolu_01A.json",
      "/home/other/.claude/projects/k/s1/tool-results/toolu_01A.json",
      "C:\\Users\\x\\.claude\\projects\\k\\s1\\tool-results\\toolu_01A.json",
    ]) {
      assert.deepEqual(resolveSavedPath(printed, tr), { path: join(tr, "toolu_01A.json"), exists: true, suspicious: null }, printed);
    }
    assert.deepEqual(resolveSavedPath("~/.claude/x/tool-results/toolu_gone.json", tr), {
      path: join(tr, "toolu_gone.json"),
      exists: false,
      suspicious: null,
    });
    // Without the session folder nothing is looked up: the printed path itself is never opened.
    assert.deepEqual(resolveSavedPath(join(tr, "toolu_01A.json"), null), { path: null, exists: null, suspicious: null });
    // A printed path outside any tool-results/ folder is only a name in the session's folder.
    writeFileSync(join(dir, "secret.txt"), "x");
    assert.deepEqual(resolveSavedPath(join(dir, "secret.txt"), tr), { path: join(tr, "secret.txt"), exists: false, suspicious: null });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("resolveSavedPath: traversal, absolute, backslash and URL-encoded names are suspicious and nothing is touched", () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-saved-"));
  try {
    const tr = join(dir, "k", "s1", "tool-results");
    mkdirSync(tr, { recursive: true });
    const hostile = [
      "/home/u/.claude/projects/k/s1/tool-results/../../../../etc/passwd",
      "tool-results/../../../../etc/passwd",
      "tool-results/..\\..\\..\\etc\\passwd",
      "C:\\x\\tool-results\\..\\..\\secret.txt",
      "tool-results//etc/passwd",
      "tool-results/C:/Windows/win.ini",
      "tool-results/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
      "tool-results/..%2F..%2Fetc%2Fpasswd",
      "tool-results/%252e%252e/x",
      "tool-results/%zz%2e%2e",
      "tool-results/a\u0000b",
      "/x/../y/tool-results/toolu_1.txt",
      "tool-results/./toolu_1.txt",
    ];
    const touched: string[] = [];
    onAccess((_op, p) => touched.push(p));
    try {
      for (const printed of hostile) {
        const r = resolveSavedPath(printed, tr);
        assert.equal(r.exists, null, printed);
        assert.equal(r.path, null, printed);
        assert.equal(typeof r.suspicious, "string", printed);
      }
    } finally {
      onAccess(null);
    }
    assert.deepEqual(touched, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("resolveSavedPath: a saved file or a tool-results/ folder that links outside is suspicious", () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-saved-"));
  try {
    const outside = join(dir, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "secret.txt"), "SECRET");
    const tr = join(dir, "k", "s1", "tool-results");
    mkdirSync(tr, { recursive: true });
    symlinkSync(join(outside, "secret.txt"), join(tr, "toolu_link.txt"));
    mkdirSync(join(tr, "sub"));
    symlinkSync(join(tr, "loop"), join(tr, "loop"));
    assert.match(resolveSavedPath("tool-results/toolu_link.txt", tr).suspicious ?? "", /links outside tool-results/);
    assert.match(resolveSavedPath("tool-results/sub", tr).suspicious ?? "", /directory/);
    assert.deepEqual(resolveSavedPath("tool-results/loop", tr), { path: join(tr, "loop"), exists: false, suspicious: null });
    const tr2 = join(dir, "k", "s2", "tool-results");
    mkdirSync(join(dir, "k", "s2"));
    symlinkSync(outside, tr2);
    assert.match(resolveSavedPath("tool-results/secret.txt", tr2).suspicious ?? "", /folder links outside/);
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
    assert.deepEqual(j, {
      bytes: Buffer.byteLength(json),
      lines: 6,
      newlines: 5,
      longestLine: Math.max(...json.split("\n").map((l) => l.length)),
      format: "json",
    });
    const t = await inspectSavedFile({ path: join(dir, "b.txt"), kind: "tool-result", bytes: 0, sha256: "" });
    assert.deepEqual(t, { bytes: Buffer.byteLength(text), lines: 3, newlines: 3, longestLine: 17, format: "text" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("utf16Length counts JS string length from UTF-8 bytes", () => {
  for (const s of ["", "abc", "漢字", "😀x", "é\u00a0ü", "a\u{10FFFF}"]) assert.equal(utf16Length(Buffer.from(s)), s.length, s);
});
