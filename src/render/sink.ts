/** Where a document goes: process.stdout, a file stream, or a test's collector. */
export interface Sink {
  /** false when the sink's buffer is full: wait for "drain" before writing more. */
  write(chunk: string | Uint8Array): boolean;
  once(event: "drain", cb: () => void): unknown;
}

/** Small chunks are gathered to about this many characters per write: a write per JSON row costs more than the row. */
const BATCH = 1 << 16;

/**
 * Writes the chunks in order, honouring backpressure, so memory holds one batch and whatever the sink
 * buffers up to its high-water mark, never the whole document.
 */
export async function writeChunks(sink: Sink, chunks: Iterable<string | Uint8Array>): Promise<void> {
  let buf = "";
  for (const c of chunks) {
    if (typeof c !== "string") {
      // Bytes come in pieces of a batch already: written as they are, after the text before them.
      if (buf !== "" && !sink.write(buf)) await new Promise<void>((res) => sink.once("drain", res));
      buf = "";
      if (!sink.write(c)) await new Promise<void>((res) => sink.once("drain", res));
      continue;
    }
    buf += c;
    if (buf.length >= BATCH) {
      const ok = sink.write(buf);
      buf = "";
      if (!ok) await new Promise<void>((res) => sink.once("drain", res));
    }
  }
  if (buf !== "" && !sink.write(buf)) await new Promise<void>((res) => sink.once("drain", res));
}
