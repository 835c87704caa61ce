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

// ── evidence-dependent columns: CSV keeps them, the human formats may leave an empty one out ──────────────

const RPC_DIR = sample("instructions", "rpc-source");
const RPC_LOG = sample("instructions", "rpc-source", "rpc-log.jsonl");
const block = (csv: string, id: string) =>
  csv
    .split("\r\n\r\n")
    .find((b) => b.split("\r\n")[1]?.startsWith(`${id},`))!
    .split("\r\n");

test("instructions CSV: the verbatim columns are there with and without a message log, raw (true/false/null, an offset)", async () => {
  const args = ["instructions", "e5000000", "--claude-dir", RPC_DIR, "--format", "csv"];
  const without = await runCli(args);
  const withLog = await runCli([...args, "--rpc-log", RPC_LOG]);
  assert.equal(without.code, 0, without.stderr);
  assert.equal(withLog.code, 0, withLog.stderr);
  const head = block(without.stdout, "instructions")[0]!;
  assert.equal(head, block(withLog.stdout, "instructions")[0]);
  assert.match(head, /,renderedChars,verbatimPrefix,firstDifferenceAt,begin,end,lastMarker$/);
  const keys = head.split(",");
  const cell = (csv: string, key: string) => block(csv, "instructions")[1]!.split(",")[keys.indexOf(key)];
  assert.equal(cell(without.stdout, "verbatimPrefix"), "");
  assert.equal(cell(withLog.stdout, "verbatimPrefix"), "true");
  assert.equal(cell(withLog.stdout, "firstDifferenceAt"), "");
  // The human formats: `yes` with the log; without it no server's sent text is known and the column is left out.
  const table = await runCli(["instructions", "e5000000", "--claude-dir", RPC_DIR, "--rpc-log", RPC_LOG, "--wide"]);
  assert.match(table.stdout, /│ verbatim │/);
  assert.match(table.stdout, /│ yes {6}│/);
  const bare = await runCli(["instructions", "e5000000", "--claude-dir", RPC_DIR, "--format", "markdown"]);
  assert.doesNotMatch(bare.stdout, /verbatim/);
});

test("instructions CSV: a delivered text that differs from the sent one is false with the offset as a number", async () => {
  // The same log with the sent text changed at char 6: the delivered text is no longer a prefix of it.
  const log = join(dir, "rpc-log-changed.jsonl");
  const lines = readFileSync(RPC_LOG, "utf8").split("\n");
  const i = lines.findIndex((l) => l.includes('"instructions"'));
  const rec = JSON.parse(lines[i]!);
  const inst: string = rec.result.instructions;
  rec.result.instructions = `${inst.slice(0, 6)}#${inst.slice(7)}`;
  lines[i] = JSON.stringify(rec);
  writeFileSync(log, lines.join("\n"));
  const r = await runCli(["instructions", "e5000000", "--claude-dir", RPC_DIR, "--rpc-log", log, "--format", "csv"]);
  assert.equal(r.code, 0, r.stderr);
  const [head, row] = block(r.stdout, "instructions");
  const keys = head!.split(",");
  const cells = row!.split(",");
  assert.deepEqual([cells[keys.indexOf("verbatimPrefix")], cells[keys.indexOf("firstDifferenceAt")]], ["false", "6"]);
  const table = await runCli(["instructions", "e5000000", "--claude-dir", RPC_DIR, "--rpc-log", log, "--wide"]);
  assert.match(table.stdout, /│ no @ 6 +│/);
});

test("instructions CSV: the compacted column is there without a compaction", async () => {
  const r = await runCli(["instructions", "e5000000", "--claude-dir", RPC_DIR, "--format", "csv"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(block(r.stdout, "instructions")[0]!, /,requestIndex,compacted,chars,/);
  assert.match(block(r.stdout, "instructions-context")[0]!, /^table,server,requestIndex,compacted,position,/);
});

test("debug CSV: persisted bytes stay the integer (with bytesExact); count_tokens keeps its transcript columns", async () => {
  const log = sample("claude-home", "debug", "c0ffee00-1111-4222-8333-444444444444.txt");
  const r = await runCli(["debug", log, "--format", "csv"]);
  assert.equal(r.code, 0, r.stderr);
  const persisted = block(r.stdout, "debug:persisted");
  assert.equal(persisted[0], "table,line,time,size,bytes,bytesExact,path");
  assert.match(persisted[1]!, /^debug:persisted,23,2026-09-14T21:44:08\.234Z,51\.7KB,52941,false,\//);
  assert.equal(block(r.stdout, "debug:count-tokens")[0], "table,line,time,beforeLine,before,toolResult,toolResultChars,failed");
  // The human formats: the rounded size as such, and no empty transcript columns.
  const table = await runCli(["debug", log, "--wide"]);
  assert.match(table.stdout, /│ ≈51\.7 KB │/);
  assert.doesNotMatch(table.stdout, /during tool result/);
});
