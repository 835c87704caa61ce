import { handedOver } from "./line-chunks.js";
import { collectAfterHugeLine } from "./memory.js";
import { hold, letGo, prescanTable, SHARED_AT, sharedMemory, slotScanner, TABLE_BYTES } from "./prescan-table.js";
import { readTuning, reuse } from "./reused-buffers.js";

/**
 * The memory a reader worker (sources/slot-filler.ts) and the main thread share once the worker has
 * taken a big file's reading over (sources/hasher.ts `takeOver`). The worker reads each chunk once into
 * a slot, hashes it and hands the slot over; the main thread finds line ends and parses, then gives the
 * slot back. A chunk ends at a line end, as with one reused buffer (sources/line-chunks.ts): the worker
 * copies the partial line after the last newline to the front of the next slot, so a line never spans
 * two slots. Slots are filled in turn, one at a time: the main thread holds one while the worker fills
 * the others, and gives it back only when it asks for the next, when no line of it is in use any more.
 */
export interface FeedShared {
  /** READY, TEXT_LEN, GONE, then per slot its state, length and flags (`at`). */
  ctl: Int32Array;
  /**
   * Each slot its own memory, so an undecoded string's generation check names its slot
   * (sources/reused-buffers.ts): a shared WebAssembly memory, so that the worker's scanner reads the
   * bytes in place (records/wasm-string.ts `inPlace`); the slot's bytes start at SHARED_AT.
   */
  slots: WebAssembly.Memory[];
  /** A slot's size in bytes. */
  cap: number;
  /** Per slot, what the worker found out about its long lines (sources/prescan-table.ts). */
  tables: SharedArrayBuffer[];
  /** Why the worker could not read on, UTF-8, TEXT_LEN bytes. */
  text: Uint8Array;
}

/** ctl[READY] is 1 once the worker runs and can take the reading over. */
export const READY = 0;
export const TEXT_LEN = 1;
/** ctl[GONE] is 1 once the worker's thread is ending: a slot it has not handed over will never come. */
export const GONE = 2;
/** ctl[WANT] is `at(k)` while the main thread waits for slot k, else 0: the worker then hands it over as it is. */
export const WANT = 3;
/** Where slot `k`'s state, length and flags are in ctl. */
export const at = (k: number): number => 4 + 3 * k;

/** Slot states: the worker may fill it, or the main thread may read it. */
export const FREE = 0;
export const FULL = 1;

/** Slot flags. LAST: the input's last chunk (maybe empty). PIECE: part of a line longer than a slot. FAILED: see `text`. */
export const LAST = 1;
export const PIECE = 2;
export const FAILED = 4;

/**
 * Slots as large as the longest line held whole (`readTuning.maxChunk`), so a line up to it comes out in
 * one chunk as before; the worker fills one only to about `chunk` bytes past a line end, and memory
 * never touched is never paged in, so a file of short lines costs about `chunk` per slot.
 */
export function feedShared(count: number): FeedShared {
  const cap = Math.max(readTuning.chunk, readTuning.maxChunk);
  const slots = Array.from({ length: count }, () => sharedMemory(cap));
  const tables = Array.from({ length: count }, () => new SharedArrayBuffer(TABLE_BYTES));
  const ctl = new Int32Array(new SharedArrayBuffer(4 * at(count)));
  return { ctl, slots, cap, tables, text: new Uint8Array(new SharedArrayBuffer(1024)) };
}

/**
 * The main thread's side: the chunks the worker hands over, in order. A chunk is valid until the next
 * `next()`, which gives its slot back (and marks undecoded strings into it stale). Pieces of an over-long
 * line come out as fresh copies of read size: the line splitter holds them until the line ends, and so
 * they are what the single-buffer reader handed out too. While a slot's chunk is out, its table says what
 * the worker found in its long lines (sources/prescan-table.ts `held`).
 *
 * When the worker is behind, this thread sleeps in Atomics.wait (no spinning). A worker that failed says
 * why in the slot; one whose thread ended without handing the slot over sets GONE on its way out, and a
 * worker that says nothing for STALL_MS is taken for dead too: an error either way, never a hang.
 */
export function* slotChunks(sh: FeedShared): Generator<Buffer> {
  const { ctl } = sh;
  const views = sh.slots.map((m) => slotView(m, sh.cap));
  const tables = sh.tables.map(prescanTable);
  // The worker scans the long lines from now on: a scanner memory grown here would only hold RSS.
  let grown = slotScanner.release?.() === true || handedOver.grown;
  handedOver.grown = false;
  try {
    for (let k = 0, n = 0; ; k = (k + 1) % views.length, n++) {
      const s = at(k);
      // Memory grown for a long line before the hand-over (the read buffer, the scanner's) waits for a
      // full collection, which may not come before the end: 8-13 MB of peak RSS when the worker took
      // over late (requests at 200 MB: 111-114 against 100-106 MB). Once a slot is out, nothing holds it.
      if (grown && n === 1) {
        grown = false;
        collectAfterHugeLine();
      }
      awaitSlot(ctl, s);
      const len = Atomics.load(ctl, s + 1);
      const flags = Atomics.load(ctl, s + 2);
      if (flags & FAILED) throw new Error(Buffer.from(sh.text.subarray(0, Atomics.load(ctl, TEXT_LEN))).toString());
      const view = views[k]!.subarray(0, len);
      if (flags & PIECE)
        for (let from = 0; from < len; from += readTuning.chunk) yield Buffer.from(view.subarray(from, from + readTuning.chunk));
      else if (len > 0) {
        hold(views[k]!.buffer, SHARED_AT, tables[k]!);
        yield view;
        letGo();
      }
      if (flags & LAST) return;
      reuse(view);
      Atomics.store(ctl, s, FREE);
      Atomics.notify(ctl, s);
    }
  } finally {
    letGo();
  }
}

/** A slot's bytes (its memory's `buffer` is one object per thread: every view of a slot shares it). */
export const slotView = (m: WebAssembly.Memory, cap: number): Buffer => Buffer.from(m.buffer, SHARED_AT, cap);

/** How long a slot may take to come before the worker is taken for dead. */
export const STALL_MS = 120_000;

function awaitSlot(ctl: Int32Array, s: number): void {
  if (Atomics.load(ctl, s) === FULL) return;
  Atomics.store(ctl, WANT, s);
  try {
    waitFor(ctl, s);
  } finally {
    Atomics.store(ctl, WANT, 0);
  }
}

function waitFor(ctl: Int32Array, s: number): void {
  let waited = 0;
  while (Atomics.load(ctl, s) !== FULL) {
    if (Atomics.load(ctl, GONE) === 1) throw new Error("the reader thread stopped before the file was read");
    if (waited >= STALL_MS) throw new Error(`the reader thread handed nothing over for ${STALL_MS / 1000} s`);
    if (Atomics.wait(ctl, s, FREE, 1000) === "timed-out") waited += 1000;
  }
}

/** The worker's last word: its thread is ending (sources/hash-worker.ts), and a waiting reader must not wait on. */
export function gone(sh: FeedShared): void {
  Atomics.store(sh.ctl, GONE, 1);
  for (let k = 0; at(k) < sh.ctl.length; k++) Atomics.notify(sh.ctl, at(k));
}

/** Stops a worker that may be waiting for a slot: every slot is given back, and the caller has said why. */
export function freeAll(sh: FeedShared): void {
  for (let k = 0; at(k) < sh.ctl.length; k++) {
    Atomics.store(sh.ctl, at(k), FREE);
    Atomics.notify(sh.ctl, at(k));
  }
}
