/**
 * Strings of a long line that were measured but not decoded (records/skeleton.ts). The property reads as
 * the string (a getter decodes it on first read); `stringLength` answers its UTF-16 length from the
 * count taken on the bytes, so the character counts of `requests` never decode a tool result.
 */
import { generationOf } from "../sources/reused-buffers.js";

/** One string token of a line: its bytes (quotes included) and the UTF-16 length of its value. */
export interface LazyString {
  line: Buffer;
  from: number;
  to: number;
  units: number;
  /** Escapes (one each, `\uXXXX` too; those also in `uEscapes`) and 4-byte UTF-8 sequences of the body, when the scan counted them. */
  escapes?: number;
  uEscapes?: number;
  fours?: number;
  /** The decoded value, once someone read it. */
  value?: string;
  /** `line`'s memory generation when the string was cut (sources/reused-buffers.ts). */
  gen?: number;
  /** Where the value comes from when `line` does not hold it (a line scanned as it streamed: records/stream-scan.ts). */
  read?: () => string;
}

const CUTS = Symbol("lazy strings");
type Holder = { [CUTS]?: Map<string | number, LazyString> };

/** Accessors by key, shared by every holder: a pair of closures per string cost more than the rest of defining it. */
const accessors = new Map<string | number, PropertyDescriptor>();
/** Keys are few in transcripts (`content`, `text`, `stdout`…); a hostile line's many others get accessors of their own. */
const SHARED_KEYS = 256;

function accessorFor(key: string | number): PropertyDescriptor {
  let d = accessors.get(key);
  if (d) return d;
  d = {
    enumerable: true,
    configurable: true,
    get(this: Holder) {
      const s = this[CUTS]!.get(key)!;
      if (s.value === undefined) {
        if (s.read) s.value = s.read();
        else if (generationOf(s.line) !== s.gen) throw new Error(`an undecoded string was read after its line's read buffer was reused`);
        else s.value = JSON.parse(s.line.toString("utf8", s.from, s.to)) as string;
      }
      return s.value;
    },
    set(this: Holder, v: unknown) {
      Object.defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
      this[CUTS]?.delete(key);
    },
  };
  if (accessors.size < SHARED_KEYS) accessors.set(key, d);
  return d;
}

/** Makes `obj[key]` read as the string `s` holds, decoded on first read. */
export function defineLazy(obj: object, key: string | number, s: LazyString): void {
  s.gen ??= generationOf(s.line);
  const h = obj as Holder;
  if (!h[CUTS]) Object.defineProperty(h, CUTS, { value: new Map(), enumerable: false });
  h[CUTS]!.set(key, s);
  Object.defineProperty(obj, key, accessorFor(key));
}

/** The undecoded string behind `obj[key]`, if it is one. */
export function lazyOf(obj: unknown, key: string | number): LazyString | undefined {
  return obj !== null && typeof obj === "object" ? (obj as Holder)[CUTS]?.get(key) : undefined;
}

/** `obj[key].length` when it is a string, without decoding an undecoded one; undefined when it is no string. */
export function stringLength(obj: unknown, key: string | number): number | undefined {
  const lazy = lazyOf(obj, key);
  if (lazy) return lazy.units;
  const v = obj !== null && typeof obj === "object" ? (obj as Record<string | number, unknown>)[key] : undefined;
  return typeof v === "string" ? v.length : undefined;
}

/** Whether `obj[key]` is a string, without decoding it. */
export const isStringAt = (obj: unknown, key: string | number): boolean => stringLength(obj, key) !== undefined;

/** Gives `to[toKey]` the same value as `from[fromKey]`, still undecoded if it was. */
export function copyProperty(from: object, fromKey: string, to: object, toKey: string): void {
  const lazy = lazyOf(from, fromKey);
  if (lazy) defineLazy(to, toKey, lazy);
  else (to as Record<string, unknown>)[toKey] = (from as Record<string, unknown>)[fromKey];
}
