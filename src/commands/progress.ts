import type { OutStream } from "../io.js";

/** Progress on stderr, only when stderr is a terminal: files and bytes done, redrawn in place. */
export interface Progress {
  update: (file: string, bytes: number) => void;
  done: () => void;
}

export function progressReporter(stream: OutStream, isTTY: boolean): Progress | undefined {
  if (!isTTY) return undefined;
  let last = 0;
  let shown = false;
  const files = new Set<string>();
  return {
    update(file, bytes) {
      files.add(file);
      const now = Date.now();
      if (now - last < 200) return;
      last = now;
      shown = true;
      stream.write(`\r\x1b[Kfile ${files.size}: ${(bytes / 1048576).toFixed(1)} MB read`);
    },
    done() {
      if (shown) stream.write("\r\x1b[K");
    },
  };
}
