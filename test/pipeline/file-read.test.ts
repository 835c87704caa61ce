import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { readRecords } from "../../src/pipeline/runner.js";
import { debugLogSource } from "../../src/records/debug.js";
import { emptyHealth } from "../../src/records/health.js";
import { rpcLogSource } from "../../src/records/rpc.js";
import type { Source } from "../../src/records/source.js";
import { headlessSource } from "../../src/records/streamjson.js";
import { toolsListSource } from "../../src/records/tools-list.js";
import { transcriptSource } from "../../src/records/transcript-source.js";
import type { InputFile } from "../../src/sources/input.js";
import { readTuning } from "../../src/sources/reused-buffers.js";
import { sample } from "../helpers.js";

// A file is read synchronously into one reused buffer, its lines decoded without a promise each
// (pipeline/runner.ts); stdin goes the async way with fresh chunks. Both must give the same records,
// health, byte count and sha256, for hostile bytes too, whatever the read size.

const dir = mkdtempSync(join(tmpdir(), "ccf-read-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

async function viaFile(source: Source<any>, bytes: Buffer) {
  const path = join(dir, `f${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(path, bytes);
  const input: InputFile = { path, kind: "transcript", bytes: 0, sha256: "", chain: "main" };
  const health = emptyHealth();
  const records: unknown[] = [];
  for await (const r of readRecords(input, source, health)) records.push(r);
  const pos = (rs: unknown[]) => JSON.parse(JSON.stringify(rs).replaceAll(JSON.stringify(path).slice(1, -1), "-")) as unknown[];
  health.malformed.forEach((m) => (m.file = "-"));
  health.damaged.forEach((d) => (d.file = "-"));
  return { records: pos(records), health, bytes: input.bytes, sha256: input.sha256 };
}

async function viaStdin(source: Source<any>, bytes: Buffer) {
  const input: InputFile = { path: "-", kind: "transcript", bytes: 0, sha256: "", chain: "main" };
  const health = emptyHealth();
  const records: unknown[] = [];
  for await (const r of readRecords(input, source, health, { stdin: Readable.from([bytes]) })) records.push(r);
  return { records: JSON.parse(JSON.stringify(records)) as unknown[], health, bytes: input.bytes, sha256: input.sha256 };
}

const rec = (o: object) => JSON.stringify(o);
const long = (n: number, c = "x") => c.repeat(n);
const transcriptLine = (text: string) =>
  rec({
    type: "user",
    uuid: "u1",
    parentUuid: null,
    sessionId: "s",
    message: { role: "user", content: text },
    toolUseResult: { stdout: text },
  });

const HOSTILE: Array<[string, Buffer]> = [
  ["sample transcript", readFileSync(sample("damaged", "33333333-4444-4555-8666-777777777777.jsonl"))],
  [
    "BOM, CRLF and no final newline",
    Buffer.from(`\ufeff${transcriptLine(long(3000))}\r\n${transcriptLine("é")}\r\n\r\n${transcriptLine(long(700, "日"))}`),
  ],
  [
    "invalid UTF-8 inside a long string",
    Buffer.concat([
      Buffer.from(transcriptLine(long(2500)).slice(0, 60)),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from(`${long(2600)}"}}\n`),
    ]),
  ],
  [
    "escapes and surrogates across reads",
    Buffer.from(
      `${transcriptLine(`${long(2100)}\\n\\"\\u00e9\u{1f600}\ud83d`)}\n${transcriptLine(`\\ud83d\\ude00${long(5000, "\u{1f600}")}`)}\n`,
    ),
  ],
  [
    "a line longer than every buffer, then short ones",
    Buffer.from(`${transcriptLine(long(70_000, "ab"))}\n{"type":"x"}\n\n${transcriptLine(long(3000))}\n`),
  ],
  [
    "NUL bytes and a truncated record",
    Buffer.from(`${"\u0000".repeat(3000)}\n${transcriptLine(long(4000)).slice(0, 3500)}\n${transcriptLine("ok")}\n`),
  ],
  [
    "a CRLF, a multi-byte character and a surrogate pair split at every read and slot edge",
    Buffer.from(
      Array.from({ length: 90 }, (_, i) => `${transcriptLine(`${long(i, "é")}😀${long(i * 7)}`)}${i % 3 ? "\r\n" : "\n"}`).join(""),
    ),
  ],
  [
    "a lone surrogate escape and overlong UTF-8",
    Buffer.concat([Buffer.from(transcriptLine(`\\udc00${long(3100)}`)), Buffer.from([0x0a, 0xc0, 0xaf, 0x0a])]),
  ],
  ["empty", Buffer.alloc(0)],
  ["only newlines", Buffer.from("\n\n\r\n\n")],
];

for (const [name, bytes] of HOSTILE) {
  test(`${name}: a file read in reused buffers gives what stdin gives, for any read size`, async () => {
    const ref = await viaStdin(transcriptSource, bytes);
    assert.equal(ref.sha256, createHash("sha256").update(bytes).digest("hex"));
    const saved = { ...readTuning };
    try {
      for (const [chunk, maxChunk] of [
        [1 << 20, 16 << 20],
        [1, 1],
        [7, 64],
        [64, 4096],
        [4096, 4096],
      ] as const) {
        Object.assign(readTuning, { chunk, maxChunk, poison: true });
        const got = await viaFile(transcriptSource, bytes);
        assert.deepEqual(got, ref, `reads of ${chunk} to ${maxChunk} bytes`);
      }
    } finally {
      Object.assign(readTuning, saved);
    }
  });
}

test("every kind of Source gives the same from a file as from stdin, the async ones included", async () => {
  const cases: Array<[Source<any>, string]> = [
    [debugLogSource, sample("logs", "debug", "pasted-crlf.debug.txt")],
    [rpcLogSource, sample("logs", "rpc", "dual-era-trap.mixed.log")],
    [headlessSource, sample("logs", "claude-p", "late-server.stream.jsonl")],
    [headlessSource, sample("logs", "claude-p", "legacy.verbose.json")],
    [toolsListSource, sample("outputs", "staircase", "tools-list.json")],
  ];
  const saved = { ...readTuning };
  try {
    Object.assign(readTuning, { chunk: 64, maxChunk: 256, poison: true });
    for (const [source, path] of cases) {
      const bytes = readFileSync(path);
      assert.deepEqual(await viaFile(source, bytes), await viaStdin(source, bytes), path);
    }
  } finally {
    Object.assign(readTuning, saved);
  }
});
