import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli, runCliSpawned, sample } from "../helpers.js";

// Lines read as records despite damage (FORMATS.md 1.15: count and report, never drop): the record after a
// NUL run on its line (a crash remnant the next write landed after), and bytes that are not UTF-8 (read as
// U+FFFD). Health lists them in `damaged`; --strict fails on them as on malformed lines (CONTRACT.md).

const dir = mkdtempSync(join(tmpdir(), "ccf-damaged-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

const SESSION = "7e570000-0000-4000-8000-000000000001";
const env = { parentUuid: null, isSidechain: false, cwd: "/w", sessionId: SESSION, version: "2.1.39" };
const user = (uuid: string, content: string, t: number) =>
  JSON.stringify({ ...env, type: "user", message: { role: "user", content }, uuid, timestamp: `2026-05-01T10:00:0${t}.000Z` });
const assistant = (id: string, uuid: string, t: number) =>
  JSON.stringify({
    ...env,
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

function file(name: string, ...parts: Array<string | Buffer>): string {
  const path = join(dir, name);
  writeFileSync(path, Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : p))));
  return path;
}

// The reviewer's shape: line 2 is 40 NULs and then the assistant record, with no newline between.
const nulPrefix = file(
  "nul-prefix.jsonl",
  `${user("u-1", "go", 1)}\n`,
  Buffer.alloc(40),
  `${assistant("m1", "a-1", 2)}\n${user("u-2", "more", 3)}\n${assistant("m2", "a-2", 4)}\n`,
);
const [before, after] = user("u-2", "bad @BAD@", 1).split("@BAD@") as [string, string];
const notUtf8 = file(
  "not-utf8.jsonl",
  `${user("u-1", "go", 0)}\n`,
  before,
  Buffer.from([0xed, 0xa0, 0x80]),
  `${after}\n${assistant("m1", "a-1", 2)}\n`,
);

test("a record after a NUL run is read (m1 stays request 1) and the NULs are listed in health.damaged", async () => {
  const j = parseEnvelope(await runCli(["requests", nulPrefix, "--json"]), "requests");
  assert.deepEqual(
    j.requests.map((r: { messageId: string; line: number; index: number }) => [r.index, r.messageId, r.line]),
    [
      [1, "m1", 2],
      [2, "m2", 4],
    ],
  );
  const h = j.health;
  assert.deepEqual(h.damaged, [{ file: nulPrefix, line: 2, reason: "40 NUL bytes before byte 41 (crash remnant), skipped", bytes: 40 }]);
  assert.equal(h.damagedCount, 1);
  assert.deepEqual(h.malformed, []);
  assert.equal(h.lines, h.records + h.blankLines + h.malformedCount, "a damaged line is a record, counted once");
});

test("bytes that are not UTF-8: the line is read, health says where and how many, --strict exits 1", async () => {
  const plain = await runCli(["requests", notUtf8, "--json"]);
  const j = parseEnvelope(plain, "requests");
  assert.equal(j.requests.length, 1);
  assert.deepEqual(j.health.damaged, [
    { file: notUtf8, line: 2, reason: `3 bytes of invalid UTF-8 from byte ${Buffer.byteLength(before) + 1}, read as U+FFFD`, bytes: 3 },
  ]);
  assert.equal(j.health.records, 3);
  const strict = await runCli(["requests", notUtf8, "--json", "--strict"]);
  assert.equal(strict.code, 1);
  assert.deepEqual(JSON.parse(strict.stdout), j, "the document is written before the exit says it");
  assert.match(strict.stderr, /--strict: 1 damaged-line entry:\n {2}\S*not-utf8\.jsonl:2: 3 bytes of invalid UTF-8/);
});

test("--strict: damaged fails like malformed (the binary's exit code too); a clean file still passes", async () => {
  const strict = await runCliSpawned(["requests", nulPrefix, "--strict"]);
  assert.equal(strict.code, 1, strict.stderr);
  assert.match(strict.stderr, /nul-prefix\.jsonl:2: 40 NUL bytes before byte 41 \(crash remnant\), skipped/);
  const clean = file("clean.jsonl", `${user("u-1", "go", 1)}\n${assistant("m1", "a-1", 2)}\n`);
  const ok = await runCli(["requests", clean, "--json", "--strict"]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(JSON.parse(ok.stdout).health.damaged, []);
  assert.equal(JSON.parse(ok.stdout).health.damagedCount, 0);
});

test("the human health section lists a damaged line with file and line, and stderr warns", async () => {
  const r = await runCli(["requests", notUtf8]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Parse health/);
  assert.match(r.stdout, /read despite damage: 3 bytes of invalid UTF-8/);
  assert.match(r.stdout, /1 entry of damage in lines read as records/);
  assert.match(r.stderr, /1 entry of damage in lines read as records.*:\n.*not-utf8\.jsonl:2: 3 bytes of invalid UTF-8/);
  const md = await runCli(["requests", notUtf8, "--format", "markdown"]);
  assert.match(md.stdout, /Parse health: 3 lines, 3 records, 0 blank, 0 malformed, 1 damaged \(read all the same\)/);
});

test("health merges damaged lines across inputs: a transcript and the claude -p output read with it", async () => {
  const stream = readFileSync(sample("demo", "claude-p.stream.jsonl"));
  const nl = stream.indexOf(10);
  // The first event of the stream, with NULs before it.
  const damagedStream = file("run.stream.jsonl", Buffer.alloc(8), stream);
  const j = parseEnvelope(await runCli(["report", nulPrefix, "--stream-json", damagedStream, "--json"]), "report");
  assert.deepEqual(
    j.health.damaged.map((d: { file: string; line: number; bytes: number }) => [d.file, d.line, d.bytes]),
    [
      [nulPrefix, 2, 40],
      [damagedStream, 1, 8],
    ],
  );
  assert.equal(j.health.damagedCount, 2);
  assert.ok(nl > 0 && j.run?.init, "the init event after the NULs was read");
});
