import { isAsciiAlnum, isRegexSpace, lineEndFrom } from "./linear-text.js";

/**
 * What Claude Code put in place of a tool's output (FORMATS.md 6.2) and which check that means (6.3).
 * Pure: one model-visible text in, the variant and every number it carries out. Messages are matched
 * at the start of the text (Claude Code recognises its own stubs that way), so a file that merely
 * quotes one of these messages stays `inline`.
 */

/** The `check` of CONTRACT.md `outputs`. */
export type Check = "inline" | "size" | "token" | "token-legacy" | "truncated" | "read-limit" | "budget" | "cleared";

/** The message variant behind a check: FORMATS.md 6.2 A–I, plus plain text. */
export type Variant =
  | "plain" // nothing replaced
  | "empty" // H: `(<tool> completed with no output)`
  | "binary" // G: binary content saved as a matter of course
  | "persisted-output" // A: size check
  | "token-saved" // B: token check, saved
  | "token-save-failed" // C: token check, save failed
  | "token-legacy" // E
  | "truncated" // D
  | "read-limit" // F
  | "cleared"; // I

export interface OutputMessage {
  check: Check;
  variant: Variant;
  /** The path as printed (`~/.claude/…`, another user's home, …); resolve it with sources/saved-files. */
  savedPath: string | null;
  /** The size text as printed, e.g. `51.7KB` (A, G). */
  reportedSize: string | null;
  /** `N characters` of B/C, separators stripped. */
  reportedChars: number | null;
  /** `across N lines` of the 2026 B texts. */
  reportedLines: number | null;
  /** Tokens named by E (`response (N tokens)`) and F (`File content (N tokens)`). */
  reportedTokens: number | null;
  /** The token limit named by D, E, F. */
  limit: number | null;
  /** A: the preview's own text, its label (`2KB`) and whether `...` said more followed. */
  preview: string | null;
  previewLabel: string | null;
  previewCut: boolean | null;
  /** B: the `Format:` line (`Plain text`, `JSON`, `JSON array with schema: …`). */
  contentFormat: string | null;
  /** E: the tool name the legacy message quotes. */
  legacyTool: string | null;
  /** C: why the save failed. */
  saveError: string | null;
}

const NUM = String.raw`[\d.,'\u00a0\u202f\u2009 ]*\d`;

export const OUTPUT_RX = {
  persisted:
    /^<persisted-output>\r?\nOutput too large \((?<size>[^)\n]+)\)\. Full output saved to: (?<path>[^\n]*?)\r?\n(?:\r?\nPreview \(first (?<pv>[^)\n]+)\):\r?\n(?<preview>[\s\S]*?))?(?<cut>\r?\n\.\.\.)?\r?\n?<\/persisted-output>\s*$/,
  persistedHead: /^<persisted-output>\r?\nOutput too large \((?<size>[^)\n]+)\)\.(?: Full output saved to: (?<path>[^\n]*))?/,
  token: new RegExp(
    String.raw`^(?:Error: )?result \((?<chars>${NUM}) characters(?: across (?<lines>${NUM}) lines?)?\) exceeds maximum allowed tokens\. (?<rest>[^\n]*)`,
  ),
  // B's `Output has been saved to <path>.` is read by savedToPath (no regex: see there).
  saveFailed: /^Failed to save output to file: (?<err>.*?)\.(?: If this MCP server|\s*$)/,
  format: /^Format: (?<format>.+)$/m,
  legacy: new RegExp(
    String.raw`^(?:Error: )?MCP tool "(?<tool>[^"]+)" response \((?<tokens>${NUM}) tokens\) exceeds maximum allowed tokens \((?<limit>${NUM})\)`,
  ),
  truncated: new RegExp(String.raw`\[OUTPUT TRUNCATED - exceeded (?<limit>${NUM}) token limit\]`),
  readLimit: new RegExp(
    String.raw`^(?:Error: )?File content \((?<tokens>${NUM}) tokens\) exceeds maximum allowed tokens \((?<limit>${NUM})\)`,
  ),
  cleared: /^\[Old tool result content cleared\]\s*$/,
  binary: /^(?<source>[^\n]*?)Binary content \((?<mime>[^,)\n]+), (?<size>[^)\n]+)\) saved to (?<path>[^\n]+?)\s*$/,
  empty: /^\((?<tool>[^\n]+) completed with no output\)$/,
} as const;

/** The truncation marker sits after the first 100,000 chars: look only at the tail. */
export const TRUNCATED_TAIL = 4096;

/**
 * A locale-formatted integer as Claude Code prints it (`179,889`, `179.889`, `179 889`, NBSP, narrow
 * NBSP, `'`). These numbers are always whole, so every separator is dropped.
 */
export function parseLocaleInt(s: string | undefined): number | null {
  if (s === undefined) return null;
  const digits = s.replace(/\D/g, "");
  if (digits === "") return null;
  // `(1e400 characters)` in evidence is no count: unknown rather than Infinity in a sum.
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}

const base = (check: Check, variant: Variant): OutputMessage => ({
  check,
  variant,
  savedPath: null,
  reportedSize: null,
  reportedChars: null,
  reportedLines: null,
  reportedTokens: null,
  limit: null,
  preview: null,
  previewLabel: null,
  previewCut: null,
  contentFormat: null,
  legacyTool: null,
  saveError: null,
});

/**
 * The message of plain text, most results by far: one object for all of them (outputs keeps a message
 * per result to the end of the pass, 3.8 MB of identical objects at 1 GB of transcript). Never mutate a
 * message.
 */
const PLAIN: OutputMessage = base("inline", "plain");

/** Classifies one model-visible tool_result text. Never throws; unknown text is `inline`. */
export function classifyOutput(text: string): OutputMessage {
  const t = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const head = t.trimStart();
  if (head.startsWith("<persisted-output>")) return persisted(head);
  let m: RegExpExecArray | null;
  if ((m = OUTPUT_RX.token.exec(head))) return tokenCheck(head, m);
  if ((m = OUTPUT_RX.legacy.exec(head))) {
    const o = base("token-legacy", "token-legacy");
    o.legacyTool = m.groups!.tool!;
    o.reportedTokens = parseLocaleInt(m.groups!.tokens);
    o.limit = parseLocaleInt(m.groups!.limit);
    return o;
  }
  if ((m = OUTPUT_RX.readLimit.exec(head))) {
    const o = base("read-limit", "read-limit");
    o.reportedTokens = parseLocaleInt(m.groups!.tokens);
    o.limit = parseLocaleInt(m.groups!.limit);
    return o;
  }
  if (OUTPUT_RX.cleared.test(head)) return base("cleared", "cleared");
  if ((m = OUTPUT_RX.truncated.exec(t.length > TRUNCATED_TAIL ? t.slice(-TRUNCATED_TAIL) : t))) {
    const o = base("truncated", "truncated");
    o.limit = parseLocaleInt(m.groups!.limit);
    return o;
  }
  if (head.length < 4096 && (m = OUTPUT_RX.binary.exec(head))) {
    const o = base("inline", "binary");
    o.reportedSize = m.groups!.size!.trim();
    o.savedPath = m.groups!.path!;
    return o;
  }
  if (OUTPUT_RX.empty.test(head)) return base("inline", "empty");
  return PLAIN;
}

/** Every message but D starts with one of these, after a BOM and white space (the regexes above, their literal starts). */
const STUB_START = /^(?:<persisted-output>|(?:Error: )?(?:result \(|MCP tool "|File content \()|\[Old tool result content cleared\]|\()/;
/** The units of head `classifyEnds` needs: more than the longest start above. */
export const HEAD_UNITS = 64;
/** Texts this long have a tail of TRUNCATED_TAIL units after a BOM, the truncation check's window. */
export const ENDS_MIN = TRUNCATED_TAIL + 2;
/** What OUTPUT_RX.truncated starts with: a text that cannot contain it needs no tail. */
export const TRUNCATED_MARK = "[OUTPUT TRUNCATED - exceeded ";

/** What the binary message holds (OUTPUT_RX.binary): a text without it is no binary stub. */
export const BINARY_MARK = "Binary content (";

/**
 * `classifyOutput` of a text shorter than ENDS_MIN known by its first HEAD_UNITS units after white space
 * (or more), when it holds neither TRUNCATED_MARK nor BINARY_MARK: plain, or null when the head may open a
 * message and the whole text is needed.
 */
export function classifyHead(head: string): OutputMessage | null {
  const h = head.trimStart();
  return h.length < HEAD_UNITS || STUB_START.test(h) ? null : PLAIN;
}

/**
 * `classifyOutput` of a long text known by its first HEAD_UNITS units after white space (or more) and its last
 * TRUNCATED_TAIL ("" when it cannot hold TRUNCATED_MARK): the same answer, or null when the head may open a
 * message (or leaves under 4,096 units, the binary check's length) and the whole text is needed.
 */
export function classifyEnds(head: string, tail: string, length: number): OutputMessage | null {
  // Trimmed, what is left of the head is the start of classifyOutput's `head` (and that is still 4,096 long or more).
  const h = head.trimStart();
  if (length < ENDS_MIN || h.length < HEAD_UNITS || length - (head.length - h.length) < TRUNCATED_TAIL || STUB_START.test(h)) return null;
  const m = OUTPUT_RX.truncated.exec(tail);
  if (!m) return PLAIN;
  const o = base("truncated", "truncated");
  o.limit = parseLocaleInt(m.groups!.limit);
  return o;
}

function persisted(head: string): OutputMessage {
  const o = base("size", "persisted-output");
  const full = OUTPUT_RX.persisted.exec(head);
  const m = full ?? OUTPUT_RX.persistedHead.exec(head);
  if (!m) return o;
  o.reportedSize = m.groups!.size!.trim();
  o.savedPath = m.groups!.path?.trim() || null;
  if (full) {
    o.preview = full.groups!.preview ?? null;
    o.previewLabel = full.groups!.pv ?? null;
    o.previewCut = o.preview === null ? null : full.groups!.cut !== undefined;
  } else {
    // A stub whose closing tag is missing (clipped or hand-edited): keep what follows the label.
    const pv = /\nPreview \(first (?<pv>[^)\n]+)\):\r?\n(?<preview>[\s\S]*)$/.exec(head);
    if (pv) {
      o.preview = pv.groups!.preview!;
      o.previewLabel = pv.groups!.pv!;
    }
  }
  return o;
}

function tokenCheck(head: string, m: RegExpExecArray): OutputMessage {
  const rest = m.groups!.rest!;
  const failed = OUTPUT_RX.saveFailed.exec(rest);
  const o = base("token", failed ? "token-save-failed" : "token-saved");
  o.reportedChars = parseLocaleInt(m.groups!.chars);
  o.reportedLines = parseLocaleInt(m.groups!.lines);
  if (failed) {
    o.saveError = failed.groups!.err!;
  } else {
    const s = savedToMatch(rest);
    if (s) o.savedPath = (s.tr ?? s.any ?? "").trim() || null;
  }
  const f = OUTPUT_RX.format.exec(head.slice(0, 8192));
  if (f) o.contentFormat = f.groups!.format!.trim();
  return o;
}

const SAVED_TO = "Output has been saved to ";

/**
 * B's path, as the regex
 * `^Output has been saved to (?:(?<tr>.*?tool-results[\\/]\S*?\.[A-Za-z0-9]+)(?=\.?(?:\s|$))|(?<any>.+?)\.?\s*$)`
 * matched it (the path ends with a sentence period: the tool-results name and its extension first), in
 * linear time: that regex took the square of the length (minutes on a megabyte of spaces or of
 * `tool-results/`), and the text is evidence anyone can write.
 */
export function savedToMatch(rest: string): { tr?: string; any?: string } | null {
  if (!rest.startsWith(SAVED_TO)) return null;
  const r = rest.slice(SAVED_TO.length);
  const lineEnd = lineEndFrom(r, 0);
  // `.*?` stops at a line end; the candidates in one run of non-space share its dots, so a run that
  // failed once is not scanned again.
  let scanned = 0;
  for (let i = r.indexOf("tool-results"); i >= 0 && i <= lineEnd; i = r.indexOf("tool-results", i + 1)) {
    const sep = r.charCodeAt(i + 12);
    if ((sep !== 0x2f && sep !== 0x5c) || i < scanned) continue;
    let k = i + 13;
    for (; k < r.length && !isRegexSpace(r.charCodeAt(k)); k++) {
      if (r.charCodeAt(k) !== 0x2e) continue;
      let e = k + 1;
      while (e < r.length && isAsciiAlnum(r.charCodeAt(e))) e++;
      if (e === k + 1) continue;
      const c = r.charCodeAt(e);
      if (e === r.length || isRegexSpace(c) || (c === 0x2e && (e + 1 === r.length || isRegexSpace(r.charCodeAt(e + 1)))))
        return { tr: r.slice(0, e) };
      k = e - 1;
    }
    scanned = k;
  }
  // The shortest text before an optional period and trailing white space.
  const t = r.trimEnd();
  const any = t.length === 0 ? r.slice(0, 1) : t.length >= 2 && t.endsWith(".") ? t.slice(0, -1) : t;
  if (any === "" || lineEndFrom(any, 0) < any.length) return null;
  return { any };
}

const SIZE_UNITS: Record<string, number> = { bytes: 1, byte: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };

/**
 * Whether Claude Code's size text (`<1024` → `N bytes`, else 1024-based with one decimal, FORMATS.md
 * 6.1) describes `bytes`; null when the text is not a size.
 */
export function sizeTextMatches(text: string, bytes: number): boolean | null {
  const m = /^(\d+(?:\.\d+)?)\s*(bytes?|KB|MB|GB)$/.exec(text.trim());
  if (!m) return null;
  const unit = SIZE_UNITS[m[2]!]!;
  if (unit === 1) return Number(m[1]) === bytes;
  return Math.abs(bytes / unit - Number(m[1])) <= 0.05 + 1e-9;
}

/**
 * Whether a size text of Claude Code's is a byte count (`900 bytes`) rather than a rounded one
 * (`51.7KB`: one decimal of KB, so ±51 bytes; `4.8MB` ±52,429): the number a reader gets from it is exact
 * only then.
 */
export function sizeTextExact(text: string): boolean {
  return /^\d+\s*(?:bytes?|B)$/.test(text.trim());
}

/** `51.7KB` → `≈51.7 KB`; a byte count as printed. For tables, where a rounded size must not read as exact. */
export function approxSizeText(text: string): string {
  const m = /^(\d+(?:\.\d+)?)\s*(KB|MB|GB)$/.exec(text.trim());
  return m ? `≈${m[1]} ${m[2]}` : text;
}

/** What the model had in front of it: the whole text, a preview, only a path, an error, a cut text, or nothing. */
export type ModelSaw = "inline" | "preview" | "path" | "error" | "truncated" | "cleared";

export function modelSaw(m: OutputMessage): ModelSaw {
  switch (m.variant) {
    case "persisted-output":
      return m.preview !== null && m.preview !== "" ? "preview" : "path";
    case "token-saved":
      return "path";
    case "token-save-failed":
    case "token-legacy":
    case "read-limit":
      return "error";
    case "truncated":
      return "truncated";
    case "cleared":
      return "cleared";
    default:
      return "inline";
  }
}
