import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { mulberry32 } from "../../src/lab/instructions-text.js";
import { readInto } from "../../src/pipeline/runner.js";
import { debugLogSource } from "../../src/records/debug.js";
import { emptyHealth, type Health } from "../../src/records/health.js";
import { decodeLines, type LineDecoder, type Source } from "../../src/records/source.js";
import { headlessSource } from "../../src/records/streamjson.js";
import { transcriptSource } from "../../src/records/transcript-source.js";
import type { InputFile } from "../../src/sources/input.js";
import { readTuning } from "../../src/sources/reused-buffers.js";
import { filesUnder, ROOT } from "../helpers.js";

// A line Source counts the LFs of the chunks it splits (records/source.ts LineFeeds) instead of the runner
// counting them a second time. The reference is the count the runner took before: one physical line per
// LF byte, plus an unterminated last line. Both paths (a file read in reused chunks, stdin) and a Source
// that counts nothing (stream-json's JSON array, the runner counts) must give exactly that.

/** Physical lines counted on the bytes: the runner's count before line Sources took it over. */
function physicalLines(b: Buffer): number {
  let n = 0;
  for (let i = b.indexOf(0x0a); i >= 0; i = b.indexOf(0x0a, i + 1)) n++;
  return b.length > 0 && b[b.length - 1] !== 0x0a ? n + 1 : n;
}

async function health(source: Source<any>, path: string, bytes: Buffer, stdin: boolean, streamLineBytes?: number): Promise<Health> {
  const input: InputFile = { path: stdin ? "-" : path, kind: "transcript", bytes: 0, sha256: "", chain: "main" };
  const h = emptyHealth();
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 97) parts.push(bytes.subarray(i, i + 97));
  await readInto(input, source, h, () => {}, { stdin: stdin ? Readable.from(parts) : undefined, streamLineBytes });
  assert.equal(input.bytes, bytes.length);
  return h;
}

async function check(source: Source<any>, path: string, what: string, streamLineBytes?: number): Promise<void> {
  const bytes = readFileSync(path);
  const want = physicalLines(bytes);
  const file = await health(source, path, bytes, false, streamLineBytes);
  assert.equal(file.lines, want, `${what}: file`);
  const stdin = await health(source, path, bytes, true, streamLineBytes);
  assert.equal(stdin.lines, want, `${what}: stdin`);
  assert.equal(stdin.blankLines, file.blankLines, `${what}: blank lines`);
}

function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "ccf-lf-"));
  return fn(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** Runs `fn` with tiny read buffers, so lines span reads, grow the buffer and go past it in pieces. */
async function tiny(fn: () => Promise<void>): Promise<void> {
  const { chunk, maxChunk } = readTuning;
  readTuning.chunk = 64;
  readTuning.maxChunk = 256;
  try {
    await fn();
  } finally {
    readTuning.chunk = chunk;
    readTuning.maxChunk = maxChunk;
  }
}

test("every sample transcript: as many lines as the bytes hold, from a file and from stdin, at the real and a tiny read size", async () => {
  const files = filesUnder(join(ROOT, "samples"), (p) => p.endsWith(".jsonl"));
  assert.ok(files.length > 20);
  for (const f of files) await check(transcriptSource, f, f);
  await tiny(async () => {
    for (const f of files.filter((f) => readFileSync(f).length < 65536))
      await check(transcriptSource, f, `${f} (tiny reads, lines streamed past 100 bytes)`, 100);
  });
});

test("debug logs and stream-json (a line Source behind a wrapper: the runner counts) agree with the bytes", async () => {
  for (const f of filesUnder(join(ROOT, "samples", "logs", "debug"), (p) => p.endsWith(".txt"))) await check(debugLogSource, f, f);
  for (const f of filesUnder(join(ROOT, "samples", "logs", "claude-p"))) await check(headlessSource, f, f);
});

/** Bytes that make lines hard: CR, LF, CRLF, a BOM, NUL, invalid UTF-8, a lone surrogate's bytes, escapes. */
const PIECES = ["\n", "\r\n", "\r", "\n\n", "\ufeff", "\u0000", '{"type":"user","x":"', '"}', "\\u00e9", "\\", "é", "😀", " "].map((s) =>
  Buffer.from(s, "utf8"),
);
const RAW = [Buffer.from([0xff]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xef, 0xbb, 0xbf])];

function hostile(seed: number): Buffer {
  const rnd = mulberry32(seed);
  const parts: Buffer[] = rnd() < 0.3 ? [Buffer.from([0xef, 0xbb, 0xbf])] : [];
  const n = 1 + Math.floor(rnd() * 60);
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.5) parts.push(PIECES[Math.floor(rnd() * PIECES.length)]!);
    else if (r < 0.65) parts.push(RAW[Math.floor(rnd() * RAW.length)]!);
    else if (r < 0.8) parts.push(Buffer.from(`{"type":"assistant","n":${i},"s":"${"a".repeat(Math.floor(rnd() * 400))}"}\n`));
    // Longer than any read buffer of the tiny tuning, and than the stream threshold.
    else parts.push(Buffer.alloc(Math.floor(rnd() * 1500), rnd() < 0.5 ? 0x61 : 0x0a));
  }
  return Buffer.concat(parts);
}

test("generated hostile bytes: CRLF, BOM, NUL, invalid UTF-8, blank runs, lines longer than every buffer, with or without a last LF", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "t.jsonl");
    for (let seed = 1; seed <= 60; seed++) {
      const bytes = hostile(seed);
      writeFileSync(path, bytes);
      await check(transcriptSource, path, `seed ${seed}`);
      await tiny(() => check(transcriptSource, path, `seed ${seed}, tiny reads`, 100));
    }
    for (const bytes of ["", "\n", "x", "\r", "\n\n\n", "\ufeff", "\ufeff\n", "a\r\n", "a\r\nb"]) {
      writeFileSync(path, bytes);
      await check(transcriptSource, path, JSON.stringify(bytes));
    }
  });
});

test("a line Source that stops early gives the count back: the lines after it are counted by the runner", async () => {
  // Takes the first record of each input and stops, as a Source may (the runner drains the rest).
  const first: Source<any> = {
    ...transcriptSource,
    *records(chunks, input) {
      const decoder: LineDecoder<any> = {
        line: (raw, out) => out.push({ kind: "meta", pos: { file: input.file, line: raw.line } }),
        end() {},
      };
      for (const rec of decodeLines(chunks, decoder) as Iterable<any>) {
        yield rec;
        return;
      }
    },
    facts: () => undefined,
  };
  await withDir(async (dir) => {
    const path = join(dir, "t.jsonl");
    for (let seed = 1; seed <= 40; seed++) {
      writeFileSync(path, hostile(seed));
      const bytes = readFileSync(path);
      const file = await health(first, path, bytes, false);
      assert.equal(file.lines, physicalLines(bytes), `seed ${seed}`);
      await tiny(async () => assert.equal((await health(first, path, bytes, false)).lines, physicalLines(bytes), `seed ${seed}, tiny`));
    }
  });
});
