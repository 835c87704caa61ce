import { isUtf8 } from "node:buffer";
import { defineLazy } from "./lazy-strings.js";
import { held, prescanned, CUT_WORDS, E_CUT_FROM, E_CUTS, E_SKEL_FROM, E_SKEL_LEN, E_STATUS, SKELETON } from "../sources/prescan-table.js";
import { scanLine, type Cut } from "./skeleton-scan.js";
import { loadBytes } from "./wasm-string.js";

export { CUT_MIN, jsScan, jsScanCounts, jsScanUnits } from "./skeleton-scan.js";

/** A parsed JSON object; defined here, below json.ts, so the two do not import each other. */
export type JsonObject = Record<string, unknown>;

/**
 * Long lines, parsed as a skeleton. A tool-result line carries its output twice, as the model-visible
 * `message.content` and as the UI copy `toolUseResult` (FORMATS.md 4.5), and most analyses only count
 * the first and never read the second. So one validating pass over the bytes checks the line as
 * JSON.parse would (records/skeleton-scan.ts), every string of CUT_MIN bytes or more is cut out, and
 * JSON.parse reads what is left. A cut string reads as itself through a getter that decodes it on first
 * use, and its length is known without decoding (records/lazy-strings.ts).
 */

/**
 * Lines shorter than this go to JSON.parse whole: the pass would cost more than it saves. Measured on the
 * bench's file: 2-3 KB lines take 12-15 ms whole against 17-18 ms as a skeleton, 3-4 KB break even.
 */
export const SKELETON_MIN_LINE = 3072;

/** `"\u0000` as bytes: the start of a placeholder, and what no string left in the skeleton may hold. */
const NUL_ESCAPE = Buffer.from('"\\u0000', "latin1");
const NUL_BODY = Buffer.from("\\u0000", "latin1");
/** The skeleton's text is put together here, then decoded once. */
let scratch = Buffer.allocUnsafe(1 << 16);

/** writeSkeleton's answers besides the end offset: a string left in it looks like a placeholder; it does not fit. */
export const LOOKS_CUT = -1;
export const NO_ROOM = -2;

/** The line's cuts (with their paths, or none: records/skeleton-prescan.ts), or undefined: not a well-formed object, too deep. */
export function cutsOf(line: Buffer, maxDepth: number, paths: boolean): Cut[] | undefined {
  const mem = loadBytes(line);
  return scanLine(mem ?? line, line, maxDepth, mem !== null, paths);
}

/** The skeleton's size in bytes: the line with each cut replaced by its placeholder `"\u0000<k>"`. */
export function skeletonSize(line: Buffer, cuts: Cut[]): number {
  let size = line.length;
  for (let k = 0; k < cuts.length; k++) size += 8 + digits(k) - (cuts[k]!.to - cuts[k]!.from);
  return size;
}

const digits = (k: number): number => (k < 10 ? 1 : k < 100 ? 2 : k < 1000 ? 3 : k < 10000 ? 4 : String(k).length);

/**
 * Writes the skeleton's bytes into `out` from `at`: where they end, LOOKS_CUT (a string left in it holds
 * `\u0000`, which could pass for a placeholder: the line is parsed whole), or NO_ROOM past `cap`.
 */
export function writeSkeleton(line: Buffer, cuts: Cut[], out: Buffer, at: number, cap: number): number {
  if (at + skeletonSize(line, cuts) > cap) return NO_ROOM;
  let from = 0;
  let w = at;
  for (let k = 0; k < cuts.length; k++) {
    const c = cuts[k]!;
    w += line.copy(out, w, from, c.from);
    w += NUL_ESCAPE.copy(out, w);
    w += out.write(`${k}"`, w, "latin1");
    from = c.to;
  }
  w += line.copy(out, w, from);
  // Placeholders are "\u0000<k>"; no string left in the skeleton may look like one (cut strings cannot: they are cut).
  let seen = 0;
  for (let z = out.indexOf(NUL_BODY, at); z >= 0 && z < w; z = out.indexOf(NUL_BODY, z + 1)) if (++seen > cuts.length) return LOOKS_CUT;
  return w;
}

/**
 * The line as an object with its long strings undecoded, or undefined when the fast pass does not apply
 * (not valid UTF-8, a short `\u0000` string that could pass for a placeholder, nesting past `maxDepth`) or the
 * line is no well-formed object: the caller then parses it whole and says exactly what is wrong. A line
 * of a slot the reader worker read was scanned there already (records/skeleton-prescan.ts): only its
 * skeleton is decoded and parsed here.
 */
export function parseSkeleton(line: Buffer, maxDepth: number): JsonObject | undefined {
  const e = prescanned(line);
  if (e >= 0) return fromPrescan(line, e);
  // Decoding replaces bad bytes with U+FFFD; counting those from bytes is not worth the risk.
  if (!isUtf8(line)) return undefined;
  const cuts = cutsOf(line, maxDepth, true);
  if (!cuts) return undefined;
  const size = skeletonSize(line, cuts);
  if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2));
  const w = writeSkeleton(line, cuts, scratch, 0, scratch.length);
  if (w < 0) return undefined;
  let root: JsonObject;
  try {
    root = JSON.parse(scratch.toString("utf8", 0, w)) as JsonObject;
  } catch {
    return undefined;
  }
  for (let k = 0; k < cuts.length; k++) {
    const { path, from, to, units, escapes, uEscapes, fours } = cuts[k]!;
    let obj: unknown = root;
    for (let p = 0; p < path.length - 1 && obj !== null && typeof obj === "object"; p++) obj = (obj as JsonObject)[path[p] as string];
    const key = path[path.length - 1]!;
    // A later duplicate key replaced the placeholder: JSON.parse keeps the last value, and so do we.
    if (obj !== null && typeof obj === "object" && (obj as JsonObject)[key as string] === `\u0000${k}`)
      defineLazy(obj, key, { line, from, to, units, escapes, uEscapes, fours });
  }
  return root;
}

// The prescanned line being put together: its bytes, the table's words and where its cuts start.
let preLine: Buffer = scratch;
let preWords: Int32Array = new Int32Array(0);
let preCuts = 0;
let preCount = 0;

function fromPrescan(line: Buffer, e: number): JsonObject | undefined {
  const t = held.table!;
  const w = t.words;
  if (w[e + E_STATUS] !== SKELETON) return undefined;
  const from = w[e + E_SKEL_FROM]!;
  let root: JsonObject;
  try {
    root = JSON.parse(t.skel.toString("utf8", from, from + w[e + E_SKEL_LEN]!)) as JsonObject;
  } catch {
    return undefined;
  }
  preLine = line;
  preWords = w;
  preCuts = t.cuts + w[e + E_CUT_FROM]! * CUT_WORDS;
  preCount = w[e + E_CUTS]!;
  try {
    if (preCount > 0) attach(root);
  } finally {
    preLine = scratch;
  }
  return root;
}

/**
 * Finds the placeholders by walking the parsed skeleton instead of by paths (the worker does not make
 * them): the skeleton's text holds no \u0000 but the placeholders (writeSkeleton counted), so a string
 * that starts with U+0000 is one, and one a later duplicate key replaced is not there to find.
 */
function attach(v: object): void {
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) visit(v, i, v[i]);
  else for (const k in v) visit(v, k, (v as JsonObject)[k]);
}

function visit(o: object, key: string | number, x: unknown): void {
  if (typeof x === "string") {
    if (x.length < 2 || x.charCodeAt(0) !== 0) return;
    const k = Number(x.slice(1));
    if (!(k >= 0 && k < preCount) || x !== `\u0000${k}`) return;
    const c = preCuts + k * CUT_WORDS;
    const w = preWords;
    defineLazy(o, key, {
      line: preLine,
      from: w[c]!,
      to: w[c + 1]!,
      units: w[c + 2]!,
      escapes: w[c + 3]!,
      uEscapes: w[c + 4]!,
      fours: w[c + 5]!,
    });
  } else if (x !== null && typeof x === "object") attach(x);
}
