import { DEFAULT_MAX_LINE_BYTES } from "../sources/lines.js";
import { bomAt, excerptOf, utf8Head } from "./json.js";
import { skipZeros } from "./nul-scan.js";

/**
 * Splits one JSON document as it streams into its top-level values, never holding more than one of them:
 * the elements of an array (`claude -p --output-format json --verbose`), or JSON values one after another
 * (a pretty-printed object, `jq .`). It only follows the structure (brackets, strings, commas); each value's
 * bytes are handed on whole, to be parsed and checked as a line is (records/json.ts parseLine). So every
 * value that closed before a tear is kept, a value that is itself bad costs only itself, and the tear is
 * one `tear` item with the line and byte where it is.
 */
export type SplitItem =
  | {
      kind: "value";
      /** 1-based: the first element is 1. */
      index: number;
      /** 1-based physical line of the value's first byte. */
      line: number;
      /** 0-based byte offset of the value's first byte. */
      offset: number;
      /** The value's bytes; empty when it is longer than a string can hold (`tooLong`). */
      buf: Buffer;
      bytes: number;
      tooLong: boolean;
    }
  | { kind: "tear"; line: number; offset: number; reason: string; excerpt: string }
  /**
   * A run of NUL bytes (whitespace among them) outside any value, skipped: a crash remnant before the
   * array's "[" or a value (`trailing: false`), or the zeros a crash left after the "]" or the last value
   * (`trailing: true`); records/json.ts `nulRuns` reads a line's runs by the same rule.
   */
  | { kind: "nul"; line: number; nuls: number; first: number; end: number; trailing: boolean };

export type SplitMode = "array" | "values";

const enum S {
  /** Before the array's "[" (array mode). */
  Open,
  /** After "[": an element or "]". */
  First,
  /** After ",": an element. */
  Next,
  /** After an element: "," or "]". */
  After,
  /** After "]": whitespace only. */
  Done,
  /** Values mode: between values. */
  Top,
  /** Inside a value. */
  In,
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
/** Bytes that end a scalar (a number, true, false, null) and are read again after it. */
const endsScalar = (c: number) =>
  isSpace(c) || c === 0x2c || c === 0x5d || c === 0x7d || c === 0x5b || c === 0x7b || c === 0x22 || c === 0x3a;
const HEAD_BYTES = 480;

/** A byte for a message: printable ASCII quoted, anything else by its code. */
function shown(c: number): string {
  return c >= 0x21 && c <= 0x7e ? `"${String.fromCharCode(c)}"` : `byte 0x${c.toString(16).padStart(2, "0")}`;
}

export async function* splitJson(
  chunks: AsyncIterable<Buffer>,
  mode: SplitMode,
  maxValueBytes = DEFAULT_MAX_LINE_BYTES,
): AsyncGenerator<SplitItem> {
  const doc = mode === "array" ? "JSON array" : "JSON text";
  const item = mode === "array" ? "element" : "value";
  let state: S = mode === "array" ? S.Open : S.Top;
  // finishValue() moves `state` on; read through this where the compiler would narrow it.
  const now = (): S => state;
  let line = 1;
  let offset = 0;
  /** Values (elements) begun so far. */
  let count = 0;
  // The value being read: where it began, its bytes so far, its open brackets (the closer each expects).
  let vLine = 0;
  let vOffset = 0;
  let parts: Buffer[] = [];
  let partBytes = 0;
  let tooLong = false;
  let head: Buffer = Buffer.alloc(0);
  const stack: number[] = [];
  let inString = false;
  let escaped = false;
  let scalar = false;
  /** Line of the last byte that was not whitespace, for a tear found at the end. */
  let lastLine = 1;
  let first = true;
  let bomCut = false;
  // A NUL run outside a value: how many NULs, where the first is (0-based) and on which line.
  let nuls = 0;
  let nulFirst = -1;
  let nulLine = 0;
  const nulRun = (end: number, trailing: boolean): SplitItem => {
    const out: SplitItem = { kind: "nul", line: nulLine, nuls, first: nulFirst, end, trailing };
    nuls = 0;
    nulFirst = -1;
    return out;
  };
  async function* withoutBom(src: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    // A UTF-8 BOM is skipped, even when the first chunks are shorter than it.
    let held: Buffer | null = Buffer.alloc(0);
    for await (const c of src) {
      if (held === null) {
        yield c;
        continue;
      }
      held = held.length ? Buffer.concat([held, c]) : c;
      const bom = bomAt(held);
      if (bom === "partial") continue;
      if (bom) {
        bomCut = true;
        held = held.subarray(3);
      }
      if (held.length) yield held;
      held = null;
    }
    if (held?.length) yield held;
  }

  // The value's first bytes, for an excerpt: only the parts those bytes lie in are copied (a value may be 512 MB).
  const headText = () => {
    if (parts.length === 0) return utf8Head(head, HEAD_BYTES);
    const first: Buffer[] = [];
    let n = 0;
    for (const p of parts) {
      if (n > HEAD_BYTES) break;
      first.push(p);
      n += p.length;
    }
    return utf8Head(first.length === 1 ? first[0]! : Buffer.concat(first), HEAD_BYTES);
  };
  const keep = (chunk: Buffer, from: number, to: number) => {
    if (to <= from) return;
    if (!tooLong && partBytes + (to - from) > maxValueBytes) {
      tooLong = true;
      if (head.length === 0) head = Buffer.from(headText(), "utf8");
      parts = [];
    }
    partBytes += to - from;
    if (!tooLong) parts.push(chunk.subarray(from, to));
  };
  const finishValue = (): SplitItem => {
    const buf = tooLong ? Buffer.alloc(0) : parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    const out: SplitItem = { kind: "value", index: count, line: vLine, offset: vOffset, buf, bytes: partBytes, tooLong };
    parts = [];
    partBytes = 0;
    tooLong = false;
    head = Buffer.alloc(0);
    scalar = false;
    state = mode === "array" ? S.After : S.Top;
    return out;
  };
  // A stop outside a value quotes the bytes from where it is; they may run on into the next chunks.
  let tail: Buffer | null = null;
  const at = (chunk: Buffer, i: number) => {
    tail = chunk.subarray(i, Math.min(chunk.length, i + HEAD_BYTES));
    return "";
  };

  const it = withoutBom(chunks)[Symbol.asyncIterator]();
  for (let r = await it.next(); !r.done; r = await it.next()) {
    const chunk = r.value;
    if (first) {
      first = false;
      if (bomCut) offset = 3;
    }
    const out: SplitItem[] = [];
    let from = state === S.In ? 0 : -1;
    let stop: SplitItem | null = null;
    let i = 0;
    for (; i < chunk.length && !stop; i++) {
      const c = chunk[i]!;
      if (c === 0x0a) line++;
      if (state === S.In) {
        if (scalar) {
          if (!endsScalar(c)) continue;
          // The scalar ended just before this byte: hand it on, then read the byte again.
          keep(chunk, from, i);
          out.push(finishValue());
          from = -1;
          if (c === 0x0a) line--;
          i--;
          continue;
        }
        if (inString) {
          if (escaped) escaped = false;
          else if (c === 0x5c) escaped = true;
          else if (c === 0x22) {
            inString = false;
            if (stack.length === 0) {
              keep(chunk, from, i + 1);
              out.push(finishValue());
              from = -1;
            }
          }
          continue;
        }
        if (c === 0x22) inString = true;
        else if (c === 0x7b) stack.push(0x7d);
        else if (c === 0x5b) stack.push(0x5d);
        else if (c === 0x7d || c === 0x5d) {
          const want = stack.pop();
          if (want !== c) {
            keep(chunk, from, i + 1);
            stop = {
              kind: "tear",
              line: vLine,
              offset: vOffset,
              reason:
                `${item} ${count} (from byte ${vOffset + 1}) is not valid JSON: ${shown(c)} at byte ${offset + i + 1} closes ` +
                `${want === undefined ? "nothing" : `where ${shown(want)} was expected`}; the rest of the input is not read`,
              excerpt: excerptOf(headText()),
            };
            break;
          }
          if (stack.length === 0) {
            keep(chunk, from, i + 1);
            out.push(finishValue());
            from = -1;
          }
        }
        continue;
      }
      if (isSpace(c)) continue;
      // NULs before the "[" (or a value), or after the "]" (or a value): a crash remnant, skipped and said.
      if (c === 0 && (state === S.Open || state === S.Top || state === S.Done)) {
        if (nuls === 0) {
          nulFirst = offset + i;
          nulLine = line;
        }
        // The run is skipped a memcmp block at a time (records/nul-scan.ts), not a loop turn a byte.
        const j = skipZeros(chunk, i);
        nuls += j - i;
        i = j - 1;
        continue;
      }
      lastLine = line;
      const begins = c === 0x7b || c === 0x5b || c === 0x22 || !endsScalar(c);
      if (state === S.Open) {
        if (c === 0x5b) {
          if (nuls > 0) out.push(nulRun(offset + i, false));
          state = S.First;
        } else
          stop = { kind: "tear", line, offset: offset + i, reason: `not a JSON array: it starts with ${shown(c)}`, excerpt: at(chunk, i) };
        continue;
      }
      if (now() === S.After) {
        if (c === 0x2c) state = S.Next;
        else if (c === 0x5d) state = S.Done;
        else
          stop = {
            kind: "tear",
            line,
            offset: offset + i,
            reason: `${doc} stops being valid JSON at byte ${offset + i + 1}: expected "," or "]" after element ${count}, found ${shown(c)}; the rest of the input is not read`,
            excerpt: at(chunk, i),
          };
        continue;
      }
      if (state === S.Done) {
        // NULs with something else after them are garbage too: the tear starts at the first of them.
        const from = nuls > 0 ? nulFirst : offset + i;
        stop = {
          kind: "tear",
          line: nuls > 0 ? nulLine : line,
          offset: from,
          reason: `trailing garbage after the JSON array's closing "]" (from byte ${from + 1}); not read`,
          excerpt: at(chunk, i),
        };
        continue;
      }
      if (state === S.First && c === 0x5d) {
        state = S.Done;
        continue;
      }
      if (!begins) {
        const where =
          state === S.Top
            ? count === 0
              ? "where a value should start"
              : `after value ${count}`
            : state === S.Next
              ? `after the "," that follows element ${count}`
              : `after the "["`;
        stop = {
          kind: "tear",
          line,
          offset: offset + i,
          reason: `${doc} stops being valid JSON at byte ${offset + i + 1}: ${shown(c)} ${where}; the rest of the input is not read`,
          excerpt: at(chunk, i),
        };
        continue;
      }
      // A value begins; a NUL run before it (values mode) was a crash remnant this write landed after.
      if (nuls > 0) out.push(nulRun(offset + i, false));
      count += 1;
      state = S.In;
      vLine = line;
      vOffset = offset + i;
      from = i;
      stack.length = 0;
      inString = c === 0x22;
      escaped = false;
      scalar = !inString && c !== 0x7b && c !== 0x5b;
      if (c === 0x7b) stack.push(0x7d);
      else if (c === 0x5b) stack.push(0x5d);
    }
    if (!stop && state === S.In && from >= 0) keep(chunk, from, chunk.length);
    offset += chunk.length;
    yield* out;
    if (stop) {
      if (tail) {
        let held: Buffer = tail;
        while (held.length < HEAD_BYTES) {
          const next = await it.next();
          if (next.done) break;
          held = Buffer.concat([held, next.value.subarray(0, HEAD_BYTES - held.length)]);
        }
        stop.excerpt = excerptOf(utf8Head(held, HEAD_BYTES));
      }
      yield stop;
      return;
    }
  }
  // The input ended.
  if (state === S.In && scalar && mode === "values") {
    yield finishValue();
    return;
  }
  if (nuls > 0 && (state === S.Done || (state === S.Top && count > 0))) yield nulRun(offset, true);
  if (state === S.In) {
    yield {
      kind: "tear",
      line: vLine,
      offset: vOffset,
      reason: `${doc} cut off inside ${item} ${count} (it starts at byte ${vOffset + 1}; the input ends at byte ${offset} before it closes)`,
      excerpt: excerptOf(headText()),
    };
    return;
  }
  const end = now();
  if (end === S.First || end === S.Next || end === S.After) {
    const after = count === 0 ? "before its first element" : `after element ${count}`;
    yield {
      kind: "tear",
      line: lastLine,
      offset,
      reason: `${doc} cut off ${after}: the input ends at byte ${offset} without the closing "]"`,
      excerpt: "",
    };
  }
  // S.Open with no byte at all, or S.Top with no value: the caller sees that nothing came.
}
