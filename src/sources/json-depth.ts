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
