import type { ChainSource, ChainTotals, RequestRow, TotalOverflow } from "./request-row.js";

const SUMMED = ["inputTokens", "cacheCreationInputTokens", "cacheReadInputTokens", "outputTokens", "totalInputTokens"] as const;
type Summed = (typeof SUMMED)[number];

/**
 * A chain's totals, summed row by row as rows become final, so no row has to stay for the end. The
 * same figures as summing the whole list: duplicates left out, unknown values skipped, and a sum that
 * would pass 2^53 − 1 becomes null, named at the row that pushed it over.
 */
export class TotalsAccumulator {
  private all = 0;
  private requests = 0;
  private readonly sums: Array<number | null> = SUMMED.map(() => 0);
  private readonly overflow: Array<TotalOverflow | undefined> = SUMMED.map(() => undefined);
  private first: number | null = null;
  private last: number | null = null;
  private max: number | null = null;
  private placeholders = 0;

  constructor(private readonly chain: string) {}

  add(r: RequestRow): void {
    this.all += 1;
    if (r.duplicateOf !== null) return;
    this.requests += 1;
    for (let i = 0; i < SUMMED.length; i++) this.sum(i, SUMMED[i]!, r);
    const t = r.totalInputTokens;
    if (this.requests === 1) this.first = t;
    this.last = t;
    if (t !== null && (this.max === null || t > this.max)) this.max = t;
    if (r.outputPlaceholder) this.placeholders += 1;
  }

  /** Overflows in field order, as a pass over the whole list would find them. */
  overflows(): TotalOverflow[] {
    return this.overflow.filter((o): o is TotalOverflow => o !== undefined);
  }

  totals(counts: { source: ChainSource; synthetic: number; apiErrors: number; notRequests: number; compactions: number }): ChainTotals {
    const [inputTokens, cacheCreationInputTokens, cacheReadInputTokens, outputTokens, totalInputTokens] = this.sums;
    return {
      chain: this.chain,
      source: counts.source,
      requests: this.requests,
      inputTokens: inputTokens ?? null,
      cacheCreationInputTokens: cacheCreationInputTokens ?? null,
      cacheReadInputTokens: cacheReadInputTokens ?? null,
      outputTokens: outputTokens ?? null,
      totalInputTokens: totalInputTokens ?? null,
      firstTotalInputTokens: this.first,
      lastTotalInputTokens: this.last,
      maxTotalInputTokens: this.max,
      outputPlaceholders: this.placeholders,
      duplicates: this.all - this.requests,
      synthetic: counts.synthetic,
      apiErrors: counts.apiErrors,
      notRequests: counts.notRequests,
      compactions: counts.compactions,
      outputFromParent: 0,
      task: null,
    };
  }

  private sum(i: number, field: Summed, r: RequestRow): void {
    const n = this.sums[i];
    const v = r[field];
    if (n === null || n === undefined || v === null) return;
    if (!Number.isSafeInteger(n + v)) {
      this.overflow[i] = { file: r.file, line: r.line, field: `totals.${field} (chain ${this.chain})`, value: "sum passes 2^53 − 1" };
      this.sums[i] = null;
      return;
    }
    this.sums[i] = n + v;
  }
}
