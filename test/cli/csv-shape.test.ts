import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, sample } from "../helpers.js";

// A script reading a command's CSV finds the same columns whatever the evidence held: the `table` column
// is the command's, not a consequence of which tables happened to have rows (a malformed line, a subagent).

const dir = mkdtempSync(join(tmpdir(), "ccf-csv-shape-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

const CLEAN = sample("claude-home", "projects", "-home-dev-my-app", "abcdef12-0000-4000-8000-000000000001.jsonl");
// The same session with a truncated write at its end (a crash mid-line): health gets a row.
const damaged = join(dir, "abcdef12-0000-4000-8000-000000000001.jsonl");
writeFileSync(damaged, `${readFileSync(CLEAN, "utf8")}{"type":"assistant","message":{"id":"msg_cut\n`);

const header = (csv: string) => csv.split("\r\n")[0];

test("requests CSV: the same header with and without a malformed line, both starting with the table column", async () => {
  const clean = await runCli(["requests", CLEAN, "--format", "csv"]);
  const bad = await runCli(["requests", damaged, "--format", "csv"]);
  assert.equal(clean.code, 0, clean.stderr);
  assert.equal(bad.code, 0, bad.stderr);
  assert.equal(header(clean.stdout), header(bad.stdout));
  assert.match(header(clean.stdout)!, /^table,index,duplicateOf,/);
  assert.match(clean.stdout, /\r\nrequests:main,1,/);
  assert.doesNotMatch(clean.stdout, /\r\nhealth,/);
  // The damaged file's requests block is the clean one's; health follows as its own block.
  assert.equal(bad.stdout.split("\r\n\r\n")[0], clean.stdout.replace(/\r\n$/, ""));
  assert.match(bad.stdout, /\r\n\r\ntable,file,line,reason,excerpt\r\nhealth,/);
});

test("requests CSV on an empty transcript: parse health's header, with the table column", async () => {
  const empty = join(dir, "abcdef12-0000-4000-8000-0000000000ee.jsonl");
  writeFileSync(empty, "");
  const r = await runCli(["requests", empty, "--format", "csv"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "table,file,line,reason,excerpt\r\n");
});

test("sessions CSV, a one-table document, has no table column", async () => {
  const r = await runCli(["sessions", "--claude-dir", sample("claude-home"), "--format", "csv"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(header(r.stdout)!, /^sessionId,mainFileMissing,project,/);
});
