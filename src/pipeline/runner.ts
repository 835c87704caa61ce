import { Fanout, type AnyAnalysis, type ResultsOf } from "../analyses/analysis.js";
import { countDamaged, countMalformed, countParsed, emptyHealth, type Health } from "../records/health.js";
import type { Pos } from "../records/pos.js";
import type { BlankLine, DamageNote, LineFeeds, Source } from "../records/source.js";
import { readChunks, readFileChunks, type InputFile, type ReadAhead, type ReadOptions } from "../sources/input.js";

export interface RunnerOptions extends ReadOptions {
  /** Called as chunks arrive with the bytes read so far of that input (progress display). */
  onProgress?: (file: string, bytes: number) => void;
  /** Lines longer than this are scanned as they stream (records/transcript-source.ts STREAM_LINE_BYTES); tests lower it. */
  streamLineBytes?: number;
  /** A file's bytes when they were read ahead (sources/prefetch.ts); undefined: the runner reads it. */
  readAhead?: (path: string) => Promise<ReadAhead | undefined>;
}

type Sink<R> = (rec: R) => void;

/**
 * The one reader loop: streams `input` (hashing it), hands the bytes to its Source and passes every
 * record but blank lines to `sink`, counting this input's health on the way. Physical lines are
 * the LFs of the bytes, the same way for every kind (a line Source counts those of the chunks it splits,
 * the rest are counted here); the input is read to its end even when the
 * Source stops early (a JSON array broken half-way), so lines, bytes and sha256 cover the whole file.
 * A file is read synchronously, and a line Source then answers synchronously too (records/source.ts
 * `decodeLines`): no promise per chunk or per record, which cost a run of `requests` about a tenth.
 */
export async function readInto<R extends { kind: string; pos: Pos }>(
  input: InputFile,
  source: Source<R>,
  health: Health,
  sink: Sink<R>,
  opts: RunnerOptions = {},
): Promise<void> {
  let bytes = 0;
  let last = 0x0a;
  let pause = PAUSE_EVERY;
  // A line Source counts the LFs of the chunks it splits (records/source.ts LineFeeds); others are counted here.
  const lineFeeds: LineFeeds = { count: 0, taken: false };
  const tally = (c: Buffer) => {
    if (!lineFeeds.taken) for (let i = c.indexOf(0x0a); i >= 0; i = c.indexOf(0x0a, i + 1)) health.lines += 1;
    if (c.length > 0) last = c[c.length - 1]!;
    bytes += c.length;
    opts.onProgress?.(input.path, bytes);
  };
  const take = (rec: R | BlankLine | DamageNote) => {
    if (rec.kind === "blank") health.blankLines += 1;
    else if (rec.kind === "damage") countDamaged(health, rec.pos, (rec as DamageNote).damage);
    else {
      const r = rec as R;
      if (r.kind === "malformed") countMalformed(health, r as unknown as { pos: Pos; reason: string; excerpt: string });
      else countParsed(health, r.pos, source.facts(r));
      sink(r);
    }
  };
  const into = { file: input.path, chain: input.chain, sessionId: input.sessionId, streamLineBytes: opts.streamLineBytes };
  if (input.path === "-") {
    const it = readChunks(input, opts)[Symbol.asyncIterator]();
    // The Source may stop pulling; this view of the stream does not close it, so the rest can be drained.
    const chunks: AsyncIterable<Buffer> & { lineFeeds: LineFeeds } = {
      lineFeeds,
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          const r = await it.next();
          if (!r.done) tally(r.value);
          return r;
        },
        return: async () => ({ done: true, value: undefined }),
      }),
    };
    for await (const rec of source.records(chunks, into)) take(rec);
    for (let r = await it.next(); !r.done; r = await it.next()) tally(r.value);
  } else {
    const file = readFileChunks(input, opts.readAhead && (await opts.readAhead(input.path)));
    // A Source that takes the chunks synchronously (decodeLines) is done with each chunk's lines before
    // it asks for more, so its chunks may share one buffer; one that reads asynchronously (stream-json
    // parsers, which buffer ahead) gets fresh ones. The first to ask decides.
    let it: Generator<Buffer> | undefined;
    try {
      const next = (reused = false): IteratorResult<Buffer, undefined> => {
        const r = (it ??= file.chunks(reused)).next();
        if (!r.done) tally(r.value);
        return r as IteratorResult<Buffer, undefined>;
      };
      const done = { done: true as const, value: undefined };
      const chunks = {
        lineFeeds,
        [Symbol.iterator]: () => ({ next: () => next(true), return: () => done }),
        [Symbol.asyncIterator]: () => ({ next: async () => next(), return: async () => done }),
      };
      const records = source.records(chunks, into);
      if (isIterable(records))
        for (const rec of records) {
          take(rec);
          if (bytes >= pause) {
            // A long synchronous read would keep timers and other in-process runs waiting for seconds.
            pause = bytes + PAUSE_EVERY;
            await new Promise((r) => setImmediate(r));
          }
        }
      else for await (const rec of records) take(rec);
      while (!next().done);
    } finally {
      if (it) it.return(undefined);
      else file.abandon();
    }
    await file.finish();
  }
  health.lines += lineFeeds.count;
  if (last !== 0x0a) health.lines += 1;
}

/** How many bytes a synchronous read goes before it lets the event loop run. */
const PAUSE_EVERY = 64 << 20;

const isIterable = <T>(x: AsyncIterable<T> | Iterable<T>): x is Iterable<T> => Symbol.iterator in x;

/** `readInto` as a stream of records, for tests and callers that pull. */
export async function* readRecords<R extends { kind: string; pos: Pos }>(
  input: InputFile,
  source: Source<R>,
  health: Health,
  opts: RunnerOptions = {},
): AsyncGenerator<R> {
  const got: R[] = [];
  await readInto(input, source, health, (r) => got.push(r), opts);
  yield* got;
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
    await readInto(input, source, health, (rec) => fan.step(rec), opts);
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
