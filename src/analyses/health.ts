import type { AnyRecord } from "../records/transcript.js";
import type { SkippedEntry } from "../sources/guard.js";

export interface MalformedEntry {
  file: string;
  line: number;
  reason: string;
  excerpt: string;
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
  /** Discovered files passed over (a link out of the config dir, a loop, a FIFO); present only when there were some. */
  skipped?: SkippedEntry[];
}

export const MAX_LISTED = 1000;

export function emptyHealth(): Health {
  return { lines: 0, blankLines: 0, records: 0, malformed: [], malformedCount: 0, unknownTypes: {} };
}

export function countRecord(h: Health, rec: AnyRecord): void {
  if (rec.kind === "malformed") {
    h.malformedCount += 1;
    if (h.malformed.length < MAX_LISTED) h.malformed.push({ file: rec.pos.file, line: rec.pos.line, reason: rec.reason, excerpt: rec.excerpt });
    return;
  }
  h.records += 1;
  if (rec.kind === "unknown") h.unknownTypes[rec.type] = (h.unknownTypes[rec.type] ?? 0) + 1;
}

export function mergeHealth(into: Health, from: Health): Health {
  into.lines += from.lines;
  into.blankLines += from.blankLines;
  into.records += from.records;
  into.malformedCount += from.malformedCount;
  for (const m of from.malformed) if (into.malformed.length < MAX_LISTED) into.malformed.push(m);
  if (from.skipped?.length) into.skipped = [...(into.skipped ?? []), ...from.skipped];
  for (const [k, v] of Object.entries(from.unknownTypes)) into.unknownTypes[k] = (into.unknownTypes[k] ?? 0) + v;
  return into;
}
