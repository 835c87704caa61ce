/**
 * Times from evidence, made total. A `Date` holds ±8.64e15 ms around the epoch; past that
 * `toISOString()` throws `RangeError: Invalid time value` and `Date.parse` gives NaN. Evidence can
 * hold anything (`"t": 1e20`, `"timestamp": "garbage"`), so every reader goes through these and
 * treats what they reject as an unknown time.
 */

/** Largest |ms| a `Date` can hold (ECMA-262 21.4.1.22 TimeClip). */
export const MAX_TIME_MS = 8.64e15;

/** ISO-8601 text as Claude Code and the MCP logs write it: a date, optionally a time and a zone. */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** `new Date(ms).toISOString()`, or undefined where no Date can stand for `ms`. */
export function isoOrUndefined(ms: number): string | undefined {
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_TIME_MS) return undefined;
  return new Date(ms).toISOString();
}

/** Epoch ms of an ISO-8601 time, or undefined for anything else (V8's lenient `Date.parse("1")` is year 2001). */
export function parseIsoTime(text: string): number | undefined {
  if (!ISO_TIME.test(text) || !realDay(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_TIME_MS ? ms : undefined;
}

/** V8 rolls `2026-02-30` over to March 2nd; a forensic time is either a real day or unknown. Arithmetic only: this runs per record. */
function realDay(text: string): boolean {
  const y = Number(text.slice(0, 4));
  const m = Number(text.slice(5, 7));
  const d = Number(text.slice(8, 10));
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (m === 2 ? (leap ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31);
}
