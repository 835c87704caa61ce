import { isUtf8 } from "node:buffer";
import { loadBytes, scan as wasmScan, SCAN_MORE, stoppedAt, units as wasmUnits } from "./wasm-string.js";

/**
 * The body of one JSON string that arrives in pieces (a line too long to hold, records/stream-scan.ts):
 * finds its closing quote, checks it as JSON.parse would, and counts the UTF-16 units its value has once
 * decoded, carrying an escape or a UTF-8 sequence that a chunk edge cut across. Bytes that are not UTF-8
 * count as Buffer#toString decodes them (WHATWG: one U+FFFD per maximal bad subpart), so the count equals
 * the length the full parse would see. Chunks that are valid UTF-8 go through the SIMD scanner.
 */

export const BODY_MORE = -1;
export const BODY_INVALID = -2;

const QUOTE = 0x22,
  BSLASH = 0x5c;
const ESCAPE_OK = new Uint8Array(256);
for (const c of [QUOTE, BSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]) ESCAPE_OK[c] = 1;
const HEX = new Uint8Array(256);
for (const c of "0123456789abcdefABCDEF") HEX[c.charCodeAt(0)] = 1;

/** Where in a chunk the SIMD scanner may run: [from, to) is whole UTF-8 sequences, valid, and loaded. */
interface FastWindow {
  chunk: Buffer;
  from: number;
  to: number;
}
let window: FastWindow | null = null;

/** The scanner's memory is shared with records/skeleton.ts: a window holds only until the next chunk is fed. */
export function forgetWindow(): void {
  window = null;
}

/** Below this many bytes left in the chunk, copying it into WebAssembly memory costs more than the JS loop. */
const FAST_MIN = 256;

function fastWindow(c: Buffer): FastWindow | null {
  if (window?.chunk === c) return window.to > window.from ? window : null;
  let from = 0;
  while (from < 3 && from < c.length && (c[from]! & 0xc0) === 0x80) from++;
  let to = c.length;
  for (let k = c.length - 1; k >= Math.max(from, c.length - 3); k--) {
    const b = c[k]!;
    if ((b & 0xc0) === 0x80) continue;
    const len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (k + len > c.length) to = k;
    break;
  }
  const ok = to > from && isUtf8(c.subarray(from, to)) && loadBytes(c) !== null;
  window = { chunk: c, from: ok ? from : 0, to: ok ? to : 0 };
  return ok ? window : null;
}

export class StringBody {
  units = 0;
  error = "";
  /** Line offset of the chunk being scanned: the scanner sets it, so bad bytes can be placed. */
  base = 0;
  /** Bytes that are not UTF-8 (each read as part of a U+FFFD), over every string since the body was made; `reset` keeps them. */
  badBytes = 0;
  /** Line offset of the first of them, or -1. */
  firstBad = -1;
  /** Line offset of the lead byte of the sequence in progress. */
  private seqAt = 0;
  // UTF-8 sequence in progress: bytes still needed, bytes seen, the next byte's allowed range, 4-byte lead.
  private need = 0;
  private seen = 0;
  private lo = 0x80;
  private hi = 0xbf;
  private four = false;
  // 0 none, 1 after a backslash, 2..5 reading the hex digits of \u.
  private esc = 0;

  reset(): void {
    this.units = 0;
    this.error = "";
    this.need = this.seen = this.esc = 0;
    this.lo = 0x80;
    this.hi = 0xbf;
  }

  /** From `i` in `c`: the closing quote's index, BODY_MORE when `c` ended first, or BODY_INVALID (`error` says why). */
  scan(c: Buffer, i: number): number {
    const n = c.length;
    let fast = true;
    while (i < n) {
      if (fast && this.need === 0 && this.esc === 0 && n - i >= FAST_MIN) {
        const w = fastWindow(c);
        if (w && i >= w.from && i < w.to) {
          const r = wasmScan(i, w.to);
          if (r >= 0) {
            this.units += wasmUnits();
            return r;
          }
          if (r === SCAN_MORE) {
            // Stopped at the window's end or at an escape it cuts: the loop below takes the next few bytes.
            this.units += wasmUnits();
            i = stoppedAt();
            continue;
          }
          // SCAN_INVALID: the loop below finds the same fault and names it.
          fast = false;
        } else fast = false;
      }
      const b = c[i]!;
      if (this.esc > 0) {
        if (this.esc === 1) {
          if (b === 0x75) this.esc = 2;
          else if (ESCAPE_OK[b]) {
            this.esc = 0;
            this.units++;
          } else return this.fail(`bad escape \\${String.fromCharCode(b)}`);
        } else if (!HEX[b]) return this.fail("bad \\u escape");
        else if (++this.esc === 6) {
          this.esc = 0;
          this.units++;
        }
        i++;
        continue;
      }
      if (this.need > 0) {
        if (b >= this.lo && b <= this.hi) {
          this.lo = 0x80;
          this.hi = 0xbf;
          if (++this.seen === this.need) {
            this.units += this.four ? 2 : 1;
            this.need = 0;
          }
          i++;
          continue;
        }
        // A cut sequence decodes to one U+FFFD; the byte that cut it starts afresh.
        this.units++;
        this.bad(this.seqAt, this.base + i);
        this.need = 0;
        this.lo = 0x80;
        this.hi = 0xbf;
        continue;
      }
      if (b < 0x80) {
        if (b === QUOTE) return i;
        if (b === BSLASH) this.esc = 1;
        else if (b < 0x20) return this.fail("bad control character in string literal");
        else this.units++;
        i++;
        continue;
      }
      this.seen = 0;
      this.four = false;
      this.seqAt = this.base + i;
      if (b >= 0xc2 && b <= 0xdf) this.need = 1;
      else if (b >= 0xe0 && b <= 0xef) {
        this.need = 2;
        if (b === 0xe0) this.lo = 0xa0;
        if (b === 0xed) this.hi = 0x9f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        this.need = 3;
        this.four = true;
        if (b === 0xf0) this.lo = 0x90;
        if (b === 0xf4) this.hi = 0x8f;
      } else {
        this.units++;
        this.bad(this.seqAt, this.seqAt + 1);
      }
      i++;
    }
    return BODY_MORE;
  }

  private bad(from: number, to: number): void {
    if (this.firstBad < 0) this.firstBad = from;
    this.badBytes += to - from;
  }

  private fail(why: string): number {
    this.error = why;
    return BODY_INVALID;
  }
}
