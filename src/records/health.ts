import type { SkippedEntry } from "../sources/guard.js";
import type { InputKind } from "../sources/input.js";
import { bump, mergeCounts, newCounts, otherNames, type Counts, type OtherNames } from "./counts.js";
import type { LineDamage } from "./json.js";
import type { Pos } from "./pos.js";
import type { InvalidValue } from "./values.js";

export interface MalformedEntry {
  file: string;
  line: number;
  reason: string;
  excerpt: string;
}

/**
 * A line read as a record despite damage: NUL bytes before the record (skipped), bytes that are not UTF-8
 * (read as U+FFFD). The record counts in `records`; the line is listed here, and `--strict` fails on it.
 */
export interface DamagedEntry {
  file: string;
  line: number;
  reason: string;
  /** The bytes skipped or replaced. */
  bytes: number;
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

/** A line too long to hold, scanned as it streamed instead of parsed whole (records/stream-scan.ts). */
export interface ScannedEntry {
  file: string;
  line: number;
  bytes: number;
  /** Whether every string it counted can be read back: false for stdin and strings past V8's limit (they read as ""). */
  textKept: boolean;
}

/** Parse health, part of every report (CONTRACT.md `health`). */
export interface Health {
  lines: number;
  blankLines: number;
  records: number;
  malformed: MalformedEntry[];
  /** All malformed lines; `malformed` lists at most MAX_LISTED of them. */
  malformedCount: number;
  /** Lines read despite damage, one entry per kind of damage (a line can have two); at most MAX_LISTED. */
  damaged: DamagedEntry[];
  damagedCount: number;
  /** Records per type this build does not know; a prototype-free Counts (records/counts.ts), at most MAX_NAMES names. */
  unknownTypes: Counts;
  /** The unknown types past the first MAX_NAMES names: how many more names, how many records. Present only then. */
  unknownTypesOther?: OtherNames;
  /** At most MAX_LISTED; `invalidValueCount` counts them all. */
  invalidValues: InvalidValueEntry[];
  invalidValueCount: number;
  notRequests: NotRequestEntry[];
  notRequestCount: number;
  /** Discovered files passed over (a link out of the config dir, a loop, a FIFO); present only when there were some. */
  skipped?: SkippedEntry[];
  /** Lines scanned as they streamed, too long to parse whole; present only when there were some. */
  scanned?: ScannedEntry[];
  /** Inputs read as one kind whose first lines look like another (records/sources.ts `looksLike`); present only then. */
  wrongKind?: WrongKindEntry[];
}

/**
 * A transcript target that looks like another kind of evidence: `claude -p` output given where a transcript goes.
 * Kinds are records/source.ts EvidenceKind (spelt out here: source.ts imports this file).
 */
export interface WrongKindEntry {
  file: string;
  /** The kind it was read as. */
  readAs: InputKind | "tools-list";
  /** The kind its first lines look like. */
  looksLike: InputKind | "tools-list";
}

export const MAX_LISTED = 1000;

export function emptyHealth(): Health {
  return {
    lines: 0,
    blankLines: 0,
    records: 0,
    malformed: [],
    malformedCount: 0,
    damaged: [],
    damagedCount: 0,
    unknownTypes: newCounts(),
    invalidValues: [],
    invalidValueCount: 0,
    notRequests: [],
    notRequestCount: 0,
  };
}

export function countMalformed(h: Health, m: { pos: Pos; reason: string; excerpt: string }): void {
  h.malformedCount += 1;
  if (h.malformed.length < MAX_LISTED) h.malformed.push({ file: m.pos.file, line: m.pos.line, reason: m.reason, excerpt: m.excerpt });
}

/** What a parsed record adds to health besides being counted (each Source says, see `Source.facts`). */
export interface RecordFacts {
  /** The `type` this build does not know. */
  unknownType?: string;
  /** Values that are not what their field claims. */
  invalid?: readonly InvalidValue[];
  /** Why a record that looks like an API request is none. */
  notRequest?: string;
  /** The record's line was scanned as it streamed. */
  scanned?: { bytes: number; textKept: boolean } | undefined;
  /** What was wrong with the record's line, read all the same. */
  damaged?: readonly LineDamage[] | undefined;
}

/** Damage of the record at `pos`, or found outside any record there (records/source.ts DamageNote). */
export function countDamaged(h: Health, pos: Pos, damage: readonly LineDamage[]): void {
  for (const d of damage) {
    h.damagedCount += 1;
    if (h.damaged.length < MAX_LISTED) h.damaged.push({ file: pos.file, line: d.line ?? pos.line, reason: d.reason, bytes: d.bytes });
  }
}

export function countParsed(h: Health, pos: Pos, facts: RecordFacts | undefined): void {
  h.records += 1;
  if (facts === undefined) return;
  if (facts.scanned && (h.scanned ??= []).length < MAX_LISTED) h.scanned.push({ file: pos.file, line: pos.line, ...facts.scanned });
  if (facts.damaged) countDamaged(h, pos, facts.damaged);
  if (facts.unknownType !== undefined) {
    bump(h.unknownTypes, facts.unknownType);
    const o = otherNames(h.unknownTypes);
    if (o !== undefined) h.unknownTypesOther = o;
  }
  if (facts.invalid?.length)
    addInvalid(
      h,
      facts.invalid.map((v) => ({ file: pos.file, line: pos.line, ...v })),
    );
  if (facts.notRequest !== undefined) {
    h.notRequestCount += 1;
    if (h.notRequests.length < MAX_LISTED) h.notRequests.push({ file: pos.file, line: pos.line, reason: facts.notRequest });
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
  into.damagedCount += from.damagedCount;
  for (const d of from.damaged) if (into.damaged.length < MAX_LISTED) into.damaged.push(d);
  if (from.skipped?.length) into.skipped = [...(into.skipped ?? []), ...from.skipped];
  if (from.wrongKind?.length) into.wrongKind = [...(into.wrongKind ?? []), ...from.wrongKind];
  if (from.scanned?.length) into.scanned = [...(into.scanned ?? []), ...from.scanned].slice(0, MAX_LISTED);
  mergeCounts(into.unknownTypes, from.unknownTypes, from.unknownTypesOther);
  const o = otherNames(into.unknownTypes);
  if (o !== undefined) into.unknownTypesOther = o;
  into.invalidValueCount += from.invalidValueCount;
  for (const e of from.invalidValues) if (into.invalidValues.length < MAX_LISTED) into.invalidValues.push(e);
  into.notRequestCount += from.notRequestCount;
  for (const e of from.notRequests) if (into.notRequests.length < MAX_LISTED) into.notRequests.push(e);
  return into;
}

/**
 * How one input's health joins a document's. `whole`: its lines and records are what the command
 * reports on (transcripts, `claude -p` output, the log a `debug`/`rpc` command was given). `bad-lines`:
 * a log read alongside a session; its lines are not session records, but its malformed lines (and
 * damaged lines, invalid values, skipped files) are still listed, so `--strict` sees them.
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
    else {
      const h = p.health;
      mergeHealth(out, {
        ...emptyHealth(),
        malformed: h.malformed,
        malformedCount: h.malformedCount,
        damaged: h.damaged,
        damagedCount: h.damagedCount,
        invalidValues: h.invalidValues,
        invalidValueCount: h.invalidValueCount,
        skipped: h.skipped,
      });
    }
  }
  return out;
}
