import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli } from "../helpers.js";

// A debug finding quotes evidence (a server's last error, a failed count_tokens answer) and the human formats
// show the quote cut. Cut before --redact, a saved file's name the cut split reached the redactor as a fragment
// it could not recognise (`mcp-docs-fetch-178942…`: 6 of the stamp's 13 digits). Findings are now whole where
// they are data (JSON's flags, CSV) and cut at render, after redaction.

const STAMP = "1789422257974";
const SAVED = `/tmp/ccf-lab/projects/-tmp-lab/c0ffee00-1111-4222-8333-444444444444/tool-results/mcp-docs-fetch-${STAMP}.txt`;

/** `head`, padding, then the saved path, so that the first `at` characters end `keep` digits into the stamp. */
function placed(head: string, at: number, keep: number): string {
  const before = `${head} reading `;
  const tail = ` ${SAVED.slice(0, SAVED.indexOf(STAMP))}`;
  const pad = at - keep - before.length - tail.length;
  assert.ok(pad > 0);
  return `${before}${"x".repeat(pad)}${tail}${STAMP}.txt: EIO ${"y".repeat(100)} END`;
}

function debugLog(): { file: string; error: string; failed: string } {
  const dir = mkdtempSync(join(tmpdir(), "ccf-debug-redact-cut-"));
  const file = join(dir, "debug.txt");
  // The finding's quote is cut to 159 characters and `…`; the count_tokens `failed` cell too (kind entry, 160).
  const error = placed("Connection error:", 159, 6);
  const failed = placed("404", 159, 6);
  writeFileSync(
    file,
    [
      `2026-10-02T09:41:07.120Z [DEBUG] MCP server "docs": Starting connection with timeout of 30000ms`,
      `2026-10-02T09:41:07.506Z [DEBUG] MCP server "docs": Successfully connected (transport: http) in 386ms`,
      `2026-10-02T09:41:07.629Z [DEBUG] [API REQUEST] /v1/messages/count_tokens x-client-request-id=3f1c2a9e-7b1d-4c55-9a0e-000000000012 source=count_tokens`,
      `2026-10-02T09:41:07.851Z [ERROR] countTokens API call failed: ${failed}`,
      `2026-10-02T09:41:10.069Z [DEBUG] MCP server "docs": ${error}`,
      "",
    ].join("\n"),
  );
  return { file, error, failed };
}

test("debug --redact: a finding's quote and a failed count_tokens answer are cut after redaction, so no cut leaves part of a saved name", async () => {
  const { file, error, failed } = debugLog();
  for (const format of ["table", "markdown", "html", "csv", "json"]) {
    const r = await runCli(["debug", file, "--format", format, "--redact"]);
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout + r.stderr;
    // The stamp keeps 4 digits under --redact (`1789…`); 5 or more would be more than the rule shows.
    assert.ok(!out.includes(STAMP.slice(0, 5)), `${format}: part of the stamp survived: ${out.match(/.{40}17894.{10}/)?.[0]}`);
    if (format === "table" || format === "markdown") {
      // The human formats still cut the quote: the findings row ends in `…` well before the error's end.
      const row = out.split("\n").find((l) => l.includes('server "docs" had a connection error'))!;
      assert.match(row, /: EIO y+… [│|]$/);
    }
  }
  // JSON's flags and countTokens carry the quote whole: nothing is cut before redaction.
  const plain = parseEnvelope(await runCli(["debug", file, "--json"]), "debug");
  const finding = (plain.debug.flags as string[]).find((f) => f.startsWith('server "docs" had a connection error'));
  assert.ok(finding?.endsWith(error), `the finding quotes the whole error: ${finding}`);
  assert.ok(
    (plain.debug.flags as string[]).some((f) => f.includes(failed)),
    "the count_tokens finding quotes the answer whole",
  );
  assert.equal(plain.debug.countTokens[0].failed, `countTokens API call failed: ${failed}`);
});

test("debug: the human formats cut a finding's quote at 160 characters at render, the rest of the finding whole", async () => {
  const { file, error } = debugLog();
  const r = await runCli(["debug", file, "--format", "markdown"]);
  assert.equal(r.code, 0, r.stderr);
  const row = r.stdout.split("\n").find((l) => l.includes('server "docs" had a connection error'))!;
  // (markdown shows a session id by its first 8 characters, as every id; the quote's cut is the point here.)
  assert.ok(error.slice(0, 159).endsWith(`fetch-${STAMP.slice(0, 6)}`));
  assert.match(
    row,
    new RegExp(`did not reconnect in this log: Connection error: reading x+ /tmp/.*/mcp-docs-fetch-${STAMP.slice(0, 6)}… \\|$`),
  );
});
