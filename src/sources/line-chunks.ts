import { readSync } from "node:fs";
import { readTuning, reuse } from "./reused-buffers.js";

const LF = 0x0a;

/**
 * A file's bytes in chunks that end at a line end, all read into one buffer that is used again: the
 * partial line at the end of a read moves to the buffer's front and the next read appends to it, so
 * a line never spans two chunks and nothing is allocated per read. A fresh 1 MiB buffer per read, and
 * lines across reads joined into fresh buffers, left ≈40 MB of peak RSS at 200 MB of transcript as
 * garbage the collector was slow to free. A line longer than the buffer grows it, up to
 * `readTuning.maxChunk` (8 MiB); past that the buffer goes to the splitter as a piece of the line (it keeps
 * pieces of lines it must join) and a new one is taken, so over-long lines work as before.
 *
 * A chunk and the lines in it are valid only until the next `next()`: only a reader that hands each
 * line's records on before asking for more may use this (records/source.ts `decodeLines`, sync).
 * Reads go on past the size at open: a transcript still being written is read as far as it goes, or
 * to `limit` (no byte past it is read: sources/read-bounds.ts).
 */
export function* lineChunks(fd: number, sizeAtOpen: number, limit = Infinity): Generator<Buffer> {
  // Sized to the file when it is small: 100,000 small subagent files should not cost a MiB each, nor a
  // buffer of their own (a small one comes from Node's shared pool; it is never written to again).
  let buf = Buffer.allocUnsafe(Math.min(readTuning.chunk, sizeAtOpen + 1));
  let filled = 0;
  let total = 0;
  let overLong = false;
  for (;;) {
    const asked = Math.min(buf.length - filled, limit - total);
    const n = asked > 0 ? readSync(fd, buf, filled, asked, null) : 0;
    filled += n;
    total += n;
    // A short read once the size seen at open is reached is the end, as a read of 0 would say a moment
    // later: one read per small file instead of two (20,000 sessions: 20,000 syscalls). Before that size
    // a short read (FUSE, NFS) is only a short read, and growth after the size is still read on.
    if (n === 0 || (n < asked && total >= sizeAtOpen)) {
      if (filled > 0) yield buf.subarray(0, filled);
      return;
    }
    if (filled < buf.length) continue;
    const last = buf.lastIndexOf(LF, filled - 1);
    if (last >= 0) overLong = false;
    if (last >= 0 && buf.byteOffset === 0 && buf.buffer.byteLength === buf.length) {
      yield buf.subarray(0, last + 1);
      reuse(buf);
      buf.copyWithin(0, last + 1, filled);
      filled -= last + 1;
      if (readTuning.poison) buf.fill(0xff, filled);
    } else if (last >= 0 || (!overLong && buf.length < readTuning.maxChunk)) {
      // A line longer than the buffer, or a buffer from the shared pool (other views share its memory).
      // A read's worth more at a time, not twice the size: a 4.8 MB line held a 8 MiB buffer (every page of
      // it read into), where 5 MiB holds it; the few extra copies happen once per run.
      const bigger = Buffer.allocUnsafeSlow(Math.max(filled + 1, Math.min(buf.length + readTuning.chunk, readTuning.maxChunk)));
      buf.copy(bigger, 0, 0, filled);
      buf = bigger;
    } else {
      // The rest of this line goes on in fresh read-size pieces, as all reads did before.
      yield buf;
      buf = Buffer.allocUnsafeSlow(readTuning.chunk);
      filled = 0;
      overLong = true;
    }
  }
}
