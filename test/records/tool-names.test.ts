import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { savedName, splitToolName } from "../../src/records/tool-names.js";
import { readToolsList as gatherToolsList } from "../../src/pipeline/evidence.js";
import type { InputFile } from "../../src/sources/input.js";
const readToolsList = async (input: InputFile) => (await gatherToolsList(input)).result;

test("splitToolName: built-ins, mcp__<server>__<tool>, `-` and `__` in names, plugins", () => {
  assert.deepEqual(splitToolName("Bash"), { server: null, tool: "Bash", plugin: false });
  assert.deepEqual(splitToolName("mcp__big__emit_text"), { server: "big", tool: "emit_text", plugin: false });
  assert.deepEqual(splitToolName("mcp__rollbar__list-items"), { server: "rollbar", tool: "list-items", plugin: false });
  assert.deepEqual(splitToolName("mcp__my-server__do_thing"), { server: "my-server", tool: "do_thing", plugin: false });
  // Unknown names: a server with "__" keeps it (split at the last "__").
  assert.deepEqual(splitToolName("mcp__my__docs__search"), { server: "my__docs", tool: "search", plugin: false });
  // A known server decides when the tool name holds "__".
  assert.deepEqual(splitToolName("mcp__lab-server__get__page", { servers: ["lab-server"] }), {
    server: "lab-server",
    tool: "get__page",
    plugin: false,
  });
  // Known raw server names are normalized the way Claude Code does.
  assert.deepEqual(splitToolName("mcp__claude_ai_Gmail__search", { servers: ["claude.ai Gmail"] }), {
    server: "claude_ai_Gmail",
    tool: "search",
    plugin: false,
  });
  // A known tool name decides too.
  assert.deepEqual(splitToolName("mcp__a__b__get__page", { tools: ["get__page"] }), { server: "a__b", tool: "get__page", plugin: false });
  assert.deepEqual(splitToolName("mcp__plugin_trade_composer__backtest_symphony"), {
    server: "plugin_trade_composer",
    tool: "backtest_symphony",
    plugin: true,
  });
});

test("savedName: the producers of FORMATS.md 6.4 and the name inside tool-results/", () => {
  assert.deepEqual(savedName("~/.claude/projects/k/s/tool-results/toolu_01Xf9abc.json"), {
    relative: "toolu_01Xf9abc.json",
    kind: "toolu",
    extension: "json",
  });
  assert.equal(savedName("/h/tool-results/bk3v9x2qa.txt").kind, "bash");
  assert.equal(savedName("C:\\Users\\x\\.claude\\projects\\k\\s\\tool-results\\mcp-my__docs-search-1789422301000.txt").kind, "mcp");
  assert.equal(
    savedName("/h/tool-results/pdf-0f8fad5b-d9cb-469f-a165-70867728950e/page-1.png").relative,
    "pdf-0f8fad5b-d9cb-469f-a165-70867728950e/page-1.png",
  );
  assert.deepEqual(savedName("/tmp/out"), { relative: "out", kind: "other", extension: null });
});

test("readToolsList: JSON-RPC response (pretty), bare object, bare array, message log; `_meta` limit kept", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-tools-"));
  try {
    const tools = [{ name: "emit_text" }, { name: "emit_text_annotated", _meta: { "anthropic/maxResultSizeChars": 300000 } }];
    const cases: Record<string, string> = {
      "rpc.json": JSON.stringify({ jsonrpc: "2.0", id: 2, result: { tools } }, null, 2),
      "bare.json": JSON.stringify({ tools }),
      "array.json": JSON.stringify(tools),
      "log.jsonl": [
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools } }),
      ].join("\n"),
    };
    for (const [name, text] of Object.entries(cases)) {
      writeFileSync(join(dir, name), text);
      const input = { path: join(dir, name), kind: "rpc-log" as const, bytes: 0, sha256: "" };
      const r = await readToolsList(input);
      assert.equal(r.error, null, name);
      assert.deepEqual(
        r.tools.map((t) => [t.name, t.maxResultSizeChars]),
        [
          ["emit_text", null],
          ["emit_text_annotated", 300000],
        ],
        name,
      );
      assert.equal(input.bytes, Buffer.byteLength(text), name);
    }
    writeFileSync(join(dir, "broken.json"), '{"result":{"tools":[{"name":"a"},{"name":');
    const broken = await readToolsList({ path: join(dir, "broken.json"), kind: "rpc-log", bytes: 0, sha256: "" });
    assert.deepEqual(
      broken.tools.map((t) => t.name),
      ["a"],
    );
    assert.ok(broken.error);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
