import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli, sample } from "../helpers.js";
import { assistant, jsonl, toolResult } from "../builders.js";

const DEMO_DEBUG = "samples/claude-home/debug/c0ffee00-1111-4222-8333-444444444444.txt";

test("debug: a persisted size read off 51.7KB is flagged rounded; report puts the saved file's own size there", async () => {
  const d = parseEnvelope(await runCli(["debug", DEMO_DEBUG, "--json"]), "debug");
  assert.deepEqual(
    d.debug.persisted.map((p: any) => [p.size, p.bytes, p.bytesExact, p.bytesFrom]),
    [
      ["51.7KB", 52941, false, "size-text"],
      ["64.5KB", 66048, false, "size-text"],
    ],
  );
  const md = await runCli(["debug", DEMO_DEBUG, "--format", "markdown"]);
  assert.match(md.stdout, /\| 23 \| [^|]+ \| 51\.7KB \| ≈51\.7 KB \|/);
  const r = parseEnvelope(await runCli(["report", "c0ffee00", "--claude-dir", sample("claude-home"), "--json"]), "report");
  assert.deepEqual(
    r.debug.persisted.map((p: any) => [p.size, p.bytes, p.bytesExact, p.bytesFrom]),
    [
      ["51.7KB", 52927, true, "saved-file"],
      ["64.5KB", 66000, true, "saved-file"],
    ],
  );
});

test("outputs: a result with no tool_use is tool an empty string with paired false in JSON, (unknown) in the table, and warned on stderr", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-unpaired-"));
  try {
    const file = join(dir, "s.jsonl");
    const usage = { input_tokens: 1, cache_creation_input_tokens: 999, cache_read_input_tokens: 0 };
    writeFileSync(
      file,
      jsonl(
        assistant({ id: "msg_1", usage, blocks: [{ type: "tool_use", id: "toolu_A", name: "Bash", input: { command: "ls" } }] }),
        toolResult("toolu_A", "a"),
        toolResult("toolu_LOST", "b"),
        assistant({ id: "msg_2", usage: { ...usage, cache_creation_input_tokens: 1999 } }),
      ),
    );
    const r = await runCli(["outputs", file, "--json"]);
    const j = parseEnvelope(r, "outputs");
    assert.deepEqual(
      j.toolResults.map((x: any) => [x.toolUseId, x.tool, x.paired]),
      [
        ["toolu_A", "Bash", true],
        ["toolu_LOST", "", false],
      ],
    );
    assert.match(
      r.stderr,
      /1 tool result\(s\) have no tool_use with their id in the transcript: tool unknown \("", paired false\) for .*s\.jsonl:3/,
    );
    const t = await runCli(["outputs", file, "--format", "markdown"]);
    assert.match(t.stdout, /\| tool \| Bash \| \(unknown\) \|/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("outputs: seed 003's CJK run (24,000 chars, +49,964 tokens, no count_tokens) is flagged over the MCP token limit", async () => {
  const j = parseEnvelope(
    await runCli(["outputs", "5e1c0a52-0003-4000-8000-c00000024000", "--claude-dir", sample("outputs", "staircase", "claude"), "--json"]),
    "outputs",
  );
  const r = j.toolResults[0];
  assert.deepEqual(
    [r.check, r.chars, r.deltaTokens, r.countTokensRequests, r.mcpTokenLimit, r.overTokenLimitUnchecked],
    ["inline", 24000, 49964, 0, 25000, true],
  );
  // The runs dir's MAX_MCP_OUTPUT_TOKENS=50000 run is held to 50,000.
  const s = parseEnvelope(await runCli(["outputs", "--staircase", sample("outputs", "staircase-runs"), "--json"]), "outputs");
  const limits = new Set(s.toolResults.map((x: any) => x.mcpTokenLimit));
  assert.deepEqual([...limits].sort(), [25000, 5000, 50000]);
});
