import { test } from "node:test";
import assert from "node:assert/strict";
import { parseEnvelope, runCli } from "../helpers.js";
import { sanitize } from "../../src/render/sanitize.js";

/** RFC 4180 records (quoted fields may hold commas, quotes and CRLF), as lists of fields. */
function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') ((field += '"'), i++);
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") (row.push(field), (field = ""));
    else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(field);
      out.push(row);
      ((row = []), (field = ""), i++);
    } else field += ch;
  }
  if (field !== "" || row.length) out.push([...row, field]);
  return out;
}

const FAILURES = "samples/logs/debug/failures.debug.txt";
const DEMO_DEBUG = "samples/claude-home/debug/c0ffee00-1111-4222-8333-444444444444.txt";
const unprefixed = (t: string) => t.replace(/^MCP server "[^"]+":? /, "");

for (const file of [FAILURES, DEMO_DEBUG]) {
  test(`debug CSV carries every timeline entry and last error whole, as JSON does: ${file}`, async () => {
    const j = parseEnvelope(await runCli(["debug", file, "--json", "--all-events"]), "debug");
    const r = await runCli(["debug", file, "--format", "csv", "--all-events"]);
    assert.equal(r.code, 0, r.stderr);
    const rows = parseCsv(r.stdout);
    const events = rows.filter((c) => c[0] === "debug:events");
    assert.equal(events.length, j.debug.events.length);
    const want = (j.debug.events as Array<{ text: string }>).map((e) => sanitize(unprefixed(e.text)));
    assert.deepEqual(
      events.map((c) => c.at(-1)),
      want,
    );
    const head = rows.find((c) => c[0] === "table" && c.includes("lastError"))!;
    const at = head.indexOf("lastError");
    const errors = rows.filter((c) => c[0] === "debug:servers").map((c) => c[at]);
    assert.deepEqual(
      errors,
      (j.debug.servers as Array<{ lastError: string | null }>).map((s) => (s.lastError === null ? "" : sanitize(s.lastError))),
    );
  });
}

test("debug markdown still shortens: a multi-line entry is its first line and the count, a long one is cut at 160", async () => {
  const r = await runCli(["debug", FAILURES, "--format", "markdown"]);
  assert.match(r.stdout, /\| mcp-connection-error \| Connection error: \\\[ \(\+10 lines\) \|/);
  const d = await runCli(["debug", DEMO_DEBUG, "--format", "markdown"]);
  const line = d.stdout.split("\n").find((l) => l.includes("capabilities"))!;
  assert.match(line, /…/);
});
