import type { AnyAnalysis, ResultsOf } from "../analyses/analysis.js";
import type { RequestsResult } from "../analyses/requests.js";
import { addInvalid, emptyHealth, type Health } from "../records/health.js";
import { subagentTranscriptSource, transcriptSource } from "../records/transcript-source.js";
import type { AnyRecord } from "../records/transcript.js";
import type { InputFile } from "../sources/input.js";
import type { Source } from "../records/source.js";
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
  const sources = inputs.map((input) => {
    const source = input.kind === "subagent-transcript" ? subagentTranscriptSource : transcriptSource;
    return { input, source: input.path === "-" && input.chain === "main" ? labelledByRecords(input, source) : source };
  });
  return runPass(sources, analyses, opts);
}

/** An agent id fit to be a chain label, as a subagent file's name gives one (`agent-<id>.jsonl`). */
const AGENT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * stdin has no file name to say whose chain it is, so it starts as `main`; its records say it. When the
 * first record that names a session is a subagent's (`isSidechain` and an `agentId`: a subagent file
 * piped in, `cat subagents/agent-x.jsonl | ccforensics requests -`), the input is labelled as that file
 * would be read from disk: kind `subagent-transcript`, chain its agent id. Its records are split into
 * chains as before (records/chains.ts); only the input's label changes.
 */
function labelledByRecords(input: InputFile, source: Source<AnyRecord>): Source<AnyRecord> {
  return {
    ...source,
    records: (chunks, into) => {
      const inner = source.records(chunks, into);
      let decided = false;
      const look = (rec: AnyRecord): void => {
        if (decided || rec.kind === "malformed" || rec.sessionId === undefined) return;
        decided = true;
        if (rec.isSidechain && rec.agentId !== undefined && AGENT_ID.test(rec.agentId) && rec.chain === rec.agentId) {
          input.kind = "subagent-transcript";
          input.chain = rec.agentId;
        }
      };
      return (async function* () {
        for await (const rec of inner as AsyncIterable<AnyRecord>) {
          look(rec);
          yield rec;
        }
      })();
    },
  };
}

/** Health found only once the pass is done: request totals past 2^53 − 1 show up when the requests are summed. */
export function derivedHealth(results: object): Health {
  const h = emptyHealth();
  const requests = (results as { requests?: RequestsResult }).requests;
  if (requests?.overflows.length) addInvalid(h, requests.overflows);
  return h;
}
