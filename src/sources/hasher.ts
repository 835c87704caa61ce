import * as crypto from "node:crypto";
import { createHash, type Hash } from "node:crypto";
import { Worker } from "node:worker_threads";
import { holdYoungGeneration } from "./memory.js";

/** sha256 of an input as it streams; `digest` once at its end. */
export interface Hasher {
  /** The next bytes of the input, in order. */
  update(buf: Buffer): void;
  digest(): Promise<string>;
  /** The input was not read to its end: no digest will be asked for. */
  close(): void;
}

/**
 * Files at least this large are hashed on a worker thread: sha256 costs about as much as the rest of the
 * work on a transcript's bytes, and a second core does it meanwhile. Below it the worker's start
 * (≈30 ms) costs more than it saves.
 */
export const WORKER_HASH_MIN = 32 * 1024 * 1024;

/** Up to this many bytes of a first chunk are kept (copied: readers reuse their buffers) for a one-shot hash. */
const ONE_SHOT_MAX = 64 * 1024;
const oneShot = (crypto as { hash?: (algorithm: string, data: Buffer, encoding: "hex") => string }).hash;

/**
 * sha256 in this thread. A small file comes in one chunk: that chunk is kept and hashed with one call at
 * the digest (crypto.hash, Node 20.12+), not through a Hash object's create, update and digest, which cost
 * `sessions` over 20,000 small files ~5% of its time. A second chunk, or a large first one, goes the usual way.
 */
export function inlineHasher(): Hasher {
  let h: Hash | undefined;
  let first: Buffer | undefined;
  return {
    update(b) {
      if (h === undefined && first === undefined && oneShot !== undefined && b.length <= ONE_SHOT_MAX) {
        first = Buffer.from(b);
        return;
      }
      if (h === undefined) {
        h = createHash("sha256");
        if (first !== undefined) h.update(first);
        first = undefined;
      }
      h.update(b);
    },
    digest: async () =>
      h === undefined && oneShot !== undefined ? oneShot("sha256", first ?? EMPTY, "hex") : (h ?? createHash("sha256")).digest("hex"),
    close: () => {},
  };
}
const EMPTY = Buffer.alloc(0);

const WAKE_EVERY = 8n << 20n;

/** Progress word values besides `bytes * 2` (running) and `bytes * 2 + 1` (ended at bytes). */
export const ABORTED = -1n;

/**
 * A hasher for an open file that never sees its bytes: a worker reads the same descriptor with its
 * own positional reads and hashes exactly the bytes the reader has consumed so far. The reader only
 * publishes its byte count in one shared word (`update` counts, it does not copy or post), so the main
 * thread pays nothing per chunk. Count and end share the word so a waiting worker cannot miss the end.
 * The descriptor stays the reader's; `release` is called once the worker can no longer touch it, and
 * the reader must not close it before. Copying chunks to the worker through shared slots, as before,
 * cost the main thread a copy and a message per 4 MiB (≈8% of a run of `requests`).
 */
export function fileHasher(fd: number, release: () => void): Hasher {
  const word = new BigInt64Array(new SharedArrayBuffer(8));
  let worker: Worker;
  try {
    worker = new Worker(new URL("./hash-worker.js", import.meta.url), { workerData: { fd, word } });
  } catch {
    release();
    return inlineHasher();
  }
  worker.unref();
  let released = false;
  const free = () => {
    if (!released) ((released = true), release());
  };
  const done = new Promise<string>((resolve, reject) => {
    worker.once("message", (m: { digest?: string; error?: string }) =>
      m.digest !== undefined ? resolve(m.digest) : reject(new Error(m.error)),
    );
    worker.once("error", reject);
    worker.once("exit", () => {
      free();
      reject(new Error("the hash worker stopped"));
    });
  });
  done.catch(() => {});
  let bytes = 0n;
  let told = 0n;
  const publish = (v: bigint) => {
    Atomics.store(word, 0, v);
    Atomics.notify(word, 0);
  };
  return {
    update(b) {
      bytes += BigInt(b.length);
      // Waking the worker per MiB costs context switches on a busy machine; it hashes 8 MiB per wake-up.
      if (bytes - told < WAKE_EVERY) Atomics.store(word, 0, bytes * 2n);
      else {
        publish(bytes * 2n);
        told = bytes;
        // Any worker started since set the young generation's growth back (memory.ts); 25 µs per 8 MiB.
        holdYoungGeneration();
      }
    },
    async digest() {
      publish(bytes * 2n + 1n);
      try {
        return await done;
      } finally {
        void worker.terminate();
      }
    },
    close() {
      publish(ABORTED);
      void worker.terminate();
    },
  };
}
