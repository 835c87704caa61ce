import { createHash } from "node:crypto";
import { Worker } from "node:worker_threads";

/** sha256 of an input as it streams; `digest` once at its end. */
export interface Hasher {
  update(buf: Buffer): void | Promise<void>;
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

export function inlineHasher(): Hasher {
  const h = createHash("sha256");
  return { update: (b) => void h.update(b), digest: async () => h.digest("hex"), close: () => {} };
}

// Node 16+ has it; TypeScript's lib for ES2022 does not declare it.
const waitAsync = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number, ms: number): { async: boolean; value: unknown } })
  .waitAsync;

const SLOTS = 4;
const SLOT_BYTES = 4 << 20;

/**
 * A hasher on a worker thread. The bytes go through a fixed ring of shared slots (copying a MiB costs
 * far less than hashing it), so memory stays at 16 MiB however far the worker falls behind on a busy
 * machine: the reader then waits for a free slot. A slot is handed over when full, so a 200 MB file
 * costs 50 messages. Fresh shared buffers per chunk were tried first: the worker allocates so little
 * that it never collected them, and peak RSS doubled.
 */
export function workerHasher(): Hasher {
  const slots = new SharedArrayBuffer(SLOTS * SLOT_BYTES);
  const state = new SharedArrayBuffer(SLOTS * 4);
  const flags = new Int32Array(state);
  const ring = new Uint8Array(slots);
  let worker: Worker;
  try {
    worker = new Worker(new URL("./hash-worker.js", import.meta.url), { workerData: { slots, state, slotBytes: SLOT_BYTES } });
  } catch {
    return inlineHasher();
  }
  worker.unref();
  let failure: unknown;
  const done = new Promise<string>((resolve, reject) => {
    worker.once("message", (d: string) => resolve(d));
    worker.once("error", (e) => reject((failure = e)));
  });
  done.catch(() => {});
  let slot = 0;
  let fill = 0;
  const send = () => {
    Atomics.store(flags, slot, 1);
    worker.postMessage({ slot, length: fill });
    slot = (slot + 1) % SLOTS;
    fill = 0;
  };
  return {
    async update(b) {
      for (let at = 0; at < b.length;) {
        if (fill === 0) {
          while (Atomics.load(flags, slot) === 1) {
            if (failure) throw failure;
            const w = waitAsync(flags, slot, 1, 1000);
            if (w.async) await w.value;
          }
        }
        const n = Math.min(b.length - at, SLOT_BYTES - fill);
        ring.set(b.subarray(at, at + n), slot * SLOT_BYTES + fill);
        fill += n;
        at += n;
        if (fill === SLOT_BYTES) send();
      }
    },
    async digest() {
      if (fill > 0) send();
      worker.postMessage("end");
      try {
        return await done;
      } finally {
        void worker.terminate();
      }
    },
    close: () => void worker.terminate(),
  };
}
