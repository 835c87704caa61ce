/**
 * Byte-level line splitter. Pure: no I/O. Feed it chunks of any size; it returns every physical line
 * (blank lines included) with its 1-based number. CRLF and a leading UTF-8 BOM are stripped. A line
 * longer than `maxLineBytes` is not buffered: it comes out as `tooLong` with its length, so memory
 * stays bounded by the largest line we are willing to hold. With a `LineStream`, a line that grows past
 * `stream.at` bytes is not held either: its bytes go to a sink as they arrive (the held ones first), and
 * the line comes out with what the sink made of them in `streamed`.
 */
export interface RawLine {
  /** 1-based physical line number. */
  line: number;
  /** Line bytes without the terminator (empty for an over-long line). */
  buf: Buffer;
  /** Byte length of the line as it was in the input (without terminator). */
  bytes: number;
  /** The line exceeded `maxLineBytes` and was skipped over. */
  tooLong: boolean;
  /** The input ended without a newline after this line. */
  unterminated: boolean;
  /** What the LineStream's sink returned for a line it was fed instead of holding it. */
  streamed?: unknown;
}

/** Receives one long line's bytes in order, BOM and final CR left out. */
export interface LineSink {
  push(bytes: Buffer): void;
  end(unterminated: boolean): unknown;
}

export interface LineStream {
  /** Lines longer than this many bytes go to a sink instead of being held. */
  at: number;
  /** A sink for line `line`, whose first byte is at `offset` in the input. */
  open(line: number, offset: number): LineSink;
}

/** At most about this many bytes of a chunk are split at a time (see `linePieces`). */
export const SPLIT_PIECE = 64 * 1024;

/**
 * `chunk` in pieces of about `size` bytes, each cut just after a newline, so that no line spans two pieces
 * (a line is still one view into the chunk, never a copy). Splitting a 1 MiB chunk of one-byte lines at
 * once made a million line objects and their records live together (20 million blank lines: 770 MB);
 * a piece makes at most `size` of them.
 */
export function* linePieces(chunk: Buffer, size = SPLIT_PIECE): Generator<Buffer> {
  if (chunk.length <= size) {
    yield chunk;
    return;
  }
  let at = 0;
  while (at < chunk.length) {
    const nl = at + size < chunk.length ? chunk.indexOf(LF, at + size - 1) : -1;
    const to = nl < 0 ? chunk.length : nl + 1;
    yield chunk.subarray(at, to);
    at = to;
  }
}

/** V8 cannot hold a string longer than 2^29 - 24 UTF-16 units; a longer line can never be parsed. */
export const DEFAULT_MAX_LINE_BYTES = 0x1fffffe8;

const LF = 0x0a;
const CR = 0x0d;
const EMPTY = Buffer.alloc(0);
const CR_BYTE = Buffer.from([CR]);

export class LineSplitter {
  private parts: Buffer[] = [];
  private partBytes = 0;
  private skipping = false;
  private lineNo = 0;
  // Input offset of the current line's first byte, and of the chunk being split.
  private lineStart = 0;
  private consumed = 0;
  private sink: LineSink | null = null;
  // A CR that may be the line's last byte: fed only once more bytes follow it.
  private heldCR = false;
  private bomCut = 0;

  constructor(
    private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES,
    private readonly stream?: LineStream,
  ) {}

  /** Splits `chunk` and appends the lines it completed to `out`. Stream chunks are never reused by Node, so lines may share their memory. */
  push(chunk: Buffer, out: RawLine[] = []): RawLine[] {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(LF, start);
      if (nl < 0) {
        this.hold(chunk, start, chunk.length);
        this.consumed += chunk.length;
        return out;
      }
      if (this.partBytes === 0 && !this.skipping && !this.sink && !(this.stream && nl - start > this.stream.at)) {
        out.push(this.make(chunk.subarray(start, nl), nl - start, false, false));
      } else {
        this.hold(chunk, start, nl);
        out.push(this.take(false));
      }
      start = nl + 1;
      this.lineStart = this.consumed + start;
    }
  }

  /** Flushes the last line when the input did not end with a newline. */
  end(out: RawLine[] = []): RawLine[] {
    if (this.partBytes > 0 || this.skipping || this.sink) out.push(this.take(true));
    return out;
  }

  private hold(chunk: Buffer, from: number, to: number): void {
    const n = to - from;
    if (n <= 0) return;
    if (this.sink) {
      this.feed(chunk.subarray(from, to));
      this.partBytes += n;
      return;
    }
    if (this.stream && this.partBytes + n > this.stream.at) {
      this.parts.push(chunk.subarray(from, to));
      this.partBytes += n;
      this.startStream();
      return;
    }
    if (!this.skipping && this.partBytes + n > this.maxLineBytes) {
      this.skipping = true;
      this.parts = [];
    }
    if (!this.skipping) this.parts.push(chunk.subarray(from, to));
    this.partBytes += n;
  }

  /** Hands the held bytes to a new sink; from now on the line's bytes go there as they come. */
  private startStream(): void {
    const held = this.parts;
    this.parts = [];
    // The first line's BOM is no part of it (make() cuts it from held lines the same way).
    const first = this.lineNo === 0 && held.length > 0 ? Buffer.concat(held.slice(0, 3)).subarray(0, 3) : EMPTY;
    this.bomCut = first.length === 3 && first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf ? 3 : 0;
    this.sink = this.stream!.open(this.lineNo + 1, this.lineStart + this.bomCut);
    let skip = this.bomCut;
    for (const p of held) {
      const q = skip > 0 ? p.subarray(Math.min(skip, p.length)) : p;
      skip -= p.length - q.length;
      if (q.length > 0) this.feed(q);
    }
  }

  private feed(piece: Buffer): void {
    if (this.heldCR) {
      this.sink!.push(CR_BYTE);
      this.heldCR = false;
    }
    if (piece[piece.length - 1] === CR) {
      this.heldCR = true;
      piece = piece.subarray(0, piece.length - 1);
    }
    if (piece.length > 0) this.sink!.push(piece);
  }

  private take(unterminated: boolean): RawLine {
    if (this.sink) {
      const bytes = this.partBytes - (this.heldCR ? 1 : 0) - this.bomCut;
      const streamed = this.sink.end(unterminated);
      this.sink = null;
      this.heldCR = false;
      this.bomCut = 0;
      this.partBytes = 0;
      this.lineNo += 1;
      return { line: this.lineNo, buf: EMPTY, bytes, tooLong: false, unterminated, streamed };
    }
    const tooLong = this.skipping;
    const buf = tooLong ? EMPTY : this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.partBytes);
    const line = this.make(buf, this.partBytes, tooLong, unterminated);
    this.parts = [];
    this.partBytes = 0;
    this.skipping = false;
    return line;
  }

  private make(buf: Buffer, bytes: number, tooLong: boolean, unterminated: boolean): RawLine {
    this.lineNo += 1;
    if (buf.length > 0 && buf[buf.length - 1] === CR) {
      buf = buf.subarray(0, buf.length - 1);
      bytes -= 1;
    }
    if (this.lineNo === 1 && buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
      buf = buf.subarray(3);
      bytes -= 3;
    }
    return { line: this.lineNo, buf, bytes, tooLong, unterminated };
  }
}
