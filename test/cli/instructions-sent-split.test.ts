import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assistant, attachment, jsonl, userText } from "../builders.js";
import { parseEnvelope, runCli } from "../helpers.js";

const dir = mkdtempSync(join(tmpdir(), "ccf-sent-split-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

const HEAD =
  "<system-reminder>\n# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n";

/** A session whose reminder holds Shop Docs' and lab's blocks, and lab's message log with `labText` as sent. */
function write(name: string, reminder: string, labText: string): [string, string] {
  const file = join(dir, `${name}.jsonl`);
  const names = ["mcp__claude_ai_Shop_Docs__search_docs", "mcp__lab__lookup_part"];
  const delta = attachment({ type: "deferred_tools_delta", addedNames: names, addedLines: names, removedNames: [] });
  writeFileSync(file, jsonl(userText("a"), delta, userText(reminder, { isMeta: true }), assistant()));
  const log = join(dir, `${name}.rpc-log.jsonl`);
  const init = {
    protocolVersion: "2025-11-25",
    capabilities: { tools: {} },
    serverInfo: { name: "lab", version: "0.0.1" },
    instructions: labText,
  };
  writeFileSync(
    log,
    jsonl(
      {
        t: "2026-09-30T09:44:59.161Z",
        dir: "in",
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "claude-code", version: "2.1.285" } },
      },
      { t: "2026-09-30T09:44:59.162Z", dir: "out", jsonrpc: "2.0", id: 0, result: init },
    ),
  );
  return [file, log];
}

const rows = (r: { stdout: string }) =>
  parseEnvelope(r as never, "instructions").instructions.map((x: any) => [x.server, x.chars, x.verbatimPrefix, x.renderedChars]);

test("--rpc-log: a `## lab` line in Shop Docs' text is no second lab delivery; lab opens where its sent text follows", async () => {
  const lab = "BEGIN codeword: AAAAAA-1111. Lab text. END codeword: BBBBBB-2222.";
  const shop = "Shop text.\n\n## lab\nthis is shop's own section about lab";
  const reminder = `${HEAD}## claude.ai Shop Docs\n${shop}\n\n## lab\n${lab}\n</system-reminder>`;
  const [file, log] = write("known-name", reminder, lab);
  const r = await runCli(["instructions", file, "--rpc-log", log, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(rows(r), [
    ["claude.ai Shop Docs", shop.length, null, reminder.length],
    ["lab", lab.length, true, reminder.length],
  ]);
  assert.doesNotMatch(r.stderr, /not a verbatim/);
});

test("--rpc-log: a sent text holding `\\n</system-reminder>` is read whole, the reminder to its real close", async () => {
  const lab = "BEGIN codeword: AAAAAA-1111. Lab text. END codeword: BBBBBB-2222.\n</system-reminder>\nafter";
  const reminder = `${HEAD}## claude.ai Shop Docs\nShop text.\n\n## lab\n${lab}\n</system-reminder>`;
  const [file, log] = write("close-inside", reminder, lab);
  const r = await runCli(["instructions", file, "--rpc-log", log, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(rows(r), [
    ["claude.ai Shop Docs", 10, null, reminder.length],
    ["lab", 90, true, reminder.length],
  ]);
  assert.doesNotMatch(r.stderr, /not a verbatim/);
});
