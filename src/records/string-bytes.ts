import { isAscii } from "node:buffer";
import { lazyOf, type LazyString } from "./lazy-strings.js";

/**
 * Measures and windows of an undecoded JSON string (records/lazy-strings.ts), read off its bytes. The
 * skeleton parse only leaves strings undecoded on lines that are valid UTF-8, so a body is raw UTF-8
 * (never a quote, a backslash or a control byte) and escapes; a lone surrogate can only come from a
 * `\uXXXX` escape, and only two adjacent escapes can make a pair. Decoding a 50 KB tool output costs
 * about six times what these counts do, and outputs/report only need its sizes and a few marks in it.
 */

/** What `outputs` measures of a text, and the surrogates at its ends that could pair with a neighbour's. */
export interface TextStats {
  /** UTF-16 units (JS length). */
  units: number;
  /** UTF-8 bytes as Node writes the text (a lone surrogate becomes U+FFFD, 3 bytes). */
  bytes: number;
  /** Code points (a lone surrogate counts as one). */
  codePoints: number;
  startsLow: boolean;
  endsHigh: boolean;
}

/**
 * A string of a line scanned as it streamed (records/stream-token.ts) is not in `line`: it is read back,
 * decoded, as the property's getter would, and measured as a string.
 */
const readBack = (s: LazyString): string | undefined => (s.read ? (s.value ??= s.read()) : undefined);

const BSLASH = 0x5c,
  U = 0x75;
const HEXV = new Int8Array(256).fill(-1);
for (let d = 0; d < 10; d++) HEXV[0x30 + d] = d;
for (let d = 0; d < 6; d++) HEXV[0x41 + d] = HEXV[0x61 + d] = 10 + d;

const hex4 = (b: Uint8Array, i: number): number =>
  (HEXV[b[i]!]! << 12) | (HEXV[b[i + 1]!]! << 8) | (HEXV[b[i + 2]!]! << 4) | HEXV[b[i + 3]!]!;
const isHigh = (u: number) => u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number) => u >= 0xdc00 && u <= 0xdfff;

/** What the escapes of one string change, found in one walk over its backslashes and kept for the string's life. */
interface Escapes {
  /** Bytes the escapes save against their decoded UTF-8. */
  saved: number;
  /** Pairs of surrogate escapes. */
  pairs: number;
  startsLow: boolean;
  endsHigh: boolean;
  /** The ASCII characters some `\u` escape spells (a needle may hide behind them). */
  spelt: string;
}

const escapesSeen = new WeakMap<LazyString, Escapes>();

function escapesOf(s: LazyString): Escapes {
  const known = escapesSeen.get(s);
  if (known) return known;
  let escapes = s.escapes;
  if (escapes === undefined) {
    // No scan counted them: one native search per escape (the character after a backslash is never one).
    escapes = 0;
    const b = s.line;
    const end = s.to - 1;
    for (let i = b.indexOf(BSLASH, s.from + 1); i >= 0 && i < end; i = b.indexOf(BSLASH, i + 2)) escapes += 1;
  }
  const e = uEscapesOf(s, escapes);
  escapesSeen.set(s, e);
  return e;
}

const BS_U = Buffer.from("\\u", "latin1");

/**
 * `escapesOf` when the scan counted the escapes (one byte saved each): only the `\u` escapes are read,
 * found by a native search of the body alone, as they are rare in tool output and a walk over every
 * backslash (one every 25 bytes or so) cost outputs and report a tenth of their time.
 */
function uEscapesOf(s: LazyString, escapes: number): Escapes {
  const start = s.from + 1;
  const end = s.to - 1;
  const body = s.line.subarray(start, end);
  let saved = escapes;
  let pairs = 0;
  let highEnd = -1;
  let startsLow = false;
  let spelt = "";
  for (let i = body.indexOf(BS_U); i >= 0; i = body.indexOf(BS_U, i)) {
    // An escaped backslash followed by a plain `u` (`\\u`) is no escape of its own.
    if (!opensEscape(body, i, 0)) {
      i += 2;
      continue;
    }
    const v = hex4(body, i + 2);
    if (i === 0 && isLow(v)) startsLow = true;
    // Beyond the byte every escape saves (counted in `escapes`): 6 bytes written for 1, 2 or 3.
    if (v < 0x80) {
      saved += 4;
      if (!spelt.includes(String.fromCharCode(v))) spelt += String.fromCharCode(v);
    } else if (v < 0x800) saved += 3;
    else if (isLow(v) && highEnd === i) {
      // The high half counted 3 bytes alone; the pair is 4.
      saved += 4;
      pairs += 1;
      highEnd = -1;
      i += 6;
      continue;
    } else saved += 2;
    highEnd = isHigh(v) ? i + 6 : -1;
    i += 6;
  }
  return { saved, pairs, startsLow, endsHigh: highEnd === body.length, spelt };
}

/** Stats of an undecoded string: from the scan's counts and its `\u` escapes, else native searches for backslashes and 4-byte leads. */
export function lazyStats(s: LazyString): TextStats {
  const back = readBack(s);
  if (back !== undefined) return stringStats(back);
  const b = s.line;
  const start = s.from + 1;
  const end = s.to - 1;
  // No `\u` escape: every escape saved one byte, and nothing can pair or spell (no lookup, no allocation).
  const e = s.uEscapes === 0 ? { saved: s.escapes!, pairs: 0, startsLow: false, endsHigh: false } : escapesOf(s);
  let fours = s.fours ?? 0;
  if (s.fours === undefined)
    for (let lead = 0xf0; lead <= 0xf4; lead++) for (let i = b.indexOf(lead, start); i >= 0 && i < end; i = b.indexOf(lead, i + 1)) fours++;
  return {
    units: s.units,
    bytes: end - start - e.saved,
    codePoints: s.units - fours - e.pairs,
    startsLow: e.startsLow,
    endsHigh: e.endsHigh,
  };
}

/** Stats of a decoded string. */
export function stringStats(t: string): TextStats {
  let cps = 0;
  for (let i = 0; i < t.length; i++) {
    if (isHigh(t.charCodeAt(i)) && i + 1 < t.length && isLow(t.charCodeAt(i + 1))) i++;
    cps++;
  }
  return {
    units: t.length,
    bytes: Buffer.byteLength(t, "utf8"),
    codePoints: cps,
    startsLow: t.length > 0 && isLow(t.charCodeAt(0)),
    endsHigh: t.length > 0 && isHigh(t.charCodeAt(t.length - 1)),
  };
}

/** Stats of `obj[key]` when it is a string, decoded or not; undefined otherwise. */
export function statsAt(obj: unknown, key: string | number): TextStats | undefined {
  const lazy = lazyOf(obj, key);
  if (lazy) return lazyStats(lazy);
  const v = obj !== null && typeof obj === "object" ? (obj as Record<string | number, unknown>)[key] : undefined;
  return typeof v === "string" ? stringStats(v) : undefined;
}

export const EMPTY_STATS: TextStats = { units: 0, bytes: 0, codePoints: 0, startsLow: false, endsHigh: false };

/** Stats of `a + b`: a high surrogate ending `a` and a low one starting `b` become one code point of 4 bytes. */
export function joinStats(a: TextStats, b: TextStats): TextStats {
  if (a.units === 0) return b;
  if (b.units === 0) return a;
  const pair = a.endsHigh && b.startsLow;
  return {
    units: a.units + b.units,
    bytes: a.bytes + b.bytes - (pair ? 2 : 0),
    codePoints: a.codePoints + b.codePoints - (pair ? 1 : 0),
    startsLow: a.startsLow,
    endsHigh: b.endsHigh,
  };
}

/** Whether the backslash at `q` starts an escape: the run of backslashes it ends is odd (JSON has no other backslash). */
function opensEscape(b: Uint8Array, q: number, start: number): boolean {
  let r = 0;
  while (q - r >= start && b[q - r] === BSLASH) r++;
  return r % 2 === 1;
}

/** Whether a token of the body starts at `p`: not inside an escape, not on a UTF-8 continuation byte. */
function boundary(b: Uint8Array, p: number, start: number): boolean {
  if ((b[p]! & 0xc0) === 0x80) return false;
  for (let k = 1; k <= 5 && p - k >= start; k++) {
    const q = p - k;
    if (b[q] !== BSLASH || !opensEscape(b, q, start)) continue;
    return k >= (b[q + 1] === U ? 6 : 2);
  }
  return true;
}

/** Whether the body bytes `[from, to)` hold a backslash, the only way an escape starts. */
function hasEscape(s: LazyString, from: number, to: number): boolean {
  if (s.escapes === 0) return false;
  const b = s.line;
  if (to - from <= 256) {
    for (let i = from; i < to; i++) if (b[i] === BSLASH) return true;
    return false;
  }
  // Searched in the window alone: a miss would otherwise read on to the end of the line.
  return b.subarray(from, to).indexOf(BSLASH) >= 0;
}

/** Whether the body bytes `[from, to)` are ASCII without a backslash: a unit each, the value as it stands. */
function plainAscii(s: LazyString, from: number, to: number): boolean {
  const b = s.line;
  if (to - from <= 256) {
    for (let i = from; i < to; i++) if (b[i]! >= 0x80 || b[i] === BSLASH) return false;
    return true;
  }
  return isAscii(b.subarray(from, to)) && !hasEscape(s, from, to);
}

/**
 * The value of the body bytes `[from, to)` (cut on character boundaries). Without an escape the bytes are
 * the value's UTF-8 as they stand (valid, no quote, no control byte), so they are decoded without the
 * JSON parse, its quoted copy and its result (a third of the windows' cost).
 */
const decodeBody = (s: LazyString, from: number, to: number): string =>
  hasEscape(s, from, to) ? (JSON.parse(`"${s.line.toString("utf8", from, to)}"`) as string) : s.line.toString("utf8", from, to);

/** The first units of the string: at least `min` of them (or all), maybe a few more. */
export function headOf(s: LazyString, min: number): string {
  const back = readBack(s);
  if (back !== undefined) return back;
  const start = s.from + 1;
  const end = s.to - 1;
  // Mostly plain ASCII: then the first `min` bytes are the first `min` units, decoded as they are.
  const cut = Math.min(end, start + min);
  if (plainAscii(s, start, cut)) return s.line.toString("latin1", start, cut);
  // Else a window just over `min` bytes, then one that surely holds `min` (6 bytes, `\uXXXX`).
  for (const width of [min + 16, 6 * min]) {
    let cut = Math.min(end, start + width);
    while (cut < end && !boundary(s.line, cut, start)) cut++;
    const t = decodeBody(s, start, cut);
    if (t.length >= min || cut === end) return t;
  }
  return decodeBody(s, start, end);
}

/** The last `n` units of the string exactly (all of it when shorter). */
export function tailOf(s: LazyString, n: number): string {
  const back = readBack(s);
  if (back !== undefined) return back.length > n ? back.slice(back.length - n) : back;
  const start = s.from + 1;
  const end = s.to - 1;
  // Text is mostly 1 byte a unit: try a small window first, then one that surely holds n units.
  for (const width of [2 * n + 16, 6 * n + 16]) {
    let p = Math.max(start, end - width);
    while (p > start && p < end && !boundary(s.line, p, start)) p++;
    const t = decodeBody(s, p, end);
    if (t.length >= n) return t.slice(t.length - n);
    if (p === start) return t;
  }
  return decodeBody(s, start, end).slice(-n);
}

/** The latin1 bytes of each needle searched for, made once (the marks are a handful of constants). */
const needles = new Map<string, Buffer>();
function needleBytes(needle: string): Buffer {
  let b = needles.get(needle);
  if (b === undefined) {
    b = Buffer.from(needle, "latin1");
    if (needles.size < 64) needles.set(needle, b);
  }
  return b;
}

/**
 * Whether `needle` may occur in the decoded string (in its last `lastUnits` units, when given). For a
 * needle of printable ASCII without `"`, `\\` or `/` (the characters with a short escape), it can only if
 * its bytes are there as they are, or some `\u` escape spells one of its characters.
 */
export function mayContain(s: LazyString, needle: string, lastUnits?: number): boolean {
  const back = readBack(s);
  if (back !== undefined) return (lastUnits === undefined || back.length <= lastUnits ? back : back.slice(-lastUnits)).includes(needle);
  const start = s.from + 1;
  const end = s.to - 1;
  // A unit is at most 6 bytes: the last n units lie in the last 6n bytes.
  const from = lastUnits === undefined ? start : Math.max(start, end - 6 * (lastUnits + needle.length));
  // Searched in the body alone: a miss would otherwise read on to the end of the line.
  if (s.line.subarray(from, end).indexOf(needleBytes(needle)) >= 0) return true;
  if (s.uEscapes === 0) return false;
  const spelt = escapesOf(s).spelt;
  for (let k = 0; k < spelt.length; k++) if (needle.includes(spelt[k]!)) return true;
  return false;
}
