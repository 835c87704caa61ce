import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli } from "../helpers.js";

// Debug logs and MCP message logs report bytes that are not UTF-8 as transcripts do: the line is read
// (U+FFFD in place of the bad bytes), counted as a record, and listed in health.damaged with its line.

const dir = mkdtempSync(join(tmpdir(), "ccf-logdamage-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, parts: Array<string | number[]>): string => {
  const path = join(dir, name);
  writeFileSync(path, Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p)))));
  return path;
};

test("rpc: a message line with bytes that are not UTF-8 is read and listed as damaged; --strict fails on it", async () => {
  const file = write("rpc-log.jsonl", [
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup","arguments":{"q":"a',
    [0xff],
    'b"}}}\n',
    '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"caf',
    [0xc3, 0x28],
    '"}]}}\n',
    // A batch line is one line: its damage is listed once.
    '[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"',
    [0xe6, 0x97],
    '"}}]\n',
    '{"jsonrpc":"2.0","id":2,"result":{}}\n',
  ]);
  const j = parseEnvelope(await runCli(["rpc", file, "--json"]), "rpc");
  assert.equal(j.rpc.messages, 5);
  assert.deepEqual(j.rpc.methods, ["tools/call", "notifications/initialized", "ping"]);
  assert.equal(j.health.records, 5);
  assert.equal(j.health.malformedCount, 0);
  assert.equal(j.health.damagedCount, 3);
  assert.deepEqual(
    j.health.damaged.map((d: any) => [d.file, d.line, d.reason, d.bytes]),
    [
      [file, 1, "1 byte of invalid UTF-8 from byte 92, read as U+FFFD", 1],
      [file, 2, "1 byte of invalid UTF-8 from byte 72, read as U+FFFD", 1],
      [file, 3, "2 bytes of invalid UTF-8 from byte 112, read as U+FFFD", 2],
    ],
  );
  const strict = await runCli(["rpc", file, "--strict"]);
  assert.equal(strict.code, 1);
  assert.match(strict.stderr, /--strict: 3 damaged-line entries:/);
  assert.match(strict.stderr, /rpc-log\.jsonl:3: 2 bytes of invalid UTF-8 from byte 112, read as U\+FFFD \(read all the same\)/);
});

test("debug: bad UTF-8 in a header line and in a continuation line is listed with each physical line", async () => {
  const file = write("debug.txt", [
    '2026-09-30T05:02:11.208Z [DEBUG] MCP server "lab": hello ',
    [0xc3, 0x28],
    " world\n",
    "  at frame ",
    [0xff],
    "\n",
    "2026-09-30T05:02:11.300Z [DEBUG] clean\n",
    // A per-server JSONL line is read too.
    '{"debug":"x',
    [0xed, 0xa0, 0x80],
    '","timestamp":"2026-09-30T05:02:12.000Z"}\n',
  ]);
  const j = parseEnvelope(await runCli(["debug", file, "--json"]), "debug");
  assert.equal(j.debug.entries, 3);
  assert.equal(j.health.records, 3);
  assert.equal(j.health.damagedCount, 3);
  assert.deepEqual(
    j.health.damaged.map((d: any) => [d.line, d.reason, d.bytes]),
    [
      [1, "1 byte of invalid UTF-8 from byte 58, read as U+FFFD", 1],
      [2, "1 byte of invalid UTF-8 from byte 12, read as U+FFFD", 1],
      [4, "3 bytes of invalid UTF-8 from byte 12, read as U+FFFD", 3],
    ],
  );
  // The text is still read, with U+FFFD in place of the bad bytes.
  const first = j.debug.events.find((e: any) => e.text.startsWith('MCP server "lab"'));
  assert.equal(first?.text, 'MCP server "lab": hello \ufffd( world\n  at frame \ufffd');
  assert.equal((await runCli(["debug", file, "--strict"])).code, 1);
});

test("rpc: NUL runs a message line starts or ends with (crash remnants) are skipped and listed, as in transcripts", async () => {
  const req = '{"t":"2026-09-30T05:02:11.208Z","dir":"in","jsonrpc":"2.0","id":1,"method":"tools/list"}';
  const file = write("rpc-nul.jsonl", [
    req,
    [0, 0, 0, 0],
    "\n",
    [0, 0],
    '{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}\n',
    // NULs inside a message, or nothing but NULs: no message to read.
    '{"jsonrpc":"2.0",',
    [0],
    '"method":"ping"}\n',
    [0, 0, 0],
    "\n",
  ]);
  const j = parseEnvelope(await runCli(["rpc", file, "--json"]), "rpc");
  assert.deepEqual(j.rpc.methods, ["tools/list"]);
  assert.equal(j.rpc.messages, 2);
  assert.deepEqual(
    j.health.damaged.map((d: any) => [d.line, d.reason, d.bytes]),
    [
      [1, `4 trailing NUL bytes from byte ${req.length + 1} (crash remnant), skipped`, 4],
      [2, "2 NUL bytes before byte 3 (crash remnant), skipped", 2],
    ],
  );
  assert.deepEqual(
    j.health.malformed.map((m: any) => [m.line, m.reason]),
    [
      [3, "NUL bytes (crash remnant)"],
      [4, "NUL bytes (crash remnant)"],
    ],
  );
  const strict = await runCli(["rpc", file, "--strict"]);
  assert.equal(strict.code, 1);
  assert.match(strict.stderr, /--strict: 2 malformed line\(s\) and 2 damaged-line entries:/);
});

test("debug: NUL runs before an entry's timestamp or after its text are skipped and listed; NULs only stay malformed", async () => {
  const first = '2026-09-30T05:02:11.208Z [DEBUG] MCP server "lab": Successfully connected (transport: stdio) in 24ms';
  const file = write("debug-nul.txt", [
    first,
    [0, 0, 0, 0],
    "\n",
    // The zeros a crash left, then the next run's entry on the same line.
    [0, 0, 0, 0x20, 0],
    '2026-09-30T05:02:12.000Z [DEBUG] MCP server "lab": Server instructions truncated from 20000 to 2048 chars\n',
    // A continuation line keeps its indent after the run.
    [0, 0],
    "    at frame (x.js:1:2)\n",
    // Nothing but NULs, or NULs inside the text: no line to read.
    [0, 0, 0],
    "\n",
    "2026-09-30T05:02:13.000Z [DEBUG] half",
    [0],
    "way\n",
  ]);
  const j = parseEnvelope(await runCli(["debug", file, "--json"]), "debug");
  assert.equal(j.debug.entries, 2);
  const texts = j.debug.events.map((e: any) => e.text);
  assert.deepEqual(texts, [
    'MCP server "lab": Successfully connected (transport: stdio) in 24ms',
    'MCP server "lab": Server instructions truncated from 20000 to 2048 chars\n    at frame (x.js:1:2)',
  ]);
  assert.deepEqual(
    j.debug.events.map((e: any) => [e.line, e.time]),
    [
      [1, "2026-09-30T05:02:11.208Z"],
      [2, "2026-09-30T05:02:12.000Z"],
    ],
  );
  assert.deepEqual(
    j.health.damaged.map((d: any) => [d.file, d.line, d.reason, d.bytes]),
    [
      [file, 1, `4 trailing NUL bytes from byte ${first.length + 1} (crash remnant), skipped`, 4],
      [file, 2, "4 NUL bytes before byte 6 (crash remnant), skipped", 4],
      [file, 3, "2 NUL bytes before byte 3 (crash remnant), skipped", 2],
    ],
  );
  assert.deepEqual(
    j.health.malformed.map((m: any) => [m.line, m.reason]),
    [
      [4, "NUL bytes only (crash remnant)"],
      [5, "NUL bytes (crash remnant)"],
    ],
  );
  const strict = await runCli(["debug", file, "--strict"]);
  assert.equal(strict.code, 1);
  assert.match(strict.stderr, /--strict: 2 malformed line\(s\) and 3 damaged-line entries:/);
});

test("debug: a log that opens with a NUL run is still recognised and its first entry read", async () => {
  const file = write("debug-nul-head.txt", [[0, 0, 0, 0, 0, 0, 0, 0], "2026-09-30T05:02:11.208Z [INFO] started\n"]);
  const j = parseEnvelope(await runCli(["debug", file, "--json"]), "debug");
  assert.equal(j.debug.entries, 1);
  assert.deepEqual(
    j.health.damaged.map((d: any) => [d.line, d.reason]),
    [[1, "8 NUL bytes before byte 9 (crash remnant), skipped"]],
  );
});

// A zero-filled region a crash leaves can be megabytes long. These guard against quadratic time: the NUL-run
// rule once used unanchored regexes that restarted at every NUL of a run followed by text (1 MB: minutes),
// where the byte loops of json.ts's nulRuns take milliseconds. The bound is generous (process start included).
const MB = 1024 * 1024;
const zeros = (n: number) => new Array<number>(n).fill(0);

test("rpc: 1 MB of NULs before, after and inside a message line is read in linear time", async () => {
  const req = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
  const file = write("rpc-nul-mb.jsonl", [
    '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}\n',
    zeros(MB),
    req + "\n",
    '{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}',
    zeros(MB),
    "\n",
    '{"jsonrpc":"2.0",',
    zeros(MB),
    '"method":"ping"}\n',
  ]);
  const t0 = Date.now();
  const j = parseEnvelope(await runCli(["rpc", file, "--json"]), "rpc");
  const took = Date.now() - t0;
  assert.deepEqual(j.rpc.methods, ["initialize", "tools/list"]);
  assert.equal(j.rpc.messages, 3);
  assert.deepEqual(
    j.health.damaged.map((d: any) => [d.line, d.reason, d.bytes]),
    [
      [2, `${MB} NUL bytes before byte ${MB + 1} (crash remnant), skipped`, MB],
      [3, `${MB} trailing NUL bytes from byte 47 (crash remnant), skipped`, MB],
    ],
  );
  assert.deepEqual(
    j.health.malformed.map((m: any) => [m.line, m.reason]),
    [[4, "NUL bytes (crash remnant)"]],
  );
  assert.ok(took < 3000, `took ${took} ms`);
});

test("debug: 1 MB of NULs before, after and inside an entry line is read in linear time", async () => {
  const file = write("debug-nul-mb.txt", [
    "2026-09-30T05:02:11.208Z [DEBUG] started\n",
    zeros(MB),
    "2026-09-30T05:02:12.000Z [DEBUG] after the zeros\n",
    "2026-09-30T05:02:13.000Z [DEBUG] before the zeros",
    zeros(MB),
    "\n",
    "2026-09-30T05:02:14.000Z [DEBUG] half",
    zeros(MB),
    "way\n",
  ]);
  const t0 = Date.now();
  const j = parseEnvelope(await runCli(["debug", file, "--json"]), "debug");
  const took = Date.now() - t0;
  assert.deepEqual(
    j.debug.events.map((e: any) => e.text),
    ["started", "after the zeros", "before the zeros"],
  );
  assert.deepEqual(
    j.health.damaged.map((d: any) => [d.line, d.reason, d.bytes]),
    [
      [2, `${MB} NUL bytes before byte ${MB + 1} (crash remnant), skipped`, MB],
      [3, `${MB} trailing NUL bytes from byte 50 (crash remnant), skipped`, MB],
    ],
  );
  assert.deepEqual(
    j.health.malformed.map((m: any) => [m.line, m.reason]),
    [[4, "NUL bytes (crash remnant)"]],
  );
  assert.ok(took < 3000, `took ${took} ms`);
});
