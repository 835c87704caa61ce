/** Nesting beyond this is not a record any Claude Code build writes; walking it would only risk the stack. */
export const MAX_DEPTH = 200;

/**
 * Lines at least this long are checked with `nestsDeeper` before JSON.parse: JSON.parse builds every level
 * of a line such as `[[[[…` before anything can look at its depth (60–75 bytes of memory per byte of line;
 * a 150 MB line ran the heap out). Shorter lines cost at most a few MB whatever they hold.
 */
export const DEEP_CHECK_MIN = 16 * 1024;

/**
 * Whether the JSON text nests deeper than `limit` (the root is level 1), counted from its brackets outside
 * strings, so that a line too deep is never handed to JSON.parse. Only ASCII bytes decide, and no byte of a
 * multi-byte UTF-8 sequence is ASCII, so the bytes and the decoded text give the same answer. Text that is
 * not JSON is counted all the same: what it is does not matter once it is too deep.
 */
export function nestsDeeper(t: Uint8Array | string, limit: number): boolean {
  const bytes = typeof t !== "string";
  const n = t.length;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < n; i++) {
    const c = bytes ? (t as Uint8Array)[i]! : (t as string).charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** `JSON.parse(text)`, or `tooDeep` for a long text that nests deeper than MAX_DEPTH (see DEEP_CHECK_MIN). */
export function parseJsonBounded<T>(text: string, tooDeep: T): unknown {
  if (text.length >= DEEP_CHECK_MIN && nestsDeeper(text, MAX_DEPTH)) return tooDeep;
  return JSON.parse(text);
}

/** A value cut out of a line by `pruneDeeper`: where its first bracket is (0-based) and how many bytes it spans. */
export interface DeepCut {
  at: number;
  bytes: number;
}

/**
 * The line with every value that opens deeper than `limit` (the root is level 1) replaced by `null`, and
 * where those values were; undefined when one of them never closes (the line ends inside it). Brackets are
 * counted outside strings, as in `nestsDeeper`, and a cut ends at its own bracket's match, so what is kept
 * nests `limit` deep at most and no level past it is ever built. Cuts end on an ASCII byte: the bytes kept
 * decode as the same UTF-8. Linear in the line, and the copy is no longer than the line.
 */
export function pruneDeeper(buf: Buffer, limit: number): { kept: Buffer; cuts: DeepCut[] } | undefined {
  const n = buf.length;
  const parts: Buffer[] = [];
  const cuts: DeepCut[] = [];
  let depth = 0;
  let inString = false;
  let from = 0;
  for (let i = 0; i < n; i++) {
    const c = buf[i]!;
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (depth + 1 <= limit) {
        depth++;
        continue;
      }
      const end = closeOf(buf, i);
      if (end < 0) return undefined;
      parts.push(buf.subarray(from, i), NULL);
      cuts.push({ at: i, bytes: end - i });
      from = end;
      i = end - 1;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  if (cuts.length === 0) return { kept: buf, cuts };
  parts.push(buf.subarray(from));
  return { kept: Buffer.concat(parts), cuts };
}

const NULL = Buffer.from("null");

/** Just past the bracket that closes the one at `at`, counted outside strings; -1 if the line ends first. */
function closeOf(buf: Buffer, at: number): number {
  let depth = 0;
  let inString = false;
  for (let i = at; i < buf.length; i++) {
    const c = buf[i]!;
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) depth++;
    else if ((c === 0x5d || c === 0x7d) && --depth === 0) return i + 1;
  }
  return -1;
}
