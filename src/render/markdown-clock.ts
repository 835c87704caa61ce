import type { Table } from "../report/model.js";
import { sanitize } from "./sanitize.js";
import { isUtcZone, zoneOffsetMs } from "./zone.js";

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z$/;

interface Wall {
  date: string;
  clock: string;
  offset: string;
}

/**
 * Times of day for one markdown table (`21:44:06`), in the run's zone, with the date(s) and zone said
 * once in a note under it. The table's times are seen first, so a table that spans several dates knows
 * it before its first row and shows the date on each row where it changes (the first included).
 */
export class Clock {
  private readonly dates = new Set<string>();
  private readonly offsets = new Set<string>();
  private last: string | undefined;

  constructor(private readonly zone: string) {}

  /** The pre-pass: a time the table will show. */
  see(v: unknown): void {
    const w = this.wall(v);
    if (!w) return;
    this.dates.add(w.date);
    this.offsets.add(w.offset);
  }

  /** A new run of rows (the next piece of a split table): the first date shows again. */
  restart(): void {
    this.last = undefined;
  }

  show(v: string): string {
    const w = this.wall(v);
    if (!w) return sanitize(v);
    // A time the pre-pass did not see keeps its date: the note could not have named it.
    const unseen = !this.dates.has(w.date);
    this.see(v);
    const withDate = unseen || (this.dates.size > 1 && w.date !== this.last);
    this.last = w.date;
    return withDate ? `${w.date} ${w.clock}` : w.clock;
  }

  /** A full time for a line outside a table: `2026-09-14 21:44:02 UTC`. */
  full(v: string): string {
    const w = this.wall(v);
    return w ? `${w.date} ${w.clock} ${this.zoneLabel([w.offset])}` : sanitize(v);
  }

  /** The note under the table, or undefined when it showed no time. */
  note(): string | undefined {
    if (this.dates.size === 0) return undefined;
    const dates = [...this.dates].sort();
    const zone = this.zoneLabel([...this.offsets].sort());
    return dates.length === 1
      ? `times: ${zone}, ${dates[0]}`
      : `times: ${zone}, ${dates[0]} to ${dates[dates.length - 1]}; the date is shown where it changes`;
  }

  private zoneLabel(offsets: string[]): string {
    return isUtcZone(this.zone) ? "UTC" : `${this.zone} (UTC${offsets.join(", UTC")})`;
  }

  private wall(v: unknown): Wall | undefined {
    if (typeof v !== "string" || !ISO_UTC.test(v)) return undefined;
    const ms = Date.parse(v);
    if (!Number.isFinite(ms)) return undefined;
    const off = isUtcZone(this.zone) ? 0 : zoneOffsetMs(this.zone, ms);
    const local = new Date(ms + off).toISOString();
    const a = Math.abs(off) / 60000;
    const offset = `${off < 0 ? "-" : "+"}${String(Math.floor(a / 60)).padStart(2, "0")}:${String(a % 60).padStart(2, "0")}`;
    return { date: local.slice(0, 10), clock: local.slice(11, 19), offset };
  }
}

/** The pre-pass of a table's times, so its clock knows the dates before the first row prints. */
export function seeTimes(t: Table, clock: Clock): void {
  const times = t.columns.filter((c) => c.kind === "time" || c.kind === "mixed");
  if (times.length === 0) return;
  for (const r of t.rows) for (const c of times) if (c.kind === "time" || r.kind === "time") clock.see(r[c.key]);
}
