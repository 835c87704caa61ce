import type { AnyRecord } from "../records/transcript.js";
import type { SkippedEntry } from "../sources/guard.js";

export interface MalformedEntry {
  file: string;
  line: number;
  reason: string;
  excerpt: string;
}

/** A field whose value is not what it claims (a token count of `1e308`, a timestamp of `"garbage"`): unknown, not 0. */
export interface InvalidValueEntry {
  file: string;
  line: number;
  field: string;
  value: string;
}

/** A record that looks like an API request and is none (an assistant record with `message: null`). */
export interface NotRequestEntry {
  file: string;
  line: number;
  reason: string;
}

/** Parse health, part of every report (CONTRACT.md `health`). */
export interface Health {
  lines: number;
  blankLines: number;
  records: number;
  malformed: MalformedEntry[];
  /** All malformed lines; `malformed` lists at most MAX_LISTED of them. */
  malformedCount: number;
  unknownTypes: Record<string, number>;
  /** At most MAX_LISTED; `invalidValueCount` counts them all. */
  invalidValues: InvalidValueEntry[];
  invalidValueCount: number;
  notRequests: NotRequestEntry[];
  notRequestCount: number;
  /** Discovered files passed over (a link out of the config dir, a loop, a FIFO); present only when there were some. */
  skipped?: SkippedEntry[];
}

export const MAX_LISTED = 1000;

export function emptyHealth(): Health {
  return {
    lines: 0, blankLines: 0, records: 0, malformed: [], malformedCount: 0, unknownTypes: {},
    invalidValues: [], invalidValueCount: 0, notRequests: [], notRequestCount: 0,
  };
}

export function countRecord(h: Health, rec: AnyRecord): void {
  if (rec.kind === "malformed") {
    h.malformedCount += 1;
    if (h.malformed.length < MAX_LISTED) h.malformed.push({ file: rec.pos.file, line: rec.pos.line, reason: rec.reason, excerpt: rec.excerpt });
    return;
  }
  h.records += 1;
  if (rec.kind === "unknown") h.unknownTypes[rec.type] = (h.unknownTypes[rec.type] ?? 0) + 1;
  if (rec.invalid.length > 0) addInvalid(h, rec.invalid.map((v) => ({ file: rec.pos.file, line: rec.pos.line, ...v })));
  if (rec.kind === "assistant" && rec.notRequest !== undefined) {
    h.notRequestCount += 1;
    if (h.notRequests.length < MAX_LISTED) h.notRequests.push({ file: rec.pos.file, line: rec.pos.line, reason: rec.notRequest });
  }
}

export function addInvalid(h: Health, entries: InvalidValueEntry[]): void {
  h.invalidValueCount += entries.length;
  for (const e of entries) if (h.invalidValues.length < MAX_LISTED) h.invalidValues.push(e);
}

export function mergeHealth(into: Health, from: Health): Health {
  into.lines += from.lines;
  into.blankLines += from.blankLines;
  into.records += from.records;
  into.malformedCount += from.malformedCount;
  for (const m of from.malformed) if (into.malformed.length < MAX_LISTED) into.malformed.push(m);
  if (from.skipped?.length) into.skipped = [...(into.skipped ?? []), ...from.skipped];
  for (const [k, v] of Object.entries(from.unknownTypes)) into.unknownTypes[k] = (into.unknownTypes[k] ?? 0) + v;
  into.invalidValueCount += from.invalidValueCount;
  for (const e of from.invalidValues) if (into.invalidValues.length < MAX_LISTED) into.invalidValues.push(e);
  into.notRequestCount += from.notRequestCount;
  for (const e of from.notRequests) if (into.notRequests.length < MAX_LISTED) into.notRequests.push(e);
  return into;
}
