import type { SavedLine } from "../records/tool-result-source.js";
import type { Analysis } from "./analysis.js";

/** The two layouts of FORMATS.md 2.5: the MCP content array as pretty-printed JSON, or the text verbatim. */
export type SavedFormat = "json" | "text";

export interface SavedFileStats {
  /** Physical lines, a last line without a newline included (the JSON layout's closing `]`). */
  lines: number;
  /** Newline characters, as `wc -l` counts them (the write-up's "5 lines" for the JSON layout). */
  newlines: number;
  /** Longest line in JS characters (UTF-16 units), counted from the bytes without decoding. */
  longestLine: number;
  format: SavedFormat;
}

interface State {
  stats: SavedFileStats;
  head: string[];
}

/**
 * Lines, longest line and layout of one saved output. The JSON layout is recognised by its opening `[`
 * line followed by a `{` line (pretty-printed content array, FORMATS.md 6.4); anything else is text.
 */
export const savedFileAnalysis: Analysis<State, SavedFileStats, SavedLine> = {
  init: () => ({ stats: { lines: 0, newlines: 0, longestLine: 0, format: "text" }, head: [] }),
  step(s, l) {
    s.stats.lines += 1;
    if (!l.unterminated) s.stats.newlines += 1;
    if (l.chars > s.stats.longestLine) s.stats.longestLine = l.chars;
    if (s.head.length < 3 && l.head !== null) s.head.push(l.head);
  },
  finish(s) {
    const json = s.head[0] === "[" && (s.head[1] ?? "").startsWith("{");
    return { ...s.stats, format: json ? "json" : "text" };
  },
};
