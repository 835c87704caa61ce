import type { OutStream } from "../io.js";

/** Progress on stderr, only when stderr is a terminal: bytes read of the total, a percentage and time left, redrawn in place. */
export interface Progress {
  update: (file: string, bytes: number) => void;
  done: () => void;
  /** The bytes of all inputs, once known (after the target is resolved). */
  total: (bytes: number | undefined) => void;
}

export interface ProgressOptions {
  /** Bytes of all inputs, when known (stdin has none): without it only the bytes read are shown. */
  total?: number;
  /** Injected by tests; Date.now otherwise. */
  clock?: () => number;
  /** Least time between two redraws. */
  everyMs?: number;
}

export function progressReporter(stream: OutStream, isTTY: boolean, opts: ProgressOptions = {}): Progress | undefined {
  if (!isTTY) return undefined;
  const clock = opts.clock ?? Date.now;
  const every = opts.everyMs ?? 200;
  let total = opts.total;
  const started = clock();
  let last = -Infinity;
  let shown = false;
  // Bytes per file as the scanner reports them (it counts each file from 0).
  const read = new Map<string, number>();
  return {
    update(file, bytes) {
      read.set(file, bytes);
      const now = clock();
      if (now - last < every) return;
      last = now;
      shown = true;
      let done = 0;
      for (const b of read.values()) done += b;
      stream.write(`\r\x1b[K${progressLine(done, total, now - started)}`);
    },
    done() {
      if (shown) stream.write("\r\x1b[K");
    },
    total(bytes) {
      total = bytes;
    },
  };
}

/** `12.3 MB of 40.0 MB · 31% · about 4 s left`; the estimate waits for a second of reading to go on. */
export function progressLine(done: number, total: number | undefined, elapsedMs: number): string {
  const mb = (n: number) => `${(n / 1_048_576).toFixed(1)} MB`;
  if (!total || total <= 0) return `${mb(done)} read`;
  const part = Math.min(done, total);
  const pct = Math.floor((part / total) * 100);
  let eta = "";
  if (elapsedMs >= 1000 && part > 0) eta = ` · about ${duration((elapsedMs * (total - part)) / part)} left`;
  return `${mb(part)} of ${mb(total)} · ${pct}%${eta}`;
}

function duration(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}
