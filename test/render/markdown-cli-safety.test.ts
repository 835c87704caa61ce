import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers.js";
import { assistant, attachment, jsonl, toolResult, userText } from "../builders.js";
import { assertOwnMarkupOnly, toHtml, visibleText } from "./html-check.js";

const IMG = "a`<img src=x onerror=alert(1)>``b";
const PIXEL = "![x](http://evil.example/pixel.png)";
const LINK = "[x](javascript:alert(1))";
const BARE = "see http://evil.example and www.evil.example";

/** A transcript whose model, server, tool, path, type and version fields carry markup. */
function hostileTranscript(): string {
  const id = "toolu_0000000000000000000001";
  return jsonl(
    userText(`${LINK} please`, { cwd: `/tmp/${PIXEL}` }),
    attachment({
      type: "mcp_instructions_delta",
      addedNames: [IMG],
      addedBlocks: [`## ${IMG}\n${BARE} <script>alert(1)</script>`],
      removedNames: [],
    }),
    attachment({ type: `kind ${PIXEL}`, text: "x" }),
    assistant({
      model: IMG,
      blocks: [{ type: "tool_use", id, name: `mcp__${PIXEL}__${LINK}`, input: { file_path: `/tmp/${BARE}` } }],
      extra: { version: LINK },
    }),
    toolResult(
      id,
      `<persisted-output>\nOutput too large (51.7KB). Full output saved to: /tmp/tool-results/${PIXEL}.json\n\nPreview (first 2KB):\n${IMG}\n...\n</persisted-output>`,
    ),
    assistant({ model: IMG, usage: { cache_read_input_tokens: 500 } }),
    { type: `type ${IMG}`, uuid: "x-1" },
    `{"type":"assistant","message":${JSON.stringify(PIXEL)}`,
  );
}

test("every command's markdown of a hostile transcript holds no element or attribute from evidence, and shows it as text", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-md-"));
  const file = join(dir, "0badc0de-0000-4000-8000-000000000000.jsonl");
  writeFileSync(file, hostileTranscript());
  const seen = new Map<string, string>();
  for (const cmd of ["requests", "outputs", "instructions", "inventory", "report"]) {
    const r = await runCli([cmd, file, "--format", "markdown"]);
    assert.equal(r.code, 0, `${cmd}: ${r.stderr}`);
    const html = toHtml(r.stdout);
    assertOwnMarkupOnly(html, cmd);
    seen.set(cmd, visibleText(html));
  }
  assert.ok(seen.get("requests")!.includes(IMG), "requests shows the model name as written");
  assert.ok(seen.get("instructions")!.includes(IMG), "instructions shows the server name as written");
  assert.ok(seen.get("outputs")!.includes(`mcp__${PIXEL}__${LINK}`), "outputs shows the tool name as written");
  assert.ok(seen.get("inventory")!.includes(`type ${IMG}`), "inventory shows the unknown type as written");
  for (const text of [IMG, PIXEL]) assert.ok(seen.get("report")!.includes(text), `report shows ${text}`);
});
