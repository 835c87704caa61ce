import { mapRows, type RowList } from "../sources/row-spool.js";
import type { ChainTotals, RequestRow } from "./request-row.js";
import type { SubagentTask } from "./subagent-tasks.js";

/** The parts of a requests result the join reads and rebuilds. */
interface Joinable {
  requests: RowList<RequestRow>;
  totals: ChainTotals[];
  subagents: SubagentTask[];
}

/** A subagent's last request whose output the parent's Task/Agent result confirms (analyses/subagent-tasks.ts). */
export interface TaskOutputFix {
  index: number;
  outputTokens: number;
  /** What the row showed before: the file's placeholder. */
  recorded: number | null;
}

/**
 * The parent's count replaces the placeholder on each joined chain's last request, and on each leg's last of
 * a resumed subagent (`outputSource: "parent-task-result"`, `outputTokensRecorded` keeps the file's figure),
 * and the chain's totals follow. Rows stay streamed: only the fixed ones are rebuilt as they are read.
 */
export function applyTaskOutputs<T extends Joinable>(r: T, fixes: ReadonlyMap<string, readonly TaskOutputFix[]>): T {
  const task = new Map(r.subagents.filter((t) => t.chain !== null).map((t) => [t.chain!, t]));
  const totals = r.totals.map((t) => {
    const f = fixes.get(t.chain);
    const withTask = { ...t, task: task.get(t.chain) ?? null };
    if (!f) return withTask;
    const outputTokens = t.outputTokens === null ? null : f.reduce((n, x) => n - (x.recorded ?? 0) + x.outputTokens, t.outputTokens);
    return { ...withTask, outputTokens, outputPlaceholders: Math.max(0, t.outputPlaceholders - f.length), outputFromParent: f.length };
  });
  if (fixes.size === 0) return { ...r, totals };
  const fix = (row: RequestRow): RequestRow => {
    const f = row.duplicateOf === null ? fixes.get(row.chain)?.find((x) => x.index === row.index) : undefined;
    return f ? { ...row, outputTokens: f.outputTokens, outputSource: "parent-task-result", outputPlaceholder: false } : row;
  };
  return { ...r, requests: mapRows(r.requests, fix), totals };
}
