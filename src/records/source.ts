import { LineSplitter, linePieces, type LineStream, type RawLine } from "../sources/lines.js";
import { collectAfterHugeLine, HUGE_LINE_BYTES } from "../sources/memory.js";
import type { RecordFacts } from "./health.js";
import type { LineDamage } from "./json.js";
import type { Pos } from "./pos.js";

/**
 * Every kind of evidence ccforensics reads. `tools-list` is listed in the envelope's `inputs` as
 * `rpc-log` (CONTRACT.md fixes the kinds there); see `inputKindOf`.
 */
export type EvidenceKind = "transcript" | "subagent-transcript" | "debug-log" | "rpc-log" | "stream-json" | "tools-list" | "tool-result";

/** A line that is not a record of its kind: counted in health, listed, and a `--strict` failure. */
export interface MalformedLine {
  kind: "malformed";
  pos: Pos;
  reason: string;
  excerpt: string;
}

/** An empty or whitespace-only line: counted in health, never handed to an analysis. */
export interface BlankLine {
  kind: "blank";
  pos: Pos;
}

/**
 * Damage found outside every record: a crash's NUL run before or after the values of a `claude -p` output
 * when no message is there to carry it (`[]`, or a last element that is malformed). Counted in health's
 * `damaged` like a record's damage (`RecordFacts.damaged`), never handed to an analysis.
 */
export interface DamageNote {
  kind: "damage";
  pos: Pos;
  damage: readonly LineDamage[];
}

/**
 * The head an input is recognised by, without a crash remnant that may open it: NUL bytes, whitespace (a
 * BOM among it) between them. claude -p output's and a transcript's `recognise` look past it, as their readers
 * skip it (a debug log's strips its own; a message log's matches anywhere in a line); a head that opens with
 * no NUL is given back as it is. A run longer than the head leaves nothing to recognise.
 */
export function pastCrashRemnant(head: string): string {
  const run = /^[\0\s]+/.exec(head);
  return run && run[0].includes("\0") ? head.slice(run[0].length) : head;
}

/** What a Source is told about one input besides its bytes. */
export interface SourceInput {
  /** The path as given, "-" for stdin: every record's `pos.file`. */
  file: string;
  /** The chain the records belong to ("main" or an agent id); transcripts only. */
  chain?: string;
  /** The session the input belongs to, when its name or its parent says so (transcripts: records/chains.ts). */
  sessionId?: string;
  /** Lines longer than this are scanned as they stream instead of held (transcripts: records/stream-scan.ts); tests lower it. */
  streamLineBytes?: number;
}

/**
 * One evidence kind: how to recognise it and how its bytes become records. A Source does no I/O;
 * the runner (src/pipeline/runner.ts) reads the input, counts its lines and keeps its health.
 * `R` includes the kind's own malformed record, so malformed lines reach the analyses in file order.
 */
export interface Source<R extends { kind: string; pos: Pos }> {
  readonly kind: EvidenceKind;
  /** Whether the first bytes of an input (up to 4 KB, decoded as UTF-8) look like this kind. */
  recognise(head: string): boolean;
  /**
   * The input's records in order; blank lines come out as `BlankLine`. `chunks` may also be a plain
   * Iterable (a file, read synchronously): a Source may then answer with a plain Iterable, as
   * `decodeLines` does, and the runner takes the records without a promise each.
   */
  records(
    chunks: AsyncIterable<Buffer>,
    input: SourceInput,
  ): AsyncIterable<R | BlankLine | DamageNote> | Iterable<R | BlankLine | DamageNote>;
  /** What a parsed record adds to health: an unknown `type`, invalid values, a would-be request that is none. */
  facts(rec: R): RecordFacts | undefined;
}

/** Turns physical lines into records for one input; may hold an entry open across lines (debug logs). */
export interface LineDecoder<R> {
  line(raw: RawLine, out: Array<R | BlankLine>): void;
  end(out: Array<R | BlankLine>): void;
  /** Where lines too long to hold go instead (RawLine.streamed then carries the result). */
  stream?: LineStream;
}

/**
 * Line feeds a line Source counts for the runner (pipeline/runner.ts), whose chunks carry this as
 * `lineFeeds`: the splitter finds every LF anyway, and a second `indexOf` pass over every chunk cost the
 * runner ~10 ms of 200 MB. While `taken`, every chunk the runner hands out is split at once and its LFs
 * are added to `count`; the Source gives the count back (`taken` false) when it stops, so chunks drained
 * after it are counted by the runner as before.
 */
export interface LineFeeds {
  count: number;
  taken: boolean;
}

const feedsOf = (chunks: object): LineFeeds | undefined => (chunks as { lineFeeds?: LineFeeds }).lineFeeds;

/**
 * `Source.records` for the line-based kinds: split the chunks, hand each physical line to a fresh decoder.
 * Chunks that can be taken synchronously give records that can be too (and still asynchronously).
 */
export function decodeLines<R>(
  chunks: AsyncIterable<Buffer>,
  decoder: LineDecoder<R>,
  maxLineBytes?: number,
): AsyncIterable<R | BlankLine> | Iterable<R | BlankLine> {
  if (!(Symbol.iterator in chunks)) return decodeAsync(chunks, decoder, maxLineBytes);
  const sync = () => decodeSync(chunks as unknown as Iterable<Buffer>, decoder, maxLineBytes);
  return {
    [Symbol.iterator]: sync,
    async *[Symbol.asyncIterator]() {
      yield* sync();
    },
  };
}

// The two loops below are one loop, sync and async: a huge line's records are handed on before the
// collection after it, so its strings are garbage by then and memory stays bounded by one huge line.

// A chunk is split as soon as it is taken (nothing may run between the two while the LFs are counted here).

function* decodeSync<R>(chunks: Iterable<Buffer>, decoder: LineDecoder<R>, maxLineBytes?: number): Generator<R | BlankLine> {
  const splitter = new LineSplitter(maxLineBytes, decoder.stream);
  const feeds = feedsOf(chunks);
  if (feeds) feeds.taken = true;
  try {
    for (const chunk of chunks) yield* chunkRecords(splitter, chunk, feeds, decoder);
    yield* endRecords(splitter, decoder);
  } finally {
    if (feeds) feeds.taken = false;
  }
}

async function* decodeAsync<R>(
  chunks: AsyncIterable<Buffer>,
  decoder: LineDecoder<R>,
  maxLineBytes?: number,
): AsyncGenerator<R | BlankLine> {
  const splitter = new LineSplitter(maxLineBytes, decoder.stream);
  const feeds = feedsOf(chunks);
  if (feeds) feeds.taken = true;
  try {
    for await (const chunk of chunks) yield* chunkRecords(splitter, chunk, feeds, decoder);
    yield* endRecords(splitter, decoder);
  } finally {
    if (feeds) feeds.taken = false;
  }
}

/**
 * The records of one chunk, split a piece at a time (sources/lines.ts linePieces). Stopped in the middle,
 * the LFs of the pieces not split yet are counted still: the runner counts only the chunks after this one.
 */
function* chunkRecords<R>(
  splitter: LineSplitter,
  chunk: Buffer,
  feeds: LineFeeds | undefined,
  decoder: LineDecoder<R>,
): Generator<R | BlankLine> {
  let splitTo = 0;
  try {
    for (const piece of linePieces(chunk)) {
      const lines = split(splitter, piece, feeds);
      splitTo += piece.length;
      yield* lineRecords(lines, decoder);
    }
  } finally {
    if (feeds && splitTo < chunk.length)
      for (let i = chunk.indexOf(0x0a, splitTo); i >= 0; i = chunk.indexOf(0x0a, i + 1)) feeds.count += 1;
  }
}

/** The lines `chunk` completes; every LF in it ends one, so their number is the chunk's LF count. */
function split(splitter: LineSplitter, chunk: Buffer, feeds: LineFeeds | undefined): RawLine[] {
  const lines = splitter.push(chunk, []);
  if (feeds) feeds.count += lines.length;
  return lines;
}

/** The records of the lines one chunk completes, a line at a time (the sync and async paths share it). */
function* lineRecords<R>(lines: RawLine[], decoder: LineDecoder<R>): Generator<R | BlankLine> {
  const out: Array<R | BlankLine> = [];
  for (const raw of lines) {
    decoder.line(raw, out);
    yield* out;
    out.length = 0;
    if (raw.bytes >= HUGE_LINE_BYTES) collectAfterHugeLine();
  }
}

/** The last, unterminated line and whatever the decoder still holds. */
function* endRecords<R>(splitter: LineSplitter, decoder: LineDecoder<R>): Generator<R | BlankLine> {
  const out: Array<R | BlankLine> = [];
  for (const raw of splitter.end([])) decoder.line(raw, out);
  decoder.end(out);
  yield* out;
}

export const tooLongLine = (pos: Pos, raw: RawLine): MalformedLine => ({
  kind: "malformed",
  pos,
  reason: `line of ${raw.bytes} bytes is longer than a string can hold`,
  excerpt: "",
});
