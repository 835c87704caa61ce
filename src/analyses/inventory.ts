import { ownSessionChain } from "../records/chains.js";
import type { AnyRecord } from "../records/transcript.js";
import { bump, newCounts, otherNames, type Counts, type OtherNames } from "../records/counts.js";
import type { Analysis } from "./analysis.js";

export type { Counts, OtherNames } from "../records/counts.js";

/** The facets counted by name; each lists at most MAX_NAMES names (records/counts.ts), the rest in `<facet>Other`. */
export const COUNT_FACETS = [
  "recordTypes",
  "attachmentKinds",
  "systemSubtypes",
  "progressTypes",
  "versions",
  "entrypoints",
  "models",
  "sessionIds",
  "cwds",
  "chains",
  "unknownTypes",
] as const;
export type CountFacet = (typeof COUNT_FACETS)[number];

/** What a forensic reader wants first about a file: what is in it, from which builds, and what is odd. */
export interface InventoryResult {
  recordTypes: Counts;
  attachmentKinds: Counts;
  systemSubtypes: Counts;
  progressTypes: Counts;
  versions: Counts;
  entrypoints: Counts;
  models: Counts;
  sessionIds: Counts;
  /** Records carrying `session_id` (snake case, 2.1.239+) instead of or beside `sessionId`. */
  snakeCaseSessionIds: number;
  cwds: Counts;
  chains: Counts;
  sidechainRecords: number;
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  /**
   * Per file read, the first and last time of its own session's records (`ownSessionChain`): what a session's
   * time span is made of (`sessionSpan`), leaving out the copies a resumed file starts with.
   */
  ownSpans: FileSpan[];
  unknownTypes: Counts;
  malformed: number;
}

/** An inventory as documents carry it: past MAX_NAMES names in a facet, `<facet>Other` counts the names not listed. */
export type InventoryDoc = InventoryResult & { [K in CountFacet as `${K}Other`]?: OtherNames };

export interface FileSpan {
  file: string;
  first: string | null;
  last: string | null;
}

export const inventoryAnalysis: Analysis<InventoryResult, InventoryDoc> = {
  init: () => ({
    recordTypes: newCounts(),
    attachmentKinds: newCounts(),
    systemSubtypes: newCounts(),
    progressTypes: newCounts(),
    versions: newCounts(),
    entrypoints: newCounts(),
    models: newCounts(),
    sessionIds: newCounts(),
    snakeCaseSessionIds: 0,
    cwds: newCounts(),
    chains: newCounts(),
    sidechainRecords: 0,
    firstTimestamp: null,
    lastTimestamp: null,
    ownSpans: [],
    unknownTypes: newCounts(),
    malformed: 0,
  }),
  step(s, rec: AnyRecord) {
    if (rec.kind === "malformed") {
      s.malformed += 1;
      return;
    }
    bump(s.recordTypes, rec.type);
    bump(s.chains, rec.chain);
    if (rec.kind === "unknown") bump(s.unknownTypes, rec.type);
    if (rec.kind === "attachment") bump(s.attachmentKinds, rec.attachmentType);
    if (rec.kind === "system") bump(s.systemSubtypes, rec.subtype ?? "(none)");
    if (rec.kind === "progress") bump(s.progressTypes, rec.dataType ?? "(none)");
    if (rec.kind === "assistant") bump(s.models, rec.model ?? "(none)");
    bump(s.versions, rec.version);
    bump(s.entrypoints, typeof rec.raw.entrypoint === "string" ? rec.raw.entrypoint : undefined);
    bump(s.sessionIds, rec.sessionId);
    if (typeof rec.raw.session_id === "string") s.snakeCaseSessionIds += 1;
    bump(s.cwds, rec.cwd);
    if (rec.isSidechain) s.sidechainRecords += 1;
    const t = rec.timestamp;
    if (t) {
      if (s.firstTimestamp === null || t < s.firstTimestamp) s.firstTimestamp = t;
      if (s.lastTimestamp === null || t > s.lastTimestamp) s.lastTimestamp = t;
      if (ownSessionChain(rec.chain)) {
        let span = s.ownSpans.at(-1);
        if (span?.file !== rec.pos.file) span = s.ownSpans.find((x) => x.file === rec.pos.file);
        if (span === undefined) s.ownSpans.push((span = { file: rec.pos.file, first: null, last: null }));
        widen(span, t);
      }
    }
  },
  finish: (s) => {
    const out: InventoryDoc = s;
    for (const f of COUNT_FACETS) {
      const o = otherNames(s[f]);
      if (o !== undefined) out[`${f}Other`] = o;
    }
    return out;
  },
};

function widen(span: { first: string | null; last: string | null }, t: string): void {
  if (span.first === null || t < span.first) span.first = t;
  if (span.last === null || t > span.last) span.last = t;
}

/**
 * A session's time span, one rule for `sessions`, the `--since`/`--until` filters and export's `sessions`
 * table: the first and last time of its own records in its main file (copies of another session left out,
 * subagent files not read); for an orphan (no main file), of its subagent files.
 */
export function sessionSpan(spans: readonly FileSpan[], mainFile: string | null): { first: string | null; last: string | null } {
  const out = { first: null as string | null, last: null as string | null };
  for (const x of spans) {
    if (mainFile !== null && x.file !== mainFile) continue;
    if (x.first !== null) widen(out, x.first);
    if (x.last !== null) widen(out, x.last);
  }
  return out;
}

/** What a `sessions` row takes from the inventory: the most common cwd, the versions, the first and last times. */
export interface SessionGlance {
  /** The cwd most records name (of equal counts, the first in `inventoryAnalysis`'s `cwds`); null if none does. */
  cwd: string | null;
  /** The keys of `inventoryAnalysis`'s `versions`, in numeric-aware order. */
  versions: string[];
  firstTimestamp: string | null;
  lastTimestamp: string | null;
}

interface GlanceState {
  cwds: Map<string, number>;
  versions: Map<string, number>;
  firstTimestamp: string | null;
  lastTimestamp: string | null;
}

/**
 * `inventoryAnalysis` cut down to what `sessions` shows, counting in Maps: over 20,000 sessions the full
 * inventory's counts, a plain object per kind keyed by values like session ids (a new hidden class for
 * every new key), cost more than the rest of the counting. A single value is the answer as it stands;
 * more than one is replayed into a Counts the way `inventoryAnalysis` counts, so ties, key order, odd keys
 * (`__proto__`, `constructor`) and the names past the cap come out the same.
 */
export const sessionGlanceAnalysis: Analysis<GlanceState, SessionGlance> = {
  init: () => ({ cwds: new Map(), versions: new Map(), firstTimestamp: null, lastTimestamp: null }),
  step(s, rec: AnyRecord) {
    if (rec.kind === "malformed") return;
    tally(s.versions, rec.version);
    tally(s.cwds, rec.cwd);
    const t = rec.timestamp;
    // Its own session's records only (sessionSpan): a resumed file's copies carry the earlier session's times.
    if (t && ownSessionChain(rec.chain)) {
      if (s.firstTimestamp === null || t < s.firstTimestamp) s.firstTimestamp = t;
      if (s.lastTimestamp === null || t > s.lastTimestamp) s.lastTimestamp = t;
    }
  },
  finish: (s) => ({
    cwd: mostCommon(s.cwds),
    versions: keysOf(s.versions).sort((a, b) => a.localeCompare(b, "en", { numeric: true })),
    firstTimestamp: s.firstTimestamp,
    lastTimestamp: s.lastTimestamp,
  }),
};

const tally = (m: Map<string, number>, k: string | undefined) => {
  if (k !== undefined) m.set(k, (m.get(k) ?? 0) + 1);
};

/** The one key of a Map of one key (what the counting object would say), else undefined. */
const single = (m: Map<string, number>): string | undefined => (m.size === 1 ? (m.keys().next().value as string) : undefined);

function mostCommon(m: Map<string, number>): string | null {
  if (m.size === 0) return null;
  return single(m) ?? Object.entries(replay(m)).sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

function keysOf(m: Map<string, number>): string[] {
  if (m.size === 0) return [];
  const k = single(m);
  return k !== undefined ? [k] : Object.keys(replay(m));
}

function replay(m: Map<string, number>): Counts {
  const c = newCounts();
  for (const [k, n] of m) bump(c, k, n);
  return c;
}
