import { Fanout, type AnyAnalysis, type ResultsOf } from "../analyses/analysis.js";
import { countMalformed, countParsed, emptyHealth, type Health } from "../records/health.js";
import type { Pos } from "../records/pos.js";
import type { Source } from "../records/source.js";
import { readChunks, type InputFile, type ReadOptions } from "../sources/input.js";

export interface RunnerOptions extends ReadOptions {
  /** Called as chunks arrive with the bytes read so far of that input (progress display). */
  onProgress?: (file: string, bytes: number) => void;
  /** Lines longer than this are scanned as they stream (records/transcript-source.ts STREAM_LINE_BYTES); tests lower it. */
  streamLineBytes?: number;
}

/**
 * The one reader loop: streams `input` (hashing it), hands the bytes to its Source and yields every
 * record but blank lines, counting this input's health in `health` on the way. Physical lines are
 * counted here on the bytes, the same way for every kind; the input is read to its end even when the
 * Source stops early (a JSON array broken half-way), so lines, bytes and sha256 cover the whole file.
 */
export async function* readRecords<R extends { kind: string; pos: Pos }>(
  input: InputFile,
  source: Source<R>,
  health: Health,
  opts: RunnerOptions = {},
): AsyncGenerator<R> {
  const it = readChunks(input, opts)[Symbol.asyncIterator]();
  let bytes = 0;
  let last = 0x0a;
  const tally = (c: Buffer) => {
    for (let i = c.indexOf(0x0a); i >= 0; i = c.indexOf(0x0a, i + 1)) health.lines += 1;
    if (c.length > 0) last = c[c.length - 1]!;
    bytes += c.length;
    opts.onProgress?.(input.path, bytes);
  };
  // The Source may stop pulling; this view of the stream does not close it, so the rest can be drained.
  const chunks: AsyncIterable<Buffer> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const r = await it.next();
        if (!r.done) tally(r.value);
        return r;
      },
      return: async () => ({ done: true, value: undefined }),
    }),
  };
  for await (const rec of source.records(chunks, {
    file: input.path,
    chain: input.chain,
    sessionId: input.sessionId,
    streamLineBytes: opts.streamLineBytes,
  })) {
    if (rec.kind === "blank") health.blankLines += 1;
    else {
      const r = rec as R;
      if (r.kind === "malformed") countMalformed(health, r as unknown as { pos: Pos; reason: string; excerpt: string });
      else countParsed(health, r.pos, source.facts(r));
      yield r;
    }
  }
  for (let r = await it.next(); !r.done; r = await it.next()) tally(r.value);
  if (last !== 0x0a) health.lines += 1;
}

/** One input's share of a pass: the file and its own health. */
export interface InputPass {
  input: InputFile;
  health: Health;
}

/** Reads each input through its Source, in order, and feeds every record to every analysis: one pass, health per input. */
export async function runPass<R extends { kind: string; pos: Pos }, T extends Record<string, AnyAnalysis<R>>>(
  inputs: Array<{ input: InputFile; source: Source<R> }>,
  analyses: T,
  opts: RunnerOptions = {},
): Promise<{ results: ResultsOf<T>; inputs: InputPass[] }> {
  const fan = new Fanout<R, T>(analyses);
  const passes: InputPass[] = [];
  for (const { input, source } of inputs) {
    const health = emptyHealth();
    for await (const rec of readRecords(input, source, health, opts)) fan.step(rec);
    passes.push({ input, health });
  }
  return { results: fan.finish(), inputs: passes };
}

/** `runPass` over one input. */
export async function runOne<R extends { kind: string; pos: Pos }, T extends Record<string, AnyAnalysis<R>>>(
  input: InputFile,
  source: Source<R>,
  analyses: T,
  opts: RunnerOptions = {},
): Promise<{ results: ResultsOf<T>; health: Health }> {
  const { results, inputs } = await runPass([{ input, source }], analyses, opts);
  return { results, health: inputs[0]!.health };
}
