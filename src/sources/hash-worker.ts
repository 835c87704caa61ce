import { createHash } from "node:crypto";
import { readSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { holdYoungGeneration } from "./memory.js";

/**
 * The other end of sources/hasher.ts `fileHasher`: hashes the reader's file from its own positional
 * reads, never past the byte count the reader published, so a file still being appended to is hashed
 * exactly as far as it was parsed. Blocking is fine here: this thread has nothing else to do.
 */
// This thread's isolate, just made, let the main thread's young generation grow again (memory.ts).
holdYoungGeneration();
const { fd, word } = workerData as { fd: number; word: BigInt64Array };
const ABORTED = -1n;
const buf = Buffer.allocUnsafe(1 << 20);
const hash = createHash("sha256");

function run(): { digest: string } | { error: string } | undefined {
  let hashed = 0;
  for (;;) {
    const w = Atomics.load(word, 0);
    if (w === ABORTED) return undefined;
    const upTo = Number(w >> 1n);
    if (hashed < upTo) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, upTo - hashed), hashed);
      if (n === 0) return { error: `the file shrank while it was read (${upTo} bytes read, ${hashed} there now)` };
      hash.update(buf.subarray(0, n));
      hashed += n;
    } else if ((w & 1n) === 1n) return { digest: hash.digest("hex") };
    else Atomics.wait(word, 0, w);
  }
}

let answer: ReturnType<typeof run>;
try {
  answer = run();
} catch (e) {
  answer = { error: (e as Error).message };
}
if (answer) parentPort!.postMessage(answer);
