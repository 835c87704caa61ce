import type { HeadlessRun } from "../analyses/headless-run.js";
import type { RequestRow, RequestsResult } from "../analyses/requests.js";
import { mapRows } from "../sources/row-spool.js";

/**
 * `claude -p` writes every assistant record with stop_reason null, so each main-chain request looks like a
 * streaming placeholder. When the recorded output counts add up exactly to what the run's result(s) say
 * (`usage.output_tokens`, main model only), the counts are confirmed final: `outputSource: "claude-p-result"`.
 * Anything short of an exact match leaves the rows as read. Pure: returns new rows only when it changes them.
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
  if (sum !== expected) return requests;
  const confirm = (r: RequestRow): RequestRow =>
    r.chain === "main" && r.duplicateOf === null && r.outputSource === "placeholder"
      ? { ...r, outputSource: "claude-p-result", outputPlaceholder: false }
      : r;
  return {
    ...requests,
    requests: mapRows(requests.requests, confirm),
    totals: requests.totals.map((t) => (t.chain === "main" ? { ...t, outputPlaceholders: 0 } : t)),
  };
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
