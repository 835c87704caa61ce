import type { HeadlessRun } from "../analyses/headless-run.js";
import type { RequestRow, RequestsResult } from "../analyses/requests.js";
import { mapRows } from "../sources/row-spool.js";

/**
 * `claude -p` writes every assistant record with stop_reason null, so each main-chain request looks like a
 * streaming placeholder. When the recorded output counts add up exactly to what the run's result(s) say
 * (`usage.output_tokens`, main model only), the counts are confirmed final: `outputSource: "claude-p-result"`.
 * A run of one main request whose input side is exactly the result's takes the result's count, whatever
 * its placeholder said (CONTRACT.md: "else the `claude -p` result's"). Anything else leaves the rows as read. Pure: returns new rows only when it changes them.
 */
export function confirmHeadlessOutput(requests: RequestsResult, run: HeadlessRun | null): RequestsResult {
  const expected = resultOutputTokens(run);
  if (expected === null) return requests;
  // A claude -p run's few requests: reading them back whole is fine here.
  const main = requests.requests.toArray().filter((r) => r.chain === "main" && r.duplicateOf === null);
  if (main.length === 0 || !main.some((r) => r.outputSource === "placeholder")) return requests;
  let sum = 0;
  for (const r of main) {
    if (r.outputTokensRecorded === null) return requests;
    sum += r.outputTokensRecorded;
  }
  // One request: the result's count is its own, when the input side shows the result is of that request.
  const only = main.length === 1 && sum !== expected && inputSideMatches(main[0]!, run!) ? main[0]! : null;
  if (sum !== expected && only === null) return requests;
  const confirm = (r: RequestRow): RequestRow =>
    r.chain === "main" && r.duplicateOf === null && r.outputSource === "placeholder"
      ? {
          ...r,
          ...(only !== null && sameRow(r, only) ? { outputTokens: expected } : {}),
          outputSource: "claude-p-result",
          outputPlaceholder: false,
        }
      : r;
  return {
    ...requests,
    requests: mapRows(requests.requests, confirm),
    totals: requests.totals.map((t) =>
      t.chain === "main"
        ? {
            ...t,
            outputPlaceholders: 0,
            ...(only !== null && t.outputTokens !== null ? { outputTokens: t.outputTokens - (only.outputTokens ?? 0) + expected } : {}),
          }
        : t,
    ),
  };
}

const sameRow = (a: RequestRow, b: RequestRow) => a.chain === b.chain && a.index === b.index;

/** The run's results (summed) say exactly this request's input, cache read and cache creation counts. */
function inputSideMatches(r: RequestRow, run: HeadlessRun): boolean {
  let input = 0;
  let read = 0;
  let creation = 0;
  for (const res of run.results) {
    const u = res.usage;
    if (!u || u.inputTokens === null || u.cacheReadInputTokens === null || u.cacheCreationInputTokens === null) return false;
    input += u.inputTokens;
    read += u.cacheReadInputTokens;
    creation += u.cacheCreationInputTokens;
  }
  return r.inputTokens === input && r.cacheReadInputTokens === read && r.cacheCreationInputTokens === creation;
}

/** The output tokens over every result of the run (one per turn); null when any is unknown or there is none. */
function resultOutputTokens(run: HeadlessRun | null): number | null {
  if (!run || run.results.length === 0) return null;
  let n = 0;
  for (const res of run.results) {
    const v = res.usage?.outputTokens ?? null;
    if (v === null) return null;
    n += v;
  }
  return n;
}

/**
 * The requests of a session with its `claude -p` output: the transcripts', or the run's own events when
 * there is no transcript or it held no requests (empty stdin), then cross-checked against the result.
 */
export function pickRequests(
  transcript: RequestsResult,
  headless: { result: HeadlessRun; requests?: RequestsResult } | null,
): { requests: RequestsResult; requestsFrom: "transcript" | "claude-p-output" } {
  const stream = headless?.requests;
  const fromRun = stream !== undefined && stream.totals.length > 0 && transcript.totals.length === 0;
  return {
    requests: confirmHeadlessOutput(fromRun ? stream : transcript, headless?.result ?? null),
    requestsFrom: fromRun ? "claude-p-output" : "transcript",
  };
}
