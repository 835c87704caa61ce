import { visiblePieces, visibleText } from "../records/content.js";
import { isObject } from "../records/json.js";
import { isStringAt, lazyOf } from "../records/lazy-strings.js";
import { EMPTY_STATS, headOf, joinStats, mayContain, statsAt, tailOf, type TextStats } from "../records/string-bytes.js";
import { detachStrings } from "../sources/memory.js";
import {
  BINARY_MARK,
  classifyEnds,
  classifyHead,
  classifyOutput,
  ENDS_MIN,
  HEAD_UNITS,
  TRUNCATED_MARK,
  TRUNCATED_TAIL,
  type OutputMessage,
} from "../records/tool-output.js";

/**
 * The measures `outputs` takes of a tool output, read off the line's bytes where the skeleton parse left
 * the text undecoded (records/string-bytes.ts): the sizes whole, the message from the two ends of the
 * text. Only a text that may open a stub message, or that is split over several blocks, is decoded.
 */

/** Measures of one model-visible text, taken at scan time so no result text is held. */
export interface TextMeasure {
  chars: number;
  utf8Bytes: number;
  codePoints: number;
  message: OutputMessage;
}

const piecesStats = (pieces: Array<[object, string | number]>): TextStats =>
  pieces.reduce((acc, [o, k]) => joinStats(acc, statsAt(o, k)!), EMPTY_STATS);

/** `measure(visibleText(holder[key]))`, decoding as little as the message allows. */
export function measureVisible(holder: object, key: string): TextMeasure {
  const pieces = visiblePieces(holder, key);
  const st = piecesStats(pieces);
  const one = pieces.length === 1 ? lazyOf(pieces[0]![0], pieces[0]![1]) : undefined;
  let message: OutputMessage | null = null;
  if (one && one.units >= ENDS_MIN) {
    const tail = mayContain(one, TRUNCATED_MARK, TRUNCATED_TAIL) ? tailOf(one, TRUNCATED_TAIL) : "";
    // Twice what the start needs, so that indented text (a Read's `     1→`) still has enough left once trimmed.
    message = classifyEnds(headOf(one, 2 * HEAD_UNITS), tail, one.units);
  } else if (one) {
    // Shorter texts (most results) are whole in the truncation check's window: without either mark in
    // their bytes, the head alone decides, and the text is not decoded (a quarter of outputs' analysis).
    const head = headOf(one, 2 * HEAD_UNITS);
    if (head.length >= one.units) message = classifyOutput(head);
    else if (!mayContain(one, TRUNCATED_MARK) && !mayContain(one, BINARY_MARK)) message = classifyHead(head);
  }
  // The message's strings are cut from the text, which must not stay alive with them.
  message ??= detachStrings(classifyOutput(visibleText((holder as Record<string, unknown>)[key])));
  return { chars: st.units, utf8Bytes: st.bytes, codePoints: st.codePoints, message };
}

/**
 * Sizes of the full output kept in `toolUseResult` (outputs.ts `fullTextOf`, the same shapes), or null
 * when it holds no text; nothing decoded.
 */
export function fullStatsAt(holder: object, key: string): TextStats | null {
  const own = statsAt(holder, key);
  if (own) return own;
  const v = (holder as Record<string, unknown>)[key];
  if (Array.isArray(v)) return v.some((b) => isObject(b) && b.type === "text") ? piecesStats(visiblePieces(holder, key)) : null;
  if (!isObject(v)) return null;
  if (isStringAt(v, "stdout") || isStringAt(v, "stderr"))
    return joinStats(statsAt(v, "stdout") ?? EMPTY_STATS, statsAt(v, "stderr") ?? EMPTY_STATS);
  if (isObject(v.file) && isStringAt(v.file, "content")) return statsAt(v.file, "content")!;
  if (isStringAt(v, "content") || Array.isArray(v.content)) return piecesStats(visiblePieces(v, "content"));
  return null;
}
