import { closeSync, openSync, readSync } from "node:fs";
import type { LazyString } from "./lazy-strings.js";
import { spillBytes, spillFd } from "./spill.js";

/**
 * The bytes of one string token of a scanned line (records/stream-scan.ts), quotes included: kept while
 * it is short, then only counted. A counted string becomes a lazy string whose value is read back from
 * the input file on first use (from the stdin copy: records/spill.ts); past V8's string limit it reads
 * as "" and `textKept` turns false.
 */

export interface TokenOptions {
  /** The input's path, "-" for stdin. */
  file: string;
  /** Tokens this long or longer are counted, not kept. */
  keepMax: number;
  /** Tokens longer than this cannot be decoded whole. */
  maxString: number;
}

/** Past this many kept bytes in one line, every string of CUT_MIN bytes or more is counted too. */
const KEPT_BUDGET = 16 * 1024 * 1024;
const CUT_MIN = 256;
/** Keys are kept whole; past this the line is reported instead of held. */
export const MAX_KEY = 16 * 1024 * 1024;
const EMPTY = Buffer.alloc(0);

export class StringToken {
  textKept = true;
  private isKey = false;
  private from = 0;
  private pieces: Buffer[] | null = null;
  private bytes = 0;
  private keptBytes = 0;
  // stdin: where the counted token starts in the spill file; -1 none, -2 the spill failed.
  private spillAt = -1;

  constructor(private readonly o: TokenOptions) {}

  /** A token whose opening quote is at file offset `from`. */
  start(isKey: boolean, from: number): void {
    this.isKey = isKey;
    this.from = from;
    this.pieces = [];
    this.bytes = 0;
    this.spillAt = -1;
  }

  /** The token's bytes [from, to) of `c`; `outlives`: `c` may be reused before the token ends. False: a key too long to hold. */
  piece(c: Buffer, from: number, to: number, outlives: boolean): boolean {
    if (this.pieces === null) {
      if (this.spillAt >= 0 && to > from && spillBytes(c.subarray(from, to)) < 0) this.spillAt = -2;
      return true;
    }
    this.pieces.push(outlives ? Buffer.from(c.subarray(from, to)) : c.subarray(from, to));
    this.bytes += to - from;
    if (this.isKey) return this.bytes <= MAX_KEY;
    if (!this.counted()) return true;
    if (this.o.file === "-") {
      const at = spillBytes(Buffer.concat(this.pieces));
      this.spillAt = at < 0 ? -2 : at;
    }
    this.pieces = null;
    return true;
  }

  private counted(): boolean {
    return this.bytes >= this.o.keepMax || (this.bytes >= CUT_MIN && this.keptBytes > KEPT_BUDGET);
  }

  /** The token ended at file offset `to` (just past its quote), its value `units` UTF-16 units long: the text, or a lazy string. */
  finish(to: number, units: number): { text: string } | { lazy: LazyString } {
    const pieces = this.pieces;
    this.pieces = null;
    if (pieces !== null && (this.isKey || !this.counted())) {
      this.keptBytes += this.bytes;
      return { text: JSON.parse((pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces)).toString("utf8")) as string };
    }
    let from = this.from;
    const file = this.o.file;
    let source: string | number = file;
    if (file === "-") {
      const fd = spillFd();
      if (this.spillAt >= 0 && fd !== undefined) {
        to = this.spillAt + (to - from);
        from = this.spillAt;
        source = fd;
      }
    }
    const readable = source !== "-" && to - from <= this.o.maxString;
    if (!readable) this.textKept = false;
    const s: LazyString = { line: EMPTY, from, to, units };
    s.read = readable ? () => readBack(source, from, to, units) : () => "";
    return { lazy: s };
  }
}

/** A counted string's value from the file (or the stdin spill's descriptor); "" if it no longer holds the same string there. */
function readBack(file: string | number, from: number, to: number, units: number): string {
  try {
    const fd = typeof file === "number" ? file : openSync(file, "r");
    try {
      const buf = Buffer.allocUnsafe(to - from);
      let got = 0;
      while (got < buf.length) {
        const n = readSync(fd, buf, got, buf.length - got, from + got);
        if (n === 0) break;
        got += n;
      }
      const v = JSON.parse(buf.toString("utf8", 0, got)) as unknown;
      return typeof v === "string" && v.length === units ? v : "";
    } finally {
      if (typeof file !== "number") closeSync(fd);
    }
  } catch {
    return "";
  }
}
