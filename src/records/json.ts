import { isUtf8 } from "node:buffer";
import type { RawLine } from "../sources/lines.js";
import { nulWsRun, nulWsRunBack } from "./nul-scan.js";
import { parseSkeleton, SKELETON_MIN_LINE, type JsonObject } from "./skeleton.js";

export type { JsonObject };

/**
 * What was wrong with a line that was read all the same: NUL bytes before its record (a crash remnant the
 * next write landed after), bytes that are not UTF-8 (read as U+FFFD). Health lists it (`damaged`).
 */
export interface LineDamage {
  reason: string;
  /** The bytes skipped (NULs) or replaced (not UTF-8). */
  bytes: number;
  /** The physical line, when it is not the record's first (a debug-log entry spans several). */
  line?: number;
}

export type ParsedLine =
  { ok: true; value: JsonObject; damage?: LineDamage[] } | { ok: false; reason: string; excerpt: string } | { ok: "blank" };

export { DEEP_CHECK_MIN, MAX_DEPTH, nestsDeeper, parseJsonBounded, pruneDeeper } from "../sources/json-depth.js";
import { DEEP_CHECK_MIN, MAX_DEPTH, nestsDeeper, pruneDeeper, type DeepCut } from "../sources/json-depth.js";

/**
 * Parses one physical line as a JSON object, never throwing. Says why a line is not a record:
 * NUL-padded crash remnants, two records glued together, half-written lines, bare arrays or scalars,
 * absurd nesting that never closes, and lines longer than a string can be. A record holding a value nested
 * deeper than MAX_DEPTH is kept with that value read as null and listed as damage (`keepShallow`).
 */
export function parseLine(raw: RawLine): ParsedLine {
  if (raw.buf.length >= SKELETON_MIN_LINE && !raw.tooLong) {
    // The skeleton pass checked the depth itself; walking the value here would decode every long string.
    // A NUL byte fails it as it fails JSON.parse (no JSON text holds a raw U+0000), so no NUL scan first:
    // such a line goes on to parseWhole, which says where the NULs are.
    // Decoding replaces bytes that are not UTF-8 with U+FFFD; the skeleton's counts are not made for that.
    const utf8 = isUtf8(raw.buf);
    if (utf8) {
      const value = parseSkeleton(raw.buf, MAX_DEPTH, true);
      if (value !== undefined) return { ok: true, value };
    }
    return whole(raw, utf8);
  }
  return whole(raw, undefined);
}

/** `parseLine` without the skeleton pass: decode the line, JSON.parse it, check it. The fast path's reference. */
export function parseWhole(raw: RawLine): ParsedLine {
  return whole(raw, undefined);
}

/** `parseWhole`; `utf8` says whether the line is valid UTF-8 when the caller has checked already (one SIMD pass a line). */
function whole(raw: RawLine, utf8: boolean | undefined): ParsedLine {
  if (raw.tooLong) return { ok: false, reason: `line of ${raw.bytes} bytes is longer than a string can hold`, excerpt: "" };
  if (raw.buf.length === 0) return { ok: "blank" };
  if (raw.buf.length >= DEEP_CHECK_MIN && nestsDeeper(raw.buf, MAX_DEPTH)) return keepShallow(raw);
  const text = raw.buf.toString("utf8");
  const first = firstNonSpace(text);
  if (first < 0) return { ok: "blank" };
  let value: unknown;
  let nuls: LineDamage | undefined;
  let trailing: LineDamage | undefined;
  /** What a reason says first when NULs were skipped before the value. */
  let after = "";
  try {
    value = JSON.parse(text);
  } catch (err) {
    // Only a line JSON.parse rejects can hold a NUL (JSON allows no raw U+0000, in strings or between
    // tokens), so the scan for one runs here, not over every line.
    const nulAt = raw.buf.indexOf(0);
    if (nulAt < 0) return { ok: false, reason: jsonReason(text, (err as Error).message, raw.unterminated), excerpt: excerptOf(text) };
    const runs = nulRuns(raw.buf);
    // NULs and nothing else: no record to read.
    if (runs.leadEnd === raw.buf.length) return { ok: false, reason: "NUL bytes only (crash remnant)", excerpt: excerptOf(text) };
    // The zero-filled tail a crash leaves after a complete record (the NUL run is the line's end).
    const later = raw.buf.indexOf(0, runs.leadEnd);
    if (later >= 0 && later < runs.tailStart) {
      // NULs inside what would be the record: no record to read.
      const reason =
        runs.leadNuls === 0
          ? `NUL bytes from byte ${nulAt + 1} (crash remnant)`
          : `NUL bytes from byte ${nulAt + 1} and from byte ${later + 1} (crash remnant)`;
      return { ok: false, reason, excerpt: excerptOf(text) };
    }
    // A crash remnant the next write landed after, or the zeros a crash left after the record: read what lies
    // between. Spaces in place of a leading run keep every column JSON.parse names where it was (the run is one
    // byte per character); a trailing run is one character per byte too, so it is cut from the text's end.
    const rest = " ".repeat(runs.leadEnd) + text.slice(runs.leadEnd, text.length - (raw.buf.length - runs.tailStart));
    if (runs.leadNuls > 0) after = `${nulsBefore(runs.leadNuls, runs.leadEnd)}, then `;
    const tailSaid = runs.tailNuls > 0 ? `, then ${nulsAfter(runs.tailNuls, runs.tailFirstNul)}` : "";
    try {
      value = JSON.parse(rest);
    } catch (again) {
      return {
        ok: false,
        reason: after + jsonReason(rest, (again as Error).message, raw.unterminated) + tailSaid,
        excerpt: excerptOf(text),
      };
    }
    if (runs.leadNuls > 0) nuls = nulDamage(runs.leadNuls, runs.leadEnd);
    if (runs.tailNuls > 0) trailing = nulTailDamage(runs.tailNuls, runs.tailFirstNul);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const what = Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;
    if (Array.isArray(value) && depthExceeds(value, MAX_DEPTH))
      return { ok: false, reason: `${after}not a JSON object (an array nested deeper than ${MAX_DEPTH} levels)`, excerpt: excerptOf(text) };
    return { ok: false, reason: `${after}expected a JSON object, got ${what}`, excerpt: excerptOf(text) };
  }
  if (depthExceeds(value, MAX_DEPTH)) return keepShallow(raw);
  const out: ParsedLine = { ok: true, value: value as JsonObject };
  // Decoding put U+FFFD for every bad sequence, silently: the record is read, and the damage said.
  const replaced = (utf8 ?? isUtf8(raw.buf)) ? undefined : notUtf8(raw.buf);
  // Built only when something was damaged: a clean line (nearly every line) allocates nothing here.
  if (nuls || trailing || replaced) {
    const damage: LineDamage[] = [];
    if (nuls) damage.push(nuls);
    if (trailing) damage.push(trailing);
    if (replaced) damage.push(replaced);
    out.damage = damage;
  }
  return out;
}

/**
 * The NUL runs a line starts and ends with (crash remnants): one rule for transcripts, debug logs and message
 * logs. A run is of NUL and whitespace bytes (space, tab, CR, LF); the trailing run never reaches back into the
 * leading one. One walk from each end, so the cost is linear in the line however long the runs are.
 */
export interface NulRuns {
  /** Where the leading run ends (0-based, exclusive). */
  leadEnd: number;
  /** The NULs the leading run holds. */
  leadNuls: number;
  /** The byte after the leading run's last NUL (0 for none): the run without the whitespace after it. */
  leadNulEnd: number;
  /** Where the trailing run starts (`buf.length` for none). */
  tailStart: number;
  /** The NULs the trailing run holds. */
  tailNuls: number;
  /** The trailing run's first NUL (0-based; -1 for none). */
  tailFirstNul: number;
}

export function nulRuns(buf: Buffer): NulRuns {
  // The runs are walked a memcmp block at a time (records/nul-scan.ts): a 300 MB run is not 300 M loop turns.
  const lead = nulWsRun(buf, 0);
  const tail = nulWsRunBack(buf, buf.length, lead.end);
  return {
    leadEnd: lead.end,
    leadNuls: lead.nuls,
    leadNulEnd: lead.lastNulEnd,
    tailStart: tail.start,
    tailNuls: tail.nuls,
    tailFirstNul: tail.firstNul,
  };
}

/**
 * The bytes of `buf` that are not UTF-8, as Buffer#toString replaces them (WHATWG: one U+FFFD per maximal
 * bad subpart). Only run on a line buffer.isUtf8 failed.
 */
export function notUtf8(buf: Buffer): LineDamage | undefined {
  const { bad, first } = notUtf8Count(buf);
  return bad === 0 ? undefined : utf8Damage(bad, first);
}

/** `notUtf8`'s count: the bytes replaced, and where the first is (0-based; -1 for none). */
export function notUtf8Count(buf: Buffer): { bad: number; first: number } {
  let bad = 0;
  let first = -1;
  let need = 0;
  let seen = 0;
  let start = 0;
  let lo = 0x80;
  let hi = 0xbf;
  const badRun = (from: number, to: number) => {
    if (first < 0) first = from;
    bad += to - from;
  };
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i]!;
    if (need > 0) {
      if (b >= lo && b <= hi) {
        lo = 0x80;
        hi = 0xbf;
        if (++seen === need) need = 0;
        continue;
      }
      // The sequence so far is one U+FFFD; this byte starts afresh.
      badRun(start, i);
      need = 0;
      lo = 0x80;
      hi = 0xbf;
    }
    if (b < 0x80) continue;
    start = i;
    seen = 0;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else badRun(i, i + 1);
  }
  if (need > 0) badRun(start, buf.length);
  return { bad, first };
}

/** NUL bytes a line starts with (whitespace among them), the record from byte `end` (0-based) on. */
export function nulsBefore(nuls: number, end: number): string {
  return `${nuls} NUL byte${nuls === 1 ? "" : "s"} before byte ${end + 1} (crash remnant)`;
}

/** NUL bytes a line ends with (whitespace among them), the first at byte `first` (0-based). */
export function nulsAfter(nuls: number, first: number): string {
  return `${nuls} trailing NUL byte${nuls === 1 ? "" : "s"} from byte ${first + 1} (crash remnant)`;
}

/** The damage entry for the NUL run after the record (the zero-filled tail a crash leaves) — one wording for every path. */
export function nulTailDamage(nuls: number, first: number): LineDamage {
  return { reason: `${nulsAfter(nuls, first)}, skipped`, bytes: nuls };
}

/** The damage entry for a NUL run skipped before the record — one wording for every path. */
export function nulDamage(nuls: number, end: number): LineDamage {
  return { reason: `${nulsBefore(nuls, end)}, skipped`, bytes: nuls };
}

/** The damage entry for `bytes` bytes that are not UTF-8, the first at `first` (0-based) — one wording for every path. */
export function utf8Damage(bytes: number, first: number): LineDamage {
  return { reason: `${bytes} byte${bytes === 1 ? "" : "s"} of invalid UTF-8 from byte ${first + 1}, read as U+FFFD`, bytes };
}

/** Cut values up to this long are checked as JSON before the record is kept without them (JSON.parse takes ≈100 bytes a byte of `[[[[`). */
export const CUT_CHECK_MAX = 1024 * 1024;

/**
 * A line nesting deeper than MAX_DEPTH. Walking such a value would risk the stack of every recursive walker
 * here, and building a `[[[[…` line of 150 MB would run the heap out; but a record whose tool result holds
 * a value 211 levels deep is still a record, and its usage and tool results count. So: an object record has
 * each too-deep value replaced by null (a copy of the line without them is parsed; no level past the limit is
 * built) and each cut listed as damage. A line that is an array, or a too-deep value that never closes, or one
 * that is not JSON, stays malformed as before.
 */
function keepShallow(raw: RawLine): ParsedLine {
  const head = raw.buf.toString("utf8", 0, 480);
  const array = head.trimStart().startsWith("[");
  const tooDeep: ParsedLine = {
    ok: false,
    reason: array ? `not a JSON object (an array nested deeper than ${MAX_DEPTH} levels)` : `nested deeper than ${MAX_DEPTH} levels`,
    excerpt: excerptOf(head),
  };
  if (array) return tooDeep;
  const p = pruneDeeper(raw.buf, MAX_DEPTH);
  if (p === undefined || p.cuts.length === 0) return tooDeep;
  for (const c of p.cuts) {
    if (c.bytes > CUT_CHECK_MAX) continue;
    try {
      JSON.parse(raw.buf.toString("utf8", c.at, c.at + c.bytes));
    } catch (err) {
      return { ok: false, reason: notJsonThere((err as Error).message), excerpt: tooDeep.excerpt };
    }
  }
  // Bytes that are not UTF-8 are counted on the whole line (a cut value may hold some), not on the copy.
  const out = whole({ ...raw, buf: p.kept }, true);
  if (out.ok !== true) return out;
  // A NUL run after the record is said where it is in the line, not in the copy.
  const tailIn = (b: Buffer) => {
    const t = nulRuns(b);
    return t.tailNuls > 0 ? nulTailDamage(t.tailNuls, t.tailFirstNul) : undefined;
  };
  const copied = tailIn(p.kept);
  const damage = (out.damage ?? []).map((d) => (copied && d.reason === copied.reason ? tailIn(raw.buf)! : d));
  const replaced = isUtf8(raw.buf) ? undefined : notUtf8(raw.buf);
  out.damage = [...damage, ...(replaced ? [replaced] : []), ...p.cuts.map(deepDamage)];
  return out;
}

/** Why a line whose too-deep value is not JSON stays malformed — one wording for every path. */
export const notJsonThere = (message: string) => `nested deeper than ${MAX_DEPTH} levels, and not JSON there (${message})`;

/** The damage entry for a value cut for nesting too deep — one wording for every path. */
export function deepDamage(c: DeepCut): LineDamage {
  const checked = c.bytes > CUT_CHECK_MAX ? ", not checked as JSON" : "";
  return {
    reason: `a value nested deeper than ${MAX_DEPTH} levels (${c.bytes} bytes from byte ${c.at + 1}${checked}) read as null`,
    bytes: c.bytes,
  };
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

/**
 * First 120 characters of a bad line, for error messages; the renderer escapes control characters. A cut never
 * splits a surrogate pair (the excerpt ends before the pair instead of in a lone surrogate).
 */
export function excerptOf(text: string): string {
  if (text.length <= 120) return text;
  const c = text.charCodeAt(119);
  return `${text.slice(0, c >= 0xd800 && c <= 0xdbff ? 119 : 120)}…`;
}

/**
 * The first `max` bytes of `buf` as text, without a UTF-8 sequence the cut left incomplete (which would read as
 * U+FFFD): for excerpts of a value that goes on.
 */
export function utf8Head(buf: Buffer, max: number): string {
  let end = Math.min(buf.length, max);
  if (end < buf.length) {
    let j = end - 1;
    while (j > end - 4 && j > 0 && (buf[j]! & 0xc0) === 0x80) j--;
    const b = buf[j]!;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (j + need > end) end = j;
  }
  return buf.toString("utf8", 0, end);
}

/** Whether `buf` starts with a UTF-8 BOM (EF BB BF); `"partial"` when it is shorter than one and could still be its start. */
export function bomAt(buf: Buffer): boolean | "partial" {
  if (buf.length < 3) return buf.every((b, k) => b === UTF8_BOM[k]) ? "partial" : false;
  return buf[0] === UTF8_BOM[0] && buf[1] === UTF8_BOM[1] && buf[2] === UTF8_BOM[2];
}
const UTF8_BOM = [0xef, 0xbb, 0xbf];

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
