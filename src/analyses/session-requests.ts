import type { AnyRecord } from "../records/transcript.js";
import type { Analysis } from "./analysis.js";
import { IdSet } from "./id-set.js";
import { REQUEST_WINDOW } from "./requests.js";
import { touchChain } from "./open-chains.js";
import { noteRun, rowOfSeq, type Run } from "./row-runs.js";

/** An open row as far as counting needs it: its number in its chain and its message id. */
interface OpenRow {
  index: number;
  messageId: string | undefined;
}

interface ChainCount {
  rows: number;
  /** Rows that are no copy of an earlier one: `requestsAnalysis`'s `totals[].requests`. */
  requests: number;
  open: OpenRow[];
  openKeys: string[];
  byKey: Map<string, OpenRow>;
}

interface State {
  chains: Map<string, ChainCount>;
  active: ChainCount | undefined;
  recent: ChainCount[];
  seen: IdSet;
  seq: number;
  runs: Run<ChainCount>[];
}

/**
 * `requestsAnalysis`'s request count of the main chain (`totals.find(chain main).requests`, 0 when it has
 * none), without the rows: over 20,000 small sessions the rows, their spool, totals, the Task join and their
 * objects cost `sessions` more than the count it shows. It walks the same steps in the same order: a row per
 * message key not open in its chain (window of REQUEST_WINDOW rows, in the OPEN_CHAINS most recently active
 * chains, open-chains.ts), and a row counts unless its message id was seen before (the same IdSet, the same check of rows
 * still open). test/analyses/session-requests.test.ts holds the two equal.
 */
export const sessionRequestsAnalysis: Analysis<State, number> = {
  init: () => ({ chains: new Map(), active: undefined, recent: [], seen: new IdSet(), seq: 0, runs: [] }),
  step(s, rec: AnyRecord) {
    if (rec.kind === "malformed") return;
    let c = s.chains.get(rec.chain);
    if (!c) {
      c = { rows: 0, requests: 0, open: [], openKeys: [], byKey: new Map() };
      s.chains.set(rec.chain, c);
    }
    if (s.active !== c) {
      const left = touchChain(s.recent, c);
      if (left) closeAll(left);
      s.active = c;
    }
    if (rec.kind !== "assistant" || rec.isApiError || rec.model === "<synthetic>" || rec.usage === undefined) return;
    const key = rec.messageId ?? rec.requestId ?? rec.uuid ?? `${rec.pos.file}:${rec.pos.line}`;
    const newest = c.openKeys.length - 1;
    if (newest >= 0 && c.openKeys[newest] === key) return;
    if (c.byKey.has(key)) return;
    const row: OpenRow = { index: c.rows + 1, messageId: rec.messageId };
    c.rows += 1;
    const seq = s.seq++;
    noteRun(s.runs, seq, c, row.index);
    let copy = false;
    if (rec.messageId) {
      const first = s.seen.getOrAdd(rec.messageId, seq);
      if (first !== undefined) copy = rowOfSeq(s.runs, first, rec.messageId) !== null;
    }
    if (!copy) c.requests += 1;
    c.byKey.set(key, row);
    c.open.push(row);
    c.openKeys.push(key);
    if (c.open.length > REQUEST_WINDOW) closeOldest(c);
  },
  finish: (s) => s.chains.get("main")?.requests ?? 0,
};

function closeOldest(c: ChainCount): void {
  c.open.shift();
  c.byKey.delete(c.openKeys.shift()!);
}

function closeAll(c: ChainCount): void {
  while (c.open.length) closeOldest(c);
}
