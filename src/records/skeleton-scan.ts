import {
  escapes as wasmEscapes,
  fours as wasmFours,
  scan as wasmScan,
  uEscapes as wasmUEscapes,
  units as wasmUnits,
} from "./wasm-string.js";

/**
 * The validating pass of records/skeleton.ts: walks one line's JSON as JSON.parse would accept it
 * (structure, literals, numbers; string bodies by the SIMD scanner, which also counts their UTF-16
 * units) and notes every string token of CUT_MIN bytes or more, with the keys and indexes leading to it.
 * State lives in module-level typed arrays: a line is scanned without allocating, cuts aside.
 */

/** String tokens (quotes included) this long or longer are cut out of the skeleton. */
export const CUT_MIN = 256;

const QUOTE = 0x22,
  BSLASH = 0x5c,
  LBRACE = 0x7b,
  RBRACE = 0x7d,
  LBRACK = 0x5b,
  RBRACK = 0x5d,
  COLON = 0x3a,
  COMMA = 0x2c;

/** One cut string: its token's bytes, its UTF-16 length, and where it sits (keys and array indexes from the root). */
export interface Cut {
  from: number;
  to: number;
  units: number;
  /** Escapes (`\uXXXX` of them in `uEscapes`) and 4-byte UTF-8 sequences in the body (records/string-bytes.ts measures from them). */
  escapes: number;
  uEscapes: number;
  fours: number;
  path: Array<string | number>;
}

// Per open container: 0 object, 1 array; for objects the current key's token (and its units), for arrays the index.
let kinds = new Uint8Array(0);
let keyFrom = new Int32Array(0);
let keyTo = new Int32Array(0);
let keyUnits = new Int32Array(0);
const NONE = Buffer.alloc(0);
let b: Uint8Array = NONE;
let line: Buffer = NONE;
let n = 0;
let d = 0;

/**
 * The cuts of a well-formed object line, or undefined (malformed, or nested past `maxDepth`). `bytes` holds
 * the line's bytes and a 0 after them: the scanner's memory, or a copy when WebAssembly is missing.
 */
export function scanLine(bytes: Uint8Array, src: Buffer, maxDepth: number, wasm: boolean): Cut[] | undefined {
  if (kinds.length < maxDepth) {
    kinds = new Uint8Array(maxDepth);
    keyFrom = new Int32Array(maxDepth);
    keyTo = new Int32Array(maxDepth);
    keyUnits = new Int32Array(maxDepth);
  }
  b = bytes;
  line = src;
  n = src.length;
  viaWasm = wasm;
  d = 0;
  try {
    return walk(maxDepth);
  } finally {
    // A 400 MiB line must not stay reachable from here until the next one.
    b = line = NONE;
  }
}

function walk(maxDepth: number): Cut[] | undefined {
  const cuts: Cut[] = [];
  let i = ws(0);
  if (b[i] !== LBRACE) return undefined;
  for (;;) {
    const c = b[i];
    if (c === QUOTE) {
      const q = str(i + 1);
      if (q < 0) return undefined;
      if (q + 1 - i >= CUT_MIN)
        cuts.push({ from: i, to: q + 1, units: lastUnits, escapes: lastEscapes, uEscapes: lastU, fours: lastFours, path: pathOf() });
      i = q + 1;
    } else if (c === LBRACE || c === LBRACK) {
      if (d >= maxDepth) return undefined;
      kinds[d] = c === LBRACE ? 0 : 1;
      keyFrom[d] = 0;
      d++;
      i = ws(i + 1);
      if (b[i] === (c === LBRACE ? RBRACE : RBRACK)) {
        d--;
        i++;
      } else if (c === LBRACE) {
        i = key(i);
        if (i < 0) return undefined;
        continue;
      } else continue;
    } else {
      i = skipScalar(i);
      if (i < 0) return undefined;
    }
    // After a value: close containers, or move to the next member or element.
    for (;;) {
      if (d === 0) return ws(i) === n ? cuts : undefined;
      i = ws(i);
      const obj = kinds[d - 1] === 0;
      if (b[i] === COMMA) {
        i = ws(i + 1);
        if (obj) {
          i = key(i);
          if (i < 0) return undefined;
        } else keyFrom[d - 1]! += 1;
        break;
      }
      if (b[i] !== (obj ? RBRACE : RBRACK)) return undefined;
      d--;
      i++;
    }
  }
}

/** Reads a member's key at `at` and its colon: where the value starts, or -1. */
function key(at: number): number {
  if (b[at] !== QUOTE) return -1;
  const q = str(at + 1);
  if (q < 0) return -1;
  keyFrom[d - 1] = at;
  keyTo[d - 1] = q + 1;
  keyUnits[d - 1] = lastUnits;
  const colon = ws(q + 1);
  return b[colon] === COLON ? ws(colon + 1) : -1;
}

function pathOf(): Array<string | number> {
  const path: Array<string | number> = [];
  for (let f = 0; f < d; f++) {
    if (kinds[f] === 1) path.push(keyFrom[f]!);
    else {
      const from = keyFrom[f]! + 1;
      const to = keyTo[f]! - 1;
      // As many units as bytes: plain ASCII without escapes, the bytes are the key.
      path.push(
        keyUnits[f] === to - from ? line.toString("latin1", from, to) : (JSON.parse(line.toString("utf8", from - 1, to + 1)) as string),
      );
    }
  }
  return path;
}

let lastUnits = 0;
let lastEscapes = 0;
let lastFours = 0;
let lastU = 0;

/** The closing quote of the string whose body starts at `i`, or -1; its UTF-16 length in `lastUnits`. */
function str(i: number): number {
  // Keys and ids are short and plain: not worth a call into WebAssembly.
  const lim = Math.min(n, i + 32);
  for (let k = i; k < lim; k++) {
    const c = b[k]!;
    if (c === QUOTE) {
      lastUnits = k - i;
      lastEscapes = lastFours = lastU = 0;
      return k;
    }
    if (c === BSLASH || c < 0x20 || c >= 0x80) break;
  }
  const q = viaWasm ? wasmScan(i, n) : jsScan(b, i, n);
  lastUnits = viaWasm ? wasmUnits() : jsUnits;
  lastEscapes = viaWasm ? wasmEscapes() : jsEscapes;
  lastFours = viaWasm ? wasmFours() : jsFours;
  lastU = viaWasm ? wasmUEscapes() : jsU;
  return q >= 0 ? q : -1;
}

// Without WebAssembly `b` is the line itself and the same scan runs in JavaScript.
let viaWasm = false;
let jsUnits = 0;
let jsEscapes = 0;
let jsFours = 0;
let jsU = 0;

const ESCAPE_OK = new Uint8Array(256);
for (const c of [QUOTE, BSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]) ESCAPE_OK[c] = 1;
const HEX = new Uint8Array(256);
for (const c of "0123456789abcdefABCDEF") HEX[c.charCodeAt(0)] = 1;

/** records/wasm-string.ts's scan, in JavaScript: the reference for it in tests, and the fallback. */
export function jsScan(b: Uint8Array, i: number, n: number): number {
  let u = 0;
  let escs = 0;
  let f = 0;
  let us = 0;
  while (i < n) {
    const c = b[i]!;
    if (c === QUOTE) {
      jsUnits = u;
      jsEscapes = escs;
      jsFours = f;
      jsU = us;
      return i;
    }
    if (c === BSLASH) {
      const e = b[i + 1]!;
      if (e === 0x75) {
        if (i + 6 > n || !(HEX[b[i + 2]!] && HEX[b[i + 3]!] && HEX[b[i + 4]!] && HEX[b[i + 5]!])) return -1;
        i += 6;
        us++;
      } else if (i + 1 < n && ESCAPE_OK[e]) i += 2;
      else return -1;
      u++;
      escs++;
    } else if (c < 0x20) return -1;
    else {
      if (c >= 0xf0) f++;
      if ((c & 0xc0) !== 0x80) u += c >= 0xf0 ? 2 : 1;
      i++;
    }
  }
  return -1;
}
export const jsScanUnits = (): number => jsUnits;
export const jsScanCounts = (): { escapes: number; fours: number; uEscapes: number } => ({
  escapes: jsEscapes,
  fours: jsFours,
  uEscapes: jsU,
});

function ws(i: number): number {
  for (;;) {
    const c = b[i];
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

function digitsFrom(k: number): number {
  while (b[k]! >= 0x30 && b[k]! <= 0x39) k++;
  return k;
}

/** End of the literal or number at `i`, or -1 (JSON's grammar: no leading zeros, no bare dot). */
function skipScalar(i: number): number {
  const c = b[i];
  if (c === 0x74) return b[i + 1] === 0x72 && b[i + 2] === 0x75 && b[i + 3] === 0x65 ? i + 4 : -1;
  if (c === 0x66) return b[i + 1] === 0x61 && b[i + 2] === 0x6c && b[i + 3] === 0x73 && b[i + 4] === 0x65 ? i + 5 : -1;
  if (c === 0x6e) return b[i + 1] === 0x75 && b[i + 2] === 0x6c && b[i + 3] === 0x6c ? i + 4 : -1;
  let j = i;
  if (b[j] === 0x2d) j++;
  let k = digitsFrom(j);
  if (k === j || (b[j] === 0x30 && k > j + 1)) return -1;
  if (b[k] === 0x2e) {
    const f = digitsFrom(k + 1);
    if (f === k + 1) return -1;
    k = f;
  }
  if (b[k] === 0x65 || b[k] === 0x45) {
    let e = k + 1;
    if (b[e] === 0x2b || b[e] === 0x2d) e++;
    const f = digitsFrom(e);
    if (f === e) return -1;
    k = f;
  }
  return k;
}
