import { fnv1a, mulberry32 } from "./instructions-text.js";

/**
 * The "big" lab server's filler (seed 003, FORMATS.md 2.5/2.6): a `BEGIN-MARKER: start-<hex>` line,
 * body lines, a final `END-MARKER: end-<hex>` line — exactly `chars` JS chars. A model that can quote
 * the END marker saw the whole result. Body lines by kind: `words` numbered lines of 8 random words
 * from a fixed 52-word list (seed 003's text); `cjk` 59 random CJK ideographs; `base64` 76-char lines
 * of base64 (as MIME wraps it); `hex` 64 hex digits (a long hash-like string per line); `mixed` the
 * four in turn. These are seed 003's next steps: texts with fewer chars per token than English.
 * Pure; the same (chars, kind) always gives the same text.
 */
export const WORD_LIST: readonly string[] = [
  "alfa",
  "bravo",
  "charlie",
  "delta",
  "echo",
  "foxtrot",
  "golf",
  "hotel",
  "india",
  "juliett",
  "kilo",
  "lima",
  "mike",
  "november",
  "oscar",
  "papa",
  "quebec",
  "romeo",
  "sierra",
  "tango",
  "uniform",
  "victor",
  "whiskey",
  "xray",
  "yankee",
  "zulu",
  "merge",
  "river",
  "stone",
  "cloud",
  "paper",
  "amber",
  "cedar",
  "maple",
  "orbit",
  "pixel",
  "quartz",
  "rocket",
  "saddle",
  "timber",
  "velvet",
  "walnut",
  "harbor",
  "lantern",
  "meadow",
  "copper",
  "signal",
  "ember",
  "falcon",
  "garnet",
  "island",
  "jasper",
];

export const LINE_KINDS = ["words", "cjk", "base64", "hex", "mixed"] as const;
export type LineKind = (typeof LINE_KINDS)[number];

export const WORDS_PER_LINE = 8;
export const CJK_PER_LINE = 59;
export const BASE64_PER_LINE = 76;
export const HEX_PER_LINE = 64;
/** CJK Unified Ideographs, BMP: one UTF-16 unit and 3 UTF-8 bytes each. */
const CJK_FIRST = 0x4e00;
const CJK_LAST = 0x9fa5;

/** Largest result the server will build; a bigger request is refused as invalid params, not attempted. */
export const MAX_EMIT_CHARS = 20_000_000;

export interface EmitMarkers {
  start: string;
  end: string;
}

/** The marker values of a result of `chars` chars; what a model should quote back. */
export function emitMarkers(chars: number, kind: LineKind | "json" | "image" = "words"): EmitMarkers {
  const key = `${chars}|${kind}`;
  return { start: `start-${hex8(fnv1a(`${key}|start`))}`, end: `end-${hex8(fnv1a(`${key}|end`))}` };
}

/**
 * Exactly `chars` chars. The body is cut to fit and its last line is closed with a newline, so the
 * END marker always sits on a line of its own; below the size of the two marker lines the text is
 * just their first `chars` chars.
 */
export function emitText(chars: number, kind: LineKind = "words"): string {
  const m = emitMarkers(chars, kind);
  const head = `BEGIN-MARKER: ${m.start}\n`;
  const tail = `END-MARKER: ${m.end}\n`;
  const budget = chars - head.length - tail.length;
  if (budget <= 0) return (head + tail).slice(0, chars);
  const next = mulberry32(fnv1a(`${chars}|${kind}|body`));
  const lines: string[] = [];
  let len = 0;
  for (let i = 1; len < budget; i++) {
    const line = bodyLine(kind, i, next);
    lines.push(line);
    len += line.length;
  }
  let body = lines.join("");
  if (body.length > budget) body = body.slice(0, budget - 1) + "\n";
  return head + body + tail;
}

const MIXED: readonly LineKind[] = ["words", "cjk", "base64", "hex"];

function bodyLine(kind: LineKind, i: number, next: () => number): string {
  switch (kind) {
    case "words":
      return wordLine(i, next);
    case "cjk":
      return cjkLine(next);
    case "base64":
      return `${randomBytes(next, (BASE64_PER_LINE / 4) * 3).toString("base64")}\n`;
    case "hex":
      return `${randomBytes(next, HEX_PER_LINE / 2).toString("hex")}\n`;
    case "mixed":
      return bodyLine(MIXED[(i - 1) % MIXED.length]!, i, next);
  }
}

/** `n` bytes from the text's PRNG, so base64 and hex bodies are as deterministic as the words. */
export function randomBytes(next: () => number, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let k = 0; k < n; k++) b[k] = Math.floor(next() * 256);
  return b;
}

function wordLine(i: number, next: () => number): string {
  const words: string[] = [];
  for (let w = 0; w < WORDS_PER_LINE; w++) words.push(WORD_LIST[Math.floor(next() * WORD_LIST.length)]!);
  return `${String(i).padStart(6, "0")} ${words.join(" ")}\n`;
}

function cjkLine(next: () => number): string {
  const codes: number[] = [];
  for (let k = 0; k < CJK_PER_LINE; k++) codes.push(CJK_FIRST + Math.floor(next() * (CJK_LAST - CJK_FIRST + 1)));
  return String.fromCharCode(...codes) + "\n";
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, "0");
}
