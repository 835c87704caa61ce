/**
 * What the reader worker found out about a slot's long lines before it handed the slot over
 * (records/skeleton-prescan.ts writes it, records/skeleton.ts reads it): for every line of
 * SKELETON_MIN_LINE bytes or more, either its skeleton (the line with its long strings cut out, as
 * bytes) and the cut strings' offsets and counts, or that the fast path does not apply to it. One
 * table per slot, in memory shared with the worker; the main thread reads a slot's table only while it
 * holds the slot, so no entry changes under it.
 *
 * Layout, in 32-bit words: COUNT, then ENTRY_CAP entries of ENTRY_WORDS, then CUT_CAP cuts of
 * CUT_WORDS; after them SKEL_CAP bytes of skeleton text. A slot whose lines do not fit has the rest
 * of its lines left out: the main thread does those itself, as it does every line not in a table.
 */
export const ENTRY_CAP = 4096;
export const CUT_CAP = 16384;
export const SKEL_CAP = 2 << 20;
export const ENTRY_WORDS = 7;
export const CUT_WORDS = 6;
const ENTRIES_AT = 4;
const CUTS_AT = ENTRIES_AT + ENTRY_CAP * ENTRY_WORDS;
const SKEL_AT = (CUTS_AT + CUT_CAP * CUT_WORDS) * 4;
export const TABLE_BYTES = SKEL_AT + SKEL_CAP;

/** An entry's status: the skeleton is there, or the line must be parsed whole (invalid UTF-8, malformed…). */
export const SKELETON = 1;
export const WHOLE = 2;

/** Word offsets in an entry. */
export const E_START = 0,
  E_LEN = 1,
  E_STATUS = 2,
  E_SKEL_FROM = 3,
  E_SKEL_LEN = 4,
  E_CUT_FROM = 5,
  E_CUTS = 6;

export interface PrescanTable {
  words: Int32Array;
  /** The skeleton text area. */
  skel: Buffer;
  /** Word index of entry 0 and of cut 0. */
  entries: number;
  cuts: number;
}

export function prescanTable(sab: SharedArrayBuffer): PrescanTable {
  return { words: new Int32Array(sab, 0, SKEL_AT >> 2), skel: Buffer.from(sab, SKEL_AT, SKEL_CAP), entries: ENTRIES_AT, cuts: CUTS_AT };
}

/**
 * The slot the main thread holds now and its table, set by sources/feed-slots.ts `slotChunks` while it
 * hands the slot's chunk out and cleared when the slot goes back. `next` is the first entry not yet
 * passed: lines are parsed in order, so a lookup only moves forward.
 */
export const held: { memory: ArrayBufferLike | null; origin: number; table: PrescanTable | null; next: number } = {
  memory: null,
  origin: 0,
  table: null,
  next: 0,
};

/** The entry (its word index) for exactly this line of the held slot, or -1: not prescanned. */
export function prescanned(line: Uint8Array): number {
  const t = held.table;
  if (t === null || line.buffer !== held.memory) return -1;
  const w = t.words;
  const count = w[0]!;
  const at = line.byteOffset - held.origin;
  let k = held.next;
  while (k < count && w[t.entries + k * ENTRY_WORDS + E_START]! < at) k++;
  held.next = k;
  if (k === count) return -1;
  const e = t.entries + k * ENTRY_WORDS;
  if (w[e + E_START] !== at || w[e + E_LEN] !== line.length) return -1;
  held.next = k + 1;
  return e;
}

/** The slot in `memory` from byte `origin` on, and its table, are the main thread's now. */
export function hold(memory: ArrayBufferLike, origin: number, table: PrescanTable): void {
  held.memory = memory;
  held.origin = origin;
  held.table = table;
  held.next = 0;
}

export function letGo(): void {
  held.memory = null;
  held.table = null;
  held.next = 0;
}

/** Bytes of a slot's shared memory before this offset are the scanner's own (its counts); the slot's bytes start here. */
export const SHARED_AT = 64;

/**
 * A slot's memory: a shared WebAssembly memory of `bytes` usable bytes from SHARED_AT on, so that the
 * worker's scanner reads the bytes in place (records/wasm-string.ts `inPlace`).
 */
export function sharedMemory(bytes: number): WebAssembly.Memory {
  const pages = Math.ceil((SHARED_AT + bytes + 1) / 65536);
  return new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
}

/**
 * What the reader needs of the layer above it (sources may not import records): the worker's scan of a
 * slot (records/skeleton-prescan.ts sets it when loaded; the worker entry pipeline/read-worker.ts loads
 * it first) and, on the main thread, letting go of a scanner memory grown past 2 MiB (records/wasm-string.ts):
 * true when it did. Unset, slots go over unscanned and nothing is let go.
 */
export const slotScanner: {
  prescan?: (slot: Buffer, len: number, atFileStart: boolean, t: PrescanTable, stop?: () => boolean, memory?: WebAssembly.Memory) => void;
  release?: () => boolean;
} = {};
