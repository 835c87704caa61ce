import type { RequestRow } from "../analyses/request-row.js";
import { formatInt } from "./int-format.js";

/** Runs listed by number in the note; the rest are counted. */
const MAX_LISTED = 10;
/** Requests of one run named by number; a longer run is named by its first and last (a hostile file's run of 100,000 made a note of 600 KB). */
const MAX_IN_RUN = 10;

/**
 * The note for back-to-back requests of one chain that carry neither `message.id` nor `requestId` and the same
 * input side (input, cache write, cache read): FORMATS.md 4.4 keys such records by uuid, so each is a request,
 * but per-block fragments of one response look exactly like this, and then the chain counts that response
 * twice or more (FORMATS.md 1.1). The rule stays; the note names them so the reader can judge. null for none.
 */
export function idlessRepeatsNote(requests: readonly RequestRow[]): string | null {
  const runs: RequestRow[][] = [];
  let prev: RequestRow | null = null;
  for (const q of requests) {
    if (q.duplicateOf !== null) continue;
    if (prev !== null && sameInputSideWithoutIds(prev, q)) {
      const last = runs[runs.length - 1];
      if (last !== undefined && last[last.length - 1] === prev) last.push(q);
      else runs.push([prev, q]);
    }
    prev = q;
  }
  if (runs.length === 0) return null;
  const listed = runs.slice(0, MAX_LISTED).map((run) => {
    const tokens = run[0]!.totalInputTokens;
    const named =
      run.length > MAX_IN_RUN
        ? `${run[0]!.index} to ${run[run.length - 1]!.index} (${formatInt(run.length)} requests)`
        : and(run.map((q) => String(q.index)));
    return `${named}${tokens === null ? "" : ` (${formatInt(tokens)} total input each)`}`;
  });
  const more = runs.length > MAX_LISTED ? `; and ${runs.length - MAX_LISTED} more such run(s)` : "";
  const extra = runs.flatMap((run) => run.slice(1));
  const tokens = extra.reduce((n, q) => n + (q.totalInputTokens ?? 0), 0);
  return (
    `requests ${listed.join("; ")}${more}: back to back with no message.id or requestId and the same input side, ` +
    `possibly one response written as several records; if so the totals count ${formatInt(extra.length)} request(s) and ` +
    `${formatInt(tokens)} input tokens too many (each is kept as a request: without an id nothing says they are one)`
  );
}

const and = (xs: string[]) => (xs.length < 2 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);

function sameInputSideWithoutIds(a: RequestRow, b: RequestRow): boolean {
  if (a.messageId !== null || a.requestId !== null || b.messageId !== null || b.requestId !== null) return false;
  if (a.inputTokens === null || a.cacheCreationInputTokens === null || a.cacheReadInputTokens === null) return false;
  return (
    a.inputTokens === b.inputTokens &&
    a.cacheCreationInputTokens === b.cacheCreationInputTokens &&
    a.cacheReadInputTokens === b.cacheReadInputTokens
  );
}
