/**
 * Rows of every chain share one sequence number, in the order they were opened. A run is a stretch of
 * consecutive sequence numbers that are consecutive rows of one chain, so a sequence number maps back to
 * its chain and row index with one binary search and no per-row entry. `requests.ts` labels copies with it
 * and `session-requests.ts` counts them with it; sharing it keeps the two counts equal.
 */
export interface Run<C> {
  seq: number;
  chain: C;
  index: number;
}

/** What the lookup reads of a chain: its open rows, oldest first, with consecutive indexes. */
export interface RunChain {
  open: ReadonlyArray<{ index: number; messageId: string | null | undefined }>;
}

/** Row `index` of `chain` took sequence number `seq`: extend the last run or start one. */
export function noteRun<C>(runs: Run<C>[], seq: number, chain: C, index: number): void {
  const run = runs.at(-1);
  if (!run || run.chain !== chain || run.index + (seq - run.seq) !== index) runs.push({ seq, chain, index });
}

/**
 * The chain and index of the row numbered `seq`, or null when that row is still open and its id is not
 * `id`: the two ids only share a hash key (analyses/id-set.ts). A closed row's id is not kept; its key is
 * trusted.
 */
export function rowOfSeq<C extends RunChain>(runs: readonly Run<C>[], seq: number, id: string): { chain: C; index: number } | null {
  let lo = 0;
  let hi = runs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (runs[mid]!.seq <= seq) lo = mid;
    else hi = mid - 1;
  }
  const run = runs[lo]!;
  const index = run.index + (seq - run.seq);
  const open = run.chain.open;
  const at = index - (open[0]?.index ?? Infinity);
  if (at >= 0 && at < open.length && open[at]!.messageId !== id) return null;
  return { chain: run.chain, index };
}
