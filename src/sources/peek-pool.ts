import type { Worker } from "node:worker_threads";
import { peekAll, type Peek } from "./peek.js";
import { startWorker } from "./start-worker.js";

/**
 * Test hook: at least this many old-layout agent files in one listing are peeked on a worker thread. Each
 * peek is an open, fstat, read and close (≈10 µs, most of it in the kernel); `sessions` over 20,000
 * sessions with 40,000 such files spent a quarter of its time there, which a second core does meanwhile.
 * Below it the worker's start (≈20 ms) costs more than it saves.
 */
export const peekTuning = { workerMin: 4096 };

/** Peeks batches of files, in the order asked, on one worker; inline on this thread if the worker cannot run. */
export class PeekPool {
  private worker: Worker | undefined;
  private dead = false;
  private seq = 0;
  private readonly waiting = new Map<number, { inline: () => Peek[]; done: (peeks: Peek[]) => void }>();

  /** `paths`, or with `dir` the names in it: the worker joins them (40,000 full paths were 4 MB to copy across). */
  peek(paths: string[], dir?: string): Promise<Peek[]> {
    const inline = () => peekAll(paths, dir);
    const w = this.dead ? undefined : (this.worker ??= this.start());
    if (w === undefined || paths.length === 0) return Promise.resolve(inline());
    const seq = this.seq++;
    return new Promise((done) => {
      this.waiting.set(seq, { inline, done });
      w.postMessage({ seq, paths, dir });
    });
  }

  /** Stops the worker; batches still out are peeked here, and later ones too. */
  close(): void {
    this.fail();
  }

  private start(): Worker | undefined {
    const w = startWorker<{ seq: number; ids: Array<string | undefined>; bytes: number[] }>(new URL("./peek-worker.js", import.meta.url), {
      message: (m, w) => {
        const job = this.waiting.get(m.seq);
        if (!job) return;
        this.waiting.delete(m.seq);
        // Every batch is asked for up front (SubagentIndex.peekAhead): once none is out, the worker is done.
        if (this.waiting.size === 0) {
          this.worker = undefined;
          void w.terminate();
        }
        job.done(m.ids.map((id, i) => ({ id, bytes: m.bytes[i]! })));
      },
      lost: (w) => {
        if (this.worker === w) this.fail();
      },
    });
    if (w === undefined) this.dead = true;
    return w;
  }

  /** A worker that failed or stopped answers nothing more: what it still owed is peeked on this thread. */
  private fail(): void {
    this.dead = true;
    const w = this.worker;
    this.worker = undefined;
    if (w) void w.terminate();
    const owed = [...this.waiting.values()];
    this.waiting.clear();
    for (const job of owed) job.done(job.inline());
  }
}
