import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { inlineHasher, workerHasher } from "../../src/sources/hasher.js";

// The worker hasher copies chunks into a ring of shared slots and hashes them on another thread: the
// digest must be sha256 of the bytes in order, whatever the chunk sizes and however often the ring wraps.
test("the worker hasher's digest is sha256 of the bytes, for chunks smaller and larger than a slot", async () => {
  const data = randomBytes(21 * 1024 * 1024 + 123);
  const sizes = [1, 7, 4096, 1 << 20, (4 << 20) + 5, 9 << 20, 3];
  for (const h of [workerHasher(), inlineHasher()]) {
    let at = 0;
    for (let k = 0; at < data.length; k++) {
      const n = Math.min(sizes[k % sizes.length]!, data.length - at);
      await h.update(data.subarray(at, at + n));
      at += n;
    }
    assert.equal(await h.digest(), createHash("sha256").update(data).digest("hex"));
  }
  const empty = workerHasher();
  assert.equal(await empty.digest(), createHash("sha256").digest("hex"));
});
