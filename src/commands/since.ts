import { UsageError } from "../errors.js";
import { isoOrUndefined, parseIsoTime } from "../records/time.js";

const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const;
const FORMS = "a date (2026-11-01, 2026-11-01T09:30Z) or a span back from now (7d, 12h, 30m)";

/**
 * `--since`: an ISO date/time, or a span back from now (`7d`, `12h`, `30m`). Returns an ISO string.
 * Strict and total: anything else, a negative span, or a time no Date can hold is a usage error
 * naming the value (V8's `Date.parse` would take `1` as 2001 and `999999999d` throws later).
 */
export function parseSince(v: string | undefined, now = Date.now()): string | undefined {
  if (v === undefined) return undefined;
  const text = v.trim();
  if (text === "") throw new UsageError(`--since: expected ${FORMS}, got an empty value`);
  if (/^-\s*\d+\s*[dhm]$/.test(text)) throw new UsageError(`--since: a span counts back from now and cannot be negative, got "${v}"`);
  const span = /^(\d+)\s*([dhm])$/.exec(text);
  if (span) {
    const iso = isoOrUndefined(now - Number(span[1]) * UNIT_MS[span[2] as keyof typeof UNIT_MS]);
    if (iso === undefined) throw new UsageError(`--since: "${v}" reaches back past the earliest representable time (271,821 BC); use a smaller span`);
    return iso;
  }
  const t = parseIsoTime(text);
  if (t === undefined) throw new UsageError(`--since: expected ${FORMS}, got "${v}"`);
  return isoOrUndefined(t);
}
