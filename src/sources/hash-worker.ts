import { createHash } from "node:crypto";
import { readSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { gone, READY, type FeedShared } from "./feed-slots.js";
import { fillSlots } from "./slot-filler.js";
import { holdYoungGeneration } from "./memory.js";

/**
 * The other end of sources/hasher.ts `fileHasher`: hashes the reader's file from its own positional
 * reads, never past the byte count the reader published, so a file still being appended to is hashed
 * exactly as far as it was parsed. When the reader hands the reading over at a byte count, the worker
 * hashes up to it and then reads on itself into shared slots (sources/slot-filler.ts). Blocking is fine
 * here: this thread has nothing else to do.
 */
// This thread's isolate, just made, let the main thread's young generation grow again (memory.ts).
holdYoungGeneration();
const { fd, word, feed, sizeAtOpen, chunk, poison, yieldScan } = workerData as {
  fd: number;
  word: BigInt64Array;
  feed?: FeedShared;
  sizeAtOpen: number;
  chunk: number;
  poison: boolean;
  yieldScan: boolean;
};
const ABORTED = -1n;
const ENDED = 1n;
const HANDED = 2n;
// Taken when first needed: once the worker reads into slots it catches up in a slot's memory instead.
let buf: Buffer | undefined;
const hash = createHash("sha256");

function run(): { digest: string } | { error: string } | undefined {
  let hashed = 0;
  for (;;) {
    const w = Atomics.load(word, 0);
    if (w === ABORTED) return undefined;
    const upTo = Number(w >> 2n);
    if ((w & 3n) === HANDED && feed) {
      // The bytes the reader read itself are hashed once the first slot is out (it waits for that one).
      const from = hashed;
      const catchUp = (into: Buffer) => {
        for (let at = from; at < upTo;) {
          const n = readSync(fd, into, 0, Math.min(into.length, upTo - at), at);
          if (n === 0) throw new Error(`the file shrank while it was read (${upTo} bytes read, ${at} there now)`);
          hash.update(into.subarray(0, n));
          at += n;
        }
      };
      const aborted = () => Atomics.load(word, 0) === ABORTED;
      return fillSlots(feed, hash, { fd, from: upTo, sizeAtOpen, chunk, poison, yieldScan, aborted, catchUp })
        ? { digest: hash.digest("hex") }
        : undefined;
    }
    if (hashed < upTo) {
      buf ??= Buffer.allocUnsafe(1 << 20);
      const n = readSync(fd, buf, 0, Math.min(buf.length, upTo - hashed), hashed);
      if (n === 0) return { error: `the file shrank while it was read (${upTo} bytes read, ${hashed} there now)` };
      hash.update(buf.subarray(0, n));
      hashed += n;
      Atomics.store(word, 1, BigInt(hashed));
    } else if ((w & 3n) === ENDED) return { digest: hash.digest("hex") };
    else Atomics.wait(word, 0, w);
  }
}

if (feed) {
  // However this thread ends, a reader waiting for a slot must hear of it (sources/feed-slots.ts).
  process.on("exit", () => gone(feed));
  Atomics.store(feed.ctl, READY, 1);
  Atomics.notify(feed.ctl, READY);
}
let answer: ReturnType<typeof run>;
try {
  answer = run();
} catch (e) {
  answer = { error: (e as Error).message };
}
if (feed) gone(feed);
if (answer) parentPort!.postMessage(answer);
