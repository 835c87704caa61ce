import type { RawLine } from "../sources/lines.js";
import { parseSkeleton, SKELETON_MIN_LINE, type JsonObject } from "./skeleton.js";

export type { JsonObject };

export type ParsedLine = { ok: true; value: JsonObject } | { ok: false; reason: string; excerpt: string } | { ok: "blank" };

export { DEEP_CHECK_MIN, MAX_DEPTH, nestsDeeper, parseJsonBounded } from "../sources/json-depth.js";
import { DEEP_CHECK_MIN, MAX_DEPTH, nestsDeeper } from "../sources/json-depth.js";

/**
 * Parses one physical line as a JSON object, never throwing. Says why a line is not a record:
 * NUL-padded crash remnants, two records glued together, half-written lines, bare arrays or scalars,
 * absurd nesting, and lines longer than a string can be.
 */
export function parseLine(raw: RawLine): ParsedLine {
  if (raw.buf.length >= SKELETON_MIN_LINE && !raw.tooLong) {
    // The skeleton pass checked the depth itself; walking the value here would decode every long string.
    // A NUL byte fails it as it fails JSON.parse (no JSON text holds a raw U+0000), so no NUL scan first:
    // such a line goes on to parseWhole, which says where the NULs are.
    const value = parseSkeleton(raw.buf, MAX_DEPTH);
    if (value !== undefined) return { ok: true, value };
  }
  return parseWhole(raw);
}

/** `parseLine` without the skeleton pass: decode the line, JSON.parse it, check it. The fast path's reference. */
export function parseWhole(raw: RawLine): ParsedLine {
  if (raw.tooLong) return { ok: false, reason: `line of ${raw.bytes} bytes is longer than a string can hold`, excerpt: "" };
  if (raw.buf.length === 0) return { ok: "blank" };
  if (raw.buf.length >= DEEP_CHECK_MIN && nestsDeeper(raw.buf, MAX_DEPTH)) {
    const head = raw.buf.toString("utf8", 0, 480);
    const array = head.trimStart().startsWith("[");
    return {
      ok: false,
      reason: array ? `not a JSON object (an array nested deeper than ${MAX_DEPTH} levels)` : `nested deeper than ${MAX_DEPTH} levels`,
      excerpt: excerptOf(head),
    };
  }
  const text = raw.buf.toString("utf8");
  const first = firstNonSpace(text);
  if (first < 0) return { ok: "blank" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // Only a line JSON.parse rejects can hold a NUL (JSON allows no raw U+0000, in strings or between
    // tokens), so the scan for one runs here, not over every line.
    const nulAt = raw.buf.indexOf(0);
    if (nulAt >= 0) {
      const kind = nulAt === 0 || text.trim().replace(/\u0000/g, "") === "" ? "NUL bytes only" : `NUL bytes from byte ${nulAt + 1}`;
      return { ok: false, reason: `${kind} (crash remnant)`, excerpt: excerptOf(text) };
    }
    return { ok: false, reason: jsonReason(text, (err as Error).message, raw.unterminated), excerpt: excerptOf(text) };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const what = Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;
    if (Array.isArray(value) && depthExceeds(value, MAX_DEPTH))
      return { ok: false, reason: `not a JSON object (an array nested deeper than ${MAX_DEPTH} levels)`, excerpt: excerptOf(text) };
    return { ok: false, reason: `expected a JSON object, got ${what}`, excerpt: excerptOf(text) };
  }
  return checked(value as JsonObject, raw.buf);
}

function checked(value: JsonObject, buf: Buffer): ParsedLine {
  if (depthExceeds(value, MAX_DEPTH))
    return { ok: false, reason: `nested deeper than ${MAX_DEPTH} levels`, excerpt: excerptOf(buf.toString("utf8", 0, 480)) };
  return { ok: true, value };
}

function jsonReason(text: string, message: string, unterminated: boolean): string {
  const glued = /Unexpected non-whitespace character after JSON at position (\d+)/.exec(message);
  if (glued) {
    const at = Number(glued[1]);
    const rest = text.slice(at).trimStart();
    if (rest.startsWith("{")) return `two JSON values glued on one line (the second starts at column ${at + 1})`;
    return `trailing garbage after the JSON value at column ${at + 1}`;
  }
  const endish = /Unterminated|Unexpected end of JSON input|Expected .* after|Bad control character/.test(message);
  if (endish && unterminated) return `half-written last line (${message})`;
  if (/Unexpected end of JSON input|Unterminated string/.test(message)) return `truncated record (${message})`;
  return `invalid JSON (${message})`;
}

function firstNonSpace(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return i;
  }
  return -1;
}

/** First 120 characters of a bad line, for error messages; the renderer escapes control characters. */
export function excerptOf(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** Whether nesting passes `limit` (the root is level 1); stops as soon as it does, so the recursion never goes deeper than `limit`. */
export function depthExceeds(root: unknown, limit: number): boolean {
  return deeper(root, 1, limit);
}

function deeper(v: unknown, d: number, limit: number): boolean {
  if (d > limit) return true;
  if (Array.isArray(v)) {
    for (const x of v) if (x !== null && typeof x === "object" && deeper(x, d + 1, limit)) return true;
  } else if (v !== null && typeof v === "object") {
    for (const k in v) {
      const x = (v as JsonObject)[k];
      if (x !== null && typeof x === "object" && deeper(x, d + 1, limit)) return true;
    }
  }
  return false;
}

export const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
export const bool = (v: unknown): boolean | undefined => (typeof v === "boolean" ? v : undefined);
export const arr = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : undefined);
