import { isUtf8 } from "node:buffer";
import { StringDecoder } from "node:string_decoder";
import type { LineSink } from "../sources/lines.js";
import { collectAfterHugeLine, HUGE_LINE_BYTES } from "../sources/memory.js";
import { notUtf8Count, type NulRuns } from "./json.js";
import { nulWsRun, nulWsRunBack, skipZeros } from "./nul-scan.js";

/**
 * One line too long to hold, for the readers that need only its start (debug logs, MCP message logs):
 * sources/lines.ts hands its bytes over as they come and this keeps a bounded head of them plus what the
 * reader asks of the whole line (its NUL runs, whether it is whitespace only, its bytes that are not UTF-8),
 * each found with native scans. A line the reader must parse whole (it looks like JSON from its first bytes)
 * is held instead, once. So a 300 MB line of NULs or of text costs its head, not three copies of itself.
 *
 * The "text" of the line starts after the last NUL of its leading run (NULs and whitespace), as the readers
 * cut it (records/json.ts nulRuns): `head` holds the text's first `headBytes` bytes, or all of it when held.
 */
/** Its NulRuns (records/json.ts) are over the whole line. */
export interface GiantLine extends NulRuns {
  bytes: number;
  /** The text's first bytes (after the leading run's last NUL), or all of them when `whole`. */
  head: Buffer;
  /** `head` is all of the text: it was held (the reader must parse it) or was no longer than the head. */
  whole: boolean;
  /** The first NUL at or after `leadEnd`, -1 for none: one before `tailStart` is a NUL inside the line. */
  nulAfterLead: number;
  /** Every character is whitespace (String#trim's) or NUL. */
  nulWsOnly: boolean;
  /** The line's first bytes with each NUL run as one NUL: enough for an excerpt of it with its NULs left out. */
  squeezed: Buffer;
  /** Bytes that are not UTF-8 (as records/json.ts notUtf8Count counts them), and the first one's offset. */
  badUtf8: number;
  firstBadUtf8: number;
  /** A CR, U+2028 or U+2029 lies past `head`: `.` in a pattern would not match across it. */
  breakPastHead: boolean;
}

export interface GiantOptions {
  /** Bytes of text kept when the line is not held. */
  headBytes: number;
  /** Whether the line must be held whole, from its text's first bytes (those after the leading run, and at most `headBytes`); undefined: more bytes are needed. */
  hold(text: Buffer, ended: boolean): boolean | undefined;
  /** Past this the line is not held (V8's longest string): `tooLong`. */
  maxHold: number;
}

const SQUEEZED = 1200;
const DECIDE = 4096;
const LS = Buffer.from([0xe2, 0x80, 0xa8]);
const PS = Buffer.from([0xe2, 0x80, 0xa9]);
const NOT_WS_NUL = /[^\s\0]/;

/** The trailing bytes of `b` that could still become one UTF-8 character (a valid prefix): 0 to 3. */
export function incompleteTail(b: Buffer): number {
  for (let k = 1; k <= 3 && k <= b.length; k++) {
    const c = b[b.length - k]!;
    if ((c & 0xc0) === 0x80) continue;
    const need = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (need <= k) return 0;
    if (k >= 2) {
      const d = b[b.length - k + 1]!;
      const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
      const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
      if (d < lo || d > hi) return 0;
    }
    return k;
  }
  return 0;
}

export class GiantLineSink implements LineSink {
  private at = 0;
  private inLead = true;
  private leadNuls = 0;
  private leadNulEnd = 0;
  private leadEnd = 0;
  private readonly text: Buffer[] = [];
  private textBytes = 0;
  private cut = false;
  private decided: boolean | undefined = undefined;
  private tooLong = false;
  private tailStart = -1;
  private tailNuls = 0;
  private tailFirstNul = -1;
  private nulAfterLead = -1;
  private nulWsOnly = true;
  private readonly decoder = new StringDecoder("utf8");
  private decoderPending = false;
  private readonly squeezed: Buffer[] = [];
  private squeezedBytes = 0;
  private lastSqueezedNul = false;
  private carry: Buffer = Buffer.alloc(0);
  private badUtf8 = 0;
  private firstBadUtf8 = -1;
  private breakPastHead = false;
  private edge: Buffer = Buffer.alloc(0);
  private store: Buffer | null = null;

  constructor(private readonly o: GiantOptions) {}

  push(c: Buffer): void {
    const base = this.at;
    this.utf8(c, base);
    this.squeeze(c);
    let from = 0;
    if (this.inLead) {
      const run = nulWsRun(c, 0);
      if (run.nuls > 0) {
        this.leadNuls += run.nuls;
        this.leadNulEnd = base + run.lastNulEnd;
        // The text starts after the run's last NUL: what was kept before it is no part of it.
        this.text.length = 0;
        this.textBytes = 0;
        from = run.lastNulEnd;
      }
      this.keepText(c, from, run.end);
      from = run.end;
      if (run.end < c.length) {
        this.inLead = false;
        this.leadEnd = base + run.end;
        this.tailStart = this.leadEnd;
      }
    }
    if (!this.inLead && from < c.length) this.body(c, from, base);
    this.at += c.length;
  }

  private body(c: Buffer, from: number, base: number): void {
    if (this.nulAfterLead < 0) {
      const k = c.indexOf(0, from);
      if (k >= 0) this.nulAfterLead = base + k;
    }
    const back = nulWsRunBack(c, c.length, from);
    if (back.start > from) {
      this.tailStart = base + back.start;
      this.tailNuls = back.nuls;
      this.tailFirstNul = back.firstNul < 0 ? -1 : base + back.firstNul;
    } else {
      this.tailNuls += back.nuls;
      if (this.tailFirstNul < 0 && back.firstNul >= 0) this.tailFirstNul = base + back.firstNul;
    }
    if (this.nulWsOnly) {
      // Only bytes past the leading run can be anything but NUL and whitespace; runs of zeros need no decoding.
      const piece = c.subarray(from);
      if (!this.decoderPending && skipZeros(piece, 0) === piece.length) {
        // nothing
      } else if (NOT_WS_NUL.test(this.decoder.write(piece))) this.nulWsOnly = false;
      this.decoderPending = incompleteTail(piece) > 0;
    }
    const wasCut = this.cut;
    this.keepText(c, from, c.length);
    if (wasCut) this.breaks(c, from);
    else if (this.cut) this.breaks(c, Math.max(from, c.length - (this.textBytes - this.o.headBytes)));
  }

  /** Keeps text bytes [from, to) of `c`: all of them when held, else up to the head's size. */
  private keepText(c: Buffer, from: number, to: number): void {
    if (to <= from || this.tooLong) return;
    if (this.decided === undefined && !this.inLead) {
      // Decided on the first bytes after the leading run, before more is kept.
      const first = Buffer.concat([...this.text, c.subarray(from, to)]);
      const after = first.subarray(Math.min(first.length, this.leadEnd - this.leadNulEnd));
      if (after.length >= DECIDE) this.decided = this.o.hold(after.subarray(0, DECIDE), false);
    }
    if (this.decided === true) {
      if (this.textBytes + (to - from) > this.o.maxHold) {
        this.tooLong = true;
        this.text.length = 0;
        return;
      }
      this.hold(c, from, to);
      return;
    }
    const room = this.o.headBytes - this.textBytes;
    if (room <= 0) {
      this.cut = true;
      this.textBytes += to - from;
      return;
    }
    // Copied: a reader may reuse its buffer for the next chunk (sources/line-chunks.ts).
    this.text.push(Buffer.from(c.subarray(from, Math.min(to, from + room))));
    if (to - from > room) this.cut = true;
    this.textBytes += to - from;
  }

  /**
   * A held line's bytes go into one buffer that grows fourfold (its pages are touched only as they are written),
   * not into a list of read buffers joined at the end: the read buffers are let go at once (the allocator hands
   * them out again for the next reads) and no join doubles the line.
   */
  private hold(c: Buffer, from: number, to: number): void {
    const n = to - from;
    const need = this.textBytes + n;
    if (this.store === null || need > this.store.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.min(this.o.maxHold, Math.max(need, 4 * (this.store?.length ?? 4 << 20))));
      if (this.store) this.store.copy(bigger, 0, 0, this.textBytes);
      else {
        let at = 0;
        for (const t of this.text) at += t.copy(bigger, at);
      }
      this.text.length = 0;
      this.store = bigger;
    }
    c.copy(this.store, this.textBytes, from, to);
    this.textBytes = need;
  }

  /** A CR or U+2028/U+2029 in `c` from `from` on (past the head); a sequence split across chunks is found at the join. */
  private breaks(c: Buffer, from: number): void {
    if (this.breakPastHead) return;
    const edge = Buffer.concat([this.edge, c.subarray(from, from + 2)]);
    const seen = (b: Buffer, i: number) => b.indexOf(0x0d, i) >= 0 || b.indexOf(LS, i) >= 0 || b.indexOf(PS, i) >= 0;
    if (seen(edge, 0) || seen(c, from)) this.breakPastHead = true;
    this.edge = Buffer.from(c.subarray(Math.max(from, c.length - 2)));
  }

  private squeeze(c: Buffer): void {
    let i = 0;
    while (this.squeezedBytes < SQUEEZED && i < c.length) {
      if (c[i] === 0) {
        if (!this.lastSqueezedNul) {
          this.squeezed.push(Buffer.from([0]));
          this.squeezedBytes++;
        }
        this.lastSqueezedNul = true;
        i = skipZeros(c, i);
        continue;
      }
      const k = c.indexOf(0, i);
      const to = Math.min(k < 0 ? c.length : k, i + SQUEEZED - this.squeezedBytes);
      this.squeezed.push(Buffer.from(c.subarray(i, to)));
      this.squeezedBytes += to - i;
      this.lastSqueezedNul = false;
      i = to;
    }
  }

  private utf8(c: Buffer, base: number): void {
    const data = this.carry.length ? Buffer.concat([this.carry, c]) : c;
    const start = base - this.carry.length;
    const keep = incompleteTail(data);
    const whole = data.subarray(0, data.length - keep);
    if (!isUtf8(whole)) this.countBad(whole, start);
    this.carry = Buffer.from(data.subarray(data.length - keep));
  }

  private countBad(b: Buffer, start: number): void {
    const bad = notUtf8Count(b);
    if (bad.bad === 0) return;
    this.badUtf8 += bad.bad;
    if (this.firstBadUtf8 < 0) this.firstBadUtf8 = start + bad.first;
  }

  end(): GiantLine | "tooLong" {
    if (this.carry.length) this.countBad(this.carry, this.at - this.carry.length);
    if (this.inLead) {
      this.leadEnd = this.at;
      this.tailStart = this.at;
    } else if (this.nulWsOnly && NOT_WS_NUL.test(this.decoder.end())) this.nulWsOnly = false;
    if (this.tooLong) return "tooLong";
    const text = this.store ? this.store.subarray(0, this.textBytes) : this.text.length === 1 ? this.text[0]! : Buffer.concat(this.text);
    this.store = null;
    this.text.length = 0;
    let held = this.decided === true;
    if (this.decided === undefined && !this.inLead) {
      // The line ended before enough bytes to decide on: what there is decides (all of it is kept).
      held = this.o.hold(text.subarray(Math.min(text.length, this.leadEnd - this.leadNulEnd)), true) === true;
    }
    return {
      bytes: this.at,
      head: held || !this.cut ? text : text.subarray(0, text.length - incompleteTail(text)),
      whole: held || !this.cut,
      leadEnd: this.leadEnd,
      leadNuls: this.leadNuls,
      leadNulEnd: this.leadNulEnd,
      tailStart: this.tailStart,
      tailNuls: this.tailNuls,
      tailFirstNul: this.tailFirstNul,
      nulAfterLead: this.nulAfterLead,
      nulWsOnly: this.nulWsOnly,
      squeezed: Buffer.concat(this.squeezed),
      badUtf8: this.badUtf8,
      firstBadUtf8: this.firstBadUtf8,
      breakPastHead: this.breakPastHead,
    };
  }
}

/** The line with its NULs left out, as far as `squeezed` goes: for the excerpt of a line with NULs inside. */
export function withoutNuls(g: GiantLine): string {
  const sq = g.squeezed.length >= SQUEEZED ? g.squeezed.subarray(0, g.squeezed.length - incompleteTail(g.squeezed)) : g.squeezed;
  return sq.toString("utf8").replace(/\u0000+/g, "");
}

/**
 * The text of the line from byte `from` to byte `to` of the line, as far as the head holds it (both in the text's
 * range). Read once: the head's bytes are let go (and, for a huge one, collected) so that they are not held beside
 * the string and what is parsed from it.
 */
export function giantText(g: GiantLine, from: number, to: number): string {
  const start = g.leadNulEnd;
  const head = g.head;
  const text = head.toString("utf8", Math.min(head.length, from - start), Math.min(head.length, to - start));
  g.head = EMPTY;
  if (head.length >= HUGE_LINE_BYTES) collectAfterHugeLine();
  return text;
}

const EMPTY = Buffer.alloc(0);

/** `lines.ts` LineStream for lines of `at` bytes or more, read through a GiantLineSink with these options. */
export function giantStream(at: number, o: GiantOptions) {
  return { at, open: () => new GiantLineSink(o) };
}
