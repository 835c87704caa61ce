/**
 * Byte-level line splitter. Pure: no I/O. Feed it chunks of any size; it returns every physical line
 * (blank lines included) with its 1-based number. CRLF and a leading UTF-8 BOM are stripped. A line
 * longer than `maxLineBytes` is not buffered: it comes out as `tooLong` with its length, so memory
 * stays bounded by the largest line we are willing to hold.
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
}

/** V8 cannot hold a string longer than 2^29 - 24 UTF-16 units; a longer line can never be parsed. */
export const DEFAULT_MAX_LINE_BYTES = 0x1fffffe8;

const LF = 0x0a;
const CR = 0x0d;
const EMPTY = Buffer.alloc(0);

export class LineSplitter {
  private parts: Buffer[] = [];
  private partBytes = 0;
  private skipping = false;
  private lineNo = 0;

  constructor(private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES) {}

  /** Splits `chunk` and appends the lines it completed to `out`. Stream chunks are never reused by Node, so lines may share their memory. */
  push(chunk: Buffer, out: RawLine[] = []): RawLine[] {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(LF, start);
      if (nl < 0) {
        this.hold(chunk, start, chunk.length);
        return out;
      }
      if (this.partBytes === 0 && !this.skipping) {
        out.push(this.make(chunk.subarray(start, nl), nl - start, false, false));
      } else {
        this.hold(chunk, start, nl);
        out.push(this.take(false));
      }
      start = nl + 1;
    }
  }

  /** Flushes the last line when the input did not end with a newline. */
  end(out: RawLine[] = []): RawLine[] {
    if (this.partBytes > 0 || this.skipping) out.push(this.take(true));
    return out;
  }

  private hold(chunk: Buffer, from: number, to: number): void {
    const n = to - from;
    if (n <= 0) return;
    if (!this.skipping && this.partBytes + n > this.maxLineBytes) {
      this.skipping = true;
      this.parts = [];
    }
    if (!this.skipping) this.parts.push(chunk.subarray(from, to));
    this.partBytes += n;
  }

  private take(unterminated: boolean): RawLine {
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
