import { test } from "node:test";
import assert from "node:assert/strict";
import { classifyOutput, modelSaw, parseLocaleInt, sizeTextMatches } from "../../src/records/tool-output.js";

const TOKEN_TAIL = [
  "Format: Plain text",
  "Use offset and limit parameters to read specific portions of the file, search within it for specific content, and jq to make structured queries.",
  "REQUIREMENTS FOR SUMMARIZATION/ANALYSIS/REVIEW:",
  "- You MUST read the content from the file at /x in sequential chunks until 100% of the content has been read.",
].join("\n");

test("size check: the seed's <persisted-output> stub with a ~ path, the 2KB preview and the `...` marker", () => {
  const preview = '[\n  {\n    "type": "text",\n    "text": "BEGIN-MARKER: start-99b7\\n000001 kilo victor merge';
  const stub = `<persisted-output>\nOutput too large (51.7KB). Full output saved to: ~/.claude/projects/-tmp-x/5e1c/tool-results/toolu_01Xf9.json\n\nPreview (first 2KB):\n${preview}\n...\n</persisted-output>`;
  const m = classifyOutput(stub);
  assert.equal(m.check, "size");
  assert.equal(m.variant, "persisted-output");
  assert.equal(m.reportedSize, "51.7KB");
  assert.equal(m.savedPath, "~/.claude/projects/-tmp-x/5e1c/tool-results/toolu_01Xf9.json");
  assert.equal(m.previewLabel, "2KB");
  assert.equal(m.preview, preview);
  assert.equal(m.previewCut, true);
  assert.equal(modelSaw(m), "preview");
});

test("size check: bytes, MB, no trailing `...`, and a stub clipped before its closing tag", () => {
  const small = classifyOutput(
    "<persisted-output>\nOutput too large (900 bytes). Full output saved to: /a/tool-results/b1a2b3c4d.txt\n\nPreview (first 2KB):\nhello\n</persisted-output>",
  );
  assert.equal(small.reportedSize, "900 bytes");
  assert.equal(small.previewCut, false);
  const clipped = classifyOutput(
    "<persisted-output>\nOutput too large (4.8MB). Full output saved to: /a/tool-results/toolu_1.txt\n\nPreview (first 2KB):\nabc",
  );
  assert.equal(clipped.check, "size");
  assert.equal(clipped.reportedSize, "4.8MB");
  assert.equal(clipped.savedPath, "/a/tool-results/toolu_1.txt");
  assert.equal(clipped.preview, "abc");
  // Only a stub at the very start counts: a file that quotes the tag stays inline.
  assert.equal(classifyOutput("notes: <persisted-output>\nOutput too large (1KB)").check, "inline");
});

test("token check: the path's sentence period is not part of the path, spaces and dots in folders survive", () => {
  const p = "/Users/John Smith/.claude/projects/-a.b/5e1c/tool-results/mcp-big-emit_text-1789556911031.txt";
  const m = classifyOutput(
    `Error: result (66,000 characters) exceeds maximum allowed tokens. Output has been saved to ${p}.\n${TOKEN_TAIL}`,
  );
  assert.equal(m.check, "token");
  assert.equal(m.variant, "token-saved");
  assert.equal(m.savedPath, p);
  assert.equal(m.reportedChars, 66000);
  assert.equal(m.reportedLines, null);
  assert.equal(m.contentFormat, "Plain text");
  assert.equal(modelSaw(m), "path");
  const noDir = classifyOutput("Error: result (1,000 characters) exceeds maximum allowed tokens. Output has been saved to /tmp/out.json.");
  assert.equal(noDir.savedPath, "/tmp/out.json");
});

test("token check: every locale's separators parse (comma, dot, space, NBSP, narrow NBSP, apostrophe) and `across N lines`", () => {
  for (const n of ["179,889", "179.889", "179 889", "179\u00a0889", "179\u202f889", "179'889", "179889"]) {
    const m = classifyOutput(
      `Error: result (${n} characters across 1 line) exceeds maximum allowed tokens. Output has been saved to /h/tool-results/mcp-compos-eval-scheme-1789422257974.txt.`,
    );
    assert.equal(m.reportedChars, 179889, n);
    assert.equal(m.reportedLines, 1, n);
    assert.equal(m.savedPath, "/h/tool-results/mcp-compos-eval-scheme-1789422257974.txt", n);
  }
  assert.equal(parseLocaleInt("1\u00a0234\u00a0567"), 1234567);
  assert.equal(parseLocaleInt("no digits"), null);
});

test("token check, save failed: no saved path, the error kept", () => {
  const m = classifyOutput(
    "Error: result (61.234 characters) exceeds maximum allowed tokens. Failed to save output to file: EACCES: permission denied, open '/x/tool-results/mcp-a-b-1789422301000.txt'. If this MCP server provides pagination or filtering tools, use them to retrieve specific portions of the data.",
  );
  assert.equal(m.check, "token");
  assert.equal(m.variant, "token-save-failed");
  assert.equal(m.savedPath, null);
  assert.equal(m.reportedChars, 61234);
  assert.match(m.saveError!, /^EACCES: permission denied, open/);
  assert.equal(modelSaw(m), "error");
});

test("legacy, truncated, Read limit, cleared, empty, binary", () => {
  const legacy = classifyOutput(
    'Error: MCP tool "useMuiDocs" response (25712 tokens) exceeds maximum allowed tokens (25000). Please use pagination, filtering, or limit parameters to reduce the response size.',
  );
  assert.deepEqual([legacy.check, legacy.legacyTool, legacy.reportedTokens, legacy.limit], ["token-legacy", "useMuiDocs", 25712, 25000]);
  const noPrefix = classifyOutput(
    'MCP tool "list-items" response (31,002 tokens) exceeds maximum allowed tokens (25,000). Please use pagination.',
  );
  assert.deepEqual([noPrefix.check, noPrefix.reportedTokens, noPrefix.limit], ["token-legacy", 31002, 25000]);

  const cut = `${"x".repeat(100_000)}\n\n[OUTPUT TRUNCATED - exceeded 25000 token limit]\n\nThe tool output was truncated.`;
  const t = classifyOutput(cut);
  assert.deepEqual([t.check, t.limit, modelSaw(t)], ["truncated", 25000, "truncated"]);

  const rl = classifyOutput(
    "File content (85812 tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters to read specific portions of the file.",
  );
  assert.deepEqual([rl.check, rl.reportedTokens, rl.limit], ["read-limit", 85812, 25000]);
  assert.equal(
    classifyOutput("Error: File content (31,408 tokens) exceeds maximum allowed tokens (25,000). Use offset").reportedTokens,
    31408,
  );

  assert.equal(classifyOutput("[Old tool result content cleared]").check, "cleared");
  const empty = classifyOutput("(Bash completed with no output)");
  assert.deepEqual([empty.check, empty.variant], ["inline", "empty"]);
  const bin = classifyOutput("[image] Binary content (image/png, 48.2KB) saved to /x/tool-results/toolu_01ab.png");
  assert.deepEqual(
    [bin.check, bin.variant, bin.reportedSize, bin.savedPath],
    ["inline", "binary", "48.2KB", "/x/tool-results/toolu_01ab.png"],
  );
  assert.deepEqual([classifyOutput("plain output").check, classifyOutput("").variant], ["inline", "plain"]);
});

test("sizeTextMatches: Claude Code's 1024-based size text against a byte count", () => {
  assert.equal(sizeTextMatches("51.7KB", 52936), true);
  assert.equal(sizeTextMatches("65.6KB", 67171), true);
  assert.equal(sizeTextMatches("51.7KB", 60000), false);
  assert.equal(sizeTextMatches("900 bytes", 900), true);
  assert.equal(sizeTextMatches("2KB", 2000), true);
  assert.equal(sizeTextMatches("huge", 1), null);
});

test("parseLocaleInt: a count of thousands of digits is unknown, not Infinity", () => {
  assert.equal(parseLocaleInt("9".repeat(400)), null);
  assert.equal(parseLocaleInt("179,889"), 179889);
});
