import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { readRecords } from "../../src/pipeline/runner.js";
import { debugLogSource } from "../../src/records/debug.js";
import { emptyHealth, type Health } from "../../src/records/health.js";
import { rpcLogSource } from "../../src/records/rpc.js";
import type { Source } from "../../src/records/source.js";
import { recogniseKind } from "../../src/records/sources.js";
import { headlessSource } from "../../src/records/streamjson.js";
import { toolResultSource } from "../../src/records/tool-result-source.js";
import { toolsListSource } from "../../src/records/tools-list.js";
import { transcriptSource } from "../../src/records/transcript-source.js";
import type { InputFile } from "../../src/sources/input.js";
import { sample } from "../helpers.js";

const DEMO = sample("claude-home", "projects", "-tmp-lab-demo");
const CASES: Array<[string, Source<any>, string]> = [
  ["transcript", transcriptSource, `${DEMO}/c0ffee00-1111-4222-8333-444444444444.jsonl`],
  ["damaged transcript", transcriptSource, sample("damaged", "33333333-4444-4555-8666-777777777777.jsonl")],
  ["debug log", debugLogSource, sample("logs", "debug", "late-server.debug.txt")],
  ["debug log, CRLF paste", debugLogSource, sample("logs", "debug", "pasted-crlf.debug.txt")],
  ["message log", rpcLogSource, sample("logs", "rpc", "dual-era-trap.mixed.log")],
  ["claude -p stream-json", headlessSource, sample("logs", "claude-p", "late-server.stream.jsonl")],
  ["claude -p json --verbose", headlessSource, sample("logs", "claude-p", "legacy.verbose.json")],
  ["tools/list", toolsListSource, sample("outputs", "staircase", "tools-list.json")],
  ["saved tool result", toolResultSource, `${DEMO}/c0ffee00-1111-4222-8333-444444444444/tool-results/toolu_01DemoBigSizeCheck0001.json`],
];

async function read(source: Source<any>, bytes: Buffer, chunk: number): Promise<{ records: unknown[]; health: Health; input: InputFile }> {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) parts.push(bytes.subarray(i, i + chunk));
  const input: InputFile = { path: "-", kind: "transcript", bytes: 0, sha256: "", chain: "main" };
  const health = emptyHealth();
  const records: unknown[] = [];
  for await (const r of readRecords(input, source, health, { stdin: Readable.from(parts) })) records.push(r);
  return { records: JSON.parse(JSON.stringify(records)) as unknown[], health, input };
}

/** Physical lines as the splitter counts them: one per LF, plus an unterminated last line. */
const physicalLines = (b: Buffer) => b.toString("latin1").split("\n").length - (b.length === 0 || b[b.length - 1] === 0x0a ? 1 : 0);

for (const [name, source, path] of CASES) {
  test(`${name}: the same records and health in chunks of 1, 7 and 4096 bytes; every physical line counted`, async () => {
    const bytes = readFileSync(path);
    const whole = await read(source, bytes, 1 << 20);
    assert.ok(whole.records.length > 0, "the sample yields records");
    assert.equal(whole.health.lines, physicalLines(bytes));
    assert.equal(whole.health.records + whole.health.malformedCount, whole.records.length);
    assert.equal(whole.input.bytes, bytes.length);
    // Tiny chunks over the first 16 KB (cut after a newline) keep the test fast on samples with big lines.
    const cut = bytes.length <= 16384 ? bytes.length : bytes.lastIndexOf(0x0a, 16384) + 1 || bytes.length;
    const head = await read(source, bytes.subarray(0, cut), 1 << 20);
    for (const [size, part, ref] of [
      [1, cut, head],
      [7, cut, head],
      [4096, bytes.length, whole],
    ] as const) {
      const split = await read(source, bytes.subarray(0, part), size);
      assert.deepEqual(split.records, ref.records, `chunks of ${size}`);
      assert.deepEqual(split.health, ref.health, `chunks of ${size}`);
      assert.equal(split.input.sha256, ref.input.sha256);
    }
  });

  test(`${name}: its Source recognises it`, () => {
    const head = readFileSync(path).subarray(0, 4096).toString("utf8");
    assert.equal(source.recognise(head), true);
  });
}

test("CRLF gives the same records and health as LF for every line-based kind", async () => {
  for (const [name, source, path] of CASES) {
    if (source === toolsListSource || source === toolResultSource || name.includes("--verbose") || name.includes("CRLF")) continue;
    const lf = readFileSync(path);
    const crlf = Buffer.from(lf.toString("utf8").replace(/\n/g, "\r\n"), "utf8");
    const a = await read(source, lf, 4096);
    const b = await read(source, crlf, 7);
    assert.deepEqual(b.records, a.records, name);
    assert.deepEqual({ ...b.health }, { ...a.health }, name);
  }
});

test("Sources tell the kinds apart by their first bytes", () => {
  const head = (p: string) => readFileSync(p).subarray(0, 4096).toString("utf8");
  assert.equal(debugLogSource.recognise(head(CASES[0]![2])), false, "a transcript is not a debug log");
  assert.equal(transcriptSource.recognise(head(CASES[2]![2])), false, "a debug log is not a transcript");
  assert.equal(headlessSource.recognise(head(CASES[2]![2])), false, "a debug log is not claude -p output");
  assert.equal(rpcLogSource.recognise(head(CASES[2]![2])), false, "a debug log is not a message log");
});

test("a JSON array broken half-way: the file is still read to its end, so lines, bytes and sha256 cover all of it", async () => {
  const text = readFileSync(sample("logs", "claude-p", "legacy.verbose.json"), "utf8");
  const cut = Buffer.from(`${text.slice(0, text.indexOf('{"type":"result"') + 40)}\n\n\ntrailing\n`);
  const r = await read(headlessSource, cut, 64);
  assert.equal(r.health.malformedCount, 1);
  assert.equal(r.health.lines, physicalLines(cut));
  assert.equal(r.input.bytes, cut.length);
});

test("recogniseKind names each sample's kind from its first bytes", () => {
  const expect: Record<string, string> = {
    transcript: "transcript",
    "damaged transcript": "transcript",
    "debug log": "debug-log",
    "debug log, CRLF paste": "debug-log",
    "message log": "rpc-log",
    "claude -p stream-json": "stream-json",
    "claude -p json --verbose": "stream-json",
    "tools/list": "tools-list",
  };
  for (const [name, , path] of CASES) {
    if (!(name in expect)) continue;
    assert.equal(recogniseKind(readFileSync(path).subarray(0, 4096).toString("utf8")), expect[name], name);
  }
});
