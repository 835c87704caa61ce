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
  const fast = canonicalTime(text);
  return fast === undefined ? parseIsoTimeWhole(text) : fast;
}

/**
 * The rule itself, for every form: the pattern, a real day, then `Date.parse` (zones, local times, the
 * space separator, any fraction). `parseIsoTime` only answers the one form transcripts write without it.
 */
export function parseIsoTimeWhole(text: string): number | undefined {
  if (!ISO_TIME.test(text) || !realDay(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_TIME_MS ? ms : undefined;
}

/** The day of the last canonical time read (`yyyymmdd`), and its epoch ms: records of a file share a few days. */
let lastDay = -1;
let lastDayMs = 0;

/**
 * `YYYY-MM-DDTHH:MM:SS.sssZ` and `YYYY-MM-DDTHH:MM:SSZ`, the forms Claude Code writes, read from the char
 * codes (about a tenth of the pattern, `realDay` and `Date.parse`, which this runs instead of per record).
 * Undefined when the text is in any other form or out of the plain ranges (hour 24, second 60): the whole
 * rule decides those. A 4-digit UTC year is always within a Date's range.
 */
export function canonicalTime(t: string): number | undefined {
  const n = t.length;
  if (n === 24) {
    if (t.charCodeAt(19) !== 0x2e || t.charCodeAt(23) !== 0x5a) return undefined;
  } else if (n !== 20 || t.charCodeAt(19) !== 0x5a) return undefined;
  if (
    t.charCodeAt(4) !== 0x2d ||
    t.charCodeAt(7) !== 0x2d ||
    t.charCodeAt(10) !== 0x54 ||
    t.charCodeAt(13) !== 0x3a ||
    t.charCodeAt(16) !== 0x3a
  )
    return undefined;
  const y = digits(t, 0, 4);
  const mo = digits(t, 5, 2);
  const d = digits(t, 8, 2);
  const h = digits(t, 11, 2);
  const mi = digits(t, 14, 2);
  const s = digits(t, 17, 2);
  const f = n === 24 ? digits(t, 20, 3) : 0;
  // A non-digit makes its field negative, so one test covers both.
  if (y < 0 || mo < 0 || d < 0 || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59 || f < 0) return undefined;
  const key = y * 10000 + mo * 100 + d;
  if (key !== lastDay) {
    if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return undefined;
    lastDayMs = daysFromCivil(y, mo, d) * 86_400_000;
    lastDay = key;
  }
  return lastDayMs + h * 3_600_000 + mi * 60_000 + s * 1000 + f;
}

/** The decimal number of `len` ASCII digits at `at`, or a negative number if one is no digit. */
function digits(t: string, at: number, len: number): number {
  let v = 0;
  for (let i = at; i < at + len; i++) {
    const c = t.charCodeAt(i) - 0x30;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

function daysIn(y: number, m: number): number {
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return m === 2 ? (leap ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil); `Date.UTC` would read years 0–99 as 1900–1999. */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** V8 rolls `2026-02-30` over to March 2nd; a forensic time is either a real day or unknown. Arithmetic only: this runs per record. */
function realDay(text: string): boolean {
  const y = Number(text.slice(0, 4));
  const m = Number(text.slice(5, 7));
  const d = Number(text.slice(8, 10));
  return m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);
}
