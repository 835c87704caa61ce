import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

test("debug CSV and JSON's flags quote a finding's evidence whole (a ZodError of many lines, joined); the human formats cut the quote at render", async () => {
  const j = parseEnvelope(await runCli(["debug", FAILURES, "--json"]), "debug");
  const docs = (j.debug.servers as Array<{ name: string; lastError: string }>).find((s) => s.name === "docs")!;
  const joined = docs.lastError.replace(/\s*\n\s*/g, " ").trim();
  assert.ok(joined.length > 400, "the sample's error is long");
  const prefix = 'server "docs" had a connection error after connecting and did not reconnect in this log: ';
  const r = await runCli(["debug", FAILURES, "--format", "csv"]);
  assert.equal(r.code, 0, r.stderr);
  const findings = parseCsv(r.stdout)
    .filter((c) => c[0] === "findings")
    .map((c) => c[1]);
  assert.equal(findings.length, (j.debug.flags as string[]).length);
  assert.ok(findings.includes(sanitize(prefix + joined)), "the whole error, lines joined");
  // Every finding is JSON's, word for word: each is cut only where it is shown, after --redact.
  assert.deepEqual(findings, (j.debug.flags as string[]).map(sanitize));
  assert.ok((j.debug.flags as string[]).includes(prefix + joined));
  const md = await runCli(["debug", FAILURES, "--format", "markdown"]);
  const row = md.stdout.split("\n").find((l) => l.includes('server "docs" had a connection error'))!;
  assert.match(row, /"path": … \|$/);
});

test("CSV carries a malformed line's excerpt whole, as JSON's health has it; the terminal table cuts at 60", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-csv-excerpt-"));
  try {
    const file = join(dir, "abcdef12-0000-4000-8000-0000000000aa.jsonl");
    const env = { parentUuid: null, isSidechain: false, cwd: "/w", sessionId: "abcdef12-0000-4000-8000-0000000000aa", version: "2.1.39" };
    const user = JSON.stringify({
      ...env,
      type: "user",
      message: { role: "user", content: "go" },
      uuid: "u-1",
      timestamp: "2026-05-01T10:00:00.000Z",
    });
    // A write cut mid-record (a crash): 100 characters of a record, no closing brace.
    const cutLine = `{"type":"user","message":{"role":"user","content":"${"w".repeat(60)}`;
    writeFileSync(file, `${user}\n${cutLine}\n`);
    const j = parseEnvelope(await runCli(["requests", file, "--json"]), "requests");
    const excerpt = j.health.malformed[0].excerpt as string;
    assert.ok(excerpt.length > 60, excerpt);
    const r = await runCli(["requests", file, "--format", "csv"]);
    assert.equal(r.code, 0, r.stderr);
    const rows = parseCsv(r.stdout);
    const head = rows.find((c) => c[0] === "table" && c.includes("excerpt"))!;
    const health = rows.filter((c) => c[0] === "health");
    assert.deepEqual(
      health.map((c) => [c[head.indexOf("line")], c[head.indexOf("excerpt")]]),
      [["2", sanitize(excerpt)]],
    );
    const t = await runCli(["requests", file, "--wide"]);
    assert.ok(t.stdout.includes(`${excerpt.slice(0, 60)}…`));
    assert.ok(!t.stdout.includes(excerpt));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
