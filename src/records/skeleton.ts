import { isUtf8 } from "node:buffer";
import { defineLazy } from "./lazy-strings.js";
import { loadBytes, scan as wasmScan, units as wasmUnits } from "./wasm-string.js";

/** A parsed JSON object; defined here, below json.ts, so the two do not import each other. */
export type JsonObject = Record<string, unknown>;

/**
 * Long lines, parsed as a skeleton. A tool-result line carries its output twice, as the model-visible
 * `message.content` and as the UI copy `toolUseResult` (FORMATS.md 4.5), and most analyses only count
 * the first and never read the second. So one validating pass over the bytes checks the line as
 * JSON.parse would (structure, literals, numbers; string bodies by the SIMD scanner, which also counts
 * their UTF-16 units), every string of CUT_MIN bytes or more is cut out, and JSON.parse reads what is
 * left. A cut string reads as itself through a getter that decodes it on first use, and its length is
 * known without decoding (records/lazy-strings.ts).
 */

/** Lines shorter than this go to JSON.parse whole: the pass would cost more than it saves. */
export const SKELETON_MIN_LINE = 2048;
/** String tokens (quotes included) this long or longer are left undecoded. */
export const CUT_MIN = 256;

const QUOTE = 0x22,
  BSLASH = 0x5c,
  LBRACE = 0x7b,
  RBRACE = 0x7d,
  LBRACK = 0x5b,
  RBRACK = 0x5d,
  COLON = 0x3a,
  COMMA = 0x2c;

interface Cut {
  from: number;
  to: number;
  units: number;
  path: Array<string | number>;
}

/**
 * The line as an object with its long strings undecoded, or undefined when the fast pass does not apply
 * (not valid UTF-8, a short `\u0000` string that could pass for a placeholder, nesting past `maxDepth`) or the
 * line is no well-formed object: the caller then parses it whole and says exactly what is wrong.
 */
export function parseSkeleton(line: Buffer, maxDepth: number): JsonObject | undefined {
  // Decoding replaces bad bytes with U+FFFD; counting those from bytes is not worth the risk.
  if (!isUtf8(line)) return undefined;
  const mem = loadBytes(line);
  viaWasm = mem !== null;
  const b = mem ?? line;
  const cuts = scanLine(b, line, maxDepth);
  if (!cuts) return undefined;
  // Placeholders are "\u0000<k>"; no string left in the skeleton may look like one (cut strings cannot: they are cut).
  const pieces: string[] = [];
  let at = 0;
  for (const cut of cuts) {
    pieces.push(line.toString("utf8", at, cut.from));
    at = cut.to;
  }
  pieces.push(line.toString("utf8", at));
  if (pieces.some((p) => p.includes("\\u0000"))) return undefined;
  let text = pieces[0]!;
  for (let k = 1; k < pieces.length; k++) text += `"\\u0000${k - 1}"${pieces[k]}`;
  let root: JsonObject;
  try {
    root = JSON.parse(text) as JsonObject;
  } catch {
    return undefined;
  }
  for (let k = 0; k < cuts.length; k++) {
    const { path, from, to, units } = cuts[k]!;
    let obj: unknown = root;
    for (let p = 0; p < path.length - 1 && obj !== null && typeof obj === "object"; p++) obj = (obj as JsonObject)[path[p] as string];
    const key = path[path.length - 1]!;
    // A later duplicate key replaced the placeholder: JSON.parse keeps the last value, and so do we.
    if (obj !== null && typeof obj === "object" && (obj as JsonObject)[key as string] === `\u0000${k}`)
      defineLazy(obj, key, { line, from, to, units });
  }
  return root;
}

/** The cuts of a well-formed object line, or undefined. `b` holds the line's bytes and a 0 after them. */
function scanLine(b: Uint8Array, line: Buffer, maxDepth: number): Cut[] | undefined {
  const n = line.length;
  // Per open container: 0 object, 1 array; for objects the current key's token, for arrays the index.
  const kinds: number[] = [];
  const keyFrom: number[] = [];
  const keyTo: number[] = [];
  const cuts: Cut[] = [];
  let d = 0;
  let i = ws(b, 0);
  if (b[i] !== LBRACE) return undefined;
  const key = (at: number): number => {
    if (b[at] !== QUOTE) return -1;
    const q = str(b, at + 1, n);
    if (q < 0) return -1;
    keyFrom[d - 1] = at;
    keyTo[d - 1] = q + 1;
    const colon = ws(b, q + 1);
    return b[colon] === COLON ? ws(b, colon + 1) : -1;
  };
  for (;;) {
    const c = b[i];
    if (c === QUOTE) {
      const q = str(b, i + 1, n);
      if (q < 0) return undefined;
      if (q + 1 - i >= CUT_MIN) cuts.push({ from: i, to: q + 1, units: lastUnits, path: pathOf(line, kinds, keyFrom, keyTo, d) });
      i = q + 1;
    } else if (c === LBRACE || c === LBRACK) {
      if (d >= maxDepth) return undefined;
      kinds[d] = c === LBRACE ? 0 : 1;
      keyFrom[d] = 0;
      d++;
      i = ws(b, i + 1);
      if (b[i] === (c === LBRACE ? RBRACE : RBRACK)) {
        d--;
        i++;
      } else if (c === LBRACE) {
        i = key(i);
        if (i < 0) return undefined;
        continue;
      } else continue;
    } else {
      i = skipScalar(b, i);
      if (i < 0) return undefined;
    }
    // After a value: close containers, or move to the next member or element.
    for (;;) {
      if (d === 0) return ws(b, i) === n ? cuts : undefined;
      i = ws(b, i);
      const obj = kinds[d - 1] === 0;
      if (b[i] === COMMA) {
        i = ws(b, i + 1);
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

function pathOf(line: Buffer, kinds: number[], keyFrom: number[], keyTo: number[], d: number): Array<string | number> {
  const path: Array<string | number> = [];
  for (let f = 0; f < d; f++) path.push(kinds[f] === 0 ? (JSON.parse(line.toString("utf8", keyFrom[f], keyTo[f])) as string) : keyFrom[f]!);
  return path;
}

let lastUnits = 0;

/** The closing quote of the string whose body starts at `i`, or -1; its UTF-16 length in `lastUnits`. */
function str(b: Uint8Array, i: number, n: number): number {
  // Keys and ids are short and plain: not worth a call into WebAssembly.
  const lim = Math.min(n, i + 32);
  for (let k = i; k < lim; k++) {
    const c = b[k]!;
    if (c === QUOTE) {
      lastUnits = k - i;
      return k;
    }
    if (c === BSLASH || c < 0x20 || c >= 0x80) break;
  }
  const q = viaWasm ? wasmScan(i, n) : jsScan(b, i, n);
  lastUnits = viaWasm ? wasmUnits() : jsUnits;
  return q >= 0 ? q : -1;
}

// Without WebAssembly `b` is the line itself and the same scan runs in JavaScript.
let viaWasm = false;
let jsUnits = 0;

const ESCAPE_OK = new Uint8Array(256);
for (const c of [QUOTE, BSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]) ESCAPE_OK[c] = 1;
const HEX = new Uint8Array(256);
for (const c of "0123456789abcdefABCDEF") HEX[c.charCodeAt(0)] = 1;

/** records/wasm-string.ts's scan, in JavaScript: the reference for it in tests, and the fallback. */
export function jsScan(b: Uint8Array, i: number, n: number): number {
  let u = 0;
  while (i < n) {
    const c = b[i]!;
    if (c === QUOTE) {
      jsUnits = u;
      return i;
    }
    if (c === BSLASH) {
      const e = b[i + 1]!;
      if (e === 0x75) {
        if (i + 6 > n || !(HEX[b[i + 2]!] && HEX[b[i + 3]!] && HEX[b[i + 4]!] && HEX[b[i + 5]!])) return -1;
        i += 6;
      } else if (i + 1 < n && ESCAPE_OK[e]) i += 2;
      else return -1;
      u++;
    } else if (c < 0x20) return -1;
    else {
      if ((c & 0xc0) !== 0x80) u += c >= 0xf0 ? 2 : 1;
      i++;
    }
  }
  return -1;
}
export const jsScanUnits = (): number => jsUnits;

function ws(b: Uint8Array, i: number): number {
  for (;;) {
    const c = b[i];
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

const digitsFrom = (b: Uint8Array, k: number): number => {
  while (b[k]! >= 0x30 && b[k]! <= 0x39) k++;
  return k;
};

/** End of the literal or number at `i`, or -1 (JSON's grammar: no leading zeros, no bare dot). */
function skipScalar(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === 0x74) return b[i + 1] === 0x72 && b[i + 2] === 0x75 && b[i + 3] === 0x65 ? i + 4 : -1;
  if (c === 0x66) return b[i + 1] === 0x61 && b[i + 2] === 0x6c && b[i + 3] === 0x73 && b[i + 4] === 0x65 ? i + 5 : -1;
  if (c === 0x6e) return b[i + 1] === 0x75 && b[i + 2] === 0x6c && b[i + 3] === 0x6c ? i + 4 : -1;
  let j = i;
  if (b[j] === 0x2d) j++;
  let k = digitsFrom(b, j);
  if (k === j || (b[j] === 0x30 && k > j + 1)) return -1;
  if (b[k] === 0x2e) {
    const f = digitsFrom(b, k + 1);
    if (f === k + 1) return -1;
    k = f;
  }
  if (b[k] === 0x65 || b[k] === 0x45) {
    let e = k + 1;
    if (b[e] === 0x2b || b[e] === 0x2d) e++;
    const f = digitsFrom(b, e);
    if (f === e) return -1;
    k = f;
  }
  return k;
}
