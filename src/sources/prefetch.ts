import type { Worker } from "node:worker_threads";
import type { ReadAhead } from "./input.js";
import { startWorker } from "./start-worker.js";

/**
 * Test hooks. With at least `workerMin` files to read one after the other, a worker reads the small ones
 * (up to `maxFile` bytes) ahead, `batch` files per message and at most `ahead` batches beyond the one in
 * use, so at most ahead × maxBatch bytes wait in memory. `sessions` over 20,000 sessions spent about 0.6 s
 * of its main thread in open, fstat, read and close; the worker does them on the other core meanwhile.
 */
export const prefetchTuning = { workerMin: 2048, batch: 256, ahead: 3, maxFile: 256 * 1024, maxBatch: 4 << 20 };

interface Batch {
  lens: Int32Array;
  hashes: string[];
  bytes: Uint8Array;
  starts: number[];
}

/**
 * The bytes of small files that will be read in a known order, read ahead on a worker thread. `take`
 * answers undefined for what the worker did not read (too big, not a regular file, not there, a worker
 * that could not start or failed): the caller then reads the file itself, as it would have anyway, so
 * every error and every refusal still comes from the main thread's guard.
 */
export class Prefetch {
  private readonly at = new Map<string, number>();
  private readonly batches: Array<Promise<Batch | undefined> | undefined> = [];
  private readonly waiting = new Map<number, (b: Batch | undefined) => void>();
  private readonly count: number;
  private worker: Worker | undefined;
  private dead: boolean;
  private answered = 0;

  constructor(private readonly paths: readonly string[]) {
    this.dead = paths.length < prefetchTuning.workerMin;
    this.count = Math.ceil(paths.length / prefetchTuning.batch);
    if (!this.dead) paths.forEach((p, i) => this.at.has(p) || this.at.set(p, i));
  }

  /** `path`'s bytes and their sha256 if the worker read them; each path is answered once. */
  async take(path: string): Promise<ReadAhead | undefined> {
    const i = this.at.get(path);
    if (i === undefined) return undefined;
    this.at.delete(path);
    const k = Math.floor(i / prefetchTuning.batch);
    this.ask(k + prefetchTuning.ahead);
    // The batches before this one are done with: what was not taken from them is read where it is asked.
    for (let j = k - 1; j >= 0 && this.batches[j] !== undefined; j--) this.batches[j] = undefined;
    const b = await this.batches[k];
    const j = i - k * prefetchTuning.batch;
    const len = b?.lens[j] ?? -1;
    if (b === undefined || len < 0) return undefined;
    return { bytes: Buffer.from(b.bytes.buffer, b.bytes.byteOffset + b.starts[j]!, len), sha256: b.hashes[j]! };
  }

  /** Stops the worker; what it still owed is read by the caller. */
  close(): void {
    this.fail();
  }

  private ask(upTo: number): void {
    for (let k = this.batches.length; k <= upTo && k < this.count; k++) {
      const w = this.dead ? undefined : (this.worker ??= this.start());
      if (w === undefined) {
        this.batches[k] = Promise.resolve(undefined);
        continue;
      }
      const { batch, maxFile, maxBatch } = prefetchTuning;
      const paths = this.paths.slice(k * batch, (k + 1) * batch);
      this.batches[k] = new Promise((done) => this.waiting.set(k, done));
      w.postMessage({ seq: k, paths, maxFile, maxBatch });
    }
  }

  private start(): Worker | undefined {
    const w = startWorker<{ seq: number; lens: Int32Array; bytes: Uint8Array; hashes: string[] }>(
      new URL("./prefetch-worker.js", import.meta.url),
      {
        message: (m) => {
          const done = this.waiting.get(m.seq);
          if (!done) return;
          this.waiting.delete(m.seq);
          const starts: number[] = [];
          let at = 0;
          for (const len of m.lens) {
            starts.push(at);
            if (len > 0) at += len;
          }
          if (++this.answered === this.count) this.stop();
          done({ lens: m.lens, bytes: m.bytes, hashes: m.hashes, starts });
        },
        lost: (w) => {
          if (this.worker === w) this.fail();
        },
      },
    );
    // Not unref'd: a take waits on it, and the run closes the prefetch when it is done.
    if (w === undefined) this.dead = true;
    return w;
  }

  /** Every batch is answered (or the run is over): the worker has nothing more to do. */
  private stop(): void {
    const w = this.worker;
    this.worker = undefined;
    if (w) void w.terminate();
  }

  private fail(): void {
    this.dead = true;
    this.stop();
    for (const done of this.waiting.values()) done(undefined);
    this.waiting.clear();
  }
}
