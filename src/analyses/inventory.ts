import type { AnyRecord } from "../records/transcript.js";
import type { Analysis } from "./analysis.js";

export type Counts = Record<string, number>;

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
  unknownTypes: Counts;
  malformed: number;
}

const bump = (c: Counts, k: string | undefined) => {
  if (k !== undefined) c[k] = (c[k] ?? 0) + 1;
};

export const inventoryAnalysis: Analysis<InventoryResult, InventoryResult> = {
  init: () => ({
    recordTypes: {},
    attachmentKinds: {},
    systemSubtypes: {},
    progressTypes: {},
    versions: {},
    entrypoints: {},
    models: {},
    sessionIds: {},
    snakeCaseSessionIds: 0,
    cwds: {},
    chains: {},
    sidechainRecords: 0,
    firstTimestamp: null,
    lastTimestamp: null,
    unknownTypes: {},
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
    }
  },
  finish: (s) => s,
};
