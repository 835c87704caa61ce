import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The time zone tables and markdown show times in (`--tz`). JSON and CSV keep ISO UTC. The zone is
 * per run, not per process: in-process tests run several CLIs at once, so it travels in an
 * AsyncLocalStorage context instead of a module variable or an argument every renderer would thread.
 */
const current = new AsyncLocalStorage<string>();

/**
 * Runs `fn` with `zone` as its display zone. Only when that changes anything: a context makes every
 * promise of the run pay for async hooks (≈4% of `requests`), so a UTC run outside any other zone's
 * context runs as it is (the default is UTC).
 */
export function withZone<T>(zone: string, fn: () => Promise<T>): Promise<T> {
  if (isUtcZone(zone) && isUtcZone(displayZone())) return fn();
  return current.run(zone, fn);
}

/** The zone of the run in progress; UTC outside one (library use, unit tests). */
export function displayZone(): string {
  return current.getStore() ?? "UTC";
}

/** True for an IANA name (or UTC) that this Node's Intl knows. */
export function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const isUtcZone = (zone: string): boolean => /^(?:utc|etc\/utc|gmt|etc\/gmt|z)$/i.test(zone);

const parts = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = parts.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    parts.set(zone, f);
  }
  return f;
}

/** Offset of `zone` from UTC at instant `ms`, in ms (Europe/Berlin in summer: +7,200,000). */
export function zoneOffsetMs(zone: string, ms: number): number {
  if (isUtcZone(zone)) return 0;
  const p: Record<string, number> = {};
  for (const x of formatter(zone).formatToParts(new Date(ms))) if (x.type !== "literal") p[x.type] = Number(x.value);
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
}

/** Epoch ms of a wall-clock time in `zone` (the offset of the instant itself, so DST edges land on the right side). */
export function wallToMs(zone: string, wallAsUtc: number): number {
  const guess = wallAsUtc - zoneOffsetMs(zone, wallAsUtc);
  return wallAsUtc - zoneOffsetMs(zone, guess);
}

const ISO_UTC = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)(\.\d+)?Z$/;

/**
 * An ISO UTC time shown in `zone` with its offset (`2026-11-01T10:30:12.345+01:00`), same precision.
 * In UTC, or for anything that is not an ISO UTC time, the text comes back unchanged, so UTC output
 * is byte for byte what it was before zones existed.
 */
export function timeInZone(text: string, zone: string): string {
  if (isUtcZone(zone)) return text;
  const m = ISO_UTC.exec(text);
  if (!m) return text;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) return text;
  const off = zoneOffsetMs(zone, ms);
  const local = new Date(ms + off).toISOString();
  const secs = m[2]!.length > 5;
  const body = `${local.slice(0, 10)}T${local.slice(11, secs ? 19 : 16)}${m[3] ?? ""}`;
  const sign = off < 0 ? "-" : "+";
  const a = Math.abs(off) / 60000;
  return `${body}${sign}${String(Math.floor(a / 60)).padStart(2, "0")}:${String(a % 60).padStart(2, "0")}`;
}
