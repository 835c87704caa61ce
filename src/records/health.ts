import type { Pos } from "./pos.js";

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
}

export const MAX_LISTED = 1000;

export function emptyHealth(): Health {
  return { lines: 0, blankLines: 0, records: 0, malformed: [], malformedCount: 0, unknownTypes: {} };
}

export function countMalformed(h: Health, m: { pos: Pos; reason: string; excerpt: string }): void {
  h.malformedCount += 1;
  if (h.malformed.length < MAX_LISTED) h.malformed.push({ file: m.pos.file, line: m.pos.line, reason: m.reason, excerpt: m.excerpt });
}

/** A record that parsed; `unknownType` is the `type` this build does not know, if so. */
export function countParsed(h: Health, unknownType: string | undefined): void {
  h.records += 1;
  if (unknownType !== undefined) h.unknownTypes[unknownType] = (h.unknownTypes[unknownType] ?? 0) + 1;
}

export function mergeHealth(into: Health, from: Health): Health {
  into.lines += from.lines;
  into.blankLines += from.blankLines;
  into.records += from.records;
  into.malformedCount += from.malformedCount;
  for (const m of from.malformed) if (into.malformed.length < MAX_LISTED) into.malformed.push(m);
  for (const [k, v] of Object.entries(from.unknownTypes)) into.unknownTypes[k] = (into.unknownTypes[k] ?? 0) + v;
  return into;
}

/**
 * How one input's health joins a document's. `whole`: its lines and records are what the command
 * reports on (transcripts, `claude -p` output, the log a `debug`/`rpc` command was given). `bad-lines`:
 * a log read alongside a session; its lines are not session records, but its malformed lines are
 * still listed, so `--strict` sees them.
 */
export type HealthShare = "whole" | "bad-lines";

export interface InputHealth {
  health: Health;
  share: HealthShare;
}

/** The one place per-input health becomes a document's: every command merges through here. */
export function documentHealth(parts: Iterable<InputHealth>): Health {
  const out = emptyHealth();
  for (const p of parts) {
    if (p.share === "whole") mergeHealth(out, p.health);
    else mergeHealth(out, { ...emptyHealth(), malformed: p.health.malformed, malformedCount: p.health.malformedCount });
  }
  return out;
}
