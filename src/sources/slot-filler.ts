import type { Hash } from "node:crypto";
import { readSync } from "node:fs";
import { at, FAILED, FREE, FULL, LAST, PIECE, slotView, TEXT_LEN, WANT, type FeedShared } from "./feed-slots.js";
import { prescanTable, slotScanner } from "./prescan-table.js";

const LF = 0x0a;

export interface FillJob {
  fd: number;
  /** The file offset reading starts at: what the main thread had read itself before it handed over. */
  from: number;
  /** The size when the file was opened: a short read reaching it ends the file (as sources/line-chunks.ts). */
  sizeAtOpen: number;
  /** How much to read at a time; a slot is handed over once it holds this much and a line end. */
  chunk: number;
  /** Fill a slot's used part with 0xff before filling it again (readTuning.poison). */
  poison: boolean;
  /** Leave a slot's remaining long lines to the main thread when it waits for the slot (readTuning.yieldScan). */
  yieldScan: boolean;
  /** True once the main thread stopped reading (it then frees every slot to wake this one). */
  aborted: () => boolean;
  /** Hashes the bytes before `from`, called once the first slot is handed over. */
  catchUp?: (scratch: Buffer) => void;
}

/**
 * The worker's side of sources/feed-slots.ts: reads the file from `job.from` into the slots in turn,
 * hands each slot over at its last line end and then hashes what it read into it; the rest moves to the
 * front of the next slot. Hashing before the hand-over put sha256 (≈0.9 ms per MiB) between the main
 * thread and every chunk: it waited for 40 of 200 chunks of the bench's file. A slot full without a line end goes over whole as a PIECE. Reads go on past
 * the size at open (a transcript still being written); a file that ends before it shrank under the
 * reader, and that is an error, as is any failed read: the slot then carries FAILED and the reason.
 * Returns false when the main thread stopped reading first.
 */
export function fillSlots(sh: FeedShared, hash: Hash, job: FillJob): boolean {
  const { ctl } = sh;
  const bufs = sh.slots.map((m) => slotView(m, sh.cap));
  let catchUp = job.catchUp;
  const tables = sh.tables.map(prescanTable);
  let pos = job.from;
  let carry: Buffer = Buffer.alloc(0);
  const used = bufs.map(() => 0);
  for (let k = 0; ; k = (k + 1) % bufs.length) {
    const s = at(k);
    for (;;) {
      if (job.aborted()) return false;
      if (Atomics.load(ctl, s) === FREE) break;
      Atomics.wait(ctl, s, FULL);
    }
    const b = bufs[k]!;
    // Stale views into the slot see 0xff, not the next bytes that happen to match (a test hook).
    if (job.poison) b.fill(0xff, 0, used[k]);
    // The carried bytes are in the previous slot, past the part handed over: nobody writes there now.
    const fresh = carry.copy(b, 0);
    // The file offset of the slot's first byte: the file's first line loses its BOM (sources/lines.ts).
    const slotAt = pos - fresh;
    let filled = fresh;
    let lastLF = -1;
    let flags = 0;
    let len = 0;
    try {
      for (;;) {
        if (filled === b.length) {
          if (lastLF < 0) flags = PIECE;
          break;
        }
        const asked = Math.min(job.chunk, b.length - filled);
        const n = readSync(job.fd, b, filled, asked, pos);
        const lf = n > 0 ? b.subarray(filled, filled + n).lastIndexOf(LF) : -1;
        if (lf >= 0) lastLF = filled + lf;
        filled += n;
        pos += n;
        if (n === 0 && pos < job.sizeAtOpen)
          throw new Error(`the file shrank while it was read (${job.sizeAtOpen} bytes at open, ${pos} there now)`);
        if (n === 0 || (n < asked && pos >= job.sizeAtOpen)) {
          flags = LAST;
          break;
        }
        if (lastLF >= 0 && filled >= job.chunk) break;
      }
      len = flags === 0 ? lastLF + 1 : filled;
      // The long lines' scan before the hand-over, so the main thread only parses their skeletons.
      const prescanSlot = slotScanner.prescan;
      if (flags & PIECE || !prescanSlot) tables[k]!.words[0] = 0;
      else prescanSlot(b, len, slotAt === 0, tables[k]!, job.yieldScan ? () => Atomics.load(ctl, WANT) === s : undefined, sh.slots[k]);
    } catch (e) {
      const text = Buffer.from(sh.text.buffer, sh.text.byteOffset, sh.text.length);
      Atomics.store(ctl, TEXT_LEN, text.write((e as Error).message, 0, "utf8"));
      hand(ctl, s, 0, FAILED);
      throw e;
    }
    carry = b.subarray(len, filled);
    used[k] = filled;
    hand(ctl, s, len, flags);
    // Hashed once handed over, while the main thread parses: the slot is not filled again before.
    if (catchUp) {
      // The next slot was never handed over yet: its memory serves as the read buffer (RSS: 1 MiB).
      catchUp(bufs.length > 1 ? bufs[(k + 1) % bufs.length]!.subarray(0, job.chunk) : Buffer.allocUnsafe(job.chunk));
      catchUp = undefined;
    }
    hash.update(b.subarray(fresh, filled));
    if (flags === LAST) return true;
  }
}

function hand(ctl: Int32Array, s: number, len: number, flags: number): void {
  Atomics.store(ctl, s + 1, len);
  Atomics.store(ctl, s + 2, flags);
  Atomics.store(ctl, s, FULL);
  Atomics.notify(ctl, s);
}
