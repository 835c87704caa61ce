import { createHash } from "node:crypto";
import { parentPort, workerData } from "node:worker_threads";

/**
 * The other end of sources/hasher.ts: hashes the slot it is told of, frees it (slot state 0) and wakes
 * the reader; on "end" answers the digest.
 */
const { slots, state, slotBytes } = workerData as { slots: SharedArrayBuffer; state: SharedArrayBuffer; slotBytes: number };
const flags = new Int32Array(state);
const hash = createHash("sha256");
parentPort!.on("message", (m: { slot: number; length: number } | "end") => {
  if (m === "end") {
    parentPort!.postMessage(hash.digest("hex"));
    return;
  }
  hash.update(new Uint8Array(slots, m.slot * slotBytes, m.length));
  Atomics.store(flags, m.slot, 0);
  Atomics.notify(flags, m.slot);
});
