import { createHash } from "node:crypto";
import { Worker } from "node:worker_threads";
import { feedShared, freeAll, READY, slotChunks } from "./feed-slots.js";
import { readTuning } from "./reused-buffers.js";
import { holdYoungGeneration } from "./memory.js";

/** sha256 of an input as it streams; `digest` once at its end. */
export interface Hasher {
  /** The next bytes of the input, in order. */
  update(buf: Buffer): void;
  digest(): Promise<string>;
  /** The input was not read to its end: no digest will be asked for. */
  close(): void;
}

export function inlineHasher(): Hasher {
  const h = createHash("sha256");
  return { update: (b) => void h.update(b), digest: async () => h.digest("hex"), close: () => {} };
}

const WAKE_EVERY = 8n << 20n;

/** Progress word values: `bytes * 4` running, `+ 1` ended at bytes, `+ 2` reading handed over at bytes. */
export const ABORTED = -1n;

/** A file hasher whose worker can also take the reading over (sources/feed-slots.ts). */
export interface FileHasher extends Hasher {
  /** Whether the worker runs: until then the reader reads on itself, so the worker's start costs it nothing. */
  canTakeOver(): boolean;
  /** The chunks from byte `from` on (what the reader counted so far), read and hashed by the worker. */
  takeOver(from: number): Generator<Buffer>;
}

export interface FileHasherOptions {
  /** The size at open, where a short read ends the file (sources/line-chunks.ts). */
  sizeAtOpen: number;
  /** Slots to share for `takeOver`; none: the worker only hashes. */
  slots?: number;
}

/**
 * A hasher for an open file that never sees its bytes (for files of `readTuning.workerMin` bytes or more:
 * sha256 costs about as much as the rest of the work on a transcript's bytes, and a second core does it
 * meanwhile; below that the worker's start, ≈30 ms, costs more than it saves): a worker reads the same descriptor with its
 * own positional reads and hashes exactly the bytes the reader has consumed so far. The reader only
 * publishes its byte count in one shared word (`update` counts, it does not copy or post), so the main
 * thread pays nothing per chunk. Count and end share the word so a waiting worker cannot miss the end.
 * The descriptor stays the reader's; `release` is called once the worker can no longer touch it, and
 * the reader must not close it before. Copying chunks to the worker through shared slots, as before,
 * cost the main thread a copy and a message per 4 MiB (≈8% of a run of `requests`); the slots now go
 * the other way: the worker reads into them, and the main thread reads nothing itself (`takeOver`).
 */
export function fileHasher(fd: number, release: () => void, opts: FileHasherOptions = { sizeAtOpen: 0 }): FileHasher | Hasher {
  // [0]: what the reader counted (see ABORTED); [1]: how far the worker has hashed.
  const word = new BigInt64Array(new SharedArrayBuffer(16));
  const feed = opts.slots ? feedShared(opts.slots) : undefined;
  let worker: Worker;
  try {
    const workerData = {
      fd,
      word,
      feed,
      sizeAtOpen: opts.sizeAtOpen,
      chunk: readTuning.chunk,
      poison: readTuning.poison,
      yieldScan: readTuning.yieldScan,
    };
    // The entry that also scans long lines (pipeline/read-worker.ts) when the reader's caller named it.
    const entry = feed
      ? (readTuning.workerEntry ?? new URL("./hash-worker.js", import.meta.url))
      : new URL("./hash-worker.js", import.meta.url);
    worker = new Worker(entry, { workerData });
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
  const hasher: Hasher = {
    update(b) {
      bytes += BigInt(b.length);
      // Waking the worker per MiB costs context switches on a busy machine; it hashes 8 MiB per wake-up,
      // except once it could take the reading over: it must catch up first, so it is woken every chunk.
      if (bytes - told < WAKE_EVERY && !(feed && Atomics.load(feed.ctl, READY) === 1)) Atomics.store(word, 0, bytes * 4n);
      else {
        publish(bytes * 4n);
        told = bytes;
        // Any worker started since set the young generation's growth back (memory.ts); 25 µs per 8 MiB.
        holdYoungGeneration();
      }
    },
    async digest() {
      publish(bytes * 4n + 1n);
      try {
        return await done;
      } finally {
        void worker.terminate();
      }
    },
    close() {
      publish(ABORTED);
      if (feed) freeAll(feed);
      void worker.terminate();
    },
  };
  if (!feed) return hasher;
  return {
    ...hasher,
    // As soon as the worker runs: it fills its first slot before it hashes what was read here.
    canTakeOver() {
      if (readTuning.awaitWorker) Atomics.wait(feed.ctl, READY, 0, 10_000);
      return Atomics.load(feed.ctl, READY) === 1;
    },
    *takeOver(from: number) {
      if (BigInt(from) !== bytes) throw new Error(`internal: reading handed over at ${from} bytes, ${bytes} counted`);
      publish(bytes * 4n + 2n);
      for (const c of slotChunks(feed)) {
        bytes += BigInt(c.length);
        if (bytes - told >= WAKE_EVERY) {
          told = bytes;
          holdYoungGeneration();
        }
        yield c;
      }
    },
  };
}
