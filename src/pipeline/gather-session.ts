import { headlessEmpty, headlessEmptyText, headlessSessionId } from "../analyses/headless-run.js";
import type { TranscriptEvidence, TranscriptResults } from "../assemble/evidence.js";
import type { SessionEvidence } from "../assemble/session.js";
import { UsageError } from "../errors.js";
import { KNOWN_TYPES } from "../records/streamjson.js";
import { evidenceInput } from "../sources/evidence.js";
import { readHeadlessEvidence, readRpcEvidence, readToolsList } from "./evidence.js";
import {
  gatherBaseline,
  gatherDebug,
  gatherNamedSession,
  gatherNoSession,
  gatherSaved,
  gatherTranscripts,
  runLabel,
  type GatherOptions,
} from "./gather.js";

export interface SessionGatherOptions extends GatherOptions {
  rpcLog?: string;
  streamJson?: string;
  /** `--tools FILE`: a tools/list response, for the servers whose message log is not given. */
  tools?: string;
}

/**
 * A target's transcripts together with its `claude -p` output (`--stream-json`): with no target the run's
 * session id finds the transcript, and a session in no config dir searched is an empty pass
 * (`transcriptMissing`), so the run itself is still evidence ("-" still reads stdin).
 */
export async function gatherWithRun<K extends keyof TranscriptResults>(target: string | undefined, opts: SessionGatherOptions, keys: K[]) {
  const headless = opts.streamJson
    ? await readHeadlessEvidence(evidenceInput(opts.streamJson, "stream-json"), { stdin: opts.stdin })
    : null;
  if (headless && target === undefined) {
    const id = headlessSessionId(headless.result);
    // Empty (or whitespace only): a warning, not a malformed line; there is no session id to find.
    if (headlessEmpty(headless.result, headless.health)) {
      const none = await gatherNoSession(opts, keys);
      const warnings = [`${opts.streamJson}: ${headlessEmptyText(headless.health)}; no session id, so no transcript was looked up`];
      return { headless, transcripts: none, transcriptMissing: true, target: undefined, warnings };
    }
    // A torn or empty output (or one with no claude -p message in it) is bad input, not a usage error:
    // health lists why (--strict fails on its malformed entries), and what it holds is still reported.
    const known = Object.keys(headless.result.types).some((k) => KNOWN_TYPES.has(k.split("/")[0]!));
    if (!id && (headless.health.malformedCount > 0 || !known)) {
      const none = await gatherNoSession(opts, keys);
      const why = headless.health.malformedCount > 0 ? "its output is malformed: see health" : "it holds no claude -p message";
      const warnings = [`${opts.streamJson}: no session id (${why}); no transcript was looked up`];
      return { headless, transcripts: none, transcriptMissing: true, target: undefined, warnings };
    }
    if (!id) throw new UsageError(`${opts.streamJson}: no session id in its init or result event; give the session as a target`);
    const named = await gatherNamedSession(id, opts, keys);
    const warnings = named.warnings.map((w) => `${opts.streamJson}: session id: ${w}`);
    const found = named.warnings.length ? undefined : id;
    return { headless, transcripts: named as TranscriptEvidence<K>, transcriptMissing: named.missing, target: found, warnings };
  }
  const warnings =
    headless && headlessEmpty(headless.result, headless.health) ? [`${opts.streamJson}: ${headlessEmptyText(headless.health)}`] : [];
  return { headless, transcripts: await gatherTranscripts(target, opts, keys), transcriptMissing: false, target, warnings };
}

/**
 * Everything ccforensics can read about one session, each file once: the `claude -p` output (whose
 * session id finds the transcript when no target is given), one pass over the transcripts with every
 * analysis side by side, the debug log (given or `<config dir>/debug/<session>.txt`), the MCP message
 * log, a tools/list response, the saved tool results and the baseline.
 */
export async function gatherSession(target: string | undefined, opts: SessionGatherOptions): Promise<SessionEvidence> {
  const {
    headless,
    transcripts,
    transcriptMissing,
    target: found,
    warnings,
  } = await gatherWithRun(target, opts, ["requests", "instructions", "outputs", "inventory", "tools"]);
  target = found;
  const debug = await gatherDebug(transcripts, opts);
  const rpc = opts.rpcLog ? await readRpcEvidence(evidenceInput(opts.rpcLog, "rpc-log"), { stdin: opts.stdin }, { sentTexts: true }) : null;
  const toolsList =
    opts.tools !== undefined
      ? await readToolsList({ ...evidenceInput(opts.tools, "rpc-log"), toolsList: true }, { stdin: opts.stdin })
      : null;
  const baseline = await gatherBaseline(opts);
  const saved = await gatherSaved(transcripts.results.outputs, transcripts, opts.verbose);
  return {
    target: target ?? "-",
    run: runLabel(target, transcripts.sessionId),
    transcripts,
    transcriptMissing,
    debug,
    headless,
    rpc,
    toolsList,
    saved,
    baseline,
    warnings,
  };
}
