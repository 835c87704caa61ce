/**
 * Native-speed walks over NUL runs (crash remnants can be hundreds of MB of zeros): blocks are compared
 * with a buffer of zeros (memcmp) and only the block where the run ends is looked at byte by byte, so a
 * run costs a memcmp of its bytes, not a JavaScript loop over each of them.
 */
const ZEROS = Buffer.alloc(64 * 1024);
const SMALL = 256;

const zeroBlock = (buf: Buffer, at: number, n: number) => buf.compare(ZEROS, 0, n, at, at + n) === 0;

/** The first index in [from, to) whose byte is not 0, or `to` when there is none. */
export function skipZeros(buf: Buffer, from: number, to: number = buf.length): number {
  let i = from;
  // Short runs (or none) are cheaper byte by byte than a call.
  for (const stop = Math.min(to, i + 16); i < stop; i++) if (buf[i] !== 0) return i;
  while (i < to) {
    const n = Math.min(ZEROS.length, to - i);
    if (zeroBlock(buf, i, n)) {
      i += n;
      continue;
    }
    for (let m = Math.min(SMALL, to - i); i < to && zeroBlock(buf, i, m); m = Math.min(SMALL, to - i)) i += m;
    while (i < to && buf[i] === 0) i++;
    return i;
  }
  return to;
}

/** The first index j in [from, to] such that buf[j..to) are all 0 (`to` when buf[to - 1] is not). */
export function skipZerosBack(buf: Buffer, to: number, from = 0): number {
  let i = to;
  for (const stop = Math.max(from, i - 16); i > stop; i--) if (buf[i - 1] !== 0) return i;
  while (i > from) {
    const n = Math.min(ZEROS.length, i - from);
    if (zeroBlock(buf, i - n, n)) {
      i -= n;
      continue;
    }
    for (let m = Math.min(SMALL, i - from); i > from && zeroBlock(buf, i - m, m); m = Math.min(SMALL, i - from)) i -= m;
    while (i > from && buf[i - 1] === 0) i--;
    return i;
  }
  return from;
}

/** Whether every byte of `buf` is 0. */
export const allZeros = (buf: Buffer): boolean => skipZeros(buf, 0) === buf.length;

const isAsciiWs = (b: number) => b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;

/** A run of NUL and whitespace bytes (space, tab, CR, LF): where it ends, the NULs in it, and its first and last NUL. */
export interface NulWsRun {
  end: number;
  nuls: number;
  /** Index of the run's first NUL, -1 for none. */
  firstNul: number;
  /** Index just past the run's last NUL, 0 for none. */
  lastNulEnd: number;
}

/** The run of NUL and whitespace bytes from `from` on (up to `to`). */
export function nulWsRun(buf: Buffer, from: number, to: number = buf.length): NulWsRun {
  let i = from;
  let nuls = 0;
  let firstNul = -1;
  let lastNulEnd = 0;
  while (i < to) {
    const b = buf[i]!;
    if (b === 0) {
      const j = skipZeros(buf, i, to);
      if (firstNul < 0) firstNul = i;
      nuls += j - i;
      lastNulEnd = j;
      i = j;
    } else if (isAsciiWs(b)) i++;
    else break;
  }
  return { end: i, nuls, firstNul, lastNulEnd };
}

/** The run of NUL and whitespace bytes that ends at `to`, not reaching before `from`: where it starts, its NULs, its first NUL. */
export function nulWsRunBack(buf: Buffer, to: number, from = 0): { start: number; nuls: number; firstNul: number } {
  let i = to;
  let nuls = 0;
  let firstNul = -1;
  while (i > from) {
    const b = buf[i - 1]!;
    if (b === 0) {
      const j = skipZerosBack(buf, i, from);
      nuls += i - j;
      firstNul = j;
      i = j;
    } else if (isAsciiWs(b)) i--;
    else break;
  }
  return { start: i, nuls, firstNul };
}
