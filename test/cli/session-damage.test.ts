import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli } from "../helpers.js";

// Per-session counts agree with health: a line read as a record despite damage (a NUL run before it, bytes
// that are not UTF-8 in a string) is counted per session beside the malformed lines, in `sessions` and export.

const home = mkdtempSync(join(tmpdir(), "ccf-session-damage-"));
process.on("exit", () => rmSync(home, { recursive: true, force: true }));

const SESSION = "7e570000-0000-4000-8000-0000000000d1";
const CLEAN = "7e570000-0000-4000-8000-0000000000c1";
const env = (sessionId: string) => ({ parentUuid: null, isSidechain: false, cwd: "/w", sessionId, version: "2.1.39" });
const user = (sid: string, uuid: string, content: string, t: number) =>
  JSON.stringify({ ...env(sid), type: "user", message: { role: "user", content }, uuid, timestamp: `2026-05-01T10:00:0${t}.000Z` });
const assistant = (sid: string, id: string, uuid: string, t: number) =>
  JSON.stringify({
    ...env(sid),
    type: "assistant",
    message: {
      id,
      model: "m",
      role: "assistant",
      content: [{ type: "text", text: "a" }],
      stop_reason: "end_turn",
      usage: { input_tokens: 3, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 5 },
    },
    uuid,
    timestamp: `2026-05-01T10:00:0${t}.000Z`,
  });

const proj = join(home, "projects", "-w");
mkdirSync(proj, { recursive: true });
const [before, after] = user(SESSION, "u-3", "bad @BAD@", 5).split("@BAD@") as [string, string];
writeFileSync(
  join(proj, `${SESSION}.jsonl`),
  Buffer.concat([
    Buffer.from(`${user(SESSION, "u-1", "go", 1)}\n`),
    Buffer.alloc(40), // line 2: a crash remnant, then the record
    Buffer.from(`${assistant(SESSION, "m1", "a-1", 2)}\n{"type":"user","trunc\n`), // line 3 malformed
    Buffer.from(before),
    Buffer.from([0xed, 0xa0, 0x80]), // line 4: a lone surrogate's bytes inside a string
    Buffer.from(`${after}\n${assistant(SESSION, "m2", "a-2", 6)}\n`),
  ]),
);
writeFileSync(join(proj, `${CLEAN}.jsonl`), `${user(CLEAN, "c-1", "hi", 1)}\n${assistant(CLEAN, "m9", "c-2", 2)}\n`);

test("sessions: each row counts its damaged entries beside its malformed lines, as health does", async () => {
  const j = parseEnvelope(await runCli(["sessions", "--claude-dir", home, "--json"]), "sessions");
  assert.equal(j.health.malformedCount, 1);
  assert.equal(j.health.damagedCount, 2);
  const rows = Object.fromEntries(j.sessions.map((s: Record<string, any>) => [s.sessionId, [s.malformed, s.damaged]]));
  assert.deepEqual(rows, { [SESSION]: [1, 2], [CLEAN]: [0, 0] });
  const table = await runCli(["sessions", "--claude-dir", home, "--columns", "sessionId,malformed,damaged"]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /│ damaged │/);
  assert.match(table.stdout, new RegExp(`${SESSION.slice(0, 8)}[^│]*│ +1 │ +2 │`));
});

test("export: sessions.damaged_entries beside malformed_lines, and in the schema", async () => {
  const out = mkdtempSync(join(tmpdir(), "ccf-session-damage-out-"));
  const r = await runCli(["export", "--claude-dir", home, "--to", out, "--as", "ndjson"]);
  assert.equal(r.code, 0, r.stderr);
  const rows = readFileSync(join(out, "sessions.ndjson"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(Object.fromEntries(rows.map((s) => [s.session_id, [s.malformed_lines, s.damaged_entries]])), {
    [SESSION]: [1, 2],
    [CLEAN]: [0, 0],
  });
  const schema = JSON.parse(readFileSync(join(out, "schema.json"), "utf8"));
  const sessions = schema.tables.find((t: { name: string }) => t.name === "sessions");
  const names = sessions.columns.map((c: { name: string }) => c.name);
  assert.equal(names.indexOf("damaged_entries"), names.indexOf("malformed_lines") + 1);
  rmSync(out, { recursive: true, force: true });
});
