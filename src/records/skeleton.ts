import { isUtf8 } from "node:buffer";
import { defineLazy } from "./lazy-strings.js";
import { scanLine } from "./skeleton-scan.js";
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

/**
 * The line as an object with its long strings undecoded, or undefined when the fast pass does not apply
 * (not valid UTF-8, a short `\u0000` string that could pass for a placeholder, nesting past `maxDepth`) or the
 * line is no well-formed object: the caller then parses it whole and says exactly what is wrong.
 */
export function parseSkeleton(line: Buffer, maxDepth: number, knownUtf8 = false): JsonObject | undefined {
  // Decoding replaces bad bytes with U+FFFD; counting those from bytes is not worth the risk.
  // `knownUtf8`: the caller ran buffer.isUtf8 on the line already (parseLine does, to say what was replaced).
  if (!knownUtf8 && !isUtf8(line)) return undefined;
  const mem = loadBytes(line);
  const cuts = scanLine(mem ?? line, line, maxDepth, mem !== null);
  if (!cuts) return undefined;
  let size = line.length;
  for (const c of cuts) size += 12 - (c.to - c.from);
  if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2));
  let at = 0;
  let w = 0;
  for (let k = 0; k < cuts.length; k++) {
    const c = cuts[k]!;
    w += line.copy(scratch, w, at, c.from);
    w += NUL_ESCAPE.copy(scratch, w);
    w += scratch.write(`${k}"`, w, "latin1");
    at = c.to;
  }
  w += line.copy(scratch, w, at);
  // Placeholders are "\u0000<k>"; no string left in the skeleton may look like one (cut strings cannot: they are cut).
  let seen = 0;
  for (let z = scratch.indexOf(NUL_BODY, 0); z >= 0 && z < w; z = scratch.indexOf(NUL_BODY, z + 1))
    if (++seen > cuts.length) return undefined;
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
