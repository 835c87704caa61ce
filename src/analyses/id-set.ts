import { hash } from "node:crypto";

const WORDS = 5; // four words of key, one of value + 1 (0 marks an empty slot)
// Small: `sessions` runs one pass per session, 20,000 of them.
const START_SLOTS = 64;
const EMPTY = new Uint32Array(0);

/**
 * Ids kept whole in a Map before the rest go to the hashed slots: a SHA-1 per id cost 21-28 ms of CPU for
 * the 4,733 ids of the bench's 200 MB file (the digest is looked up in OpenSSL on every call), the Map
 * 1-3 ms; 16,384 ids cost ≈1.5 MB held, whatever the run's size.
 */
export const EXACT_IDS = 16_384;

/**
 * Ids seen so far → a number. The first EXACT_IDS ids are kept as they are; past them each costs 20 bytes
 * a slot whatever its length: a million message ids cost ≈40 MB as a Map of strings and ≈20–40 MB here.
 * The slot key is the first 16 bytes of the id's SHA-1, so two different ids share a key only by a
 * collision nobody finds by chance (2^-64 for 10^10 ids); callers that still hold the full id of the first
 * holder compare it (requests does for rows still open).
 */
export class IdSet {
  private readonly exact = new Map<string, number>();
  // Made when the Map is full, which most passes never reach: 20,000 sessions allocated 20,000 of them
  // (1.3 KB each, off the V8 heap) for nothing.
  private slots: Uint32Array = EMPTY;
  private mask = START_SLOTS - 1;
  private count = 0;
  private readonly key = new Uint32Array(4);

  constructor(private readonly exactIds = EXACT_IDS) {}

  /** The number stored for `id` if it is there; else stores `value` (0 … 2^32 − 2) for it and returns undefined. */
  getOrAdd(id: string, value: number): number | undefined {
    const known = this.exact.get(id);
    if (known !== undefined) return known;
    if (this.exact.size < this.exactIds) {
      this.exact.set(id, value);
      return undefined;
    }
    if (this.slots === EMPTY) this.slots = new Uint32Array(START_SLOTS * WORDS);
    const i = this.find(id);
    const s = this.slots;
    const v = s[i * WORDS + 4]!;
    if (v !== 0) return v - 1;
    s.set(this.key, i * WORDS);
    s[i * WORDS + 4] = value + 1;
    if (++this.count * 4 > (this.mask + 1) * 3) this.grow();
    return undefined;
  }

  /** Whether `id` is stored; stores nothing. */
  has(id: string): boolean {
    if (this.exact.has(id)) return true;
    return this.slots !== EMPTY && this.slots[this.find(id) * WORDS + 4] !== 0;
  }

  get size(): number {
    return this.exact.size + this.count;
  }

  /** The slot holding the id's key, or the empty slot where it would go (the key is left in `this.key`). */
  private find(id: string): number {
    const d = digestOf(id);
    const k = this.key;
    k[0] = d.readUInt32LE(0);
    k[1] = d.readUInt32LE(4);
    k[2] = d.readUInt32LE(8);
    k[3] = d.readUInt32LE(12);
    const s = this.slots;
    for (let i = k[0]! & this.mask; ; i = (i + 1) & this.mask) {
      const o = i * WORDS;
      if (s[o + 4] === 0) return i;
      if (s[o] === k[0] && s[o + 1] === k[1] && s[o + 2] === k[2] && s[o + 3] === k[3]) return i;
    }
  }

  private grow(): void {
    const old = this.slots;
    const n = (this.mask + 1) * 2;
    this.slots = new Uint32Array(n * WORDS);
    this.mask = n - 1;
    for (let o = 0; o < old.length; o += WORDS) {
      if (old[o + 4] === 0) continue;
      let i = old[o]! & this.mask;
      while (this.slots[i * WORDS + 4] !== 0) i = (i + 1) & this.mask;
      this.slots.set(old.subarray(o, o + WORDS), i * WORDS);
    }
  }
}

/**
 * SHA-1 of the id's UTF-16 units, in one call (a Hash object per id cost 2 µs, most of a request row). A
 * well-formed id is hashed as UTF-8, which encodes its units one to one; one with a lone surrogate (which
 * UTF-8 would turn into U+FFFD) as UTF-16LE bytes. The first byte keeps the two apart.
 */
function digestOf(id: string): Buffer {
  const wellFormed = (id as string & { isWellFormed(): boolean }).isWellFormed();
  return wellFormed
    ? hash("sha1", `\u0001${id}`, "buffer")
    : hash("sha1", Buffer.concat([ONE_OF_UTF16, Buffer.from(id, "utf16le")]), "buffer");
}
const ONE_OF_UTF16 = Buffer.from([2]);
