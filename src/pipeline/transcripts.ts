import { closeSync, readSync } from "node:fs";
import type { AnyAnalysis, ResultsOf } from "../analyses/analysis.js";
import type { RequestsResult } from "../analyses/requests.js";
import { addInvalid, emptyHealth, type Health } from "../records/health.js";
import { kindHint, looksLike } from "../records/sources.js";
import { subagentTranscriptSource, transcriptSource } from "../records/transcript-source.js";
import type { AnyRecord } from "../records/transcript.js";
import { openEvidenceFd } from "../sources/guard.js";
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
  const heads = new Map<InputFile, () => string>();
  const sources = inputs.map((input) => {
    let source = input.kind === "subagent-transcript" ? subagentTranscriptSource : transcriptSource;
    if (input.path === "-" && input.chain === "main") source = labelledByRecords(input, source);
    // stdin cannot be read twice, so its head is kept as it streams; a file's is read again only when needed.
    if (input.kind === "transcript" && input.path === "-") source = keepingHead(source, (head) => heads.set(input, head));
    return { input, source };
  });
  const out = await runPass(sources, analyses, opts);
  for (const pass of out.inputs) {
    if (pass.input.kind !== "transcript") continue;
    // Evidence of another kind read as a transcript leaves a trace: lines that are not records, types a
    // transcript does not have, or no record at all. Only then are its first lines looked at: keeping every
    // transcript's head as it streamed cost `sessions` 0.25 s and 70 MB over 20,000 sessions.
    if (!oddForTranscript(pass.health)) continue;
    const head = heads.get(pass.input) ?? (() => fileHead(pass.input.path));
    const like =
      head &&
      looksLike(
        head()
          .split("\n", HEAD_LINES)
          .map((l) => l.slice(0, HEAD_LINE_CHARS)),
      );
    if (like && like !== "transcript" && like !== "subagent-transcript" && kindHint(like) !== null)
      (pass.health.wrongKind ??= []).push({ file: pass.input.path, readAs: "transcript", looksLike: like });
  }
  return out;
}

/** The first HEAD_BYTES of a transcript file just read (as the pass opened it: never blocking, regular files only). */
function fileHead(path: string): string {
  let fd: number | undefined;
  try {
    fd = openEvidenceFd(path);
    const buf = Buffer.allocUnsafe(HEAD_BYTES);
    let got = 0;
    for (let n = -1; n !== 0 && got < HEAD_BYTES; got += n) n = readSync(fd, buf, got, HEAD_BYTES - got, got);
    return buf.toString("utf8", 0, got);
  } catch {
    // Gone or changed since the pass read it: nothing to say about its kind.
    return "";
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A transcript pass with a line that is not a record, a record of a type no transcript has, or no record. */
function oddForTranscript(h: Health): boolean {
  return h.malformedCount > 0 || h.records === 0 || h.unknownTypesOther !== undefined || Object.keys(h.unknownTypes).length > 0;
}

/** How much of a main transcript's start is kept to tell whether it is one (`looksLike`): bytes, lines, characters a line. */
const HEAD_BYTES = 64 * 1024;
// A pretty-printed json output names its session some lines in (a result's `session_id` is its ninth key).
const HEAD_LINES = 32;
const HEAD_LINE_CHARS = 4096;

/**
 * `source` with the first HEAD_BYTES of its input copied as they pass (the chunks may share one buffer), so a
 * `claude -p` output or debug log given as the target can be named as such after the pass (health.wrongKind).
 * The input is read once, as before: only a view of its chunks, sync and async alike, line feeds passed through.
 */
function keepingHead(source: Source<AnyRecord>, got: (head: () => string) => void): Source<AnyRecord> {
  return {
    ...source,
    records: (chunks, into) => {
      const parts: Buffer[] = [];
      let kept = 0;
      const see = (r: IteratorResult<Buffer>): IteratorResult<Buffer> => {
        if (!r.done && kept < HEAD_BYTES && r.value.length > 0) {
          const part = Buffer.from(r.value.subarray(0, HEAD_BYTES - kept));
          parts.push(part);
          kept += part.length;
        }
        return r;
      };
      got(() => Buffer.concat(parts).toString("utf8"));
      const view: AsyncIterable<Buffer> & Partial<Iterable<Buffer>> & { lineFeeds?: unknown } = {
        lineFeeds: (chunks as { lineFeeds?: unknown }).lineFeeds,
        [Symbol.asyncIterator]: () => {
          const it = chunks[Symbol.asyncIterator]();
          return {
            next: async () => see(await it.next()),
            return: async (v?: unknown) => (await it.return?.(v)) ?? { done: true, value: undefined },
          };
        },
      };
      if (Symbol.iterator in chunks) {
        const sync = chunks as unknown as Iterable<Buffer>;
        view[Symbol.iterator] = () => {
          const it = sync[Symbol.iterator]();
          return { next: () => see(it.next()), return: (v?: unknown) => it.return?.(v) ?? { done: true, value: undefined } };
        };
      }
      return source.records(view, into);
    },
  };
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
