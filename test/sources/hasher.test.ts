import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { appendFileSync, closeSync, mkdtempSync, openSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileHasher, inlineHasher } from "../../src/sources/hasher.js";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** A file with `data` in it, open for reading, and a promise that the hasher let go of it. */
function opened(data: Buffer) {
  const dir = mkdtempSync(join(tmpdir(), "ccf-hash-"));
  const path = join(dir, "t.jsonl");
  writeFileSync(path, data);
  const fd = openSync(path, "r");
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  return { path, fd, released, release, done: () => (closeSync(fd), rmSync(dir, { recursive: true })) };
}

/** Counts `total` bytes into `h` in uneven steps, as a reader would. */
function count(h: { update(b: Buffer): void }, data: Buffer, total = data.length): void {
  const sizes = [1, 7, 4096, 1 << 20, (4 << 20) + 5, 3];
  for (let at = 0, k = 0; at < total; k++) {
    const n = Math.min(sizes[k % sizes.length]!, total - at);
    h.update(data.subarray(at, at + n));
    at += n;
  }
}

// The worker reads the file itself and hashes only as far as the reader says it read: the digest must
// be sha256 of exactly those bytes, in order, whatever the steps.
test("the file hasher's digest is sha256 of the bytes the reader counted, read by the worker itself", async () => {
  const data = randomBytes(9 * 1024 * 1024 + 123);
  const f = opened(data);
  const h = fileHasher(f.fd, f.release);
  count(h, data);
  assert.equal(await h.digest(), sha(data));
  await f.released;
  f.done();
  const inline = inlineHasher();
  count(inline, data);
  assert.equal(await inline.digest(), sha(data));
});

test("a file appended to after the reader stopped hashes as far as it was read; an empty one is the empty digest", async () => {
  const data = randomBytes(3 * 1024 * 1024);
  const f = opened(data);
  const h = fileHasher(f.fd, f.release);
  count(h, data, 2 * 1024 * 1024 + 17);
  appendFileSync(f.path, randomBytes(5000));
  assert.equal(await h.digest(), sha(data.subarray(0, 2 * 1024 * 1024 + 17)));
  await f.released;
  f.done();
  const e = opened(Buffer.alloc(0));
  const empty = fileHasher(e.fd, e.release);
  assert.equal(await empty.digest(), sha(Buffer.alloc(0)));
  await e.released;
  e.done();
});

test("a file that shrank under the reader is an error with a reason, not a wrong digest; close lets go of the file", async () => {
  const data = randomBytes(2 * 1024 * 1024);
  const f = opened(data);
  const h = fileHasher(f.fd, f.release);
  truncateSync(f.path, 1000);
  count(h, data);
  await assert.rejects(h.digest(), /shrank/);
  await f.released;
  f.done();
  const g = opened(data);
  const stopped = fileHasher(g.fd, g.release);
  count(stopped, data, 5000);
  stopped.close();
  await g.released;
  g.done();
});

test("the inline hasher's digest is sha256 of its bytes however they come: one chunk (one shot), several, empty ones, a reused buffer", async () => {
  const data = randomBytes(200 * 1024 + 7);
  const cases: Array<[string, number[]]> = [
    ["nothing", []],
    ["one empty chunk", [0]],
    ["one byte", [1]],
    ["one small chunk", [455]],
    ["one chunk at the one-shot limit", [64 * 1024]],
    ["one chunk past it", [64 * 1024 + 1]],
    ["an empty chunk then bytes", [0, 300]],
    ["small then small", [100, 200]],
    ["small then large", [10, 150 * 1024]],
    ["large then small", [150 * 1024, 10]],
    ["many", [1, 7, 4096, 3, 0, 65_536, 9]],
  ];
  for (const [name, sizes] of cases) {
    const h = inlineHasher();
    // A reader reuses its buffer: each chunk is read into the same scratch and overwritten after update.
    const scratch = Buffer.alloc(data.length);
    let at = 0;
    for (const n of sizes) {
      data.copy(scratch, 0, at, at + n);
      h.update(scratch.subarray(0, n));
      scratch.fill(0xaa);
      at += n;
    }
    assert.equal(await h.digest(), sha(data.subarray(0, at)), name);
  }
  assert.equal(await inlineHasher().digest(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
});
