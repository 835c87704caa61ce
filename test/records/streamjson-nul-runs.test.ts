import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { headlessEmpty } from "../../src/analyses/headless-run.js";
import { recogniseKind } from "../../src/records/sources.js";
import { headlessSource } from "../../src/records/streamjson.js";
import type { InputFile } from "../../src/sources/input.js";
import { sample } from "../helpers.js";
import { readClaudeRun } from "../read.js";

// A crash leaves NUL runs around claude -p output. Every run is damage said once with where it is, also when
// no message is there to carry it, and input recognition looks past a run that opens the output.

type ClaudeRun = Awaited<ReturnType<typeof readClaudeRun>>;
const dir = mkdtempSync(join(tmpdir(), "ccf-sj-nul-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** The run read from stdin in chunks of several sizes, and from a file. */
async function everyWay(bytes: Buffer, check: (r: ClaudeRun, how: string) => void): Promise<void> {
  for (const size of [1, 7, 4096]) {
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
    const input: InputFile = { path: "-", kind: "stream-json", bytes: 0, sha256: "" };
    check(await readClaudeRun(input, { stdin: Readable.from(chunks) }), `stdin, chunks of ${size}`);
  }
  const path = join(dir, `out-${n++}`);
  writeFileSync(path, bytes);
  check(await readClaudeRun({ path, kind: "stream-json", bytes: 0, sha256: "" }), "file");
}

const nuls = (k: number) => Buffer.alloc(k);
const text = (s: string) => Buffer.from(s, "utf8");
const damaged = (r: ClaudeRun) => r.health.damaged.map((d) => [d.line, d.reason, d.bytes]);
const INIT = '{"type":"system","subtype":"init","session_id":"s-1","model":"m","tools":[],"mcp_servers":[]}';
const RESULT = '{"type":"result","subtype":"success","session_id":"s-1","num_turns":1}';

test("an empty array after or before a crash's NUL run: each run is listed as damage, with its byte", async () => {
  await everyWay(Buffer.concat([text("[]"), nuls(4)]), (r, how) => {
    assert.deepEqual(damaged(r), [[1, "4 trailing NUL bytes from byte 3 (crash remnant), skipped", 4]], how);
    assert.deepEqual(r.health.malformed, [], how);
  });
  await everyWay(Buffer.concat([nuls(3), text("\n[ ]\n"), nuls(5)]), (r, how) => {
    assert.deepEqual(
      damaged(r),
      [
        [1, "3 NUL bytes before byte 5 (crash remnant), skipped", 3],
        [3, "5 trailing NUL bytes from byte 9 (crash remnant), skipped", 5],
      ],
      how,
    );
    assert.equal(r.health.records, 0, how);
    // A crash remnant is not a run that printed nothing.
    assert.equal(headlessEmpty(r, r.health), false, how);
  });
  await everyWay(text("[]\n"), (r, how) => assert.equal(headlessEmpty(r, r.health), true, how));
});

test("a malformed last element before a crash's NUL run: the run is damage still, once, in file order", async () => {
  const head = `[${INIT},"oops"]`;
  await everyWay(Buffer.concat([text(head), nuls(6)]), (r, how) => {
    assert.equal(r.init!.sessionId, "s-1", how);
    assert.deepEqual(
      r.health.malformed.map((m) => m.reason),
      [`element 2 (from byte ${INIT.length + 3}): expected a JSON object, got a string`],
      how,
    );
    assert.deepEqual(damaged(r), [[1, `6 trailing NUL bytes from byte ${head.length + 1} (crash remnant), skipped`, 6]], how);
  });
  // Only malformed elements: the runs before "[" and after "]" both have no event to go with.
  await everyWay(Buffer.concat([nuls(2), text('["a",1]'), nuls(2)]), (r, how) => {
    assert.equal(r.health.malformedCount, 2, how);
    assert.deepEqual(
      damaged(r),
      [
        [1, "2 NUL bytes before byte 3 (crash remnant), skipped", 2],
        [1, "2 trailing NUL bytes from byte 10 (crash remnant), skipped", 2],
      ],
      how,
    );
  });
});

test("a NUL run on lines of its own before stream-json lines is one damage entry, not a malformed line", async () => {
  const lines = `${INIT}\n${RESULT}\n`;
  await everyWay(Buffer.concat([nuls(5), text("\n"), nuls(2), text("\n"), text(lines)]), (r, how) => {
    assert.equal(r.format, "stream-json", how);
    assert.equal(r.init!.sessionId, "s-1", how);
    assert.equal(r.result!.numTurns, 1, how);
    assert.deepEqual(r.health.malformed, [], how);
    assert.deepEqual(damaged(r), [[1, "7 NUL bytes before byte 10 (crash remnant), skipped", 7]], how);
    assert.deepEqual([r.health.records, r.health.blankLines, r.health.lines], [2, 0, 4], how);
  });
  // The run and the first record on one line: as before, the same entry.
  await everyWay(Buffer.concat([nuls(5), text(lines)]), (r, how) => {
    assert.deepEqual(damaged(r), [[1, "5 NUL bytes before byte 6 (crash remnant), skipped", 5]], how);
    assert.deepEqual([r.health.records, r.health.malformedCount], [2, 0], how);
  });
  // The run's NULs on the record's own line are said with the run, once; the line's other damage as before.
  const line2 = Buffer.concat([
    nuls(2),
    text('{"type":"system","subtype":"init","session_id":"s-1","x":"'),
    Buffer.from([0xff]),
    text('"}'),
  ]);
  await everyWay(Buffer.concat([nuls(2), text("\n"), line2, text(`\n${RESULT}\n`)]), (r, how) => {
    assert.equal(r.init!.sessionId, "s-1", how);
    assert.deepEqual(
      damaged(r),
      [
        [1, "4 NUL bytes before byte 6 (crash remnant), skipped", 4],
        [2, `1 byte of invalid UTF-8 from byte ${line2.indexOf(0xff) + 1}, read as U+FFFD`, 1],
      ],
      how,
    );
  });
  // A first line that is no record: the run is said on its own, before it.
  await everyWay(Buffer.concat([nuls(3), text("\nnot json\n"), text(lines)]), (r, how) => {
    assert.deepEqual(damaged(r), [[1, "3 NUL bytes before byte 5 (crash remnant), skipped", 3]], how);
    assert.deepEqual(
      r.health.malformed.map((m) => m.line),
      [2],
      how,
    );
  });
});

test("claude -p output that opens with a crash's NUL run is recognised as claude -p output, NDJSON and array", () => {
  const head = (b: Buffer) => b.subarray(0, 4096).toString("utf8");
  const ndjson = readFileSync(sample("logs", "claude-p", "late-server.stream.jsonl"));
  const array = readFileSync(sample("logs", "claude-p", "legacy.verbose.json"));
  for (const [name, body] of [
    ["stream-json", ndjson],
    ["json --verbose", array],
  ] as const) {
    for (const lead of [nuls(64), Buffer.concat([nuls(8), text("\n \n"), nuls(8), text("\n")])]) {
      const h = head(Buffer.concat([lead, body]));
      assert.equal(headlessSource.recognise(h), true, name);
      assert.equal(recogniseKind(h), "stream-json", name);
    }
  }
  // A transcript behind a NUL run is still a transcript, not claude -p output (its records have "type" too).
  const transcript = readFileSync(
    sample("instructions", "system-prompt", "projects", "-Users-lab-runs-empty", "5a5e0000-0000-4000-8000-000000000005.jsonl"),
  );
  assert.equal(recogniseKind(head(Buffer.concat([nuls(16), transcript]))), "transcript");
});
