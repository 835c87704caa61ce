import type { Worker } from "node:worker_threads";

/**
 * A worker thread running `url` (its module's own URL: the bundle rewrites import.meta.url per module), its
 * answers to `message`; `lost` hears of an error or an exit the caller did not ask for (it checks whether
 * `w` is still its worker). undefined when no worker can start here: the caller then does the work itself.
 */
export function startWorker<M>(url: URL, on: { message: (m: M, w: Worker) => void; lost: (w: Worker) => void }): Worker | undefined {
  try {
    const { Worker } = process.getBuiltinModule("node:worker_threads");
    const w = new Worker(url);
    w.on("message", (m: M) => on.message(m, w));
    const lost = () => on.lost(w);
    w.on("error", lost);
    w.on("exit", lost);
    return w;
  } catch {
    return undefined;
  }
}
