import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { appendFileSync, mkdtempSync, readdirSync, readlinkSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import "../../src/pipeline/runner.js";
import { parseLine } from "../../src/records/json.js";
import { defineLazy, lazyOf } from "../../src/records/lazy-strings.js";
import { SKELETON_MIN_LINE } from "../../src/records/skeleton.js";
import { LineSplitter } from "../../src/sources/lines.js";
import { held } from "../../src/sources/prescan-table.js";
import { readFileChunks, type InputFile } from "../../src/sources/input.js";
import { readTuning } from "../../src/sources/reused-buffers.js";

// Big files are read by the hash worker into shared slots once it runs (sources/feed-slots.ts). Here
// every file is big (workerMin 0), and the worker reads either from the first byte (awaitWorker) or
// from wherever the main thread was when it came up: the bytes, their order, the chunk rule (a chunk
// ends at a line end unless a line is longer than a slot) and the sha256 must be what the file holds.

const dir = mkdtempSync(join(tmpdir(), "ccf-feed-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

function withTuning<T>(t: Partial<typeof readTuning>, fn: () => Promise<T>): Promise<T> {
  const saved = { ...readTuning };
  Object.assign(readTuning, { workerMin: 0, awaitWorker: true, poison: true }, t);
  return fn().finally(() => Object.assign(readTuning, saved));
}

function file(bytes: Buffer | string): string {
  const path = join(dir, `f${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(path, bytes);
  return path;
}

/** Every chunk, copied (a chunk is valid until the next), the input after `finish`, and what `onChunk` did. */
async function readAll(path: string, onChunk?: (c: Buffer, k: number) => void) {
  const input: InputFile = { path, kind: "transcript", bytes: 0, sha256: "" };
  const f = readFileChunks(input);
  const chunks: Buffer[] = [];
  for (const c of f.chunks(true)) {
    onChunk?.(c, chunks.length);
    chunks.push(Buffer.from(c));
  }
  await f.finish();
  return { chunks, input, all: Buffer.concat(chunks) };
}

/** Lines of every length around the slot and read sizes, a line past the slot, CRLF, no final newline. */
function lines(cap: number): Buffer {
  const parts: string[] = [];
  for (const n of [0, 1, 5, cap - 2, cap - 1, cap, cap + 1, 3 * cap + 7, 2, cap >> 1, cap >> 1])
    parts.push(`${"x".repeat(Math.max(0, n))}${n % 2 ? "\r\n" : "\n"}`);
  return Buffer.from(`${parts.join("")}é😀 no newline`);
}

for (const awaitWorker of [true, false])
  for (const [chunk, maxChunk] of [
    [1, 1],
    [7, 64],
    [64, 256],
    [4096, 4096],
  ] as const)
    test(`slots of ${maxChunk} read ${chunk} at a time (${awaitWorker ? "from the first byte" : "once the worker runs"}): every byte once, in order, chunks at line ends`, () =>
      withTuning({ chunk, maxChunk, awaitWorker }, async () => {
        const data = Buffer.concat([lines(maxChunk), randomBytes(3 * maxChunk), lines(maxChunk)]);
        // Read the first chunks here, then give the worker time to come up: it takes over mid-file. It
        // loads its scanner's modules too, and the suite runs two files at once on two cores: 3 s.
        const pause = (_c: Buffer, k: number) =>
          k === 1 && !awaitWorker && Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000);
        const shared: boolean[] = [];
        const { chunks, input, all } = await readAll(
          file(data),
          (c, k) => (pause(c, k), shared.push(c.buffer instanceof SharedArrayBuffer)),
        );
        assert.equal(shared[0], awaitWorker, "the first chunk comes from the worker only when waited for");
        assert.ok(shared.includes(true), "the worker read part of the file");
        assert.ok(all.equals(data));
        assert.equal(input.bytes, data.length);
        assert.equal(input.sha256, sha(data));
        // A chunk that does not end at a newline is the last, or a piece of a line longer than a slot.
        let line = 0;
        for (const [k, c] of chunks.entries()) {
          if (c[c.length - 1] === 0x0a || k === chunks.length - 1) {
            line = 0;
            continue;
          }
          assert.equal(c.indexOf(0x0a), -1, `chunk ${k} ends inside a line although it holds a line end`);
          line += c.length;
        }
        assert.ok(line === 0);
      }));

test("a file that grows while the worker reads it is read on, and hashed as far as it was read", () =>
  withTuning({ chunk: 64, maxChunk: 256 }, async () => {
    const first = Buffer.from(`${"a".repeat(50)}\n`.repeat(40));
    const path = file(first);
    const late = Buffer.from('{"late":true}\n{"no-newline":1}');
    const { all, input } = await readAll(path, (_c, k) => k === 0 && appendFileSync(path, late));
    const want = Buffer.concat([first, late]);
    assert.ok(all.equals(want), all.toString().slice(-80));
    assert.equal(input.sha256, sha(want));
  }));

test("a file that shrinks before the worker reads it is an error that says so, not a short read", () =>
  withTuning({ chunk: 64, maxChunk: 256 }, async () => {
    const path = file(Buffer.from(`${"b".repeat(99)}\n`.repeat(100)));
    const input: InputFile = { path, kind: "transcript", bytes: 0, sha256: "" };
    const f = readFileChunks(input);
    truncateSync(path, 1000);
    assert.throws(() => {
      for (const _ of f.chunks(true));
    }, /the file shrank while it was read \(10000 bytes at open, 1000 there now\)/);
  }));

test("an undecoded string into a slot fails loudly once its slot was given back", () =>
  withTuning({ chunk: 64, maxChunk: 256 }, async () => {
    const path = file(Buffer.from(`{"a":"${"k".repeat(40)}"}\n`.repeat(20)));
    const early: Record<string, unknown> = {};
    const late: Record<string, unknown> = {};
    await readAll(path, (c, k) => {
      if (k === 1) assert.throws(() => late.a, /read after its line's read buffer was reused/);
      if (k !== 0) return;
      defineLazy(early, "a", { line: c, from: 5, to: 47, units: 40 });
      defineLazy(late, "a", { line: c, from: 5, to: 47, units: 40 });
      assert.equal(early.a, "k".repeat(40));
    });
    assert.equal(early.a, "k".repeat(40), "a string decoded in time keeps its value");
  }));

test("a string the worker cut out of a long line fails loudly once its slot was given back", () =>
  withTuning({ chunk: 16384, maxChunk: 65536, yieldScan: false }, async () => {
    const long = (i: number) => `{"type":"user","n":${i},"text":"${"é".repeat(SKELETON_MIN_LINE)}"}\n`;
    const path = file(Buffer.from(Array.from({ length: 40 }, (_, i) => long(i)).join("")));
    const f = readFileChunks({ path, kind: "transcript", bytes: 0, sha256: "" });
    const splitter = new LineSplitter();
    const early: Array<Record<string, unknown>> = [];
    let fromTable = 0;
    let k = 0;
    for (const c of f.chunks(true)) {
      for (const l of splitter.push(c, [])) {
        const next = held.next;
        const p = parseLine(l);
        assert.equal(p.ok, true);
        // The line's entry in the slot's table was taken (sources/prescan-table.ts).
        if (held.next > next) fromTable += 1;
        const v = (p as { value: Record<string, unknown> }).value;
        assert.ok(lazyOf(v, "text"), "the long string is cut out");
        if (k === 0) early.push(v);
      }
      if (k++ === 0) assert.equal((early[0]!.text as string).length, SKELETON_MIN_LINE, "read in time, it reads");
    }
    await f.finish();
    assert.ok(fromTable >= 38, `only ${fromTable} of 40 lines came scanned by the worker`);
    assert.equal((early[0]!.text as string).length, SKELETON_MIN_LINE, "a string decoded in time keeps its value");
    assert.ok(early.length >= 2, "the first slot held more than one line");
    assert.throws(() => early[1]!.text, /read after its line's read buffer was reused/);
  }));

test("a reader that stops early lets the worker and the file go", () =>
  withTuning({ chunk: 64, maxChunk: 256 }, async () => {
    const path = file(Buffer.from(`${"c".repeat(63)}\n`.repeat(1000)));
    const open = () =>
      readdirSync("/proc/self/fd").filter((d) => {
        try {
          return readlinkSync(`/proc/self/fd/${d}`) === path;
        } catch {
          return false;
        }
      }).length;
    const f = readFileChunks({ path, kind: "transcript", bytes: 0, sha256: "" });
    let n = 0;
    for (const _ of f.chunks(true)) if (++n === 3) break;
    assert.ok(n === 3);
    for (let t = 0; t < 300 && open() > 0; t++) await sleep(10);
    assert.equal(open(), 0, "the file is closed once the worker stopped");
  }));
