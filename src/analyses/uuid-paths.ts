/**
 * Where each record sits in its conversation tree, as far as `requests` needs it: the nearest request on the
 * record's own `parentUuid` path (FORMATS.md 4.3; docs/REFERENCE.md "Rewinds"). A rewind (Esc Esc, /rewind, an edited message) leaves
 * the abandoned branch in the file and points the new message back at an earlier record, so the request
 * after it grew from that earlier request, not from the one before it in the file.
 *
 * Memory is fixed whatever the file's size: each uuid is hashed to 64 bits and kept in a table of at most
 * MAX_SLOTS slots (12 bytes each, 1.5 MB when full), WAYS to a set; a set that is full forgets its oldest
 * uuid. A uuid forgotten or never seen reads as UNKNOWN, and requests then falls back to the file order. A
 * rewind reaches back a few turns: the uuids it needs are among the newest.
 */

/** No request on the path: it starts at a user message with `parentUuid: null` (the conversation's start). */
export const NONE = -2;
/** The path is not known: no parentUuid, a parent never seen (or forgotten), or a root that is no user message (a compaction boundary). */
export const UNKNOWN = -1;

/** Slots when full: 2^17, WAYS per set. */
export const MAX_SLOTS = 1 << 17;
const WAYS = 4;
const START_SLOTS = 1 << 8;

/** uuid → the sequence number of the nearest request on its path (≥ 0), or NONE; a bounded, forgetting map. */
export class PathTable {
  // Two hash words per slot; the second is never 0, so 0 marks an empty slot.
  private keys: Uint32Array;
  private values: Int32Array;
  private count = 0;
  /** The last uuid remembered and its value: a record's parent is nearly always the record just before it. */
  private lastUuid: string | undefined = undefined;
  private lastValue = UNKNOWN;

  /** `maxSlots`: a power of two, at least WAYS. */
  constructor(private readonly maxSlots = MAX_SLOTS) {
    const n = Math.min(START_SLOTS, maxSlots);
    this.keys = new Uint32Array(n * 2);
    this.values = new Int32Array(n);
  }

  /** The value remembered for `uuid`, else UNKNOWN. */
  get(uuid: string): number {
    if (uuid === this.lastUuid) return this.lastValue;
    hashOf(uuid);
    const h1 = H1;
    const h2 = H2;
    const set = (h1 & (this.values.length / WAYS - 1)) * WAYS;
    const k = this.keys;
    for (let i = set; i < set + WAYS; i++) if (k[i * 2 + 1] === h2 && k[i * 2] === h1) return this.values[i]!;
    return UNKNOWN;
  }

  /** Remembers `value` for `uuid` (UNKNOWN is remembered only as the last uuid: a miss reads the same). */
  set(uuid: string, value: number): void {
    this.lastUuid = uuid;
    this.lastValue = value;
    if (value === UNKNOWN) return;
    if (this.count * 4 >= this.values.length * 3 && this.values.length < this.maxSlots) this.grow();
    hashOf(uuid);
    this.put(H1, H2, value);
  }

  private put(h1: number, h2: number, value: number): void {
    const set = (h1 & (this.values.length / WAYS - 1)) * WAYS;
    const k = this.keys;
    let at = -1;
    for (let i = set; i < set + WAYS; i++) {
      if (k[i * 2 + 1] === 0 || (k[i * 2 + 1] === h2 && k[i * 2] === h1)) {
        at = i;
        break;
      }
    }
    if (at < 0) {
      // Every way taken (oldest first): the oldest goes, the rest move down, and this one takes the last way.
      at = set + WAYS - 1;
      k.copyWithin(set * 2, set * 2 + 2, (set + WAYS) * 2);
      this.values.copyWithin(set, set + 1, set + WAYS);
    } else if (k[at * 2 + 1] === 0) this.count += 1;
    k[at * 2] = h1;
    k[at * 2 + 1] = h2;
    this.values[at] = value;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    this.keys = new Uint32Array(oldKeys.length * 2);
    this.values = new Int32Array(oldValues.length * 2);
    this.count = 0;
    for (let i = 0; i < oldValues.length; i++) if (oldKeys[i * 2 + 1] !== 0) this.put(oldKeys[i * 2]!, oldKeys[i * 2 + 1]!, oldValues[i]!);
  }
}

// The two hashes of the last hashOf call (one loop over the units for both; no array per call).
let H1 = 0;
let H2 = 0;

/**
 * Two independent 32-bit hashes of the UTF-16 units: FNV-1a, and a multiply-xorshift with another seed and
 * multiplier (never 0, which marks an empty slot).
 */
function hashOf(s: string): void {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  H1 = a >>> 0;
  H2 = (b | 1) >>> 0;
}

/** Slots of the request ring: how far back (in requests of the whole pass) a rewind's base is still known. */
export const RING_REQUESTS = 4096;

/**
 * The last RING_REQUESTS requests by sequence number: their chain, index and total input once known. A
 * rewind's base further back than that is unknown, and requests falls back to the file order.
 */
export class RequestRing {
  private seqs = new Int32Array(64).fill(-1);
  private chains = new Int32Array(64);
  private indexes = new Int32Array(64);
  private totals = new Float64Array(64);

  constructor(private readonly max = RING_REQUESTS) {}

  add(seq: number, chain: number, index: number): void {
    if (seq >= this.seqs.length && this.seqs.length < this.max) this.grow();
    const i = seq & (this.seqs.length - 1);
    this.seqs[i] = seq;
    this.chains[i] = chain;
    this.indexes[i] = index;
    this.totals[i] = Number.NaN;
  }

  /** The row's total once it is final (null: unknown). */
  close(seq: number, total: number | null): void {
    const i = seq & (this.seqs.length - 1);
    if (this.seqs[i] === seq) this.totals[i] = total ?? Number.NaN;
  }

  /** The request's index in its chain when `seq` is still held and of chain `chain`, else null. */
  indexOf(seq: number, chain: number): number | null {
    const i = seq & (this.seqs.length - 1);
    return this.seqs[i] === seq && this.chains[i] === chain ? this.indexes[i]! : null;
  }

  /** Its total input: null when unknown, undefined when no longer held. */
  totalOf(seq: number): number | null | undefined {
    const i = seq & (this.seqs.length - 1);
    if (this.seqs[i] !== seq) return undefined;
    const t = this.totals[i]!;
    return Number.isNaN(t) ? null : t;
  }

  private grow(): void {
    const n = this.seqs.length * 2;
    const [seqs, chains, indexes, totals] = [this.seqs, this.chains, this.indexes, this.totals];
    this.seqs = new Int32Array(n).fill(-1);
    this.chains = new Int32Array(n);
    this.indexes = new Int32Array(n);
    this.totals = new Float64Array(n);
    for (let i = 0; i < seqs.length; i++) {
      const s = seqs[i]!;
      if (s < 0) continue;
      const j = s & (n - 1);
      this.seqs[j] = s;
      this.chains[j] = chains[i]!;
      this.indexes[j] = indexes[i]!;
      this.totals[j] = totals[i]!;
    }
  }
}
