/**
 * Large lines, parsed lazily. A tool-result record carries its output twice: the model-visible
 * `message.content` and the UI copy `toolUseResult` (FORMATS.md 4.5); file-history snapshots can be
 * huge too. Most analyses never read those copies, so for a long line we find their byte ranges with a
 * validating scanner, JSON.parse the rest, and parse a skipped value only when someone reads it (a
 * getter, transparent to readers). The scanner checks structure, literals, numbers, escapes and raw
 * control characters, so a line it accepts is one JSON.parse accepts.
 */
/** A parsed JSON object; defined here, below json.ts, so the two do not import each other. */
export type JsonObject = Record<string, unknown>;

/** Top-level keys whose values may be skipped. */
export const LAZY_KEYS: ReadonlySet<string> = new Set(["toolUseResult", "snapshot"]);
/** Lines shorter than this are parsed whole: scanning would cost more than it saves. */
export const LAZY_MIN_LINE = 64 * 1024;
/** A value shorter than this is parsed with the rest. */
const LAZY_MIN_VALUE = 16 * 1024;

const QUOTE = 0x22,
  BSLASH = 0x5c,
  LBRACE = 0x7b,
  RBRACE = 0x7d,
  LBRACK = 0x5b,
  RBRACK = 0x5d,
  COLON = 0x3a,
  COMMA = 0x2c;

function ws(b: Buffer, i: number): number {
  for (;;) {
    const c = b[i];
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

/** Bytes that may follow a backslash: " \\ / b f n r t (u is handled apart). */
const ESCAPE_OK = new Uint8Array(256);
for (const c of [QUOTE, BSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]) ESCAPE_OK[c] = 1;
const HEX = new Uint8Array(256);
for (const c of "0123456789abcdefABCDEF") HEX[c.charCodeAt(0)] = 1;

/**
 * End (exclusive) of the string starting at the quote at `i`, or -1. One pass over the bytes: escapes are
 * checked, and a raw control character (invalid in JSON) fails the string, as JSON.parse would.
 */
function skipString(b: Buffer, i: number): number {
  const n = b.length;
  let j = i + 1;
  while (j < n) {
    const c = b[j]!;
    if (c === QUOTE) return j + 1;
    if (c === BSLASH) {
      const e = b[j + 1]!;
      if (e === 0x75) {
        if (!(HEX[b[j + 2]!] && HEX[b[j + 3]!] && HEX[b[j + 4]!] && HEX[b[j + 5]!])) return -1;
        j += 6;
      } else if (ESCAPE_OK[e]) j += 2;
      else return -1;
    } else if (c < 0x20) return -1;
    else j++;
  }
  return -1;
}

function skipScalar(b: Buffer, i: number): number {
  for (const lit of ["true", "false", "null"]) {
    if (b[i] === lit.charCodeAt(0)) {
      for (let k = 0; k < lit.length; k++) if (b[i + k] !== lit.charCodeAt(k)) return -1;
      return i + lit.length;
    }
  }
  let j = i;
  if (b[j] === 0x2d) j++;
  const digits = (from: number) => {
    let k = from;
    while (b[k]! >= 0x30 && b[k]! <= 0x39) k++;
    return k;
  };
  let k = digits(j);
  if (k === j || (b[j] === 0x30 && k > j + 1)) return -1;
  if (b[k] === 0x2e) {
    const f = digits(k + 1);
    if (f === k + 1) return -1;
    k = f;
  }
  if (b[k] === 0x65 || b[k] === 0x45) {
    let e = k + 1;
    if (b[e] === 0x2b || b[e] === 0x2d) e++;
    const f = digits(e);
    if (f === e) return -1;
    k = f;
  }
  return k;
}

/** From an object key's opening quote to the start of its value (past the colon), or -1. */
function skipKey(b: Buffer, i: number): number {
  if (b[i] !== QUOTE) return -1;
  i = skipString(b, i);
  if (i < 0) return -1;
  i = ws(b, i);
  return b[i] === COLON ? ws(b, i + 1) : -1;
}

/** End (exclusive) of the JSON value at `i`, or -1 when it is not valid. Iterative: no stack limits. */
export function skipValue(b: Buffer, i: number): number {
  const stack: number[] = [];
  i = ws(b, i);
  for (;;) {
    const c = b[i];
    if (c === QUOTE) i = skipString(b, i);
    else if (c === LBRACE || c === LBRACK) {
      stack.push(c);
      i = ws(b, i + 1);
      if (b[i] === (c === LBRACE ? RBRACE : RBRACK)) {
        stack.pop();
        i++;
      } else if (c === LBRACE) {
        i = skipKey(b, i);
        if (i < 0) return -1;
        continue;
      } else continue;
    } else if (c === undefined) return -1;
    else i = skipScalar(b, i);
    if (i < 0) return -1;
    // After a value: close containers or move to the next element.
    for (;;) {
      if (stack.length === 0) return i;
      i = ws(b, i);
      const top = stack[stack.length - 1]!;
      if (b[i] === COMMA) {
        i = ws(b, i + 1);
        if (top === LBRACE) {
          i = skipKey(b, i);
          if (i < 0) return -1;
        }
        break;
      }
      if (b[i] === (top === LBRACE ? RBRACE : RBRACK)) {
        stack.pop();
        i++;
        continue;
      }
      return -1;
    }
  }
}

/**
 * Parses a long line, leaving the big values of LAZY_KEYS unparsed until read. Returns undefined when the
 * line is not a well-formed object (the caller then runs JSON.parse for the exact error).
 */
export function parseLazily(b: Buffer, beforeLazy?: (obj: JsonObject) => void): JsonObject | undefined {
  let i = ws(b, 0);
  if (b[i] !== LBRACE) return undefined;
  const cut: Array<{ key: string; from: number; to: number }> = [];
  i = ws(b, i + 1);
  if (b[i] !== RBRACE) {
    for (;;) {
      if (b[i] !== QUOTE) return undefined;
      const kEnd = skipString(b, i);
      if (kEnd < 0) return undefined;
      const key = kEnd - i < 64 ? b.toString("utf8", i + 1, kEnd - 1) : "";
      i = ws(b, kEnd);
      if (b[i] !== COLON) return undefined;
      const vStart = ws(b, i + 1);
      const vEnd = skipValue(b, vStart);
      if (vEnd < 0) return undefined;
      if (LAZY_KEYS.has(key) && vEnd - vStart >= LAZY_MIN_VALUE) cut.push({ key, from: vStart, to: vEnd });
      i = ws(b, vEnd);
      if (b[i] === COMMA) {
        i = ws(b, i + 1);
        continue;
      }
      if (b[i] === RBRACE) break;
      return undefined;
    }
  }
  if (ws(b, i + 1) !== b.length) return undefined;
  const parts: Buffer[] = [];
  let at = 0;
  for (const c of cut) {
    parts.push(b.subarray(at, c.from), NULL);
    at = c.to;
  }
  parts.push(b.subarray(at));
  const obj = JSON.parse(Buffer.concat(parts).toString("utf8")) as JsonObject;
  beforeLazy?.(obj);
  for (const c of cut) defineLazy(obj, c.key, b.subarray(c.from, c.to));
  return obj;
}

const NULL = Buffer.from("null");

function defineLazy(obj: JsonObject, key: string, bytes: Buffer): void {
  let value: unknown;
  let done = false;
  Object.defineProperty(obj, key, {
    enumerable: true,
    configurable: true,
    get() {
      if (!done) {
        value = JSON.parse(bytes.toString("utf8"));
        done = true;
      }
      return value;
    },
  });
}
