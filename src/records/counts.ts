import { hash } from "node:crypto";
/**
 * Counts keyed by evidence text (record types, attachment kinds, versions, models, session ids, …).
 *
 * A plain `{}` keyed by such text breaks on names of Object.prototype: `c["constructor"] ?? 0` reads a
 * function, so the count becomes `"function Object() { [native code] }1"`, and `c["__proto__"] = 1`
 * sets the prototype instead of a key, so the name is never counted. A `Counts` is still a plain object
 * (it compares, spreads and serialises as one), but every key is defined as an own property and every
 * lookup here is an own-property one, so any name counts like any other; JSON.stringify writes it (a key
 * named `__proto__` included) in the order the names were first seen (integer-like names first, as for
 * any object). Read one with Object.entries/keys/values or `countOf`, never `c[name]` for a name from evidence.
 *
 * The names listed are bounded: past `MAX_NAMES` distinct names, a new name gets no key of its own but
 * counts in the map's `OtherNames` (how many more names, how many records), kept beside the object (not
 * in it). The names past the cap are told apart by a 20-byte digest each (not their text), for at most
 * `MAX_OTHER_KEYS` of them: past that, a name not seen before counts its records but not as a name, and the
 * count of names says "at least" (`namesAtLeast`), so any number of made-up names, of any length, costs a
 * bounded amount. Below the cap nothing changes.
 */
export type Counts = Record<string, number>;

/** Names past the cap: how many distinct names were not listed, and the records they account for. */
export interface OtherNames {
  names: number;
  records: number;
  /** Present (true) only when more names came than `MAX_OTHER_KEYS` tells apart: `names` is then a lower bound. */
  namesAtLeast?: true;
}

/** Distinct names a Counts lists; further names count in its `OtherNames`. */
export const MAX_NAMES = 1000;

/** Names past the cap told apart (by digest) per Counts: ≈5 MB at most, whatever the names' length. */
export const MAX_OTHER_KEYS = 100_000;

/** What a Counts needs besides its keys: how many it holds, and the names past the cap. Kept out of the object, so it serialises as counts only. */
interface Meta {
  size: number;
  /** Digests (`restKey`) of the names past the cap, at most MAX_OTHER_KEYS. */
  rest: Set<string> | undefined;
  /** A name past the cap came that the full `rest` could not tell apart: the names counted are a lower bound. */
  restFull: boolean;
  restRecords: number;
  /** Names past the cap merged in without their text (from a document read back): counted as distinct. */
  restUnnamed: number;
}
const metas = new WeakMap<Counts, Meta>();

export function newCounts(): Counts {
  return {};
}

function metaOf(c: Counts): Meta {
  let m = metas.get(c);
  if (m === undefined)
    metas.set(c, (m = { size: Object.keys(c).length, rest: undefined, restFull: false, restRecords: 0, restUnnamed: 0 }));
  return m;
}

/**
 * Sets own key `k` whatever the name: `o["__proto__"] = v` would set the prototype instead. Once defined,
 * `o[k]` reads and writes the own property (it shadows Object.prototype's), so `c[k] += n` is safe after.
 */
export function setOwn<V>(o: Record<string, V>, k: string, v: V): void {
  if (k === "__proto__") Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}

/** Adds `n` records for name `k` (nothing for undefined). A new name past `cap` distinct names counts in `otherNames(c)` instead. */
export function bump(c: Counts, k: string | undefined, n = 1, cap = MAX_NAMES): void {
  if (k === undefined) return;
  if (Object.hasOwn(c, k)) {
    c[k]! += n;
    return;
  }
  const m = metaOf(c);
  if (m.size < cap) {
    setOwn(c, k, n);
    m.size += 1;
    return;
  }
  addRest(m, restKey(k));
  m.restRecords += n;
}

function addRest(m: Meta, key: string): void {
  const rest = (m.rest ??= new Set());
  if (rest.has(key)) return;
  if (rest.size < MAX_OTHER_KEYS) rest.add(key);
  else m.restFull = true;
}

/**
 * A name past the cap as its SHA-1 in base64 (the name's text is not kept): two names share it only by
 * a collision nobody finds by chance. A well-formed name is hashed as UTF-8; one with a lone surrogate (which
 * UTF-8 would turn into U+FFFD) as UTF-16LE bytes, the first byte keeping the two apart (as analyses/id-set.ts).
 */
function restKey(k: string): string {
  const wellFormed = (k as string & { isWellFormed(): boolean }).isWellFormed();
  return wellFormed ? hash("sha1", `\u0001${k}`, "base64") : hash("sha1", Buffer.concat([UTF16_MARK, Buffer.from(k, "utf16le")]), "base64");
}
const UTF16_MARK = Buffer.from([2]);

/** The count of name `k`: its own key only, 0 when absent (never an inherited `constructor` or `toString`). */
export function countOf(c: Counts, k: string): number {
  return Object.hasOwn(c, k) ? c[k]! : 0;
}

/** The names past the cap, or undefined when every name is listed. */
export function otherNames(c: Counts): OtherNames | undefined {
  const m = metas.get(c);
  if (m === undefined || (m.rest === undefined && m.restUnnamed === 0)) return undefined;
  const o: OtherNames = { names: (m.rest?.size ?? 0) + m.restUnnamed, records: m.restRecords };
  if (m.restFull) o.namesAtLeast = true;
  return o;
}

/**
 * Adds `from`'s counts into `into` (and its names past the cap, with `fromOther` when `from` was read
 * back from JSON and has no names to merge by). A name past the cap in one and listed in the other
 * counts in both places: the listed count leaves out the records beyond it.
 */
export function mergeCounts(into: Counts, from: Counts, fromOther?: OtherNames): void {
  for (const k of Object.keys(from)) bump(into, k, from[k]!);
  const fm = metas.get(from);
  if (fm !== undefined && (fm.rest !== undefined || fm.restUnnamed > 0)) {
    const m = metaOf(into);
    if (fm.rest !== undefined) for (const k of fm.rest) addRest(m, k);
    if (fm.restFull) m.restFull = true;
    m.restUnnamed += fm.restUnnamed;
    m.restRecords += fm.restRecords;
  } else if (fromOther !== undefined && fromOther.names > 0) {
    // No names to merge by: counted as distinct ones, as many as `from` had.
    const m = metaOf(into);
    m.restUnnamed += fromOther.names;
    m.restRecords += fromOther.records;
    if (fromOther.namesAtLeast) m.restFull = true;
  }
}

/** The names most frequent first (ties by name): what the tables and `top` answers list. */
export function byCount(c: Counts): Array<[string, number]> {
  return Object.entries(c).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** "… 199,000 more names (199,000 records)": the row or note tables show for the names past the cap. */
export function otherLabel(o: OtherNames): string {
  return `… ${o.namesAtLeast ? "at least " : ""}${o.names.toLocaleString("en-US")} more name${o.names === 1 ? "" : "s"} (${o.records.toLocaleString("en-US")} record${o.records === 1 ? "" : "s"})`;
}

/** The sum over every name, those past the cap included. */
export function totalOf(c: Counts): number {
  let n = otherNames(c)?.records ?? 0;
  for (const k of Object.keys(c)) n += c[k]!;
  return n;
}
