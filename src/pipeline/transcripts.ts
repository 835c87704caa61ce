import type { AnyAnalysis, ResultsOf } from "../analyses/analysis.js";
import type { RequestsResult } from "../analyses/requests.js";
import { addInvalid, emptyHealth, type Health } from "../records/health.js";
import { subagentTranscriptSource, transcriptSource } from "../records/transcript-source.js";
import type { AnyRecord } from "../records/transcript.js";
import type { InputFile } from "../sources/input.js";
import { runPass, type InputPass, type RunnerOptions } from "./runner.js";

/**
 * The one pass over a target's transcripts (main, then each subagent, each its own chain): every
 * physical line becomes a record, malformed ones too, and goes to every analysis in file order.
 */
export async function readTranscripts<T extends Record<string, AnyAnalysis<AnyRecord>>>(
  inputs: InputFile[],
  analyses: T,
  opts: RunnerOptions = {},
): Promise<{ results: ResultsOf<T>; inputs: InputPass[] }> {
  const sources = inputs.map((input) => ({
    input,
    source: input.kind === "subagent-transcript" ? subagentTranscriptSource : transcriptSource,
  }));
  return runPass(sources, analyses, opts);
}

/** Health found only once the pass is done: request totals past 2^53 − 1 show up when the requests are summed. */
export function derivedHealth(results: object): Health {
  const h = emptyHealth();
  const requests = (results as { requests?: RequestsResult }).requests;
  if (requests?.overflows.length) addInvalid(h, requests.overflows);
  return h;
}
