import { UsageError } from "../errors.js";
import { isoOrUndefined, parseIsoTime } from "../records/time.js";
import { wallToMs } from "../render/zone.js";
import type { SessionFilter } from "../sources/session-filter.js";

const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const;
const FORMS = "a date (2026-11-01, 2026-11-01T09:30Z) or a span back from now (7d, 12h, 30m)";
const HAS_ZONE = /(?:Z|[+-]\d{2}:?\d{2})$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export interface WhenOptions {
  now?: number;
  /** Zone of a date or time written without one (`--tz`); default UTC. */
  zone?: string;
  /** `--until`: a bare date means the end of that day, so `--until 2026-11-01` includes the 1st. */
  endOfDay?: boolean;
}

/**
 * The one parser of `--since` and `--until`: an ISO date/time, or a span back from now (`7d`, `12h`,
 * `30m`). Returns an ISO UTC string. A date or time without a zone is wall time in `zone`. Strict
 * and total: anything else, a negative span, or a time no Date can hold is a usage error naming the
 * value (V8's `Date.parse` would take `1` as 2001 and `999999999d` throws later).
 */
export function parseWhen(flag: string, v: string | undefined, o: WhenOptions = {}): string | undefined {
  if (v === undefined) return undefined;
  const now = o.now ?? Date.now();
  const text = v.trim();
  if (text === "") throw new UsageError(`${flag}: expected ${FORMS}, got an empty value`);
  if (/^-\s*\d+\s*[dhm]$/.test(text)) throw new UsageError(`${flag}: a span counts back from now and cannot be negative, got "${v}"`);
  const span = /^(\d+)\s*([dhm])$/.exec(text);
  if (span) {
    const iso = isoOrUndefined(now - Number(span[1]) * UNIT_MS[span[2] as keyof typeof UNIT_MS]);
    if (iso === undefined)
      throw new UsageError(`${flag}: "${v}" reaches back past the earliest representable time (271,821 BC); use a smaller span`);
    return iso;
  }
  // Parsed as UTC first (a trailing Z), then moved by the zone's offset: Date.parse would use the process's zone.
  const zoned = HAS_ZONE.test(text);
  const t = parseIsoTime(zoned ? text : DATE_ONLY.test(text) ? `${text}T00:00Z` : `${text.replace(" ", "T")}Z`);
  if (t === undefined) throw new UsageError(`${flag}: expected ${FORMS}, got "${v}"`);
  const ms = zoned ? t : wallToMs(o.zone ?? "UTC", t);
  const end = o.endOfDay && DATE_ONLY.test(text) ? wallToMs(o.zone ?? "UTC", t + UNIT_MS.d) - 1 : ms;
  const iso = isoOrUndefined(end);
  if (iso === undefined) throw new UsageError(`${flag}: "${v}" is past the latest representable time`);
  return iso;
}

/** `--since`: see parseWhen. */
export function parseSince(v: string | undefined, now = Date.now(), zone = "UTC"): string | undefined {
  return parseWhen("--since", v, { now, zone });
}

/** `--until`: see parseWhen; a bare date includes that whole day. */
export function parseUntil(v: string | undefined, now = Date.now(), zone = "UTC"): string | undefined {
  return parseWhen("--until", v, { now, zone, endOfDay: true });
}

/** Reads the three flags from parsed arguments; times in the run's `--tz` zone. */
export function sessionFilter(argv: { project?: unknown; since?: unknown; until?: unknown; tz?: unknown }): SessionFilter {
  const zone = typeof argv.tz === "string" ? argv.tz : "UTC";
  const since = parseSince(argv.since as string | undefined, Date.now(), zone);
  const until = parseUntil(argv.until as string | undefined, Date.now(), zone);
  if (since && until && since > until)
    throw new UsageError(`--since ${String(argv.since)} is after --until ${String(argv.until)}: no session can match`);
  const project = typeof argv.project === "string" ? argv.project : undefined;
  return { project, since, until };
}
